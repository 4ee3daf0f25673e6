/* SPDX-License-Identifier: MIT */
/* port/cortex-m/assert.c - the production assert hook of the Cortex-M port.
 *
 * On a contract violation it writes
 *
 *     stow: contract violation: <text> at <file>:<line>
 *
 * through stow_port_write() (which discards it unless the firmware points output
 * at a UART, RTT or semihosting) and then calls stow_port_exit(134) (134 is what
 * a host shell reports for abort()). port.c's default exit halts with interrupts
 * masked; a firmware that defines stow_port_exit() as a reset gets "log, then
 * reset" without touching this file.
 *
 * To do something else (count the violation and carry on: the stow call then
 * returns its error value and leaves its container unchanged), leave this file
 * out of the build and define stow_port_assert_failed() yourself. Test images
 * do that: their hook records the call and returns.
 */
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"
#include "writer.h"

void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    stow__cm_write_text("stow: contract violation: ");
    stow__cm_write_text(expr);
    stow__cm_write_text(" at ");
    stow__cm_write_text(file);
    stow__cm_write_text(":");
    stow__cm_write_dec(line < 0 ? 0u : (uint32_t)line);
    stow__cm_write_text("\n");
    stow_port_exit(134);
}
