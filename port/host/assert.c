/* SPDX-License-Identifier: MIT */
/* assert.c - the host port's contract-violation hook: report and abort, so a
 * debugger or a core dump shows the caller. (Tests link their own hook, which
 * records the call and returns; see tests/harness.c.) */
#include <stdio.h>
#include <stdlib.h>

#include "stow/port.h"

void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    /* NOLINTNEXTLINE(cert-err33-c): if stderr fails there is nothing better to do; abort() follows */
    fprintf(stderr, "stow: contract violation: %s at %s:%d\n", expr, file, line);
    abort();
}
