// SPDX-License-Identifier: MIT
// nobits.cpp - namespace-scope C++ containers cost RAM only: every
// STOW_CXX_DEFINE's storage is in a NOBITS section (.bss.stow.cxx.<name>), and
// a 64 MiB arena makes no 64 MiB object file (tests/cxx/nobits.sh reads the
// object with readelf). With -DSTOW_NOBITS_PLAIN=1 the arena is a plain global
// instead, whose storage is inside the object: initialised data, 64 MiB of it
// in the file, which the script must catch (its check shown to fail).
#include "stow/stow.hpp"

namespace {
struct enemy {
    float x;
    float hp;
};
} // namespace

#if STOW_NOBITS_PLAIN
stow::arena<64u << 20> frame;
#else
STOW_CXX_DEFINE(frame, stow::arena<64u << 20>);
#endif
STOW_CXX_DEFINE(nobits_pool, stow::pool<enemy, 1000>);
STOW_CXX_DEFINE(nobits_genpool, stow::genpool<enemy, 1000>);
STOW_CXX_DEFINE_STATIC(nobits_slotmap, stow::slotmap<enemy, 1000, void, 12>);
STOW_CXX_DEFINE(nobits_packed, stow::packed<enemy, 1000>);
STOW_CXX_DEFINE_IN(level, nobits_heap, stow::heap<1u << 20>);

// Uses them, so that nothing is dropped.
void *nobits_use();
void *nobits_use()
{
    (void)nobits_slotmap.emplace(enemy{1.0f, 2.0f});
    (void)nobits_pool.emplace();
    return frame.alloc(16);
}
