#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh NAME DIR COMMAND... - runs one test image (host binary or QEMU command),
# keeps its output in DIR/log and writes "passed failed" to DIR/result.
# A run that ends without its "N passed, N failed" line, or exits non-zero with
# no failure counted (a crash, a sanitizer report, a timeout), counts as 1 failure.
name=$1
dir=$2
shift 2
mkdir -p "$dir"
status=0
"$@" >"$dir/log" 2>&1 || status=$?
last=$(tail -n 1 "$dir/log" | tr -d '\r')
passed=$(printf '%s\n' "$last" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1/p')
failed=$(printf '%s\n' "$last" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\2/p')
if [ -z "$passed" ]; then
    passed=0
    failed=1
fi
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=1
fi
echo "$passed $failed" >"$dir/result"
printf '%-34s %s passed, %s failed\n' "$name" "$passed" "$failed"
if [ "$failed" -ne 0 ]; then
    echo "---- $name (exit status $status), from $dir/log:"
    grep -A4 '^FAIL' "$dir/log" | head -n 40
    echo "---- last lines:"
    tail -n 8 "$dir/log"
    echo "----"
fi
exit 0
