#!/bin/sh
# SPDX-License-Identifier: MIT
# replay_sizes.sh FILE... - the smallest-heap tables of make bench, from the
# "@size|..." and "@macro|..." lines of bench/replay.c (host: replay TRACE size;
# the QEMU images): one row per trace and core, one column per heap and check
# level, in the order the files give them. See bench/replay_size.c.
awk -F'|' '
function kib(b) { return sprintf("%.1f", b / 1024) }
function cell(b, peak) { return b > 0 ? sprintf("%d KiB, %.2fx", b / 1024, b / peak) : "none" }
function group(name, core) {
    if (!(name in tseen)) { tseen[name] = 1; traces[++ntraces] = name }
    if (!(core in cseen)) { cseen[core] = 1; cores[++ncores] = core }
    have[name, core] = 1
}
/^@size\|/ || /^@macro\|/ {
    name = $2; split($3, lc, ", "); heap = lc[1]; core = lc[2]; sub(/ \(QEMU\)$/, "", core)
    group(name, core)
    if (!(heap in hseen)) { hseen[heap] = 1; heaps[++nheaps] = heap }
}
/^@size\|/ {
    peak[name] = $4
    size[name, core, heap] = cell($5, $4)
    if ($7 > 0) {
        size[name, core, heap] = size[name, core, heap] " (a)"
        notes = notes sprintf("- (a) %s, %s on %s: the bisection ended at %d KiB, but %d KiB refused a request.\n",
                              name, heap, core, $6 / 1024, $7 / 1024)
    }
    if ($5 > 0 && $8 < 8) {
        size[name, core, heap] = size[name, core, heap] " (b)"
        notes = notes sprintf("- (b) %s, %s on %s: only %d of the 8 sizes above it fit the %d KiB storage.\n",
                              name, heap, core, $8, $9 / 1024)
    }
    if ($5 == 0) {
        notes = notes sprintf("- %s, %s on %s: no heap up to the %d KiB storage runs it.\n", name, heap, core,
                              $9 / 1024)
    }
}
/^@macro\|/ {
    macro[name, core, heap] = sprintf("%d KiB, %.0fx%s", $8 / 1024, $8 / peak[name],
                                      $9 == "yes" ? ", ran" : $9 == "no" ? ", REFUSED" : "")
    live[name] = $5; largest[name] = $6; smallest[name] = $7
    if ($9 == "no") {
        notes = notes sprintf("- %s, %s on %s: a heap of STOW_HEAP_BYTES_FOR(%d, %d) bytes refused a request.\n",
                              name, heap, core, $5, $6)
    }
}
END {
    for (t = 1; t <= ntraces; t++) for (c = 1; c <= ncores; c++)
        if ((traces[t], cores[c]) in have) row[++nrows] = traces[t] SUBSEP cores[c]
    print "### The smallest heap that runs each trace"
    print ""
    print "The smallest storage, in 1 KiB steps, on which the whole trace runs with no request refused, and that" \
          " storage / the trace'\''s peak requested bytes: bisection from the peak upwards, then the 8 sizes above" \
          " the result run too (bench/replay_size.c). Cortex-M4 and RV32IMAC under QEMU, " \
          "the host natively; FreeRTOS'\''s heap_4 (configTOTAL_HEAP_SIZE) built from FREERTOS_KERNEL_PATH."
    for (h = 1; h <= nheaps; h++) if (heaps[h] ~ / bounded$/) bounded = 1
    if (bounded) print "\"bounded\": the heap'\''s bounded policy (stow_heap_init_bounded), for which STOW_HEAP_BYTES_FOR is proven."
    print ""
    head = "| trace | peak requested KiB | core |"; rule = "|---|---:|---|"
    for (h = 1; h <= nheaps; h++) { head = head " " heaps[h] " |"; rule = rule "---:|" }
    print head; print rule
    for (r = 1; r <= nrows; r++) {
        split(row[r], k, SUBSEP)
        line = sprintf("| %s | %s | %s |", k[1], kib(peak[k[1]]), k[2])
        for (h = 1; h <= nheaps; h++) line = line " " ((k[1], k[2], heaps[h]) in size ? size[k[1], k[2], heaps[h]] : "-") " |"
        print line
    }
    print ""
    print "Not measured here (their code is not in Debian): issue 26 measured, on Cortex-M4 under QEMU with the" \
          " same method, TLSF 1.11x / 1.14x / 1.04x, o1heap 2.2 1.86x / 2.30x / 1.67x, umm_malloc 1.13x /" \
          " 1.22x / - (lua / openssl / python)."
    if (notes != "") { print ""; printf "%s", notes }
    print ""
    print "### What the proven bound asks for the same traces"
    print ""
    print "STOW_HEAP_BYTES_FOR(live, largest), and that / the peak requested bytes, for each trace'\''s own" \
          " figures (live: the most requested bytes live at once, a realloc'\''s old block counted until the" \
          " call returns; largest: the largest request). Where it fits the replay'\''s storage, a heap of that" \
          " size was given the trace: \"ran\", or REFUSED (a request refused: the bound broken)."
    print ""
    head = "| trace | live B | largest B | core |"; rule = "|---|---:|---:|---|"
    for (h = 1; h <= nheaps; h++) if (heaps[h] ~ /^stow/) { head = head " " heaps[h] " |"; rule = rule "---:|" }
    print head; print rule
    for (r = 1; r <= nrows; r++) {
        split(row[r], k, SUBSEP)
        line = sprintf("| %s | %d | %d | %s |", k[1], live[k[1]], largest[k[1]], k[2])
        for (h = 1; h <= nheaps; h++) if (heaps[h] ~ /^stow/)
            line = line " " ((k[1], k[2], heaps[h]) in macro ? macro[k[1], k[2], heaps[h]] : "-") " |"
        print line
    }
}' "$@"
