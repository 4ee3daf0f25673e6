/* SPDX-License-Identifier: MIT */
/* test_index_bits.c - handle splits of a container's own (stow/genpool.h and
 * stow/slotmap.h: the DEFINE_TYPED_BITS macros): the handles carry the
 * container's split whatever STOW_HANDLE_INDEX_BITS is, generations count and
 * run out at the container's own limit, capacities beyond the global limit,
 * and check() refusing a split that is not one. Host and every board; the same
 * cases run in the host builds with 28 global index bits and STOW_GEN_RETIRE. */
#include "harness.h"

#define RETIRE_MODE (STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE)

/* 3 index bits: 29 bits of generation, whatever the global split; as many
 * slots as they can name. (Small: the micro:bit has 16 KiB of RAM.) */
STOW_GENPOOL_DEFINE_TYPED_BITS_STATIC(bits_genpool, uint32_t, 8, 3);
STOW_SLOTMAP_DEFINE_TYPED_BITS_STATIC(bits_slotmap, uint32_t, 8, 3);
/* 28 index bits: 15 generations, so that a slot runs out in the test's reach. */
STOW_GENPOOL_DEFINE_TYPED_BITS_STATIC(short_genpool, uint32_t, 4, 28);
STOW_SLOTMAP_DEFINE_TYPED_BITS_STATIC(short_slotmap, uint32_t, 4, 28);

TEST(index_bits_genpool_handles)
{
    stow_genpool_clear(&bits_genpool);
    uint32_t v = 7u;
    bits_genpool_handle_t h = bits_genpool_insert(&v);
    CHECK_FALSE(bits_genpool_is_null(h));
    CHECK_EQ(bits_genpool_index(h), 0u);
    /* the generation a clear left the slot at, and the split: index in 3 bits */
    uint32_t gen = bits_genpool_generation(h);
    CHECK_EQ(h.untyped.bits, gen << 3 | 0u);
    /* 20 reuses of one slot: the generation counts on in the high 29 bits */
    for (uint32_t k = 1; k <= 20u; k++) {
        CHECK(bits_genpool_remove(h));
        CHECK_NULL(bits_genpool_get(h));
        h = bits_genpool_insert(&v);
        CHECK_EQ(bits_genpool_index(h), 0u);
        CHECK_EQ(bits_genpool_generation(h), gen + k);
    }
    bits_genpool_handle_t h2 = bits_genpool_insert(&v);
    CHECK_EQ(bits_genpool_index(h2), 1u);
    CHECK_EQ(*bits_genpool_get(h2), 7u);
    CHECK_EQ(stow_genpool_count(&bits_genpool), 2u);
    CHECK(stow_genpool_check(&bits_genpool));
    /* first/next and handle_of read the pool's own split */
    bits_genpool_handle_t it = bits_genpool_first();
    CHECK_EQ(it.untyped.bits, h.untyped.bits);
    it = bits_genpool_next(it);
    CHECK_EQ(it.untyped.bits, h2.untyped.bits);
    CHECK(bits_genpool_is_null(bits_genpool_next(it)));
    CHECK_EQ(bits_genpool_handle_of(bits_genpool_get(h2)).untyped.bits, h2.untyped.bits);
    /* null: generation 0, whatever the index bits */
    bits_genpool_handle_t none = {STOW_HANDLE_NULL};
    CHECK(bits_genpool_is_null(none));
    CHECK_NULL(bits_genpool_get(none));
    bits_genpool_clear();
}

