// cxx_check.cpp - the public headers compile as C++11, DEFINE macros included.
// Built (not run) by `make test`.
#include "stow/stow.h"

STOW_ARENA_DEFINE(cxx_arena, 64);
STOW_ARENA_DEFINE_STATIC(cxx_arena_static, 64);
STOW_POOL_DEFINE(cxx_pool, double, 4); STOW_POOL_DEFINE_STATIC(cxx_pool_static, char, 3); double *cxx_pool_new(); double *cxx_pool_new() { return stow_pool_owns(&cxx_pool_static, nullptr) ? nullptr : STOW_POOL_NEW(&cxx_pool, double); }

int stow_cxx_check(void);
int stow_cxx_check(void)
{
    stow_handle_t h = STOW_HANDLE_NULL;
    int *x = STOW_ARENA_NEW(&cxx_arena, int);
    char *xs = STOW_ARENA_NEW_ARRAY(&cxx_arena_static, char, 8);
    return (stow_handle_is_null(h) && x != nullptr && xs != nullptr) ? 0 : 1;
}
