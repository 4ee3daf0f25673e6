/* SPDX-License-Identifier: MIT */
/* tests/smp/port.c - the multi-core ports' lock and critical section, one call at
 * a time, against what stow/port.h promises: port/riscv/smp.c on RISC-V virt,
 * port/cortex-m/smp.c on Cortex-M4 and M33 (LDREX/STREX) and on Cortex-M0 (the
 * chip lock: a simulated spinlock register, below). Concurrency itself is
 * tests/smp/stress.c.
 *
 *   - lock() masks interrupts and puts this core's number plus one in the word;
 *     unlock() puts 0 back and restores the interrupt state the caller had;
 *   - pairs nest: a second lock() of a word this core holds leaves it held, and
 *     its unlock() leaves it held and interrupts masked; the outer unlock()
 *     releases it;
 *   - a caller that has interrupts masked already gets them back masked;
 *   - two words are two locks; the critical section is a lock of its own that
 *     nests with them;
 *   - a word another core holds is waited for, with interrupts as the caller had
 *     them: the word is set to another core's number, and a timer interrupt
 *     clears it later (standing in for that core's unlock). A port that waited
 *     with interrupts masked would never see the word cleared (the run would
 *     time out); lock() must return only after the handler ran, holding the
 *     word for this core;
 *   - stow_port_core() is this core's number.
 * Chip lock (ARMv6-M): stow_port_chip_lock() and _unlock() below simulate a
 * hardware spinlock register (RP2040's SIO spinlock: a read takes it if free);
 * they check that the port takes it with interrupts masked, never twice, always
 * releases it, and they count the takes. To make the port wait there too, the
 * register reads "taken" (by the other core) for the first few reads after the
 * test asks for it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"
#include "stow/report.h"

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

static uint32_t passed;
static uint32_t failed;

static void result(bool ok, const char *what)
{
    stow_print(ok ? "ok   " : "FAIL ");
    stow_print(what);
    stow_print("\n");
    if (ok) {
        passed++;
    } else {
        failed++;
    }
}

/* ---- the platform: interrupt state, a one-shot timer, the core's number ---- */

#if defined(__riscv)
#define CLINT_MTIMECMP_LO REG32(0x02004000u)
#define CLINT_MTIMECMP_HI REG32(0x02004004u)
#define CLINT_MTIME_LO REG32(0x0200BFF8u)
#define MIE_MTIE (UINT32_C(1) << 7)

static bool interrupts_enabled(void)
{
    uint32_t mstatus;
    __asm__ volatile("csrr %0, mstatus" : "=r"(mstatus));
    return (mstatus & 8u) != 0u;
}

static void mask_interrupts(void) { __asm__ volatile("csrci mstatus, 8" ::: "memory"); }
static void unmask_interrupts(void) { __asm__ volatile("csrsi mstatus, 8" ::: "memory"); }
static uint32_t expected_core(void)
{
    uint32_t hart;
    __asm__ volatile("csrr %0, mhartid" : "=r"(hart));
    return hart;
}

#ifdef SMP_TEST_ONE_CORE_PORT
/* The broken build links port.c alone, which has no core number. */
uint32_t stow_port_core(void) { return expected_core(); }
#endif

static void timer_once(uint32_t ticks)
{
    CLINT_MTIMECMP_HI = UINT32_MAX;
    CLINT_MTIMECMP_LO = CLINT_MTIME_LO + ticks; /* the run is far too short for mtime's low half to wrap */
    CLINT_MTIMECMP_HI = 0u;
    __asm__ volatile("csrs mie, %0" : : "r"(MIE_MTIE) : "memory");
}

static void timer_off(void) { __asm__ volatile("csrc mie, %0" : : "r"(MIE_MTIE) : "memory"); }

static void timer_fired(void);
void stow_riscv_timer_interrupt(void);
void stow_riscv_timer_interrupt(void)
{
    timer_off();
    timer_fired();
}
#else
#define SYST_CSR REG32(0xE000E010u)
#define SYST_RVR REG32(0xE000E014u)
#define SYST_CVR REG32(0xE000E018u)
#define SCB_ICSR REG32(0xE000ED04u)
#define ICSR_PENDSTCLR (UINT32_C(1) << 25)

static bool interrupts_enabled(void)
{
    uint32_t primask;
    __asm__ volatile("mrs %0, primask" : "=r"(primask));
    return (primask & 1u) == 0u;
}

static void mask_interrupts(void) { __asm__ volatile("cpsid i" ::: "memory"); }
static void unmask_interrupts(void) { __asm__ volatile("cpsie i" ::: "memory"); }

/* These one-core boards have no core number register: the firmware's own
 * stow_port_core() (stow/port.h) says 0. */
uint32_t stow_port_core(void) { return 0u; }
static uint32_t expected_core(void) { return 0u; }

static void timer_once(uint32_t ticks)
{
    SYST_CSR = 0u;
    SYST_RVR = ticks;
    SYST_CVR = 0u;
    SYST_CSR = 7u; /* enable, interrupt, core clock */
}

/* Stopped, and its pending interrupt cleared: under QEMU without -icount the
 * host may run the handler late enough for the counter to have run out again. */
