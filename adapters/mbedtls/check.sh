#!/bin/sh
# SPDX-License-Identifier: MIT
# check.sh DIR SO TEST_MBEDTLS CC CFLAGS... - mbedTLS and stow:
#   1. adapters/mbedtls/use_example.c (stow_mbedtls_use) compiles against Debian's
#      headers for a build with MBEDTLS_PLATFORM_MEMORY (-D on the command line);
#   2. as Debian ships them (no MBEDTLS_PLATFORM_MEMORY) it does not compile, with
#      an error that names MBEDTLS_PLATFORM_MEMORY;
#   3-5. adapters/mbedtls/test_mbedtls.c (libmbedcrypto's hashes, AES, self
#      tests, ECDSA and RSA, and the adapter's hooks on a heap of their own)
#      passes plainly (exit status 0), and on libstow_malloc.so gives the same output with
#      stow_heap_check ok at exit.
# Ends with "N passed, N failed".
STEPS_DIR=$1
so=$2
prog=$3
shift 3
here=$(dirname "$0")
. "$here/../steps.sh"
mkdir -p "$STEPS_DIR"
step "stow_mbedtls_use compiles for an mbedTLS built with MBEDTLS_PLATFORM_MEMORY" \
    "$@" -DMBEDTLS_PLATFORM_MEMORY -c "$here/use_example.c" -o "$STEPS_DIR/use_example.o"
without() {
    if "$@" -c "$here/use_example.c" -o "$STEPS_DIR/use_example_without.o" 2>"$STEPS_DIR/without.err"; then
        echo "compiled without MBEDTLS_PLATFORM_MEMORY"
        return 1
    fi
    cat "$STEPS_DIR/without.err"
    grep -q 'stow_mbedtls_use_needs_MBEDTLS_PLATFORM_MEMORY' "$STEPS_DIR/without.err"
}
step "without MBEDTLS_PLATFORM_MEMORY (Debian's build) stow_mbedtls_use is an error naming it" without "$@"
preload_compare test_mbedtls "$so" "$prog"
finish 5
