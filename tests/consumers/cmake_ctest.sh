#!/bin/sh
# SPDX-License-Identifier: MIT
# cmake_ctest.sh ROOT WORK - stow as the top-level CMake project: configured with
# non-default options (once as cache options, once through STOW_CONFIG_HEADER),
# built, and the host suite run with ctest. The suite is compiled with the options
# the library got (they are PUBLIC definitions) and prints the level it sees.
ROOT=$1
WORK=$2
. "$ROOT/tests/consumers/common.sh"

# ctest_level DIR LEVEL: ctest passes and the suite ran at LEVEL.
ctest_level() {
    (cd "$1" && ctest --output-on-failure -V >ctest.log 2>&1) || { cat "$1/ctest.log"; return 1; }
    cat "$1/ctest.log"
    grep -q "check level $2\$" "$1/ctest.log"
}

B="$WORK/options"
step "cmake configure (STOW_CHECK_LEVEL=2, STOW_HANDLE_INDEX_BITS=28, RETIRE)" \
    cmake -S "$ROOT" -B "$B" -DCMAKE_BUILD_TYPE=Release -DSTOW_CHECK_LEVEL=2 \
        -DSTOW_HANDLE_INDEX_BITS=28 -DSTOW_GENERATION_OVERFLOW=RETIRE &&
step "cmake --build (library and host suite, -Werror)" cmake --build "$B" -j2 &&
step "ctest: the host suite passes at level 2" ctest_level "$B" 2

H="$WORK/config-header"
step "cmake configure (STOW_CONFIG_HEADER=tests/consumers/config/my_stow_config.h)" \
    cmake -S "$ROOT" -B "$H" -DCMAKE_BUILD_TYPE=Release \
        -DSTOW_CONFIG_HEADER="$ROOT/tests/consumers/config/my_stow_config.h" &&
step "cmake --build with the header" cmake --build "$H" -j2 &&
step "ctest: the host suite passes at the header's level 0" ctest_level "$H" 0
finish 6
