#!/bin/sh
# SPDX-License-Identifier: MIT
# m32.sh PROBE BINARY - runs a 32-bit x86 (-m32) test binary: natively where the
# kernel runs 32-bit programs, else under qemu-i386 (Debian's qemu-user), since
# some x86-64 kernels are built without IA-32 emulation ("Exec format error").
# PROBE is an empty -m32 program that tells which.
probe=$1
shift
if "$probe" 2>/dev/null; then
    exec "$@"
fi
exec qemu-i386 "$@"
