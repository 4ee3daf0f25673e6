/* SPDX-License-Identifier: MIT */
/* config_sections.c - config.h refuses a STOW_SECTIONS value other than 0 or 1. */
#if STOW_COMPILE_FAIL
#define STOW_SECTIONS 2
#endif
#include "stow/stow.h"

int stow_compile_fail_config_sections(void);
int stow_compile_fail_config_sections(void) { return STOW_CHECK_LEVEL; }
