#!/bin/sh
# SPDX-License-Identifier: MIT
# table.sh FILE... - one Markdown table from the row lines of several bench runs.
#
# Each FILE holds lines "@|<column>|<label>|<value>" (other lines are ignored),
# from a QEMU run of bench/ops.c or from bench/callgrind.sh. Columns appear in
# the order of the files, rows in the order they first appear; a row a run did
# not measure shows "-". Values are rounded to a tenth, and whole numbers lose
# their ".0".
#
# Then checks the per-operation targets against the "Cortex-M4 L0" column (and
# the x86-64 L0 one for stow_pool against malloc) and prints each as met or
# missed; the heap's with how far each is from its limit.
#
# Lines "@note|<column>|<text>" are printed under the table, one line per text
# with the columns that said it; lines
# "%|<allocator>|<peak live bytes>|<peak footprint>" (bench/ops_heap.c on the
# host) make the heap's fragmentation table.
awk -F'|' '
function fmt(v,   s) {
    s = sprintf("%.1f", v)
    sub(/\.0$/, "", s)
    return s
}
/^@note\|/ {
    if (!(($3) in noteseen)) { noteseen[$3] = 1; notes[++nnotes] = $3; notecols[$3] = $2 }
    else notecols[$3] = notecols[$3] ", " $2
    next
}
/^%\|/ {
    if (!(($2) in fragseen)) { fragseen[$2] = 1; frags[++nfrags] = $2; flive[$2] = $3; fprint[$2] = $4 }
    next
}
/^@\|/ {
    col = $2; row = $3
    if (!(col in colseen)) { colseen[col] = 1; cols[++ncols] = col }
    if (!(row in rowseen)) { rowseen[row] = 1; rows[++nrows] = row }
    val[row, col] = $4
}
# A heap target: at most limit (or, strict, below it), with the margin.
function check_heap(row, col, limit, what, strict,   v, ok, d) {
    if (!((row, col) in val)) { printf "| %s | %s | - | %s %s | no figure |\n", what, col, strict ? "<" : "<=", limit; return }
    v = val[row, col]
    ok = strict ? v < limit : v <= limit + 0.005
    d = limit - v; if (d < 0) d = -d
    printf "| %s | %s | %s | %s %s | %s |\n", what, col, fmt(v), strict ? "<" : "<=", limit,
           ok ? sprintf("met, %s under", fmt(d)) : sprintf("**missed** by %s", fmt(d))
}
function check(row, col, limit, what,   v) {
    if (!((row, col) in val)) { printf "| %s | %s | - | <= %s | no figure |\n", what, col, limit; return }
    v = val[row, col]
    printf "| %s | %s | %s | <= %s | %s |\n", what, col, fmt(v), limit, (v <= limit + 0.05 ? "met" : "**missed**")
}
END {
    printf "| operation |"
    for (c = 1; c <= ncols; c++) printf " %s |", cols[c]
    printf "\n|---|"
    for (c = 1; c <= ncols; c++) printf "---:|"
    printf "\n"
    for (r = 1; r <= nrows; r++) {
        printf "| %s |", rows[r]
        for (c = 1; c <= ncols; c++) printf " %s |", ((rows[r], cols[c]) in val) ? fmt(val[rows[r], cols[c]]) : "-"
        printf "\n"
    }
    for (k = 1; k <= nnotes; k++) printf "%s%s: %s.\n", k == 1 ? "\n" : "", notes[k], notecols[notes[k]]
    if (nfrags > 0) {
        printf "\nHeap fragmentation on the host, same alloc/free workload (bench/ops_heap.c): peak footprint ="
        printf " the most, over the run, of (highest requested byte in use - lowest block start);"
        printf " peak live = the most requested bytes live at once.\n\n"
        printf "| allocator | peak live bytes | peak footprint | footprint / live |\n|---|---:|---:|---:|\n"
        for (k = 1; k <= nfrags; k++)
            printf "| %s | %d | %d | %.2f |\n", frags[k], flive[frags[k]], fprint[frags[k]],
                   fprint[frags[k]] / flive[frags[k]]
    }
    m4 = "Cortex-M4 L0"
    if (!(m4 in colseen)) exit
    printf "\nTargets (instructions, Cortex-M4, -O2, check level 0):\n\n"
    printf "| target | column | measured | limit | |\n|---|---|---:|---:|---|\n"
    check("pool alloc (free list)", m4, 12, "pool alloc (free list)")
    check("pool alloc (never-used block)", m4, 12, "pool alloc (never-used block)")
    check("pool free", m4, 10, "pool free")
    check("pool alloc_atomic (free list)", m4, 16, "pool alloc_atomic (free list)")
    check("pool alloc_atomic (never-used block)", m4, 16, "pool alloc_atomic (never-used block)")
    check("pool free_atomic", m4, 16, "pool free_atomic")
    check("arena alloc (8 bytes, align 8)", m4, 15, "arena alloc")
    check("genpool get", m4, 12, "genpool get")
    check("slotmap get", m4, 12, "slotmap get")
    check("genpool insert (8-byte item, never-used slot)", m4, 40, "genpool insert (never-used slot)")
    check("genpool insert (8-byte item, free list)", m4, 40, "genpool insert (free list)")
    check("genpool insert (16-byte item, never-used slot)", m4, 40, "genpool insert (16-byte item, never-used slot)")
    check("genpool insert (16-byte item, free list)", m4, 40, "genpool insert (16-byte item, free list)")
    check("genpool remove", m4, 40, "genpool remove")
    check("genpool FOREACH (full pool, per item)", m4, 8, "genpool FOREACH, per live item (full pool)")
    check("genpool FOREACH (every other slot live, per item)", m4, 8,
          "genpool FOREACH, per live item (each alone between free slots)")
    check("slotmap insert (first use of a slot)", m4, 40, "slotmap insert (first use)")
    check("slotmap insert (reuses a freed slot)", m4, 40, "slotmap insert (reuse)")
    check("slotmap remove (moves the last item in)", m4, 40, "slotmap remove")
    check("packed push (16-byte item, zeroed)", m4, 40, "packed push")
    check("packed remove_at (16-byte item, moves the last in)", m4, 40, "packed remove_at")
    ha = "heap alloc (8-512 B, random frees)"; hf = "heap free (same workload)"
    check_heap(ha ": max", m4, 64, "heap alloc, worst case of the workload (each call timed)", 0)
    check_heap(hf ": max", m4, 64, "heap free, worst case of the workload (each call timed)", 0)
    check_heap("heap alloc of a block, longest path (a lone block found in the next word of class bits " \
               "split, the rest to an empty class): max", m4, 64, "heap alloc, longest path", 0)
    check_heap("heap free of a block, longest path (merges two neighbours, each alone in its class): max", m4, 64,
               "heap free, longest path", 0)
    check_heap(ha ": mean", m4, 50, "heap alloc, mean of the workload", 0)
    check_heap(hf ": mean", m4, 50, "heap free, mean of the workload", 0)
    check_heap("heap alloc of 16 bytes (a slot): max", m4, 51, "heap alloc of 16 bytes, no slower than heap_4 (51)", 0)
    check_heap("heap free of 16 bytes (a slot): max", m4, 41, "heap free of 16 bytes, no slower than heap_4 (41)", 0)
    host = "x86-64 L0"
    pool = "pool alloc + free (a pair, per pair)"
    heap = "malloc + free (a pair, per pair; host only)"
    if ((pool, host) in val && (heap, host) in val) {
        p = val[pool, host]; h = val[heap, host]
        printf "| stow_pool alloc+free vs malloc+free, 5x fewer | %s | %s vs %s: %.1fx | >= 5x | %s |\n",
               host, fmt(p), fmt(h), h / p, (h >= 5 * p ? "met" : "**missed**")
        b = "malloc (8 bytes, after as many frees; host only)"; f = "free (8 bytes; host only)"
        pa = "pool alloc (free list)"; pf = "pool free"
        if ((b, host) in val && (f, host) in val && (pa, host) in val && (pf, host) in val) {
            p = val[pa, host] + val[pf, host]; h = val[b, host] + val[f, host]
            printf "| same, %d blocks outstanding | %s | %s vs %s: %.1fx | >= 5x | %s |\n", 1000,
                   host, fmt(p), fmt(h), h / p, (h >= 5 * p ? "met" : "**missed**")
        }
    }
}
' "$@"
