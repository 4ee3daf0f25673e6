# SPDX-License-Identifier: MIT
# steps.sh - sourced by the adapters' check scripts. A check is a fixed list of
# steps; each prints "ok <what>" or "FAIL <what>" (then the end of its log), and
# the last line is "N passed, N failed" for tests/run.sh. A step whose
# prerequisite failed is not run and counts as failed (finish PLANNED).
set -u

steps_passed=0
steps_run=0

# step WHAT COMMAND...: runs COMMAND with its output in $STEPS_DIR/step-<n>.log.
step() {
    steps_what=$1
    shift
    steps_run=$((steps_run + 1))
    mkdir -p "$STEPS_DIR"
    steps_log="$STEPS_DIR/step-$steps_run.log"
    steps_status=0
    "$@" >"$steps_log" 2>&1 || steps_status=$?
    if [ "$steps_status" -eq 0 ]; then
        echo "ok $steps_what"
        steps_passed=$((steps_passed + 1))
        return 0
    fi
    echo "FAIL $steps_what (exit status $steps_status, $steps_log)"
    tail -n 15 "$steps_log" | sed 's/^/    /'
    return 1
}

# finish PLANNED: the count line; steps not run count as failed.
finish() {
    steps_failed=$(($1 - steps_passed))
    echo "$steps_passed passed, $steps_failed failed"
    [ "$steps_failed" -eq 0 ]
}

# stats_ok FILE: every process that libstow_malloc.so ran with STOW_HEAP_STATS=1
# reported (at least one), each one's check passed and none refused a request.
# (Each line starts "stow_malloc: <program>[<pid>]: ".)
stats_ok() {
    heaps=$(grep -c '^stow_malloc: [^ ]*\[[0-9]*\]: heap ' "$1")
    oks=$(grep -c '^stow_malloc: [^ ]*\[[0-9]*\]: check ok$' "$1")
    refusals=$(grep '^stow_malloc: [^ ]*\[[0-9]*\]: heap ' "$1" | grep -vc ', fails 0;')
    echo "$heaps processes reported, $oks checks ok, $refusals with refusals"
    [ "$heaps" -ge 1 ] && [ "$oks" -eq "$heaps" ] && [ "$refusals" -eq 0 ]
}

# summary FILE: the stats of the process that used the most heap (the program
# itself, rather than a shell around it), for the log and the report.
summary() {
    awk '/^stow_malloc: [^ ]*\[[0-9]*\]: heap /{ split($0, a, ", peak "); split(a[2], b, ","); p = b[1] + 0
                                if (p >= best) { best = p; keep = 1; line1 = $0 } else keep = 0; next }
         /^stow_malloc: [^ ]*\[[0-9]*\]: requested/ && keep { line2 = $0 }
         END { if (line1 != "") print line1; if (line2 != "") print line2 }' "$1"
}

# counts_ok COMMAND...: COMMAND succeeds and its last line is "N passed, 0 failed", N > 0.
counts_ok() {
    "$@" >"$STEPS_DIR/counts.out" 2>&1
    counts_rc=$?
    cat "$STEPS_DIR/counts.out"
    [ "$counts_rc" -eq 0 ] &&
        tail -n 1 "$STEPS_DIR/counts.out" | tr -d '\r' | grep -Eq '^[1-9][0-9]* passed, 0 failed$'
}

# preload_compare NAME SO COMMAND...: three steps. COMMAND runs plainly and with
# LD_PRELOAD=SO STOW_HEAP_STATS=1, each in a fresh working directory under
# $STEPS_DIR; (1) the plain run succeeds, (2) the run on stow's heap gives the same
# stdout, stderr (less the interposer's own lines) and exit status, (3) every
# process of it (a shell and what it starts are on the heap too) reported
# stow_heap_check ok at exit, and none refused a request. Then prints the figures
# of the busiest process. Plans 3 steps.
preload_compare() {
    pc_name=$1
    pc_so=$2
    shift 2
    pc_dir=$STEPS_DIR/$(printf '%s' "$pc_name" | tr -c 'A-Za-z0-9.\n-' '_')
    rm -rf "$pc_dir"
    mkdir -p "$pc_dir/plain" "$pc_dir/stow"
    pc_top=$(pwd)
    cd "$pc_dir/plain" && { "$@" >../plain.out 2>../plain.err; echo $? >../plain.rc; }
    cd "$pc_top" || return 1
    cd "$pc_dir/stow" && { LD_PRELOAD="$pc_so" STOW_HEAP_STATS=1 "$@" >../stow.out 2>../stow.all; echo $? >../stow.rc; }
    cd "$pc_top" || return 1
    grep -v '^stow_malloc: ' "$pc_dir/stow.all" >"$pc_dir/stow.err"
    if step "$pc_name runs plainly (exit status $(cat "$pc_dir/plain.rc"))" test "$(cat "$pc_dir/plain.rc")" = 0; then
        step "$pc_name on libstow_malloc.so: the same output and exit status" \
            sh -c 'cmp "$1/plain.rc" "$1/stow.rc" && cmp "$1/plain.out" "$1/stow.out" && cmp "$1/plain.err" "$1/stow.err"' \
            sh "$pc_dir"
        step "$pc_name on libstow_malloc.so: stow_heap_check ok at exit in every process, nothing refused" \
            stats_ok "$pc_dir/stow.all"
    fi
    summary "$pc_dir/stow.all"
}
