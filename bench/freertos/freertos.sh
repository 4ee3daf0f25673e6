#!/bin/sh
# SPDX-License-Identifier: MIT
# freertos.sh "QEMU COMMAND" IMAGE... - the FreeRTOS workload (bench/freertos/
# workload.c) side by side on each image's heap: instructions per pvPortMalloc and
# vPortFree (one run under -icount shift=8, each call timed on its own), and the
# smallest heap that runs the workload (bisection, one run per size: the image
# takes its heap size from the semihosting command line). Prints a Markdown
# table; stops with status 1 when a run fails in a way that is not "the heap was
# too small", or when two runs made different sequences of calls.
qemu=$1
shift
LOW=256       # bytes: no heap that small runs it
HIGH=65536    # configTOTAL_HEAP_SIZE of the images: their largest heap
STEP=8

# run IMAGE ARGS...: the image's output; its status in $status
run() {
    img=$1
    shift
    args=$(printf ',arg=%s' "$@")
    # shellcheck disable=SC2086 # qemu holds the command and its options
    out=$(timeout 120 $qemu -nographic -monitor none -serial none -icount shift=8 \
        -semihosting-config "enable=on,target=native$args" -kernel "$img" 2>&1)
    status=$?
}

sequences=""
note_sequence() {
    s=$(printf '%s\n' "$out" | sed -n 's/.*, sequence \([0-9]*\),.*/\1/p')
    sequences="$sequences $s"
}

rows=""
names=""
for img in "$@"; do
    run "$img" time
    if [ "$status" -ne 0 ]; then
        printf '%s\n' "$out"
        echo "freertos.sh: the timed run of $img failed (status $status)"
        exit 1
    fi
    note_sequence
    comment=$(printf '%s\n' "$out" | grep '^# ')
    name=$(printf '%s\n' "$out" | sed -n 's/^@|\([^|]*\)|pvPortMalloc|.*/\1/p')
    malloc=$(printf '%s\n' "$out" | sed -n 's/^@|[^|]*|pvPortMalloc|\([0-9]*\)|\([0-9]*\)|\([0-9]*\)|\([0-9]*\)$/\1 \2 \3 \4/p')
    free=$(printf '%s\n' "$out" | sed -n 's/^@|[^|]*|vPortFree|\([0-9]*\)|\([0-9]*\)|\([0-9]*\)|\([0-9]*\)$/\1 \2 \3 \4/p')

    # The smallest heap: LOW fails (checked), HIGH runs (the timed run).
    run "$img" size "$LOW"
    if [ "$status" -ne 1 ]; then
        printf '%s\n' "$out"
        echo "freertos.sh: $img ran on $LOW bytes (status $status); lower LOW"
        exit 1
    fi
    lo=$LOW
    hi=$HIGH
    runs=1
    while [ $((hi - lo)) -gt $STEP ]; do
        mid=$(((lo + hi) / 2 / STEP * STEP))
        run "$img" size "$mid"
        runs=$((runs + 1))
        case $status in
        0) hi=$mid; note_sequence ;;
        1) lo=$mid ;;
        *) printf '%s\n' "$out"; echo "freertos.sh: $img failed on $mid bytes (status $status)"; exit 1 ;;
        esac
    done
    names="$names|$name"
    # shellcheck disable=SC2086
    set -- $malloc
    m_calls=$2 m_mean=$3 m_max=$4
    # shellcheck disable=SC2086
    set -- $free
    f_calls=$2 f_mean=$3 f_max=$4
    rows="$rows
$name|$m_calls|$(printf '%d.%02d' $((m_mean / 100)) $((m_mean % 100)))|$m_max|$f_calls|$(printf '%d.%02d' $((f_mean / 100)) $((f_mean % 100)))|$f_max|$hi|$runs|$comment"
done

first=$(printf '%s\n' $sequences | head -n 1)
for s in $sequences; do
    if [ "$s" != "$first" ]; then
        echo "freertos.sh: the runs made different sequences of calls ($sequences): not the same workload"
        exit 1
    fi
done

suspend=$(printf '%s\n' "$rows" | sed -n 's/.*vTaskSuspendAll + xTaskResumeAll \([0-9]*\) instructions.*/\1/p' | head -n 1)
version=$(printf '%s\n' "$rows" | sed -n 's/.*(FreeRTOS \([^)]*\)).*/\1/p' | head -n 1)
echo "## The same FreeRTOS workload on heap_4 and on heap_stow.c (bench/freertos/)"
echo
echo "FreeRTOS $version on Cortex-M4F (mps2-an386, ARM_CM4F port, -O2, QEMU -icount shift=8):" \
    "six rounds of three tasks, two queues and three timers created and deleted, 360 messages of 16-511" \
    "bytes through them, every third copied into a larger block. Instructions per call, return included," \
    "each call timed on its own, the kernel's calls and the workload's alike (vPortFree(NULL) is not timed)." \
    "heap_4 and heap_stow.c by default wrap each call in vTaskSuspendAll and xTaskResumeAll ($suspend" \
    "instructions of each figure here); \"critical\" is heap_stow.c with STOW_FREERTOS_HEAP_CRITICAL 1," \
    "the kernel's critical section instead. Smallest heap: the smallest configTOTAL_HEAP_SIZE that runs" \
    "the workload, by bisection to $STEP bytes, one run per size. Every run made the same sequence of" \
    "calls (hash $first)."
echo
echo "| heap | pvPortMalloc timed | mean | max | vPortFree timed | mean | max | smallest heap (bytes) | runs |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "$rows" | sed '/^$/d' | while IFS='|' read -r n mc mm mx fc fm fx hb r c; do
    echo "| $n | $mc | $mm | $mx | $fc | $fm | $fx | $hb | $r |"
done
echo
printf '%s\n' "$rows" | sed '/^$/d' | while IFS='|' read -r n mc mm mx fc fm fx hb r c; do
    echo "$c"
done
