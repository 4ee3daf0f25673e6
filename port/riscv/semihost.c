/* SPDX-License-Identifier: MIT */
/* port/riscv/semihost.c - output and exit by RISC-V semihosting, for test,
 * benchmark and demo images (not for production firmware: without a debugger or
 * QEMU serving the call, the ebreak traps).
 *
 * The call is the sequence the RISC-V semihosting specification fixes:
 *     slli x0, x0, 0x1f ; ebreak ; srai x0, x0, 7
 * with the operation in a0 and the argument block's address in a1, the result
 * in a0. The three instructions must be uncompressed and on one page (the host
 * reads the neighbours of the ebreak to tell a semihosting call from a
 * breakpoint), hence .option norvc and the 16-byte alignment. Operations and
 * argument blocks are those of ARM semihosting: SYS_OPEN ":tt" for the console,
 * SYS_WRITE, and SYS_EXIT_EXTENDED, whose status becomes QEMU's exit status
 * (qemu-system-riscv32 -semihosting-config enable=on,target=native).
 *
 * These strong definitions replace port.c's weak defaults.
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
    register uint32_t a0 __asm__("a0") = op;
    register const void *a1 __asm__("a1") = arg;
    /* "memory": the host reads the argument block and may write guest memory. */
    __asm__ volatile(".option push\n\t"
                     ".option norvc\n\t"
                     ".balign 16\n\t"
                     "slli x0, x0, 0x1f\n\t"
                     "ebreak\n\t"
                     "srai x0, x0, 7\n\t"
                     ".option pop"
                     : "+r"(a0)
                     : "r"(a1)
                     : "memory");
    return a0;
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
    /* No semihosting host took the exit: stop here, interrupts off. */
    __asm__ volatile("csrci mstatus, 8" : : : "memory");
    for (;;) {
        __asm__ volatile("wfi" : : : "memory");
    }
}
