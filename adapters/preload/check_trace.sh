#!/bin/sh
# SPDX-License-Identifier: MIT
# check_trace.sh DIR SO REPLAY WORKLOAD.lua TRACE... - the trace and its replay:
#   1. Debian's lua5.4 runs WORKLOAD.lua on libstow_malloc.so with
#      STOW_HEAP_TRACE set; the trace has one line per call after its header;
#   2. bench/replay.c replays that trace on stow's heap and on glibc's malloc:
#      every call replayed, nothing refused, the heap's check passes;
#   3. the same for each checked-in TRACE (bench/traces/).
# Ends with "N passed, N failed".
dir=$1
so=$2
replay=$3
workload=$4
shift 4
STEPS_DIR=$dir
. "$(dirname "$0")/../steps.sh"
mkdir -p "$dir"
rm -f "$dir/lua.trace"

record() {
    LD_PRELOAD="$so" STOW_HEAP_TRACE="$dir/lua.trace" lua5.4 "$workload" 2 100 4 &&
        head -n 1 "$dir/lua.trace" | grep -q '^# stow trace 1' &&
        [ "$(grep -vc '^#' "$dir/lua.trace")" -gt 1000 ] &&
        ! grep -v '^#' "$dir/lua.trace" | grep -qvE '^[mcarf] [0-9]+ [0-9]+ [0-9]+$'
}
replay_both() {
    for alloc in stow libc; do
        "$replay" "$1" "$alloc" || return 1
    done
}
replay_recorded() {
    replay_both "$dir/lua.trace" >"$dir/replay.out" || return 1
    cat "$dir/replay.out"
    calls=$(grep -vc '^#' "$dir/lua.trace")
    [ "$(grep -c "|calls=$calls|" "$dir/replay.out")" -eq 2 ]
}
if step "lua5.4 on libstow_malloc.so records a trace (STOW_HEAP_TRACE)" record; then
    step "the recorded trace replays on stow's heap and on glibc's malloc, every call" replay_recorded
fi
planned=2
for trace in "$@"; do
    step "bench/traces/$(basename "$trace") replays on stow's heap and on glibc's malloc" replay_both "$trace"
    planned=$((planned + 1))
done
finish $planned
