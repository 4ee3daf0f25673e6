#!/bin/sh
# SPDX-License-Identifier: MIT
# tool.sh IMAGE... - tools/stow_report.py against the registry each test image
# printed in its own run (tests/test_report.c prints stow_report_csv() between
# "stow report csv begin" and "... end" into the image's log, IMAGE's directory/log).
#
# For each image: the tool's rows (name, kind, subsystem, storage), read from the
# file, must be the image's printed container rows, in order; the image prints
# more rows only for the containers its tests registered at run time, which are
# not in the file. Every container's object must have been found (object > 0), and
# the Markdown form must hold the same rows. Then the tool's errors (no such
# file, not ELF, truncated, no nm, bad arguments): one line each, exit status 2.
# Ends "N passed, N failed".
passed=0
failed=0
for image in "$@"; do
    log=$(dirname "$image")/log
    name=$(basename "$(dirname "$image")")
    printed=$(sed -n '/^stow report csv begin/,/^stow report csv end/p' "$log" 2>/dev/null | tr -d '\r' |
        awk -F, '$1 == "container" { print $2 "," $3 "," $4 "," $9 }')
    read_out=$(python3 tools/stow_report.py --csv "$image" | tail -n +2)
    rows=$(printf '%s\n' "$read_out" | grep -c .)
    prefix=$(printf '%s\n' "$printed" | head -n "$rows")
    mine=$(printf '%s\n' "$read_out" | cut -d, -f1-4)
    zero=$(printf '%s\n' "$read_out" | awk -F, '$5 == 0' | head -n 3)
    md=$(python3 tools/stow_report.py --markdown "$image" | grep -c '^| test_report_voices | pool | test_audio |')
    if [ "$rows" -gt 0 ] && [ -n "$printed" ] && [ "$prefix" = "$mine" ] && [ -z "$zero" ] && [ "$md" -eq 1 ]; then
        passed=$((passed + 1))
        echo "ok   $name: $rows containers read from the file as the image printed them"
    else
        failed=$((failed + 1))
        echo "FAIL $name: rows $rows, markdown $md, objects not found: $zero"
        printf '%s\n' "$mine" >/tmp/stow-tool-read.$$
        printf '%s\n' "$prefix" | diff - /tmp/stow-tool-read.$$ | head -n 20
        rm -f /tmp/stow-tool-read.$$
    fi
done
# UNREAD: a host program with the five DEFINEs of tests/nobits/big.c that never
# reads the registry, so that its linker names no ends of the section; the tool
# must find the section by name.
if [ -n "$UNREAD" ]; then
    got=$(python3 tools/stow_report.py --csv "$UNREAD" | tail -n +2 | cut -d, -f1,2 | sort | tr '\n' ' ')
    want="big_arena,arena big_genpool,genpool big_packed,packed big_pool,pool big_slotmap,slotmap "
    if [ "$got" = "$want" ]; then
        passed=$((passed + 1))
        echo "ok   unread: the 5 containers of a program that never reads the registry"
    else
        failed=$((failed + 1))
        echo "FAIL unread: read [$got], expected [$want]"
    fi
fi
# Errors: one line on stderr, exit status 2, nothing on stdout, no traceback.
work=$(mktemp -d)
first=$1
head -c 300 "$first" >"$work/truncated.elf"
echo "not a program" >"$work/text.txt"
printf 'int stow_tool_unused;\n' >"$work/one.c"
cc -c "$work/one.c" -o "$work/one.o" && ar rcT "$work/thin.a" "$work/one.o"
error_case() { # error_case WHAT ARGS...
    what=$1
    shift
    status=0
    python3 tools/stow_report.py "$@" >"$work/out" 2>"$work/err" || status=$?
    if [ "$status" -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ] &&
        grep -q '^stow_report: ' "$work/err" && ! grep -q Traceback "$work/err"; then
        passed=$((passed + 1))
        echo "ok   error, $what: $(cat "$work/err")"
    else
        failed=$((failed + 1))
        echo "FAIL error, $what: status $status"
        cat "$work/err"
    fi
}
error_case "no such image" "$work/firmware.elf"
error_case "no such object" "$work/one.o" "$work/missing.o"
error_case "not ELF" "$work/text.txt"
error_case "truncated image" "$work/truncated.elf"
error_case "no nm" --nm "$work/no-such-nm" "$first"
error_case "an image among objects" "$work/one.o" "$first"
error_case "a thin archive" "$work/thin.a"
error_case "no arguments"
error_case "an unknown option" --tables "$first"
rm -rf "$work"
echo "$passed passed, $failed failed"
