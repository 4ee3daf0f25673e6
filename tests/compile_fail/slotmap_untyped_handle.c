/* SPDX-License-Identifier: MIT */
/* A plain stow_handle_t passed to a typed slot map's wrapper must not compile:
 * the typed handle is only made by the map (or spelled out through .untyped).
 * With STOW_COMPILE_FAIL=0 the typed handle is passed and it compiles. */
#include "stow/slotmap.h"

STOW_SLOTMAP_DEFINE_TYPED(scores, unsigned, 4);

int stow_compile_fail_slotmap_untyped(void);
int stow_compile_fail_slotmap_untyped(void)
{
    unsigned v = 10;
    scores_handle_t h = scores_insert(&v);
    stow_handle_t plain = stow_handle_make(0, 1);
    (void)h;
#if STOW_COMPILE_FAIL
    return scores_remove(plain) ? 0 : 1;
#else
    return scores_remove(h) && !stow_handle_is_null(plain) ? 0 : 1;
#endif
}
