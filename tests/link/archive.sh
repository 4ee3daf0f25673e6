#!/bin/sh
# SPDX-License-Identifier: MIT
# archive.sh DIR CC FLAGS... - port/cortex-m/fault.c overrides the startup's weak
# HardFault_Handler even when it comes out of a static archive.
#
# FLAGS are the test image's compile flags for mps2-an386 (include paths and
# board flags included). The library goes into libstow.a and the port (port.o,
# assert.o, cycles.o, fault.o) into libstow_cm.a; startup.o and semihost.o
# stay objects. Then:
#   - the test image linked with -Wl,-u,stow_cm_fault_report (what the README
#     says to do): readelf shows vector 3 (HardFault) and 4-6 pointing at
#     fault.o's HardFault_Handler, nm shows it strong and not Default_Handler,
#     and the suite passes under QEMU;
#   - the same link without -u, and with -u HardFault_Handler: the vector stays
#     Default_Handler (why the README names stow_cm_fault_report: a weak
#     definition already satisfies the reference, so the member is not taken);
#   - port.o and assert.o, what production firmware links, define no interrupt
#     handler and contain no BKPT (semihosting);
#   - a firmware that faults on purpose (fault_main.c), from the archive with
#     -u, and once more built and archived with -flto: QEMU prints
#     "stow: fault: HardFault" and exits with status 2.
# QEMU_CMD is the command that runs an image (the image path is appended).
# Writes "passed failed" to DIR/result.
dir=$1
shift
cc=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
qemu=${QEMU_CMD:-timeout 300 qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none -semihosting-config enable=on,target=native -kernel}
prefix=${cc%gcc}
mkdir -p "$dir"
log=$dir/log
: >"$log"
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "ok   $1" >>"$log"; }
bad() { failed=$((failed + 1)); echo "FAIL $1" >>"$log"; echo "FAIL link archive: $1"; }
check() {
    what=$1
    shift
    if "$@" >>"$log" 2>&1; then ok "$what"; else bad "$what"; fi
}

# sym ELF NAME: "ADDR TYPE" from nm (the first definition), or nothing.
sym() { "${prefix}nm" "$1" | awk -v n="$2" '$3 == n { print $1, $2; exit }'; }
addr() { sym "$1" "$2" | cut -d' ' -f1; }
# vector ELF N: entry N of the vector table (.vectors), as 8 hex digits.
vector() {
    "${prefix}objcopy" -O binary -j .vectors "$1" "$dir/vectors.bin" &&
        od -A n -t x4 -j $(($2 * 4)) -N 4 "$dir/vectors.bin" | tr -d ' '
}
# the handler's address with the Thumb bit, as the vector table holds it
thumb() { printf '%08x' $((0x$1 | 1)); }

# is_reporter ELF: vectors 3-6 hold HardFault_Handler, which is strong, is not
# Default_Handler, and comes with stow_cm_fault_report.
is_reporter() {
    h=$(addr "$1" HardFault_Handler)
    d=$(addr "$1" Default_Handler)
    echo "HardFault_Handler $(sym "$1" HardFault_Handler), Default_Handler $d," \
        "vectors 3-6: $(vector "$1" 3) $(vector "$1" 4) $(vector "$1" 5) $(vector "$1" 6)"
    [ -n "$h" ] && [ "$h" != "$d" ] && [ "$(sym "$1" HardFault_Handler | cut -d' ' -f2)" = T ] &&
        [ -n "$(addr "$1" stow_cm_fault_report)" ] &&
        for n in 3 4 5 6; do [ "$(vector "$1" $n)" = "$(thumb "$h")" ] || return 1; done
}
# is_default ELF: vector 3 holds Default_Handler.
is_default() {
    d=$(addr "$1" Default_Handler)
    echo "Default_Handler $d, vector 3: $(vector "$1" 3)"
    [ -n "$d" ] && [ "$(vector "$1" 3)" = "$(thumb "$d")" ]
}
suite_passes() {
    out=$($qemu "$1" 2>&1)
    status=$?
    printf '%s\n' "$out" | tail -n 3
    [ "$status" -eq 0 ] && printf '%s\n' "$out" | tail -n 1 | grep -q '^[0-9][0-9]* passed, 0 failed$'
}
reports_hardfault() {
    out=$($qemu "$1" 2>&1)
    status=$?
    printf '%s\n' "$out"
    [ "$status" -eq 2 ] && printf '%s\n' "$out" | grep -q '^stow: fault: HardFault (exception 3)$'
}

