#!/bin/sh
# SPDX-License-Identifier: MIT
# install_pkgconfig.sh ROOT WORK - `make install` into a scratch prefix (and once
# more through DESTDIR), then consumers built against the installed copy with
# pkg-config only: a host C program and a C++ file, and tests/consumers/firmware
# for every installed ABI (cmake/stow_variants.txt), each run under QEMU on a board
# with that core: Cortex-M0 (its v6-M code on mps2-an385's M3), M3, M4 soft and
# M4F hard float (mps2-an386), M7 hard float (mps2-an500), M33 soft and hard
# (mps2-an505), M55 hard float (mps3-an547), RV32IMAC and RV32IMC (riscv-virt).
# A hard-float firmware linked with the soft-float library must fail.
# The copy is installed with STOW_CHECK_LEVEL=2, which the programs check that
# they got from the .pc files' Cflags and that the libraries were built with.
# make test builds the libraries first (install.mk: INSTALL_TEST_LIBS), so the
# installs here only copy.
ROOT=$1
WORK=$2
. "$ROOT/tests/consumers/common.sh"
P="$WORK/prefix"
STAGE="$WORK/stage"
FW="$ROOT/tests/consumers/firmware"
VARIANTS=$(sed -n 's/^\([a-z0-9-]*\)[[:space:]]*|.*/\1/p' "$ROOT/cmake/stow_variants.txt")

install_prefix() {
    rm -rf "$P" && stow_make install PREFIX="$P" STOW_CHECK_LEVEL=2
}

# abi VARIANT: the library's build attributes (readelf -A) are the variant's.
abi() {
    lib="$P/lib/stow/$1/libstow.a"
    case $1 in
    rv32*) riscv64-unknown-elf-readelf -A "$lib" | grep -m 1 Tag_RISCV_arch >"$WORK/attrs" ;;
    *) arm-none-eabi-readelf -A "$lib" | sort -u >"$WORK/attrs" ;;
    esac
    case $1 in
    cortex-m0) want="Tag_CPU_arch: v6S?-M$" ;;
    cortex-m3) want="Tag_CPU_arch: v7$" ;;
    cortex-m4 | cortex-m4f | cortex-m7f) want="Tag_CPU_arch: v7E-M$" ;;
    cortex-m33 | cortex-m33f) want="Tag_CPU_arch: v8-M.mainline$" ;;
    cortex-m55f) want="Tag_CPU_arch: v8.1-M.mainline$" ;;
    rv32imac) want='"rv32i[0-9p]*_m[0-9p]*_a[0-9p]*_c' ;;
    rv32imc) want='"rv32i[0-9p]*_m[0-9p]*_c' ;;
    *) echo "no expectation for variant $1"; return 1 ;;
    esac
    grep -Eq "$want" "$WORK/attrs" || { echo "$1: no /$want/ in:"; cat "$WORK/attrs"; return 1; }
    case $1 in
    cortex-m*f) grep -q "Tag_ABI_VFP_args: VFP registers" "$WORK/attrs" ||
                    { echo "$1: not hard float"; return 1; } ;;
    cortex-m*) ! grep -q "Tag_ABI_VFP_args: VFP registers" "$WORK/attrs" ||
                   { echo "$1: hard float"; return 1; } ;;
    esac
    case $1 in
    cortex-m7f) grep -q "Tag_FP_arch: FPv5/FP-D16" "$WORK/attrs" ;;
    cortex-m55f) grep -q "Tag_MVE_arch: MVE Integer and FP" "$WORK/attrs" ;;
    esac
}

