/* SPDX-License-Identifier: MIT */
/* A heap too small for one minimum block and the heap's own words is refused
 * when it is defined (init refuses it at run time, returning false). At exactly
 * STOW_HEAP_MIN_BYTES it compiles. */
#include "stow/heap.h"

STOW_HEAP_DEFINE_STATIC(cf_heap_small, STOW_COMPILE_FAIL ? STOW_HEAP_MIN_BYTES - 1u : STOW_HEAP_MIN_BYTES);

void *cf_heap_small_alloc(void);
void *cf_heap_small_alloc(void) { return stow_heap_alloc(&cf_heap_small, 1); }
