#!/bin/sh
# SPDX-License-Identifier: MIT
# budget.sh DIR - a subsystem over its budget fails the link on Cortex-M and RISC-V
# and the run on the host; within its budget it links, runs and reports.
#
# tests/report/firmware.c puts 1536 bytes of storage in subsystem audio; its
# budget list (budgets.h) gives audio 1024 bytes, or AUDIO_BUDGET. Steps:
#   fragment      tools/stow_budgets.sh makes the link's check from budgets.h
#   cm-over       Cortex-M (mps2-an386) with that fragment: the link fails with
#                 "stow budget: subsystem audio is over its budget of 1024 bytes"
#   cm-over-unregistered  the same with STOW_REGISTRY 0 (no registry entries)
#   cm-over-hint  what that message says to run works without an image:
#                 tools/stow_report.py on the objects the link was given shows
#                 audio's 1536 bytes over its 1024 and exits 1; on the image the
#                 failed link did not write, it says so in one line (exit 2)
#   cm-nosections  audio's containers built with STOW_SECTIONS 0, over budget and
#                 within it: the link fails, naming audio and STOW_SECTIONS (the
#                 fragment cannot count storage outside its sections)
#   rv-over       the same on RISC-V (riscv-virt)
#   cm-fits       AUDIO_BUDGET=2048: links; nm puts audio's storage in .stow
#                 between __stow_budget_audio_start and _end, 1536 bytes apart;
#                 under QEMU the firmware prints its report and exits 0
#   cm-no-fragment  over budget but linked with stow's empty stow_budgets.ld: it
#                 links (the check is the fragment's), and the run fails in
#                 stow_budget_check() with the host's message
#   host-over     gcc, over budget: the run fails with "stow budget: subsystem
#                 audio is over its budget of 1024 bytes (storage 1536 bytes)"
#   host-fits     AUDIO_BUDGET=2048: the run passes
#   tool          tools/stow_report.py reads audio's storage from the Cortex-M
#                 image as the image's own report printed it, and calls the host
#                 image over budget (exit 1)
# The commands come from the environment (the Makefile's, tests/report/rules.mk):
# HOST_CC, HOST_SRC, CM_CC, CM_LINK, CM_SRC, RV_CC, RV_LINK, RV_SRC, LIB_SRC,
# QEMU_CMD (compilers with their flags; SRC: the port's sources).
# Ends "N passed, N failed" (for tests/run.sh).
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root" || exit 1
mkdir -p "$dir"
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
# expect NAME FILE TEXT: FILE holds TEXT (fixed string).
holds() { grep -qF "$2" "$1"; }
msg_over='stow budget: subsystem audio is over its budget of 1024 bytes'

# The fragments: over (the list as it is) and fits (AUDIO_BUDGET=2048).
mkdir -p "$dir/over" "$dir/fits"
if tools/stow_budgets.sh "$here/budgets.h" >"$dir/over/stow_budgets.ld" &&
    tools/stow_budgets.sh "$here/budgets.h" "gcc -DAUDIO_BUDGET=2048u" >"$dir/fits/stow_budgets.ld" &&
    holds "$dir/over/stow_budgets.ld" "$msg_over" &&
    holds "$dir/over/stow_budgets.ld" '*(SORT_BY_NAME(.bss.stow.in.audio.*))' &&
    holds "$dir/fits/stow_budgets.ld" 'over its budget of 2048 bytes'; then
    ok fragment
else
    bad fragment
fi
cat "$dir/over/stow_budgets.ld"

# objects TARGET CC SOURCES...: the library and the port compiled once for TARGET,
# in DIR/obj-TARGET; prints the objects' paths.
objects() {
    t=$1
    cc=$2
    shift 2
    mkdir -p "$dir/obj-$t"
    for src in "$@"; do
        o=$dir/obj-$t/$(basename "$src" .c).o
        # shellcheck disable=SC2086 # cc holds the command and its options
        $cc -c "$src" -o "$o" >&2 || return 1
        printf '%s ' "$o"
    done
}
# shellcheck disable=SC2086 # the lists are words
cm_obj=$(objects cm "$CM_CC" $CM_SRC $LIB_SRC) && rv_obj=$(objects rv "$RV_CC" $RV_SRC $LIB_SRC) &&
    host_obj=$(objects host "$HOST_CC" $HOST_SRC $LIB_SRC) || { echo "the library does not build"; exit 1; }

