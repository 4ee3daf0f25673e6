#!/bin/sh
# SPDX-License-Identifier: MIT
# order.sh PROGRAM - the host port's output keeps its place among the program's
# own stdio output: PROGRAM (tests/report/order.c) printf()s, calls stow_report(),
# printf()s, stow_print()s and printf()s again, with stdout into a file and into
# a pipe; the lines must come out in that order. Ends "N passed, N failed".
prog=$1
passed=0
failed=0
check() { # check WAY FILE
    got=$(grep -nE '^order: |^stow memory report' "$2" | cut -d: -f2- | tr '\n' '|')
    want="order: before the report|stow memory report|order: after the report|order: through stow_print|order: last|"
    if [ "$got" = "$want" ]; then
        passed=$((passed + 1))
        echo "ok   $1: in the order written"
    else
        failed=$((failed + 1))
        echo "FAIL $1: $got"
        cat "$2"
    fi
}
out=$(mktemp)
"$prog" >"$out" 2>&1
check "stdout into a file" "$out"
"$prog" 2>&1 | cat >"$out"
check "stdout into a pipe" "$out"
rm -f "$out"
echo "$passed passed, $failed failed"