TEST(index_bits_slotmap_handles)
{
    stow_slotmap_clear(&bits_slotmap);
    uint32_t v = 9u;
    bits_slotmap_handle_t h = bits_slotmap_insert(&v);
    uint32_t gen = bits_slotmap_generation(h);
    CHECK_EQ(h.untyped.bits, gen << 3 | bits_slotmap_index(h));
    for (uint32_t k = 1; k <= 20u; k++) {
        uint32_t index = bits_slotmap_index(h);
        CHECK(bits_slotmap_remove(h));
        CHECK_FALSE(bits_slotmap_contains(h));
        h = bits_slotmap_insert(&v);
        CHECK_EQ(bits_slotmap_index(h), index);
        CHECK_EQ(bits_slotmap_generation(h), gen + k);
    }
    bits_slotmap_handle_t h2 = bits_slotmap_insert(&v);
    CHECK_EQ(bits_slotmap_handle_at(1).untyped.bits, h2.untyped.bits);
    CHECK(bits_slotmap_mark_dead(h));
    CHECK_EQ(bits_slotmap_refresh(NULL, NULL), 1u);
    CHECK_FALSE(bits_slotmap_contains(h));
    CHECK_EQ(*bits_slotmap_get(h2), 9u);
    CHECK(stow_slotmap_check(&bits_slotmap));
    bits_slotmap_clear();
    CHECK_FALSE(bits_slotmap_contains(h2));
    CHECK(stow_slotmap_check(&bits_slotmap));
}

/* Generation 15 is the last of a 28-bit split: then 1 again, or the slot retires. */
TEST(index_bits_generations_run_out)
{
    uint32_t v = 1u;
    stow_genpool_clear(&short_genpool);
    short_genpool_handle_t g = short_genpool_insert(&v);
    uint32_t index = short_genpool_index(g);
    while (short_genpool_generation(g) < 15u) {
        CHECK(short_genpool_remove(g));
        g = short_genpool_insert(&v);
        CHECK_EQ(short_genpool_index(g), index);
    }
    CHECK(short_genpool_remove(g));
    g = short_genpool_insert(&v);
    if (RETIRE_MODE) {
        CHECK_NE(short_genpool_index(g), index);
        CHECK_EQ(stow_genpool_retired(&short_genpool), 1u);
    } else {
        CHECK_EQ(short_genpool_index(g), index);
        CHECK_EQ(short_genpool_generation(g), 1u);
    }
    CHECK(stow_genpool_check(&short_genpool));

    stow_slotmap_clear(&short_slotmap);
    short_slotmap_handle_t m = short_slotmap_insert(&v);
    index = short_slotmap_index(m);
    while (short_slotmap_generation(m) < 15u) {
        CHECK(short_slotmap_remove(m));
        m = short_slotmap_insert(&v);
        CHECK_EQ(short_slotmap_index(m), index);
    }
    CHECK(short_slotmap_remove(m));
    m = short_slotmap_insert(&v);
    if (RETIRE_MODE) {
        CHECK_NE(short_slotmap_index(m), index);
        CHECK_EQ(stow_slotmap_retired(&short_slotmap), 1u);
    } else {
        CHECK_EQ(short_slotmap_index(m), index);
        CHECK_EQ(short_slotmap_generation(m), 1u);
    }
    CHECK(stow_slotmap_check(&short_slotmap));
}

/* capacity == 2^index_bits: every index in use, and the free list's links in 3 bits. */
TEST(index_bits_every_index)
{
    uint32_t v = 3u;
    bits_genpool_handle_t g[8];
    bits_slotmap_handle_t m[8];
    stow_genpool_clear(&bits_genpool);
    stow_slotmap_clear(&bits_slotmap);
    for (uint32_t i = 0; i < 8u; i++) {
        g[i] = bits_genpool_insert(&v);
        m[i] = bits_slotmap_insert(&v);
        CHECK_FALSE(bits_genpool_is_null(g[i]));
        CHECK_FALSE(bits_slotmap_is_null(m[i]));
    }
    CHECK(bits_genpool_is_null(bits_genpool_insert(&v)));
    CHECK(bits_slotmap_is_null(bits_slotmap_insert(&v)));
    for (uint32_t i = 0; i < 8u; i += 2u) {
        CHECK(bits_genpool_remove(g[i]));
        CHECK(bits_slotmap_remove(m[i]));
    }
    CHECK(stow_genpool_check(&bits_genpool));
    CHECK(stow_slotmap_check(&bits_slotmap));
    for (uint32_t i = 0; i < 8u; i += 2u) {
        g[i] = bits_genpool_insert(&v);
        m[i] = bits_slotmap_insert(&v);
    }
    for (uint32_t i = 0; i < 8u; i++) {
        CHECK_NOT_NULL(bits_genpool_get(g[i]));
        CHECK_NOT_NULL(bits_slotmap_get(m[i]));
    }
    CHECK(stow_genpool_check(&bits_genpool));
    CHECK(stow_slotmap_check(&bits_slotmap));
    bits_genpool_clear();
    bits_slotmap_clear();
}

