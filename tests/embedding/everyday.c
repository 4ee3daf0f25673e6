/* SPDX-License-Identifier: MIT */
/* everyday.c - a firmware that makes each kind of container and uses its
 * everyday calls (init, alloc, free, insert, get, remove, push, stats, check),
 * and provides, of the port, only what stow/port.h says those calls need: the
 * assert hook at check levels 1 and 2, nothing at level 0
 * (tests/embedding/port_calls.sh links it with no port and no C library). */
#include "stow/stow.h"

#if STOW_CHECK_LEVEL >= 1
void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    (void)expr;
    (void)file;
    (void)line;
}
#endif

struct item {
    uint32_t a, b;
};

STOW_POOL_DEFINE(pool, struct item, 4);
STOW_GENPOOL_DEFINE(genpool, struct item, 4);
STOW_SLOTMAP_DEFINE(slotmap, struct item, 4);
STOW_PACKED_DEFINE(packed, struct item, 4);
STOW_HEAP_DEFINE(heap, 512);
STOW_ARENA_DEFINE(arena, 64);

static STOW_ALIGNAS(16) unsigned char buf[256];
static stow_pool_t made;

int main(void);
int main(void)
{
    struct item it = {1u, 2u};
    stow_stats_t st;
    bool ok = stow_pool_init(&made, buf, sizeof buf, sizeof it, 0u, 4u);
    void *p = stow_pool_alloc(&pool);
    stow_pool_free(&pool, p);
    stow_handle_t g = stow_genpool_insert(&genpool, &it);
    ok = ok && stow_genpool_get(&genpool, g) != NULL;
    stow_genpool_remove(&genpool, g);
    stow_handle_t m = stow_slotmap_insert(&slotmap, &it);
    ok = ok && stow_slotmap_get(&slotmap, m) != NULL;
    stow_slotmap_remove(&slotmap, m);
    ok = ok && stow_packed_push(&packed) != NULL;
    void *h = stow_heap_alloc(&heap, 40u);
    stow_heap_free(&heap, h);
    ok = ok && stow_arena_alloc(&arena, 8u, 0u) != NULL;
    stow_arena_reset(&arena);
    stow_pool_stats(&pool, &st);
    stow_heap_stats(&heap, &st);
    ok = ok && stow_pool_check(&pool) && stow_genpool_check(&genpool) && stow_slotmap_check(&slotmap) &&
         stow_packed_check(&packed) && stow_heap_check(&heap) && stow_arena_check(&arena);
    return ok ? 0 : 1;
}
