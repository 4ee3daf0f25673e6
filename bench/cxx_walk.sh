#!/bin/sh
# SPDX-License-Identifier: MIT
# cxx_walk.sh DIR - instructions per item of the walks over every item of a slot
# map and a genpool, C against C++ (bench/cxx_walk.c, bench/cxx_walk.cpp): on
# the host under callgrind (exact: each walk function's inclusive instructions
# over the items it visited), and on Cortex-M4 (mps2-an386) and Cortex-M0
# (micro:bit) under QEMU -icount shift=0 (SysTick counting instructions,
# calibrated; to about 0.1 instruction per item). All at -O2, check level 1.
# A slot map of 1024 items with every third removed, a genpool of 1024 slots
# full and then every other slot live (256 slots on the micro:bit, for its RAM).
# Prints a table per container shape. Exits 1 when items() costs more per item
# than the C walk that gives the handles too (c_*_walk_handles and
# c_genpool_foreach_handles), on any core. Objects and logs stay in DIR.
set -u
dir=$1
mkdir -p "$dir"
CC=${CC:-gcc}
CXX=${CXX:-g++}
ARM_CC=${ARM_CC:-arm-none-eabi-gcc}
ARM_CXX=${ARM_CXX:-arm-none-eabi-g++}
QEMU=${QEMU:-qemu-system-arm}
LIB_SRC=$(ls lib/src/*.c)
common="-O2 -g -DSTOW_CHECK_LEVEL=1 -Ilib/include -Ibench"

# host: callgrind
"$CC" -std=c11 -pedantic -Wall -Wextra -Werror $common -c bench/cxx_walk.c -o "$dir/walk_c.o" || exit 1
"$CXX" -std=c++17 -Wall -Wextra -Werror -fno-exceptions -fno-rtti $common -c bench/cxx_walk.cpp \
    -o "$dir/walk_cxx.o" || exit 1
"$CC" -std=c11 $common $LIB_SRC port/host/port.c port/host/assert.c "$dir/walk_c.o" "$dir/walk_cxx.o" \
    -lstdc++ -lpthread -o "$dir/walk-host" || exit 1
rm -f "$dir"/callgrind.out*
valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.out" --compress-strings=no \
    --compress-pos=no "$dir/walk-host" >"$dir/host.txt" 2>"$dir/valgrind.log" || { cat "$dir/valgrind.log"; exit 1; }
# A dump per row (named after the row's walk function): the inclusive
# instructions of the calls to that function, the cost line after a "calls="
# line under "cfn=<function>".
k=1
while [ -e "$dir/callgrind.out.$k" ]; do
    dump=$dir/callgrind.out.$k
    k=$((k + 1))
    awk '
    /^desc: Trigger: Client Request: / { row = $NF }
    /^cfn=/ { cfn = substr($0, 5); next }
    /^calls=/ { incall = 1; next }
    incall && /^[0-9+*-]/ { split($0, f, " "); if (cfn == row) cost += f[2]; incall = 0 }
    END { if (row != "") print row, cost }
    ' "$dump"
done >"$dir/host.costs"
# The rows in the order printed, each row's dumps taken in turn (a walk
# function is a row of every genpool shape).
awk -F'|' '
FNR == NR { n[$1]++; cost[$1, n[$1]] = $2; next }
/^@\|/ { k[$2]++; printf "@|%s|%s|%d\n", $2, $3, cost[$2, k[$2]] * 100 / $3 + 0.5; next }
{ print }
' FS=' ' "$dir/host.costs" FS='|' "$dir/host.txt" >"$dir/host.rows"

# Cortex-M: QEMU -icount
for board in mps2-an386:cortex-m4:1024 microbit:cortex-m0:256; do
    name=${board%%:*}
    cpu=${board#*:}
    capacity=${cpu#*:}
    cpu=${cpu%:*}
    flags="$common -DWALK_CAPACITY=${capacity}u -ffreestanding -ffunction-sections -fdata-sections -mno-unaligned-access -mcpu=$cpu -mthumb \
        -mfloat-abi=soft -DSTOW_BENCH_TARGET"
    "$ARM_CXX" -std=c++17 -Wall -Wextra -Werror -fno-exceptions -fno-rtti $flags -c bench/cxx_walk.cpp \
        -o "$dir/walk_cxx-$name.o" || exit 1
    "$ARM_CC" -std=c11 $flags -nostdlib -Wl,--gc-sections -Tlinker/cortex-m.ld -Llinker -Ltargets/$name \
        targets/cortex-m/startup.c port/cortex-m/semihost.c port/cortex-m/fault.c port/cortex-m/port.c \
        port/cortex-m/assert.c port/cortex-m/cycles.c tests/cxx/mem.c $LIB_SRC bench/cxx_walk.c \
        "$dir/walk_cxx-$name.o" -lgcc -o "$dir/walk-$name.elf" || exit 1
    machine=$(sed -n 's/^BOARD_QEMU := //p' targets/$name/board.mk)
    timeout 300 "$QEMU" $machine -icount shift=0 -nographic -monitor none -serial none \
        -semihosting-config enable=on,target=native -kernel "$dir/walk-$name.elf" >"$dir/$name.rows" \
        || { cat "$dir/$name.rows"; exit 1; }
done

# one table per shape: walk | x86-64 | Cortex-M4 | Cortex-M0
status=0
paste -d'|' "$dir/host.rows" "$dir/mps2-an386.rows" "$dir/microbit.rows" | awk -F'|' '
function per(x) { return sprintf("%.2f", x / 100) }
/^# / { sub(/\|.*/, ""); print ""; print "Walk over every item, " substr($0, 3) ": instructions per item";
        print ""; print "| walk | x86-64 | Cortex-M4 | Cortex-M0 |"; print "|---|---:|---:|---:|"; next }
/^@\|/ {
    printf "| %s | %s | %s | %s |\n", $2, per($4), per($8), per($12)
    for (c = 0; c < 3; c++) v[$2, c] = $(4 + 4 * c)
    if ($2 ~ /_items$/) {
        ref = ($2 ~ /slotmap/) ? "c_slotmap_walk_handles" : "c_genpool_foreach_handles"
        for (c = 0; c < 3; c++) if (v[$2, c] > v[ref, c]) { slower = slower " " $2 "(" c ")" }
    }
}
END { if (slower != "") { print ""; print "items() slower than the C walk with handles:" slower; exit 1 } }
' || status=1
exit $status
