/* SPDX-License-Identifier: MIT */
/* verdict.h - the verdicts of the test images that do not link the harness
 * (the board stress, the SMP stress and the SMP port's test): one line per
 * check, "ok   what" or "FAIL what", and the closing "N passed, N failed" that
 * tests/run.sh reads. Through the report's printing calls (stow/report.h), so
 * that an image needs nothing but the port's output. */
#ifndef STOW_TEST_VERDICT_H
#define STOW_TEST_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "stow/report.h"

static uint32_t stow_test_passed;
static uint32_t stow_test_failed;

static inline void stow_test_verdict(bool ok, const char *what)
{
    stow_print(ok ? "ok   " : "FAIL ");
    stow_print(what);
    stow_print("\n");
    if (ok) {
        stow_test_passed++;
    } else {
        stow_test_failed++;
    }
}

/* Prints the counts; the image's exit status: 0 when nothing failed. */
static inline int stow_test_verdicts(void)
{
    stow_print_u(stow_test_passed, 0u);
    stow_print(" passed, ");
    stow_print_u(stow_test_failed, 0u);
    stow_print(" failed\n");
    return stow_test_failed == 0u ? 0 : 1;
}

#endif /* STOW_TEST_VERDICT_H */
