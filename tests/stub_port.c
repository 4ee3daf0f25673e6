/* SPDX-License-Identifier: MIT */
/* stub_port.c - every stow_port_* function as a stub that does nothing, for the
 * link tests (tests/nobits.sh, tests/config_guard.sh) whose programs only have to
 * link: with it, a -nostdlib link needs nothing but lib/ and libgcc. */
#include "stow/port.h"

void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    (void)expr;
    (void)file;
    (void)line;
}
uint32_t stow_port_cycles(void) { return 0u; }
void stow_port_write(const char *text, size_t len)
{
    (void)text;
    (void)len;
}
void stow_port_exit(int status) { (void)status; }
uint32_t stow_port_critical_enter(void) { return 0u; }
void stow_port_critical_exit(uint32_t state) { (void)state; }
uint32_t stow_port_lock(uint32_t *word)
{
    (void)word;
    return 0u;
}
void stow_port_unlock(uint32_t *word, uint32_t state)
{
    (void)word;
    (void)state;
}
