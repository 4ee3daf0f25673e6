#!/bin/sh
# SPDX-License-Identifier: MIT
# record.sh SO - records the allocation traces of bench/traces/ with
# libstow_malloc.so (make preload builds it: build/adapters/preload/libstow_malloc.so),
# from the repository's root. Not part of make test or make bench: the traces are
# checked in, so the bench replays the same calls everywhere. Each trace starts
# with the SPDX line, the interposer's header and a line saying what made it.
#   lua.trace      Debian's lua5.4 running adapters/lua/workload.lua 2 100 4
#   python.trace   Debian's python3 -c: JSON out and back, sets, sorted strings
#   openssl.trace  Debian's openssl dgst -sha256 of a 100 KB file
set -e
so=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=bench/traces
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# record NAME WHAT COMMAND...
record() {
    name=$1
    what=$2
    shift 2
    LD_PRELOAD="$so" STOW_HEAP_TRACE="$tmp/$name" "$@" >/dev/null
    { echo "# SPDX-License-Identifier: MIT"
      head -n 1 "$tmp/$name"
      echo "# $name: $what; $(uname -m), $(ldd --version | head -n 1 | sed 's/^ldd //')"
      tail -n +2 "$tmp/$name"; } >"$out/$name"
    echo "$out/$name: $(grep -vc '^#' "$out/$name") calls, $(wc -c <"$out/$name") bytes"
}
record lua.trace "lua5.4 $(lua5.4 -v 2>&1 | cut -d' ' -f2) adapters/lua/workload.lua 2 100 4" lua5.4 adapters/lua/workload.lua 2 100 4
record python.trace "$(/usr/bin/python3 --version) -c (JSON, sets, sorted strings)" /usr/bin/python3 -c 'import json
d = {"k%d" % i: [i, str(i) * (i % 7), {"x": i / 3}] for i in range(600)}
s = json.dumps(d, sort_keys=True)
e = json.loads(s)
words = " ".join(sorted(set(s.split(","))))
print(len(s), len(e), len(words))'
head -c 100000 /dev/zero >"$tmp/data"
record openssl.trace "$(openssl version | cut -d' ' -f1-2) dgst -sha256 of 100 KB" openssl dgst -sha256 "$tmp/data"
