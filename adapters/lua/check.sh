#!/bin/sh
# SPDX-License-Identifier: MIT
# check.sh DIR TEST_LUA WORKLOAD.lua ROUNDS - the lua_Alloc adapter with Debian's
# liblua5.4: adapters/lua/test_lua.c passes, and the workload's output through it
# is the output of Debian's lua5.4 interpreter running the same script.
# Ends with "N passed, N failed".
STEPS_DIR=$1
prog=$2
workload=$3
rounds=$4
. "$(dirname "$0")/../steps.sh"
mkdir -p "$STEPS_DIR"
if step "test_lua: a state on a stow heap runs the workload, runs out of memory cleanly, closes clean" \
    counts_ok "$prog" "$workload" "$rounds"; then
    cp "$STEPS_DIR/counts.out" "$STEPS_DIR/test_lua.out"
    step "the workload prints through stow_lua_alloc what it prints in Debian's lua5.4" \
        sh -c 'lua5.4 "$1" "$2" >"$3/lua5.4.out" && grep -Fxq -f "$3/lua5.4.out" "$3/test_lua.out"' \
        sh "$workload" "$rounds" "$STEPS_DIR"
    grep '^lua on stow' "$STEPS_DIR/test_lua.out"
fi
finish 2
