/* SPDX-License-Identifier: MIT */
/* An application of stow: a pool it defines and uses, and the level it sees. */
#include <stdio.h>

#include "stow/stow.h"

STOW_POOL_DEFINE_STATIC(items, int, 4);

int main(void)
{
    int *a = STOW_POOL_NEW(&items, int);
    int ok = a != NULL && STOW_CHECK_LEVEL == 2;
    stow_pool_free(&items, a);
    printf("%s: check level %d\n", ok ? "ok" : "FAIL", STOW_CHECK_LEVEL);
    printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
