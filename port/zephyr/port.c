/* SPDX-License-Identifier: MIT */
/* port/zephyr/port.c - the stow port for Zephyr (see stow/port.h), built by the
 * Zephyr module (zephyr/CMakeLists.txt) when CONFIG_STOW_PORT_ZEPHYR=y.
 *
 *   critical   irq_lock() / irq_unlock(): the key irq_lock returns is the state
 *              stow hands back, so pairs nest. On SMP, irq_lock is a global
 *              lock as well.
 *   lock       the same irq_lock(): the container's word is not used. On one
 *              core it is all the ISR-safe calls need; on SMP irq_lock() is
 *              one global lock, so it is correct but containers do not get a
 *              lock each (a k_spinlock per container would need its own
 *              type in the container; the word is a uint32_t).
 *   assert     printk() of the message, then k_panic(): Zephyr's fatal error
 *              handling takes over (k_sys_fatal_error_handler() decides between
 *              halting and resetting; override it to choose).
 *   write      printk(): the console the application configured.
 *   exit       prints the status and halts through k_fatal_halt(). Only tests,
 *              benchmarks and demos call it.
 *   cycles     k_cycle_get_32(): the system's hardware cycle counter.
 *
 * write and exit are weak: define your own to send output elsewhere or to reset.
 */
#include <stddef.h>
#include <stdint.h>

#include <zephyr/fatal.h>
#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>

#include "stow/port.h"

uint32_t stow_port_critical_enter(void)
{
    return (uint32_t)irq_lock();
}

void stow_port_critical_exit(uint32_t state)
{
    irq_unlock((unsigned int)state);
}

uint32_t stow_port_lock(uint32_t *word)
{
    (void)word;
    return (uint32_t)irq_lock();
}

void stow_port_unlock(uint32_t *word, uint32_t state)
{
    (void)word;
    irq_unlock((unsigned int)state);
}

void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    printk("stow: contract violation: %s at %s:%d\n", expr != NULL ? expr : "?",
           file != NULL ? file : "?", line);
    k_panic();
}

__attribute__((weak)) void stow_port_write(const char *text, size_t len)
{
    /* Through "%s" in NUL-terminated pieces: every printk back end (cbprintf
     * nano included) prints those. */
    char piece[64];
    size_t n = 0u;
    if (text == NULL) {
        return;
    }
    while (len > 0u) {
        piece[n++] = *text++;
        len--;
        if (n == sizeof piece - 1u || len == 0u) {
            piece[n] = '\0';
            printk("%s", piece);
            n = 0u;
        }
    }
}

__attribute__((weak)) void stow_port_exit(int status)
{
    printk("stow: exit %d\n", status);
    k_fatal_halt(K_ERR_KERNEL_PANIC);
}

uint32_t stow_port_cycles(void)
{
    return k_cycle_get_32();
}
