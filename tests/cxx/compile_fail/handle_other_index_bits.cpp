// SPDX-License-Identifier: MIT
// Two slot maps of the same item and capacity, with 12 and 13 index bits: the
// bits of one's handles mean another split, so the types differ.
// expect: no matching|cannot convert|could not convert|no viable conversion
#include "stow/stow.hpp"

struct particle {
    float x;
};
stow::slotmap<particle, 64, void, 12> sparks;
stow::slotmap<particle, 64, void, 13> smoke;

particle *find()
{
    auto h = sparks.emplace(particle{1.0f});
#if STOW_COMPILE_FAIL
    return smoke.get(h);
#else
    return sparks.get(h);
#endif
}
