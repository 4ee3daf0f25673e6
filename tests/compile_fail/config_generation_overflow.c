/* SPDX-License-Identifier: MIT */
/* config_generation_overflow.c - config.h refuses a generation overflow policy that does not exist. */
#if STOW_COMPILE_FAIL
#define STOW_GENERATION_OVERFLOW 7
#endif
#include "stow/stow.h"

int stow_compile_fail_config_generation_overflow(void);
int stow_compile_fail_config_generation_overflow(void) { return STOW_CHECK_LEVEL; }
