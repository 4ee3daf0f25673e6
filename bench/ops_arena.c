/* SPDX-License-Identifier: MIT */
/* ops_arena.c - instructions per arena operation; see bench.h. */
#include "bench.h"

static stow_arena_t arena;

static void prep_fresh(void)
{
    /* 16 bytes a call: room for 8-byte allocations at the host's default alignment */
    if (!stow_arena_init(&arena, stow_bench_ram, (size_t)BENCH_OPS * 16u + 64u)) {
        stow_bench_fail("arena", "init");
    }
}

static BENCH_BARE void *bare_alloc(stow_arena_t *a BENCH_UNUSED, size_t size BENCH_UNUSED,
                                   size_t align BENCH_UNUSED) BENCH_BARE_BODY

BENCH_LOOP(run_arena_alloc8, stow_bench_sink = stow_arena_alloc(&arena, 8u, 8u))
BENCH_LOOP(base_arena_alloc8, stow_bench_sink = bare_alloc(&arena, 8u, 8u))
BENCH_LOOP(run_arena_alloc_default, stow_bench_sink = stow_arena_alloc(&arena, 8u, 0u))
BENCH_LOOP(base_arena_alloc_default, stow_bench_sink = bare_alloc(&arena, 8u, 0u))

void stow_bench_arena(void)
{
    BENCH_ROW("arena alloc (8 bytes, align 8)", prep_fresh, run_arena_alloc8, base_arena_alloc8);
    BENCH_ROW("arena alloc (8 bytes, align 0: default)", prep_fresh, run_arena_alloc_default,
              base_arena_alloc_default);
    if (!stow_arena_check(&arena) || stow_arena_used(&arena) < (size_t)BENCH_OPS * 8u) {
        stow_bench_fail("arena", "check");
    }
}
