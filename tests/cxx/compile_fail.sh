#!/bin/sh
# SPDX-License-Identifier: MIT
# compile_fail.sh DIR CXX FLAGS... - misuse of the C++ layer that must not compile.
# Each tests/cxx/compile_fail/<name>.cpp is compiled twice: with
# -DSTOW_COMPILE_FAIL=0 it must compile, warnings as errors (the file is sound);
# with -DSTOW_COMPILE_FAIL=1 it must not, and the compiler's output must match
# the extended regular expression on the file's "// expect: " line (the misuse
# is refused for the reason the case is about, not some other error). Writes
# "passed failed" to DIR/result and the compilers' output to DIR/log.
dir=$1
cxx=$2
shift 2
mkdir -p "$dir"
: >"$dir/log"
passed=0
failed=0
for src in tests/cxx/compile_fail/*.cpp; do
    [ -e "$src" ] || continue
    name=$(basename "$src" .cpp)
    expect=$(sed -n 's|^// expect: ||p' "$src")
    if [ -z "$expect" ]; then
        echo "FAIL $name: no '// expect: ' line" | tee -a "$dir/log"
        failed=$((failed + 1))
    elif ! "$cxx" "$@" -DSTOW_COMPILE_FAIL=0 -c "$src" -o "$dir/$name.o" >>"$dir/log" 2>&1; then
        echo "FAIL $name: does not compile even without the misuse" | tee -a "$dir/log"
        failed=$((failed + 1))
    elif "$cxx" "$@" -DSTOW_COMPILE_FAIL=1 -c "$src" -o "$dir/$name.o" >"$dir/$name.log" 2>&1; then
        cat "$dir/$name.log" >>"$dir/log"
        echo "FAIL $name: the misuse compiled" | tee -a "$dir/log"
        failed=$((failed + 1))
    elif ! grep -Eq "$expect" "$dir/$name.log"; then
        cat "$dir/$name.log" >>"$dir/log"
        echo "FAIL $name: refused, but not with /$expect/:" | tee -a "$dir/log"
        grep -E 'error' "$dir/$name.log" | head -n 5
        failed=$((failed + 1))
    else
        cat "$dir/$name.log" >>"$dir/log"
        passed=$((passed + 1))
    fi
done
echo "$passed $failed" >"$dir/result"
printf '%-34s %s passed, %s failed\n' "$(basename "$dir")" "$passed" "$failed"
