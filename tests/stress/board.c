/* SPDX-License-Identifier: MIT */
/* tests/stress/board.c - a timer interrupt and the main loop allocate and free
 * blocks of one pool at once, under QEMU on Cortex-M0, M3, M4 and M33, and on
 * RISC-V virt (rv32imac, whose build is the port's critical section).
 *
 * SysTick (this image's own handler, on the core clock; on RISC-V the CLINT's
 * machine timer) fires after a
 * pseudo-random 40 to 760 ticks, re-drawn at every interrupt; run under QEMU
 * with -icount, where time is counted in instructions, that is every few tens to
 * several hundreds of instructions, at any instruction, inside the pool's calls
 * too. Each interrupt takes or gives back one or two blocks; the main loop does the
 * same without pause, until both together have made STRESS_OPS calls.
 *
 * What would show a broken pool:
 *   - every block handed out is checked to be a block of the pool, and recorded
 *     in owner[] as the main loop's or the handler's; a block handed out while
 *     owner[] says someone holds it is a double hand-out. The main loop updates
 *     owner[] with interrupts masked (the test's own bookkeeping; the pool calls
 *     run unmasked), the handler needs no masking: nothing preempts it;
 *   - every block carries its holder's tag in all its words, checked before it
 *     is given back: a block written by another holder shows;
 *   - at the end, with the timer stopped and everything given back: used() is 0,
 *     fails counts what came back NULL, check() passes, and the pool hands out
 *     every block exactly once more, then NULL.
 * The first failure stops the run. Built with -DSTRESS_PLAIN the image uses
 * stow_pool_alloc()/stow_pool_free() instead, which are not safe here: that build
 * must fail (tests/stress/rules.mk runs it and expects so).
 */
#include <stddef.h>
#include <stdint.h>

#include "stow/pool.h"
#include "stow/port.h"
#include "stow/report.h"
#include "../verdict.h"
#include "../xorshift.h"

#ifdef STRESS_PLAIN
#define POOL_ALLOC stow_pool_alloc
#define POOL_FREE stow_pool_free
#define CALLS "stow_pool_alloc/free (plain: expected to fail)"
#else
#define POOL_ALLOC stow_pool_alloc_atomic
#define POOL_FREE stow_pool_free_atomic
#define CALLS "stow_pool_alloc_atomic/free_atomic"
#endif

#ifndef STRESS_OPS
#define STRESS_OPS 1000000u
#endif
/* The handler must have run at least this often (one per 3 to 6 calls is what
 * the cadence gives): a timer that fired rarely would leave little tested. */
#define MIN_INTERRUPTS (STRESS_OPS / 20u)

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* Timer ticks from one interrupt to the next: 0.5 to 0.8 per instruction on
 * Cortex-M (shift 5), 1.28 on RISC-V virt (shift 7). */
#ifndef PERIOD_MIN
#define PERIOD_MIN 40u
#endif
#ifndef PERIOD_MAX
#define PERIOD_MAX 760u
#endif

/* The two together can hold more blocks than there are: NULL happens too. */
#define CAPACITY 12u
#define MAIN_MAX 12u
#define ISR_MAX 8u
#define WORDS 4u

enum { NOBODY = 0, MAIN = 1, HANDLER = 2 };

struct block {
    uint32_t w[WORDS];
};

STOW_POOL_DEFINE_STATIC(shared, struct block, CAPACITY);

static volatile uint8_t owner[CAPACITY];
static volatile const char *failure; /* the first thing that went wrong, or NULL */
static volatile uint32_t interrupts;
static volatile uint32_t isr_calls;
static volatile uint32_t isr_nulls;
static uint32_t main_calls;
static uint32_t main_nulls;

struct holder {
    struct block *held[MAIN_MAX];
    uint32_t count;
    uint32_t serial;
    uint32_t rand;
    uint32_t who;
};
static struct holder main_side = {{NULL}, 0u, 0u, 0x2545F491u, MAIN};
static struct holder isr_side = {{NULL}, 0u, 0u, 0x9E3779B9u, HANDLER};

static void fail(const char *what)
{
    if (failure == NULL) {
        failure = what;
    }
}

/* Masks interrupts around the test's bookkeeping in the main loop only (inline:
 * the main loop's share of the run is mostly the pool's calls). */
