# SPDX-License-Identifier: MIT
# mps2-an500: QEMU -M mps2-an500, cortex-m7, 4096 KiB RAM; included by the top-level
# Makefile. The linker finds this board's memory.ld through -L targets/mps2-an500.
BOARD_CPU := cortex-m7
BOARD_CFLAGS := -mcpu=cortex-m7 -mthumb -mfloat-abi=soft
BOARD_QEMU := -M mps2-an500
BOARD_RAM_KIB := 4096
