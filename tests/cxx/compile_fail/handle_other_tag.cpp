// SPDX-License-Identifier: MIT
// Two slot maps of one item type and capacity, told apart by their tags: a
// handle of one does not go to the other.
// expect: no matching|cannot convert|could not convert|no viable conversion
#include "stow/stow.hpp"

struct enemy {
    int hp;
};
struct red_team;
struct blue_team;
stow::slotmap<enemy, 8, red_team> reds;
stow::slotmap<enemy, 8, blue_team> blues;

bool kill()
{
    auto h = reds.insert(enemy{1});
#if STOW_COMPILE_FAIL
    return blues.remove(h);
#else
    return reds.remove(h);
#endif
}