# link TARGET GEN OUT DEFS: builds firmware.c for TARGET (cm or rv) into OUT.o and
# links it with the stow_budgets.ld in directory GEN first on the -L path; output
# in OUT.log.
link() {
    if [ "$1" = cm ]; then cc=$CM_CC linkf=$CM_LINK obj=$cm_obj; else cc=$RV_CC linkf=$RV_LINK obj=$rv_obj; fi
    # shellcheck disable=SC2086 # the commands and lists are words
    $cc $4 -I"$here" -c "$here/firmware.c" -o "$3.o" >"$3.log" 2>&1 &&
        $cc $linkf -L"$2" -Llinker $obj "$3.o" -lgcc -o "$3.elf" >>"$3.log" 2>&1
}

if link cm "$dir/over" "$dir/cm-over" ""; then
    bad "cm-over: linked over budget"
elif holds "$dir/cm-over.log" "$msg_over"; then
    ok "cm-over: $(grep -F 'stow budget' "$dir/cm-over.log" | sed 's/.*ld: //')"
else
    bad "cm-over: the link failed without the budget's message"; cat "$dir/cm-over.log"
fi

if link cm "$dir/over" "$dir/cm-over-unregistered" "-DSTOW_REGISTRY=0"; then
    bad "cm-over-unregistered: linked over budget"
elif holds "$dir/cm-over-unregistered.log" "$msg_over"; then
    ok "cm-over-unregistered: with STOW_REGISTRY 0 the link checks the budget all the same"
else
    bad "cm-over-unregistered: the link failed without the budget's message"
    cat "$dir/cm-over-unregistered.log"
fi

# The message's hint, followed after the failed link: the tool on the link's objects.
rm -f "$dir/cm-over.elf"
# shellcheck disable=SC2086 # the list is words
python3 tools/stow_report.py $cm_obj "$dir/cm-over.o" >"$dir/cm-over-hint.txt" 2>&1
status=$?
python3 tools/stow_report.py "$dir/cm-over.elf" >"$dir/cm-over-noimage.txt" 2>&1
noimage=$?
if holds "$dir/cm-over.log" "(stow_report.py OBJECTS... lists its storage" && [ "$status" -eq 1 ] &&
    grep -qE '^audio +1024 +1536 .*OVER BUDGET' "$dir/cm-over-hint.txt" &&
    grep -qE '^voices +pool +audio +1280 ' "$dir/cm-over-hint.txt" && [ "$noimage" -eq 2 ] &&
    [ "$(wc -l <"$dir/cm-over-noimage.txt")" -eq 1 ] && holds "$dir/cm-over-noimage.txt" "no such file"; then
    ok "cm-over-hint: the tool on the link's objects: $(grep -E '^audio ' "$dir/cm-over-hint.txt" | tr -s ' ')"
else
    bad "cm-over-hint: status $status, no-image status $noimage"
    cat "$dir/cm-over-hint.txt" "$dir/cm-over-noimage.txt"
fi

# STOW_SECTIONS 0: the storage is out of the fragment's sight, so the link must refuse.
msg_nosections='stow budget: subsystem audio has containers built with STOW_SECTIONS 0'
for fit in over fits; do
    defs="-DSTOW_SECTIONS=0"
    [ "$fit" = fits ] && defs="$defs -DAUDIO_BUDGET=2048u"
    if link cm "$dir/$fit" "$dir/cm-nosections-$fit" "$defs"; then
        bad "cm-nosections-$fit: linked, with audio's storage outside its section"
    elif holds "$dir/cm-nosections-$fit.log" "$msg_nosections"; then
        ok "cm-nosections-$fit: $(grep -F 'STOW_SECTIONS' "$dir/cm-nosections-$fit.log" | sed 's/.*ld: //')"
    else
        bad "cm-nosections-$fit: the link failed without naming STOW_SECTIONS"
        cat "$dir/cm-nosections-$fit.log"
    fi
done

if link rv "$dir/over" "$dir/rv-over" ""; then
    bad "rv-over: linked over budget"
elif holds "$dir/rv-over.log" "$msg_over"; then
    ok "rv-over: the RISC-V link fails with the same message"
else
    bad "rv-over: the link failed without the budget's message"; cat "$dir/rv-over.log"
fi

