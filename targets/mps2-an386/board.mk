# SPDX-License-Identifier: MIT
# mps2-an386: QEMU -M mps2-an386, cortex-m4, 4096 KiB RAM; included by the top-level
# Makefile. The linker finds this board's memory.ld through -L targets/mps2-an386.
BOARD_CPU := cortex-m4
BOARD_CFLAGS := -mcpu=cortex-m4 -mthumb -mfloat-abi=soft
BOARD_QEMU := -M mps2-an386
BOARD_RAM_KIB := 4096
