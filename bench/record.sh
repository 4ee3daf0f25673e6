#!/bin/sh
# SPDX-License-Identifier: MIT
# record.sh NAME COMMAND... - runs COMMAND (make bench's or make size's printing),
# shows its output and, when it succeeds and measured everything (no SIZE_*
# override), keeps that output as bench/results/NAME.md: the record that the
# figures in README.md and docs/ are checked against by make test (docs-figures).
# A failed or partial run leaves the record as it was. Lines that say a tool was
# installed are not part of the record.
set -u
name=$1
shift
cd "$(dirname "$0")/.."
mkdir -p build/results
out=build/results/$name.md
status_file=build/results/$name.status
{ "$@"; echo $? >"$status_file"; } 2>&1 | tee "$out"
status=$(cat "$status_file")
if [ "$status" -ne 0 ]; then
    echo "$name: failed (exit status $status); bench/results/$name.md kept as it was"
    exit "$status"
fi
partial=""
for v in SIZE_CPUS SIZE_OPTS SIZE_LEVELS SIZE_DETAIL; do
    eval "set_=\${$v+x}"
    [ -n "$set_" ] && partial="$partial $v"
done
if [ "$name" = size ] && [ -n "$partial" ]; then
    echo "size: a partial run ($partial set); bench/results/size.md kept as it was"
    exit 0
fi
grep -v '^stow: installing' "$out" >"$out.record"
mv "$out.record" "$out"
if cmp -s "$out" "bench/results/$name.md"; then
    echo "$name: bench/results/$name.md unchanged"
else
    cp "$out" "bench/results/$name.md"
    echo "$name: recorded in bench/results/$name.md (commit it; make test checks the docs' figures against it)"
fi
