/* SPDX-License-Identifier: MIT */
/* port/riscv/trap.c - trap reporter of the RISC-V port, for test, benchmark and
 * demo images.
 *
 * targets/riscv/startup.c points mtvec (direct mode) at stow_riscv_trap_entry.
 *
 * Exceptions print their cause by name with mcause, mepc, mtval and the sp of
 * the trapping code, and end the program with status 2 through
 * stow_port_exit(): a misaligned access, an illegal instruction or an access
 * fault fails the run instead of passing unnoticed.
 *
 * Interrupts go to stow_riscv_software_interrupt, stow_riscv_timer_interrupt or
 * stow_riscv_external_interrupt (machine level; the entry saves and restores
 * the caller-saved registers and returns with mret). Each is weak here and
 * reports an unexpected interrupt, with status 2; a test defines the one it
 * uses, and clears the source before returning.
 *
 * Breakpoint (cause 3) is what a failed -fsanitize=alignment check looks like in
 * the test images (they are built with -fsanitize-undefined-trap-on-error, so
 * the check ends in an ebreak): the report says so.
 *
 * A second trap while reporting (a semihosting call nobody serves traps as a
 * breakpoint) stops the core quietly instead of looping.
 */
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"

#define STOW_RV_TRAP_STATUS 2

void stow__rv_trap_report(uint32_t old_sp);
void stow__rv_interrupt(uint32_t mcause);
void stow_riscv_trap_entry(void);
void stow_riscv_software_interrupt(void);
void stow_riscv_timer_interrupt(void);
void stow_riscv_external_interrupt(void);

/* The caller-saved registers an interrupt must preserve: ra, t0-t6, a0-a7 (the
 * E base has no t3-t6, a6, a7). 64 bytes keeps sp 16-byte aligned. */
#if defined(__riscv_32e)
#define STOW_RV_SAVE_HI(op) ""
#else
#define STOW_RV_SAVE_HI(op)                                                        \
    op " a6, 40(sp)\n\t" op " a7, 44(sp)\n\t" op " t3, 48(sp)\n\t" op " t4, 52(sp)\n\t" \
    op " t5, 56(sp)\n\t" op " t6, 60(sp)\n\t"
#endif
#define STOW_RV_SAVE(op)                                                           \
    op " ra, 0(sp)\n\t" op " t0, 4(sp)\n\t" op " t1, 8(sp)\n\t" op " t2, 12(sp)\n\t"   \
    op " a0, 16(sp)\n\t" op " a1, 20(sp)\n\t" op " a2, 24(sp)\n\t" op " a3, 28(sp)\n\t" \
    op " a4, 32(sp)\n\t" op " a5, 36(sp)\n\t" STOW_RV_SAVE_HI(op)

/* mtvec needs a 4-byte aligned base (with the C extension functions are only
 * 2-byte aligned), hence aligned(4); naked, because the entry saves the
 * registers itself. An exception does not return: the report gets the old sp
 * and a fresh stack (the trap may have come from a stack overflow).
 *
 * A C function with an assembly body rather than top-level assembly: under
 * -flto every top-level asm statement of the program lands in one assembly
 * file, where this strong definition would meet startup.c's weak stand-in as a
 * second definition of the same label ("symbol already defined"). As a C
 * function it takes part in the link's ordinary weak/strong resolution, LTO or
 * not. The C halves it jumps to are reached from assembly only, where LTO
 * cannot see the reference (nor _start's reference to the entry): "used" keeps
 * them, under their own names. */
__attribute__((naked, aligned(4), used)) void stow_riscv_trap_entry(void)
{
    __asm__ volatile("addi sp, sp, -64\n\t"
                     STOW_RV_SAVE("sw")
                     "csrr a0, mcause\n\t"
                     "bltz a0, 1f\n\t"
                     "addi a0, sp, 64\n\t"
                     "la sp, __stack_top\n\t"
                     "j stow__rv_trap_report\n"
                     "1:\n\t"
                     "call stow__rv_interrupt\n\t"
                     STOW_RV_SAVE("lw")
                     "addi sp, sp, 64\n\t"
                     "mret");
}

