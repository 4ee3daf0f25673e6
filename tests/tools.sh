#!/bin/sh
# SPDX-License-Identifier: MIT
# tools.sh DIR MAKE - `make` and `make demo` ask only for what they use.
# For each goal, runs `make tools-<goal>` with a PATH that holds nothing but the
# tools that goal needs (and the shell's helpers), as a user who is not root (a
# stand-in `id` says uid 1000, so nothing is installed): it must pass. Then
# with each of those tools taken away in turn: it must stop and print the
# apt-get line naming that tool's package, and no other.
#   make                      gcc, arm-none-eabi-gcc
#   make demo                 arm-none-eabi-gcc, qemu-system-arm
#   make demo BOARD=riscv-virt  riscv64-unknown-elf-gcc, qemu-system-riscv32
# "N passed, N failed" last; exit status 1 on any failure.
dir=$1
make=$(command -v "${2:-make}")
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
passed=0
failed=0
helpers="sh ls cat sed uname nproc tr head"

# path_with TOOL...: a fresh directory holding the helpers, a non-root id and TOOL...
path_with() {
    bin=$dir/bin
    rm -rf "$bin"
    mkdir -p "$bin"
    printf '#!/bin/sh\necho 1000\n' >"$bin/id"
    chmod +x "$bin/id"
    for t in $helpers "$@"; do
        p=$(command -v "$t") && ln -s "$p" "$bin/$t"
    done
    echo "$bin"
}

# goal NAME "MAKE ARGS" "TOOL:PACKAGE ...": the checks for one goal.
goal() {
    name=$1
    args=$2
    pairs=$3
    tools=$(for p in $pairs; do printf '%s ' "${p%%:*}"; done)
    # shellcheck disable=SC2086 # tools and args hold several words
    if env PATH="$(path_with $tools)" "$make" --no-print-directory -C "$root" $args >"$dir/$name.log" 2>&1; then
        echo "ok   $name: passes with only $tools"
        passed=$((passed + 1))
    else
        echo "FAIL $name: does not pass with only $tools"
        sed 's/^/    /' "$dir/$name.log"
        failed=$((failed + 1))
    fi
    for p in $pairs; do
        gone=${p%%:*}
        pkg=${p#*:}
        rest=$(for t in $tools; do [ "$t" = "$gone" ] || printf '%s ' "$t"; done)
        # shellcheck disable=SC2086
        if env PATH="$(path_with $rest)" "$make" --no-print-directory -C "$root" $args >"$dir/$name-$gone.log" 2>&1; then
            echo "FAIL $name without $gone: passed"
            failed=$((failed + 1))
        elif line=$(grep 'apt-get install' "$dir/$name-$gone.log") &&
            [ "$(printf '%s\n' "$line" | sed 's/.*--no-install-recommends//' | tr -s ' ' | sed 's/^ //')" = "$pkg" ]; then
            echo "ok   $name without $gone: asks for $pkg alone"
            passed=$((passed + 1))
        else
            echo "FAIL $name without $gone: does not ask for $pkg alone"
            sed 's/^/    /' "$dir/$name-$gone.log"
            failed=$((failed + 1))
        fi
    done
}

goal all "tools-all" "gcc:gcc arm-none-eabi-gcc:gcc-arm-none-eabi"
goal demo "tools-demo" "arm-none-eabi-gcc:gcc-arm-none-eabi qemu-system-arm:qemu-system-arm"
goal demo-riscv "tools-demo BOARD=riscv-virt" \
    "riscv64-unknown-elf-gcc:gcc-riscv64-unknown-elf qemu-system-riscv32:qemu-system-misc"
rm -rf "$dir/bin"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
