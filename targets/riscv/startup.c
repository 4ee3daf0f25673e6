/* SPDX-License-Identifier: MIT */
/* targets/riscv/startup.c - reset code for every RISC-V board (machine mode,
 * one hart, no firmware underneath: QEMU's -bios none, or the board's mask ROM
 * jumping to flash).
 *
 * _start (assembly, first in .init, at the start of FLASH: where the board's
 * reset vector jumps) sets gp and sp, points mtvec at stow_riscv_trap_entry and
 * calls stow__rv_reset, which copies .data from flash, zeroes .bss, (with
 * -DSTOW_TEST_DIRTY_SECTIONS) fills the .stow region with 0xA5 so that tests
 * prove stow never relies on zeroed storage, enables interrupts (mstatus.MIE,
 * with every source off), calls main() and hands its return value to
 * stow_port_exit().
 *
 * Linker symbols used (linker/riscv.ld defines them): __global_pointer$,
 * __stack_top, __data_start, __data_end, __data_load, __bss_start, __bss_end,
 * and with STOW_TEST_DIRTY_SECTIONS __stow_start, __stow_end (linker/stow.ld).
 *
 * Several harts (-DSTOW_RV_HARTS=<n>, default 1): every hart runs _start at
 * reset (QEMU's virt machine with -smp starts them all there). Hart h's stack
 * starts h * STOW_RV_HART_STACK bytes below __stack_top (link with
 * -Wl,--defsym=__stack_size=<n times that>); hart 0 runs the reset code and
 * main(), the others wait until it has copied .data and zeroed .bss (the word
 * they poll, stow__rv_go, must reach a value that RAM would not hold by chance)
 * and then call stow_riscv_hart_main(h) with interrupts enabled as above (weak
 * here: it returns at once). A hart numbered n or more, or one whose
 * stow_riscv_hart_main() returns, masks interrupts and waits for ever (wfi),
 * and so does every hart but 0 in a one-hart image. The trap reporter
 * (port/riscv/trap.c) reports on a fresh stack at __stack_top: a fault on a
 * second hart ends the run, with whatever hart 0 was doing.
 *
 * stow_riscv_trap_entry is weak here: a stand-in that exits with status 2 (no
 * report). port/riscv/trap.c defines the real one, which names the cause; link
 * it as an object file (a weak reference does not pull a member out of an
 * archive).
 */
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"

#define STOW_RV_TRAP_STATUS 2

extern uint32_t __data_start[];
extern uint32_t __data_end[];
extern const uint32_t __data_load[];
extern uint32_t __bss_start[];
extern uint32_t __bss_end[];
#ifdef STOW_TEST_DIRTY_SECTIONS
extern uint8_t __stow_start[];
extern uint8_t __stow_end[];
#endif

#ifndef STOW_RV_HARTS
#define STOW_RV_HARTS 1
#endif
#ifndef STOW_RV_HART_STACK
#define STOW_RV_HART_STACK 4096
#endif
#define STOW_RV_STR2(x) #x
#define STOW_RV_STR(x) STOW_RV_STR2(x)
#if STOW_RV_HARTS > 1
#define STOW_RV_HART_SP "li t1, " STOW_RV_STR(STOW_RV_HART_STACK) "\n\tmul t1, t0, t1\n\tsub sp, sp, t1\n\t"
#else
#define STOW_RV_HART_SP ""
#endif
/* What hart 0 writes to stow__rv_go once .data and .bss are ready. */
#define STOW_RV_GO 0x60A11u

int main(void);

void stow__rv_reset(void);
void stow__rv_secondary(uint32_t hart);
void stow__rv_default_trap(void);
void stow_riscv_trap_entry(void);
void stow_riscv_hart_main(uint32_t hart);

volatile uint32_t stow__rv_go;

/* gp first, with relaxation off: the linker would otherwise turn the la of
 * __global_pointer$ into an addi from gp itself. */
__asm__(".section .init, \"ax\", @progbits\n\t"
        ".globl _start\n\t"
        ".type _start, @function\n"
        "_start:\n\t"
        ".option push\n\t"
        ".option norelax\n\t"
        "la gp, __global_pointer$\n\t"
        ".option pop\n\t"
        "csrr t0, mhartid\n\t"
        "la sp, __stack_top\n\t"
        STOW_RV_HART_SP
        "la t2, stow_riscv_trap_entry\n\t"
        "csrw mtvec, t2\n\t"
        "mv a0, t0\n\t"
        "bnez t0, 1f\n\t"
        "j stow__rv_reset\n"
        "1:\n\t"
        "j stow__rv_secondary\n\t"
        ".size _start, . - _start\n\t"
        ".text\n");

/* The weak stand-in for port/riscv/trap.c's entry, 4-byte aligned as mtvec
 * requires. A naked C function, like the real one, so that the two resolve as
 * weak and strong definitions under -flto too (two top-level asm labels would
 * meet in one assembly file there). */
__attribute__((weak, naked, aligned(4), used)) void stow_riscv_trap_entry(void)
{
    __asm__ volatile("la sp, __stack_top\n\t"
                     "j stow__rv_default_trap");
}

__attribute__((weak)) void stow_riscv_hart_main(uint32_t hart) { (void)hart; }

static void park(void)
{
    __asm__ volatile("csrci mstatus, 8" : : : "memory");
    for (;;) {
        __asm__ volatile("wfi" : : : "memory");
    }
}

/* stow__rv_reset, stow__rv_secondary and stow__rv_default_trap (and the entry above) are reached
 * from assembly only, where link-time optimisation cannot see the reference:
 * "used" keeps them. */
__attribute__((used)) void stow__rv_default_trap(void)
{
    stow_port_exit(STOW_RV_TRAP_STATUS);
    for (;;) {
    }
}

__attribute__((used)) void stow__rv_reset(void)
{
    /* volatile: keeps GCC from turning these loops into memcpy/memset calls,
     * which a -nostdlib image does not have. */
    volatile uint32_t *dst;
    const volatile uint32_t *src;
    int status;

    for (dst = __data_start, src = __data_load; dst < __data_end; dst++, src++) {
        *dst = *src;
    }
    for (dst = __bss_start; dst < __bss_end; dst++) {
        *dst = 0u;
    }
#ifdef STOW_TEST_DIRTY_SECTIONS
    {
        volatile uint8_t *p;
        for (p = __stow_start; p < __stow_end; p++) {
            *p = 0xA5u;
        }
    }
#endif

    /* As a Cortex-M leaves reset: interrupts enabled globally (mstatus.MIE), no
     * source enabled (mie = 0), so that the critical sections have something to
     * mask and a test can enable the one source it uses. */
    __asm__ volatile("csrw mie, zero\n\tcsrsi mstatus, 8" : : : "memory");

    __asm__ volatile("fence rw, w" : : : "memory");
    stow__rv_go = STOW_RV_GO;
    status = main();
    stow_port_exit(status);
    for (;;) {
    }
}

__attribute__((used)) void stow__rv_secondary(uint32_t hart)
{
    if (STOW_RV_HARTS > 1 && hart < STOW_RV_HARTS) {
        while (stow__rv_go != STOW_RV_GO) {
        }
        __asm__ volatile("fence r, rw\n\tcsrw mie, zero\n\tcsrsi mstatus, 8" : : : "memory");
        stow_riscv_hart_main(hart);
    }
    park();
}
