/* ops_genpool.c - instructions per genpool operation; see bench.h.
 *
 * Items of 8 bytes (a missile: damage and its target's handle) and of 32 bytes,
 * BENCH_OPS of them. insert and alloc are timed twice: on never-used slots (the
 * bump index) and on removed ones (the free list). Iteration is timed per item:
 * over a full pool, and over 500 live items spread across 10,000 used slots (a
 * whole pass of that costs 500 times the row). */
#include "bench.h"

struct item8 {
    int32_t damage;
    uint32_t target;
};

struct item32 {
    uint32_t w[8];
};

STOW_GENPOOL_DEFINE_STATIC(bench_gp, struct item8, BENCH_OPS);
STOW_GENPOOL_DEFINE_STATIC(bench_gp32, struct item32, BENCH_OPS);
static stow_handle_t handles[BENCH_OPS];

static BENCH_BASELINE stow_handle_t empty_insert(stow_genpool_t *g, const void *item)
{
    (void)item;
    stow_handle_t h = {(uint32_t)(uintptr_t)g};
    return h;
}

static BENCH_BASELINE void *empty_alloc(stow_genpool_t *g, stow_handle_t *out)
{
    (void)out;
    return g;
}

static BENCH_BASELINE void *empty_get(const stow_genpool_t *g, stow_handle_t h)
{
    (void)h;
    return (void *)(uintptr_t)g;
}

static BENCH_BASELINE bool empty_remove(stow_genpool_t *g, stow_handle_t h)
{
    (void)h;
    return g != NULL;
}

static BENCH_BASELINE stow_handle_t empty_handle_of(const stow_genpool_t *g, const void *item)
{
    (void)item;
    stow_handle_t h = {(uint32_t)(uintptr_t)g};
    return h;
}

static BENCH_BASELINE stow_handle_t empty_next(const stow_genpool_t *g, stow_handle_t h)
{
    (void)g;
    return h;
}

static void must(bool ok, const char *what)
{
    if (!ok) {
        stow_bench_print("genpool bench: ");
        stow_bench_print(what);
        stow_bench_print(" failed\n");
        stow_port_exit(1);
    }
}

