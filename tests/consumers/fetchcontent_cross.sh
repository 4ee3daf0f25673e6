#!/bin/sh
# SPDX-License-Identifier: MIT
# fetchcontent_cross.sh ROOT WORK - cross-compiling a firmware that gets stow with
# FetchContent (tests/consumers/firmware, STOW_FROM=fetch), from a local clone at
# one commit. The toolchain file is given to the first cmake, before anything is
# fetched, so it cannot come from stow's tree; the two routes of docs/embedding.md:
#   - the project's own toolchain file (firmware/toolchain-cortex-m7.cmake: a
#     Cortex-M7, double-precision FPU, hard float): stow is built from source with
#     its flags, and the firmware runs under QEMU mps2-an500;
#   - stow's cmake/arm-none-eabi.cmake copied into the project first (here into
#     WORK), for a Cortex-M33 with hard float, run under QEMU mps2-an505.
ROOT=$1
WORK=$2
. "$ROOT/tests/consumers/common.sh"
REPO="$WORK/stow.git"
FW="$ROOT/tests/consumers/firmware"

# configure DIR TOOLCHAIN [-D...]
configure() {
    dir=$1
    toolchain=$2
    shift 2
    rm -rf "$dir" &&
    cmake -S "$FW" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
        -DSTOW_FROM=fetch -DSTOW_GIT_REPOSITORY="$REPO" -DSTOW_GIT_TAG="$TAG" "$@"
}

# The library FetchContent built carries the project's ABI: v7E-M, hard float,
# FPv5 double precision.
user_abi() {
    lib=$(find "$WORK/m7" -name libstow.a | head -n 1)
    [ -n "$lib" ] || { echo "no libstow.a under $WORK/m7"; return 1; }
    arm-none-eabi-readelf -A "$lib" | sort -u | tee "$WORK/m7-attrs.txt" >/dev/null
    cat "$WORK/m7-attrs.txt"
    grep -q "Tag_CPU_arch: v7E-M" "$WORK/m7-attrs.txt" &&
    grep -q "Tag_ABI_VFP_args: VFP registers" "$WORK/m7-attrs.txt" &&
    grep -q "Tag_FP_arch: FPv5/FP-D16" "$WORK/m7-attrs.txt"
}

# run ELF BOARD: its checks pass, the hard-float one among them.
run() {
    counts_ok timeout 60 qemu-system-arm -M "$2" $QEMU_RUN -kernel "$1" >"$1.log" 2>&1 ||
        { cat "$1.log"; return 1; }
    cat "$1.log"
    grep -q '^ok hard float' "$1.log"
}

# The copy a project keeps in its own tree (here WORK/project/cmake/).
copied_configure() {
    mkdir -p "$WORK/project/cmake" && cp "$ROOT/cmake/arm-none-eabi.cmake" "$WORK/project/cmake/" &&
    configure "$WORK/m33" "$WORK/project/cmake/arm-none-eabi.cmake" -DSTOW_ARM_CPU=cortex-m33 \
        -DSTOW_ARM_FLOAT_ABI=hard -DSTOW_ARM_FPU=fpv5-sp-d16 -DFW_MEMORY=mps2-an505
}

copied_build_run() {
    cmake --build "$WORK/m33" -j2 && run "$WORK/m33/firmware.elf" mps2-an505
}

step "local clone of the working tree, committed" snapshot_repo "$REPO" &&
TAG=$(git -C "$REPO" rev-parse HEAD) &&
step "the project's own toolchain file (Cortex-M7, hard float): configure, FetchContent at the commit" \
    configure "$WORK/m7" "$FW/toolchain-cortex-m7.cmake" -DFW_MEMORY=mps2 &&
step "cmake --build: stow from source with the project's flags, budgets checked" \
    cmake --build "$WORK/m7" -j2 &&
step "the fetched library has the project's ABI (v7E-M, VFP registers, FPv5-D16)" user_abi &&
step "runs under QEMU mps2-an500 (Cortex-M7), hard float" run "$WORK/m7/firmware.elf" mps2-an500
step "stow's toolchain file copied into the project: configure (Cortex-M33, hard float), FetchContent" \
    copied_configure &&
step "cmake --build, and the firmware runs under QEMU mps2-an505 (Cortex-M33), hard float" copied_build_run
finish 7
