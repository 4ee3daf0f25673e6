// SPDX-License-Identifier: MIT
// An arena never runs destructors: make<T>() refuses a T that has one.
// expect: never runs destructors
#include "stow/stow.hpp"

struct file {
    int fd;
    explicit file(int f) : fd(f) {}
    ~file() { fd = -1; }
};
struct record {
    int fd;
};

stow::arena<256> frame;

bool open_one()
{
#if STOW_COMPILE_FAIL
    return frame.make<file>(3) != nullptr;
#else
    return frame.make<record>(record{3}) != nullptr;
#endif
}