layout() {
    for f in include/stow/stow.h include/stow/config.h include/stow/port.h include/stow/build_check.h \
             include/stow/adapters/stow_malloc.h include/stow/adapters/stow_lua.h \
             include/stow/adapters/stow_cjson.h include/stow/adapters/stow_mbedtls.h \
             include/stow/adapters/stow_lwip.h lib/libstow.a lib/pkgconfig/stow.pc \
             lib/cmake/stow/stowConfig.cmake lib/cmake/stow/stowConfigVersion.cmake \
             lib/cmake/stow/stowOptions.cmake lib/cmake/stow/stow_variant.cmake \
             lib/cmake/stow/stow_budgets.cmake lib/cmake/stow/stow_variants.txt \
             share/stow/linker/stow.ld share/stow/linker/stow_registry.ld share/stow/linker/stow_budgets.ld \
             share/stow/cmake/arm-none-eabi.cmake share/stow/cmake/riscv-elf.cmake \
             share/stow/adapters/libc/stow_malloc.c share/stow/port/host/port.c \
             share/stow/port/cortex-m/port.c share/stow/port/cortex-m/assert.c \
             share/stow/port/riscv/port.c share/stow/targets/cortex-m/startup.c \
             share/stow/targets/riscv/startup.c; do
        [ -f "$P/$f" ] || { echo "missing: $f"; return 1; }
    done
    for v in $VARIANTS; do
        [ -f "$P/lib/stow/$v/libstow.a" ] || { echo "missing: lib/stow/$v/libstow.a"; return 1; }
        [ -f "$P/lib/pkgconfig/stow-$v.pc" ] || { echo "missing: lib/pkgconfig/stow-$v.pc"; return 1; }
        abi "$v" || return 1
        case $v in
        cortex-m*)
            [ -f "$P/lib/stow/$v/libstow_malloc.a" ] && [ -f "$P/lib/pkgconfig/stow-malloc-$v.pc" ] ||
                { echo "missing: the malloc library of $v"; return 1; }
            arm-none-eabi-nm "$P/lib/stow/$v/libstow_malloc.a" | grep -q ' T malloc$' || return 1 ;;
        esac
    done
    for t in stow_report stow_budgets; do
        [ -x "$P/bin/$t" ] || { echo "not executable: bin/$t"; return 1; }
    done
    for h in "$ROOT"/lib/include/stow/*.h; do
        cmp "$h" "$P/include/stow/$(basename "$h")" || return 1
    done
    ! grep -l '@[A-Z_]*@' "$P"/lib/cmake/stow/* || { echo "a placeholder was left"; return 1; }
    nm "$P/lib/libstow.a" | grep -q ' T stow_pool_alloc$' &&
    nm "$P/lib/libstow.a" | grep -q ' T stow_port_critical_enter$'
}

install_destdir() {
    rm -rf "$STAGE" && stow_make install DESTDIR="$STAGE" PREFIX=/opt/stow STOW_CHECK_LEVEL=2 &&
    [ -f "$STAGE/opt/stow/lib/libstow.a" ] &&
    [ -f "$STAGE/opt/stow/include/stow/stow.h" ] &&
    [ -f "$STAGE/opt/stow/lib/stow/cortex-m4f/libstow.a" ] &&
    grep -qx 'prefix=/opt/stow' "$STAGE/opt/stow/lib/pkgconfig/stow.pc" &&
    grep -qx 'prefix=/opt/stow' "$STAGE/opt/stow/lib/pkgconfig/stow-cortex-m4f.pc"
}

PKG="env PKG_CONFIG_PATH=$P/lib/pkgconfig PKG_CONFIG_LIBDIR=$P/lib/pkgconfig pkg-config"

pc_fields() {
    want=0.0.0
    vh="$ROOT/lib/include/stow/version.h"
    if [ -f "$vh" ]; then
        part() { sed -n "s/^#define[[:space:]]*STOW_VERSION_$1[[:space:]]*\([0-9][0-9]*\).*/\1/p" "$vh"; }
        want="$(part MAJOR).$(part MINOR).$(part PATCH)"
    fi
    for m in stow $(for v in $VARIANTS; do echo "stow-$v"; done); do
        v=$($PKG --modversion "$m") || return 1
        c=$($PKG --cflags "$m") || return 1
        l=$($PKG --libs "$m") || return 1
        echo "$m $v: $c | $l"
        [ "$v" = "$want" ] || { echo "version $v, version.h says $want"; return 1; }
        case " $c " in *" -DSTOW_CHECK_LEVEL=2 "*) ;; *) return 1 ;; esac
        case " $c " in *" -DSTOW_HANDLE_INDEX_BITS=16 "*) ;; *) return 1 ;; esac
        case " $c " in *" -DSTOW_GENERATION_OVERFLOW=STOW_GEN_WRAP "*) ;; *) return 1 ;; esac
        case " $l " in *" -lstow "*) ;; *) return 1 ;; esac
    done
    # The variant's flags, and the malloc library ahead of the library it needs.
    [ "$($PKG --variable=cpuflags stow-cortex-m4f)" = \
        "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16" ] &&
    $PKG --libs stow-malloc-cortex-m4f | grep -Eq -- '-Wl,-u,malloc -lstow_malloc .*-lstow'
}

build_host() {
    # shellcheck disable=SC2046 # pkg-config's output is a list of flags
    cc -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 $($PKG --cflags stow) \
        "$ROOT/tests/consumers/installed/host.c" $($PKG --libs stow) -o "$WORK/host"
}

# The README's line for C++ engines: the include directory as -isystem.
build_cxx() {
    # shellcheck disable=SC2046
    c++ -std=c++17 -Wall -Wextra -Wold-style-cast -Werror \
        -isystem "$($PKG --variable=includedir stow)" $($PKG --cflags-only-other stow) \
        -c "$ROOT/tests/consumers/cxx/entities.cpp" -o "$WORK/entities.o"
}

