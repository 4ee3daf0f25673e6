// SPDX-License-Identifier: MIT
// A DEFINE inside a C++ class is a compile error whose text points to the C++
// layer (it would otherwise compile and then fail to link). At namespace scope
// the same DEFINE compiles.
#include "stow/heap.h"

#if STOW_COMPILE_FAIL
struct world {
    STOW_HEAP_DEFINE(scratch, 1024);
};
#else
namespace world {
STOW_HEAP_DEFINE(scratch, 1024);
}
#endif
