// SPDX-License-Identifier: MIT
// cxx_define_in_class.cpp - a genpool or slot map DEFINE inside a C++ class must
// not compile, and the error must point to the C++ layer.
//
// A DEFINE makes one static container with static storage. Inside a class it
// used to compile and then fail to link (undefined reference to
// World::stow__genpool_buf_...). `make check-define-scope` compiles this file with
// STOW_DEFINE_IN_CLASS=0 (must compile: the DEFINEs at namespace scope) and with
// 1 to 4 (one DEFINE each inside the class: must fail, naming
// stow_DEFINE_belongs_at_namespace_scope__inside_a_class_use_stow_hpp).
#include "stow/stow.h"

struct enemy {
    int hp;
};

namespace game {
STOW_GENPOOL_DEFINE(enemies, enemy, 4);
STOW_SLOTMAP_DEFINE_TYPED(bullets, int, 4);
} // namespace game

struct world {
#if STOW_DEFINE_IN_CLASS == 1
    STOW_GENPOOL_DEFINE(enemies, enemy, 4);
#elif STOW_DEFINE_IN_CLASS == 2
    STOW_SLOTMAP_DEFINE(bullets, int, 4);
#elif STOW_DEFINE_IN_CLASS == 3
    STOW_GENPOOL_DEFINE_TYPED_STATIC(enemies, enemy, 4);
#elif STOW_DEFINE_IN_CLASS == 4
    STOW_SLOTMAP_DEFINE_TYPED(bullets, int, 4);
#endif
    int frame;
};

int stow_cxx_define_in_class(void);
int stow_cxx_define_in_class(void)
{
    world w = {0};
    return w.frame + static_cast<int>(stow_genpool_count(&game::enemies) + game::bullets_count());
}
