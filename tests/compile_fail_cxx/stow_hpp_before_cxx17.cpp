// SPDX-License-Identifier: MIT
// stow/stow.hpp needs C++17; before that it stops with an #error that says so
// (this check compiles as C++11), while the C headers alone work from C++11.
#if STOW_COMPILE_FAIL
#include "stow/stow.hpp"
#else
#include "stow/stow.h"
#endif

int stow_hpp_version_check(void);
int stow_hpp_version_check(void) { return STOW_VERSION_MAJOR; }
