#!/bin/sh
# SPDX-License-Identifier: MIT
# find_package_cmake.sh ROOT WORK - find_package(stow) after `cmake --install`: stow
# configured and built as a CMake project twice, for the host and for a
# Cortex-M4F (cmake/arm-none-eabi.cmake, hard float), both installed into one
# prefix (STOW_CHECK_LEVEL=2), which is then moved; the consumers use only the
# moved copy: tests/consumers/installed (host, CMake and pkg-config) and
# tests/consumers/firmware (STOW_FROM=package), run under QEMU mps2-an386.
ROOT=$1
WORK=$2
. "$ROOT/tests/consumers/common.sh"
P="$WORK/prefix"
M="$WORK/moved"

# install_build DIR [-D...]: configure, build and install stow itself into P.
install_build() {
    dir=$1
    shift
    cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DSTOW_CHECK_LEVEL=2 -DSTOW_BUILD_TESTS=OFF \
        "$@" && cmake --build "$dir" -j2 && cmake --install "$dir" --prefix "$P"
}

host_install() {
    rm -rf "$P" "$M" && install_build "$WORK/stow-host" &&
    [ -f "$P/lib/libstow.a" ] && [ -f "$P/lib/pkgconfig/stow.pc" ] &&
    [ -f "$P/lib/cmake/stow/stowConfig.cmake" ] && [ -x "$P/bin/stow_report" ]
}

cross_install() {
    install_build "$WORK/stow-m4f" -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/arm-none-eabi.cmake" \
        -DSTOW_ARM_CPU=cortex-m4 -DSTOW_ARM_FLOAT_ABI=hard -DSTOW_ARM_FPU=fpv4-sp-d16 &&
    [ -f "$P/lib/stow/cortex-m4f/libstow.a" ] && [ -f "$P/lib/stow/cortex-m4f/libstow_malloc.a" ] &&
    [ -f "$P/lib/pkgconfig/stow-cortex-m4f.pc" ] &&
    arm-none-eabi-readelf -A "$P/lib/stow/cortex-m4f/libstow.a" | grep -q "Tag_ABI_VFP_args: VFP registers"
}

move() {
    mv "$P" "$M" && ! grep -rn -- "$P" "$M/lib/cmake/stow" "$M/lib/pkgconfig"
}

build_host() {
    cmake -S "$ROOT/tests/consumers/installed" -B "$WORK/host" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="$M" && cmake --build "$WORK/host"
}

# stow.pc from cmake --install finds its prefix from its own place (${pcfiledir}).
build_host_pkgconfig() {
    pc="env PKG_CONFIG_PATH=$M/lib/pkgconfig PKG_CONFIG_LIBDIR=$M/lib/pkgconfig pkg-config"
    # shellcheck disable=SC2046
    cc -std=c11 -Wall -Wextra -Werror -O2 $($pc --cflags stow) "$ROOT/tests/consumers/installed/host.c" \
        $($pc --libs stow) -o "$WORK/host-pc" && counts_ok "$WORK/host-pc"
}

build_firmware() {
    cmake -S "$ROOT/tests/consumers/firmware" -B "$WORK/fw" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_TOOLCHAIN_FILE="$M/share/stow/cmake/arm-none-eabi.cmake" -DSTOW_ARM_CPU=cortex-m4 \
        -DSTOW_ARM_FLOAT_ABI=hard -DSTOW_ARM_FPU=fpv4-sp-d16 -DSTOW_FROM=package \
        -DCMAKE_PREFIX_PATH="$M" >"$WORK/fw.configure.log" 2>&1 || { cat "$WORK/fw.configure.log"; return 1; }
    cat "$WORK/fw.configure.log"
    grep -q "variant cortex-m4f, check level 2" "$WORK/fw.configure.log" && cmake --build "$WORK/fw" -j2
}

run_firmware() {
    counts_ok timeout 60 qemu-system-arm -M mps2-an386 $QEMU_RUN -kernel "$WORK/fw/firmware.elf" \
        >"$WORK/fw-run.log" 2>&1 || { cat "$WORK/fw-run.log"; return 1; }
    cat "$WORK/fw-run.log"
    grep -q '^ok hard float' "$WORK/fw-run.log"
}

step "stow for the host: cmake configure, build, cmake --install --prefix <scratch>" host_install &&
step "stow for Cortex-M4F (toolchain file, hard float): cmake --install into the same prefix, lib/stow/cortex-m4f" \
    cross_install &&
step "the prefix moved elsewhere; nothing in it names the old place" move &&
step "host: find_package(stow 0.3 CONFIG REQUIRED) from the moved prefix, configure and build" build_host &&
step "host program runs at the installed level 2" counts_ok "$WORK/host/host"
step "host: stow.pc of the moved prefix (\${pcfiledir}) builds and runs the same program" build_host_pkgconfig
step "firmware: find_package picks cortex-m4f from the moved prefix; budgets fit; builds" build_firmware &&
step "firmware runs under QEMU mps2-an386, hard float" run_firmware
finish 8
