/* SPDX-License-Identifier: MIT */
/* port/riscv/smp.c - critical sections and container locks for RISC-V chips
 * whose harts share stow's containers, in machine mode, with the A extension:
 * see stow/port.h and docs/multicore.md. Link it with port.c built with
 * -DSTOW_PORT_SMP, which then leaves its one-hart versions out.
 *
 *   lock       mstatus.MIE cleared (its old value saved, so pairs nest), then
 *              the container's word taken from 0 to this hart's mhartid plus
 *              one by LR/SC: lr.w.aq reads it, sc.w writes it if it was 0 (the
 *              aq bit keeps the protected accesses after the take); unlock
 *              stores 0 after a fence rw,w (release), then sets MIE again if it
 *              was set. A word that already holds this hart's number is held by
 *              this hart, which has interrupts masked: the pair nests, and its
 *              unlock leaves the word alone. A word held by another hart is
 *              waited for with MIE as the caller had it, reading the word until
 *              it is 0, and masked again before the next try, so a long wait
 *              does not hold this hart's interrupts off.
 *   critical   the same lock on one word of this file's: one hart at a time,
 *              interrupts masked on it (semihosting and the test images rely on
 *              it).
 *   core       stow_port_core(): mhartid. Hart numbers need not start at 0 or
 *              be dense; the word holds the number plus one.
 *
 * State returned by lock: the caller's MIE bit (bit 3), and TOOK when this call
 * took the word (so its unlock releases it).
 *
 * Needs the A extension (-march=rv32imac, rv32emac...) and Zicsr (see port.c).
 */
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"

#if !defined(__riscv_atomic)
#error "port/riscv/smp.c needs the A extension (LR/SC)"
#endif

#define MSTATUS_MIE 0x8u
#define TOOK 0x100u

uint32_t stow_port_core(void)
{
    uint32_t hart;
    __asm__ volatile("csrr %0, mhartid" : "=r"(hart));
    return hart;
}

static inline uint32_t mask(void)
{
    uint32_t mstatus;
    __asm__ volatile("csrrci %0, mstatus, %1" : "=r"(mstatus) : "i"(MSTATUS_MIE) : "memory");
    return mstatus & MSTATUS_MIE;
}

static inline void restore(uint32_t mie)
{
    if (mie != 0u) {
        __asm__ volatile("csrsi mstatus, %0" : : "i"(MSTATUS_MIE) : "memory");
    }
}

/* One try: takes *word from 0 to me (acquire) and returns 0, or returns what it
 * holds and leaves it. */
static inline uint32_t try_take(uint32_t *word, uint32_t me)
{
    uint32_t seen;
    uint32_t failed;
    __asm__ volatile("1:\n\t"
                     "lr.w.aq %0, (%2)\n\t"
                     "bnez %0, 2f\n\t"
                     "sc.w %1, %3, (%2)\n\t"
                     "bnez %1, 1b\n"
                     "2:"
                     : "=&r"(seen), "=&r"(failed)
                     : "r"(word), "r"(me)
                     : "memory");
    return seen;
}

uint32_t stow_port_lock(uint32_t *word)
{
    uint32_t me = stow_port_core() + 1u;
    for (;;) {
        uint32_t mie = mask();
        uint32_t seen = try_take(word, me);
        if (seen == 0u) {
            return mie | TOOK;
        }
        if (seen == me) {
            return mie;
        }
        restore(mie);
        while (*(volatile uint32_t *)word != 0u) {
        }
    }
}

void stow_port_unlock(uint32_t *word, uint32_t state)
{
    if ((state & TOOK) != 0u) {
        __asm__ volatile("fence rw, w" ::: "memory");
        *(volatile uint32_t *)word = 0u;
    }
    restore(state & MSTATUS_MIE);
}

/* The critical section's word: every hart's stow_port_critical_enter() takes it. */
static uint32_t critical_word;

uint32_t stow_port_critical_enter(void) { return stow_port_lock(&critical_word); }

void stow_port_critical_exit(uint32_t state) { stow_port_unlock(&critical_word, state); }
