/* SPDX-License-Identifier: MIT */
/* config_check_level.c - config.h refuses a check level that does not exist. */
#if STOW_COMPILE_FAIL
#define STOW_CHECK_LEVEL 3
#endif
#include "stow/stow.h"

int stow_compile_fail_config_check_level(void);
int stow_compile_fail_config_check_level(void) { return STOW_CHECK_LEVEL; }
