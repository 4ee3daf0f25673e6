/* SPDX-License-Identifier: MIT */
/* firmware.c - a firmware with two subsystems, audio and net, and budgets for
 * both (budgets.h). audio holds 32 voices of 40 bytes (1280 bytes) and a 256-byte
 * mixing arena: 1536 bytes of storage, over the 1024 bytes budgets.h gives it
 * unless AUDIO_BUDGET says otherwise. tests/report/budget.sh builds it:
 *   - on Cortex-M and RISC-V with the fragment tools/stow_budgets.sh makes from
 *     budgets.h: over budget the link must fail, naming audio and 1024;
 *   - on the host, where stow_budget_check() must fail the run with the same
 *     subsystem, budget and storage.
 * With a budget that fits, each must link, run, and print its report. */
#include "stow/stow.h"

struct voice {
    uint32_t sample[10];
};

STOW_POOL_DEFINE_IN(audio, voices, struct voice, 32);
STOW_ARENA_DEFINE_IN(audio, mix, 256);
STOW_HEAP_DEFINE_IN(net, packets, 2048);
STOW_PACKED_DEFINE(log_lines, uint32_t, 16);

#include "budgets.h"

int main(void)
{
    (void)STOW_POOL_NEW(&voices, struct voice);
    (void)stow_heap_alloc(&packets, 100);
    bool ok = stow_report();
    ok = stow_budget_check() && ok;
    stow_print(ok ? "firmware: within budget\n" : "firmware: over budget\n");
    return ok ? 0 : 1;
}
