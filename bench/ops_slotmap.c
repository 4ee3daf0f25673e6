/* SPDX-License-Identifier: MIT */
/* ops_slotmap.c - instructions per slot map operation; see bench.h.
 *
 * Items are 16-byte particles (four words) unless a row says otherwise.
 * "first use": the handle index was never used (the map's bump); "reuses": an
 * index freed by a remove. Removing the items in the order they were inserted
 * moves the last item into each hole; removing from the end moves nothing but
 * still copies the item onto itself.
 */
#include "bench.h"

struct particle {
    uint32_t x, y, vx, vy;
};

static stow_slotmap_t map;
#define handles stow_bench_handles
static const struct particle particle = {1u, 2u, 3u, 4u};
static const uint32_t word = 7u;
static const uint32_t big[16] = {1u};
static const void *item;  /* what the insert rows copy */
static size_t item_size;  /* and its size */

static void init_for(const void *what, size_t size, size_t align)
{
    item = what;
    item_size = size;
    if (!stow_slotmap_init(&map, stow_bench_ram, STOW_SLOTMAP_BYTES(size, align, BENCH_OPS), size,
                           align, BENCH_OPS)) {
        stow_bench_fail("slotmap", "init");
    }
}

static void fill(void)
{
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        handles[i] = stow_slotmap_insert(&map, item);
    }
    if (stow_slotmap_count(&map) != BENCH_OPS) {
        stow_bench_fail("slotmap", "not full");
    }
}

static void empty_all(void)
{
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        (void)stow_slotmap_remove(&map, handles[i]);
    }
}

static void prep_fresh(void) { init_for(&particle, sizeof particle, STOW_ALIGNOF(struct particle)); }
static void prep_full(void)
{
    prep_fresh();
    fill();
}
static void prep_all_removed(void)
{
    prep_full();
    empty_all();
}
static void prep_half_dead(void)
{
    prep_full();
    for (uint32_t i = 1; i < BENCH_OPS; i += 2) {
        (void)stow_slotmap_mark_dead(&map, handles[i]);
    }
}
static void prep_word_fresh(void) { init_for(&word, sizeof word, STOW_ALIGNOF(uint32_t)); }
static void prep_word_full(void)
{
    prep_word_fresh();
    fill();
}
static void prep_word_all_removed(void)
{
    prep_word_full();
    empty_all();
}
static void prep_big_fresh(void) { init_for(big, sizeof big, STOW_ALIGNOF(uint32_t)); }
static void prep_big_full(void)
{
    prep_big_fresh();
    fill();
}
static void prep_big_all_removed(void)
{
    prep_big_full();
    empty_all();
}

