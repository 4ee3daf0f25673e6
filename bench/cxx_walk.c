/* SPDX-License-Identifier: MIT */
/* cxx_walk.c - the walks a C program writes over every item of a slot map and
 * of a genpool, without and with each item's handle; bench/cxx_walk.cpp has
 * their C++ twins. */
#include "cxx_walk.h"

#define NOIPA __attribute__((noipa))

/* The packed items: a plain loop (today's walk). */
NOIPA uint32_t c_slotmap_walk(const stow_slotmap_t *m)
{
    const struct walk_item *items = (const struct walk_item *)stow_slotmap_data(m);
    uint32_t n = stow_slotmap_count(m);
    uint32_t sum = 0u;
    for (uint32_t i = 0; i < n; i++) {
        sum += items[i].target;
    }
    return sum;
}

/* With handles: the C API's way, stow_slotmap_handle_at() per position. */
NOIPA uint32_t c_slotmap_walk_handles(const stow_slotmap_t *m)
{
    const struct walk_item *items = (const struct walk_item *)stow_slotmap_data(m);
    uint32_t n = stow_slotmap_count(m);
    uint32_t sum = 0u;
    for (uint32_t i = 0; i < n; i++) {
        sum += items[i].target + stow_slotmap_handle_at(m, i).bits;
    }
    return sum;
}

/* The fast walk (today's fastest). */
NOIPA uint32_t c_genpool_foreach(const stow_genpool_t *g)
{
    uint32_t sum = 0u;
    STOW_GENPOOL_FOREACH(g, const struct walk_item, e) {
        sum += e->target;
    }
    return sum;
}

/* The fast walk, and each item's handle from stow_genpool_handle_of(). */
NOIPA uint32_t c_genpool_foreach_handles(const stow_genpool_t *g)
{
    uint32_t sum = 0u;
    STOW_GENPOOL_FOREACH(g, const struct walk_item, e) {
        sum += e->target + stow_genpool_handle_of(g, e).bits;
    }
    return sum;
}

/* Handles first: first()/next() and get() per item. */
NOIPA uint32_t c_genpool_first_next(const stow_genpool_t *g)
{
    uint32_t sum = 0u;
    for (stow_handle_t h = stow_genpool_first(g); !stow_handle_is_null(h); h = stow_genpool_next(g, h)) {
        const struct walk_item *e = (const struct walk_item *)stow_genpool_get(g, h);
        sum += e->target + h.bits;
    }
    return sum;
}
