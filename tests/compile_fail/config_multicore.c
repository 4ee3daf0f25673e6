/* SPDX-License-Identifier: MIT */
/* config_multicore.c - config.h refuses a STOW_MULTICORE value other than 0 or 1. */
#if STOW_COMPILE_FAIL
#define STOW_MULTICORE 2
#endif
#include "stow/stow.h"

int stow_compile_fail_config_multicore(void);
int stow_compile_fail_config_multicore(void) { return STOW_MULTICORE; }
