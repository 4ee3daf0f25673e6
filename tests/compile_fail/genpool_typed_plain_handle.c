/* SPDX-License-Identifier: MIT */
/* genpool_typed_plain_handle.c - a typed genpool's wrappers take only its own
 * handle type: with STOW_COMPILE_FAIL=1 a plain stow_handle_t goes to one, which
 * must be a compile error (the typed handle is not a typedef of the plain one). */
#include "stow/genpool.h"

struct enemy {
    int32_t health;
};

STOW_GENPOOL_DEFINE_TYPED_STATIC(enemies, struct enemy, 4);
STOW_GENPOOL_DEFINE_STATIC(plain_enemies, struct enemy, 4);

int genpool_typed_plain_handle_use(void);
int genpool_typed_plain_handle_use(void)
{
    struct enemy e = {10};
    stow_handle_t plain = stow_genpool_insert(&plain_enemies, &e);
#if STOW_COMPILE_FAIL
    return enemies_remove(plain); /* a plain handle to a typed pool */
#else
    enemies_handle_t typed;
    typed.untyped = plain; /* the explicit way, when it is really meant */
    return enemies_contains(typed);
#endif
}
