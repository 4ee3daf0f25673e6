#!/bin/sh
# SPDX-License-Identifier: MIT
# assert_paths.sh DIR - the assert hook's file names carry no build directory
# into flash, and the checks' text costs what config.h says.
#
# tests/embedding/asserts.c and the library are built for Cortex-M4 (mps2-an386)
# from absolute paths, as CMake and IDEs name files, at check levels 1 and 2:
#   flash         the image's flash contents (objcopy -O binary; the ELF file's
#                 symbol table and debug data never reach a chip) hold no
#                 directory of this tree, and do hold the base name pool.c
#   run           under QEMU the production hook prints "stow: contract
#                 violation: stow_pool_free: ... at pool.c:<line>" and exits 134
#   notext        STOW_ASSERT_TEXT=0: the same run prints no text but still the
#                 file and line
# and prints the bytes of flash the checks' text costs in this image, per level.
# From the environment (tests/embedding/rules.mk): CM_CC (arm-none-eabi-gcc and
# its flags), QEMU_CMD (QEMU up to -kernel). Ends "N passed, N failed".
dir=$1
root=$(pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

sources="$root/targets/cortex-m/startup.c $root/port/cortex-m/semihost.c $root/port/cortex-m/fault.c
         $root/port/cortex-m/port.c $root/port/cortex-m/assert.c $root/tests/embedding/asserts.c"
for src in "$root"/lib/src/*.c; do sources="$sources $src"; done

# image NAME FLAGS: builds DIR/NAME.elf and DIR/NAME.bin from absolute paths.
image() {
    # shellcheck disable=SC2086 # commands and lists are words
    $CM_CC $2 -I"$root/lib/include" -nostdlib -Wl,--gc-sections -T"$root/linker/cortex-m.ld" \
        -L"$root/linker" -L"$root/targets/mps2-an386" $sources -lgcc -o "$dir/$1.elf" \
        >"$dir/$1.log" 2>&1 && arm-none-eabi-objcopy -O binary "$dir/$1.elf" "$dir/$1.bin"
}
flash() { arm-none-eabi-size "$dir/$1.elf" | awk 'NR == 2 { print $1 + $2 }'; }

for level in 1 2; do
    name=L$level
    if ! image "$name" "-DSTOW_CHECK_LEVEL=$level"; then
        bad "$name: does not build"; cat "$dir/$name.log"; continue
    fi
    strings -a "$dir/$name.bin" >"$dir/$name.strings"
    leaks=$(grep -cF -e "$root" -e "lib/src/" -e "lib/include/" -e "tests/embedding/" "$dir/$name.strings")
    if [ "$leaks" -eq 0 ] && grep -qE '^[a-z_]*pool\.c$' "$dir/$name.strings"; then
        ok "$name flash: no directory of $root, the base name pool.c (or a name it ends)"
    else
        bad "$name flash: $leaks strings with a build directory"
        grep -F -e "$root" -e "lib/src/" -e "lib/include/" "$dir/$name.strings" | head -n 5
    fi
    status=0
    # shellcheck disable=SC2086 # QEMU_CMD holds the command and its options
    $QEMU_CMD "$dir/$name.elf" >"$dir/$name.run" 2>&1 || status=$?
    if [ "$status" -eq 134 ] && grep -q '^asserts: containers in use' "$dir/$name.run" &&
        grep -qE '^stow: contract violation: stow_pool_free: .* at pool\.c:[0-9]+$' "$dir/$name.run"; then
        ok "$name run: $(grep '^stow: contract' "$dir/$name.run")"
    else
        bad "$name run: exit status $status"; cat "$dir/$name.run"
    fi
    if image "$name-notext" "-DSTOW_CHECK_LEVEL=$level -DSTOW_ASSERT_TEXT=0"; then
        status=0
        # shellcheck disable=SC2086
        $QEMU_CMD "$dir/$name-notext.elf" >"$dir/$name-notext.run" 2>&1 || status=$?
        if [ "$status" -eq 134 ] &&
            grep -qE '^stow: contract violation:  at pool\.c:[0-9]+$' "$dir/$name-notext.run"; then
            ok "$name notext: the hook gets \"\", the file and the line"
        else
            bad "$name notext: exit status $status"; cat "$dir/$name-notext.run"
        fi
        echo "info: level $level, this image: $(flash "$name") bytes of flash with the text," \
            "$(flash "$name-notext") without"
    else
        bad "$name notext: does not build"; cat "$dir/$name-notext.log"
    fi
done
echo "$passed passed, $failed failed"
