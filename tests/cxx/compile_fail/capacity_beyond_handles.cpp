// SPDX-License-Identifier: MIT
// More slots than a handle's index bits can name (100000 with the default 16):
// the message names the limit, its value and the option that raises it.
// expect: the capacity must be 1 to STOW_HANDLE_MAX_CAPACITY, which is 65536 \(2\^16\), with STOW_HANDLE_INDEX_BITS 16: for more slots define STOW_HANDLE_INDEX_BITS higher
#include "stow/stow.hpp"

#if STOW_COMPILE_FAIL
stow::slotmap<char, 100000> too_many;
#else
stow::slotmap<char, STOW_HANDLE_MAX_CAPACITY> just_enough;
#endif
