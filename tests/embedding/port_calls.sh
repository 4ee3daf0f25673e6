#!/bin/sh
# SPDX-License-Identifier: MIT
# port_calls.sh DIR - what stow/port.h says the library calls of the port is what
# it calls:
#   library    lib/src built at check level 2 for Cortex-M0 and for rv32imac, and
#              in the two configurations where the atomic pool takes the port's
#              critical section (Cortex-M0 with STOW_MULTICORE=1, and rv32imc:
#              no A extension): the stow_port_* symbols their objects leave
#              undefined are exactly the functions port.h lists as called, and
#              port.h's count ("six") is their number
#   everyday   tests/embedding/everyday.c, every container's everyday calls,
#              links with --gc-sections, no port and no C library but its own
#              assert hook, at levels 1 and 2, and with nothing at level 0
# From the environment: CM_CC (arm-none-eabi-gcc for Cortex-M0 and its flags),
# RV_CC (riscv64-unknown-elf-gcc for rv32imac and its flags).
# Ends "N passed, N failed".
dir=$1
mkdir -p "$dir"
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

: >"$dir/undefined"
for target in cm cm-multicore rv rv-no-a; do
    case $target in
    cm) cc=$CM_CC nm=arm-none-eabi-nm ;;
    cm-multicore) cc="$CM_CC -DSTOW_MULTICORE=1" nm=arm-none-eabi-nm ;;
    rv) cc=$RV_CC nm=riscv64-unknown-elf-nm ;;
    rv-no-a) cc="$RV_CC -march=rv32imc" nm=riscv64-unknown-elf-nm ;;
    esac
    for src in lib/src/*.c; do
        o=$dir/$target-$(basename "$src" .c).o
        # shellcheck disable=SC2086 # cc holds the command and its flags
        $cc -DSTOW_CHECK_LEVEL=2 -Ilib/include -c "$src" -o "$o" || { bad "library: $src ($target)"; continue; }
        $nm -u "$o" | awk '$2 ~ /^stow_port_/ { print $2 }' >>"$dir/undefined"
    done
done
called=$(sort -u "$dir/undefined" | tr '\n' ' ')
# port.h's list: the first comment's lines " *   stow_port_x()   ...", and its count.
listed=$(sed -n '1,/\*\//p' lib/include/stow/port.h | sed -n 's/^ \*   \(stow_port_[a-z_]*\)().*/\1/p' |
    sort -u | tr '\n' ' ')
count=$(sed -n '1,/\*\//p' lib/include/stow/port.h | sed -n 's/.*calls \([a-z]*\) of the .*/\1/p' | head -n 1)
n=$(printf '%s' "$called" | wc -w)
case $count in one) said=1 ;; two) said=2 ;; three) said=3 ;; four) said=4 ;; five) said=5 ;; six) said=6 ;;
    seven) said=7 ;; eight) said=8 ;; *) said=0 ;; esac
if [ -n "$called" ] && [ "$called" = "$listed" ] && [ "$said" -eq "$n" ]; then
    ok "library: calls $count port functions, as port.h lists them: $called"
else
    bad "library: calls [$called] ($n), port.h lists [$listed] and says '$count'"
fi

for level in 0 1 2; do
    # shellcheck disable=SC2086
    if $CM_CC -DSTOW_CHECK_LEVEL=$level -Ilib/include -nostdlib -Wl,--gc-sections -Wl,-e,main \
        tests/embedding/everyday.c lib/src/*.c -lgcc -o "$dir/everyday-L$level.elf" >"$dir/everyday-L$level.log" 2>&1
    then
        ok "everyday L$level: links with $([ $level -eq 0 ] && echo 'no port function' || echo 'the assert hook alone')"
    else
        bad "everyday L$level: does not link without the rest of the port"; cat "$dir/everyday-L$level.log"
    fi
done
echo "$passed passed, $failed failed"