static void write_str(const char *s)
{
    size_t n = 0u;
    while (s[n] != '\0') {
        n++;
    }
    stow_port_write(s, n);
}

static void write_hex(uint32_t value)
{
    static const char digits[] = "0123456789abcdef";
    char buf[10];
    unsigned i;
    buf[0] = '0';
    buf[1] = 'x';
    for (i = 0u; i < 8u; i++) {
        buf[9u - i] = digits[value & 0xFu];
        value >>= 4;
    }
    stow_port_write(buf, sizeof buf);
}

static void write_dec(uint32_t value)
{
    char buf[10];
    size_t pos = sizeof buf;
    do {
        buf[--pos] = (char)('0' + (value % 10u));
        value /= 10u;
    } while (value != 0u);
    stow_port_write(&buf[pos], sizeof buf - pos);
}

static void write_reg(const char *name, uint32_t value)
{
    write_str(name);
    write_hex(value);
}

static const char *exception_name(uint32_t code)
{
    switch (code) {
    case 0u: return "instruction address misaligned";
    case 1u: return "instruction access fault";
    case 2u: return "illegal instruction";
    case 3u: return "breakpoint (in a test image: a -fsanitize=alignment check failed)";
    case 4u: return "load address misaligned";
    case 5u: return "load access fault";
    case 6u: return "store/AMO address misaligned";
    case 7u: return "store/AMO access fault";
    case 8u: return "environment call from U-mode";
    case 11u: return "environment call from M-mode";
    case 12u: return "instruction page fault";
    case 13u: return "load page fault";
    case 15u: return "store/AMO page fault";
    default: return "exception";
    }
}

/* cppcheck-suppress misra-c2012-8.9 ; MISRA D12 */
static volatile uint32_t reporting;

static void unexpected_interrupt(uint32_t code)
{
    write_str("\nstow: unexpected interrupt ");
    write_dec(code);
    write_str("\n");
    stow_port_exit(STOW_RV_TRAP_STATUS);
}

__attribute__((weak)) void stow_riscv_software_interrupt(void) { unexpected_interrupt(3u); }
__attribute__((weak)) void stow_riscv_timer_interrupt(void) { unexpected_interrupt(7u); }
__attribute__((weak)) void stow_riscv_external_interrupt(void) { unexpected_interrupt(11u); }

__attribute__((used)) void stow__rv_interrupt(uint32_t mcause)
{
    switch (mcause & 0x7FFFFFFFu) {
    case 3u: stow_riscv_software_interrupt(); break;
    case 7u: stow_riscv_timer_interrupt(); break;
    case 11u: stow_riscv_external_interrupt(); break;
    default: unexpected_interrupt(mcause & 0x7FFFFFFFu); break;
    }
}

__attribute__((used)) void stow__rv_trap_report(uint32_t old_sp)
{
    uint32_t mcause;
    uint32_t mepc;
    uint32_t mtval;
    __asm__ volatile("csrr %0, mcause" : "=r"(mcause));
    __asm__ volatile("csrr %0, mepc" : "=r"(mepc));
    __asm__ volatile("csrr %0, mtval" : "=r"(mtval));
    if (reporting != 0u) {
        for (;;) {
            __asm__ volatile("wfi" : : : "memory");
        }
    }
    reporting = 1u;

    write_str("\nstow: trap: ");
    write_str(exception_name(mcause));
    write_str(" (cause ");
    write_dec(mcause);
    write_str(")\n");
    write_reg("  mcause ", mcause);
    write_reg("  mepc ", mepc);
    write_reg("  mtval ", mtval);
    write_reg("  sp ", old_sp);
    write_str("\n");
    stow_port_exit(STOW_RV_TRAP_STATUS);
}
