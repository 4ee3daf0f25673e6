#!/bin/sh
# SPDX-License-Identifier: MIT
# check_api.sh DIR SO TEST_PRELOAD - libstow_malloc.so's own checks:
#   1. adapters/preload/test_preload.c on a 64 MiB heap: every call's result,
#      four threads, fork; its heap's check at exit;
#   2. a double free stops the program (SIGABRT) with the heap's message;
#   3. free() of a pointer the heap did not give is ignored and counted;
#   4. Debian's lua5.4 on a 1 MiB heap runs out of memory: Lua reports "not
#      enough memory", the refusals are counted and the heap's check passes.
# Ends with "N passed, N failed".
dir=$1
so=$2
prog=$3
STEPS_DIR=$dir
. "$(dirname "$0")/../steps.sh"
mkdir -p "$dir"

api() {
    # (its refusals are on purpose: a request larger than the heap, calloc's overflow)
    LD_PRELOAD="$so" STOW_HEAP_MB=64 STOW_HEAP_STATS=1 "$prog" 2>"$dir/api.err" && cat "$dir/api.err" &&
        grep -q '^stow_malloc: [^ ]*\[[0-9]*\]: check ok$' "$dir/api.err"
}
double_free() {
    status=0
    LD_PRELOAD="$so" "$prog" double 2>"$dir/double.err" || status=$?
    cat "$dir/double.err"
    [ "$status" -eq 134 ] &&
        grep -q '^stow_malloc: test_preload\[[0-9]*\]: contract violation: stow_heap_free: not a live block' \
            "$dir/double.err"
}
foreign() {
    LD_PRELOAD="$so" STOW_HEAP_STATS=1 "$prog" foreign 2>"$dir/foreign.err" && cat "$dir/foreign.err" &&
        grep -q 'foreign frees 1$' "$dir/foreign.err" && grep -q '^stow_malloc: [^ ]*\[[0-9]*\]: check ok$' "$dir/foreign.err"
}
too_small() {
    status=0
    LD_PRELOAD="$so" STOW_HEAP_MB=1 STOW_HEAP_STATS=1 lua5.4 -e \
        'local t = {} for i = 1, 1e6 do t[i] = ("x"):rep(100) .. i end' 2>"$dir/small.err" || status=$?
    cat "$dir/small.err"
    [ "$status" -ne 0 ] && grep -q 'not enough memory' "$dir/small.err" &&
        grep -q '^stow_malloc: [^ ]*\[[0-9]*\]: check ok$' "$dir/small.err" && ! grep -q ', fails 0;' "$dir/small.err"
}
step "test_preload on libstow_malloc.so: every call, threads, fork; check ok at exit" api
step "a double free aborts with the heap's contract-violation message" double_free
step "free() of a pointer the heap did not give: ignored, counted, check ok" foreign
step "lua5.4 on a 1 MiB heap: \"not enough memory\", the refusals counted, check ok" too_small
finish 4