static void timer_off(void)
{
    SYST_CSR = 0u;
    SCB_ICSR = ICSR_PENDSTCLR;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}

static void timer_fired(void);
void SysTick_Handler(void);
void SysTick_Handler(void)
{
    timer_off();
    timer_fired();
}
#endif

/* ---- the simulated chip spinlock (ARMv6-M build) --------------------------- */

#if defined(SMP_TEST_CHIP_LOCK)
static volatile uint32_t chip_held;
static volatile uint32_t chip_takes;
static volatile uint32_t chip_busy_reads; /* reads that find it taken by "the other core" */
static volatile uint32_t chip_misuse;

void stow_port_chip_lock(void)
{
    if (interrupts_enabled() || chip_held != 0u) {
        chip_misuse++;
    }
    while (chip_busy_reads != 0u) {
        chip_busy_reads = chip_busy_reads - 1u; /* one read of the register: taken */
    }
    chip_held = 1u;
    chip_takes++;
}

void stow_port_chip_unlock(void)
{
    if (chip_held == 0u || interrupts_enabled()) {
        chip_misuse++;
    }
    chip_held = 0u;
}
#endif

/* ---- the cases ------------------------------------------------------------------ */

static uint32_t word_a;
static uint32_t word_b;
static volatile uint32_t *release_at_interrupt;
static volatile uint32_t fired;

static void timer_fired(void)
{
    fired = fired + 1u;
    if (release_at_interrupt != NULL) {
        *release_at_interrupt = 0u; /* the other core's unlock */
        release_at_interrupt = NULL;
    }
}

static void lock_masks_and_marks_the_word(void)
{
    uint32_t me = stow_port_core() + 1u;
    uint32_t s = stow_port_lock(&word_a);
    bool held = word_a == me && !interrupts_enabled();
    stow_port_unlock(&word_a, s);
    result(held && word_a == 0u && interrupts_enabled(),
           "lock() masks and puts core + 1 in the word; unlock() clears it and unmasks");
}

static void pairs_nest(void)
{
    uint32_t me = stow_port_core() + 1u;
    uint32_t outer = stow_port_lock(&word_a);
    uint32_t inner = stow_port_lock(&word_a);
    stow_port_unlock(&word_a, inner);
    bool still = word_a == me && !interrupts_enabled();
    stow_port_unlock(&word_a, outer);
    result(still && word_a == 0u && interrupts_enabled(),
           "pairs nest: the inner unlock() leaves the word held and interrupts masked");
}

static void masked_callers_stay_masked(void)
{
    mask_interrupts();
    uint32_t s = stow_port_lock(&word_a);
    stow_port_unlock(&word_a, s);
    bool masked = !interrupts_enabled();
    uint32_t c = stow_port_critical_enter();
    stow_port_critical_exit(c);
    masked = masked && !interrupts_enabled();
    unmask_interrupts();
    result(masked && word_a == 0u, "a caller with interrupts masked gets them back masked");
}

static void two_words_two_locks(void)
{
    uint32_t me = stow_port_core() + 1u;
    uint32_t sa = stow_port_lock(&word_a);
    uint32_t sb = stow_port_lock(&word_b);
    uint32_t sc = stow_port_critical_enter();
    uint32_t sa2 = stow_port_lock(&word_a);
    bool both = word_a == me && word_b == me;
    stow_port_unlock(&word_a, sa2);
    stow_port_critical_exit(sc);
    stow_port_unlock(&word_b, sb);
    bool a_only = word_a == me && word_b == 0u && !interrupts_enabled();
    stow_port_unlock(&word_a, sa);
    result(both && a_only && word_a == 0u && interrupts_enabled(),
           "two words are two locks, and the critical section nests with both");
}

static void waits_for_another_core_with_interrupts_on(void)
{
    uint32_t me = stow_port_core() + 1u;
    word_a = me + 1u; /* held by another core */
    fired = 0u;
    release_at_interrupt = &word_a;
#if defined(SMP_TEST_CHIP_LOCK)
    chip_busy_reads = 5u;
#endif
    timer_once(20000u);
    uint32_t s = stow_port_lock(&word_a);
    bool waited = fired != 0u && word_a == me;
    stow_port_unlock(&word_a, s);
    result(waited && word_a == 0u && interrupts_enabled(),
           "a word another core holds is waited for with interrupts on, then taken");
}

static void core_number(void)
{
    result(stow_port_core() == expected_core(), "stow_port_core() is this core's number");
}

int main(void)
{
    stow_print("smp port: lock, unlock and critical section of the multi-core port\n");
    lock_masks_and_marks_the_word();
    pairs_nest();
    masked_callers_stay_masked();
    two_words_two_locks();
    waits_for_another_core_with_interrupts_on();
    core_number();
#if defined(SMP_TEST_CHIP_LOCK)
    result(chip_takes >= 10u && chip_misuse == 0u && chip_held == 0u && chip_busy_reads == 0u,
           "the chip lock was taken for every word, masked, never twice, always given back");
#endif
    stow_print_u(passed, 0u);
    stow_print(" passed, ");
    stow_print_u(failed, 0u);
    stow_print(" failed\n");
    return failed == 0u ? 0 : 1;
}
