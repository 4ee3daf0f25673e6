# SPDX-License-Identifier: MIT
# riscv-virt: QEMU -M virt (qemu-system-riscv32) with no firmware (-bios none),
# its default rv32 hart running rv32imac code in machine mode, 4096 KiB of the
# DRAM used as RAM; included by the top-level Makefile. The linker finds this
# board's memory.ld through -L targets/riscv-virt.
# -misa-spec=2.2: GCC 12 wants Zicsr named for the port's csr instructions, but
# Debian's GCC 12 picks no rv32 multilib (libgcc) for -march=rv32imac_zicsr; under
# ISA spec 2.2, I includes Zicsr and the rv32imac/ilp32 libgcc is found.
BOARD_CPU := rv32imac
BOARD_CFLAGS := -march=rv32imac -misa-spec=2.2 -mabi=ilp32
BOARD_QEMU := -M virt -bios none
BOARD_RAM_KIB := 4096
