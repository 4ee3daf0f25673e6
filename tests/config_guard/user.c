/* SPDX-License-Identifier: MIT */
/* user.c - a program built with whatever options config_guard.sh passes, linked
 * against a library built with the defaults. One container from a DEFINE, one
 * from init (CONFIG_GUARD_INIT_ONLY leaves out the DEFINE), and the port's six
 * functions as stubs, so that the link needs nothing else. */
#include "stow/stow.h"

#ifndef CONFIG_GUARD_INIT_ONLY
STOW_POOL_DEFINE(guarded_pool, uint32_t, 4);
#endif

static stow_genpool_t by_init;
static uint32_t by_init_buf[64];

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

int main(void);
int main(void)
{
    int ok = stow_genpool_init(&by_init, by_init_buf, sizeof by_init_buf, 4u, 4u, 4u) ? 0 : 1;
#ifndef CONFIG_GUARD_INIT_ONLY
    ok += stow_pool_alloc(&guarded_pool) != NULL ? 0 : 1;
#endif
    return ok;
}
