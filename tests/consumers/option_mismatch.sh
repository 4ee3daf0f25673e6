#!/bin/sh
# SPDX-License-Identifier: MIT
# option_mismatch.sh ROOT WORK - tests/consumers/mismatch: stow added with
# add_subdirectory and built with STOW_CHECK_LEVEL=2; an application target that
# agrees builds and runs at level 2, and each target that sets an option of its own
# (a target definition, a -D compile option, a directory's definitions in C++) fails
# to compile with a message that names its value and the library's.
# (find_package_make.sh checks the same against an installed copy.)
ROOT=$1
WORK=$2
. "$ROOT/tests/consumers/common.sh"
B="$WORK/build"

# mismatch TARGET PATTERN: building TARGET fails with PATTERN, and without the
# "redefined" warnings the library's value used to win with.
mismatch() {
    must_fail "$WORK/$1.log" "$2" cmake --build "$B" --target "$1" || return 1
    ! grep -n "redefined" "$WORK/$1.log"
}

step "cmake configure (add_subdirectory, STOW_CHECK_LEVEL=2)" \
    cmake -S "$ROOT/tests/consumers/mismatch" -B "$B" -DSTOW_SOURCE_DIR="$ROOT" &&
step "a target without options of its own builds" cmake --build "$B" --target agree &&
step "...and runs at the library's level 2" counts_ok "$B/agree"
step "target_compile_definitions(STOW_CHECK_LEVEL=0): error naming 0 and 2" \
    mismatch level0 "STOW_CHECK_LEVEL: this file is compiled with 0, the stow library with 2"
step "target_compile_options(-DSTOW_HANDLE_INDEX_BITS=20): error naming 20 and 16" \
    mismatch bits20 "STOW_HANDLE_INDEX_BITS: this file is compiled with 20, the stow library with 16"
step "C++, add_compile_definitions(STOW_GENERATION_OVERFLOW=STOW_GEN_RETIRE): error naming both" \
    mismatch retire "STOW_GENERATION_OVERFLOW: this file is compiled with STOW_GEN_RETIRE, the stow library with STOW_GEN_WRAP"
finish 6
