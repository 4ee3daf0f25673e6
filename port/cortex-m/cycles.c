/* SPDX-License-Identifier: MIT */
/* port/cortex-m/cycles.c - stow_port_cycles() for test and benchmark images.
 *
 * DWT CYCCNT when the core has one and it really counts; else SysTick on the
 * processor clock (reload 0xFFFFFF), widened to 32 bits by counting its wraps in
 * SysTick_Handler, which this file defines. That handler would collide with a
 * HAL's or an RTOS's tick, which is why the library port (port.c) leaves it out
 * and only test and benchmark images link this file.
 *
 * Architecture is picked with the compiler's __ARM_ARCH_* macros. On v6-M and
 * v8-M baseline the DWT registers are never touched (no CYCCNT there).
 */
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"

#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || \
    defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
#define STOW_CM_HAVE_DWT 1
#else
#define STOW_CM_HAVE_DWT 0 /* v6-M, v8-M baseline: no cycle counter */
#endif

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* System control space. */
#define SCB_ICSR          REG32(0xE000ED04u)
#define ICSR_PENDSTSET    (1u << 26)
#define SYST_CSR          REG32(0xE000E010u)
#define SYST_RVR          REG32(0xE000E014u)
#define SYST_CVR          REG32(0xE000E018u)
#define SYST_CSR_ENABLE   (1u << 0)
#define SYST_CSR_TICKINT  (1u << 1)
#define SYST_CSR_CLKSRC   (1u << 2) /* 1 = processor clock */
#define SYST_MAX          0x00FFFFFFu

#if STOW_CM_HAVE_DWT
#define DEMCR             REG32(0xE000EDFCu)
#define DEMCR_TRCENA      (1u << 24)
#define DWT_CTRL          REG32(0xE0001000u)
#define DWT_CTRL_CYCCNTENA (1u << 0)
#define DWT_CTRL_NOCYCCNT (1u << 25)
#define DWT_CYCCNT        REG32(0xE0001004u)
#define DWT_LAR           REG32(0xE0001FB0u)
#define DWT_LAR_KEY       0xC5ACCE55u
#endif

enum { CLOCK_UNSET = 0, CLOCK_DWT = 1, CLOCK_SYSTICK = 2 };

static volatile uint32_t clock_kind;    /* CLOCK_* */
static volatile uint32_t systick_wraps; /* SysTick periods of 2^24 ticks elapsed */

/* Counts SysTick wraps. Wired to exception 15 by the startup vector table. */
void SysTick_Handler(void);
void SysTick_Handler(void)
{
    systick_wraps = systick_wraps + 1u;
}

#if STOW_CM_HAVE_DWT
/* Enables CYCCNT and reports whether it advances (QEMU implements no DWT: it
 * reads as zero, so it never does). */
static int dwt_counts(void)
{
    uint32_t first;
    uint32_t spin;
    DEMCR = DEMCR | DEMCR_TRCENA;
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
    /* Cortex-M7 locks its DWT against software writes until this key is
     * written; cores without the lock ignore the write. */
    DWT_LAR = DWT_LAR_KEY;
#endif
    if ((DWT_CTRL & DWT_CTRL_NOCYCCNT) != 0u) {
        return 0;
    }
    DWT_CTRL = DWT_CTRL | DWT_CTRL_CYCCNTENA;
    first = DWT_CYCCNT;
    for (spin = 0u; spin < 16u; spin++) {
        __asm__ volatile("nop");
    }
    return DWT_CYCCNT != first;
}
#endif

static void clock_start(void)
{
    uint32_t spin;
#if STOW_CM_HAVE_DWT
    if (dwt_counts() != 0) {
        clock_kind = CLOCK_DWT;
        return;
    }
#endif
    SYST_CSR = 0u;
    SYST_RVR = SYST_MAX;
    SYST_CVR = 0u; /* any write clears the count and COUNTFLAG */
    systick_wraps = 0u;
    SYST_CSR = SYST_CSR_CLKSRC | SYST_CSR_TICKINT | SYST_CSR_ENABLE;
    /* The count stays 0 until the first reload: one clock on silicon, but
     * under QEMU without -icount until its main loop gets round to the timer.
     * Wait for it (bounded, in case SysTick has no clock), so that the first
     * reading is not taken for a wrap that has not been signalled yet. */
    for (spin = 0u; spin < 0x100000u && SYST_CVR == 0u; spin++) {
    }
    clock_kind = CLOCK_SYSTICK;
}

uint32_t stow_port_cycles(void)
{
    uint32_t state;
    uint32_t wraps;
    uint32_t count;
    uint32_t kind = clock_kind;
#if STOW_CM_HAVE_DWT
    if (kind == CLOCK_DWT) {
        return DWT_CYCCNT;
    }
#endif
    state = stow_port_critical_enter();
    if (kind == CLOCK_UNSET) {
        kind = clock_kind; /* an interrupt may have started it meanwhile */
        if (kind == CLOCK_UNSET) {
            clock_start();
            /* cppcheck-suppress unreadVariable ; read below on cores with a DWT (not on v6-M, v8-M baseline) */
            kind = clock_kind;
        }
#if STOW_CM_HAVE_DWT
        if (kind == CLOCK_DWT) {
            stow_port_critical_exit(state);
            return DWT_CYCCNT;
        }
#endif
    }
    /* SysTick counts down 0xFFFFFF..1, 0, and pends its exception when it
     * reaches 0 (not when it reloads), so a period is measured from the 0:
     * ticks into it = (2^24 - count) mod 2^24.
     * With interrupts masked the handler cannot count a wrap, but the wrap
     * shows as PENDSTSET; if it is pending it happened before or after the
     * first read of the count, so re-read the count, now surely from after
     * the wrap.
     * A count of 0 with nothing pending is a wrap not signalled yet: QEMU
     * shows an expired SysTick as 0 until its main loop reloads it and pends
     * the exception. (On silicon the 0 lasts one clock and is pended at once,
     * and the handler needs longer than that to run and clear it.) */
    count = SYST_CVR;
    wraps = systick_wraps;
    if ((SCB_ICSR & ICSR_PENDSTSET) != 0u) {
        count = SYST_CVR;
        wraps += 1u;
    } else if (count == 0u) {
        wraps += 1u;
    } else {
        /* no wrap pending: count and wraps agree */
    }
    stow_port_critical_exit(state);
    return (wraps << 24) | ((0u - count) & SYST_MAX);
}
