#!/bin/sh
# SPDX-License-Identifier: MIT
# demo.sh COMMAND... - runs the FreeRTOS demo (examples/freertos) under QEMU and
# checks what it printed, one case per check below, then "N passed, N failed".
# The demo checks its own containers and the heap and exits non-zero when a check
# fails; this makes sure the parts a reader looks for are there and agree.
out=$("$@" 2>&1)
status=$?
printf '%s\n' "$out"
passed=0
failed=0
# check NAME CONDITION: CONDITION is shell code, true when the case passes.
check() {
    if eval "$2"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $1"
    fi
}
has() { printf '%s\n' "$out" | grep -Eq -- "$1"; }
count() { printf '%s\n' "$out" | grep -Ec -- "$1"; }
# The number in the first line matching $1, from the sed expression $2.
field() { printf '%s\n' "$out" | sed -n "$1" | head -n 1; }

check "exit status 0 (it was $status)" '[ "$status" -eq 0 ]'
check "the kernel's heap is heap_stow.c" \
    'has "^kernel heap: heap_stow\.c, configTOTAL_HEAP_SIZE [0-9]+ bytes; [0-9]+ bytes free$"'
for phase in 1 2; do
    sent=$(field "s/^phase $phase: \([0-9]*\) samples sent, [0-9]* handled, .*/\1/p")
    done_=$(field "s/^phase $phase: [0-9]* samples sent, \([0-9]*\) handled, .*/\1/p")
    check "phase $phase: every sample sent was handled ($sent, $done_)" \
        '[ -n "$sent" ] && [ "$sent" -gt 0 ] && [ "$sent" = "$done_" ]'
    created=$(field "s/^phase $phase: 3 workers, a queue and a timer created; heap: \([0-9]*\) bytes free$/\1/p")
    after=$(field "s/^phase $phase: .* dropped; workers gone, heap: \([0-9]*\) bytes free$/\1/p")
    check "phase $phase: the workers' stacks and TCBs came from the heap and went back ($created, $after)" \
        '[ -n "$created" ] && [ -n "$after" ] && [ "$created" -lt "$after" ]'
done
check "lines formatted in the workers' arenas" \
    'has "^    worker [0-2]: samples [0-9]+\.\.[0-9]+  min [0-9]+ median [0-9]+ max [0-9]+  \(arena [0-9]+ bytes\)$"'
check "the report lists the heap, checked ok" \
    'has "^freertos heap +heap +- +[0-9]+ +[0-9]+ +[0-9]+ +0 +[0-9]+ +ok$"'
check "the report lists the pool, empty, checked ok" \
    'has "^samples +pool +sensor +24 +0 +[0-9]+ +0 +[0-9]+ +ok$"'
check "the report lists the three arenas, reset, checked ok" \
    '[ "$(count "^scratch_[0-2] +arena +workers +160 +0 +[0-9]+ +0 +160 +ok$")" -eq 3 ]'
check "no check failed in the report" 'has "^0 checks failed, 0 subsystems over budget$"'
check "the heap's figures, check ok" \
    'has "^heap: [0-9]+ bytes free, least ever [0-9]+, largest request now [0-9]+, [0-9]+ allocations, [0-9]+ frees, check ok$"'
check "demo ok" 'has "^demo ok$"'
check "nothing failed" '! has "FAIL|failed at|stack overflow|contract violation"'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
