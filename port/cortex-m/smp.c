/* SPDX-License-Identifier: MIT */
/* port/cortex-m/smp.c - critical sections and container locks for Cortex-M chips
 * whose cores share stow's containers (RP2040, RP2350, STM32H7 dual-core,
 * MPS2 AN521...): see stow/port.h and docs/multicore.md. Link it with port.c
 * built with -DSTOW_PORT_SMP, which then leaves its one-core versions out.
 *
 *   lock       PRIMASK set (saved, so pairs nest), then the container's word
 *              taken from 0 to this core's number plus one (stow_port_core())
 *              by a compare-and-swap with acquire order; unlock stores 0 with
 *              release order, then restores PRIMASK. A word that already holds
 *              this core's number is held by this core, which has interrupts
 *              masked: the pair nests, and its unlock leaves the word alone.
 *              A word held by another core is waited for with PRIMASK as the
 *              caller had it, reading the word until it is 0, and masked again
 *              before the next try: a long wait does not hold this core's
 *              interrupts off (a handler that comes in may take the same word:
 *              the other core lets it go, then the handler, then this call).
 *   critical   the same lock on one word of this file's: one core at a time,
 *              interrupts masked on it (semihosting and the cycle counter of
 *              test images, and ARMv6-M's atomic pool calls with STOW_MULTICORE,
 *              rely on it).
 *
 * The compare-and-swap:
 *   ARMv7-M, ARMv8-M (mainline and baseline): LDREX, and STREX if the word is
 *   0; CLREX when it is not; a DMB after taking the word and before the store
 *   that releases it, so that the protected accesses stay inside on every core.
 *   ARMv6-M (no exclusives), or any core built with -DSTOW_PORT_CHIP_LOCK=1:
 *   the chip's own lock (stow_port_chip_lock()/unlock(), stow/port.h) held
 *   around a plain read-compare-write of the word, DMBs as above. The release
 *   is a plain store, not under the chip lock: an aligned word store is seen
 *   whole, as 0 or as the owner's number.
 *
 * State returned by lock: the caller's PRIMASK in bit 0, and TOOK when this call
 * took the word (so its unlock releases it).
 *
 * Cost, without contention (make bench, bench/multicore.c): see
 * docs/multicore.md.
 */
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"

#if !defined(__ARM_ARCH_PROFILE) || __ARM_ARCH_PROFILE != 'M'
#error "port/cortex-m/smp.c is for M-profile cores"
#endif

#ifndef STOW_PORT_CHIP_LOCK
#if defined(__ARM_FEATURE_LDREX) && (__ARM_FEATURE_LDREX & 4)
#define STOW_PORT_CHIP_LOCK 0
#else
#define STOW_PORT_CHIP_LOCK 1
#endif
#endif

#define TOOK 0x100u
#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

#ifdef STOW_PORT_CORE_REG
uint32_t stow_port_core(void) { return REG32(STOW_PORT_CORE_REG); }
#endif

#ifdef STOW_PORT_SPINLOCK_REG
void stow_port_chip_lock(void)
{
    while (REG32(STOW_PORT_SPINLOCK_REG) == 0u) {
    }
    __asm__ volatile("dmb" ::: "memory");
}

void stow_port_chip_unlock(void)
{
    __asm__ volatile("dmb" ::: "memory");
    REG32(STOW_PORT_SPINLOCK_REG) = 1u;
}
#endif

static inline uint32_t mask(void)
{
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
    return primask;
}

static inline void restore(uint32_t primask) { __asm__ volatile("msr primask, %0" : : "r"(primask) : "memory"); }

/* One try: takes *word from 0 to me (acquire) and returns 0, or returns what it
 * holds and leaves it. */
static inline uint32_t try_take(uint32_t *word, uint32_t me)
{
    uint32_t seen;
#if STOW_PORT_CHIP_LOCK
    stow_port_chip_lock();
    seen = *(volatile uint32_t *)word;
    if (seen == 0u) {
        *(volatile uint32_t *)word = me;
    }
    stow_port_chip_unlock();
#else
    uint32_t failed;
    do {
        __asm__ volatile("ldrex %0, [%1]" : "=r"(seen) : "r"(word) : "memory");
        if (seen != 0u) {
            __asm__ volatile("clrex" ::: "memory");
            return seen;
        }
        __asm__ volatile("strex %0, %2, [%1]" : "=&r"(failed) : "r"(word), "r"(me) : "memory");
        /* cppcheck-suppress uninitvar ; the STREX above writes it (cppcheck does not read asm outputs) */
    } while (failed != 0u);
#endif
    __asm__ volatile("dmb" ::: "memory");
    return seen;
}

uint32_t stow_port_lock(uint32_t *word)
{
    uint32_t me = stow_port_core() + 1u;
    for (;;) {
        uint32_t primask = mask();
        uint32_t seen = try_take(word, me);
        if (seen == 0u) {
            return primask | TOOK;
        }
        if (seen == me) {
            return primask;
        }
        restore(primask);
        while (*(volatile uint32_t *)word != 0u) {
        }
    }
}

void stow_port_unlock(uint32_t *word, uint32_t state)
{
    if ((state & TOOK) != 0u) {
        __asm__ volatile("dmb" ::: "memory");
        *(volatile uint32_t *)word = 0u;
    }
    restore(state & 1u);
}

/* The critical section's word: every core's stow_port_critical_enter() takes it. */
static uint32_t critical_word;

uint32_t stow_port_critical_enter(void) { return stow_port_lock(&critical_word); }

void stow_port_critical_exit(uint32_t state) { stow_port_unlock(&critical_word, state); }
