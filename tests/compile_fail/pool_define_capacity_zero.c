/* SPDX-License-Identifier: MIT */
/* A pool of no blocks is refused when it is defined, not when it is first used. */
#include "stow/pool.h"

STOW_POOL_DEFINE(cf_pool_empty, int, STOW_COMPILE_FAIL ? 0 : 4);
