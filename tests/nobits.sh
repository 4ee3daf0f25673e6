#!/bin/sh
# SPDX-License-Identifier: MIT
# nobits.sh DIR - DEFINE'd storage takes no room in an executable or a flash
# image, on every target, with or without a linker script that knows stow.
#
# tests/nobits/big.c defines one large container of each kind (host: about
# 49 MiB in all; bare metal: about 2.4 MiB) and is built
#   host:  gcc, clang, g++ (as C++17), gcc -m32, and gcc with STOW_SECTIONS=0;
#          linked by the toolchain's default script, as any host program.
#   bare metal: arm-none-eabi-gcc (Cortex-M4) and riscv64-unknown-elf-gcc
#          (rv32imac), linked with no script of stow's (the toolchain's default)
#          and with linker/cortex-m.ld or linker/riscv.ld (INCLUDE stow.ld).
# and checked with readelf, nm and the file sizes:
#   - the object has one .bss.stow.<module>.big_<module> section per container
#     (none with STOW_SECTIONS=0), each NOBITS;
#   - in the linked program every container's storage symbol lies in a NOBITS
#     section (.bss, or .stow where the script includes stow.ld);
#   - the executable (host) or its flash image (objcopy -O binary) is under
#     1 MiB, a fraction of the storage.
# (An ELF host program with a 16 MiB DEFINE'd arena used to be a 16.8 MB
# executable: its storage sections were PROGBITS.)
# One case per check; "N passed, N failed" last; exit status 1 on any failure.
dir=${1:-build/test/nobits}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
src=$here/nobits/big.c
mkdir -p "$dir"
passed=0
failed=0
WARN="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wshadow -Wundef -Werror"
C_WARN="$WARN -std=c11 -pedantic -Wstrict-prototypes -Wmissing-prototypes"
LIMIT=1048576

ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
check() { # check DESCRIPTION COMMAND...
    what=$1
    shift
    if "$@" >"$dir/check.log" 2>&1; then
        ok "$what"
    else
        bad "$what"
        head -n 20 "$dir/check.log" | sed 's/^/    /'
    fi
}

# sections READELF FILE: "NAME TYPE ADDR SIZE" per section (ADDR and SIZE in decimal).
sections() {
    "$1" -SW "$2" | sed -n 's/^ *\[ *[0-9]*\] //p' | awk 'NF >= 5 { print $1, $2, $3, $5 }' |
        while read -r name type addr size; do
            case $addr$size in *[!0-9a-f]*) continue ;; esac
            echo "$name $type $((0x$addr)) $((0x$size))"
        done
}
# stow_sections_nobits READELF OBJ COUNT: COUNT .bss.stow.* sections, all NOBITS.
stow_sections_nobits() {
    sections "$1" "$2" | awk -v want="$3" '
        $1 ~ /^\.bss\.stow\./ { n++; print; if ($2 != "NOBITS") bad = 1 }
        END { print n + 0, "stow sections"; exit (bad || n != want) }'
}
# storage_nobits READELF NM FILE: each big_* container's storage symbol lies in a
# NOBITS section of the linked FILE.
storage_nobits() {
    sections "$1" "$3" >"$dir/sections.txt"
    "$2" -C "$3" | awk '$3 ~ /^stow__[a-z]+_buf_big_/ { print $1, $3 }' >"$dir/symbols.txt"
    [ "$(wc -l <"$dir/symbols.txt")" -eq 5 ] || { cat "$dir/symbols.txt"; echo "not 5 buffers"; return 1; }
    while read -r addr sym; do
        where=$(awk -v a="$((0x$addr))" '
            $4 > 0 && a + 0 >= $3 + 0 && a + 0 < $3 + $4 { print $1, $2; exit }' "$dir/sections.txt")
        echo "$sym at $addr: $where"
        case $where in *" NOBITS") ;; *) return 1 ;; esac
    done <"$dir/symbols.txt"
}
# smaller FILE: FILE has fewer than LIMIT bytes.
smaller() {
    n=$(wc -c <"$1")
    echo "$1: $n bytes"
    [ "$n" -lt "$LIMIT" ]
}

