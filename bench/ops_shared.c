/* SPDX-License-Identifier: MIT */
/* ops_shared.c - what sharing costs: instructions per _isr call and per
 * lock()/unlock() pair; see bench.h.
 *
 * Each _isr call is the plain call under the container's lock (stow/port.h):
 * on Cortex-M the lock is PRIMASK (read, mask, restore), on the host a
 * compare-and-swap on the container's word and a store to release it. The rows
 * use the setups of the plain rows in ops_pool.c, ops_genpool.c and
 * ops_slotmap.c (8-byte genpool items, 16-byte slot map items, handles removed
 * in the order they were issued), so the difference to those rows is the
 * lock's cost. The heap has no plain rows in this table (its own are timed one
 * call at a time, ops_heap.c), so both are here: 24-byte blocks (32 with the
 * header), all freed first, then taken again.
 */
#include "bench.h"

struct item8 {
    int32_t damage;
    uint32_t target;
};
struct particle {
    uint32_t x, y, vx, vy;
};

static const struct item8 item8 = {3, 0x10001u};
static const struct particle particle = {1u, 2u, 3u, 4u};
static stow_pool_t pool;
static stow_heap_t heap;
static stow_genpool_t gp;
static stow_slotmap_t map;
#define handles stow_bench_handles
#define blocks stow_bench_ptrs
/* read_isr's destination: as large as the larger item. */
static struct particle copy_out;

#define HEAP_REQUEST 24u

static void prep_pool(void)
{
    if (!stow_pool_init(&pool, stow_bench_ram, STOW_POOL_BYTES(8u, 8u, 1u), 8u, 8u, 1u)) {
        stow_bench_fail("shared", "pool init");
    }
}

static void prep_heap_full(void)
{
    if (!stow_heap_init(&heap, stow_bench_ram, BENCH_RAM_BYTES)) {
        stow_bench_fail("shared", "heap init");
    }
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        blocks[i] = stow_heap_alloc(&heap, HEAP_REQUEST);
        if (blocks[i] == NULL) {
            stow_bench_fail("shared", "heap full");
        }
    }
}

static void prep_heap_all_freed(void)
{
    prep_heap_full();
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        stow_heap_free(&heap, blocks[i]);
    }
}

static void prep_genpool_full(void)
{
    if (!stow_genpool_init(&gp, stow_bench_ram,
                           STOW_GENPOOL_BYTES(sizeof item8, STOW_ALIGNOF(struct item8), BENCH_OPS),
                           sizeof item8, STOW_ALIGNOF(struct item8), BENCH_OPS)) {
        stow_bench_fail("shared", "genpool init");
    }
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        handles[i] = stow_genpool_insert(&gp, &item8);
    }
    if (stow_genpool_count(&gp) != BENCH_OPS) {
        stow_bench_fail("shared", "genpool full");
    }
}

static void prep_genpool_all_removed(void)
{
    prep_genpool_full();
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        (void)stow_genpool_remove(&gp, handles[i]);
    }
}

static void prep_slotmap_full(void)
{
    if (!stow_slotmap_init(&map, stow_bench_ram,
                           STOW_SLOTMAP_BYTES(sizeof particle, STOW_ALIGNOF(struct particle), BENCH_OPS),
                           sizeof particle, STOW_ALIGNOF(struct particle), BENCH_OPS)) {
        stow_bench_fail("shared", "slotmap init");
    }
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        handles[i] = stow_slotmap_insert(&map, &particle);
    }
    if (stow_slotmap_count(&map) != BENCH_OPS) {
        stow_bench_fail("shared", "slotmap full");
    }
}

static void prep_slotmap_all_removed(void)
{
    prep_slotmap_full();
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        (void)stow_slotmap_remove(&map, handles[i]);
    }
}

