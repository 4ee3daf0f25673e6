#!/bin/sh
# SPDX-License-Identifier: MIT
# zephyr_module.sh ROOT WORK - stow's Zephyr module and samples/hello_stow, as far as
# they can be checked without a Zephyr tree or SDK (none is installed here):
#   1. zephyr/Kconfig and the sample's prj.conf read by kconfiglib, the Kconfig
#      implementation Zephyr uses (Debian's python3-kconfiglib);
#   2. zephyr/CMakeLists.txt configured as Zephyr does (add_subdirectory, the
#      CONFIG_* values of step 1) with stand-ins for the zephyr_* functions that
#      record each call (tests/consumers/zephyr/stub);
#   3. the sample, the library and port/zephyr/port.c linked for Cortex-M3 with a
#      linker script laid out like Zephyr's (tests/consumers/zephyr/linker.ld) and
#      the snippets zephyr_linker_sources() would write, with
#      --orphan-handling=error; then the same link without the snippets, which
#      must fail on stow's sections, and with a budget list the sample exceeds,
#      which must fail with the budget tool's message;
#   4. the sample run on the host against a stand-in of the Zephyr calls it makes
#      (tests/consumers/zephyr/zephyr_shim.c), its output checked the way twister's
#      console harness checks it, with sample.yaml's regexes.
ROOT=$1
WORK=$2
. "$ROOT/tests/consumers/common.sh"
Z="$ROOT/tests/consumers/zephyr"
APP="$ROOT/samples/hello_stow"
PY=${DEBIAN_PYTHON:-/usr/bin/python3}
CFG="$WORK/config.cmake"
REC="$WORK/module"
rm -rf "$WORK/objects" "$WORK/host"
mkdir -p "$WORK/objects"

# configure_module OUT [CONFIG_X=value...]: steps 1 and 2 into OUT.
configure_module() {
    out=$1
    shift
    "$PY" "$Z/kconfig_to_cmake.py" "$ROOT" "$APP/prj.conf" "$out.cmake" "$@" &&
    rm -rf "$out" "$out.build" &&
    cmake -S "$Z/stub" -B "$out.build" -DSTOW_ROOT="$ROOT" -DCONFIG="$out.cmake" \
        -DAPPLICATION_SOURCE_DIR="$APP" -DOUT="$out" -DCMAKE_C_COMPILER=arm-none-eabi-gcc &&
    cat "$out/calls.txt"
}

recorded() {
    calls="$REC/calls.txt"
    for src in "$ROOT"/lib/src/*.c "$ROOT/port/zephyr/port.c"; do
        grep -q "^zephyr_library_sources: .*$(basename "$src")" "$calls" ||
            { echo "not built: $src"; return 1; }
    done
    grep -q '^zephyr_compile_definitions: .*STOW_CHECK_LEVEL=2' "$calls" &&
    grep -q '^zephyr_linker_sources: RODATA .*/linker/stow_registry.ld$' "$calls" &&
    grep -q '^zephyr_linker_sources: RAM_SECTIONS .*/zephyr/stow_ram.ld$' "$calls" &&
    grep -q 'ASSERT(__stow_budget_radio_end - __stow_budget_radio_start <= 1024' \
        "$REC/module/stow_budgets/stow_budgets.ld" &&
    grep -q 'ASSERT(__stow_budget_ui_end - __stow_budget_ui_start <= 512' \
        "$REC/module/stow_budgets/stow_budgets.ld" &&
    # The generated fragment is searched before stow's empty one.
    sed -n 's/^zephyr_ld_options: //p' "$calls" | tr '\n' ' ' |
        grep -q -- "-L$REC/module/stow_budgets -L$ROOT/linker"
}

