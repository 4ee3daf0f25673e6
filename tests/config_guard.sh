#!/bin/sh
# SPDX-License-Identifier: MIT
# config_guard.sh DIR CC FLAGS... - the link-time configuration check (config.h).
# Builds lib/ with the default options, then links tests/config_guard/user.c
# against it, for each container (arena, pool, genpool, slotmap, packed) made
# once by its DEFINE and once by its init function: with options that match it
# must link, with no note from the library; with each option that changes a
# layout or a handle encoding set otherwise the link must fail, and the linker's
# output must name that option with the value the program used and, in the
# library's note (lib/src/internal.h), the value the library was built with
# (the defaults: STOW_CHECK_LEVEL_1, STOW_HANDLE_INDEX_BITS_16,
# STOW_GENERATION_OVERFLOW_WRAP, and for the heap STOW_HEAP_TRACE_0). Writes "passed failed" to DIR/result, one case
# per link, and the linker output to DIR/log. LDLIBS, from the environment, goes
# after the library (-lgcc for a -nostdlib link).
dir=$1
cc=$2
shift 2
mkdir -p "$dir"
: >"$dir/log"
passed=0
failed=0
objs=
for src in lib/src/*.c; do
    obj="$dir/$(basename "$src" .c).o"
    if ! "$cc" "$@" -c "$src" -o "$obj" >>"$dir/log" 2>&1; then
        echo "FAIL config-guard: the library does not build" | tee -a "$dir/log"
        echo "0 1" >"$dir/result"
        exit 0
    fi
    objs="$objs $obj"
done
rm -f "$dir/libstow.a"
ar rcs "$dir/libstow.a" $objs 2>>"$dir/log" || arm-none-eabi-ar rcs "$dir/libstow.a" $objs

# link NAME EXPECT(ok|fail) NEEDLE LIBRARY FLAGS...: a failed link's output must name
# NEEDLE, and say "the library with LIBRARY"; a link that succeeds must print no
# note of stow's.
link() {
    name=$1
    expect=$2
    needle=$3
    library=$4
    shift 4
    echo "== $name: $*" >>"$dir/log"
    # shellcheck disable=SC2086 # LDLIBS holds several words
    if "$cc" "$@" tests/config_guard/user.c tests/stub_port.c "$dir/libstow.a" $LDLIBS -o "$dir/$name.out" >"$dir/$name.txt" 2>&1; then
        got=ok
    else
        got=fail
    fi
    cat "$dir/$name.txt" >>"$dir/log"
    if [ "$got" != "$expect" ]; then
        echo "FAIL config-guard $name: link $got, expected $expect" | tee -a "$dir/log"
        failed=$((failed + 1))
    elif [ "$got" = fail ] && ! grep -q "$needle" "$dir/$name.txt"; then
        echo "FAIL config-guard $name: the link failed without naming $needle" | tee -a "$dir/log"
        failed=$((failed + 1))
    elif [ "$got" = fail ] &&
        ! grep -q "warning: stow: this file was built with $needle, the library with $library;" "$dir/$name.txt"
    then
        echo "FAIL config-guard $name: the link failed without naming the library's $library" |
            tee -a "$dir/log"
        failed=$((failed + 1))
    elif [ "$got" = ok ] && grep -q "warning: stow:" "$dir/$name.txt"; then
        echo "FAIL config-guard $name: a link with matching options printed a note" | tee -a "$dir/log"
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
}

module=0
for kind in arena pool genpool slotmap packed heap; do
    module=$((module + 1))
    for way in define init; do
        extra=-DGUARD_MODULE=$module
        [ "$way" = init ] && extra="$extra -DGUARD_BY_INIT"
        case=$kind-$way
        # shellcheck disable=SC2086 # extra holds several words
        link "$case-same" ok - - "$@" $extra
        link "$case-level" fail STOW_CHECK_LEVEL_2 STOW_CHECK_LEVEL_1 "$@" $extra -DSTOW_CHECK_LEVEL=2
        link "$case-level-0" fail STOW_CHECK_LEVEL_0 STOW_CHECK_LEVEL_1 "$@" $extra -DSTOW_CHECK_LEVEL=0
        link "$case-index-bits" fail STOW_HANDLE_INDEX_BITS_12 STOW_HANDLE_INDEX_BITS_16 "$@" $extra \
            -DSTOW_HANDLE_INDEX_BITS=12
        link "$case-overflow" fail STOW_GENERATION_OVERFLOW_RETIRE STOW_GENERATION_OVERFLOW_WRAP \
            "$@" $extra -DSTOW_GENERATION_OVERFLOW=STOW_GEN_RETIRE
        # The heap's layout depends on STOW_HEAP_TRACE as well.
        if [ "$kind" = heap ]; then
            link "$case-trace" fail STOW_HEAP_TRACE_1 STOW_HEAP_TRACE_0 "$@" $extra -DSTOW_HEAP_TRACE=1
        fi
    done
done
# A bounded heap's init carries the same options.
link heap-init-bounded-level fail STOW_CHECK_LEVEL_2 STOW_CHECK_LEVEL_1 "$@" -DGUARD_MODULE=6 \
    -DGUARD_BY_INIT -DGUARD_BOUNDED -DSTOW_CHECK_LEVEL=2
link heap-init-bounded-trace fail STOW_HEAP_TRACE_1 STOW_HEAP_TRACE_0 "$@" -DGUARD_MODULE=6 \
    -DGUARD_BY_INIT -DGUARD_BOUNDED -DSTOW_HEAP_TRACE=1
# The same values spelled otherwise are the same options.
link pool-define-same-spelled-otherwise ok - - "$@" -DGUARD_MODULE=2 "-DSTOW_CHECK_LEVEL=(1)" \
    -DSTOW_HANDLE_INDEX_BITS=16u
link genpool-init-same-spelled-otherwise ok - - "$@" -DGUARD_MODULE=3 -DGUARD_BY_INIT \
    "-DSTOW_CHECK_LEVEL=(1)" -DSTOW_HANDLE_INDEX_BITS=16u
echo "$passed $failed" >"$dir/result"
printf '%-34s %s passed, %s failed\n' "$(basename "$dir")" "$passed" "$failed"
