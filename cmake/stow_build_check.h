/* SPDX-License-Identifier: MIT */
/* stow/build_check.h - the header stow's CMake targets name as STOW_CONFIG_HEADER
 * (stow::stow from add_subdirectory, FetchContent or find_package), so that
 * stow/config.h includes it first in every file that includes a stow header.
 *
 * It gives each such file the options the library was built with, and stops the
 * compilation of a file that sets one of them to another value (with -D, a
 * target's or a directory's compile definitions, CMAKE_C_FLAGS...), naming both:
 *
 *     error: static assertion failed: "STOW_CHECK_LEVEL: this file is compiled
 *     with 0, the stow library with 2 ..."
 *
 * instead of letting the library's value silently win ("redefined" warnings) or
 * leaving it to the link. The build system passes the library's values as
 * STOW_BUILT_CHECK_LEVEL, STOW_BUILT_HANDLE_INDEX_BITS and
 * STOW_BUILT_GENERATION_OVERFLOW (each only where it knows it: an option left
 * empty next to your own STOW_CONFIG_HEADER is that header's business), and your
 * option header, if any, as STOW_BUILT_CONFIG_HEADER, included here first.
 *
 * Not for files compiled without stow's CMake targets: with make or pkg-config,
 * give every file the same -D options instead (stow/config.h).
 */
#ifndef STOW_BUILD_CHECK_H
#define STOW_BUILD_CHECK_H

#ifdef STOW_BUILT_CONFIG_HEADER
#include STOW_BUILT_CONFIG_HEADER
#endif

/* The same definitions as stow/config.h's (an identical redefinition is no
 * redefinition), needed here to compare the overflow options. */
#define STOW_GEN_WRAP 1
#define STOW_GEN_RETIRE 2

#define STOW__BUILT_STR2(x) #x
#define STOW__BUILT_STR(x) STOW__BUILT_STR2(x)
#ifdef __cplusplus
#define STOW__BUILT_ASSERT(cond, text) static_assert(cond, text)
#else
#define STOW__BUILT_ASSERT(cond, text) _Static_assert(cond, text)
#endif
#define STOW__BUILT_ADVICE                                                                      \
    "; set the option once, for stow (its CMake option or your STOW_CONFIG_HEADER), not per " \
    "target (docs/embedding.md, Options)"

#ifdef STOW_BUILT_CHECK_LEVEL
#ifndef STOW_CHECK_LEVEL
#define STOW_CHECK_LEVEL STOW_BUILT_CHECK_LEVEL
#endif
STOW__BUILT_ASSERT(STOW_CHECK_LEVEL == STOW_BUILT_CHECK_LEVEL,
                   "STOW_CHECK_LEVEL: this file is compiled with " STOW__BUILT_STR(STOW_CHECK_LEVEL)
                   ", the stow library with " STOW__BUILT_STR(STOW_BUILT_CHECK_LEVEL)
                   STOW__BUILT_ADVICE);
#endif

#ifdef STOW_BUILT_HANDLE_INDEX_BITS
#ifndef STOW_HANDLE_INDEX_BITS
#define STOW_HANDLE_INDEX_BITS STOW_BUILT_HANDLE_INDEX_BITS
#endif
STOW__BUILT_ASSERT(STOW_HANDLE_INDEX_BITS == STOW_BUILT_HANDLE_INDEX_BITS,
                   "STOW_HANDLE_INDEX_BITS: this file is compiled with "
                   STOW__BUILT_STR(STOW_HANDLE_INDEX_BITS) ", the stow library with "
                   STOW__BUILT_STR(STOW_BUILT_HANDLE_INDEX_BITS) STOW__BUILT_ADVICE);
#endif

#ifdef STOW_BUILT_GENERATION_OVERFLOW
#ifndef STOW_GENERATION_OVERFLOW
#define STOW_GENERATION_OVERFLOW STOW_BUILT_GENERATION_OVERFLOW
#endif
/* By name: both sides expand to 1 or 2. */
#if STOW_GENERATION_OVERFLOW == STOW_GEN_WRAP
#define STOW__BUILT_FILE_OVERFLOW "STOW_GEN_WRAP"
#elif STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE
#define STOW__BUILT_FILE_OVERFLOW "STOW_GEN_RETIRE"
#else
#define STOW__BUILT_FILE_OVERFLOW STOW__BUILT_STR(STOW_GENERATION_OVERFLOW)
#endif
#if STOW_BUILT_GENERATION_OVERFLOW == STOW_GEN_WRAP
#define STOW__BUILT_LIB_OVERFLOW "STOW_GEN_WRAP"
#else
#define STOW__BUILT_LIB_OVERFLOW "STOW_GEN_RETIRE"
#endif
STOW__BUILT_ASSERT(STOW_GENERATION_OVERFLOW == STOW_BUILT_GENERATION_OVERFLOW,
                   "STOW_GENERATION_OVERFLOW: this file is compiled with " STOW__BUILT_FILE_OVERFLOW
                   ", the stow library with " STOW__BUILT_LIB_OVERFLOW STOW__BUILT_ADVICE);
#endif

#endif /* STOW_BUILD_CHECK_H */
