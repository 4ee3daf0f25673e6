/* SPDX-License-Identifier: MIT */
/* config_index_bits.c - config.h refuses index bits that leave one generation bit. */
#if STOW_COMPILE_FAIL
#define STOW_HANDLE_INDEX_BITS 31
#endif
#include "stow/stow.h"

int stow_compile_fail_config_index_bits(void);
int stow_compile_fail_config_index_bits(void) { return STOW_CHECK_LEVEL; }
