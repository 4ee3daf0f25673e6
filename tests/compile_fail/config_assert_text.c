/* SPDX-License-Identifier: MIT */
/* config_assert_text.c - config.h refuses a STOW_ASSERT_TEXT value other than 0 or 1. */
#if STOW_COMPILE_FAIL
#define STOW_ASSERT_TEXT 2
#endif
#include "stow/stow.h"

int stow_compile_fail_config_assert_text(void);
int stow_compile_fail_config_assert_text(void) { return STOW_CHECK_LEVEL; }
