/* SPDX-License-Identifier: MIT */
/* cxx_cost.c - each operation through the C API, as a C program writes it; its
 * twin in cxx_cost.cpp goes through stow.hpp. bench/cxx_cost.sh compares the
 * instructions of each pair. */
#include "cxx_cost.h"

/* The cost_* globals are defined nowhere: these objects are disassembled,
 * never linked, and an external global is reached the same way from both. */

#define EXPORT(ret, name, ...) ret name(__VA_ARGS__); ret name(__VA_ARGS__)

/* genpool */
EXPORT(void, c_genpool_get, stow_genpool_t *g, stow_handle_t h) { cost_ptr = stow_genpool_get(g, h); }
EXPORT(void, c_genpool_contains, stow_genpool_t *g, stow_handle_t h) { cost_flag = stow_genpool_contains(g, h); }
EXPORT(void, c_genpool_insert, stow_genpool_t *g, const struct cost_item *item)
{
    cost_handle = stow_genpool_insert(g, item);
}
EXPORT(void, c_genpool_remove, stow_genpool_t *g, stow_handle_t h) { cost_flag = stow_genpool_remove(g, h); }
static inline void genpool_emplace(stow_genpool_t *g, int32_t damage, uint32_t target)
{
    stow_handle_t h;
    struct cost_item *p = (struct cost_item *)stow_genpool_alloc(g, &h);
    if (p != NULL) {
        p->damage = damage;
        p->target = target;
    }
    cost_handle = h;
}
EXPORT(void, c_genpool_emplace, stow_genpool_t *g, int32_t damage, uint32_t target)
{
    genpool_emplace(g, damage, target);
}

/* slotmap */
EXPORT(void, c_slotmap_get, stow_slotmap_t *m, stow_handle_t h) { cost_ptr = stow_slotmap_get(m, h); }
EXPORT(void, c_slotmap_contains, stow_slotmap_t *m, stow_handle_t h) { cost_flag = stow_slotmap_contains(m, h); }
EXPORT(void, c_slotmap_insert, stow_slotmap_t *m, const struct cost_item *item)
{
    cost_handle = stow_slotmap_insert(m, item);
}
EXPORT(void, c_slotmap_remove, stow_slotmap_t *m, stow_handle_t h) { cost_flag = stow_slotmap_remove(m, h); }
EXPORT(void, c_slotmap_emplace, stow_slotmap_t *m, int32_t damage, uint32_t target)
{
    stow_handle_t h;
    struct cost_item *p = (struct cost_item *)stow_slotmap_alloc(m, &h);
    if (p != NULL) {
        p->damage = damage;
        p->target = target;
    }
    cost_handle = h;
}
EXPORT(void, c_slotmap_mark_dead, stow_slotmap_t *m, stow_handle_t h) { cost_flag = stow_slotmap_mark_dead(m, h); }
EXPORT(void, c_slotmap_refresh, stow_slotmap_t *m) { cost_u32 = stow_slotmap_refresh(m, NULL, NULL); }
EXPORT(void, c_slotmap_walk, stow_slotmap_t *m)
{
    const struct cost_item *items = (const struct cost_item *)stow_slotmap_data(m);
    uint32_t n = stow_slotmap_count(m);
    uint32_t sum = 0u;
    for (uint32_t i = 0; i < n; i++) {
        sum += items[i].target;
    }
    cost_u32 = sum;
}

/* index bits of their own: the same calls (each container keeps its split) */
EXPORT(void, c_slotmap_get_bits, stow_slotmap_t *m, stow_handle_t h) { cost_ptr = stow_slotmap_get(m, h); }
EXPORT(void, c_genpool_emplace_bits, stow_genpool_t *g, int32_t damage, uint32_t target)
{
    genpool_emplace(g, damage, target);
}

/* slotmap: the handle of an item (its position, then handle_at) */
EXPORT(void, c_slotmap_handle_of, stow_slotmap_t *m, const struct cost_item *item)
{
    const struct cost_item *items = (const struct cost_item *)stow_slotmap_data(m);
    uint32_t pos = (uint32_t)(item - items);
    cost_handle = pos < stow_slotmap_count(m) ? stow_slotmap_handle_at(m, pos) : STOW_HANDLE_NULL;
}

/* packed */
EXPORT(void, c_packed_push, stow_packed_t *a, int32_t damage, uint32_t target)
{
    struct cost_item *p = (struct cost_item *)stow_packed_push(a);
    if (p != NULL) {
        p->damage = damage;
        p->target = target;
    }
    cost_ptr = p;
}
EXPORT(void, c_packed_remove_at, stow_packed_t *a, uint32_t index) { stow_packed_remove_at(a, index); }

/* pool */
EXPORT(void, c_pool_emplace, stow_pool_t *p, int32_t damage, uint32_t target)
{
    struct cost_item *item = (struct cost_item *)stow_pool_alloc(p);
    if (item != NULL) {
        item->damage = damage;
        item->target = target;
    }
    cost_ptr = item;
}
EXPORT(void, c_pool_destroy, stow_pool_t *p, struct cost_item *item) { stow_pool_free(p, item); }

/* arena and heap */
EXPORT(void, c_arena_make, stow_arena_t *a, int32_t damage, uint32_t target)
{
    struct cost_item *item = (struct cost_item *)stow_arena_alloc(a, sizeof(struct cost_item),
                                                                  STOW_ALIGNOF(struct cost_item));
    if (item != NULL) {
        item->damage = damage;
        item->target = target;
    }
    cost_ptr = item;
}
EXPORT(void, c_heap_make, stow_heap_t *h, int32_t damage, uint32_t target)
{
    struct cost_item *item = (struct cost_item *)stow_heap_alloc(h, sizeof(struct cost_item));
    if (item != NULL) {
        item->damage = damage;
        item->target = target;
    }
    cost_ptr = item;
}
EXPORT(void, c_heap_destroy, stow_heap_t *h, struct cost_item *item) { stow_heap_free(h, item); }
EXPORT(void, c_heap_make_array, stow_heap_t *h, size_t n) { cost_ptr = stow_heap_calloc(h, n, sizeof(struct cost_item)); }
EXPORT(void, c_heap_destroy_array, stow_heap_t *h, struct cost_item *items) { stow_heap_free(h, items); }

