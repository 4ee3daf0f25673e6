/* SPDX-License-Identifier: MIT */
/* A genpool whose capacity does not fit the handle's index bits is refused when
 * it is defined (init refuses it at run time, returning false), with a message
 * that names the limit, its value and the option that raises it.
 * expect: STOW_HANDLE_MAX_CAPACITY, which is [0-9]+ \(2\^[0-9]+\), with STOW_HANDLE_INDEX_BITS [0-9]+: for more slots define STOW_HANDLE_INDEX_BITS higher */
#include "stow/genpool.h"

STOW_GENPOOL_DEFINE(cf_genpool_too_big, char, STOW_COMPILE_FAIL ? STOW_HANDLE_MAX_CAPACITY + 1u : 4u);
