#!/bin/sh
# SPDX-License-Identifier: MIT
# size.sh - code size of lib/, built as a firmware would build it (arm-none-eabi-gcc,
# Thumb, soft float; riscv64-unknown-elf-gcc for rv32imac/ilp32; -ffunction-sections
# -fdata-sections).
#
# 1. Objects: per core, one Markdown table with a row per module and the total of
#    all five, a column per optimisation and check level. A cell is
#    ".text +.rodata / .data / .bss" in bytes of the module's object, every
#    function in it (init, check, stats... included). .rodata is the assert
#    hook's file names and expressions (level 1); stow keeps no .data or .bss.
# 2. Hot path: what a firmware links when it uses a module the everyday way
#    (bench/hot.c: DEFINE, no init; pool alloc/free, arena alloc/reset, genpool
#    and slotmap insert/get/remove, packed push/remove_at/data/count, heap
#    alloc/realloc/free), linked with --gc-sections; the library's functions
#    only (the caller and the assert hook taken off). Same layout, cell
#    ".text +.rodata".
# 3. The heap against its size target: alloc + realloc + free linked at -Os,
#    level 0 (part 2's cell) on Cortex-M4 (at most 600 bytes), Cortex-M0 and
#    rv32imac, next to all of heap.o.
# 4. Where the bytes of each object go: its functions by size, for one core and
#    configuration (SIZE_DETAIL, default cortex-m4 -Os L0).
# 5. What the assert hook's text costs: Cortex-M4 -Os level 1 built again with
#    STOW_ASSERT_TEXT 0, objects and hot path, next to the same with the text
#    (when cortex-m4, Os and level 1 are among those built).
#
#   SIZE_CPUS   cores        (default: cortex-m0 cortex-m3 cortex-m4 cortex-m33 rv32imac;
#               a RISC-V core is named by its -march: rv32imac, rv32emac...)
#   SIZE_OPTS   optimisation (default: Os O2)
#   SIZE_LEVELS check levels (default: 0 1)
#   SIZE_DETAIL "cpu opt level" for part 4, or "none"
set -e
cd "$(dirname "$0")/.."
cpus=${SIZE_CPUS:-cortex-m0 cortex-m3 cortex-m4 cortex-m33 rv32imac}
opts=${SIZE_OPTS:-Os O2}
levels=${SIZE_LEVELS:-0 1}
detail=${SIZE_DETAIL:-cortex-m4 Os 0}
out=build/size
mkdir -p "$out"
modules=$(for f in lib/src/*.c; do basename "$f" .c; done)
flags="-std=c11 -pedantic -Werror -Wall -Wextra -ffreestanding -ffunction-sections -fdata-sections
       -Ilib/include"

# use_cpu CPU: sets cc, the binutils prefix tp and the core's flags cpuflags.
use_cpu() {
    case $1 in
    rv32e*) tp=riscv64-unknown-elf-; cpuflags="-march=$1 -mabi=ilp32e" ;;
    rv32*) tp=riscv64-unknown-elf-; cpuflags="-march=$1 -mabi=ilp32" ;;
    *) tp=arm-none-eabi-; cpuflags="-mthumb -mfloat-abi=soft -mcpu=$1" ;;
    esac
    cc=${tp}gcc
}

# sizes FILE...: the bytes of .text, .rodata, .data and .bss (each with its
# -ffunction-sections / -fdata-sections parts, and RISC-V's small-data
# .srodata, .sdata and .sbss) summed over the files.
sizes() {
    ${tp}size -A "$@" | awk '
        $1 ~ /^\.text/ { t += $2 } $1 ~ /^\.s?rodata/ { r += $2 }
        $1 ~ /^\.s?data/ { d += $2 } $1 ~ /^\.s?bss/ { b += $2 }
        END { print t + 0, r + 0, d + 0, b + 0 }'
}

# symbol_bytes FILE SYMBOL...: sum of the sizes of those symbols.
symbol_bytes() {
    f=$1
    shift
    ${tp}nm -S -t d "$f" | awk -v want=" $* " '
        NF == 4 && index(want, " " $4 " ") { n += $2 } END { print n + 0 }'
}

# Builds everything, in parallel per configuration: the objects, then the hot-path
# images, linked from the same objects.
for cpu in $cpus; do
    use_cpu "$cpu"
    for o in $opts; do for l in $levels; do
        for m in $modules; do
            $cc $flags -"$o" $cpuflags -DSTOW_CHECK_LEVEL="$l" -c "lib/src/$m.c" \
                -o "$out/$cpu-$o-L$l-$m.o" &
        done
        wait
        objs=$(for m in $modules; do printf '%s ' "$out/$cpu-$o-L$l-$m.o"; done)
        for h in $modules all; do
            $cc $flags -"$o" $cpuflags -DSTOW_CHECK_LEVEL="$l" -DHOT_"$h" bench/hot.c $objs \
                -nostdlib -Wl,--gc-sections -Wl,-e,hot_main -lgcc -o "$out/$cpu-$o-L$l-hot-$h.elf" &
        done
        if [ -r lib/src/heap.c ]; then
            $cc $flags -"$o" $cpuflags -DSTOW_CHECK_LEVEL="$l" -DHOT_heap -DHOT_HEAP_NO_REALLOC bench/hot.c \
                $objs -nostdlib -Wl,--gc-sections -Wl,-e,hot_main -lgcc -o "$out/$cpu-$o-L$l-hot-heap-af.elf" &
        fi
        wait
    done; done
done

header() {
    printf '### %s\n\n| %s |' "$1" "$2"
    for o in $opts; do for l in $levels; do printf ' -%s L%s |' "$o" "$l"; done; done
    printf '\n|---|'
    for o in $opts; do for l in $levels; do printf -- '---:|'; done; done
    printf '\n'
}

# cell TEXT RODATA [DATA BSS]
cell() {
    if [ "$2" -gt 0 ]; then printf ' %s +%s' "$1" "$2"; else printf ' %s' "$1"; fi
    if [ $# -gt 2 ]; then printf ' / %s / %s' "$3" "$4"; fi
    printf ' |'
}

echo "## Code size in bytes (arm-none-eabi-gcc $(arm-none-eabi-gcc -dumpversion), Thumb, soft float;" \
    "riscv64-unknown-elf-gcc $(riscv64-unknown-elf-gcc -dumpversion), ilp32; -ffunction-sections)"
echo
echo "### Objects: .text +.rodata / .data / .bss of lib/src/<module>.o, every function included"
for cpu in $cpus; do
    use_cpu "$cpu"
    echo
    header "$cpu" module
    for m in $modules all; do
        if [ "$m" = all ]; then printf '| **all modules** |'; else printf '| %s |' "$m"; fi
        for o in $opts; do for l in $levels; do
            if [ "$m" = all ]; then
                set -- $(sizes $(for x in $modules; do printf '%s ' "$out/$cpu-$o-L$l-$x.o"; done))
            else
                set -- $(sizes "$out/$cpu-$o-L$l-$m.o")
            fi
            cell "$@"
        done; done
        printf '\n'
    done
done

echo
echo "### Hot path: what a firmware links (bench/hot.c, --gc-sections): .text +.rodata of lib/ only"
echo
echo "pool: alloc, free. arena: alloc, reset. genpool, slotmap: insert, get, remove (slotmap"
echo "also data). packed: push, remove_at, data, count. heap: alloc, realloc, free (with the"
echo "first use's layout and realloc's moving path). Containers from DEFINE (no init)."
echo "Not counted: each DEFINE'd container's struct, in .data, and its storage, in .stow.*."
for cpu in $cpus; do
    use_cpu "$cpu"
    echo
    header "$cpu" "hot path"
    for h in $modules all; do
        if [ "$h" = all ]; then printf '| **all modules** |'; else printf '| %s |' "$h"; fi
        for o in $opts; do for l in $levels; do
            elf="$out/$cpu-$o-L$l-hot-$h.elf"
            set -- $(sizes "$elf")
            cell $(($1 - $(symbol_bytes "$elf" hot_main stow_port_assert_failed))) "$2"
        done; done
        printf '\n'
    done
done

# The heap's hot path (alloc + realloc + free) at -Os L0 against its limit on
# Cortex-M4, with Cortex-M0 and rv32imac next to it, and the whole object.
heap_limit=600
echo
echo "### Heap: alloc + realloc + free linked (--gc-sections), -Os L0, and all of heap.o"
echo
echo "| core | alloc + realloc + free: .text +.rodata | limit (.text) | | alloc + free only | heap.o, -Os L0 | heap.o, -Os L1 |"
echo "|---|---:|---:|---|---:|---:|---:|"
for cpu in cortex-m4 cortex-m0 rv32imac; do
    use_cpu "$cpu"
    elf="$out/$cpu-Os-L0-hot-heap.elf"
    if [ ! -r "$elf" ]; then
        printf '| %s | - | | not built (SIZE_CPUS, SIZE_OPTS, SIZE_LEVELS) | | | |\n' "$cpu"
        continue
    fi
    set -- $(sizes "$elf")
    hot=$(($1 - $(symbol_bytes "$elf" hot_main stow_port_assert_failed)))
    hot_cell="$hot +$2"
    verdict=""
    limit=""
    if [ "$cpu" = cortex-m4 ]; then
        limit="<= $heap_limit"
        if [ "$hot" -le "$heap_limit" ]; then verdict="met, $((heap_limit - hot)) under"
        else verdict="**missed** by $((hot - heap_limit))"; fi
    fi
    af="$out/$cpu-Os-L0-hot-heap-af.elf"
    set -- $(sizes "$af")
    af_cell="$(($1 - $(symbol_bytes "$af" hot_main stow_port_assert_failed))) +$2"
    set -- $(sizes "$out/$cpu-Os-L0-heap.o")
    obj0="$1 +$2"
    obj1=-
    if [ -r "$out/$cpu-Os-L1-heap.o" ]; then
        set -- $(sizes "$out/$cpu-Os-L1-heap.o")
        obj1="$1 +$2"
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$cpu" "$hot_cell" "$limit" "$verdict" "$af_cell" "$obj0" \
        "$obj1"
done

if [ "$detail" != none ]; then
    set -- $detail
    use_cpu "$1"
    echo
    echo "### Where the bytes go: functions of each object, $1 -$2 L$3 (bytes of .text)"
    echo
    echo "| module | functions, largest first |"
    echo "|---|---|"
    for m in $modules; do
        obj="$out/$1-$2-L$3-$m.o"
        [ -r "$obj" ] || { echo "size.sh: SIZE_DETAIL names a build that was not made" >&2; exit 1; }
        printf '| %s | ' "$m"
        ${tp}nm -S -t d --size-sort -r "$obj" | awk '
            NF == 4 && $3 ~ /^[tT]$/ { printf "%s%s %d", sep, $4, $2; sep = ", " }'
        printf ' |\n'
    done
fi

# Part 5: the objects and hot-path images of cortex-m4 -Os L1 again, with STOW_ASSERT_TEXT 0.
case " $cpus " in *" cortex-m4 "*) ;; *) exit 0 ;; esac
case " $opts " in *" Os "*) ;; *) exit 0 ;; esac
case " $levels " in *" 1 "*) ;; *) exit 0 ;; esac
use_cpu cortex-m4
for m in $modules; do
    $cc $flags -Os $cpuflags -DSTOW_CHECK_LEVEL=1 -DSTOW_ASSERT_TEXT=0 -c "lib/src/$m.c" \
        -o "$out/cortex-m4-Os-L1-notext-$m.o" &
done
wait
objs=$(for m in $modules; do printf '%s ' "$out/cortex-m4-Os-L1-notext-$m.o"; done)
for h in $modules all; do
    $cc $flags -Os $cpuflags -DSTOW_CHECK_LEVEL=1 -DSTOW_ASSERT_TEXT=0 -DHOT_"$h" bench/hot.c $objs \
        -nostdlib -Wl,--gc-sections -Wl,-e,hot_main -lgcc -o "$out/cortex-m4-Os-L1-notext-hot-$h.elf" &
done
wait
echo
echo "### STOW_ASSERT_TEXT: what the assert hook's text costs, cortex-m4 -Os L1 (.text +.rodata; saved: both)"
echo
echo "| module | object, text 1 | object, text 0 | object, saved | hot path, text 1 | hot path, text 0 | hot path, saved |"
echo "|---|---:|---:|---:|---:|---:|---:|"
# hot ELF: .text (hot_main and the hook taken off) and .rodata of a hot-path image
hot() {
    set -- "$1" $(sizes "$1")
    echo $(($2 - $(symbol_bytes "$1" hot_main stow_port_assert_failed))) "$3"
}
for m in $modules all; do
    if [ "$m" = all ]; then
        printf '| **all modules** |'
        set -- $(sizes $(for x in $modules; do printf '%s ' "$out/cortex-m4-Os-L1-$x.o"; done)) $(sizes $objs)
    else
        printf '| %s |' "$m"
        set -- $(sizes "$out/cortex-m4-Os-L1-$m.o") $(sizes "$out/cortex-m4-Os-L1-notext-$m.o")
    fi
    cell "$1" "$2"
    cell "$5" "$6"
    printf ' %s |' $(($1 + $2 - $5 - $6))
    set -- $(hot "$out/cortex-m4-Os-L1-hot-$m.elf") $(hot "$out/cortex-m4-Os-L1-notext-hot-$m.elf")
    cell "$1" "$2"
    cell "$3" "$4"
    printf ' %s |\n' $(($1 + $2 - $3 - $4))
done
