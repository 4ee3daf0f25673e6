/* SPDX-License-Identifier: MIT */
/* budgets.h - the budget list of tests/report/firmware.c, as a firmware keeps one:
 * a line per subsystem, included by one C file after stow/report.h and turned
 * into the link's check by tools/stow_budgets.sh. AUDIO_BUDGET comes from the
 * command line, so that one list serves the run that fits and the one that does
 * not. */
#ifndef AUDIO_BUDGET
#define AUDIO_BUDGET 1024u
#endif
STOW_BUDGET(audio, AUDIO_BUDGET)
STOW_BUDGET(net, 4 * 1024)
