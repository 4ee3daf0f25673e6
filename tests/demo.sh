#!/bin/sh
# SPDX-License-Identifier: MIT
# demo.sh "QEMU COMMAND" ELF... - runs each demo image the way `make demo` does
# (QEMU COMMAND, then the image's path) and counts it passed when it exits 0:
# each demo checks its own containers and exits non-zero when a check fails.
# The demos' output is kept in the log; "N passed, N failed" last.
qemu=$1
shift
passed=0
failed=0
for elf in "$@"; do
    echo "== $elf"
    # shellcheck disable=SC2086 # qemu holds the command and its options
    if $qemu "$elf"; then
        echo "ok   $(basename "$elf" .elf)"
        passed=$((passed + 1))
    else
        echo "FAIL $(basename "$elf" .elf): exit status $?"
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
