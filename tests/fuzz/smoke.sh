#!/bin/sh
# SPDX-License-Identifier: MIT
# smoke.sh NAME DIR FUZZER SEEDS RUNS - the short run of one fuzz target that
# `make test` makes: RUNS inputs (the seed corpus first, then mutations of it),
# with a fixed seed and an empty work corpus, so that no file under tests/
# changes. One test case: writes "1 0" (no finding) or "0 1" to DIR/result,
# libFuzzer's output to DIR/log, and a crashing input to DIR/crash-*.
name=$1
dir=$2
fuzzer=$3
seeds=$4
runs=$5
mkdir -p "$dir"
rm -rf "$dir/work" "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-*
mkdir -p "$dir/work"
status=0
"$fuzzer" -runs="$runs" -seed=1 -max_len=512 -timeout=20 -artifact_prefix="$dir/" \
    "$dir/work" "$seeds" >"$dir/log" 2>&1 || status=$?
if [ "$status" -eq 0 ]; then
    echo "1 0" >"$dir/result"
    printf '%-34s 1 passed, 0 failed\n' "$name"
else
    echo "0 1" >"$dir/result"
    printf '%-34s 0 passed, 1 failed\n' "$name"
    echo "---- $name (exit status $status), from $dir/log:"
    grep -E 'FINDING|ERROR|SUMMARY|Test unit written' "$dir/log" | head -n 10
    echo "----"
fi
exit 0
