#!/bin/sh
# SPDX-License-Identifier: MIT
# check_limits.sh DIR SO - libstow_malloc.so's size and what it says:
#   1. STOW_HEAP_MB=0, abc, -5, 64MB, a number whose bytes overflow size_t and
#      one too large to map: each stops the program before it prints anything,
#      exit status 2, with one line that names the value and STOW_HEAP_MB;
#   2. lua5.4 on a 1 MiB heap: the first refused request, and only that one,
#      gets one line on stderr with the program, its pid, the size asked, the
#      heap's size and STOW_HEAP_MB;
#   3. xz -9 -T2 (2.5 GB of requests at most) compresses at the default size;
#   4. the stats lines name the program and its pid;
#   5. the trace's second line names the pid and the program, and every other
#      line is still an op (bench/replay.c's format);
#   6. where the system maps less than the default (ulimit -v 4000000 KiB), the
#      heap is the largest half of it that maps (2 GiB).
# Ends with "N passed, N failed".
dir=$1
so=$2
STEPS_DIR=$dir
. "$(dirname "$0")/../steps.sh"
mkdir -p "$dir"

bad_sizes() {
    for v in 0 abc -5 64MB 99999999999999999999 17592186044416 17592186044415; do
        status=0
        LD_PRELOAD="$so" STOW_HEAP_MB="$v" /bin/echo ran >"$dir/size.out" 2>"$dir/size.err" || status=$?
        cat "$dir/size.err"
        [ "$status" -eq 2 ] && [ ! -s "$dir/size.out" ] && [ "$(wc -l <"$dir/size.err")" -eq 1 ] &&
            grep -q "^stow_malloc: echo\[[0-9]*\]: .*STOW_HEAP_MB=$v" "$dir/size.err" || return 1
    done
}
refusal() {
    status=0
    # shellcheck disable=SC2016 # $$ is the inner shell's, which exec makes lua's
    LD_PRELOAD="$so" STOW_HEAP_MB=1 sh -c 'echo $$ >"$0"; exec lua5.4 -e "$1"' "$dir/lua.pid" \
        'local t = {} for i = 1, 1e6 do t[i] = ("x"):rep(100) .. i end' 2>"$dir/refusal.err" || status=$?
    cat "$dir/refusal.err"
    pid=$(cat "$dir/lua.pid")
    [ "$status" -ne 0 ] && [ "$(grep -c '^stow_malloc: ' "$dir/refusal.err")" -eq 1 ] &&
        grep -qE "^stow_malloc: lua5\.4\[$pid\]: refused [0-9]+ bytes: the heap \(STOW_HEAP_MB=1, 1048576 bytes\) is full; raise STOW_HEAP_MB$" \
            "$dir/refusal.err" &&
        grep -q 'not enough memory' "$dir/refusal.err"
}
xz_default() {
    head -c 100000 /dev/zero >"$dir/zeros"
    LD_PRELOAD="$so" STOW_HEAP_STATS=1 xz -9 -T2 -c "$dir/zeros" >"$dir/zeros.xz" 2>"$dir/xz.err" || return 1
    cat "$dir/xz.err"
    xz -d -c "$dir/zeros.xz" | cmp - "$dir/zeros" && stats_ok "$dir/xz.err" &&
        ! grep -q 'refused' "$dir/xz.err"
}
stats_named() {
    # shellcheck disable=SC2016
    LD_PRELOAD="$so" STOW_HEAP_STATS=1 sh -c 'echo $$ >"$0"; exec /bin/echo x' "$dir/echo.pid" \
        >/dev/null 2>"$dir/stats.err" || return 1
    cat "$dir/stats.err"
    pid=$(cat "$dir/echo.pid")
    [ "$(grep -c "^stow_malloc: echo\[$pid\]: " "$dir/stats.err")" -eq 3 ] &&
        [ "$(grep -c '^stow_malloc: ' "$dir/stats.err")" -eq 3 ]
}
trace_named() {
    # shellcheck disable=SC2016
    LD_PRELOAD="$so" STOW_HEAP_TRACE="$dir/echo.trace" sh -c 'echo $$ >"$0"; exec /bin/echo x' \
        "$dir/trace.pid" >/dev/null || return 1
    pid=$(cat "$dir/trace.pid")
    head -n 3 "$dir/echo.trace"
    [ "$(sed -n 1p "$dir/echo.trace")" = "# stow trace 1: op id size arg" ] &&
        [ "$(sed -n 2p "$dir/echo.trace")" = "# pid $pid program echo" ] &&
        [ "$(grep -vc '^#' "$dir/echo.trace")" -gt 0 ] &&
        ! grep -v '^#' "$dir/echo.trace" | grep -qvE '^[mcarf] [0-9]+ [0-9]+ [0-9]+$'
}
smaller_system() {
    # shellcheck disable=SC3045 # dash has ulimit -v
    (ulimit -v 4000000 && LD_PRELOAD="$so" STOW_HEAP_STATS=1 /bin/echo x >/dev/null 2>"$dir/small.err") ||
        return 1
    cat "$dir/small.err"
    grep -q '^stow_malloc: echo\[[0-9]*\]: heap 2147483648 bytes: ' "$dir/small.err" && stats_ok "$dir/small.err"
}
step "STOW_HEAP_MB=0, abc, -5, 64MB, overflowing, unmappable: one line, exit 2, nothing run" bad_sizes
step "lua5.4 on a 1 MiB heap: one line for the first refusal (program, pid, size, heap, STOW_HEAP_MB)" refusal
step "xz -9 -T2 at the default size: compresses, check ok, nothing refused" xz_default
step "the stats lines name the program and its pid" stats_named
step "the trace names the pid and the program in a comment line; the ops keep their format" trace_named
step "under ulimit -v 4000000 the default falls back to 2 GiB" smaller_system
finish 6
