// SPDX-License-Identifier: MIT
// cxx_cost.cpp - each operation of bench/cxx_cost.c again, through stow.hpp, as
// a C++ program writes it: same name with cxx_ for c_, same work around the call.
#include "stow/stow.hpp"

#include "cxx_cost.h"

using genpool_t = stow::genpool<cost_item, COST_CAPACITY>;
using slotmap_t = stow::slotmap<cost_item, COST_CAPACITY>;
using packed_t = stow::packed<cost_item, COST_CAPACITY>;
using pool_t = stow::pool<cost_item, COST_CAPACITY>;
using arena_t = stow::arena<COST_ARENA_BYTES>;
using heap_t = stow::heap<COST_HEAP_BYTES>;
using slotmap_bits_t = stow::slotmap<cost_item, COST_CAPACITY, void, COST_INDEX_BITS>;
using genpool_bits_t = stow::genpool<cost_item, COST_CAPACITY, void, COST_INDEX_BITS>;

extern "C" {

/* genpool */
void cxx_genpool_get(genpool_t *g, genpool_t::handle_type h) { cost_ptr = g->get(h); }
void cxx_genpool_contains(genpool_t *g, genpool_t::handle_type h) { cost_flag = g->contains(h); }
void cxx_genpool_insert(genpool_t *g, const cost_item *item) { cost_handle = g->insert(*item).untyped(); }
void cxx_genpool_remove(genpool_t *g, genpool_t::handle_type h) { cost_flag = g->remove(h); }
void cxx_genpool_emplace(genpool_t *g, int32_t damage, uint32_t target)
{
    cost_handle = g->emplace(cost_item{damage, target}).untyped();
}

/* slotmap */
void cxx_slotmap_get(slotmap_t *m, slotmap_t::handle_type h) { cost_ptr = m->get(h); }
void cxx_slotmap_contains(slotmap_t *m, slotmap_t::handle_type h) { cost_flag = m->contains(h); }
void cxx_slotmap_insert(slotmap_t *m, const cost_item *item) { cost_handle = m->insert(*item).untyped(); }
void cxx_slotmap_remove(slotmap_t *m, slotmap_t::handle_type h) { cost_flag = m->remove(h); }
void cxx_slotmap_emplace(slotmap_t *m, int32_t damage, uint32_t target)
{
    cost_handle = m->emplace(cost_item{damage, target}).untyped();
}
void cxx_slotmap_mark_dead(slotmap_t *m, slotmap_t::handle_type h) { cost_flag = m->mark_dead(h); }
void cxx_slotmap_refresh(slotmap_t *m) { cost_u32 = m->refresh(); }
void cxx_slotmap_walk(slotmap_t *m)
{
    uint32_t sum = 0u;
    for (const cost_item &item : *m) {
        sum += item.target;
    }
    cost_u32 = sum;
}

/* index bits of their own */
void cxx_slotmap_get_bits(slotmap_bits_t *m, slotmap_bits_t::handle_type h) { cost_ptr = m->get(h); }
void cxx_genpool_emplace_bits(genpool_bits_t *g, int32_t damage, uint32_t target)
{
    cost_handle = g->emplace(cost_item{damage, target}).untyped();
}

/* slotmap handle_of, in line */
void cxx_slotmap_handle_of(slotmap_t *m, const cost_item *item) { cost_handle = m->handle_of(*item).untyped(); }

/* packed */
void cxx_packed_push(packed_t *a, int32_t damage, uint32_t target)
{
    cost_ptr = a->emplace_back(cost_item{damage, target});
}
void cxx_packed_remove_at(packed_t *a, uint32_t index) { a->remove_at(index); }

/* pool */
void cxx_pool_emplace(pool_t *p, int32_t damage, uint32_t target) { cost_ptr = p->emplace(cost_item{damage, target}); }
void cxx_pool_destroy(pool_t *p, cost_item *item) { p->destroy(item); }

/* arena and heap */
void cxx_arena_make(arena_t *a, int32_t damage, uint32_t target) { cost_ptr = a->make<cost_item>(cost_item{damage, target}); }
void cxx_heap_make(heap_t *h, int32_t damage, uint32_t target) { cost_ptr = h->make<cost_item>(cost_item{damage, target}); }
void cxx_heap_destroy(heap_t *h, cost_item *item) { h->destroy(item); }
void cxx_heap_make_array(heap_t *h, size_t n) { cost_ptr = h->make_array<cost_item>(n); }
void cxx_heap_destroy_array(heap_t *h, cost_item *items) { h->destroy_array(items); }

}