static BENCH_BARE uint32_t bare_lock(stow_pool_t *p BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void bare_unlock(stow_pool_t *p BENCH_UNUSED, uint32_t s BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void *bare_heap_alloc(stow_heap_t *h BENCH_UNUSED, size_t n BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void bare_heap_free(stow_heap_t *h BENCH_UNUSED, void *p BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE stow_handle_t bare_gp_insert(stow_genpool_t *g BENCH_UNUSED,
                                               const void *item BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void *bare_gp_get(stow_genpool_t *g BENCH_UNUSED, stow_handle_t h BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE bool bare_gp_read(stow_genpool_t *g BENCH_UNUSED, stow_handle_t h BENCH_UNUSED,
                                    void *out BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE bool bare_gp_remove(stow_genpool_t *g BENCH_UNUSED, stow_handle_t h BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE stow_handle_t bare_sm_insert(stow_slotmap_t *m BENCH_UNUSED,
                                               const void *item BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void *bare_sm_get(stow_slotmap_t *m BENCH_UNUSED, stow_handle_t h BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE bool bare_sm_read(stow_slotmap_t *m BENCH_UNUSED, stow_handle_t h BENCH_UNUSED,
                                    void *out BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE bool bare_sm_remove(stow_slotmap_t *m BENCH_UNUSED, stow_handle_t h BENCH_UNUSED) BENCH_BARE_BODY

BENCH_LOOP(run_lock_pair, stow_pool_unlock(&pool, stow_pool_lock(&pool)))
BENCH_LOOP(base_lock_pair, bare_unlock(&pool, bare_lock(&pool)))
BENCH_LOOP(run_heap_alloc, blocks[i] = stow_heap_alloc(&heap, HEAP_REQUEST))
BENCH_LOOP(run_heap_alloc_isr, blocks[i] = stow_heap_alloc_isr(&heap, HEAP_REQUEST))
BENCH_LOOP(base_heap_alloc, blocks[i] = bare_heap_alloc(&heap, HEAP_REQUEST))
BENCH_LOOP(run_heap_free, stow_heap_free(&heap, blocks[i]))
BENCH_LOOP(run_heap_free_isr, stow_heap_free_isr(&heap, blocks[i]))
BENCH_LOOP(base_heap_free, bare_heap_free(&heap, blocks[i]))
BENCH_LOOP(run_gp_insert_isr, handles[i] = stow_genpool_insert_isr(&gp, &item8))
BENCH_LOOP(base_gp_insert, handles[i] = bare_gp_insert(&gp, &item8))
BENCH_LOOP(run_gp_get_isr, stow_bench_sink = stow_genpool_get_isr(&gp, handles[i]))
BENCH_LOOP(base_gp_get, stow_bench_sink = bare_gp_get(&gp, handles[i]))
BENCH_LOOP(run_gp_read_isr, stow_bench_sink_u32 = stow_genpool_read_isr(&gp, handles[i], &copy_out))
BENCH_LOOP(base_gp_read, stow_bench_sink_u32 = bare_gp_read(&gp, handles[i], &copy_out))
BENCH_LOOP(run_gp_remove_isr, stow_bench_sink_u32 = stow_genpool_remove_isr(&gp, handles[i]))
BENCH_LOOP(base_gp_remove, stow_bench_sink_u32 = bare_gp_remove(&gp, handles[i]))
BENCH_LOOP(run_sm_insert_isr, handles[i] = stow_slotmap_insert_isr(&map, &particle))
BENCH_LOOP(base_sm_insert, handles[i] = bare_sm_insert(&map, &particle))
BENCH_LOOP(run_sm_get_isr, stow_bench_sink = stow_slotmap_get_isr(&map, handles[i]))
BENCH_LOOP(base_sm_get, stow_bench_sink = bare_sm_get(&map, handles[i]))
BENCH_LOOP(run_sm_read_isr, stow_bench_sink_u32 = stow_slotmap_read_isr(&map, handles[i], &copy_out))
BENCH_LOOP(base_sm_read, stow_bench_sink_u32 = bare_sm_read(&map, handles[i], &copy_out))
BENCH_LOOP(run_sm_remove_isr, stow_bench_sink_u32 = stow_slotmap_remove_isr(&map, handles[i]))
BENCH_LOOP(base_sm_remove, stow_bench_sink_u32 = bare_sm_remove(&map, handles[i]))

void stow_bench_shared(void)
{
    BENCH_ROW_N("lock + unlock (a pair, per pair)", prep_pool, run_lock_pair, base_lock_pair,
                BENCH_OPS, 2u * BENCH_OPS);
    BENCH_ROW("heap alloc (24 bytes, after as many frees)", prep_heap_all_freed, run_heap_alloc,
              base_heap_alloc);
    BENCH_ROW("heap alloc_isr (24 bytes, after as many frees)", prep_heap_all_freed,
              run_heap_alloc_isr, base_heap_alloc);
    BENCH_ROW("heap free (24 bytes)", prep_heap_full, run_heap_free, base_heap_free);
    BENCH_ROW("heap free_isr (24 bytes)", prep_heap_full, run_heap_free_isr, base_heap_free);
    if (stow_heap_largest_free(&heap) == 0u || !stow_heap_check(&heap)) {
        stow_bench_fail("shared", "heap check");
    }
    BENCH_ROW("genpool insert_isr (8-byte item, free list)", prep_genpool_all_removed,
              run_gp_insert_isr, base_gp_insert);
    BENCH_ROW("genpool get_isr", prep_genpool_full, run_gp_get_isr, base_gp_get);
    BENCH_ROW("genpool read_isr (8-byte item)", prep_genpool_full, run_gp_read_isr, base_gp_read);
    BENCH_ROW("genpool remove_isr", prep_genpool_full, run_gp_remove_isr, base_gp_remove);
    if (stow_genpool_count(&gp) != 0u || !stow_genpool_check(&gp)) {
        stow_bench_fail("shared", "genpool check");
    }
    BENCH_ROW("slotmap insert_isr (16-byte item, reuses a freed slot)", prep_slotmap_all_removed,
              run_sm_insert_isr, base_sm_insert);
    BENCH_ROW("slotmap get_isr", prep_slotmap_full, run_sm_get_isr, base_sm_get);
    BENCH_ROW("slotmap read_isr (16-byte item)", prep_slotmap_full, run_sm_read_isr, base_sm_read);
    BENCH_ROW("slotmap remove_isr (moves the last item in)", prep_slotmap_full, run_sm_remove_isr,
              base_sm_remove);
    if (stow_slotmap_count(&map) != 0u || !stow_slotmap_check(&map)) {
        stow_bench_fail("shared", "slotmap check");
    }
}
