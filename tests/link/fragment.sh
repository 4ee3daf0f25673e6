#!/bin/sh
# SPDX-License-Identifier: MIT
# fragment.sh DIR CC FLAGS... - linker/stow.ld as an out-of-tree firmware meets it.
#
# Builds tests/link/firmware (a 64 KiB arena and a 4 KiB pool, DEFINE'd) for
# QEMU's mps2-an386 with each of its linker scripts, and a control image of each
# with a 64-byte arena, then checks with arm-none-eabi-size -A and readelf -S:
#   (a) app-fragment.ld  INCLUDE stow.ld: .stow is NOBITS, in RAM, holds both
#   (b) app-forgot.ld    no fragment: no .stow; the storage is in .bss, NOBITS
#   (c) app-region.ld    STOW_RAM aliased to the second region SRAM2: .stow there
#   (c') app-one.ld      one container (the pool) placed in SRAM2 by an output
#                        section before the INCLUDE; the arena stays in .stow
#   (d) app-noalias.ld   the fragment with no STOW_RAM alias: must not link
#   (e) app-region.ld with a 192 KiB arena, larger than SRAM2: must not link
# and for (a)-(c') that the flash image (.bin) is exactly as large as the
# control's: storage never costs flash. (a), (b), (c) and (c') then run under
# QEMU: the firmware checks that every byte of both containers lies in the
# output section its script names, and is RAM.
# QEMU_CMD is the command that runs an image (the image path is appended).
# Writes "passed failed" to DIR/result.
dir=$1
shift
cc=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fw=$here/firmware
qemu=${QEMU_CMD:-timeout 60 qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none -semihosting-config enable=on,target=native -kernel}
prefix=${cc%gcc}
mkdir -p "$dir"
log=$dir/log
: >"$log"
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "ok   $1" >>"$log"; }
bad() { failed=$((failed + 1)); echo "FAIL $1" >>"$log"; echo "FAIL link fragment: $1"; }
check() { # check DESCRIPTION COMMAND...
    what=$1
    shift
    if "$@" >>"$log" 2>&1; then ok "$what"; else bad "$what"; fi
}

# section ELF NAME: "TYPE ADDR SIZE" (hex) from readelf -S, or nothing.
section() {
    "${prefix}readelf" -S -W "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
        awk -v n="$2" '$1 == n { print $2, $3, $5 }'
}
# size_a ELF NAME: the section's size in bytes from arm-none-eabi-size -A.
size_a() { "${prefix}size" -A "$1" | awk -v n="$2" '$1 == n { print $2 }'; }
hex() { printf '%d' "0x$1"; }
# in_region ELF NAME ORIGIN LENGTH: the section lies in [ORIGIN, ORIGIN + LENGTH).
in_region() {
    set -- $(section "$1" "$2") "$3" "$4"
    [ -n "$1" ] && a=$(hex "$2") && s=$(hex "$3") && [ "$a" -ge $(($4)) ] && [ $((a + s)) -le $(($4 + $5)) ]
}
is_nobits() { [ "$(section "$1" "$2" | cut -d' ' -f1)" = NOBITS ]; }
no_section() { [ -z "$(section "$1" "$2")" ]; }
at_least() { v=$(size_a "$1" "$2"); [ -n "$v" ] && [ "$v" -ge "$3" ]; }
below() { v=$(size_a "$1" "$2"); [ -n "$v" ] && [ "$v" -lt "$3" ]; }
same_bin() { [ "$(wc -c <"$1")" -eq "$(wc -c <"$2")" ]; }
runs() {
    out=$($qemu "$1" 2>&1)
    status=$?
    printf '%s\n' "$out"
    [ "$status" -eq 0 ] && printf '%s\n' "$out" | tail -n 1 | grep -q '^[0-9][0-9]* passed, 0 failed$'
}

RAM=0x20000000
RAM_LEN=0x400000
SRAM2=0x21000000
SRAM2_LEN=0x20000
ARENA=65536
POOL=4096 # 64 blocks of 64 bytes

