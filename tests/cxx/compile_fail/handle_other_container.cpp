// SPDX-License-Identifier: MIT
// A genpool's handle passed to a slot map of the same item type and capacity.
// expect: no matching|cannot convert|could not convert|no viable conversion
#include "stow/stow.hpp"

struct enemy {
    int hp;
};
stow::genpool<enemy, 8> pool;
stow::slotmap<enemy, 8> map;

enemy *find()
{
    auto h = pool.insert(enemy{1});
#if STOW_COMPILE_FAIL
    return map.get(h);
#else
    return pool.get(h);
#endif
}
