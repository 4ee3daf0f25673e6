/* SPDX-License-Identifier: MIT */
/* hot.c - what a firmware links of each module for its everyday operations.
 *
 * bench/size.sh builds this file once per module (-DHOT_<module>, or -DHOT_all
 * for all of them together) with the module's object, and links it with
 * --gc-sections and hot_main as the only root: what is left is hot_main, the
 * assert hook below, and the functions of lib/ those operations reach. size.sh
 * takes hot_main and the hook off, so the figure is the library's own bytes.
 * Each container comes from its DEFINE macro, so nothing calls init(); check(),
 * stats() and the rest stay out, as they would in a release build that never
 * calls them.
 */
#include "stow/stow.h"

/* The port's hook, as small as one can be: at level 1 the checks call it. */
void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    (void)expr;
    (void)file;
    (void)line;
    for (;;) {
    }
}

struct msg {
    uint32_t id;
    uint8_t body[12];
};

void hot_main(void);
void *volatile hot_sink;
struct msg hot_item; /* what insert copies: in .bss, so that no constant of ours is counted */
volatile size_t hot_size; /* the heap's request sizes: not known at compile time */

#if defined(HOT_arena) || defined(HOT_all)
STOW_ARENA_DEFINE(hot_arena, 1024);
static void hot_arena_ops(void)
{
    hot_sink = stow_arena_alloc(&hot_arena, sizeof(struct msg), 4u);
    stow_arena_reset(&hot_arena);
}
#endif

#if defined(HOT_pool) || defined(HOT_all)
STOW_POOL_DEFINE(hot_pool, struct msg, 16);
static void hot_pool_ops(void)
{
    void *m = stow_pool_alloc(&hot_pool);
    hot_sink = m;
    stow_pool_free(&hot_pool, m);
}
#endif

#if defined(HOT_genpool) || defined(HOT_all)
STOW_GENPOOL_DEFINE(hot_genpool, struct msg, 16);
static void hot_genpool_ops(void)
{
    stow_handle_t h = stow_genpool_insert(&hot_genpool, &hot_item);
    hot_sink = stow_genpool_get(&hot_genpool, h);
    (void)stow_genpool_remove(&hot_genpool, h);
}
#endif

#if defined(HOT_slotmap) || defined(HOT_all)
STOW_SLOTMAP_DEFINE(hot_slotmap, struct msg, 16);
static void hot_slotmap_ops(void)
{
    stow_handle_t h = stow_slotmap_insert(&hot_slotmap, &hot_item);
    hot_sink = stow_slotmap_get(&hot_slotmap, h);
    hot_sink = stow_slotmap_data(&hot_slotmap);
    (void)stow_slotmap_remove(&hot_slotmap, h);
}
#endif

#if defined(HOT_packed) || defined(HOT_all)
STOW_PACKED_DEFINE(hot_packed, struct msg, 16);
static void hot_packed_ops(void)
{
    hot_sink = stow_packed_push(&hot_packed);
    hot_sink = stow_packed_data(&hot_packed);
    stow_packed_remove_at(&hot_packed, stow_packed_count(&hot_packed) - 1u);
}
#endif

#if defined(HOT_heap) || defined(HOT_all)
STOW_HEAP_DEFINE(hot_heap, 1024);
static void hot_heap_ops(void)
{
    void *p = stow_heap_alloc(&hot_heap, hot_size);
#ifndef HOT_HEAP_NO_REALLOC /* size.sh's "alloc + free" figure */
    p = stow_heap_realloc(&hot_heap, p, hot_size);
#endif
    hot_sink = p;
    stow_heap_free(&hot_heap, p);
}
#endif

void hot_main(void)
{
#if defined(HOT_arena) || defined(HOT_all)
    hot_arena_ops();
#endif
#if defined(HOT_pool) || defined(HOT_all)
    hot_pool_ops();
#endif
#if defined(HOT_genpool) || defined(HOT_all)
    hot_genpool_ops();
#endif
#if defined(HOT_slotmap) || defined(HOT_all)
    hot_slotmap_ops();
#endif
#if defined(HOT_packed) || defined(HOT_all)
    hot_packed_ops();
#endif
#if defined(HOT_heap) || defined(HOT_all)
    hot_heap_ops();
#endif
}
