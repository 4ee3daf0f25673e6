// SPDX-License-Identifier: MIT
// Index bits of its own: 12 name 4096 slots, not 5000.
// expect: stow::slotmap: the capacity must be 1 to 2\^IndexBits \(its fourth template argument\): raise IndexBits
#include "stow/stow.hpp"

stow::slotmap<char, STOW_COMPILE_FAIL ? 5000u : 4096u, void, 12> particles;
