/* SPDX-License-Identifier: MIT */
/* ops_genpool.c - instructions per genpool operation; see bench.h.
 *
 * Items of 8 bytes (a missile: damage and its target's handle), and of 16 and 32
 * bytes for the insert rows. insert and alloc are measured on never-used slots (the bump
 * index) and on removed ones (the free list). Iteration is per item: first()
 * then next() until every live item was seen, over a full pool and over one
 * with one live item in every 20 slots; STOW_GENPOOL_FOREACH also over one with
 * every other slot live.
 */
#include "bench.h"

struct item8 {
    int32_t damage;
    uint32_t target;
};

struct item16 {
    uint32_t w[4];
};

struct item32 {
    uint32_t w[8];
};

static stow_genpool_t gp;
#define handles stow_bench_handles
static const struct item8 item8 = {3, 0x10001u};
static const struct item16 item16 = {{1, 2, 3, 4}};
static const struct item32 item32 = {{1, 2, 3, 4, 5, 6, 7, 8}};
static const unsigned char *first_item;
static stow_handle_t it; /* the iteration's current handle */

static void init_for(size_t size, size_t align)
{
    if (!stow_genpool_init(&gp, stow_bench_ram, STOW_GENPOOL_BYTES(size, align, BENCH_OPS), size,
                           align, BENCH_OPS)) {
        stow_bench_fail("genpool", "init");
    }
}

static void prep_fresh(void) { init_for(sizeof(struct item8), STOW_ALIGNOF(struct item8)); }

static void prep_full(void)
{
    prep_fresh();
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        handles[i] = stow_genpool_insert(&gp, &item8);
    }
    first_item = (const unsigned char *)stow_genpool_get(&gp, handles[0]);
    if (stow_genpool_count(&gp) != BENCH_OPS || first_item == NULL) {
        stow_bench_fail("genpool", "not full");
    }
}

static void prep_all_removed(void)
{
    prep_full();
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        (void)stow_genpool_remove(&gp, handles[i]);
    }
}

/* A pool of SPARSE_SLOTS slots, all used, one live item in every 20. */
#define SPARSE_SLOTS 100u
static void prep_sparse(void)
{
    prep_fresh();
    for (uint32_t i = 0; i < SPARSE_SLOTS; i++) {
        handles[i] = stow_genpool_insert(&gp, &item8);
    }
    for (uint32_t i = 0; i < SPARSE_SLOTS; i++) {
        if (i % 20u != 0u) {
            (void)stow_genpool_remove(&gp, handles[i]);
        }
    }
}

/* A full pool with every other item removed: each live item alone between two
 * free slots, a run of its own (the walk's dearest case per item). */
static void prep_every_other(void)
{
    prep_full();
    for (uint32_t i = 1; i < BENCH_OPS; i += 2) {
        (void)stow_genpool_remove(&gp, handles[i]);
    }
}

static void prep_16_fresh(void) { init_for(sizeof(struct item16), STOW_ALIGNOF(struct item16)); }
static void prep_16_all_removed(void)
{
    prep_16_fresh();
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        handles[i] = stow_genpool_insert(&gp, &item16);
    }
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        (void)stow_genpool_remove(&gp, handles[i]);
    }
}

static void prep_32_all_removed(void)
{
    init_for(sizeof(struct item32), STOW_ALIGNOF(struct item32));
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        handles[i] = stow_genpool_insert(&gp, &item32);
    }
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        (void)stow_genpool_remove(&gp, handles[i]);
    }
}

