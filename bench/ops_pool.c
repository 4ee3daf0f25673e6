/* SPDX-License-Identifier: MIT */
/* ops_pool.c - instructions per pool operation; see bench.h.
 *
 * A pool of BENCH_OPS 8-byte blocks. "never-used block": the first pass after
 * init, which bumps; "free list": blocks given back earlier (the steady state
 * of a pool that has run for a while). Frees give blocks back in the order they
 * were handed out. On the host, malloc and free of the same 8 bytes in the same
 * patterns, for scale.
 */
#include "bench.h"

#ifndef STOW_BENCH_TARGET
#include <stdlib.h>
#endif

static stow_pool_t pool;
#define blocks stow_bench_ptrs

static void prep_fresh(void)
{
    if (!stow_pool_init(&pool, stow_bench_ram,
                        STOW_POOL_BYTES(sizeof(uint64_t), STOW_ALIGNOF(uint64_t), BENCH_OPS),
                        sizeof(uint64_t), STOW_ALIGNOF(uint64_t), BENCH_OPS)) {
        stow_bench_fail("pool", "init");
    }
}

static void prep_full(void)
{
    prep_fresh();
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        blocks[i] = stow_pool_alloc(&pool);
    }
    if (stow_pool_alloc(&pool) != NULL) {
        stow_bench_fail("pool", "not full");
    }
}

static void prep_all_freed(void)
{
    prep_full();
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        stow_pool_free(&pool, blocks[i]);
    }
}

/* The atomic calls' list: on a host it is not the plain calls' one. */
static void prep_all_freed_atomic(void)
{
    prep_full();
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        stow_pool_free_atomic(&pool, blocks[i]);
    }
}

static BENCH_BARE void *bare_alloc(stow_pool_t *p BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void bare_free(stow_pool_t *p BENCH_UNUSED, void *b BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void *bare_alloc_checked(stow_pool_t *p BENCH_UNUSED, size_t size BENCH_UNUSED,
                                           size_t align BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE bool bare_owns(const stow_pool_t *p BENCH_UNUSED,
                                 const void *ptr BENCH_UNUSED) BENCH_BARE_BODY

BENCH_LOOP(run_pool_alloc_fresh, blocks[i] = stow_pool_alloc(&pool))
BENCH_LOOP(run_pool_alloc, blocks[i] = stow_pool_alloc(&pool))
BENCH_LOOP(base_pool_alloc, blocks[i] = bare_alloc(&pool))
BENCH_LOOP(run_pool_free, stow_pool_free(&pool, blocks[i]))
BENCH_LOOP(base_pool_free, bare_free(&pool, blocks[i]))
BENCH_LOOP(run_pool_pair, stow_pool_free(&pool, stow_pool_alloc(&pool)))
BENCH_LOOP(base_pool_pair, bare_free(&pool, bare_alloc(&pool)))
BENCH_LOOP(run_pool_new, blocks[i] = STOW_POOL_NEW(&pool, uint64_t))
BENCH_LOOP(base_pool_new, blocks[i] = bare_alloc_checked(&pool, sizeof(uint64_t),
                                                         STOW_ALIGNOF(uint64_t)))
BENCH_LOOP(run_pool_alloc_isr, blocks[i] = stow_pool_alloc_isr(&pool))
BENCH_LOOP(run_pool_free_isr, stow_pool_free_isr(&pool, blocks[i]))
BENCH_LOOP(run_pool_alloc_atomic_fresh, blocks[i] = stow_pool_alloc_atomic(&pool))
BENCH_LOOP(run_pool_alloc_atomic, blocks[i] = stow_pool_alloc_atomic(&pool))
BENCH_LOOP(run_pool_free_atomic, stow_pool_free_atomic(&pool, blocks[i]))
BENCH_LOOP(run_pool_owns, stow_bench_sink_u32 = stow_pool_owns(&pool, blocks[i]))
BENCH_LOOP(base_pool_owns, stow_bench_sink_u32 = bare_owns(&pool, blocks[i]))

#ifndef STOW_BENCH_TARGET
/* malloc and free, on the host only: the blocks malloc gave are kept in heap_blocks[],
 * and every prep first frees whatever the last row left there. */
static void *heap_blocks[BENCH_OPS];
static void heap_release(void)
{
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        free(heap_blocks[i]);
        heap_blocks[i] = NULL;
    }
}
static void prep_heap_full(void)
{
    heap_release();
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        heap_blocks[i] = malloc(sizeof(uint64_t));
    }
}
static void prep_heap_all_freed(void)
{
    prep_heap_full();
    heap_release();
}
BENCH_LOOP(run_malloc, heap_blocks[i] = malloc(sizeof(uint64_t)))
BENCH_LOOP(run_free, free(heap_blocks[i]); heap_blocks[i] = NULL)
/* Through the volatile sink: GCC knows free(malloc(n)) does nothing and drops it. */
BENCH_LOOP(run_malloc_free_pair, stow_bench_sink = malloc(sizeof(uint64_t)); free(stow_bench_sink))
#endif

void stow_bench_pool(void)
{
    BENCH_ROW("pool alloc (never-used block)", prep_fresh, run_pool_alloc_fresh, base_pool_alloc);
    BENCH_ROW("pool alloc (free list)", prep_all_freed, run_pool_alloc, base_pool_alloc);
    BENCH_ROW("pool free", prep_full, run_pool_free, base_pool_free);
    BENCH_ROW_N("pool alloc + free (a pair, per pair)", prep_all_freed, run_pool_pair, base_pool_pair,
                BENCH_OPS, 2u * BENCH_OPS);
    BENCH_ROW("STOW_POOL_NEW (free list)", prep_all_freed, run_pool_new, base_pool_new);
    BENCH_ROW("pool alloc_isr (free list)", prep_all_freed, run_pool_alloc_isr, base_pool_alloc);
    BENCH_ROW("pool free_isr", prep_full, run_pool_free_isr, base_pool_free);
    BENCH_ROW("pool alloc_atomic (never-used block)", prep_fresh, run_pool_alloc_atomic_fresh,
              base_pool_alloc);
    BENCH_ROW("pool alloc_atomic (free list)", prep_all_freed_atomic, run_pool_alloc_atomic,
              base_pool_alloc);
    BENCH_ROW("pool free_atomic", prep_full, run_pool_free_atomic, base_pool_free);
    BENCH_ROW("pool owns", prep_full, run_pool_owns, base_pool_owns);
    if (stow_pool_used(&pool) != BENCH_OPS || !stow_pool_check(&pool)) {
        stow_bench_fail("pool", "check");
    }
#ifndef STOW_BENCH_TARGET
    BENCH_ROW("malloc (8 bytes, after as many frees; host only)", prep_heap_all_freed, run_malloc,
              NULL);
    BENCH_ROW("free (8 bytes; host only)", prep_heap_full, run_free, NULL);
    BENCH_ROW_N("malloc + free (a pair, per pair; host only)", heap_release, run_malloc_free_pair,
                NULL, BENCH_OPS, 2u * BENCH_OPS);
    heap_release();
#endif
}
