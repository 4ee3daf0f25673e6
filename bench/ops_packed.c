/* ops_packed.c - instructions per packed array operation; see bench.h.
 * Items are 16-byte particles (four words) unless a row says otherwise. */
#include "bench.h"

struct bench_particle {
    uint32_t x, y, vx, vy;
};

STOW_PACKED_DEFINE_STATIC(bench_packed, struct bench_particle, BENCH_OPS);
STOW_PACKED_DEFINE_STATIC(bench_packed_words, uint32_t, BENCH_OPS);

#define BENCH_BARE __attribute__((naked, noipa))
#define UNUSED __attribute__((unused))

static BENCH_BARE void *bare_push(stow_packed_t *a UNUSED) { __asm__ volatile("bx lr"); }
static BENCH_BARE void bare_remove_at(stow_packed_t *a UNUSED, uint32_t index UNUSED)
{
    __asm__ volatile("bx lr");
}
static BENCH_BARE void *bare_at(const stow_packed_t *a UNUSED, uint32_t index UNUSED)
{
    __asm__ volatile("bx lr");
}

static void rows_for(stow_packed_t *a, const char *push, const char *at, const char *remove)
{
    uint32_t base, op;
    BENCH_TICKS(base, stow_bench_sink = bare_push(a));
    BENCH_TICKS(op, stow_bench_sink = stow_packed_push(a));
    stow_bench_row(push, op, base);
    BENCH_TICKS(base, stow_bench_sink = bare_at(a, i));
    BENCH_TICKS(op, stow_bench_sink = stow_packed_at(a, i));
    stow_bench_row(at, op, base);
    /* the middle position: below count throughout, and the last moves in */
    BENCH_TICKS(base, bare_remove_at(a, (BENCH_OPS - 1u - i) >> 1));
    BENCH_TICKS(op, stow_packed_remove_at(a, (BENCH_OPS - 1u - i) >> 1));
    stow_bench_row(remove, op, base);
    if (stow_packed_count(a) != 0u || !stow_packed_check(a)) {
        stow_bench_print("packed bench: count or check\n");
        stow_port_exit(1);
    }
}

void stow_bench_packed(void)
{
    rows_for(&bench_packed, "stow_packed_push (16-byte item, zeroed)", "stow_packed_at",
             "stow_packed_remove_at (16-byte item, moves the last in)");
    rows_for(&bench_packed_words, "stow_packed_push (4-byte item, zeroed)", "stow_packed_at (4-byte item)",
             "stow_packed_remove_at (4-byte item, moves the last in)");
}
