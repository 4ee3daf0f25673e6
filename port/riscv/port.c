/* SPDX-License-Identifier: MIT */
/* port/riscv/port.c - the stow library port for bare-metal RISC-V in machine mode
 * (see stow/port.h): what a production image links.
 *
 *   critical   mstatus.MIE: enter clears it with one csrrci and returns its
 *              previous value (the MIE bit alone); exit sets it again only if it
 *              was set, so pairs nest. Exit writes back the MIE bit, not the whole
 *              saved mstatus: a full csrw would also undo any change made to the
 *              other fields (FS, MPRV, MPP...) inside the section.
 *   lock       the same mstatus.MIE section; the container's word is not
 *              touched (one hart: masking is the whole exclusion). Several
 *              harts sharing a container link smp.c as well, and build this
 *              file with -DSTOW_PORT_SMP, which leaves out the critical section
 *              and the lock here (docs/multicore.md).
 *   write      weak default that discards the text: point it at your UART.
 *   exit       weak default that masks interrupts and waits for ever (wfi): make
 *              it reset the part, or report to your debugger.
 *
 * Test, benchmark and demo images add port/riscv/semihost.c (write and exit by
 * semihosting), port/riscv/cycles.c (stow_port_cycles) and port/riscv/trap.c
 * (the trap reporter); the assert hook is port/riscv/assert.c.
 *
 * Needs the Zicsr instructions: with GCC 12, -march=rv32imac_zicsr (or
 * -misa-spec=2.2, under which I includes them).
 */
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"

#define MSTATUS_MIE 0x8u /* bit 3: machine interrupt enable */

#ifndef STOW_PORT_SMP
uint32_t stow_port_critical_enter(void)
{
    uint32_t mstatus;
    __asm__ volatile("csrrci %0, mstatus, %1" : "=r"(mstatus) : "i"(MSTATUS_MIE) : "memory");
    return mstatus & MSTATUS_MIE;
}

void stow_port_critical_exit(uint32_t state)
{
    if ((state & MSTATUS_MIE) != 0u) {
        __asm__ volatile("csrsi mstatus, %0" : : "i"(MSTATUS_MIE) : "memory");
    }
}

uint32_t stow_port_lock(uint32_t *word)
{
    uint32_t mstatus;
    (void)word;
    __asm__ volatile("csrrci %0, mstatus, %1" : "=r"(mstatus) : "i"(MSTATUS_MIE) : "memory");
    return mstatus & MSTATUS_MIE;
}

void stow_port_unlock(uint32_t *word, uint32_t state)
{
    (void)word;
    if ((state & MSTATUS_MIE) != 0u) {
        __asm__ volatile("csrsi mstatus, %0" : : "i"(MSTATUS_MIE) : "memory");
    }
}
#endif

__attribute__((weak)) void stow_port_write(const char *text, size_t len)
{
    (void)text;
    (void)len;
}

__attribute__((weak)) void stow_port_exit(int status)
{
    (void)status;
    __asm__ volatile("csrci mstatus, %0" : : "i"(MSTATUS_MIE) : "memory");
    for (;;) {
        __asm__ volatile("wfi" : : : "memory");
    }
}