/* check() refuses a split that is not 2^n - 1 with 1 <= n <= 30, or one too narrow
 * for the capacity. */
TEST(index_bits_check_refuses_a_bad_mask)
{
    const uint32_t bad[] = {0u, 5u, 0x7FFFFFFFu, 3u}; /* 3: two bits for 8 slots */
    for (uint32_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint32_t keep = bits_genpool.index_mask;
        bits_genpool.index_mask = bad[i];
        CHECK_FALSE(stow_genpool_check(&bits_genpool));
        bits_genpool.index_mask = keep;
        keep = bits_slotmap.index_mask;
        bits_slotmap.index_mask = bad[i];
        CHECK_FALSE(stow_slotmap_check(&bits_slotmap));
        bits_slotmap.index_mask = keep;
    }
    CHECK(stow_genpool_check(&bits_genpool));
    CHECK(stow_slotmap_check(&bits_slotmap));
}

/* A container of its own split beyond the global limit (2^16 by default): 2^17
 * slots. Host only (about 1.3 MB). */
#if !defined(STOW_TEST_TARGET) && STOW_HANDLE_INDEX_BITS == 16
STOW_SLOTMAP_DEFINE_TYPED_BITS_STATIC(wide_slotmap, uint16_t, 131072u, 17);
STOW_GENPOOL_DEFINE_TYPED_BITS_STATIC(wide_genpool, uint16_t, 131072u, 17);

TEST(index_bits_beyond_the_global_limit)
{
    uint16_t v = 5u;
    wide_slotmap_handle_t last_m = {STOW_HANDLE_NULL};
    wide_genpool_handle_t last_g = {STOW_HANDLE_NULL};
    for (uint32_t i = 0; i < 131072u; i++) {
        last_m = wide_slotmap_insert(&v);
        last_g = wide_genpool_insert(&v);
    }
    CHECK_EQ(wide_slotmap_index(last_m), 131071u);
    CHECK_EQ(wide_genpool_index(last_g), 131071u);
    CHECK_EQ(wide_genpool_generation(last_g), 1u);
    CHECK(wide_slotmap_is_null(wide_slotmap_insert(&v)));
    CHECK(wide_slotmap_remove(last_m));
    CHECK(wide_genpool_remove(last_g));
    CHECK_FALSE(wide_genpool_contains(last_g));
    CHECK(stow_slotmap_check(&wide_slotmap));
    CHECK(stow_genpool_check(&wide_genpool));
}
#endif

/* init() gives the global split. */
TEST(index_bits_init_takes_the_global_split)
{
    static STOW_ALIGNAS(8) unsigned char buf[64];
    stow_genpool_t g;
    stow_slotmap_t m;
    CHECK(stow_genpool_init(&g, buf, sizeof buf, 4, 4, 4));
    CHECK_EQ(g.index_mask, STOW_HANDLE_INDEX_MASK);
    uint32_t v = 1u;
    stow_handle_t h = stow_genpool_insert(&g, &v);
    CHECK_EQ(stow_handle_generation(h), 1u);
    CHECK(stow_slotmap_init(&m, buf, sizeof buf, 4, 4, 4));
    CHECK_EQ(m.index_mask, STOW_HANDLE_INDEX_MASK);
    h = stow_slotmap_insert(&m, &v);
    CHECK_EQ(stow_handle_generation(h), 1u);
}

void stow_test_suite_index_bits(void)
{
    RUN(index_bits_genpool_handles);
    RUN(index_bits_slotmap_handles);
    RUN(index_bits_generations_run_out);
    RUN(index_bits_every_index);
    RUN(index_bits_check_refuses_a_bad_mask);
#if !defined(STOW_TEST_TARGET) && STOW_HANDLE_INDEX_BITS == 16
    RUN(index_bits_beyond_the_global_limit);
#endif
    RUN(index_bits_init_takes_the_global_split);
}
