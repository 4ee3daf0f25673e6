// SPDX-License-Identifier: MIT
// A genpool of more slots than a handle's index bits can name.
// expect: stow::genpool: the capacity must be 1 to STOW_HANDLE_MAX_CAPACITY, which is 65536 \(2\^16\), with STOW_HANDLE_INDEX_BITS 16
#include "stow/stow.hpp"

#if STOW_COMPILE_FAIL
stow::genpool<char, 100000> too_many;
#else
stow::genpool<char, 65536> just_enough;
#endif
