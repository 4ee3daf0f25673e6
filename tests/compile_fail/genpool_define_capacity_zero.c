/* SPDX-License-Identifier: MIT */
/* A genpool of no items is refused when it is defined (init refuses capacity 0
 * at run time, returning false). */
#include "stow/genpool.h"

STOW_GENPOOL_DEFINE(cf_genpool_empty, int, STOW_COMPILE_FAIL ? 0 : 4);
