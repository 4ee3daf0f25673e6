#!/bin/sh
# SPDX-License-Identifier: MIT
# install_pkgconfig.sh ROOT WORK - `make install` into a scratch prefix (and once
# more through DESTDIR), then consumers built against the installed copy with
# pkg-config only: a host C program, and tests/consumers/firmware for Cortex-M4
# (QEMU mps2-an386) and Cortex-M0 (its v6-M code on QEMU mps2-an385's Cortex-M3).
# The copy is installed with STOW_CHECK_LEVEL=2, which the programs check that
# they got from the .pc files' Cflags and that the libraries were built with.
ROOT=$1
WORK=$2
. "$ROOT/tests/consumers/common.sh"
P="$WORK/prefix"
STAGE="$WORK/stage"
MAKE_BUILD=${STOW_BUILD:-build}
FW="$ROOT/tests/consumers/firmware"

sub_make() {
    # Its own make, not a part of the caller's jobserver.
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$ROOT" --no-print-directory -j2 \
        BUILD="$MAKE_BUILD" STOW_CHECK_LEVEL=2 "$@"
}

install_prefix() {
    rm -rf "$P" && sub_make install PREFIX="$P"
}

layout() {
    for f in include/stow/stow.h include/stow/config.h include/stow/port.h lib/libstow.a \
             lib/stow/cortex-m0/libstow.a lib/stow/cortex-m4/libstow.a \
             lib/pkgconfig/stow.pc lib/pkgconfig/stow-cortex-m0.pc lib/pkgconfig/stow-cortex-m4.pc \
             share/stow/linker/stow.ld share/stow/port/host/port.c share/stow/port/cortex-m/port.c \
             share/stow/port/cortex-m/assert.c share/stow/targets/cortex-m/startup.c; do
        [ -f "$P/$f" ] || { echo "missing: $f"; return 1; }
    done
    for h in "$ROOT"/lib/include/stow/*.h; do
        cmp "$h" "$P/include/stow/$(basename "$h")" || return 1
    done
    arm-none-eabi-readelf -A "$P/lib/stow/cortex-m0/libstow.a" | grep -q 'Tag_CPU_arch: v6S\{0,1\}-M' &&
    arm-none-eabi-readelf -A "$P/lib/stow/cortex-m4/libstow.a" | grep -q 'Tag_CPU_arch: v7E-M' &&
    nm "$P/lib/libstow.a" | grep -q ' T stow_pool_alloc$' &&
    nm "$P/lib/libstow.a" | grep -q ' T stow_port_critical_enter$'
}

install_destdir() {
    rm -rf "$STAGE" && sub_make install DESTDIR="$STAGE" PREFIX=/opt/stow &&
    [ -f "$STAGE/opt/stow/lib/libstow.a" ] &&
    [ -f "$STAGE/opt/stow/include/stow/stow.h" ] &&
    grep -qx 'prefix=/opt/stow' "$STAGE/opt/stow/lib/pkgconfig/stow.pc"
}

PKG="env PKG_CONFIG_PATH=$P/lib/pkgconfig PKG_CONFIG_LIBDIR=$P/lib/pkgconfig pkg-config"

pc_fields() {
    want=0.0.0
    vh="$ROOT/lib/include/stow/version.h"
    if [ -f "$vh" ]; then
        part() { sed -n "s/^#define[[:space:]]*STOW_VERSION_$1[[:space:]]*\([0-9][0-9]*\).*/\1/p" "$vh"; }
        want="$(part MAJOR).$(part MINOR).$(part PATCH)"
    fi
    for m in stow stow-cortex-m0 stow-cortex-m4; do
        v=$($PKG --modversion $m) || return 1
        c=$($PKG --cflags $m) || return 1
        l=$($PKG --libs $m) || return 1
        echo "$m $v: $c | $l"
        [ "$v" = "$want" ] || { echo "version $v, version.h says $want"; return 1; }
        case " $c " in *" -DSTOW_CHECK_LEVEL=2 "*) ;; *) return 1 ;; esac
        case " $c " in *" -DSTOW_HANDLE_INDEX_BITS=16 "*) ;; *) return 1 ;; esac
        case " $c " in *" -DSTOW_GENERATION_OVERFLOW=STOW_GEN_WRAP "*) ;; *) return 1 ;; esac
        case " $l " in *" -lstow "*) ;; *) return 1 ;; esac
    done
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

# build_firmware CPU: tests/consumers/firmware/main.c against lib/stow/CPU.
build_firmware() {
    support=""
    for f in semihost.c cycles.c fault.c; do
        [ -f "$P/share/stow/port/cortex-m/$f" ] && support="$support $P/share/stow/port/cortex-m/$f"
    done
    # shellcheck disable=SC2046,SC2086
    arm-none-eabi-gcc -std=c11 -O2 -Wall -Wextra -Werror -mcpu="$1" -mthumb -mfloat-abi=soft \
        -ffreestanding -ffunction-sections -fdata-sections -mno-unaligned-access \
        $($PKG --cflags "stow-$1") "$FW/main.c" "$P/share/stow/targets/cortex-m/startup.c" $support \
        -nostdlib -Wl,--gc-sections -T "$FW/firmware.ld" $($PKG --libs "stow-$1") -lgcc \
        -o "$WORK/firmware-$1.elf"
}

installed=no
step "make install PREFIX=<scratch> STOW_CHECK_LEVEL=2" install_prefix && installed=yes
[ "$installed" = yes ] &&
    step "installed layout: headers, a libstow.a per target (right architecture), .pc files, stow.ld, ports" layout
step "make install DESTDIR=<stage> PREFIX=/opt/stow: files under the stage, stow.pc says /opt/stow" \
    install_destdir
if [ "$installed" = yes ]; then
    step "pkg-config: versions from version.h; Cflags carry the installed options" pc_fields
    step "host C program builds with pkg-config stow" build_host &&
    step "host C program runs: its checks pass" counts_ok "$WORK/host"
    step "C++ file builds with -isystem \$(pkg-config --variable=includedir stow), -Wold-style-cast" \
        build_cxx
    step "Cortex-M4 firmware builds with pkg-config stow-cortex-m4 and share/stow/linker" \
        build_firmware cortex-m4 &&
    step "Cortex-M4 firmware runs under QEMU mps2-an386" \
        counts_ok timeout 60 qemu-system-arm -M mps2-an386 $QEMU_RUN -kernel "$WORK/firmware-cortex-m4.elf"
    step "Cortex-M0 firmware builds with pkg-config stow-cortex-m0" build_firmware cortex-m0 &&
    step "Cortex-M0 firmware (v6-M code) runs under QEMU mps2-an385" \
        counts_ok timeout 60 qemu-system-arm -M mps2-an385 $QEMU_RUN -kernel "$WORK/firmware-cortex-m0.elf"
fi
finish 11
