/* SPDX-License-Identifier: MIT */
/* adapters/libc/test/control.c - a program linked WITHOUT stow_malloc.c, with
 * the C library's own allocator: alone.sh must find that allocator in its map
 * (proof that the check can fail). Linked only, never run. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    char *p = malloc(32u);
    if (p == NULL) {
        return 1;
    }
    (void)snprintf(p, 32u, "%d", 42);
    p = realloc(p, 64u);
    free(p);
    return 0;
}
