// SPDX-License-Identifier: MIT
// A stow::global<C> keeps its storage apart: only STOW_CXX_DEFINE makes one.
// expect: make it with STOW_CXX_DEFINE
#include "stow/stow.hpp"

#if STOW_COMPILE_FAIL
stow::global<stow::arena<64>> scratch;
#else
STOW_CXX_DEFINE(scratch, stow::arena<64>);
#endif
