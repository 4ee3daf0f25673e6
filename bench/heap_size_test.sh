#!/bin/sh
# SPDX-License-Identifier: MIT
# heap_size_test.sh TARGET MAKE DIR REPLAY CC... - make test's check of make heap-size
# (bench/heap_size.mk) on TARGET (host: every level; a board: level 1), on the
# traces of bench/heap_size/:
# REPLAY: the host replays' path less -L<level> (bench/replay.c).
#   - small.trace, whose figures were worked out by hand (its comment): the
#     report gives them; STOW_HEAP_BYTES_FOR / _MIN of them are what CC... (the
#     target's compiler, at each level) computes, and a heap of either size runs
#     the trace (the macro's promise, on this trace); on the host the smallest
#     heap reported is checked by separate replays (replay TRACE at BYTES): it
#     runs the trace, 1 KiB less does not, the 8 sizes above run it;
#   - freed_twice.trace and garbled.trace: make heap-size stops at the line, in
#     one line, and builds no image;
#   - a missing trace, an unknown LEVEL or TARGET, no TRACE: one line each.
# The runs' outputs land in DIR (and make heap-size's files, HEAP_SIZE_DIR).
# Ends with "N passed, N failed".
target=$1
make=$2
dir=$3
replay=$4
shift 4
STEPS_DIR=$dir
. "$(dirname "$0")/../adapters/steps.sh"
fixtures=bench/heap_size
mkdir -p "$dir"
if [ "$target" = host ]; then levels="0 1 2"; else levels=1; fi
planned=0

heap_size() {
    $make --no-print-directory heap-size HEAP_SIZE_DIR="$dir/out" TARGET="$target" "$@"
}

# the trace's own figures (bench/heap_size/small.trace's comment)
figures="the trace: 27 calls, peak requested 7520 bytes, largest live total 10120 bytes, largest request 3200, smallest 24"
report() {
    heap_size TRACE=$fixtures/small.trace $([ "$target" = host ] || echo LEVEL=1) >"$dir/small.out" 2>&1
    status=$?
    cat "$dir/small.out"
    [ "$status" -eq 0 ] && grep -qxF "$figures" "$dir/small.out" &&
        [ "$(grep -c '^level [012]: smallest heap [0-9]* bytes' "$dir/small.out")" -eq "$(echo $levels | wc -w)" ]
}
# smallest LEVEL: the smallest heap the report gives at LEVEL
smallest() {
    sed -n "s/^level $1: smallest heap \([0-9]*\) bytes.*/\1/p" "$dir/small.out"
}
# sized_right LEVEL: the smallest heap, checked by replays of their own
sized_right() {
    s=$(smallest "$1")
    echo "level $1: smallest heap $s bytes"
    [ -n "$s" ] && [ $((s % 1024)) -eq 0 ] && [ "$s" -gt 7520 ] || return 1
    "$replay-L$1" $fixtures/small.trace at "$s" || return 1
    "$replay-L$1" $fixtures/small.trace at $((s - 1024)) && { echo "1 KiB less ran too"; return 1; }
    for k in 1 2 3 4 5 6 7 8; do
        "$replay-L$1" $fixtures/small.trace at $((s + k * 1024)) || return 1
    done
}
# at_level LEVEL: the report's lines for LEVEL (either policy where the heap has two)
at_level() {
    awk -v l="$1" '/^level / { on = substr($0, 7, 1) == l } on' "$dir/small.out"
}
# macros LEVEL CC...: the macros' figures are the compiler's (CC... at LEVEL)
# for the trace's figures, and a heap of each size ran the trace
macros() {
    level=$1
    shift
    for_bytes=$(at_level "$level" |
        sed -n 's/^    STOW_HEAP_BYTES_FOR(10120, 3200) = \([0-9]*\) bytes.*: runs the trace$/\1/p')
    min_bytes=$(at_level "$level" |
        sed -n 's/^    STOW_HEAP_BYTES_FOR_MIN(10120, 3200, 24) = \([0-9]*\) bytes.*: runs the trace$/\1/p')
    echo "level $level: STOW_HEAP_BYTES_FOR $for_bytes, _MIN $min_bytes"
    [ -n "$for_bytes" ] && [ -n "$min_bytes" ] || return 1
    printf '%s\n' '#include "stow/heap.h"' \
        '_Static_assert(STOW_HEAP_BYTES_FOR(10120u, 3200u) == FOR_BYTES, "STOW_HEAP_BYTES_FOR");' \
        '_Static_assert(STOW_HEAP_BYTES_FOR_MIN(10120u, 3200u, 24u) == MIN_BYTES, "STOW_HEAP_BYTES_FOR_MIN");' \
        >"$dir/macros.c"
    "$@" -DSTOW_CHECK_LEVEL="$level" -DFOR_BYTES="${for_bytes}u" -DMIN_BYTES="${min_bytes}u" -c "$dir/macros.c" \
        -o "$dir/macros.o"
}
# stops FILE LINE: make heap-size on FILE fails with one line naming FILE:LINE,
# and makes no image
stops() {
    rm -rf "$dir/out"
    heap_size TRACE="$fixtures/$1" >"$dir/stop.out" 2>&1 && return 1
    cat "$dir/stop.out"
    [ "$(grep -c "^$fixtures/$1:$2: " "$dir/stop.out")" -eq 1 ] &&
        [ "$(grep -Evc '^make(\[[0-9]+\])?: \*\*\* ' "$dir/stop.out")" -eq 1 ] &&
        [ -z "$(find "$dir/out" -name '*.elf' 2>/dev/null)" ]
}
# refuses WHAT ARGS...: make heap-size ARGS fails, and says WHAT in one line
refuses() {
    what=$1
    shift
    $make --no-print-directory heap-size HEAP_SIZE_DIR="$dir/out" "$@" >"$dir/refuse.out" 2>&1 && return 1
    cat "$dir/refuse.out"
    [ "$(grep -Evc '^make(\[[0-9]+\])?: \*\*\* ' "$dir/refuse.out")" -eq 1 ] && grep -q "$what" "$dir/refuse.out"
}

planned=$((planned + 1))
if step "make heap-size TARGET=$target on small.trace: the trace's figures, a smallest heap per level" report; then
    for l in $levels; do
        if [ "$target" = host ]; then
            planned=$((planned + 1))
            step "level $l: small.trace runs on the smallest heap reported, not on 1 KiB less, and on the 8 sizes above" \
                sized_right "$l"
        fi
        planned=$((planned + 1))
        step "level $l: STOW_HEAP_BYTES_FOR / _MIN as the compiler computes them, and a heap of each runs small.trace" \
            macros "$l" "$@"
    done
fi
planned=$((planned + 2))
step "freed_twice.trace (a block freed twice) stops make heap-size at line 7, no image" stops freed_twice.trace 7
step "garbled.trace (a call with two numbers) stops make heap-size at line 5, no image" stops garbled.trace 5
if [ "$target" = host ]; then
    planned=$((planned + 4))
    step "a missing trace: one line" refuses "cannot read the trace" TRACE="$dir/none.trace"
    step "LEVEL=3: one line" refuses "unknown LEVEL=3" TRACE=$fixtures/small.trace LEVEL=3
    step "TARGET=esp32: one line" refuses "unknown TARGET=esp32" TRACE=$fixtures/small.trace TARGET=esp32
    step "no TRACE: one line" refuses "no trace given"
fi
finish $planned
