/* ops_pool.c - instructions per pool operation; see bench.h.
 *
 * A pool of BENCH_OPS 8-byte blocks. The first pass of allocations takes
 * never-used blocks (the bump pointer), later passes take them off the free list
 * (the steady state of a pool that has run for a while); each free gives back a
 * block from the pass before, in the order it was handed out.
 */
#include "bench.h"

STOW_POOL_DEFINE_STATIC(bench_pool, uint64_t, BENCH_OPS);
static void *blocks[BENCH_OPS];

static BENCH_BASELINE void *empty_alloc(stow_pool_t *p)
{
    return p;
}

static BENCH_BASELINE void empty_free(stow_pool_t *p, void *block)
{
    (void)p;
    (void)block;
}

static BENCH_BASELINE void *empty_alloc_checked(stow_pool_t *p, size_t size, size_t align)
{
    (void)size;
    (void)align;
    return p;
}

static BENCH_BASELINE bool empty_owns(const stow_pool_t *p, const void *ptr)
{
    return (const void *)p == ptr;
}

static void fail(const char *what)
{
    stow_bench_print("pool bench: ");
    stow_bench_print(what);
    stow_bench_print("\n");
    stow_port_exit(1);
}

void stow_bench_pool(void)
{
    uint32_t base, op;

    BENCH_TICKS(base, blocks[i] = empty_alloc(&bench_pool));
    stow_pool_reset(&bench_pool);
    BENCH_TICKS(op, blocks[i] = stow_pool_alloc(&bench_pool));
    stow_bench_row("stow_pool_alloc (never-used block)", op, base);
    if (stow_pool_used(&bench_pool) != BENCH_OPS || stow_pool_alloc(&bench_pool) != NULL) {
        fail("first pass did not fill the pool");
    }

    uint32_t free_base;
    BENCH_TICKS(free_base, empty_free(&bench_pool, blocks[i]));
    BENCH_TICKS(op, stow_pool_free(&bench_pool, blocks[i]));
    stow_bench_row("stow_pool_free", op, free_base);

    BENCH_TICKS(op, blocks[i] = stow_pool_alloc(&bench_pool));
    stow_bench_row("stow_pool_alloc (from the free list)", op, base);
    BENCH_TICKS(op, stow_pool_free(&bench_pool, blocks[i]));
    stow_bench_row("stow_pool_free (again)", op, free_base);

    uint32_t checked_base;
    BENCH_TICKS(checked_base, blocks[i] = empty_alloc_checked(&bench_pool, 8u, 8u));
    BENCH_TICKS(op, blocks[i] = STOW_POOL_NEW(&bench_pool, uint64_t));
    stow_bench_row("STOW_POOL_NEW (from the free list)", op, checked_base);
    BENCH_TICKS(op, stow_pool_free(&bench_pool, blocks[i]));

    BENCH_TICKS(op, blocks[i] = stow_pool_alloc_isr(&bench_pool));
    stow_bench_row("stow_pool_alloc_isr (from the free list)", op, base);
    BENCH_TICKS(op, stow_pool_free_isr(&bench_pool, blocks[i]));
    stow_bench_row("stow_pool_free_isr", op, free_base);

    BENCH_TICKS(op, stow_bench_sink_u32 = stow_pool_owns(&bench_pool, blocks[i]) ? 1u : 0u);
    BENCH_TICKS(base, stow_bench_sink_u32 = empty_owns(&bench_pool, blocks[i]) ? 1u : 0u);
    stow_bench_row("stow_pool_owns", op, base);

    if (stow_pool_used(&bench_pool) != 0u || !stow_pool_check(&bench_pool)) {
        fail("check failed");
    }
}