# build TAG EXTRA...: objects, libstow.a and libstow_cm.a in DIR/TAG
build() {
    tag=$1
    shift
    b=$dir/$tag
    rm -rf "$b"
    mkdir -p "$b"
    ar=${prefix}ar
    case " $* " in *" -flto"*) ar=${prefix}gcc-ar;; esac
    for src in "$root"/lib/src/*.c "$root"/port/cortex-m/*.c "$root"/targets/cortex-m/startup.c \
               "$root"/tests/harness.c "$root"/tests/main.c "$root"/tests/test_*.c "$here/fault_main.c"; do
        "$@" -c "$src" -o "$b/$(basename "$src" .c).o" || return 1
    done
    libs=$(for f in "$root"/lib/src/*.c; do printf '%s ' "$b/$(basename "$f" .c).o"; done)
    "$ar" rcs "$b/libstow.a" $libs &&
        "$ar" rcs "$b/libstow_cm.a" "$b/port.o" "$b/assert.o" "$b/cycles.o" "$b/fault.o"
}
# image TAG NAME MAIN_OBJECTS LINK_EXTRA CC FLAGS...
image() {
    b=$dir/$1
    out=$b/$2.elf
    objs=$3
    extra=$4
    shift 4
    rm -f "$out"
    "$@" -nostdlib -Wl,--gc-sections -T"$root/linker/cortex-m.ld" -L"$root/linker" \
        -L"$root/targets/mps2-an386" $extra "$b/startup.o" "$b/semihost.o" $objs \
        -L"$b" -lstow_cm -lstow -lgcc -o "$out"
}

# production_clean OBJECT: defines no interrupt handler and holds no BKPT
# (semihosting), so it links next to any HAL or RTOS and runs without a debugger.
production_clean() {
    "${prefix}nm" "$1"
    ! "${prefix}nm" "$1" | grep -q '_Handler$' &&
        ! "${prefix}objdump" -d "$1" | grep -qi 'bkpt'
}

check "build the objects and the archives" build plain "$@"
b=$dir/plain
check "port.o (the library port) defines no handler and no BKPT" production_clean "$b/port.o"
check "assert.o (the production assert hook) defines no handler and no BKPT" \
    production_clean "$b/assert.o"
tests=$(for f in "$root"/tests/harness.c "$root"/tests/main.c "$root"/tests/test_*.c; do
    printf '%s ' "$b/$(basename "$f" .c).o"; done)
check "link the test image from the archives with -u stow_cm_fault_report" \
    image plain tests "$tests" "-Wl,-u,stow_cm_fault_report" "$@"
check "with -u: vectors 3-6 are fault.c's HardFault_Handler" is_reporter "$b/tests.elf"
check "with -u: the suite passes under QEMU" suite_passes "$b/tests.elf"
check "link without -u" image plain tests-no-u "$tests" "" "$@"
check "without -u: vector 3 stays Default_Handler" is_default "$b/tests-no-u.elf"
check "link with -u HardFault_Handler" image plain tests-u-hf "$tests" "-Wl,-u,HardFault_Handler" "$@"
check "with -u HardFault_Handler: vector 3 stays Default_Handler" is_default "$b/tests-u-hf.elf"
check "link the faulting firmware from the archives with -u" \
    image plain fault "$b/fault_main.o" "-Wl,-u,stow_cm_fault_report" "$@"
check "the faulting firmware: the reporter is the HardFault_Handler" is_reporter "$b/fault.elf"
check "the faulting firmware reports a HardFault and exits 2" reports_hardfault "$b/fault.elf"

check "build the objects and the archives with -flto" build lto "$@" -flto=auto
b=$dir/lto
check "-flto: link the faulting firmware from the archives with -u" \
    image lto fault "$b/fault_main.o" "-Wl,-u,stow_cm_fault_report" "$@" -flto=auto
check "-flto: the reporter is the HardFault_Handler" is_reporter "$b/fault.elf"
check "-flto: the faulting firmware reports a HardFault and exits 2" reports_hardfault "$b/fault.elf"

echo "$passed $failed" >"$dir/result"
printf '%-34s %s passed, %s failed\n' link-archive "$passed" "$failed"
if [ "$failed" -ne 0 ]; then
    echo "---- from $log:"
    grep -B8 '^FAIL' "$log" | head -n 60
    echo "----"
fi
exit 0
