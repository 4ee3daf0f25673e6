#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh NAME FUZZER SEEDS CORPUS SECONDS - `make fuzz` for one target: fuzzes for
# SECONDS, growing CORPUS (a directory under build/) from the seed corpus SEEDS,
# and prints one line: executions per second, coverage (cov: edges, ft:
# features) and corpus size as libFuzzer reported them at the end, or the
# finding. The whole output goes to CORPUS/../log; a crashing input to
# CORPUS/../crash-*. Exits non-zero on a finding.
name=$1
fuzzer=$2
seeds=$3
corpus=$4
seconds=$5
dir=$(dirname "$corpus")
mkdir -p "$corpus"
status=0
"$fuzzer" -max_total_time="$seconds" -max_len=1024 -timeout=20 -print_final_stats=1 \
    -artifact_prefix="$dir/" "$corpus" "$seeds" >"$dir/log" 2>&1 || status=$?
done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$dir/log" | tail -n 1)
runs=$(grep -E '^stat::number_of_executed_units' "$dir/log" | awk '{print $2}')
files=$(ls "$corpus" | wc -l)
if [ "$status" -eq 0 ]; then
    printf '%-14s %ss, %s runs: %s  (corpus files: %s)\n' "$name" "$seconds" "$runs" \
        "$(printf '%s' "$done_line" | sed -E 's/^#[0-9]+[[:space:]]+DONE[[:space:]]+//')" "$files"
else
    printf '%-14s FINDING (exit status %s), see %s/log:\n' "$name" "$status" "$dir"
    grep -E 'FINDING|ERROR|SUMMARY|Test unit written' "$dir/log" | head -n 10
fi
exit "$status"
