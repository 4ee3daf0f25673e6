/* SPDX-License-Identifier: MIT */
/* use_example.c - stow_mbedtls_use as a program writes it. adapters/mbedtls/check.sh
 * compiles it twice against Debian's headers: with -DMBEDTLS_PLATFORM_MEMORY (as a
 * build that enables it), where it must compile, and as Debian ships them, where it
 * must not, with an error that names MBEDTLS_PLATFORM_MEMORY. */
#include "stow_mbedtls.h"

STOW_HEAP_DEFINE(tls_heap, 64u * 1024u);

int stow_example_setup(void);
int stow_example_setup(void) { return stow_mbedtls_use(&tls_heap); }
