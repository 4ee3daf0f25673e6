// SPDX-License-Identifier: MIT
// More slots than a handle's index bits can name.
// expect: the capacity must be 1 to STOW_HANDLE_MAX_CAPACITY
#include "stow/stow.hpp"

#if STOW_COMPILE_FAIL
stow::slotmap<char, STOW_HANDLE_MAX_CAPACITY + 1u> too_many;
#else
stow::slotmap<char, STOW_HANDLE_MAX_CAPACITY> just_enough;
#endif
