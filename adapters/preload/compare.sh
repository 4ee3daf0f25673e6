#!/bin/sh
# SPDX-License-Identifier: MIT
# compare.sh NAME DIR SO COMMAND... - a program from Debian's packages on
# libstow_malloc.so: runs COMMAND plainly and with LD_PRELOAD=SO, and checks the
# same output and exit status, and stow_heap_check ok at exit in every process
# (preload_compare in adapters/steps.sh). Ends with "N passed, N failed".
name=$1
STEPS_DIR=$2
so=$3
shift 3
. "$(dirname "$0")/../steps.sh"
preload_compare "$name" "$so" "$@"
finish 3
