#!/bin/sh
# SPDX-License-Identifier: MIT
# total.sh RESULT... - sums the "passed failed" files that run.sh wrote, prints
# the plain line "N passed, N failed" and exits non-zero on any failure.
passed=0
failed=0
for f in "$@"; do
    if [ -r "$f" ]; then
        read -r p q <"$f"
    else
        p=0
        q=1
        echo "missing result: $f"
    fi
    passed=$((passed + p))
    failed=$((failed + q))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
