/* SPDX-License-Identifier: MIT */
/* A slot map whose capacity does not fit the handle's index bits is refused when
 * it is defined (init refuses it at run time, returning false), with a message
 * that names the limit, its value and the option that raises it: with the
 * default 16 index bits, 100000 slots.
 * expect: STOW_HANDLE_MAX_CAPACITY, which is 65536 \(2\^16\), with STOW_HANDLE_INDEX_BITS 16: for more slots define STOW_HANDLE_INDEX_BITS higher */
#include "stow/slotmap.h"

STOW_SLOTMAP_DEFINE(cf_slotmap_too_big, char, STOW_COMPILE_FAIL ? 100000u : 4u);
