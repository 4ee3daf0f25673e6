/* SPDX-License-Identifier: MIT */
/* A genpool whose capacity does not fit the handle's index bits is refused when
 * it is defined (init refuses it at run time, returning false). */
#include "stow/genpool.h"

STOW_GENPOOL_DEFINE(cf_genpool_too_big, char, STOW_COMPILE_FAIL ? STOW_HANDLE_MAX_CAPACITY + 1u : 4u);
