/* SPDX-License-Identifier: MIT */
/* ops_packed.c - instructions per packed array operation; see bench.h.
 * Items are 16-byte particles (four words) unless a row says otherwise. */
#include "bench.h"

struct particle {
    uint32_t x, y, vx, vy;
};

static stow_packed_t arr;

static void init_for(size_t size, size_t align)
{
    if (!stow_packed_init(&arr, stow_bench_ram, STOW_PACKED_BYTES(size, align, BENCH_OPS), size,
                          align, BENCH_OPS)) {
        stow_bench_fail("packed", "init");
    }
}

static void fill(void)
{
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        (void)stow_packed_push(&arr);
    }
    if (stow_packed_count(&arr) != BENCH_OPS) {
        stow_bench_fail("packed", "not full");
    }
}

static void prep_fresh(void) { init_for(sizeof(struct particle), STOW_ALIGNOF(struct particle)); }
static void prep_full(void)
{
    prep_fresh();
    fill();
}
static void prep_word_fresh(void) { init_for(sizeof(uint32_t), STOW_ALIGNOF(uint32_t)); }
static void prep_word_full(void)
{
    prep_word_fresh();
    fill();
}

static BENCH_BARE void *bare_push(stow_packed_t *a BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void bare_remove_at(stow_packed_t *a BENCH_UNUSED,
                                      uint32_t index BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void *bare_at(const stow_packed_t *a BENCH_UNUSED,
                                uint32_t index BENCH_UNUSED) BENCH_BARE_BODY

/* One loop per row, so that callgrind tells the rows apart. */
BENCH_LOOP(run_packed_push, stow_bench_sink = stow_packed_push(&arr))
BENCH_LOOP(run_packed_push4, stow_bench_sink = stow_packed_push(&arr))
BENCH_LOOP(base_packed_push, stow_bench_sink = bare_push(&arr))
BENCH_LOOP(run_packed_at, stow_bench_sink = stow_packed_at(&arr, i))
BENCH_LOOP(base_packed_at, stow_bench_sink = bare_at(&arr, i))
/* The middle position: below count throughout, and the last item moves in. */
BENCH_LOOP(run_packed_remove_at, stow_packed_remove_at(&arr, (BENCH_OPS - 1u - i) >> 1))
BENCH_LOOP(run_packed_remove_at4, stow_packed_remove_at(&arr, (BENCH_OPS - 1u - i) >> 1))
BENCH_LOOP(base_packed_remove_at, bare_remove_at(&arr, (BENCH_OPS - 1u - i) >> 1))

void stow_bench_packed(void)
{
    BENCH_ROW("packed push (16-byte item, zeroed)", prep_fresh, run_packed_push, base_packed_push);
    BENCH_ROW("packed at", prep_full, run_packed_at, base_packed_at);
    BENCH_ROW("packed remove_at (16-byte item, moves the last in)", prep_full,
              run_packed_remove_at, base_packed_remove_at);
    if (stow_packed_count(&arr) != 0u || !stow_packed_check(&arr)) {
        stow_bench_fail("packed", "remove_at");
    }
    BENCH_ROW("packed push (4-byte item, zeroed)", prep_word_fresh, run_packed_push4,
              base_packed_push);
    BENCH_ROW("packed remove_at (4-byte item, moves the last in)", prep_word_full,
              run_packed_remove_at4, base_packed_remove_at);
    if (stow_packed_count(&arr) != 0u || !stow_packed_check(&arr)) {
        stow_bench_fail("packed", "check");
    }
}
