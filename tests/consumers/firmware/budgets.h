/* SPDX-License-Identifier: MIT */
/* The consumer firmware's budget list (stow/report.h): main.c includes it for the
 * report, and the CMake builds hand it to stow_check_budgets(), which makes the
 * link fail when subsystem ui's storage (128 bytes) outgrows FW_UI_BUDGET. */
#ifndef FW_UI_BUDGET
#define FW_UI_BUDGET 512
#endif
STOW_BUDGET(ui, FW_UI_BUDGET)
