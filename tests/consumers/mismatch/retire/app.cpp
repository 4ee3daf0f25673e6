// SPDX-License-Identifier: MIT
// A C++ application of stow in a directory that sets its own generation overflow.
#include "stow/stow.hpp"

int main()
{
    return STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE ? 0 : 1;
}
