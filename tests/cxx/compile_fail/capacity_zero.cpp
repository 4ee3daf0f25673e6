// SPDX-License-Identifier: MIT
// A container of no items.
// expect: the capacity must be at least 1
#include "stow/stow.hpp"

#if STOW_COMPILE_FAIL
stow::pool<int, 0> none;
#else
stow::pool<int, 1> one;
#endif