# Objects once: the library, the port and the test's output, and main.c with
# the real arena and with the control's.
srcs="$root/targets/cortex-m/startup.c $root/port/cortex-m/port.c $root/port/cortex-m/assert.c
      $root/port/cortex-m/semihost.c $root/port/cortex-m/fault.c $root/lib/src/*.c"
objs=""
for src in $srcs; do
    o=$dir/$(basename "$src" .c).o
    "$@" -c "$src" -o "$o" >>"$log" 2>&1 || { bad "compile $src"; continue; }
    objs="$objs $o"
done
"$@" -c "$fw/main.c" -o "$dir/main.o" >>"$log" 2>&1 || bad "compile main.c"
"$@" -DAPP_ARENA_BYTES=64u -c "$fw/main.c" -o "$dir/main-control.o" >>"$log" 2>&1 ||
    bad "compile main.c (control)"
"$@" -DAPP_ARENA_BYTES=196608u -c "$fw/main.c" -o "$dir/main-big.o" >>"$log" 2>&1 ||
    bad "compile main.c (192 KiB)"

# do_link NAME SCRIPT MAIN_OBJECT CC FLAGS...: NAME.elf and NAME.bin, the
# linker's messages in NAME.ld.log
do_link() {
    name=$1
    script=$2
    main=$3
    shift 3
    rm -f "$dir/$name.elf" "$dir/$name.bin"
    "$@" -nostdlib -Wl,--gc-sections -L"$fw" -L"$root/linker" -T"$fw/$script" $objs "$main" -lgcc \
        -o "$dir/$name.elf" >"$dir/$name.ld.log" 2>&1 &&
        "${prefix}objcopy" -O binary "$dir/$name.elf" "$dir/$name.bin"
}

for v in fragment forgot region one; do
    check "($v) links" do_link "$v" "app-$v.ld" "$dir/main.o" "$@"
    check "($v) control links" do_link "$v-control" "app-$v.ld" "$dir/main-control.o" "$@"
    check "($v) the flash image is no larger than with a 64-byte arena" \
        same_bin "$dir/$v.bin" "$dir/$v-control.bin"
done

# (a) the fragment
e=$dir/fragment.elf
check "(a) .stow is NOBITS" is_nobits "$e" .stow
check "(a) .stow holds the arena and the pool" at_least "$e" .stow $((ARENA + POOL))
check "(a) .stow lies in RAM" in_region "$e" .stow $RAM $RAM_LEN
check "(a) .bss took none of it" below "$e" .bss $POOL
check "(a) runs: both containers in .stow" runs "$e"

# (b) no fragment
e=$dir/forgot.elf
check "(b) there is no .stow" no_section "$e" .stow
check "(b) .bss is NOBITS" is_nobits "$e" .bss
check "(b) .bss holds the arena and the pool" at_least "$e" .bss $((ARENA + POOL))
check "(b) runs: both containers in .bss" runs "$e"

# (c) stow in the second region
e=$dir/region.elf
check "(c) .stow is NOBITS" is_nobits "$e" .stow
check "(c) .stow holds the arena and the pool" at_least "$e" .stow $((ARENA + POOL))
check "(c) .stow lies in SRAM2" in_region "$e" .stow $SRAM2 $SRAM2_LEN
check "(c) runs: both containers in SRAM2's .stow" runs "$e"

# (c') one container in the second region
e=$dir/one.elf
check "(c') .sram2_stow is NOBITS" is_nobits "$e" .sram2_stow
check "(c') .sram2_stow holds the pool" at_least "$e" .sram2_stow $POOL
check "(c') .sram2_stow holds nothing else" below "$e" .sram2_stow $((POOL + 64))
check "(c') .sram2_stow lies in SRAM2" in_region "$e" .sram2_stow $SRAM2 $SRAM2_LEN
check "(c') .stow holds the arena" at_least "$e" .stow $ARENA
check "(c') .stow does not hold the pool" below "$e" .stow $((ARENA + POOL))
check "(c') .stow lies in RAM" in_region "$e" .stow $RAM $RAM_LEN
check "(c') runs: the pool in SRAM2, the arena in .stow" runs "$e"

# (d), (e) links that must fail, and say why
fails_with() { # fails_with NAME SCRIPT MAIN PATTERN CC FLAGS...
    n=$1 s=$2 m=$3 p=$4
    shift 4
    ! do_link "$n" "$s" "$m" "$@" && cat "$dir/$n.ld.log" && grep -q "$p" "$dir/$n.ld.log"
}
check "(d) no STOW_RAM alias: the link fails naming STOW_RAM" \
    fails_with noalias app-noalias.ld "$dir/main.o" 'STOW_RAM is not declared' "$@"
check "(e) .stow larger than its region: the link fails" \
    fails_with overflow app-region.ld "$dir/main-big.o" 'does not fit in the STOW_RAM region' "$@"

echo "$passed $failed" >"$dir/result"
printf '%-34s %s passed, %s failed\n' link-fragment "$passed" "$failed"
if [ "$failed" -ne 0 ]; then
    echo "---- from $log:"
    grep -B2 -A6 '^FAIL' "$log" | head -n 60
    echo "----"
fi
exit 0
