#!/bin/sh
# SPDX-License-Identifier: MIT
# find_package_make.sh ROOT WORK - find_package(stow) after `make install`: the tree
# is installed (STOW_CHECK_LEVEL=2), then moved, and every consumer below uses
# only the moved copy, with CMake alone:
#   tests/consumers/installed   a host program (lib/libstow.a); a version the
#                               install cannot meet is refused
#   tests/consumers/firmware    STOW_FROM=package, with the installed toolchain file
#                               for a Cortex-M4F (hard float): find_package picks
#                               lib/stow/cortex-m4f; stow_check_budgets(); run under
#                               QEMU mps2-an386; bin/stow_report reads the image;
#                               a budget it exceeds fails the link; malloc_fw
#                               (stow::malloc, newlib-nano) runs
#   a Cortex-A7 toolchain       no installed library fits: find_package says so
#   tests/consumers/mismatch    STOW_FROM=package: a target with STOW_CHECK_LEVEL=0
#                               fails, naming 0 and the installed 2
# make test builds the libraries first (install.mk), so the install only copies.
ROOT=$1
WORK=$2
. "$ROOT/tests/consumers/common.sh"
P="$WORK/prefix"
M="$WORK/moved"

install_and_move() {
    rm -rf "$P" "$M" && stow_make install PREFIX="$P" STOW_CHECK_LEVEL=2 && mv "$P" "$M"
}

# Nothing in the CMake package names where it was installed.
relocatable() {
    ! grep -rn -- "$P" "$M/lib/cmake/stow" "$M/share/stow/cmake" || return 1
    [ ! -e "$P" ]
}

build_host() {
    cmake -S "$ROOT/tests/consumers/installed" -B "$WORK/host" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="$M" && cmake --build "$WORK/host"
}

# The version the install says it is (stow/version.h), as the refusal names it.
VERSION=$(sed -n 's/^#define STOW_VERSION_STRING "\([0-9.]*\)"$/\1/p' "$ROOT/lib/include/stow/version.h" |
    sed 's/\./\\./g')

version_refused() {
    must_fail "$WORK/version.log" "stowConfigVersion.cmake|version: $VERSION" \
        cmake -S "$ROOT/tests/consumers/installed" -B "$WORK/host-9" -DCMAKE_PREFIX_PATH="$M" \
        -DSTOW_WANT_VERSION=9.0
}

# firmware DIR [-D...]: tests/consumers/firmware against the moved copy, for a
# Cortex-M4F, with the toolchain file the install ships.
firmware() {
    dir=$1
    shift
    cmake -S "$ROOT/tests/consumers/firmware" -B "$dir" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_TOOLCHAIN_FILE="$M/share/stow/cmake/arm-none-eabi.cmake" -DSTOW_ARM_CPU=cortex-m4 \
        -DSTOW_ARM_FLOAT_ABI=hard -DSTOW_ARM_FPU=fpv4-sp-d16 -DSTOW_FROM=package \
        -DCMAKE_PREFIX_PATH="$M" "$@" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; return 1; }
    cat "$dir.configure.log"
    grep -q "stow 0\\.[0-9.]*: variant cortex-m4f, check level 2" "$dir.configure.log"
}

build_firmware() {
    firmware "$WORK/fw" && cmake --build "$WORK/fw" -j2 &&
    arm-none-eabi-readelf -A "$WORK/fw/firmware.elf" | grep -q "Tag_ABI_VFP_args: VFP registers"
}

run_firmware() {
    counts_ok timeout 60 qemu-system-arm -M mps2-an386 $QEMU_RUN -kernel "$WORK/fw/firmware.elf" \
        >"$WORK/fw-run.log" 2>&1 || { cat "$WORK/fw-run.log"; return 1; }
    cat "$WORK/fw-run.log"
    grep -q '^ok hard float' "$WORK/fw-run.log"
}

report_tool() {
    "$M/bin/stow_report" "$WORK/fw/firmware.elf" >"$WORK/report.txt" || { cat "$WORK/report.txt"; return 1; }
    cat "$WORK/report.txt"
    grep -Eq '^msg_pool +pool ' "$WORK/report.txt" &&
    grep -Eq '^ui_text +arena +ui ' "$WORK/report.txt" &&
    grep -Eq '^ui +512 ' "$WORK/report.txt"
}

over_budget() {
    firmware "$WORK/fw-over" -DFW_UI_BUDGET=64 >/dev/null &&
    must_fail "$WORK/fw-over.log" "stow budget: subsystem ui is over its budget of 64 bytes" \
        cmake --build "$WORK/fw-over" -j2
}

malloc_runs() {
    [ -f "$WORK/fw/malloc_fw.elf" ] || { echo "no malloc_fw: stow::malloc missing"; return 1; }
    # newlib's own allocator and its sbrk are not in the image: stow_malloc.o is.
    grep -q 'libstow_malloc.a(stow_malloc.o)' "$WORK/fw/malloc_fw.map" &&
    ! grep -E '\((lib_a|libc_a)-(nano-)?(malloc|mallocr|freer|sbrkr|syssbrk)\.o\)' "$WORK/fw/malloc_fw.map" &&
    counts_ok timeout 60 qemu-system-arm -M mps2-an386 $QEMU_RUN -kernel "$WORK/fw/malloc_fw.elf"
}

no_fit() {
    must_fail "$WORK/a7.log" "no installed stow library fits this compiler" \
        cmake -S "$ROOT/tests/consumers/firmware" -B "$WORK/a7" \
        -DCMAKE_TOOLCHAIN_FILE="$M/share/stow/cmake/arm-none-eabi.cmake" -DSTOW_ARM_CPU=cortex-a7 \
        -DSTOW_FROM=package -DCMAKE_PREFIX_PATH="$M"
}

mismatch() {
    cmake -S "$ROOT/tests/consumers/mismatch" -B "$WORK/mismatch" -DSTOW_FROM=package \
        -DCMAKE_PREFIX_PATH="$M" >"$WORK/mismatch.configure.log" 2>&1 &&
    cmake --build "$WORK/mismatch" --target agree &&
    must_fail "$WORK/mismatch.log" "STOW_CHECK_LEVEL: this file is compiled with 0, the stow library with 2" \
        cmake --build "$WORK/mismatch" --target level0
}

step "make install PREFIX=<scratch> STOW_CHECK_LEVEL=2, then the tree moved elsewhere" install_and_move &&
step "the moved tree's CMake package names no path of the install" relocatable &&
step "host: find_package(stow 0.3 CONFIG REQUIRED) from the moved tree, configure and build" \
    build_host &&
step "host program runs: level 2 from the installed options, its checks pass" counts_ok "$WORK/host/host"
step "find_package(stow 9.0) is refused by stowConfigVersion.cmake" version_refused
step "firmware: installed toolchain file, Cortex-M4F hard float: find_package picks cortex-m4f; budgets fit; builds" \
    build_firmware &&
step "firmware runs under QEMU mps2-an386, hard float" run_firmware &&
step "bin/stow_report reads the firmware's registry and budget" report_tool
step "a budget the firmware exceeds (FW_UI_BUDGET=64) fails the link with the tool's message" over_budget
step "stow::malloc (newlib-nano): malloc, calloc, realloc and newlib's strdup on the stow heap, under QEMU" \
    malloc_runs
step "a Cortex-A7 toolchain: find_package fails, saying no installed variant fits and which are" no_fit
step "an application target with STOW_CHECK_LEVEL=0 against the installed level-2 library: error naming both" \
    mismatch
finish 12
