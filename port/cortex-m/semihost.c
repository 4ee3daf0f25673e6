/* SPDX-License-Identifier: MIT */
/* port/cortex-m/semihost.c - output and exit by ARM semihosting, for test,
 * benchmark and demo images only.
 *
 * Semihosting is a breakpoint (BKPT 0xAB) that a debugger or QEMU
 * (-semihosting-config enable=on,target=native) catches and serves. On a real
 * chip with no debugger attached nothing serves it: the BKPT escalates to
 * HardFault, the fault reporter's own output faults again, and the core locks
 * up. So never link this file into production firmware; there, point
 * stow_port_write() at a UART or RTT and stow_port_exit() at a reset (port.c's
 * weak defaults discard and halt).
 *
 *   stow_port_write   opens ":tt" once with mode 4 ("w") and uses SYS_WRITE on
 *                     that handle (QEMU 7.2 sends it to its stdout, byte for byte;
 *                     SYS_WRITE0 and SYS_WRITEC would go to its stderr).
 *   stow_port_exit    SYS_EXIT_EXTENDED with {ADP_Stopped_ApplicationExit,
 *                     status}: QEMU exits with status.
 *
 * These are strong definitions that replace port.c's weak ones. Link this file
 * as an object: from an archive that also holds port.o, the linker takes
 * whichever of the two definitions it meets first.
 */
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"

#define SEMI_SYS_OPEN          0x01u
#define SEMI_SYS_WRITE         0x05u
#define SEMI_SYS_EXIT_EXTENDED 0x20u
#define SEMI_APP_EXIT          0x20026u /* ADP_Stopped_ApplicationExit */
#define SEMI_MODE_W            4u       /* fopen "w": ":tt" then means stdout */

static uint32_t semihost(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    /* "memory": the host reads the argument block and may write guest memory. */
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

/* Handle of ":tt" opened for writing, + 1 (0 = not opened yet). */
/* cppcheck-suppress misra-c2012-8.9 ; MISRA D12 */
static uint32_t console_handle_plus1;

static uint32_t console_handle(void)
{
    if (console_handle_plus1 == 0u) {
        static const char tt[] = ":tt";
        const uint32_t args[3] = {(uint32_t)(uintptr_t)tt, SEMI_MODE_W, sizeof tt - 1u};
        uint32_t h = semihost(SEMI_SYS_OPEN, args);
        /* Open fails with -1: remember a handle anyway so that writes are
         * attempted once each rather than reopening on every call. */
        console_handle_plus1 = h + 1u;
        /* cppcheck-suppress knownConditionTrueFalse ; h + 1 wraps to 0 when open fails (h = 0xFFFFFFFF) */
        if (console_handle_plus1 == 0u) {
            console_handle_plus1 = 1u;
        }
    }
    return console_handle_plus1 - 1u;
}

void stow_port_write(const char *text, size_t len)
{
    uint32_t state;
    uint32_t handle;
    if (text == NULL || len == 0u) {
        return;
    }
    state = stow_port_critical_enter(); /* one writer at a time, text stays whole */
    handle = console_handle();
    while (len > 0u) {
        uint32_t chunk = len > 0x40000000u ? 0x40000000u : (uint32_t)len;
        const uint32_t args[3] = {handle, (uint32_t)(uintptr_t)text, chunk};
        /* SYS_WRITE returns the number of bytes NOT written. */
        uint32_t left = semihost(SEMI_SYS_WRITE, args);
        uint32_t done;
        if (left >= chunk) {
            break; /* nothing written: the console is gone, give up */
        }
        done = chunk - left;
        text = &text[done];
        len -= done;
    }
    stow_port_critical_exit(state);
}

void stow_port_exit(int status)
{
    const uint32_t block[2] = {SEMI_APP_EXIT, (uint32_t)status};
    (void)semihost(SEMI_SYS_EXIT_EXTENDED, block);
    for (;;) {
        /* No semihosting host took the exit: stop here. */
        __asm__ volatile("" : : : "memory");
    }
}
