// SPDX-License-Identifier: MIT
// A plain C handle (stow_handle_t) is not a typed one.
// expect: no matching|cannot convert|could not convert|no viable conversion
#include "stow/stow.hpp"

stow::genpool<int, 8> pool;

int *find(stow_handle_t h)
{
#if STOW_COMPILE_FAIL
    return pool.get(h);
#else
    return pool.get(stow::genpool<int, 8>::handle_type::from_raw(h.bits));
#endif
}