static inline uint32_t mask(const struct holder *h)
{
    uint32_t state = 0u;
    if (h->who == MAIN) {
#if defined(__riscv)
        __asm__ volatile("csrrci %0, mstatus, 8" : "=r"(state) : : "memory");
#else
        __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(state) : : "memory");
#endif
    }
    return state;
}

static inline void unmask(const struct holder *h, uint32_t state)
{
    if (h->who == MAIN) {
#if defined(__riscv)
        __asm__ volatile("csrs mstatus, %0" : : "r"(state & 8u) : "memory");
#else
        __asm__ volatile("msr primask, %0" : : "r"(state) : "memory");
#endif
    }
}

/* A number below n (n < 2^16) from the top bits of r, without a division (none
 * on Cortex-M0). */
static inline uint32_t below(uint32_t r, uint32_t n) { return ((r >> 16) * n) >> 16; }

static uint32_t tag_of(struct holder *h, uint32_t i) { return (h->who << 28) ^ (h->serial << 8) ^ i; }

static void take(struct holder *h, uint32_t max)
{
    if (h->count == max) {
        return;
    }
    struct block *b = (struct block *)POOL_ALLOC(&shared);
    if (h->who == MAIN) {
        main_calls++;
    } else {
        isr_calls = isr_calls + 1u;
    }
    if (b == NULL) {
        if (h->who == MAIN) {
            main_nulls++;
        } else {
            isr_nulls = isr_nulls + 1u;
        }
        return;
    }
    uintptr_t offset = (uintptr_t)b - (uintptr_t)shared.base;
    if (offset >= CAPACITY * sizeof(struct block) || offset % sizeof(struct block) != 0u) {
        fail("the pool handed out a pointer that is not one of its blocks");
        return;
    }
    uint32_t i = (uint32_t)(offset / sizeof(struct block));
    uint32_t state = mask(h);
    if (owner[i] != NOBODY) {
        fail("a block was handed out while someone held it");
    }
    owner[i] = (uint8_t)h->who;
    unmask(h, state);
    h->serial++;
    uint32_t tag = tag_of(h, i);
    for (uint32_t k = 0; k < WORDS; k++) {
        b->w[k] = tag + k;
    }
    b->w[0] = h->serial; /* the word the free-list link overlays, written too */
    h->held[h->count++] = b;
}

static void give(struct holder *h, uint32_t k)
{
    struct block *b = h->held[k];
    uint32_t i = (uint32_t)(((uintptr_t)b - (uintptr_t)shared.base) / sizeof(struct block));
    uint32_t tag = (h->who << 28) ^ (b->w[0] << 8) ^ i;
    for (uint32_t w = 1; w < WORDS; w++) {
        if (b->w[w] != tag + w) {
            fail("a block was written by someone who did not hold it");
        }
    }
    uint32_t state = mask(h);
    if (owner[i] != h->who) {
        fail("the owner record of a held block changed");
    }
    owner[i] = NOBODY;
    unmask(h, state);
    h->held[k] = h->held[--h->count];
    POOL_FREE(&shared, b);
    if (h->who == MAIN) {
        main_calls++;
    } else {
        isr_calls = isr_calls + 1u;
    }
}

/* One step: take a block or give one back, give more often the more are held
 * (about 60% of max on average). */
static void step(struct holder *h, uint32_t max)
{
    uint32_t r = stow_test_xorshift(&h->rand);
    if (h->count != 0u && (r & 0xFFu) < 32u + 160u * h->count / max) {
        give(h, below(r, h->count));
    } else {
        take(h, max);
    }
}

/* The timer: SysTick on Cortex-M (core clock), the CLINT's machine timer on
 * RISC-V virt (10 MHz). timer_next(t) makes the interrupt after the one being
 * handled come t ticks later. */
#if defined(__riscv)
#define CLINT_MTIMECMP_LO REG32(0x02004000u)
#define CLINT_MTIMECMP_HI REG32(0x02004004u)
#define CLINT_MTIME_LO REG32(0x0200BFF8u)
#define CLINT_MTIME_HI REG32(0x0200BFFCu)
#define MIE_MTIE (UINT32_C(1) << 7)

static void timer_next(uint32_t ticks)
{
    uint32_t hi;
    uint32_t lo;
    do {
        hi = CLINT_MTIME_HI;
        lo = CLINT_MTIME_LO;
    } while (CLINT_MTIME_HI != hi);
    uint32_t at = lo + ticks;
    CLINT_MTIMECMP_HI = UINT32_MAX; /* no early match while the low half changes */
    CLINT_MTIMECMP_LO = at;
    CLINT_MTIMECMP_HI = hi + (at < lo ? 1u : 0u);
}

