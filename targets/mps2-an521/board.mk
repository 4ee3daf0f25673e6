# SPDX-License-Identifier: MIT
# mps2-an521: QEMU -M mps2-an521, the SSE-200 with two Cortex-M33 cores (core 0
# without DSP and FPU, core 1 with them: built for the smaller), 4096 KiB RAM;
# included by tests/smp/rules.mk and bench/multicore.mk (not one of the Makefile's
# BOARDS: it runs the multi-core tests, docs/multicore.md). The linker finds this
# board's memory.ld through -L targets/mps2-an521. Core 1 waits at reset until
# core 0 starts it (targets/mps2-an521/cores.c); QEMU runs both at once
# (multi-threaded TCG, its default here).
BOARD_CPU := cortex-m33
BOARD_CFLAGS := -mcpu=cortex-m33+nodsp -mthumb -mfloat-abi=soft
BOARD_QEMU := -M mps2-an521 -accel tcg,thread=multi
BOARD_RAM_KIB := 4096
