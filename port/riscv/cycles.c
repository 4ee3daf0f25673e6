/* SPDX-License-Identifier: MIT */
/* port/riscv/cycles.c - stow_port_cycles() for test and benchmark images on
 * RISC-V.
 *
 * Reads the low 32 bits of a counter CSR; the contract (stow/port.h) is a count
 * that wraps at 2^32, so the high half (mcycleh, cycleh, timeh) is not needed.
 * Which counter, chosen at build time with STOW_RISCV_CYCLES:
 *
 *   0 (default)  mcycle: core clock cycles, machine mode. Under QEMU with
 *                -icount shift=0 it counts executed instructions exactly (QEMU
 *                derives it from the instruction count), which bench/ops.c uses.
 *   1            cycle (rdcycle): the unprivileged shadow of mcycle, for code
 *                that runs in user mode with mcounteren.CY set.
 *   2            time (rdtime): the platform timer, for cores that implement no
 *                cycle counter (it runs at the timer's rate, not the core's).
 *
 * A core that inhibits mcycle at reset (mcountinhibit.CY) needs it cleared
 * before the counter moves; QEMU's cores count from reset.
 */
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"

#ifndef STOW_RISCV_CYCLES
#define STOW_RISCV_CYCLES 0
#endif

uint32_t stow_port_cycles(void)
{
    uint32_t count;
#if STOW_RISCV_CYCLES == 0
    __asm__ volatile("csrr %0, mcycle" : "=r"(count));
#elif STOW_RISCV_CYCLES == 1
    __asm__ volatile("rdcycle %0" : "=r"(count));
#elif STOW_RISCV_CYCLES == 2
    __asm__ volatile("rdtime %0" : "=r"(count));
#else
#error "STOW_RISCV_CYCLES must be 0 (mcycle), 1 (cycle) or 2 (time)"
#endif
    return count;
}
