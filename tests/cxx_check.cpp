// cxx_check.cpp - the public headers compile as C++11, DEFINE macros included.
// Built (not run) by `make test`.
#include "stow/stow.h"

STOW_ARENA_DEFINE(cxx_arena, 64);
STOW_ARENA_DEFINE_STATIC(cxx_arena_static, 64);
STOW_SLOTMAP_DEFINE(cxx_slotmap, int, 4); STOW_SLOTMAP_DEFINE_TYPED_STATIC(cxx_slotmap_typed, double, 3); STOW_SLOTMAP_DEFINE_TYPED(cxx_slotmap_typed_extern, char, 5);
STOW_PACKED_DEFINE(cxx_packed, int, 4); STOW_PACKED_DEFINE_STATIC(cxx_packed_static, char, 3); int stow_cxx_packed(void); int stow_cxx_packed(void) { return (int)stow_packed_count(&cxx_packed_static); }

int stow_cxx_check(void);
int stow_cxx_check(void)
{
    stow_handle_t h = STOW_HANDLE_NULL;
    int *x = STOW_ARENA_NEW(&cxx_arena, int);
    char *xs = STOW_ARENA_NEW_ARRAY(&cxx_arena_static, char, 8);
    return (stow_handle_is_null(h) && x != nullptr && xs != nullptr) ? 0 : 1;
}
