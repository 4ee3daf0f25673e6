/* SPDX-License-Identifier: MIT */
/* A user's option header, as STOW_CONFIG_HEADER names it (tests/consumers/cmake_ctest.sh):
 * the library and everything that links stow::stow include it first. */
#define STOW_CHECK_LEVEL 0
#define STOW_HANDLE_INDEX_BITS 24
