// SPDX-License-Identifier: MIT
// A container is not copied (its C struct points into its own storage).
// expect: deleted
#include "stow/stow.hpp"

void copy(stow::slotmap<int, 8> &m)
{
#if STOW_COMPILE_FAIL
    stow::slotmap<int, 8> other = m;
    (void)other;
#else
    (void)m;
#endif
}
