/* SPDX-License-Identifier: MIT */
/* genpool_typed_handle.c - a typed genpool handle only fits its own pool.
 * With STOW_COMPILE_FAIL=1 a missile handle goes to the enemy pool (and a plain
 * stow_handle_t to a typed wrapper): each must be a compile error. */
#include "stow/genpool.h"

struct enemy {
    int32_t health;
};

struct missile {
    int32_t damage;
};

STOW_GENPOOL_DEFINE_TYPED_STATIC(enemies, struct enemy, 4);
STOW_GENPOOL_DEFINE_TYPED_STATIC(missiles, struct missile, 4);

int genpool_typed_handle_use(void);
int genpool_typed_handle_use(void)
{
    struct missile m = {10};
    missiles_handle_t h = missiles_insert(&m);
#if STOW_COMPILE_FAIL
    return enemies_get(h) != NULL; /* a missile handle to the enemy pool */
#else
    return missiles_get(h) != NULL;
#endif
}
