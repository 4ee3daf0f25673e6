# SPDX-License-Identifier: MIT
# mps3-an547: QEMU -M mps3-an547, cortex-m55, 2048 KiB RAM; included by the top-level
# Makefile. The linker finds this board's memory.ld through -L targets/mps3-an547.
BOARD_CPU := cortex-m55
BOARD_CFLAGS := -mcpu=cortex-m55 -mthumb -mfloat-abi=soft
BOARD_QEMU := -M mps3-an547
BOARD_RAM_KIB := 2048
