#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh NAME DIR GOOD [BROKEN] - runs every scenario of tests/threads/threads.c.
# GOOD (the shared calls) must exit 0 with "threads: <scenario> ok" and no
# ThreadSanitizer report; BROKEN (built with -DTHREADS_BROKEN, the plain calls
# or one lock for all), when given, must fail each scenario: a non-zero exit with
# the test's own "threads: FAIL" line, a ThreadSanitizer data race report, or
# stow's own contract-violation report (a torn update can reach one of stow's
# checks before ThreadSanitizer pairs the racing accesses).
# One case per scenario and build; writes "passed failed" to DIR/result and every
# run's output to DIR/log.
name=$1
dir=$2
good=$3
broken=$4
mkdir -p "$dir"
: >"$dir/log"
passed=0
failed=0
scenarios="heap genpool slotmap locks workers frames"
# halt_on_error: a broken run stops at its first race instead of reporting them all.
TSAN_OPTIONS="halt_on_error=1 $TSAN_OPTIONS"
export TSAN_OPTIONS
for s in $scenarios; do
    out=$("$good" "$s" 2>&1)
    status=$?
    printf '==== good %s (exit status %s)\n%s\n' "$s" "$status" "$out" >>"$dir/log"
    if [ "$status" -eq 0 ] && printf '%s' "$out" | grep -q "^threads: $s ok" &&
        ! printf '%s' "$out" | grep -q ThreadSanitizer; then
        passed=$((passed + 1))
    else
        echo "FAIL $name $s (exit $status):"
        printf '%s\n' "$out" | head -n 20
        failed=$((failed + 1))
    fi
    [ -n "$broken" ] || continue
    out=$("$broken" "$s" 2>&1)
    status=$?
    printf '==== broken %s (exit status %s)\n%s\n' "$s" "$status" "$out" >>"$dir/log"
    if [ "$status" -ne 0 ] && printf '%s' "$out" | grep -q -e '^threads: FAIL' -e 'ThreadSanitizer: data race' \
        -e '^stow: contract violation'; then
        passed=$((passed + 1))
    else
        echo "FAIL $name broken $s: the broken build was not caught (exit $status)"
        failed=$((failed + 1))
    fi
done
echo "$passed $failed" >"$dir/result"
printf '%-34s %s passed, %s failed\n' "$name" "$passed" "$failed"
exit 0