# The firmware's objects, compiled once with the definitions the module gave.
compile_objects() {
    defs=$(sed -n 's/^zephyr_compile_definitions: //p' "$REC/calls.txt" | tr '\n' ' ')
    for src in "$APP/src/main.c" "$ROOT"/lib/src/*.c "$ROOT/port/zephyr/port.c" "$Z/zephyr_shim.c"; do
        # shellcheck disable=SC2086 # one word per definition
        arm-none-eabi-gcc -std=c11 -Os -Wall -Wextra -Werror -mcpu=cortex-m3 -mthumb -ffreestanding \
            -ffunction-sections -fdata-sections $(printf -- '-D%s ' $defs) -I"$ROOT/lib/include" \
            -I"$ROOT/tests/consumers/zephyr_api" -c "$src" -o "$WORK/objects/$(basename "$src" .c).o" ||
            return 1
    done
}

# zlink SNIPPETS_DIR ELF [-L...]: the objects through the Zephyr-layout script.
zlink() {
    snippets=$1
    elf=$2
    shift 2
    arm-none-eabi-gcc -E -P -x assembler-with-cpp -I"$snippets" "$Z/linker.ld" -o "$elf.cmd" &&
    arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -nostdlib -Wl,--gc-sections -Wl,--orphan-handling=error \
        -T "$elf.cmd" "$@" "$WORK"/objects/*.o -lgcc -Wl,-Map="$elf.map" -o "$elf"
}

ld_dirs() { sed -n 's/^zephyr_ld_options: //p' "$1/calls.txt" | tr '\n' ' '; }

placed() {
    elf="$WORK/hello.elf"
    # shellcheck disable=SC2046
    zlink "$REC" "$elf" $(ld_dirs "$REC") || return 1
    arm-none-eabi-readelf -SW "$elf" | sed -n 's/^ *\[ *[0-9]*\] *//p' >"$WORK/sections.txt"
    cat "$WORK/sections.txt"
    # .stow: NOBITS, the first section in RAM, ahead of the data section.
    awk '$1 == ".stow" && $2 == "NOBITS" && $3 == "20000000" { ok = 1 } END { exit !ok }' "$WORK/sections.txt" &&
    arm-none-eabi-nm "$elf" >"$WORK/nm.txt" &&
    sym() { awk -v s="$1" '$3 == s { print $1 }' "$WORK/nm.txt"; } &&
    in_range() { [ $((0x$1)) -ge $((0x$2)) ] && [ $((0x$1)) -lt $((0x$3)) ]; } &&
    in_range "$(sym stow__pool_buf_rx_messages)" "$(sym __stow_start)" "$(sym __stow_end)" &&
    in_range "$(sym stow__arena_buf_frame_text)" "$(sym __stow_start)" "$(sym __stow_end)" &&
    in_range "$(sym stow__pool_buf_rx_messages)" "$(sym __stow_budget_radio_start)" \
        "$(sym __stow_budget_radio_end)" &&
    rodata=$(awk '$1 == "rodata" { print $3, $5 }' "$WORK/sections.txt") &&
    set -- $rodata &&
    in_range "$(sym __start_stow_registry)" "$1" "$(printf '%x' $((0x$1 + 0x$2)))" &&
    [ $((0x$(sym __stop_stow_registry) - 0x$(sym __start_stow_registry))) -eq 8 ]
}

orphans_caught() {
    mkdir -p "$WORK/no-snippets" && : >"$WORK/no-snippets/snippets-rodata.ld" &&
    : >"$WORK/no-snippets/snippets-ram-sections.ld" || return 1
    if zlink "$WORK/no-snippets" "$WORK/orphans.elf" -L"$ROOT/linker" >"$WORK/orphans.log" 2>&1; then
        echo "linked without the module's snippets: the orphan check proves nothing"
        return 1
    fi
    cat "$WORK/orphans.log"
    grep -q "orphan section \`stow_registry'" "$WORK/orphans.log"
}

over_budget() {
    configure_module "$WORK/over" CONFIG_STOW_BUDGETS='"../../tests/consumers/zephyr/over_budgets.h"' \
        >"$WORK/over.log" 2>&1 || { cat "$WORK/over.log"; return 1; }
    # shellcheck disable=SC2046
    if zlink "$WORK/over" "$WORK/over.elf" $(ld_dirs "$WORK/over") >"$WORK/over-link.log" 2>&1; then
        echo "the sample linked with a budget it exceeds"
        return 1
    fi
    cat "$WORK/over-link.log"
    grep -q "stow budget: subsystem ui is over its budget of 64 bytes" "$WORK/over-link.log"
}

host_run() {
    mkdir -p "$WORK/host" &&
    gcc -std=c11 -O1 -Wall -Wextra -Werror -DSTOW_TEST_ZEPHYR_HOST -DSTOW_CHECK_LEVEL=2 \
        -I"$ROOT/lib/include" -I"$ROOT/tests/consumers/zephyr_api" "$APP/src/main.c" \
        "$ROOT"/lib/src/*.c "$ROOT/port/zephyr/port.c" "$Z/zephyr_shim.c" -o "$WORK/host/hello" &&
    "$WORK/host/hello" >"$WORK/host/output.txt" &&
    cat "$WORK/host/output.txt" &&
    "$PY" "$Z/console_harness.py" "$APP/sample.yaml" "$WORK/host/output.txt"
}

step "kconfiglib reads zephyr/Kconfig and the sample's prj.conf; zephyr/CMakeLists.txt configures" \
    configure_module "$REC" &&
step "the module builds lib/ and the port, passes prj.conf's options, places the registry (RODATA) and storage (RAM_SECTIONS), generates the budget fragment" \
    recorded
step "the sample compiles against the Zephyr API's declarations (Cortex-M3)" compile_objects &&
step "linked with a Zephyr-layout script and --orphan-handling=error: .stow NOBITS first in RAM, storage and budgets inside, registry in rodata" \
    placed &&
step "without the module's snippets the same link fails: stow_registry is an orphan" orphans_caught &&
step "a budget list the sample exceeds (CONFIG_STOW_BUDGETS) fails the link with the tool's message" \
    over_budget
step "the sample on a host stand-in of Zephyr prints what sample.yaml's console harness expects" host_run
finish 7
