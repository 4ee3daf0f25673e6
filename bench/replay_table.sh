#!/bin/sh
# SPDX-License-Identifier: MIT
# replay_table.sh FILE... - the Markdown table of the trace replay from the
# "@trace|..." lines of bench/replay.sh (and of QEMU runs of bench/replay.c).
awk -F'|' '
function kib(b) { return sprintf("%.1f", b / 1024) }
/^@trace\|/ {
    n++
    row[n] = sprintf("| %s | %s | %d | %s | %d | %d | %d / %d | %s | %s | %.2f |", $2, $3, $4, $5, $6, $7, $8, $9,
                     kib($10), kib($11), $10 > 0 ? $11 / $10 : 0)
}
END {
    print "| trace | allocator | calls | instructions per call: mean | max | max of malloc, aligned, free | calloc and realloc: calls / max | peak requested KiB | footprint KiB | footprint / requested |"
    print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (i = 1; i <= n; i++) print row[i]
}' "$@"