# firmware VARIANT [LIBRARY-VARIANT]: tests/consumers/firmware/main.c built with the
# variant's flags (pkg-config's cpuflags) against lib/stow/<library-variant>.
firmware() {
    lib=${2:-$1}
    flags=$($PKG --variable=cpuflags "stow-$1") || return 1
    elf="$WORK/firmware-$1-$lib.elf"
    case $1 in
    rv32*)
        # shellcheck disable=SC2046,SC2086
        riscv64-unknown-elf-gcc -std=c11 -O2 -Wall -Wextra -Werror $flags -ffreestanding \
            -ffunction-sections -fdata-sections -mstrict-align $($PKG --cflags "stow-$lib") -I"$FW" \
            "$FW/main.c" "$P/share/stow/targets/riscv/startup.c" "$P/share/stow/targets/riscv/mem.c" \
            "$P/share/stow/port/riscv/semihost.c" "$P/share/stow/port/riscv/trap.c" \
            -nostdlib -Wl,--gc-sections -T "$P/share/stow/linker/riscv.ld" -L"$FW/boards/riscv-virt" \
            $($PKG --libs "stow-$lib") -lgcc -o "$elf" ;;
    *)
        case $1 in
        cortex-m33* | cortex-m55*) mem=$(board "$1") ;;
        *) mem=mps2 ;;
        esac
        support=""
        for f in semihost.c cycles.c fault.c; do
            [ -f "$P/share/stow/port/cortex-m/$f" ] && support="$support $P/share/stow/port/cortex-m/$f"
        done
        # shellcheck disable=SC2046,SC2086
        arm-none-eabi-gcc -std=c11 -O2 -Wall -Wextra -Werror $flags -ffreestanding \
            -ffunction-sections -fdata-sections -mno-unaligned-access $($PKG --cflags "stow-$lib") \
            -I"$FW" "$FW/main.c" "$P/share/stow/targets/cortex-m/startup.c" $support \
            -nostdlib -Wl,--gc-sections -T "$FW/firmware.ld" -L"$FW/boards/$mem" \
            $($PKG --libs "stow-$lib") -lgcc -o "$elf" ;;
    esac
}

# The QEMU board that runs each variant's code.
board() {
    case $1 in
    cortex-m0 | cortex-m3) echo mps2-an385 ;;
    cortex-m4 | cortex-m4f) echo mps2-an386 ;;
    cortex-m7f) echo mps2-an500 ;;
    cortex-m33 | cortex-m33f) echo mps2-an505 ;;
    cortex-m55f) echo mps3-an547 ;;
    rv32*) echo virt ;;
    esac
}

run_firmware() {
    elf="$WORK/firmware-$1-$1.elf"
    case $1 in
    rv32*) counts_ok timeout 60 qemu-system-riscv32 -M virt -bios none $QEMU_RUN -kernel "$elf" ;;
    *) counts_ok timeout 60 qemu-system-arm -M "$(board "$1")" $QEMU_RUN -kernel "$elf" ;;
    esac
}

# A hard-float firmware output must carry its FPU check.
hard_float_ran() {
    run_firmware "$1" >"$WORK/run-$1.log" 2>&1 || { cat "$WORK/run-$1.log"; return 1; }
    cat "$WORK/run-$1.log"
    case $1 in
    cortex-m*f) grep -q '^ok hard float' "$WORK/run-$1.log" ;;
    esac
}

installed=no
step "make install PREFIX=<scratch> STOW_CHECK_LEVEL=2" install_prefix && installed=yes
[ "$installed" = yes ] &&
    step "installed layout: headers, adapters, every variant's libstow.a with its ABI (readelf -A), malloc libraries, .pc files, CMake package, tools, fragments" \
        layout
step "make install DESTDIR=<stage> PREFIX=/opt/stow: files under the stage, .pc files say /opt/stow" \
    install_destdir
if [ "$installed" = yes ]; then
    step "pkg-config: versions from version.h; Cflags carry the installed options; cpuflags; malloc" pc_fields
    step "host C program builds with pkg-config stow" build_host &&
    step "host C program runs: its checks pass" counts_ok "$WORK/host"
    step "C++ file builds with -isystem \$(pkg-config --variable=includedir stow), -Wold-style-cast" \
        build_cxx
    for v in $VARIANTS; do
        step "$v firmware builds with pkg-config stow-$v (its cpuflags)" firmware "$v" &&
        step "$v firmware runs under QEMU $(board "$v")" hard_float_ran "$v"
    done
    step "a hard-float Cortex-M4F firmware does not link with the soft-float cortex-m4 library" \
        must_fail "$WORK/soft-hard.log" "uses VFP register arguments" firmware cortex-m4f cortex-m4
fi
# 3 install steps, 4 host steps, 2 per variant, the soft/hard link.
finish $((3 + 4 + 2 * $(echo $VARIANTS | wc -w) + 1))