# host NAME LIBRARY-CC-AND-FLAGS COMPILER... : build big.c for the host with
# COMPILER and its flags, the library and the port with LIBRARY-CC-AND-FLAGS
# (one word list), and link with the latter.
host() {
    name=$1
    libcc=$2
    shift 2
    obj=$dir/$name.o
    exe=$dir/$name
    # shellcheck disable=SC2086 # libcc holds several words
    if ! "$@" -O2 -I"$root/lib/include" -c "$src" -o "$obj" >"$dir/$name.log" 2>&1 ||
        ! $libcc -O2 -I"$root/lib/include" "$obj" "$root"/lib/src/*.c "$root/port/host/port.c" \
            "$root/port/host/assert.c" -o "$exe" -lpthread >>"$dir/$name.log" 2>&1; then
        bad "$name: builds"
        head -n 20 "$dir/$name.log" | sed 's/^/    /'
        return
    fi
    ok "$name: builds"
    case "$*" in
    *STOW_SECTIONS=0*)
        check "$name: the object has no .bss.stow.* section" stow_sections_nobits readelf "$obj" 0 ;;
    *)
        check "$name: the object's .bss.stow.* sections (5) are NOBITS" \
            stow_sections_nobits readelf "$obj" 5 ;;
    esac
    check "$name: every container's storage is in a NOBITS section" storage_nobits readelf nm "$exe"
    check "$name: the executable is under 1 MiB" smaller "$exe"
}

# metal NAME PREFIX SCRIPT-FLAGS CFLAGS...: build big.c -nostdlib for bare metal;
# SCRIPT-FLAGS "-" is the toolchain's default script.
metal() {
    name=$1
    prefix=$2
    script=$3
    shift 3
    [ "$script" = - ] && script=
    obj=$dir/$name.o
    elf=$dir/$name.elf
    # shellcheck disable=SC2086 # script holds several words
    if ! "${prefix}gcc" $C_WARN -O2 "$@" -DBIG_KIB=512u -I"$root/lib/include" \
            -c "$src" -o "$obj" >"$dir/$name.log" 2>&1 ||
        ! "${prefix}gcc" "$@" -O2 -nostdlib -Wl,--gc-sections -Wl,-e,main $script "$obj" "$root/tests/stub_port.c" \
            $(for f in "$root"/lib/src/*.c; do printf '%s ' "$f"; done) -I"$root/lib/include" \
            -lgcc -o "$elf" >>"$dir/$name.log" 2>&1 ||
        ! "${prefix}objcopy" -O binary "$elf" "$elf.bin" >>"$dir/$name.log" 2>&1; then
        bad "$name: builds"
        head -n 20 "$dir/$name.log" | sed 's/^/    /'
        return
    fi
    ok "$name: builds"
    check "$name: the object's .bss.stow.* sections (5) are NOBITS" \
        stow_sections_nobits "${prefix}readelf" "$obj" 5
    check "$name: every container's storage is in a NOBITS section" \
        storage_nobits "${prefix}readelf" "${prefix}nm" "$elf"
    check "$name: the flash image (.bin) is under 1 MiB" smaller "$elf.bin"
}

host host-gcc "gcc $C_WARN" gcc $C_WARN
host host-clang "clang $C_WARN" clang $C_WARN
host host-g++ "gcc $C_WARN" g++ -x c++ -std=c++17 $WARN
host host-gcc-m32 "gcc -m32 $C_WARN" gcc -m32 $C_WARN
host host-gcc-sections0 "gcc $C_WARN -DSTOW_SECTIONS=0" gcc $C_WARN -DSTOW_SECTIONS=0

CM="-mcpu=cortex-m4 -mthumb -mfloat-abi=soft -ffreestanding -ffunction-sections -fdata-sections"
RV="-march=rv32imac -misa-spec=2.2 -mabi=ilp32 -ffreestanding -ffunction-sections -fdata-sections"
metal cortex-m4-default-script arm-none-eabi- - $CM
metal cortex-m4-stow-ld arm-none-eabi- "-T$root/linker/cortex-m.ld -L$root/linker -L$root/targets/mps2-an386" $CM
metal rv32imac-default-script riscv64-unknown-elf- - $RV
metal rv32imac-stow-ld riscv64-unknown-elf- "-T$root/linker/riscv.ld -L$root/linker -L$root/targets/riscv-virt" $RV

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
