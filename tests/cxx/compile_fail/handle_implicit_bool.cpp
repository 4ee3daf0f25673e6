// SPDX-License-Identifier: MIT
// A handle tests as a bool (if (h): not null) but does not turn into one.
// expect: cannot convert|could not convert|no viable conversion
#include "stow/stow.hpp"

using map_t = stow::slotmap<int, 8>;

int set(map_t::handle_type h)
{
#if STOW_COMPILE_FAIL
    bool set = h;
    return set ? 1 : 0;
#else
    return h ? 1 : 0;
#endif
}
