#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh NAME DIR BINARY - runs tests/asan/stale.c's cases, built with ASan.
# Every case must exit non-zero with an AddressSanitizer "use-after-poison"
# report; the case "none" (the same container work, no stale access) must exit
# 0 with no report. One test case each; writes "passed failed" to DIR/result and
# every run's output to DIR/log.
name=$1
dir=$2
bin=$3
mkdir -p "$dir"
: >"$dir/log"
passed=0
failed=0
cases="none
pool-write-after-free pool-read-after-free pool-link-write-after-free pool-write-after-reset pool-read-after-reset
genpool-write-after-remove genpool-read-after-remove genpool-write-after-clear genpool-read-after-clear
slotmap-write-after-remove slotmap-read-after-remove slotmap-write-after-clear slotmap-read-after-refresh
packed-write-after-remove packed-read-after-remove packed-write-after-clear packed-read-after-clear
arena-write-after-rewind arena-read-after-rewind arena-write-after-reset arena-read-after-reset
heap-write-after-free heap-read-after-free heap-write-after-realloc-move heap-read-after-realloc-move
heap-write-after-realloc-shrink heap-read-after-realloc-shrink"
for c in $cases; do
    out=$(ASAN_OPTIONS=detect_leaks=0 "$bin" "$c" 2>&1)
    status=$?
    printf '==== %s (exit status %s)\n%s\n' "$c" "$status" "$out" >>"$dir/log"
    if [ "$c" = none ]; then
        if [ "$status" -eq 0 ] && ! printf '%s' "$out" | grep -q AddressSanitizer; then
            passed=$((passed + 1))
        else
            echo "FAIL $name $c: a run without a stale access was reported (exit $status)"
            failed=$((failed + 1))
        fi
    elif [ "$status" -ne 0 ] && printf '%s' "$out" | grep -q 'AddressSanitizer: use-after-poison'; then
        passed=$((passed + 1))
    else
        echo "FAIL $name $c: no use-after-poison report (exit $status)"
        failed=$((failed + 1))
    fi
done
echo "$passed $failed" >"$dir/result"
printf '%-34s %s passed, %s failed\n' "$name" "$passed" "$failed"
