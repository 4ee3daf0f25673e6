/* SPDX-License-Identifier: MIT */
/* The C library's malloc on a stow heap, from an installed stow (stow::malloc,
 * lib/stow/<variant>/libstow_malloc.a, newlib-nano): malloc, calloc, realloc and
 * free from this file, and newlib's own strdup, all get blocks of the heap's
 * storage, which the linker fragment placed inside .stow.
 *
 * Prints "ok <what>" / "FAIL <what>" and ends "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stow/stow.h"
#include "stow_malloc.h"

extern uint8_t __stow_start[];
extern uint8_t __stow_end[];

static unsigned passed;
static unsigned failed;

static void print(const char *text)
{
    stow_port_write(text, strlen(text));
}

static void check(bool ok, const char *what)
{
    print(ok ? "ok " : "FAIL ");
    print(what);
    print("\n");
    if (ok) {
        passed++;
    } else {
        failed++;
    }
}

static void print_u(unsigned value)
{
    char digits[12];
    size_t at = sizeof digits;
    do {
        digits[--at] = (char)('0' + (char)(value % 10u));
        value /= 10u;
    } while (value != 0u);
    stow_port_write(&digits[at], sizeof digits - at);
}

static bool in_stow(const void *p)
{
    return (uintptr_t)p >= (uintptr_t)__stow_start && (uintptr_t)p < (uintptr_t)__stow_end;
}

int main(void)
{
    char *a = malloc(100);
    int *zeros = calloc(16, sizeof *zeros);
    char *copy = strdup("stow");
    stow_stats_t stats;
    bool all_zero = zeros != NULL;

    for (unsigned i = 0; zeros != NULL && i < 16u; i++) {
        all_zero = all_zero && zeros[i] == 0;
    }
    check(a != NULL && in_stow(a), "malloc: a block of the stow heap, inside .stow");
    check(all_zero && in_stow(zeros), "calloc: zeroed, from the stow heap");
    check(copy != NULL && in_stow(copy) && strcmp(copy, "stow") == 0,
          "newlib's strdup: its copy comes from the stow heap");
    a = realloc(a, 1000);
    check(a != NULL && in_stow(a), "realloc: grown, still on the stow heap");
    stow_malloc_stats(&stats);
    check(stats.used >= 1000u + 16u * sizeof(int) + 5u, "stow_malloc_stats: the live blocks' bytes are counted");
    free(a);
    free(zeros);
    free(copy);
    check(stow_malloc_check(), "stow_malloc_check: the heap is consistent after the frees");

    print_u(passed);
    print(" passed, ");
    print_u(failed);
    print(" failed\n");
    return (int)failed;
}
