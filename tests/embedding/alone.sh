#!/bin/sh
# SPDX-License-Identifier: MIT
# alone.sh DIR COMMAND... - a file that includes stow's headers for their macros
# alone needs nothing from the library: tests/embedding/sizing.c (every header, the
# sizing macros, no container) must compile, link with no library and no port,
# and run, with each COMMAND (a compiler and its flags, one word list per
# argument) at -O0 and at -O2. At -O0 a compiler keeps what a file defines even
# when nothing uses it: stow's link-time configuration check must be there only
# where a container is made (config.h). Ends "N passed, N failed".
dir=$1
shift
mkdir -p "$dir"
passed=0
failed=0
n=0
for command in "$@"; do
    for opt in -O0 -O2; do
        n=$((n + 1))
        out=$dir/sizing-$n
        # shellcheck disable=SC2086 # a command and its flags
        if $command $opt tests/embedding/sizing.c -o "$out" >"$out.log" 2>&1 && "$out" >>"$out.log" 2>&1; then
            passed=$((passed + 1))
            echo "ok   $command $opt: links without the library and runs"
        else
            failed=$((failed + 1))
            echo "FAIL $command $opt:"
            sed 's/^/    /' "$out.log"
        fi
    done
done
echo "$passed passed, $failed failed"
