/* SPDX-License-Identifier: MIT */
/* config_default_align.c - config.h refuses a default alignment that is not a power of two. */
#if STOW_COMPILE_FAIL
#define STOW_DEFAULT_ALIGN 12
#endif
#include "stow/stow.h"

int stow_compile_fail_config_default_align(void);
int stow_compile_fail_config_default_align(void) { return STOW_CHECK_LEVEL; }
