// SPDX-License-Identifier: MIT
// Handles of different container types do not compare.
// expect: no match for|invalid operands
#include "stow/stow.hpp"

using enemies = stow::genpool<int, 8>;
using missiles = stow::genpool<short, 8>;

bool same(enemies::handle_type a, missiles::handle_type b)
{
#if STOW_COMPILE_FAIL
    return a == b;
#else
    return a.raw() == b.raw();
#endif
}
