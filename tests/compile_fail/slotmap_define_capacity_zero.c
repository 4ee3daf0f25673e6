/* SPDX-License-Identifier: MIT */
/* A slot map of no items is refused when it is defined (init refuses capacity 0
 * at run time, returning false). */
#include "stow/slotmap.h"

STOW_SLOTMAP_DEFINE(cf_slotmap_empty, int, STOW_COMPILE_FAIL ? 0 : 4);
