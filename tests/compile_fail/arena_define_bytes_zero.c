/* SPDX-License-Identifier: MIT */
/* An arena of no bytes is refused when it is defined, by the macro itself: also
 * where -pedantic (which rejects its zero-length array) is off, as it is here. */
#include "stow/arena.h"

#pragma GCC diagnostic ignored "-Wpedantic"

STOW_ARENA_DEFINE(cf_arena_empty, STOW_COMPILE_FAIL ? 0 : 16);
