#!/bin/sh
# SPDX-License-Identifier: MIT
# cmake_firmware.sh ROOT WORK - tests/consumers/firmware: a firmware for QEMU's
# mps2-an386 that adds stow with add_subdirectory, built with CMake and
# cmake/arm-none-eabi.cmake, linked with its own script around linker/stow.ld and
# its budget list (stow_check_budgets), and run under QEMU; then built with a
# budget its subsystem ui exceeds, which must fail the link.
ROOT=$1
WORK=$2
. "$ROOT/tests/consumers/common.sh"
B="$WORK/build"
ELF="$B/firmware.elf"

# The section holding __stow_start (the fragment's storage) is NOBITS (takes no
# room in the image) and holds at least the firmware's 8 x 16-byte pool and
# 256-byte arena.
storage_nobits() {
    start=$(arm-none-eabi-nm "$ELF" | awk '$3 == "__stow_start" { print $1 }')
    [ -n "$start" ] || { echo "no __stow_start in $ELF"; return 1; }
    at=$((0x$start))
    arm-none-eabi-readelf -SW "$ELF" | sed -n 's/^ *\[ *[0-9]*\] *//p' >"$WORK/sections.txt"
    verdict=1
    while read -r name type addr off size rest; do
        case $addr$size in *[!0-9a-f]* | '') continue ;; esac
        base=$((0x$addr))
        bytes=$((0x$size))
        if [ "$bytes" -gt 0 ] && [ "$at" -ge "$base" ] && [ "$at" -lt $((base + bytes)) ]; then
            echo "__stow_start $start is in $name: $type, $bytes bytes"
            if [ "$type" = NOBITS ] && [ "$bytes" -ge 384 ]; then
                verdict=0
            fi
        fi
    done <"$WORK/sections.txt"
    # ...and the budget fragment stow_check_budgets generated was the one linked.
    arm-none-eabi-nm "$ELF" | grep -q ' __stow_budget_ui_start$' || { echo "no budget symbols"; return 1; }
    return $verdict
}

step "cmake configure (toolchain file, STOW_PORT=cortex-m, Cortex-M4)" \
    cmake -S "$ROOT/tests/consumers/firmware" -B "$B" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/arm-none-eabi.cmake" -DSTOW_ARM_CPU=cortex-m4 \
        -DSTOW_ARM_FLOAT_ABI=soft -DSTOW_SOURCE_DIR="$ROOT" &&
step "cmake --build (stow via add_subdirectory, firmware.ld INCLUDEs stow.ld)" \
    cmake --build "$B" -j2 &&
step "storage in a NOBITS section (arm-none-eabi-readelf), the budget fragment linked" storage_nobits &&
step "runs under QEMU mps2-an386: exit 0, its checks pass" \
    counts_ok timeout 60 qemu-system-arm -M mps2-an386 $QEMU_RUN -kernel "$ELF"

# The same firmware with a budget of 64 bytes for its 128-byte subsystem.
over_budget() {
    cmake -S "$ROOT/tests/consumers/firmware" -B "$WORK/over" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/arm-none-eabi.cmake" -DSTOW_ARM_CPU=cortex-m4 \
        -DSTOW_ARM_FLOAT_ABI=soft -DSTOW_SOURCE_DIR="$ROOT" -DFW_UI_BUDGET=64 >"$WORK/over.log" 2>&1 ||
        { cat "$WORK/over.log"; return 1; }
    must_fail "$WORK/over-build.log" "stow budget: subsystem ui is over its budget of 64 bytes" \
        cmake --build "$WORK/over" -j2
}
step "stow_check_budgets(firmware budgets.h) with FW_UI_BUDGET=64: the link fails with the tool's message" \
    over_budget
finish 5
