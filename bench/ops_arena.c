/* ops_arena.c - instructions per arena operation; see bench.h. */
#include "bench.h"

STOW_ARENA_DEFINE_STATIC(bench_arena, BENCH_OPS * 8u + 64u);

static BENCH_BASELINE void *empty_alloc(stow_arena_t *a, size_t size, size_t align)
{
    (void)size;
    (void)align;
    return a;
}

void stow_bench_arena(void)
{
    uint32_t base, op;
    BENCH_TICKS(base, stow_bench_sink = empty_alloc(&bench_arena, 8u, 8u));
    stow_arena_reset(&bench_arena);
    BENCH_TICKS(op, stow_bench_sink = stow_arena_alloc(&bench_arena, 8u, 8u));
    stow_bench_row("stow_arena_alloc (8 bytes, align 8)", op, base);
    stow_arena_reset(&bench_arena);
    BENCH_TICKS(op, stow_bench_sink = stow_arena_alloc(&bench_arena, 8u, 0u));
    stow_bench_row("stow_arena_alloc (8 bytes, align 0: default)", op, base);
    if (!stow_arena_check(&bench_arena)) {
        stow_bench_print("arena check failed\n");
        stow_port_exit(1);
    }
}
