#!/bin/sh
# SPDX-License-Identifier: MIT
# compile_fail.sh DIR CC FLAGS... - the compile-must-fail checks.
# Each tests/compile_fail/<name>.c is compiled twice: with -DSTOW_COMPILE_FAIL=0
# it must compile (so the file itself is sound), with -DSTOW_COMPILE_FAIL=1 it
# must not (the misuse it contains is rejected by the compiler). A file with an
# "expect: " comment line must be refused with a message matching the extended
# regular expression after it (the message is part of the contract). Writes
# "passed failed" to DIR/result, one case per file, and the errors to DIR/log.
dir=$1
cc=$2
shift 2
mkdir -p "$dir"
: >"$dir/log"
passed=0
failed=0
for src in tests/compile_fail/*.c; do
    [ -e "$src" ] || continue
    name=$(basename "$src" .c)
    expect=$(sed -n 's|^ *[/*]* expect: \(.*\)$|\1|p' "$src" | sed 's| \*/$||')
    if ! "$cc" "$@" -DSTOW_COMPILE_FAIL=0 -c "$src" -o "$dir/$name.o" >>"$dir/log" 2>&1; then
        echo "FAIL $name: does not compile even without the misuse" | tee -a "$dir/log"
        failed=$((failed + 1))
    elif "$cc" "$@" -DSTOW_COMPILE_FAIL=1 -c "$src" -o "$dir/$name.o" >"$dir/$name.log" 2>&1; then
        cat "$dir/$name.log" >>"$dir/log"
        echo "FAIL $name: the misuse compiled" | tee -a "$dir/log"
        failed=$((failed + 1))
    elif cat "$dir/$name.log" >>"$dir/log" && [ -n "$expect" ] && ! grep -Eq "$expect" "$dir/$name.log"; then
        echo "FAIL $name: refused, but not with /$expect/" | tee -a "$dir/log"
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
done
echo "$passed $failed" >"$dir/result"
printf '%-34s %s passed, %s failed\n' "$(basename "$dir")" "$passed" "$failed"
