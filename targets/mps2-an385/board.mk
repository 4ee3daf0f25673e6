# SPDX-License-Identifier: MIT
# mps2-an385: QEMU -M mps2-an385, cortex-m3, 4096 KiB RAM; included by the top-level
# Makefile. The linker finds this board's memory.ld through -L targets/mps2-an385.
BOARD_CPU := cortex-m3
BOARD_CFLAGS := -mcpu=cortex-m3 -mthumb -mfloat-abi=soft
BOARD_QEMU := -M mps2-an385
BOARD_RAM_KIB := 4096
