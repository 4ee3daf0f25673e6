#!/bin/sh
# SPDX-License-Identifier: MIT
# check.sh DIR SO TEST_LWIP TEST_MAPPING_2_1 TEST_MAPPING_2_2 - lwIP and stow:
#   1-2. stow_lwip.h's two mappings, compiled against Debian's lwIP headers with
#        a firmware-style lwipopts.h (adapters/lwip/opts/), reach a stow heap;
#   3-5. adapters/lwip/test_lwip.c (Debian's liblwip: pbufs, mem_malloc, UDP
#        looped back through lwIP's thread) passes plainly (exit status 0), and on
#        libstow_malloc.so gives the same output with stow_heap_check ok at exit.
# Ends with "N passed, N failed".
STEPS_DIR=$1
so=$2
prog=$3
map21=$4
map22=$5
. "$(dirname "$0")/../steps.sh"
mkdir -p "$STEPS_DIR"
step "stow_lwip.h, lwIP 2.1 mapping (MEM_LIBC_MALLOC, mem_clib_*): calls reach the heap" counts_ok "$map21"
step "stow_lwip.h, lwIP 2.2 mapping (MEM_CUSTOM_ALLOCATOR): calls reach the heap" counts_ok "$map22"
preload_compare test_lwip "$so" "$prog"
finish 5