static BENCH_BARE stow_handle_t bare_insert(stow_slotmap_t *m BENCH_UNUSED,
                                            const void *p BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void *bare_alloc(stow_slotmap_t *m BENCH_UNUSED,
                                   stow_handle_t *out BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void *bare_get(const stow_slotmap_t *m BENCH_UNUSED,
                                 stow_handle_t h BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE bool bare_remove(stow_slotmap_t *m BENCH_UNUSED,
                                   stow_handle_t h BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE uint32_t bare_refresh(stow_slotmap_t *m BENCH_UNUSED,
                                        void (*f)(void *, void *) BENCH_UNUSED,
                                        void *ctx BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void bare_clear(stow_slotmap_t *m BENCH_UNUSED) BENCH_BARE_BODY

/* One loop per row, so that callgrind tells the rows apart. */
#define INSERT_LOOP(name) BENCH_LOOP(name, handles[i] = stow_slotmap_insert(&map, item))
INSERT_LOOP(run_slotmap_insert_fresh)
INSERT_LOOP(run_slotmap_insert)
INSERT_LOOP(run_slotmap_insert4_fresh)
INSERT_LOOP(run_slotmap_insert4)
INSERT_LOOP(run_slotmap_insert64_fresh)
INSERT_LOOP(run_slotmap_insert64)
BENCH_LOOP(base_slotmap_insert, handles[i] = bare_insert(&map, item))
BENCH_LOOP(run_slotmap_alloc, stow_bench_sink = stow_slotmap_alloc(&map, &handles[i]))
BENCH_LOOP(base_slotmap_alloc, stow_bench_sink = bare_alloc(&map, &handles[i]))
BENCH_LOOP(run_slotmap_get, stow_bench_sink = stow_slotmap_get(&map, handles[i]))
BENCH_LOOP(run_slotmap_get_stale, stow_bench_sink = stow_slotmap_get(&map, handles[i]))
BENCH_LOOP(base_slotmap_get, stow_bench_sink = bare_get(&map, handles[i]))
#define REMOVE_LOOP(name) BENCH_LOOP(name, stow_bench_sink_u32 = stow_slotmap_remove(&map, handles[i]))
REMOVE_LOOP(run_slotmap_remove)
REMOVE_LOOP(run_slotmap_remove4)
REMOVE_LOOP(run_slotmap_remove64)
BENCH_LOOP(base_slotmap_remove, stow_bench_sink_u32 = bare_remove(&map, handles[i]))
BENCH_LOOP(run_slotmap_remove_last,
           stow_bench_sink_u32 = stow_slotmap_remove(&map, handles[BENCH_OPS - 1u - i]))
BENCH_LOOP(base_slotmap_remove_last,
           stow_bench_sink_u32 = bare_remove(&map, handles[BENCH_OPS - 1u - i]))
BENCH_LOOP(run_slotmap_mark_dead, stow_bench_sink_u32 = stow_slotmap_mark_dead(&map, handles[i]))
BENCH_LOOP(run_slotmap_refresh_nothing, stow_bench_sink_u32 = stow_slotmap_refresh(&map, NULL, NULL))
BENCH_LOOP(base_slotmap_refresh_nothing, stow_bench_sink_u32 = bare_refresh(&map, NULL, NULL))

/* One call that does BENCH_OPS items' worth of work. */
static BENCH_NOIPA void run_slotmap_refresh(void)
{
    stow_bench_sink_u32 = stow_slotmap_refresh(&map, NULL, NULL);
}
static BENCH_NOIPA void base_slotmap_refresh(void)
{
    stow_bench_sink_u32 = bare_refresh(&map, NULL, NULL);
}
static BENCH_NOIPA void run_slotmap_clear(void) { stow_slotmap_clear(&map); }
static BENCH_NOIPA void base_slotmap_clear(void) { bare_clear(&map); }

void stow_bench_slotmap(void)
{
    BENCH_ROW("slotmap insert (first use of a slot)", prep_fresh, run_slotmap_insert_fresh,
              base_slotmap_insert);
    BENCH_ROW("slotmap insert (reuses a freed slot)", prep_all_removed, run_slotmap_insert,
              base_slotmap_insert);
    BENCH_ROW("slotmap alloc (zeroed, reuses a freed slot)", prep_all_removed, run_slotmap_alloc,
              base_slotmap_alloc);
    BENCH_ROW("slotmap get", prep_full, run_slotmap_get, base_slotmap_get);
    BENCH_ROW("slotmap get (stale handle)", prep_all_removed, run_slotmap_get_stale, base_slotmap_get);
    BENCH_ROW("slotmap remove (moves the last item in)", prep_full, run_slotmap_remove,
              base_slotmap_remove);
    BENCH_ROW("slotmap remove (the last item)", prep_full, run_slotmap_remove_last,
              base_slotmap_remove_last);
    if (stow_slotmap_count(&map) != 0u || !stow_slotmap_check(&map)) {
        stow_bench_fail("slotmap", "remove");
    }
    BENCH_ROW("slotmap mark_dead", prep_full, run_slotmap_mark_dead, base_slotmap_remove);
    BENCH_ROW_N("slotmap refresh (every other item dead, per item)", prep_half_dead,
                run_slotmap_refresh, base_slotmap_refresh, BENCH_OPS, 1u);
    if (stow_slotmap_count(&map) != BENCH_OPS / 2u || !stow_slotmap_check(&map)) {
        stow_bench_fail("slotmap", "refresh");
    }
    BENCH_ROW("slotmap refresh (nothing dead)", prep_full, run_slotmap_refresh_nothing,
              base_slotmap_refresh_nothing);
    BENCH_ROW_N("slotmap clear (per item)", prep_full, run_slotmap_clear, base_slotmap_clear,
                BENCH_OPS, 1u);
    BENCH_ROW("slotmap insert (4-byte item, first use)", prep_word_fresh, run_slotmap_insert4_fresh,
              base_slotmap_insert);
    BENCH_ROW("slotmap insert (4-byte item, reuse)", prep_word_all_removed, run_slotmap_insert4,
              base_slotmap_insert);
    BENCH_ROW("slotmap remove (4-byte item, moves)", prep_word_full, run_slotmap_remove4,
              base_slotmap_remove);
    BENCH_ROW("slotmap insert (64-byte item, first use)", prep_big_fresh, run_slotmap_insert64_fresh,
              base_slotmap_insert);
    BENCH_ROW("slotmap insert (64-byte item, reuse)", prep_big_all_removed, run_slotmap_insert64,
              base_slotmap_insert);
    BENCH_ROW("slotmap remove (64-byte item, moves)", prep_big_full, run_slotmap_remove64,
              base_slotmap_remove);
    if (stow_slotmap_count(&map) != 0u || !stow_slotmap_check(&map) || item_size != sizeof big) {
        stow_bench_fail("slotmap", "check");
    }
}