# nm VALUE of a symbol in an image.
sym() { arm-none-eabi-nm "$1" | awk -v s="$2" '$3 == s { print $1 }'; }
if link cm "$dir/fits" "$dir/cm-fits" "-DAUDIO_BUDGET=2048u"; then
    a=$(sym "$dir/cm-fits.elf" __stow_budget_audio_start)
    b=$(sym "$dir/cm-fits.elf" __stow_budget_audio_end)
    s=$(sym "$dir/cm-fits.elf" __stow_start)
    e=$(sym "$dir/cm-fits.elf" __stow_end)
    v=$(sym "$dir/cm-fits.elf" stow__pool_buf_voices)
    if [ -n "$a" ] && [ -n "$v" ] && [ $((0x$b - 0x$a)) -eq 1536 ] && [ $((0x$a)) -ge $((0x$s)) ] &&
        [ $((0x$b)) -le $((0x$e)) ] && [ $((0x$v)) -ge $((0x$a)) ] && [ $((0x$v)) -lt $((0x$b)) ]; then
        ok "cm-fits: audio's 1536 bytes lie in .stow between its budget symbols"
    else
        bad "cm-fits: audio's storage is not where the fragment puts it ($a $b $s $e $v)"
    fi
    # shellcheck disable=SC2086 # QEMU_CMD holds the command and its options
    if $QEMU_CMD "$dir/cm-fits.elf" >"$dir/cm-fits.run" 2>&1 && holds "$dir/cm-fits.run" "firmware: within budget" &&
        grep -qE '^audio +2048 +1536 ' "$dir/cm-fits.run"; then
        ok "cm-fits: runs, and its report shows audio's budget 2048 and storage 1536"
    else
        bad "cm-fits: the run"; cat "$dir/cm-fits.run"
    fi
else
    bad "cm-fits: does not link within its budget"; cat "$dir/cm-fits.log"
fi

if link cm linker "$dir/cm-plain" ""; then
    # shellcheck disable=SC2086
    if $QEMU_CMD "$dir/cm-plain.elf" >"$dir/cm-plain.run" 2>&1; then
        bad "cm-no-fragment: the run passed over budget"
    elif holds "$dir/cm-plain.run" "$msg_over (storage 1536 bytes)"; then
        ok "cm-no-fragment: links, and stow_budget_check() fails the run"
    else
        bad "cm-no-fragment: the run failed without the message"; cat "$dir/cm-plain.run"
    fi
else
    bad "cm-no-fragment: does not link"; cat "$dir/cm-plain.log"
fi

# shellcheck disable=SC2086
if $HOST_CC -I"$here" $host_obj "$here/firmware.c" -o "$dir/host-over" >"$dir/host-over.log" 2>&1; then
    if "$dir/host-over" >"$dir/host-over.run" 2>&1; then
        bad "host-over: the run passed over budget"
    elif holds "$dir/host-over.run" "$msg_over (storage 1536 bytes)"; then
        ok "host-over: $(grep -F 'stow budget' "$dir/host-over.run")"
    else
        bad "host-over: failed without the message"; cat "$dir/host-over.run"
    fi
else
    bad "host-over: does not build"; cat "$dir/host-over.log"
fi
# shellcheck disable=SC2086
if $HOST_CC -DAUDIO_BUDGET=2048u -I"$here" $host_obj "$here/firmware.c" -o "$dir/host-fits" \
    >"$dir/host-fits.log" 2>&1 && "$dir/host-fits" >"$dir/host-fits.run" 2>&1; then
    ok "host-fits: within budget, the run passes"
else
    bad "host-fits"; cat "$dir/host-fits.log" "$dir/host-fits.run" 2>/dev/null
fi

# The tool against what the image printed: audio's storage, and over budget.
if [ -f "$dir/cm-fits.run" ] && [ -f "$dir/host-over" ]; then
    printed=$(awk '$1 == "audio" { print $3 }' "$dir/cm-fits.run")
    read_out=$(python3 tools/stow_report.py "$dir/cm-fits.elf" | awk '$1 == "audio" && NF >= 5 { print $3 }')
    python3 tools/stow_report.py "$dir/host-over" >"$dir/tool-host.txt"
    status=$?
    if [ -n "$printed" ] && [ "$printed" = "$read_out" ] && [ "$status" -eq 1 ] &&
        grep -qE '^audio +1024 +1536 .*OVER BUDGET' "$dir/tool-host.txt"; then
        ok "tool: audio's $printed bytes as the image printed them; the host image over budget"
    else
        bad "tool: printed '$printed', read '$read_out', status $status"; cat "$dir/tool-host.txt"
    fi
else
    bad "tool: no images to read"
fi
echo "$passed passed, $failed failed"
