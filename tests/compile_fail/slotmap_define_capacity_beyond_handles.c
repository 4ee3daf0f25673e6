/* SPDX-License-Identifier: MIT */
/* A slot map whose capacity does not fit the handle's index bits is refused when
 * it is defined (init refuses it at run time, returning false). */
#include "stow/slotmap.h"

STOW_SLOTMAP_DEFINE(cf_slotmap_too_big, char, STOW_COMPILE_FAIL ? STOW_HANDLE_MAX_CAPACITY + 1u : 4u);