static void bench_item8(void)
{
    uint32_t base, op;
    struct item8 item = {3, 0x10001u};

    BENCH_TICKS(base, handles[i] = empty_insert(&bench_gp, &item));
    BENCH_TICKS(op, handles[i] = stow_genpool_insert(&bench_gp, &item));
    stow_bench_row("stow_genpool_insert (8-byte item, never-used slot)", op, base);
    must(stow_genpool_count(&bench_gp) == BENCH_OPS, "insert");

    BENCH_TICKS(base, stow_bench_sink = empty_get(&bench_gp, handles[i]));
    BENCH_TICKS(op, stow_bench_sink = stow_genpool_get(&bench_gp, handles[i]));
    stow_bench_row("stow_genpool_get (live handle)", op, base);
    must(stow_bench_sink != NULL, "get");

    BENCH_TICKS(base, stow_bench_sink_u32 = empty_remove(&bench_gp, handles[i]));
    BENCH_TICKS(op, stow_bench_sink_u32 = stow_genpool_contains(&bench_gp, handles[i]));
    stow_bench_row("stow_genpool_contains (live handle)", op, base);

    unsigned char *first_item = (unsigned char *)stow_genpool_get(&bench_gp, handles[0]);
    BENCH_TICKS(base, stow_bench_sink_u32 = empty_handle_of(&bench_gp, first_item + i * 8u).bits);
    BENCH_TICKS(op, stow_bench_sink_u32 = stow_genpool_handle_of(&bench_gp, first_item + i * 8u).bits);
    stow_bench_row("stow_genpool_handle_of", op, base);
    must(stow_bench_sink_u32 == handles[BENCH_OPS - 1u].bits, "handle_of");

    stow_handle_t it = stow_genpool_first(&bench_gp);
    BENCH_TICKS(base, it = empty_next(&bench_gp, it));
    it = stow_genpool_first(&bench_gp);
    BENCH_TICKS(op, it = stow_genpool_next(&bench_gp, it));
    stow_bench_row("stow_genpool_next (full pool, per item)", op, base);
    must(stow_handle_is_null(it), "next");

    BENCH_TICKS(base, stow_bench_sink_u32 = empty_remove(&bench_gp, handles[i]));
    BENCH_TICKS(op, stow_bench_sink_u32 = stow_genpool_remove(&bench_gp, handles[i]));
    stow_bench_row("stow_genpool_remove", op, base);
    must(stow_genpool_count(&bench_gp) == 0u, "remove");

    BENCH_TICKS(base, stow_bench_sink = empty_get(&bench_gp, handles[i]));
    BENCH_TICKS(op, stow_bench_sink = stow_genpool_get(&bench_gp, handles[i]));
    stow_bench_row("stow_genpool_get (stale handle)", op, base);
    must(stow_bench_sink == NULL, "stale get");

    BENCH_TICKS(base, handles[i] = empty_insert(&bench_gp, &item));
    BENCH_TICKS(op, handles[i] = stow_genpool_insert(&bench_gp, &item));
    stow_bench_row("stow_genpool_insert (8-byte item, from the free list)", op, base);

    for (uint32_t k = 0; k < BENCH_OPS; k++) {
        stow_genpool_remove(&bench_gp, handles[k]);
    }
    BENCH_TICKS(base, stow_bench_sink = empty_alloc(&bench_gp, &handles[i]));
    BENCH_TICKS(op, stow_bench_sink = stow_genpool_alloc(&bench_gp, &handles[i]));
    stow_bench_row("stow_genpool_alloc (8-byte item zeroed, from the free list)", op, base);

    /* 500 live among 10,000 used slots: one in 20 */
    for (uint32_t k = 0; k < BENCH_OPS; k++) {
        if (k % 20u != 0u) {
            stow_genpool_remove(&bench_gp, handles[k]);
        }
    }
    must(stow_genpool_count(&bench_gp) == BENCH_OPS / 20u, "sparse");
    it = stow_genpool_first(&bench_gp);
    BENCH_TICKS(base, it = empty_next(&bench_gp, it); if (stow_handle_is_null(it)) it = empty_next(&bench_gp, it));
    it = stow_genpool_first(&bench_gp);
    BENCH_TICKS(op, it = stow_genpool_next(&bench_gp, it); if (stow_handle_is_null(it)) it = stow_genpool_first(&bench_gp));
    stow_bench_row("stow_genpool_next (500 live of 10,000 slots, per item)", op, base);

    BENCH_TICKS(base, empty_remove(&bench_gp, handles[i]));
    BENCH_TICKS(op, stow_genpool_clear(&bench_gp));
    stow_bench_row("stow_genpool_clear (10,000 slots used)", op, base);
    must(stow_genpool_check(&bench_gp), "check");
}

static void bench_item32(void)
{
    uint32_t base, op;
    struct item32 item = {{1, 2, 3, 4, 5, 6, 7, 8}};
    BENCH_TICKS(op, handles[i] = stow_genpool_insert(&bench_gp32, &item));
    for (uint32_t k = 0; k < BENCH_OPS; k++) {
        stow_genpool_remove(&bench_gp32, handles[k]);
    }
    BENCH_TICKS(base, handles[i] = empty_insert(&bench_gp32, &item));
    BENCH_TICKS(op, handles[i] = stow_genpool_insert(&bench_gp32, &item));
    stow_bench_row("stow_genpool_insert (32-byte item, from the free list)", op, base);
    must(stow_genpool_check(&bench_gp32), "check 32");
}

void stow_bench_genpool(void)
{
    bench_item8();
    bench_item32();
}
