#!/bin/sh
# SPDX-License-Identifier: MIT
# replay_table.sh FILE... - the Markdown table of the trace replay, from the
# "@trace|..." lines of bench/replay.sh (host) and of the QEMU replay images
# (bench/replay.c built with STOW_REPLAY_TARGET): rows grouped by trace, in the
# order the files give them; then, from the images' "@calls|..." lines, a table
# of instructions per call for each kind of call.
awk -F'|' '
function kib(b) { return sprintf("%.1f", b / 1024) }
/^@trace\|/ {
    if (!($2 in seen)) { seen[$2] = 1; traces[++nt] = $2 }
    k = ++rows[$2]
    row[$2, k] = sprintf("| %s | %s | %d | %s | %d | %d | %d / %d | %s | %s | %.2f |", $2, $3, $4, $5, $6, $7, $8,
                         $9, kib($10), kib($11), $10 > 0 ? $11 / $10 : 0)
}
END {
    print "| trace | allocator, core | calls | instructions per call: mean | max | max of malloc, aligned, free | calloc and realloc: calls / max | peak requested KiB | footprint KiB | footprint / requested |"
    print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (t = 1; t <= nt; t++) for (k = 1; k <= rows[traces[t]]; k++) print row[traces[t], k]
    if (nc == 0) exit
    print ""
    print "Instructions per call by kind, under QEMU (each call timed on its own): calls / mean / longest."
    print ""
    print "| trace | allocator, core | malloc | calloc | aligned | realloc | free |"
    print "|---|---|---:|---:|---:|---:|---:|"
    for (k = 1; k <= nc; k++) print calls[k]
}
/^@calls\|/ {
    line = sprintf("| %s | %s |", $2, $3)
    for (i = 4; i <= 8; i++) { split($i, f, " "); line = line sprintf(" %s / %s / %s |", f[1], f[2], f[3]) }
    calls[++nc] = line
}' "$@"
