/* SPDX-License-Identifier: MIT */
/* order.c - a host program that prints with printf() around stow_report(), its
 * output sent to a file or a pipe (where stdout is fully buffered): the lines
 * must come out in the order the program wrote them (tests/report/order.sh). */
#include <stdio.h>

#include "stow/stow.h"

STOW_POOL_DEFINE(orders, uint32_t, 4);

int main(void);
int main(void)
{
    printf("order: before the report\n");
    (void)stow_pool_alloc(&orders);
    bool ok = stow_report();
    printf("order: after the report\n");
    stow_print("order: through stow_print\n");
    printf("order: last\n");
    return ok ? 0 : 1;
}
