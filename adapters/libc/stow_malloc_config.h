/* SPDX-License-Identifier: MIT */
/* stow_malloc_config.h - the settings of adapters/libc/stow_malloc.c. Edit the
 * values here, or pass them with -D (each is only a default, under #ifndef).
 *
 *   STOW_MALLOC_HEAP_BYTES  the storage of the one heap that serves malloc,
 *                           calloc, realloc, free and the aligned calls, in bytes.
 *                           It lives in .bss.stow.heap.malloc_heap (NOLOAD, in
 *                           .stow with linker/stow.ld; in .bss otherwise). Not
 *                           every byte holds blocks: the heap's own words take
 *                           a little (see stow/heap.h, "Memory").
 *   STOW_MALLOC_BOUNDED     1: the heap is a bounded one (STOW_HEAP_DEFINE_BOUNDED:
 *                           power-of-two blocks), and
 *                           STOW_HEAP_BYTES_FOR(max_live_bytes, max_request)
 *                           gives a size that no allocation pattern within
 *                           those limits can make fail; 0 (the default): the
 *                           heap's default policy, about half the storage for
 *                           the same program, no such bound.
 *   STOW_MALLOC_PAGE_SIZE   the alignment of valloc() and the unit pvalloc()
 *                           rounds sizes up to (a power of two). A Cortex-M has
 *                           no pages; 4096 is what programs written for a host
 *                           expect, and costs that much alignment per call.
 *   STOW_MALLOC_COUNT       1: count calls (stow_malloc_counts()), inside the same
 *                           critical section as the heap call; 0: no counters,
 *                           and each call goes through stow_heap_*_isr().
 *
 * STOW_CHECK_LEVEL and the other library options are set for the whole build
 * (stow/config.h): stow_malloc.c must see the ones lib/src/heap.c was built
 * with, or the link fails naming the option.
 */
#ifndef STOW_MALLOC_CONFIG_H
#define STOW_MALLOC_CONFIG_H

#ifndef STOW_MALLOC_HEAP_BYTES
#define STOW_MALLOC_HEAP_BYTES (8u * 1024u)
#endif

#ifndef STOW_MALLOC_BOUNDED
#define STOW_MALLOC_BOUNDED 0
#endif

#ifndef STOW_MALLOC_PAGE_SIZE
#define STOW_MALLOC_PAGE_SIZE 4096u
#endif

#ifndef STOW_MALLOC_COUNT
#define STOW_MALLOC_COUNT 0
#endif

#endif /* STOW_MALLOC_CONFIG_H */
