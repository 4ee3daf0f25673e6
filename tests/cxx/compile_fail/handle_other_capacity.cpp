// SPDX-License-Identifier: MIT
// Slot maps of different capacities are different container types.
// expect: no matching|cannot convert|could not convert|no viable conversion
#include "stow/stow.hpp"

stow::slotmap<int, 8> small;
stow::slotmap<int, 16> large;

bool has()
{
    auto h = small.insert(1);
#if STOW_COMPILE_FAIL
    return large.contains(h);
#else
    return small.contains(h);
#endif
}
