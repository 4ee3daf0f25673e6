#!/bin/sh
# SPDX-License-Identifier: MIT
# callgrind.sh PROGRAM DIR - instructions per operation on the host, counted by
# valgrind's callgrind (see bench/bench.h).
#
# Runs PROGRAM (bench/ops.c built for the host) under callgrind, keeping its
# output and callgrind's in DIR. Each row line the program prints,
#     @|<column>|<label>|fn=<run function>|calls=<n>
# becomes "@|<column>|<label>|<instructions per call>": the inclusive cost of
# every call that the run function made (the callee's instructions, its return
# included; not the call instruction, which is the caller's), over n. The run
# functions are noipa (never inlined, cloned or merged), one per row, so
# callgrind keeps their names and each row's calls apart.
set -e
prog=$1
dir=$2
mkdir -p "$dir"
if ! valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.out" \
        --compress-strings=no --compress-pos=no "$prog" >"$dir/rows.txt" 2>"$dir/valgrind.log"; then
    cat "$dir/valgrind.log" "$dir/rows.txt" >&2
    exit 1
fi
# Pass 1 (callgrind.out): a cost line right after "calls=" is the inclusive cost
# of those calls, attributed here to the current fn=. Its events are just Ir.
# Pass 2 (rows.txt): divide.
awk -F'|' '
FNR == NR {
    if ($0 ~ /^fn=/) { fn = substr($0, 4); next }
    if ($0 ~ /^calls=/) { incall = 1; next }
    if (incall && $0 ~ /^[0-9+*-]/) { split($0, f, " "); cost[fn] += f[2]; incall = 0 }
    next
}
/^@\|/ && $4 ~ /^fn=/ && $5 ~ /^calls=/ {
    fn = substr($4, 4); n = substr($5, 7) + 0
    if (!(fn in cost) || n == 0) { print "callgrind.sh: no calls from " fn > "/dev/stderr"; bad = 1; next }
    printf "@|%s|%s|%.2f\n", $2, $3, cost[fn] / n
}
END { exit bad }
' "$dir/callgrind.out" "$dir/rows.txt"
