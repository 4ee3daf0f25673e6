// SPDX-License-Identifier: MIT
// Nor moved.
// expect: deleted
#include "stow/stow.hpp"

struct level {
    stow::genpool<int, 8> items;
};

void move(level &a, level &b)
{
#if STOW_COMPILE_FAIL
    a = static_cast<level &&>(b);
#else
    (void)a;
    (void)b;
#endif
}
