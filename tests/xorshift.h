/* SPDX-License-Identifier: MIT */
/* xorshift.h - the tests' pseudo-random numbers, shared by the suite's harness
 * and the stress and thread programs (which do not link the harness): one step
 * of the 32-bit xorshift generator with shifts 13, 17 and 5, on a state of the
 * caller's, which must not be 0. Period 2^32 - 1; freestanding. */
#ifndef STOW_TEST_XORSHIFT_H
#define STOW_TEST_XORSHIFT_H

#include <stdint.h>

static inline uint32_t stow_test_xorshift(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

#endif /* STOW_TEST_XORSHIFT_H */
