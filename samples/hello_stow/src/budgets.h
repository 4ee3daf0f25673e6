/* SPDX-License-Identifier: MIT */
/* The sample's budget list (CONFIG_STOW_BUDGETS): bytes of storage per subsystem.
 * The link checks them; main.c includes this file once, after stow/report.h, so
 * that stow_report() shows them too. */
STOW_BUDGET(radio, 1024)
STOW_BUDGET(ui, 512)
