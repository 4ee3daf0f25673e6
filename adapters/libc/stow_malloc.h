/* SPDX-License-Identifier: MIT */
/* stow_malloc.h - what adapters/libc/stow_malloc.c adds to the C library's own
 * allocator interface (malloc, free, ... as <stdlib.h> and <malloc.h> declare
 * them): the heap behind them, and a consistent view of its figures.
 *
 *     stow_stats_t s;
 *     stow_malloc_stats(&s);        // s.used, s.peak: bytes of blocks, headers
 *                                   // included; s.fails: refused requests
 *     if (!stow_malloc_check()) { ... }   // debug builds: every block and list
 *
 * stow_malloc_heap() is the heap itself, for any stow_heap_* call
 * (stow_heap_largest_free(), ...); a call that changes it from code that an
 * interrupt may preempt while another context allocates belongs inside
 * stow_port_critical_enter()/exit(), as the functions below do.
 */
#ifndef STOW_MALLOC_H
#define STOW_MALLOC_H

#include "stow/heap.h"
#include "stow_malloc_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The one heap that serves malloc and the rest. */
stow_heap_t *stow_malloc_heap(void);

/* stow_heap_stats() of that heap, taken inside the port's critical section, so
 * that an interrupt cannot change it half-way. O(1). */
void stow_malloc_stats(stow_stats_t *out);

/* stow_heap_check() of that heap inside the critical section: O(capacity) with
 * interrupts masked; for tests and debug builds. */
bool stow_malloc_check(void);

/* Calls counted since start-up when STOW_MALLOC_COUNT is 1 (all zero when 0):
 *   allocs    requests for a new block: malloc, calloc, realloc(NULL, n), the
 *             aligned calls (newlib's _r variants and the libc's internal calls
 *             included), refused ones too;
 *   frees     blocks given back: free and cfree of a non-NULL pointer,
 *             realloc(p, 0);
 *   reallocs  realloc of a live block to a size above 0.
 * Requests that were refused are stow_malloc_stats()'s fails. */
typedef struct {
    uint32_t allocs;
    uint32_t frees;
    uint32_t reallocs;
} stow_malloc_counts_t;
void stow_malloc_counts(stow_malloc_counts_t *out);

#ifdef __cplusplus
}
#endif

#endif /* STOW_MALLOC_H */
