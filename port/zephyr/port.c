/* SPDX-License-Identifier: MIT */
/* port/zephyr/port.c - the stow port for Zephyr (see stow/port.h), built by the
 * Zephyr module (zephyr/CMakeLists.txt) when CONFIG_STOW_PORT_ZEPHYR=y.
 *
 *   critical   irq_lock() / irq_unlock(): the key irq_lock returns is the state
 *              stow hands back, so pairs nest. On SMP, irq_lock is a global
 *              lock as well, which is what the ISR-safe calls need.
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