static void timer_start(void)
{
    timer_next(200u);
    __asm__ volatile("csrs mie, %0\n\tcsrsi mstatus, 8" : : "r"(MIE_MTIE) : "memory");
}

static void timer_stop(void)
{
    __asm__ volatile("csrc mie, %0" : : "r"(MIE_MTIE) : "memory");
}

void stow_riscv_timer_interrupt(void);
void stow_riscv_timer_interrupt(void)
#else
#define SYST_CSR REG32(0xE000E010u)
#define SYST_RVR REG32(0xE000E014u)
#define SYST_CVR REG32(0xE000E018u)
#define SYST_ENABLE_TICKINT_CORECLK 7u

static void timer_next(uint32_t ticks) { SYST_RVR = ticks; /* taken at the next reload */ }

static void timer_start(void)
{
    SYST_CSR = 0u;
    SYST_RVR = 200u;
    SYST_CVR = 0u;
    SYST_CSR = SYST_ENABLE_TICKINT_CORECLK;
}

static void timer_stop(void)
{
    SYST_CSR = 0u;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}

void SysTick_Handler(void);
void SysTick_Handler(void)
#endif
{
    interrupts = interrupts + 1u;
    uint32_t r = stow_test_xorshift(&isr_side.rand);
    timer_next(PERIOD_MIN + below(r, PERIOD_MAX - PERIOD_MIN + 1u));
    if (failure != NULL) {
        return; /* the pool is broken: stop using it, so that the report gets out */
    }
    for (uint32_t n = 1u + (r & 1u); n != 0u; n--) {
        step(&isr_side, ISR_MAX);
    }
}

int main(void)
{
    stow_print("stress: " CALLS ", a timer interrupt against the main loop, check level ");
    stow_print_u(STOW_CHECK_LEVEL, 0u);
    stow_print("\n");
    timer_start();
    while (failure == NULL && main_calls + isr_calls < STRESS_OPS) {
        step(&main_side, MAIN_MAX);
    }
    timer_stop();
    const char *what = (const char *)(uintptr_t)failure;
    stow_test_verdict(what == NULL,
                      what == NULL ? "no block handed out twice or written by another holder" : what);
    if (what != NULL) {
        return stow_test_verdicts();
    }
    stow_print("  calls: main ");
    stow_print_u(main_calls, 0u);
    stow_print(", handler ");
    stow_print_u(isr_calls, 0u);
    stow_print(" in ");
    stow_print_u(interrupts, 0u);
    stow_print(" interrupts; NULL returned: ");
    stow_print_u(main_nulls + isr_nulls, 0u);
    stow_print("\n");
    stow_test_verdict(main_calls + isr_calls >= STRESS_OPS, "at least 1,000,000 calls in all");
    stow_test_verdict(interrupts >= MIN_INTERRUPTS && isr_calls >= interrupts,
                      "the timer interrupt fired often, and called the pool each time");

    while (main_side.count != 0u) {
        give(&main_side, 0u);
    }
    while (isr_side.count != 0u) {
        give(&isr_side, 0u);
    }
    stow_stats_t s;
    stow_pool_stats(&shared, &s);
    stow_test_verdict(failure == NULL && s.used == 0u && stow_pool_used(&shared) == 0u,
                      "every block given back: used() is 0");
    stow_test_verdict(s.fails == main_nulls + isr_nulls, "fails counts every NULL returned");
    stow_test_verdict(s.peak <= CAPACITY, "peak within capacity");
    stow_test_verdict(stow_pool_check(&shared), "check() passes");

    uint32_t got = 0u;
    bool distinct = true;
    for (uint32_t i = 0; i < CAPACITY; i++) {
        struct block *b = (struct block *)POOL_ALLOC(&shared);
        if (b == NULL || !stow_pool_owns(&shared, b)) {
            break;
        }
        uint32_t k = (uint32_t)(((uintptr_t)b - (uintptr_t)shared.base) / sizeof(struct block));
        distinct = distinct && owner[k] == NOBODY;
        owner[k] = MAIN;
        got++;
    }
    stow_test_verdict(got == CAPACITY && distinct && POOL_ALLOC(&shared) == NULL,
                      "afterwards every block comes out exactly once, then NULL");
    return stow_test_verdicts();
}
