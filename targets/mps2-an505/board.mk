# SPDX-License-Identifier: MIT
# mps2-an505: QEMU -M mps2-an505, cortex-m33, 4096 KiB RAM; included by the top-level
# Makefile. The linker finds this board's memory.ld through -L targets/mps2-an505.
BOARD_CPU := cortex-m33
BOARD_CFLAGS := -mcpu=cortex-m33 -mthumb -mfloat-abi=soft
BOARD_QEMU := -M mps2-an505
BOARD_RAM_KIB := 4096
