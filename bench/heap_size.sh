#!/bin/sh
# SPDX-License-Identifier: MIT
# heap_size.sh - the steps of make heap-size (bench/heap_size.mk).
#   heap_size.sh header TRACE REPLAY RAM_KIB
#       checks TRACE with the host replay (REPLAY TRACE check: the first bad line
#       stops it, "TRACE:LINE: what") and that a board image can hold it, then
#       writes it as C arrays (bench/trace2c.sh) to stdout
#   heap_size.sh report TRACE CORE FILE...
#       the report, from the "@size" and "@macro" lines of bench/replay.c in FILE...
set -e
case $1 in
header)
    trace=$2
    replay=$3
    ram_kib=$4
    check=$("$replay" "$trace" check)
    calls=$(printf '%s\n' "$check" | sed -n 's/.*|calls=\([0-9]*\)|.*/\1/p')
    max_id=$(printf '%s\n' "$check" | sed -n 's/.*|max_id=\([0-9]*\)$/\1/p')
    # 16 bytes a call in the image's 4 MiB of flash, beside ~100 KiB of code; two
    # words a block in RAM, beside the stack and at least 64 KiB of heap
    if [ "$calls" -gt 240000 ]; then
        echo "$trace: $calls calls are more than a board image holds (240000); size it with TARGET=host" >&2
        exit 1
    fi
    if [ $(((max_id + 1) * 8 + 80 * 1024)) -gt $((ram_kib * 1024)) ]; then
        echo "$trace: $max_id blocks are more than the board's $ram_kib KiB of RAM can track; size it with TARGET=host" >&2
        exit 1
    fi
    exec "$(dirname "$0")/trace2c.sh" "$trace"
    ;;
report)
    trace=$2
    core=$3
    shift 3
    awk -F'|' -v trace="$trace" -v core="$core" '
    function kib(b) { return sprintf("%.1f KiB", b / 1024) }
    function tried(w) {
        return w == "yes" ? "runs the trace" : w == "no" ? "REFUSED a request: the bound does not hold here" \
            : "not tried (larger than the replay'\''s storage)"
    }
    function level_of(column) {
        split(column, lc, ", "); sub(/^stow L/, "level ", lc[1]); sub(/ bounded$/, ", bounded policy", lc[1])
        return lc[1]
    }
    /^@size\|/ {
        peak = $4; n++
        if ($5 == 0) {
            out[n] = sprintf("%s: no heap up to the replay'\''s storage (%s) runs it\n", level_of($3), kib($9))
            next
        }
        out[n] = sprintf("%s: smallest heap %d bytes (%s) = %.2fx the peak requested", level_of($3), $5, kib($5),
                         $5 / $4)
        if ($7 > 0) out[n] = out[n] sprintf("; %d bytes ran first, but %d did not", $6, $7)
        out[n] = out[n] sprintf("; the %d sizes above it (1 KiB steps) run too\n", $8)
    }
    /^@macro\|/ {
        shape = sprintf("%d calls, peak requested %d bytes, largest live total %d bytes, largest request %d, " \
                        "smallest %d", $4, peak, $5, $6, $7)
        out[n] = out[n] sprintf("    STOW_HEAP_BYTES_FOR(%d, %d) = %d bytes (%.1fx): %s\n", $5, $6, $8, $8 / peak,
                                tried($9))
        out[n] = out[n] sprintf("    STOW_HEAP_BYTES_FOR_MIN(%d, %d, %d) = %d bytes (%.1fx): %s\n", $5, $6, $7, $10,
                                $10 / peak, tried($11))
        if ($9 == "no" || $11 == "no") bad = 1
    }
    END {
        if (n == 0) { print "heap-size: no result (see above)"; exit 1 }
        printf "heap-size: %s on %s\n", trace, core
        printf "the trace: %s\n", shape
        for (i = 1; i <= n; i++) printf "%s", out[i]
        print "Largest live total: the most requested bytes live at once, a realloc'\''s old block counted until the"
        print "call returns, an aligned request as size + alignment. The smallest heap is for this run only: add a"
        print "margin for what the trace did not do (docs/heap-sizing.md)."
        exit bad
    }' "$@"
    ;;
*)
    echo "usage: heap_size.sh header TRACE REPLAY RAM_KIB | report TRACE CORE FILE..." >&2
    exit 2
    ;;
esac
