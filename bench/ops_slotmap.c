/* ops_slotmap.c - instructions per slot map operation; see bench.h.
 *
 * Items are 16-byte particles (four words) unless a row says otherwise. The
 * baselines are bare functions (a lone `bx lr`) of the same signature, so that
 * the difference is the operation's own instructions, return included.
 */
#include "bench.h"

struct bench_particle {
    uint32_t x, y, vx, vy;
};

STOW_SLOTMAP_DEFINE_STATIC(bench_map, struct bench_particle, BENCH_OPS);
STOW_SLOTMAP_DEFINE_STATIC(bench_map_words, uint32_t, BENCH_OPS);
STOW_SLOTMAP_DEFINE_STATIC(bench_map_big, uint32_t[16], BENCH_OPS);
static stow_handle_t bench_handles[BENCH_OPS];

#define BENCH_BARE __attribute__((naked, noipa))
#define UNUSED __attribute__((unused))

static BENCH_BARE stow_handle_t bare_insert(stow_slotmap_t *m UNUSED, const void *item UNUSED)
{
    __asm__ volatile("bx lr");
}
static BENCH_BARE void *bare_alloc(stow_slotmap_t *m UNUSED, stow_handle_t *out UNUSED)
{
    __asm__ volatile("bx lr");
}
static BENCH_BARE void *bare_get(const stow_slotmap_t *m UNUSED, stow_handle_t h UNUSED)
{
    __asm__ volatile("bx lr");
}
static BENCH_BARE bool bare_remove(stow_slotmap_t *m UNUSED, stow_handle_t h UNUSED)
{
    __asm__ volatile("bx lr");
}

/* Ticks that BENCH_OPS instructions take: passed as the baseline of a row timed
 * as one long call, it cancels the "+ 1 for the return" of stow_bench_row. */
static uint32_t ticks_of_ops_instructions(void)
{
    uint32_t n = 1000000u;
    uint32_t t0 = stow_port_cycles();
    __asm__ volatile("1: subs %0, %0, #1\n\tbne 1b" : "+l"(n) : : "cc");
    uint32_t t1 = stow_port_cycles();
    /* 2,000,000 instructions took t1 - t0 ticks */
    return (uint32_t)(((uint64_t)(t1 - t0) * BENCH_OPS + 1000000u) / 2000000u);
}

static void fail(const char *what)
{
    stow_bench_print("slotmap bench: ");
    stow_bench_print(what);
    stow_bench_print("\n");
    stow_port_exit(1);
}

static void rows_for(stow_slotmap_t *m, const void *item, const char *insert_new,
                     const char *insert, const char *remove)
{
    uint32_t base, op;
    BENCH_TICKS(base, bench_handles[i] = bare_insert(m, item));
    BENCH_TICKS(op, bench_handles[i] = stow_slotmap_insert(m, item));
    stow_bench_row(insert_new, op, base);
    BENCH_TICKS(base, stow_bench_sink_u32 = bare_remove(m, bench_handles[i]));
    BENCH_TICKS(op, stow_bench_sink_u32 = stow_slotmap_remove(m, bench_handles[i]));
    stow_bench_row(remove, op, base);
    BENCH_TICKS(op, bench_handles[i] = stow_slotmap_insert(m, item));
    BENCH_TICKS(base, bench_handles[i] = bare_insert(m, item));
    stow_bench_row(insert, op, base);
    if (stow_slotmap_count(m) != BENCH_OPS || !stow_slotmap_check(m)) {
        fail("count or check");
    }
    stow_slotmap_clear(m);
}

