#!/bin/sh
# SPDX-License-Identifier: MIT
# nobits.sh DIR READELF CXX FLAGS... - compiles tests/cxx/nobits.cpp and checks
# that namespace-scope containers cost RAM only: every .bss.stow.cxx.* section
# is NOBITS, the 64 MiB arena's is there at its size, no PROGBITS section is
# anywhere near that big, and the object file is under 1 MiB. With
# STOW_NOBITS_EXPECT=fail in the environment the checks must fail instead (the
# plain-global build, -DSTOW_NOBITS_PLAIN=1: the check shown to catch it).
# Prints one line; exits 0 when the outcome is the expected one.
dir=$1
readelf=$2
cxx=$3
shift 3
mkdir -p "$dir"
obj=$dir/nobits.o
"$cxx" "$@" -c tests/cxx/nobits.cpp -o "$obj" >"$dir/log" 2>&1 || { cat "$dir/log"; exit 1; }
"$readelf" -SW "$obj" >"$dir/sections" || exit 1
bytes=$(wc -c <"$obj")
# name, type, size (hex) of each section
awk '{ sub(/^ *\[ *[0-9]+\] */, ""); if (NF >= 5 && $2 ~ /^[A-Z_]+$/) print $1, $2, $5 }' \
    "$dir/sections" >"$dir/table"
problems=""
frame=$(awk '$1 == ".bss.stow.cxx.frame" { print $2, $3 }' "$dir/table")
[ "$frame" = "NOBITS 4000000" ] || problems="$problems; .bss.stow.cxx.frame is '${frame:-missing}', not NOBITS of 64 MiB"
for s in cxx.nobits_pool cxx.nobits_genpool cxx.nobits_slotmap cxx.nobits_packed in.level.cxx.nobits_heap; do
    type=$(awk -v n=".bss.stow.$s" '$1 == n { print $2 }' "$dir/table")
    [ "$type" = NOBITS ] || problems="$problems; .bss.stow.$s is '${type:-missing}'"
done
big=""
while read -r name type size; do
    if [ "$type" = PROGBITS ] && [ $((0x$size)) -ge 65536 ]; then
        big="$big $name"
    fi
done <"$dir/table"
[ -z "$big" ] || problems="$problems; PROGBITS sections of 64 KiB or more:$big"
[ "$bytes" -lt 1048576 ] || problems="$problems; the object is $bytes bytes"
if [ -z "$problems" ]; then
    outcome=pass
    say="NOBITS storage, a $bytes-byte object"
else
    outcome=fail
    say=${problems#; }
fi
if [ "$outcome" = "${STOW_NOBITS_EXPECT:-pass}" ]; then
    echo "ok   $(basename "$cxx") $*: $say"
    exit 0
fi
echo "FAIL $(basename "$cxx") $*: $say (expected: ${STOW_NOBITS_EXPECT:-pass})"
exit 1
