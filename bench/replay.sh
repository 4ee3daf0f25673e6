#!/bin/sh
# SPDX-License-Identifier: MIT
# replay.sh DIR REPLAY_L0 REPLAY_L1 TRACE... - the trace replay rows of `make bench`
# on the host: for each TRACE (bench/traces/*.trace), each call's instructions
# on stow's heap at check levels 0 and 1 and on glibc's malloc, counted by
# callgrind, and the fragmentation of each (see bench/replay.c).
#
# Instructions: the replayer asks callgrind for a dump after every call
# (--combine-dumps=yes: one file, one "part" per call); in each part, the
# inclusive cost of the calls that replay_step_stow or replay_step_libc made is
# that call's instructions (the callee's, its return included, not the call
# instruction: as bench/callgrind.sh counts). Mean and max are over every
# replayed call (malloc, calloc, aligned, realloc and free alike).
# Footprint and fragmentation come from a run without callgrind.
#
# Prints lines "@trace|<trace>|<allocator>|<calls>|<mean>|<max>|<max of malloc,
# aligned and free>|<calloc and realloc calls>|<their max>|<requested>|<footprint>"
# for bench/replay_table.sh; exits non-zero when a replay fails or its heap's
# check does.
set -e
dir=$1
l0=$2
l1=$3
shift 3
mkdir -p "$dir"
arch=$(uname -m | tr _ -)
glibc=$(ldd --version | head -n 1 | sed 's/.* \([0-9][0-9.]*\)$/glibc \1/')
for trace in "$@"; do
    name=$(basename "$trace" .trace)
    for run in "stow L0, $arch:$l0:stow" "stow L1, $arch:$l1:stow" "$glibc, $arch:$l1:libc"; do
        label=${run%%:*}
        rest=${run#*:}
        prog=${rest%%:*}
        alloc=${rest#*:}
        out="$dir/$name-$(printf '%s' "$label" | tr -c 'A-Za-z0-9.-' _)"
        if ! "$prog" "$trace" "$alloc" >"$out.native" 2>&1; then
            cat "$out.native" >&2
            echo "replay: $name on $label failed" >&2
            exit 1
        fi
        if ! valgrind --tool=callgrind --callgrind-out-file="$out.callgrind" --combine-dumps=yes \
                --compress-strings=no --compress-pos=no "$prog" "$trace" "$alloc" dump \
                >"$out.dump" 2>"$out.valgrind"; then
            cat "$out.valgrind" "$out.dump" >&2
            exit 1
        fi
        awk -F'|' -v label="$label" -v name="$name" '
        function part_end() { if (have) { cost_of[++n] = cost }; cost = 0; have = 0 }
        FILENAME == ARGV[1] {
            if ($0 ~ /^part:/) { part_end(); next }
            if ($0 ~ /^fn=/) { fn = substr($0, 4); next }
            if ($0 ~ /^calls=/) { incall = (fn ~ /^replay_step_/); next }
            if (incall && $0 ~ /^[0-9]/) { split($0, f, " "); cost += f[2]; have = 1; incall = 0 }
            next
        }
        FILENAME == ARGV[2] { if ($0 ~ /^@ops\|/) { part_end(); letters = $2 }; next }
        /^@replay\|/ {
            for (i = 4; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
            if (n != v["calls"] || length(letters) != n) {
                printf "replay.sh: %s on %s: %d calls counted, %d replayed\n", name, label, n, v["calls"] > "/dev/stderr"
                exit 1
            }
            # mean and max over every call; max over the calls of bounded cost
            # (malloc, aligned, free), the O(size) ones apart (calloc zeroes,
            # realloc may copy)
            for (k = 1; k <= n; k++) {
                sum += cost_of[k]; if (cost_of[k] > max) max = cost_of[k]
                op = substr(letters, k, 1)
                if (op ~ /[maf]/) { if (cost_of[k] > max1) max1 = cost_of[k] }
                else { ns++; if (cost_of[k] > maxs) maxs = cost_of[k] }
            }
            printf "@trace|%s|%s|%d|%.1f|%d|%d|%d|%d|%d|%d\n", name, label, n, sum / n, max, max1, ns, maxs, \
                v["requested"], v["footprint"]
        }' "$out.callgrind" "$out.valgrind" "$out.native"
        rm -f "$out.callgrind"
    done
done
