#!/bin/sh
# size.sh - code size of every lib/ module, built as a firmware would build it.
# Prints one Markdown table per core: a row per module (and the total), a column
# per optimisation and check level. A cell is the bytes of .text; "+N" adds the
# .rodata the module brings (the assert hook's file names and expressions).
# Any .data or .bss would be listed below the tables: stow keeps none.
#
#   SIZE_CPUS   cores        (default: cortex-m0 cortex-m3 cortex-m4 cortex-m33)
#   SIZE_OPTS   optimisation (default: Os O2)
#   SIZE_LEVELS check levels (default: 0 1)
set -e
cd "$(dirname "$0")/.."
cpus=${SIZE_CPUS:-cortex-m0 cortex-m3 cortex-m4 cortex-m33}
opts=${SIZE_OPTS:-Os O2}
levels=${SIZE_LEVELS:-0 1}
out=build/size
mkdir -p "$out"
modules=$(for f in lib/src/*.c; do basename "$f" .c; done)
cc=arm-none-eabi-gcc

# bytes SECTION-REGEX OBJECT: sum of the sizes of matching sections.
bytes() {
    arm-none-eabi-size -A "$2" | awk -v re="$1" '$1 ~ re { n += $2 } END { print n + 0 }'
}

echo "## Code size in bytes ($($cc -dumpversion), -ffunction-sections, Thumb, soft float)"
stray=""
for cpu in $cpus; do
    echo
    printf '### %s\n\n| module |' "$cpu"
    for o in $opts; do for l in $levels; do printf ' -%s L%s |' "$o" "$l"; done; done
    printf '\n|---|'
    for o in $opts; do for l in $levels; do printf -- '---:|'; done; done
    printf '\n'
    totals=""
    for m in $modules; do
        printf '| %s |' "$m"
        for o in $opts; do for l in $levels; do
            obj="$out/$cpu-$o-L$l-$m.o"
            $cc -std=c11 -pedantic -Werror -Wall -Wextra -"$o" -ffreestanding -ffunction-sections \
                -fdata-sections -mthumb -mcpu="$cpu" -mfloat-abi=soft -DSTOW_CHECK_LEVEL="$l" \
                -Ilib/include -c "lib/src/$m.c" -o "$obj"
            t=$(bytes '^\.text' "$obj")
            r=$(bytes '^\.rodata' "$obj")
            db=$(bytes '^\.(data|bss)' "$obj")
            [ "$db" -eq 0 ] || stray="$stray $obj:$db"
            if [ "$r" -gt 0 ]; then printf ' %s +%s |' "$t" "$r"; else printf ' %s |' "$t"; fi
        done; done
        printf '\n'
    done
    printf '| **all** |'
    for o in $opts; do for l in $levels; do
        t=0; r=0
        for m in $modules; do
            t=$((t + $(bytes '^\.text' "$out/$cpu-$o-L$l-$m.o")))
            r=$((r + $(bytes '^\.rodata' "$out/$cpu-$o-L$l-$m.o")))
        done
        if [ "$r" -gt 0 ]; then printf ' **%s** +%s |' "$t" "$r"; else printf ' **%s** |' "$t"; fi
    done; done
    printf '\n'
done
if [ -n "$stray" ]; then
    echo
    echo "objects with .data or .bss (object:bytes):$stray"
fi
