// SPDX-License-Identifier: MIT
// cxx_check.cpp - the public headers compile as C++11, DEFINE macros included.
// Built (not run) by `make test` (check-headers), and by check-headers-strict
// with -Wold-style-cast, -Wuseless-cast, -Wconversion and more as errors.
#include "stow/stow.h"

STOW_ARENA_DEFINE(cxx_arena, 64);
STOW_ARENA_DEFINE_STATIC(cxx_arena_static, 64);
STOW_POOL_DEFINE(cxx_pool, double, 4);
STOW_POOL_DEFINE_STATIC(cxx_pool_static, char, 3);
STOW_GENPOOL_DEFINE(cxx_genpool, double, 3);
STOW_GENPOOL_DEFINE_STATIC(cxx_genpool_static, char, 5);
STOW_GENPOOL_DEFINE_TYPED_STATIC(cxx_genpool_typed, int, 2);
STOW_SLOTMAP_DEFINE(cxx_slotmap, int, 4);
STOW_SLOTMAP_DEFINE_TYPED_STATIC(cxx_slotmap_typed, double, 3);
STOW_SLOTMAP_DEFINE_TYPED(cxx_slotmap_typed_extern, char, 5);
STOW_GENPOOL_DEFINE_TYPED_BITS_STATIC(cxx_genpool_bits, int, 4096, 12);
STOW_SLOTMAP_DEFINE_TYPED_BITS(cxx_slotmap_bits, char, 4096, 12);
STOW_PACKED_DEFINE(cxx_packed, int, 4);
STOW_PACKED_DEFINE_STATIC(cxx_packed_static, char, 3);
// Capacities of other types than int, and DEFINEs in a namespace.
namespace cxx_ns {
STOW_ARENA_DEFINE(arena_u, 64u);
STOW_POOL_DEFINE(pool_z, int, sizeof(double));
STOW_PACKED_DEFINE_STATIC(packed_u32, double, UINT32_C(2));
} // namespace cxx_ns

int stow_cxx_check(void);
int stow_cxx_check(void)
{
    stow_handle_t h = STOW_HANDLE_NULL;
    int *x = STOW_ARENA_NEW(&cxx_arena, int);
    char *xs = STOW_ARENA_NEW_ARRAY(&cxx_arena_static, char, 8);
    double *d = STOW_POOL_NEW(&cxx_pool, double);
    char *c = STOW_POOL_NEW(&cxx_pool_static, char);
    double one = 1.0;
    char letter = 'c';
    int two = 2;
    cxx_genpool_typed_handle_t t = cxx_genpool_typed_insert(&two);
    cxx_slotmap_typed_handle_t st = cxx_slotmap_typed_insert(&one);
    char *pushed = STOW_PACKED_PUSH(&cxx_packed_static, char);
    int *ints = STOW_ARENA_NEW_ARRAY(&cxx_ns::arena_u, int, sizeof(int));
    int *pooled = STOW_POOL_NEW(&cxx_ns::pool_z, int);
    double *pd = STOW_PACKED_PUSH(&cxx_ns::packed_u32, double);
    double *pa = STOW_PACKED_AT(&cxx_ns::packed_u32, double, 0u);
    double *pdata = STOW_PACKED_DATA(&cxx_ns::packed_u32, double);
    size_t bytes = STOW_ARENA_BYTES(16) + STOW_POOL_BYTES(sizeof(int), alignof(int), 4) +
                   STOW_POOL_BYTES(3u, 0u, 2u) + STOW_PACKED_BYTES(sizeof(int), 0, 4u) +
                   STOW_POOL_STRIDE(1, 1) + STOW_POOL_BLOCK_ALIGN(0u) + STOW_PACKED_ALIGN(2);
    bool ok = stow_handle_is_null(h) && x != nullptr && xs != nullptr && d != nullptr && c != nullptr &&
              stow_genpool_get(&cxx_genpool, stow_genpool_insert(&cxx_genpool, &one)) != nullptr &&
              !stow_handle_is_null(stow_genpool_insert(&cxx_genpool_static, &letter)) &&
              cxx_genpool_typed_get(t) != nullptr && cxx_slotmap_typed_get(st) != nullptr &&
              stow_slotmap_get(&cxx_slotmap, stow_slotmap_insert(&cxx_slotmap, &two)) != nullptr &&
              pushed != nullptr && stow_packed_push(&cxx_packed) != nullptr && ints != nullptr &&
              pooled != nullptr && pd == pa && pa == pdata && bytes != 0u &&
              cxx_genpool_bits_index(cxx_genpool_bits_insert(&two)) + cxx_slotmap_bits_generation(
                                                                         cxx_slotmap_bits_insert(&letter)) ==
                  1u;
    double sum = 0.0;
    STOW_GENPOOL_FOREACH(&cxx_genpool, double, v) {
        sum += *v;
    }
    stow_genpool_walk_t w = stow_genpool_walk_begin(&cxx_genpool);
    while (stow_genpool_walk_next(&w)) {
        sum += *static_cast<double *>(w.item);
    }
    return ok && sum > 0.0 ? 0 : 1;
}
