/* SPDX-License-Identifier: MIT */
/* A packed array of no items is refused when it is defined (init refuses
 * capacity 0 at run time, returning false). */
#include "stow/packed.h"

STOW_PACKED_DEFINE(cf_packed_empty, int, STOW_COMPILE_FAIL ? 0 : 4);
