#!/bin/sh
# SPDX-License-Identifier: MIT
# constants.sh DIR - tools/stow_budgets.sh reads a budget as C does.
#   accept-*   every form of integer constant: decimal, octal, hex and binary,
#              every u/U/l/L/ll/LL suffix and their orders, character constants,
#              macros and constant expressions; the fragment must hold the value C
#              gives it (gcc -E's #if is the reference it cannot share: each case
#              states its value)
#   reject-*   what C rejects or a budget cannot be (bad digits, suffixes, floats,
#              undefined names, sizeof, negative, 2^63 or more, a subsystem twice):
#              exit status 1, one line on stderr per bad budget naming it, and
#              nothing written: the -o file keeps its old contents, stdout is empty
#   partial    one bad budget among good ones: still nothing written
#   usage      a missing list and a failing preprocessor: one line each
# Ends "N passed, N failed".
dir=$1
mkdir -p "$dir"
passed=0
failed=0
ok() { passed=$((passed + 1)); printf "ok   %s\n" "$1"; }
bad() { failed=$((failed + 1)); printf "FAIL %s\n" "$1"; }

# accept EXPR VALUE
accept() {
    printf 'STOW_BUDGET(audio, %s)\n' "$1" >"$dir/list.h"
    if tools/stow_budgets.sh -o "$dir/accept.ld" "$dir/list.h" "gcc -DFOUR_K=4096" 2>"$dir/accept.err" &&
        grep -qF "start <= $2," "$dir/accept.ld" && [ ! -s "$dir/accept.err" ]; then
        ok "accept $1 = $2"
    else
        bad "accept $1: expected $2"; cat "$dir/accept.err" "$dir/accept.ld" 2>/dev/null | head -n 8
    fi
}
for suffix in '' u U l L ll LL ul uL Ul UL lu lU Lu LU ull uLL Ull ULL llu llU LLu LLU; do
    accept "1024$suffix" 1024
    accept "0x3FF$suffix" 1023
done
accept 0X3ff 1023
accept 0x0 0
accept 0 0
accept 02000 1024
accept 02000u 1024
accept 0b10000000000 1024
accept 0B1111111111ull 1023
accept "'A'" 65
accept "'\\n'" 10
accept "4 * 1024" 4096
accept "(1u << 20) + 0x10 - 020" 1048576
accept "FOUR_K / 2" 2048
accept "1 ? 512 : 0" 512
accept "(1 << 4) | 3 ^ 1" 18
accept 9223372036854775807 9223372036854775807
accept 0x7FFFFFFFFFFFFFFFull 9223372036854775807

# reject NAME LIST-LINES...: every line is one bad budget.
reject() {
    name=$1
    shift
    : >"$dir/list.h"
    for line in "$@"; do printf '%s\n' "$line" >>"$dir/list.h"; done
    echo "keep me" >"$dir/reject.ld"
    status=0
    tools/stow_budgets.sh -o "$dir/reject.ld" "$dir/list.h" >"$dir/reject.out" 2>"$dir/reject.err" || status=$?
    lines=$(wc -l <"$dir/reject.err")
    stdout_status=0
    tools/stow_budgets.sh "$dir/list.h" >"$dir/reject.stdout" 2>/dev/null || stdout_status=$?
    if [ "$status" -eq 1 ] && [ "$stdout_status" -eq 1 ] && [ "$(cat "$dir/reject.ld")" = "keep me" ] &&
        [ ! -s "$dir/reject.out" ] && [ ! -s "$dir/reject.stdout" ] && [ "$lines" -eq "$name" ] &&
        ! grep -v '^stow_budgets.sh: ' "$dir/reject.err" | grep -q . && [ -z "$(ls "$dir"/reject.ld.tmp.* 2>/dev/null)" ]
    then
        ok "reject: $(tr '\n' ' ' <"$dir/list.h")- $(head -n 1 "$dir/reject.err" | sed 's/^[^,]*, //')"
    else
        bad "reject $(tr '\n' ' ' <"$dir/list.h"): status $status/$stdout_status, $lines lines, file: $(cat "$dir/reject.ld")"
        cat "$dir/reject.err"
    fi
}
# (the first argument: how many lines the errors take, one per bad budget)
reject 1 'STOW_BUDGET(audio, 08)'
reject 1 'STOW_BUDGET(audio, 0x)'
reject 1 'STOW_BUDGET(audio, 0b102)'
reject 1 'STOW_BUDGET(audio, 1uu)'
reject 1 'STOW_BUDGET(audio, 1lul)'
reject 1 'STOW_BUDGET(audio, 1lL)'
reject 1 'STOW_BUDGET(audio, 0x10z)'
reject 1 'STOW_BUDGET(audio, 1.5)'
reject 1 'STOW_BUDGET(audio, 1e3)'
reject 1 'STOW_BUDGET(audio, AUDIO_BYTES)'
reject 1 'STOW_BUDGET(audio, sizeof(int))'
reject 1 'STOW_BUDGET(audio, -1)'
reject 1 'STOW_BUDGET(audio, 1 / 0)'
reject 1 'STOW_BUDGET(audio, 0x8000000000000000u)'
reject 1 'STOW_BUDGET(audio, 1 2)'
reject 1 'STOW_BUDGET(audio, 1024)' 'STOW_BUDGET(audio, 2048)'
# partial: good, bad, good, bad: two lines, nothing written
reject 2 'STOW_BUDGET(audio, 1024)' 'STOW_BUDGET(net, 0x3FFy)' 'STOW_BUDGET(ui, 64)' 'STOW_BUDGET(io, 09)'

# usage errors: one line each, nothing written
echo "keep me" >"$dir/usage.ld"
tools/stow_budgets.sh -o "$dir/usage.ld" "$dir/no-such-list.h" 2>"$dir/usage1.err"
s1=$?
printf 'STOW_BUDGET(audio, 1024)\n#error broken list\n' >"$dir/list.h"
tools/stow_budgets.sh -o "$dir/usage.ld" "$dir/list.h" 2>"$dir/usage2.err"
s2=$?
if [ "$s1" -ne 0 ] && [ "$s2" -eq 1 ] && [ "$(wc -l <"$dir/usage1.err")" -eq 1 ] &&
    [ "$(wc -l <"$dir/usage2.err")" -eq 1 ] && [ "$(cat "$dir/usage.ld")" = "keep me" ] &&
    grep -q 'broken list' "$dir/usage2.err"; then
    ok "usage: $(cat "$dir/usage1.err") / $(cat "$dir/usage2.err")"
else
    bad "usage: status $s1/$s2"; cat "$dir/usage1.err" "$dir/usage2.err"
fi
echo "$passed passed, $failed failed"
