# SPDX-License-Identifier: MIT
# riscv-virt-smp: QEMU -M virt (qemu-system-riscv32) with four harts that run at
# once (-smp 4, multi-threaded TCG: one host thread per hart), no firmware (-bios
# none), rv32imac code in machine mode; the memory of riscv-virt (link with
# -L targets/riscv-virt). Every hart starts at _start (targets/riscv/startup.c,
# built with STOW_RV_HARTS=4): 8 KiB of stack each, so the link reserves 32 KiB.
# Included by tests/smp/rules.mk and bench/multicore.mk (not one of the Makefile's
# RV_BOARDS: it runs the multi-core tests, docs/multicore.md).
BOARD_CPU := rv32imac
BOARD_CFLAGS := -march=rv32imac -misa-spec=2.2 -mabi=ilp32 -DSTOW_RV_HARTS=4 -DSTOW_RV_HART_STACK=8192
BOARD_QEMU := -M virt -bios none -smp 4 -accel tcg,thread=multi
BOARD_RAM_KIB := 4096
