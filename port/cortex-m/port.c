/* SPDX-License-Identifier: MIT */
/* port/cortex-m/port.c - the library port for bare-metal Cortex-M (see stow/port.h).
 *
 * What a production firmware links (with assert.c, or its own assert hook):
 *
 *   critical       PRIMASK: enter saves it and masks, exit restores the saved
 *                  value, so pairs nest. PRIMASK masks neither NMI nor HardFault,
 *                  and it protects one core only.
 *   lock           the same PRIMASK section; the container's word is not
 *                  touched, since on one core masking is all the exclusion there
 *                  is to have. A multi-core part links smp.c as well, and builds
 *                  this file with -DSTOW_PORT_SMP, which leaves out these two
 *                  (docs/multicore.md).
 *   write          weak default that discards the text. Define your own
 *                  stow_port_write() (UART, SEGGER RTT, ITM...) in any object of
 *                  your firmware and it replaces this one.
 *   exit           weak default that halts: masks interrupts, keeps the status in
 *                  stow__cm_exit_status for a debugger, and waits forever. Define
 *                  your own stow_port_exit() to reset instead (for instance
 *                  CMSIS's NVIC_SystemReset()).
 *
 * This file defines no interrupt handler and never uses semihosting, so it links
 * into a firmware next to any HAL or RTOS. Test and demo images add semihost.c
 * (output and exit through a debugger or QEMU), cycles.c (stow_port_cycles and
 * a SysTick_Handler) and fault.c (the fault reporter).
 *
 * It also holds the three small text writers that assert.c and fault.c share
 * (port/cortex-m/writer.h); --gc-sections drops the ones an image does not use.
 */
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"
#include "writer.h"

/* ---- critical sections (several cores: smp.c) --------------------------- */

#ifndef STOW_PORT_SMP

uint32_t stow_port_critical_enter(void)
{
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
    return primask;
}

void stow_port_critical_exit(uint32_t state)
{
    __asm__ volatile("msr primask, %0" : : "r"(state) : "memory");
}

/* Written out rather than calling the two above, so that an _isr call pays for
 * one call into the port, not two. */
uint32_t stow_port_lock(uint32_t *word)
{
    uint32_t primask;
    (void)word;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
    return primask;
}

void stow_port_unlock(uint32_t *word, uint32_t state)
{
    (void)word;
    __asm__ volatile("msr primask, %0" : : "r"(state) : "memory");
}
#endif

/* ---- output and exit: weak defaults ------------------------------------ */

__attribute__((weak)) void stow_port_write(const char *text, size_t len)
{
    (void)text;
    (void)len;
}

/* The last status passed to the default stow_port_exit(), for a debugger. */
extern volatile int stow__cm_exit_status;
volatile int stow__cm_exit_status;

__attribute__((weak)) void stow_port_exit(int status)
{
    __asm__ volatile("cpsid i" : : : "memory");
    stow__cm_exit_status = status;
    for (;;) {
        /* WFI wakes on a pending interrupt even while masked; go back to sleep. */
        __asm__ volatile("wfi" : : : "memory");
    }
}

/* ---- text writers shared by assert.c and fault.c ----------------------- */

void stow__cm_write_text(const char *text)
{
    size_t n = 0u;
    if (text == NULL) {
        text = "?";
    }
    while (text[n] != '\0') {
        n++;
    }
    stow_port_write(text, n);
}

void stow__cm_write_dec(uint32_t value)
{
    char buf[10]; /* "4294967295" */
    size_t pos = sizeof buf;
    do {
        buf[--pos] = (char)('0' + (value % 10u));
        value /= 10u;
    } while (value != 0u);
    stow_port_write(&buf[pos], sizeof buf - pos);
}

void stow__cm_write_hex(uint32_t value)
{
    static const char digits[] = "0123456789abcdef";
    char buf[10]; /* "0x" and eight digits */
    unsigned i;
    buf[0] = '0';
    buf[1] = 'x';
    for (i = 0u; i < 8u; i++) {
        buf[9u - i] = digits[value & 0xFu];
        value >>= 4;
    }
    stow_port_write(buf, sizeof buf);
}
