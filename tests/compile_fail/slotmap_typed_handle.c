/* SPDX-License-Identifier: MIT */
/* A handle of one typed slot map passed to another must not compile.
 * With STOW_COMPILE_FAIL=0 the same code passes the right handle and compiles. */
#include "stow/slotmap.h"

struct enemy {
    int hp;
};
struct missile {
    int damage;
};

STOW_SLOTMAP_DEFINE_TYPED(enemies, struct enemy, 4);
STOW_SLOTMAP_DEFINE_TYPED(missiles, struct missile, 4);

int stow_compile_fail_slotmap(void);
int stow_compile_fail_slotmap(void)
{
    struct enemy e = {3};
    struct missile m = {7};
    enemies_handle_t target = enemies_insert(&e);
    missiles_handle_t shot = missiles_insert(&m);
    (void)shot;
#if STOW_COMPILE_FAIL
    struct missile *p = missiles_get(target); /* an enemy handle to the missile map */
#else
    struct missile *p = missiles_get(shot);
#endif
    return p != NULL && enemies_get(target) != NULL ? 0 : 1;
}
