# SPDX-License-Identifier: MIT
# sifive_e: QEMU -M sifive_e (qemu-system-riscv32), a SiFive E31 hart (rv32imac)
# as on the FE310 / HiFive1, 16 KiB of RAM; included by the top-level Makefile.
# The linker finds this board's memory.ld through -L targets/sifive_e.
# -misa-spec=2.2: see targets/riscv-virt/board.mk.
BOARD_CPU := sifive-e31
BOARD_CFLAGS := -march=rv32imac -misa-spec=2.2 -mabi=ilp32
BOARD_QEMU := -M sifive_e
BOARD_RAM_KIB := 16
