// SPDX-License-Identifier: MIT
// A namespace-scope container (STOW_CXX_DEFINE) is a container of its own: its
// handles do not go to a member container of the same item type and capacity.
// expect: no matching|cannot convert|could not convert|no viable conversion
#include "stow/stow.hpp"

struct enemy {
    int hp;
};
STOW_CXX_DEFINE(global_enemies, stow::slotmap<enemy, 8>);
stow::slotmap<enemy, 8> *level_enemies();

enemy *find()
{
    auto h = global_enemies.emplace(enemy{3});
#if STOW_COMPILE_FAIL
    return level_enemies()->get(h);
#else
    return global_enemies.get(h);
#endif
}
