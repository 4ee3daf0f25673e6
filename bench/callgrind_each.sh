#!/bin/sh
# SPDX-License-Identifier: MIT
# callgrind_each.sh PROGRAM DIR - instructions per call, each call counted on its
# own, on the host, by valgrind's callgrind (see bench/bench.h, "one call at a
# time").
#
# Runs PROGRAM (bench/ops.c and the BENCH_EACH modules, built with
# -DSTOW_BENCH_EACH for the host) under callgrind with every dump in one file
# (--combine-dumps=yes), keeping its output and callgrind's in DIR. Around each
# timed call the program zeroes callgrind's counts and then dumps them, the dump
# labelled with the row's key: each dump ("part") holds that one call. Its cost
# is the inclusive cost of the calls made by the timing function (named each_*):
# the callee's instructions, its return included, not the call instruction.
# Each row line the program prints,
#     @|<column>|<label>|each=<key>|<mean or max>|calls=<n>
# becomes "@|<column>|<label>|<value>", after checking that n calls were seen
# for that key. Other lines (notes "@note|", fragmentation "%|") pass through.
set -e
prog=$1
dir=$2
mkdir -p "$dir"
if ! valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.out" --combine-dumps=yes \
        --compress-strings=no --compress-pos=no "$prog" >"$dir/rows.txt" 2>"$dir/valgrind.log"; then
    cat "$dir/valgrind.log" "$dir/rows.txt" >&2
    exit 1
fi
awk -F'|' '
function done_part() {
    if (key != "" && seen) {
        n[key]++; sum[key] += cost
        if (!(key in max) || cost > max[key]) max[key] = cost
    }
    key = ""; cost = 0; seen = 0
}
FNR == NR {
    if ($0 ~ /^part:/) { done_part(); next }
    if ($0 ~ /^desc: Trigger: Client Request: /) { key = substr($0, length("desc: Trigger: Client Request: ") + 1); next }
    if ($0 ~ /^fn=/) { fn = substr($0, 4); next }
    if ($0 ~ /^calls=/) { incall = 1; next }
    if (incall && $0 ~ /^[0-9+*-]/) {
        split($0, f, " ")
        if (fn ~ /^each_/) { cost += f[2]; seen = 1 }
        incall = 0
    }
    next
}
FNR == 1 { done_part() }
/^@\|/ && $4 ~ /^each=/ {
    k = substr($4, 6); calls = substr($6, 7) + 0
    if (n[k] != calls) {
        printf "callgrind_each.sh: %s: %d calls counted, the program made %d\n", k, n[k], calls > "/dev/stderr"
        bad = 1; next
    }
    if ($5 == "mean") printf "@|%s|%s|%.2f\n", $2, $3, sum[k] / n[k]
    else printf "@|%s|%s|%d\n", $2, $3, max[k]
    next
}
{ print }
END { exit bad }
' "$dir/callgrind.out" "$dir/rows.txt"
