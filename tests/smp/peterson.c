/* SPDX-License-Identifier: MIT */
/* tests/smp/peterson.c - the chip lock of the test images that run
 * port/cortex-m/smp.c's ARMv6-M build on the two cores of MPS2 AN521: the
 * SSE-200 has no hardware spinlock (RP2040 and RP2350 have SIO spinlocks,
 * STM32H7 a semaphore unit), so this stands in for one. Peterson's algorithm
 * for two cores, in plain loads and stores (no exclusives: the image is ARMv6-M
 * code), with a DMB wherever a store must be seen before the next load: that is
 * what makes it correct on a core whose memory accesses may be reordered, and
 * QEMU turns each DMB into a host barrier.
 *
 * stow_port_chip_lock() and _unlock() are called by the port only, with
 * interrupts masked, never nested (stow/port.h): chip_locks counts the takes, so
 * that the test can show the hook was used (stow_test_chip_locks()), and a take
 * while this core already holds the lock fails the run. */
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"

#define CPU_IDENTITY (*(volatile uint32_t *)(uintptr_t)0x4001F000u)

uint32_t stow_test_chip_locks(void);

static volatile uint32_t wants[2];
static volatile uint32_t turn;
static volatile uint32_t chip_locks;

void stow_port_chip_lock(void)
{
    uint32_t me = CPU_IDENTITY & 1u;
    uint32_t other = me ^ 1u;
    if (wants[me] != 0u) {
        stow_port_write("FAIL the chip lock was taken twice by one core\n", 47u);
        stow_port_exit(1);
    }
    wants[me] = 1u;
    __asm__ volatile("dmb" ::: "memory");
    turn = other;
    __asm__ volatile("dmb" ::: "memory");
    while (wants[other] != 0u && turn == other) {
    }
    __asm__ volatile("dmb" ::: "memory");
    chip_locks = chip_locks + 1u;
}

void stow_port_chip_unlock(void)
{
    __asm__ volatile("dmb" ::: "memory");
    wants[CPU_IDENTITY & 1u] = 0u;
}

uint32_t stow_test_chip_locks(void) { return chip_locks; }
