// SPDX-License-Identifier: MIT
// 31 index bits would leave the generation 1 bit: refused.
// expect: stow::genpool: IndexBits must be 1 to 30
#include "stow/stow.hpp"

stow::genpool<char, 4, void, STOW_COMPILE_FAIL ? 31u : 30u> pool;
