/* SPDX-License-Identifier: MIT */
/* proof/proof.h - what every proof driver shares: the analyser's choice
 * functions under short names. */
#ifndef STOW_PROOF_H
#define STOW_PROOF_H
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "__fc_builtin.h"

/* Any value in [lo, hi], or any bool: the analyser follows every one. */
#define ANY(lo, hi) Frama_C_unsigned_int_interval((lo), (hi))
#define ANY_BOOL() (Frama_C_nondet(0, 1) != 0)

/* How many times the library reported a contract violation (proof/port.c). */
extern uint32_t proof_assert_count;
#endif
