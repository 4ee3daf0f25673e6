#!/bin/sh
# SPDX-License-Identifier: MIT
# alone.sh LIBC MAP OBJ [HEAP_BYTES] - checks, from a firmware's link map (made
# with -Wl,-Map=MAP,--cref), that stow is its only allocator:
#   1. every allocator entry point in the link (malloc, free, calloc, realloc,
#      the aligned calls, malloc_usable_size; newlib's _malloc_r, _free_r... too)
#      is defined by OBJ (adapters/libc/stow_malloc.c's object), and the ones the
#      C library calls (newlib: _malloc_r, _free_r; picolibc: malloc, free) are
#      there;
#   2. no allocator object of the C library was pulled out of its archive
#      (newlib: lib_a-nano-mallocr.o and the other nano-*r.o, lib_a-malloc.o,
#      lib_a-mlock.o, lib_a-sbrkr.o, ...; picolibc: nano-malloc-*.c.o, its sbrk);
#   3. nothing in the link defines or references sbrk, _sbrk, _sbrk_r, newlib's
#      __malloc_lock/__malloc_unlock or the libc allocators' own state;
#   4. (with HEAP_BYTES) the heap's storage, .bss.stow.heap.malloc_heap, is in
#      the image with that size.
# LIBC is newlib (newlib-full: the same checks) or picolibc. Prints "ok"/"FAIL" per check and ends
# "N passed, N failed"; exits 1 when a check failed.
libc=$1
map=$2
obj=$3
heap=$4
passed=0
failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

if [ ! -r "$map" ]; then
    echo "alone.sh: no map file $map"
    echo "0 passed, 1 failed"
    exit 1
fi

case $libc in
newlib | newlib-full)
    entries='malloc free calloc realloc memalign aligned_alloc posix_memalign valloc pvalloc
             malloc_usable_size cfree mallinfo malloc_stats mallopt malloc_trim mstats
             _malloc_r _free_r _calloc_r _realloc_r _memalign_r _valloc_r _pvalloc_r
             _malloc_usable_size_r _mallinfo_r _malloc_stats_r _mallopt_r _malloc_trim_r _mstats_r'
    needed='_malloc_r _free_r malloc free'
    # libc_nano.a's allocator and libc.a's (the full newlib's), with their wrappers
    alloc='mallocr|freer|callocr|reallocr|malignr|msizer|vallocr|pvallocr|mallinfor|mallstatsr|malloptr'
    members="lib_a-(nano-)?($alloc)\\.o|lib_a-(malloc|calloc|realloc|malign|msize|valloc|mstats|mtrim|mlock|sbrkr|syssbrk|aligned_alloc)\\.o"
    ;;
picolibc)
    entries='malloc free calloc realloc memalign aligned_alloc posix_memalign valloc pvalloc
             malloc_usable_size cfree mallinfo malloc_stats mallopt malloc_trim'
    needed='malloc free'
    members='nano-malloc-[a-z_]*\.c\.o|libc_picolib_picosbrk\.c\.o|libc_stdlib_malloc[a-z_]*\.c\.o'
    ;;
*)
    echo "alone.sh: LIBC must be newlib or picolibc, not '$libc'"
    echo "0 passed, 1 failed"
    exit 1
    ;;
esac
forbidden='sbrk _sbrk _sbrk_r __malloc_lock __malloc_unlock __malloc_free_list __malloc_sbrk_start
           __malloc_sbrk_top __malloc_malloc __malloc_free __malloc_current_mallinfo __malloc_grow_chunk'

# The cross reference table: "symbol file" for each symbol's first line (the
# file that defines it), and every symbol named in it at all.
cref=$(awk '/^Cross Reference Table/ { on = 1; next } on && /^[^ \t]/ && NF >= 2 { print $1, $2 }' "$map")
if [ -z "$cref" ]; then
    echo "alone.sh: $map has no cross reference table (link with -Wl,--cref)"
    echo "0 passed, 1 failed"
    exit 1
fi
objname=$(basename "$obj")

# 1. entry points
found=""
bad=""
for sym in $entries; do
    file=$(printf '%s\n' "$cref" | awk -v s="$sym" '$1 == s { print $2; exit }')
    [ -n "$file" ] || continue
    found="$found $sym"
    case $(basename "$file") in
    "$objname") ;;
    *) bad="$bad $sym($file)";;
    esac
done
missing=""
for sym in $needed; do
    case " $found " in *" $sym "*) ;; *) missing="$missing $sym";; esac
done
if [ -z "$bad" ] && [ -z "$missing" ]; then
    ok "allocator entry points, all defined by $objname:$found"
else
    fail "allocator entry points not from $objname:$bad${missing:+; missing:$missing}"
fi

# 2. archive members of the C library's allocator
libmembers=$(grep -oE "\(($members)\)" "$map" | sort -u | tr -d '()' | tr '\n' ' ')
if [ -z "$libmembers" ]; then
    ok "no allocator object of $libc's library in the link"
else
    fail "$libc's allocator objects in the link: $libmembers"
fi

# 3. sbrk and the libc allocators' state, defined or referenced anywhere
named=""
for sym in $forbidden; do
    if printf '%s\n' "$cref" | awk -v s="$sym" '$1 == s { f = 1 } END { exit !f }'; then
        named="$named $sym"
    fi
done
if [ -z "$named" ]; then
    ok "no sbrk, _sbrk, _sbrk_r, __malloc_lock/unlock or libc allocator state defined or referenced"
else
    fail "defined or referenced:$named"
fi

# 4. the heap's storage
if [ -n "$heap" ]; then
    size=$(awk '
        want && NF >= 2 { print $2; exit }
        $1 == ".bss.stow.heap.malloc_heap" { if (NF >= 3) { print $3; exit } want = 1 }' "$map")
    if [ -n "$size" ] && [ $((size)) -eq "$heap" ]; then
        ok "heap storage .bss.stow.heap.malloc_heap: $((size)) bytes"
    else
        fail "heap storage .bss.stow.heap.malloc_heap: '${size:-none}', expected $heap bytes"
    fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
