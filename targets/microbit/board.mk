# SPDX-License-Identifier: MIT
# microbit: QEMU -M microbit, cortex-m0, 16 KiB RAM; included by the top-level
# Makefile. The linker finds this board's memory.ld through -L targets/microbit.
BOARD_CPU := cortex-m0
BOARD_CFLAGS := -mcpu=cortex-m0 -mthumb -mfloat-abi=soft
BOARD_QEMU := -M microbit
BOARD_RAM_KIB := 16
