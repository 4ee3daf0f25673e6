/* SPDX-License-Identifier: MIT */
/* A heap of no bytes is refused when it is defined, by the macro itself: also
 * where -pedantic (which rejects its zero-length array) is off, as it is here. */
#include "stow/heap.h"

#pragma GCC diagnostic ignored "-Wpedantic"

STOW_HEAP_DEFINE(cf_heap_empty, STOW_COMPILE_FAIL ? 0 : 256);
