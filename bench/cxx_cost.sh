#!/bin/sh
# SPDX-License-Identifier: MIT
# cxx_cost.sh DIR - what the C++ layer (stow.hpp) costs over the C calls, in
# instructions of object code.
#
# bench/cxx_cost.c does each operation through the C API, as a C program writes
# it (the call, the fields of a new item set by hand, the result stored in a
# global); bench/cxx_cost.cpp does the same through stow.hpp (get, insert,
# emplace with the item's values, remove...). Both are compiled at -O2 for
# Cortex-M4 and Cortex-M0 (arm-none-eabi-gcc and -g++, as a firmware would),
# at check levels 0 and 1, and the instructions of each function are counted
# in the disassembly (every instruction of the function, cold paths included;
# literal-pool words are data and are not counted). The C library's own
# functions are the same objects either way and are not part of either count.
# The count is deterministic: it depends only on the compilers and the sources.
# The last column says whether the two functions are the same instructions,
# once addresses, branch targets, literal-pool offsets and comments are left
# out (in the same order,
# or the same ones scheduled in another order). Functions the C++ side
# generates besides (out-of-line helpers) are not counted: the pool's cold
# ready_words(), which its emplace calls once per 32 blocks, is not.
#
# Prints a table per configuration: operation, C, C++, difference. Exits 1 when
# an operation that the header says costs nothing more (every one but the pool's
# emplace and destroy, which keep the pool's live bits, and slotmap::handle_of at
# check level 1, which checks its pointer) has more instructions in C++ than in
# C. Objects and disassembly stay in DIR.
set -u
dir=$1
mkdir -p "$dir"
ARM_CC=${ARM_CC:-arm-none-eabi-gcc}
ARM_CXX=${ARM_CXX:-arm-none-eabi-g++}
OBJDUMP=${OBJDUMP:-arm-none-eabi-objdump}
# Operations that may cost more, and why (the header says so).
why_more() { # operation, level, exceptions (x or empty)
    case $1 in
    pool_emplace | pool_destroy) echo "live bits" ;;
    slotmap_handle_of) [ "$2" -ge 1 ] && echo "its contract check" ;; # C has no handle_of to check
    heap_destroy | heap_destroy_array | packed_remove_at)
        # a noexcept member ending in a call of a C function: with exceptions on
        # the compiler must assume the C function may throw, and keeps a frame
        # for std::terminate instead of a tail call (the C headers do not say
        # nothrow in C++)
        [ "$3" = x ] && echo "no tail call with exceptions on" ;;
    esac
}

body() { # disassembly, function -> its instructions, branch targets and comments dropped
    awk -v f="<$2>:" '$2 == f { on = 1; next } on && /^$/ { exit }
        on && /^ +[0-9a-f]+:\t/ { sub(/^ +[0-9a-f]+:\t/, ""); gsub(/[0-9a-f]+ <[^>]*>/, "L"); gsub(/[ \t]*@.*/, "");
                                 gsub(/\[pc, #[0-9]+\]/, "[pc]");
                                 print }' "$1"
}

count() { # object -> "function instructions" lines
    "$OBJDUMP" -d --no-show-raw-insn "$1" | awk '
        /^[0-9a-f]+ <[^>]+>:$/ { name = $2; gsub(/[<>:]/, "", name); next }
        /^ +[0-9a-f]+:\t/ { if ($0 !~ /\t\.(word|short|byte)/) n[name]++ }
        END { for (f in n) if (f ~ /^(c|cxx)_/) print f, n[f] }'
}

status=0
rm -f "$dir/more"
# cpu:level[:exceptions]: the last one with exceptions on in C++ (C++'s default;
# every item here has a constructor that cannot throw, so emplace needs no undo).
for config in cortex-m4:0 cortex-m4:1 cortex-m0:0 cortex-m0:1 cortex-m4:1:exceptions; do
    cpu=${config%%:*}
    rest=${config#*:}
    lvl=${rest%%:*}
    mode="-fno-exceptions -fno-rtti"
    tag=$cpu-L$lvl
    title="$cpu, -O2, STOW_CHECK_LEVEL=$lvl"
    case $rest in
    *:exceptions) mode="-fexceptions"; tag=$tag-x; title="$title, C++ with exceptions on" ;;
    esac
    flags="-O2 -mcpu=$cpu -mthumb -mfloat-abi=soft -ffreestanding -DSTOW_CHECK_LEVEL=$lvl -Ilib/include -Ibench"
    c_obj=$dir/c-$tag.o
    cxx_obj=$dir/cxx-$tag.o
    "$ARM_CC" -std=c11 -pedantic -Wall -Wextra -Werror $flags -c bench/cxx_cost.c -o "$c_obj" || exit 1
    "$ARM_CXX" -std=c++17 -Wall -Wextra -Werror $mode $flags -c bench/cxx_cost.cpp -o "$cxx_obj" || exit 1
    "$OBJDUMP" -d --no-show-raw-insn "$c_obj" >"$dir/c-$tag.dis"
    "$OBJDUMP" -d --no-show-raw-insn "$cxx_obj" >"$dir/cxx-$tag.dis"
    count "$c_obj" | sed 's/^c_//' | sort >"$dir/c-$tag.count"
    count "$cxx_obj" | sed 's/^cxx_//' | sort >"$dir/cxx-$tag.count"

    echo
    echo "$title: instructions per function"
    echo
    echo "| operation | C | C++ | C++ - C | same instructions |"
    echo "|---|---:|---:|---:|---|"
    join "$dir/c-$tag.count" "$dir/cxx-$tag.count" | while read -r op c cxx; do
        d=$((cxx - c))
        body "$dir/c-$tag.dis" "c_$op" >"$dir/a.txt"
        body "$dir/cxx-$tag.dis" "cxx_$op" >"$dir/b.txt"
        same=no
        if cmp -s "$dir/a.txt" "$dir/b.txt"; then
            same=yes
        elif [ "$(sort "$dir/a.txt")" = "$(sort "$dir/b.txt")" ]; then
            same="yes, in another order"
        fi
        mark=""
        if [ "$d" -gt 0 ]; then
            why=$(why_more "$op" "$lvl" "${tag##*-L$lvl-}")
            if [ -n "$why" ]; then
                mark=" ($why)"
            else
                mark=" MORE"
                echo "$op" >>"$dir/more"
            fi
        fi
        printf '| %s | %s | %s | %+d%s | %s |\n' "$(echo "$op" | sed 's/_/ /')" "$c" "$cxx" "$d" "$mark" "$same"
    done
    missing=$(join -v1 -v2 "$dir/c-$tag.count" "$dir/cxx-$tag.count")
    if [ -n "$missing" ]; then
        echo "functions without a twin: $missing"
        status=1
    fi
done
if [ -s "$dir/more" ]; then
    echo
    echo "more instructions in C++ than in C: $(sort -u "$dir/more" | tr '\n' ' ')"
    rm -f "$dir/more"
    status=1
fi
exit $status
