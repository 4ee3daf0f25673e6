// SPDX-License-Identifier: MIT
// cxx_constinit.cpp - every STOW_*_DEFINE is a constant initializer in C++ too.
//
// Built (not run) by `make check-constinit`, as C++20 with g++ and clang++: a
// `constinit` variable whose initializer is not a constant expression does not
// compile. A container that is not constant-initialised is set up by code that
// runs before main(), in an order between files that nobody controls, so another
// file's constructor could meet it empty.
//
// genpool and slotmap: their public DEFINEs declare the container constinit
// themselves in C++20 (STOW__CONSTINIT), every form of them is here. Arena, pool
// and packed: constinit is given through the linkage argument of the macro that
// their public DEFINEs expand to.
#include "stow/stow.h"

struct item {
    int a;
    double b;
};
struct shared_item; // declared only: what a header sharing a typed container sees

#define STOW_TEST_STR2(x) #x
#define STOW_TEST_STR(x) STOW_TEST_STR2(x)
static_assert(sizeof(STOW_TEST_STR(STOW__CONSTINIT)) == sizeof("constinit"),
              "in C++20 the genpool and slotmap DEFINEs declare their container constinit");

STOW__ARENA_DEFINE(constinit, ci_arena, 64);
STOW__ARENA_DEFINE(static constinit, ci_arena_static, 64);
STOW__POOL_DEFINE(constinit, ci_pool, item, 4);
STOW__POOL_DEFINE(static constinit, ci_pool_static, char, 3);
STOW__PACKED_DEFINE(constinit, ci_packed, item, 4);
STOW__PACKED_DEFINE(static constinit, ci_packed_static, char, 3);

STOW__GENPOOL_DEFINE(constinit, ci_genpool_explicit, item, 4);
STOW__SLOTMAP_DEFINE(constinit, ci_slotmap_explicit, item, 4);

STOW_GENPOOL_DEFINE(ci_genpool, item, 4);
STOW_GENPOOL_DEFINE_STATIC(ci_genpool_static, char, 5);
STOW_GENPOOL_DEFINE_TYPED(ci_genpool_typed, item, 2);
STOW_GENPOOL_DEFINE_TYPED_STATIC(ci_genpool_typed_static, double, 3);
STOW_GENPOOL_DECLARE_TYPED(ci_genpool_shared, struct shared_item);

STOW_SLOTMAP_DEFINE(ci_slotmap, item, 4);
STOW_SLOTMAP_DEFINE_STATIC(ci_slotmap_static, char, 5);
STOW_SLOTMAP_DEFINE_TYPED(ci_slotmap_typed, item, 2);
STOW_SLOTMAP_DEFINE_TYPED_STATIC(ci_slotmap_typed_static, double, 3);
STOW_SLOTMAP_DECLARE_TYPED(ci_slotmap_shared, struct shared_item);
STOW_GENPOOL_DEFINE_TYPED_BITS(ci_genpool_bits, item, 64, 6);
STOW_SLOTMAP_DEFINE_TYPED_BITS(ci_slotmap_bits, item, 64, 6);

// The item type complete at last, as in the one file that defines a shared container.
struct shared_item {
    long x;
};
STOW_GENPOOL_DEFINE(ci_genpool_shared, struct shared_item, 6);
STOW_SLOTMAP_DEFINE(ci_slotmap_shared, struct shared_item, 6);

// Uses the file-local ones, so that no warning says they are not.
int stow_cxx_constinit(void);
int stow_cxx_constinit(void)
{
    return stow_arena_capacity(&ci_arena_static) != 0u && stow_pool_capacity(&ci_pool_static) != 0u &&
                   stow_packed_capacity(&ci_packed_static) != 0u &&
                   stow_genpool_capacity(&ci_genpool_static) != 0u &&
                   ci_genpool_typed_static_count() == 0u &&
                   stow_slotmap_capacity(&ci_slotmap_static) != 0u &&
                   ci_slotmap_typed_static_count() == 0u
               ? 0
               : 1;
}