static BENCH_BARE stow_handle_t bare_insert(stow_genpool_t *g BENCH_UNUSED,
                                            const void *item BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void *bare_alloc(stow_genpool_t *g BENCH_UNUSED,
                                   stow_handle_t *out BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void *bare_get(const stow_genpool_t *g BENCH_UNUSED,
                                 stow_handle_t h BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE bool bare_test(const stow_genpool_t *g BENCH_UNUSED,
                                 stow_handle_t h BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE bool bare_remove(stow_genpool_t *g BENCH_UNUSED,
                                   stow_handle_t h BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE stow_handle_t bare_handle_of(const stow_genpool_t *g BENCH_UNUSED,
                                               const void *item BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE stow_handle_t bare_first(const stow_genpool_t *g BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE stow_handle_t bare_next(const stow_genpool_t *g BENCH_UNUSED,
                                          stow_handle_t h BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void bare_clear(stow_genpool_t *g BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void *bare_iterate(const stow_genpool_t *g BENCH_UNUSED,
                                     uint32_t *cursor BENCH_UNUSED) BENCH_BARE_BODY

BENCH_LOOP(run_genpool_insert_fresh, handles[i] = stow_genpool_insert(&gp, &item8))
BENCH_LOOP(run_genpool_insert, handles[i] = stow_genpool_insert(&gp, &item8))
BENCH_LOOP(base_genpool_insert, handles[i] = bare_insert(&gp, &item8))
BENCH_LOOP(run_genpool_insert16_fresh, handles[i] = stow_genpool_insert(&gp, &item16))
BENCH_LOOP(run_genpool_insert16, handles[i] = stow_genpool_insert(&gp, &item16))
BENCH_LOOP(base_genpool_insert16, handles[i] = bare_insert(&gp, &item16))
BENCH_LOOP(run_genpool_insert32, handles[i] = stow_genpool_insert(&gp, &item32))
BENCH_LOOP(base_genpool_insert32, handles[i] = bare_insert(&gp, &item32))
BENCH_LOOP(run_genpool_alloc, stow_bench_sink = stow_genpool_alloc(&gp, &handles[i]))
BENCH_LOOP(base_genpool_alloc, stow_bench_sink = bare_alloc(&gp, &handles[i]))
BENCH_LOOP(run_genpool_get, stow_bench_sink = stow_genpool_get(&gp, handles[i]))
BENCH_LOOP(run_genpool_get_stale, stow_bench_sink = stow_genpool_get(&gp, handles[i]))
BENCH_LOOP(base_genpool_get, stow_bench_sink = bare_get(&gp, handles[i]))
BENCH_LOOP(run_genpool_contains, stow_bench_sink_u32 = stow_genpool_contains(&gp, handles[i]))
BENCH_LOOP(base_genpool_contains, stow_bench_sink_u32 = bare_test(&gp, handles[i]))
BENCH_LOOP(run_genpool_remove, stow_bench_sink_u32 = stow_genpool_remove(&gp, handles[i]))
BENCH_LOOP(base_genpool_remove, stow_bench_sink_u32 = bare_remove(&gp, handles[i]))
BENCH_LOOP(run_genpool_handle_of,
           stow_bench_sink_u32 = stow_genpool_handle_of(&gp, first_item + i * sizeof(struct item8)).bits)
BENCH_LOOP(base_genpool_handle_of,
           stow_bench_sink_u32 = bare_handle_of(&gp, first_item + i * sizeof(struct item8)).bits)
BENCH_LOOP(run_genpool_clear, stow_genpool_clear(&gp))
BENCH_LOOP(base_genpool_clear, bare_clear(&gp))

/* Iteration: one pass visits every live item once, first() then next() as many
 * times as there are live items after the first; BENCH_OPS / live passes make BENCH_OPS
 * calls in all. The pass length is known, so the loop needs no test of the
 * handle, and base has the same shape. */
#define ITERATE(name, first, next, live)                                          \
    static BENCH_NOIPA void name(void)                                            \
    {                                                                             \
        for (uint32_t pass = 0; pass < BENCH_OPS / (live); pass++) {              \
            it = first(&gp);                                                      \
            for (uint32_t i = 1; i < (live); i++) {                               \
                it = next(&gp, it);                                               \
            }                                                                     \
        }                                                                         \
    }
ITERATE(run_genpool_iterate_full, stow_genpool_first, stow_genpool_next, BENCH_OPS)
ITERATE(base_genpool_iterate_full, bare_first, bare_next, BENCH_OPS)
ITERATE(run_genpool_iterate_sparse, stow_genpool_first, stow_genpool_next, SPARSE_SLOTS / 20u)
ITERATE(base_genpool_iterate_sparse, bare_first, bare_next, SPARSE_SLOTS / 20u)

/* iterate(): BENCH_OPS calls over a full pool (cursor from 0 up), one pass. */
static uint32_t cursor;
BENCH_LOOP(run_genpool_item_walk, stow_bench_sink = stow_genpool_iterate(&gp, &cursor))
BENCH_LOOP(base_genpool_item_walk, stow_bench_sink = bare_iterate(&gp, &cursor))
static void prep_full_walk(void)
{
    prep_full();
    cursor = 0;
}

/* STOW_GENPOOL_FOREACH: one walk over the pool, in a function of its own so that
 * it is one call (per item: its instructions over the live items). The body
 * only keeps the pointer alive, in a register, at no instruction. */
static BENCH_NOIPA void walk_foreach(void)
{
    STOW_GENPOOL_FOREACH(&gp, struct item8, e) {
        __asm__ volatile("" : : "r"(e));
    }
}
/* The same walk written out with stow_genpool_walk_next(). */
static BENCH_NOIPA void walk_cursor(void)
{
    stow_genpool_walk_t w = stow_genpool_walk_begin(&gp);
    while (stow_genpool_walk_next(&w)) {
        __asm__ volatile("" : : "r"(w.item));
    }
}
static BENCH_BARE void bare_walk(void) BENCH_BARE_BODY
static BENCH_NOIPA void run_genpool_walk_next_full(void) { walk_cursor(); }
static BENCH_NOIPA void run_genpool_foreach_full(void) { walk_foreach(); }
static BENCH_NOIPA void run_genpool_foreach_sparse(void) { walk_foreach(); }
static BENCH_NOIPA void run_genpool_foreach_alone(void) { walk_foreach(); }
static BENCH_NOIPA void base_genpool_foreach(void) { bare_walk(); }

/* Untimed: the items the walk visits, which must be the live ones in slot order. */
static uint32_t count_walk(void)
{
    uint32_t n = 0;
    const struct item8 *last = NULL;
    STOW_GENPOOL_FOREACH(&gp, struct item8, e) {
        if (e <= last || stow_handle_is_null(stow_genpool_handle_of(&gp, e))) {
            stow_bench_fail("genpool", "FOREACH visited a dead slot or went back");
        }
        last = e;
        n++;
    }
    return n;
}

void stow_bench_genpool(void)
{
    BENCH_ROW("genpool insert (8-byte item, never-used slot)", prep_fresh, run_genpool_insert_fresh,
              base_genpool_insert);
    BENCH_ROW("genpool insert (8-byte item, free list)", prep_all_removed, run_genpool_insert,
              base_genpool_insert);
    BENCH_ROW("genpool insert (16-byte item, never-used slot)", prep_16_fresh,
              run_genpool_insert16_fresh, base_genpool_insert16);
    BENCH_ROW("genpool insert (16-byte item, free list)", prep_16_all_removed, run_genpool_insert16,
              base_genpool_insert16);
    BENCH_ROW("genpool insert (32-byte item, free list)", prep_32_all_removed,
              run_genpool_insert32, base_genpool_insert32);
    BENCH_ROW("genpool alloc (8-byte item, zeroed, free list)", prep_all_removed,
              run_genpool_alloc, base_genpool_alloc);
    BENCH_ROW("genpool get", prep_full, run_genpool_get, base_genpool_get);
    BENCH_ROW("genpool get (stale handle)", prep_all_removed, run_genpool_get_stale, base_genpool_get);
    BENCH_ROW("genpool contains", prep_full, run_genpool_contains, base_genpool_contains);
    BENCH_ROW("genpool remove", prep_full, run_genpool_remove, base_genpool_remove);
    if (stow_genpool_count(&gp) != 0u || !stow_genpool_check(&gp)) {
        stow_bench_fail("genpool", "remove");
    }
    BENCH_ROW("genpool handle_of", prep_full, run_genpool_handle_of, base_genpool_handle_of);
    if (stow_bench_sink_u32 != handles[BENCH_OPS - 1u].bits) {
        stow_bench_fail("genpool", "handle_of");
    }
    BENCH_ROW("genpool first/next (full pool, per item)", prep_full, run_genpool_iterate_full,
              base_genpool_iterate_full);
    BENCH_ROW("genpool first/next (5 live in 100 slots, per item)", prep_sparse,
              run_genpool_iterate_sparse, base_genpool_iterate_sparse);
    BENCH_ROW("genpool iterate (full pool, per item)", prep_full_walk, run_genpool_item_walk,
              base_genpool_item_walk);
    if (stow_handle_index(it) != SPARSE_SLOTS - 20u) {
        stow_bench_fail("genpool", "iteration");
    }
    BENCH_ROW_N("genpool FOREACH (full pool, per item)", prep_full, run_genpool_foreach_full,
                base_genpool_foreach, BENCH_OPS, 1u);
    if (count_walk() != BENCH_OPS) {
        stow_bench_fail("genpool", "FOREACH");
    }
    BENCH_ROW_N("genpool walk_next (full pool, per item)", prep_full, run_genpool_walk_next_full,
                base_genpool_foreach, BENCH_OPS, 1u);
    BENCH_ROW_N("genpool FOREACH (every other slot live, per item)", prep_every_other,
                run_genpool_foreach_alone, base_genpool_foreach, BENCH_OPS / 2u, 1u);
    if (count_walk() != BENCH_OPS / 2u) {
        stow_bench_fail("genpool", "FOREACH, every other");
    }
    BENCH_ROW_N("genpool FOREACH (5 live in 100 slots, per item)", prep_sparse,
                run_genpool_foreach_sparse, base_genpool_foreach, SPARSE_SLOTS / 20u, 1u);
    if (count_walk() != SPARSE_SLOTS / 20u) {
        stow_bench_fail("genpool", "FOREACH, sparse");
    }
    BENCH_ROW("genpool clear", prep_full, run_genpool_clear, base_genpool_clear);
    if (!stow_genpool_check(&gp)) {
        stow_bench_fail("genpool", "check");
    }
}
