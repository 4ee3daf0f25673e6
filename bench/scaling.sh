#!/bin/sh
# SPDX-License-Identifier: MIT
# scaling.sh FILE... - the scaling table from bench/scaling.c's runs.
#
# Each FILE holds lines "@scale|<platform>|<workers>|<workload>|<calls per second>"
# (other lines are ignored); a configuration run several times keeps its best
# figure. For each platform and workload, the calls per second with 2 and 4
# workers are divided by those with 1: 2.00 would be perfect scaling to two.
awk -F'|' '
/^@scale\|/ {
    key = $2 SUBSEP $4
    if (!(key in seen)) { seen[key] = 1; keys[++n] = key }
    if (!(($2, $4, $3) in best) || $5 + 0 > best[$2, $4, $3]) best[$2, $4, $3] = $5 + 0
}
END {
    printf "| workload | platform | 1 worker (calls/s) | 2 workers | 4 workers |\n|---|---|---:|---:|---:|\n"
    for (k = 1; k <= n; k++) {
        split(keys[k], f, SUBSEP)
        one = best[f[1], f[2], 1]
        printf "| %s | %s | %d |", f[2], f[1], one
        for (w = 2; w <= 4; w *= 2) {
            cell = "-"
            if (((f[1], f[2], w) in best) && one > 0) cell = sprintf("%.2f", best[f[1], f[2], w] / one)
            printf " %s |", cell
        }
        printf "\n"
    }
}' "$@"