void stow_bench_slotmap(void)
{
    uint32_t base, op;
    struct bench_particle p = {1u, 2u, 3u, 4u};
    stow_slotmap_t *m = &bench_map;

    BENCH_TICKS(base, bench_handles[i] = bare_insert(m, &p));
    BENCH_TICKS(op, bench_handles[i] = stow_slotmap_insert(m, &p));
    stow_bench_row("stow_slotmap_insert (first use of each slot)", op, base);
    BENCH_TICKS(base, stow_bench_sink = bare_get(m, bench_handles[i]));
    BENCH_TICKS(op, stow_bench_sink = stow_slotmap_get(m, bench_handles[i]));
    stow_bench_row("stow_slotmap_get", op, base);
    stow_handle_t stale = bench_handles[0];
    BENCH_TICKS(base, stow_bench_sink_u32 = bare_remove(m, bench_handles[i]));
    BENCH_TICKS(op, stow_bench_sink_u32 = stow_slotmap_remove(m, bench_handles[i]));
    stow_bench_row("stow_slotmap_remove (moves the last item in)", op, base);
    BENCH_TICKS(op, stow_bench_sink = stow_slotmap_get(m, stale));
    BENCH_TICKS(base, stow_bench_sink = bare_get(m, stale));
    stow_bench_row("stow_slotmap_get (stale handle)", op, base);
    BENCH_TICKS(base, bench_handles[i] = bare_insert(m, &p));
    BENCH_TICKS(op, bench_handles[i] = stow_slotmap_insert(m, &p));
    stow_bench_row("stow_slotmap_insert (reuses a freed slot)", op, base);
    BENCH_TICKS(base, stow_bench_sink_u32 = bare_remove(m, bench_handles[BENCH_OPS - 1u - i]));
    BENCH_TICKS(op, stow_bench_sink_u32 = stow_slotmap_remove(m, bench_handles[BENCH_OPS - 1u - i]));
    stow_bench_row("stow_slotmap_remove (the last item, copied onto itself)", op, base);
    BENCH_TICKS(base, stow_bench_sink = bare_alloc(m, &bench_handles[i]));
    BENCH_TICKS(op, stow_bench_sink = stow_slotmap_alloc(m, &bench_handles[i]));
    stow_bench_row("stow_slotmap_alloc (zeroed, reuses a freed slot)", op, base);

    /* Deferred destruction: every item marked dead (timed); then again with every
     * other item marked, and one refresh over all of them (timed). */
    BENCH_TICKS(base, stow_bench_sink_u32 = bare_remove(m, bench_handles[i]));
    BENCH_TICKS(op, stow_bench_sink_u32 = stow_slotmap_mark_dead(m, bench_handles[i]));
    stow_bench_row("stow_slotmap_mark_dead", op, base);
    stow_slotmap_clear(m);
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        bench_handles[i] = stow_slotmap_insert(m, &p);
        if ((i & 1u) != 0u) {
            (void)stow_slotmap_mark_dead(m, bench_handles[i]);
        }
    }
    uint32_t t0 = stow_port_cycles();
    uint32_t destroyed = stow_slotmap_refresh(m, NULL, NULL);
    op = stow_port_cycles() - t0;
    stow_bench_row("stow_slotmap_refresh, per item (10000 items, every other dead)", op,
                   ticks_of_ops_instructions());
    if (destroyed != BENCH_OPS / 2u || stow_slotmap_count(m) != BENCH_OPS / 2u) {
        fail("refresh");
    }
    BENCH_TICKS(base, stow_bench_sink_u32 = bare_remove(m, bench_handles[i]));
    BENCH_TICKS(op, stow_bench_sink_u32 = stow_slotmap_refresh(m, NULL, NULL));
    stow_bench_row("stow_slotmap_refresh (nothing dead)", op, base);
    if (!stow_slotmap_check(m)) {
        fail("check");
    }
    t0 = stow_port_cycles();
    stow_slotmap_clear(m);
    op = stow_port_cycles() - t0;
    /* 5000 items: twice the ticks over BENCH_OPS is the per-item figure */
    stow_bench_row("stow_slotmap_clear, per item (5000 items)", 2u * op, ticks_of_ops_instructions());

    uint32_t w = 7u;
    rows_for(&bench_map_words, &w, "stow_slotmap_insert (4-byte item, first use)",
             "stow_slotmap_insert (4-byte item, reuse)", "stow_slotmap_remove (4-byte item, moves)");
    static uint32_t big[16];
    rows_for(&bench_map_big, big, "stow_slotmap_insert (64-byte item, first use)",
             "stow_slotmap_insert (64-byte item, reuse)", "stow_slotmap_remove (64-byte item, moves)");
}
