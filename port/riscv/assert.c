/* SPDX-License-Identifier: MIT */
/* port/riscv/assert.c - the production assert hook of the RISC-V port.
 *
 * Prints "stow: contract violation: <expr> at <file>:<line>" and ends the
 * program with status 134 (what a host shell reports for abort()). It lives in
 * its own file so that a test image can link a recording hook instead.
 */
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"

static void write_str(const char *s)
{
    size_t n = 0u;
    if (s == NULL) {
        s = "?";
    }
    while (s[n] != '\0') {
        n++;
    }
    stow_port_write(s, n);
}

static void write_int(int value)
{
    char buf[12]; /* "-2147483648" */
    size_t pos = sizeof buf;
    uint32_t mag = value < 0 ? 0u - (uint32_t)value : (uint32_t)value;
    do {
        buf[--pos] = (char)('0' + (mag % 10u));
        mag /= 10u;
    } while (mag != 0u);
    if (value < 0) {
        buf[--pos] = '-';
    }
    stow_port_write(&buf[pos], sizeof buf - pos);
}

void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    write_str("stow: contract violation: ");
    write_str(expr);
    write_str(" at ");
    write_str(file);
    write_str(":");
    write_int(line);
    write_str("\n");
    stow_port_exit(134);
}
