/* SPDX-License-Identifier: MIT */
/* test_cancel.c - stow_genpool_cancel and stow_slotmap_cancel: the undo of an
 * alloc whose item could not be set up (stow.hpp's emplace when a constructor
 * throws). After the undo the container is as it was: the same count, check()
 * passes, the peak does not count the attempt (genpool), and the next alloc
 * gets the same slot and the same handle, whichever way the undone alloc had
 * taken it (never-used slot, free list, after a clear). */
#include "harness.h"

STOW_GENPOOL_DEFINE_TYPED_STATIC(cancel_pool, uint32_t, 4);
STOW_SLOTMAP_DEFINE_TYPED_STATIC(cancel_map, uint32_t, 4);

static size_t peak_of_pool(void)
{
    stow_stats_t s;
    stow_genpool_stats(&cancel_pool, &s);
    return s.peak;
}

/* alloc, cancel, alloc: the second alloc gives what the first did. */
static void genpool_round_trip(void)
{
    uint32_t count = stow_genpool_count(&cancel_pool);
    size_t peak = peak_of_pool();
    cancel_pool_handle_t h;
    uint32_t *p = cancel_pool_alloc(&h);
    CHECK_NOT_NULL(p);
    *p = 0xBADu; /* the set-up that failed half-way */
    CHECK(cancel_pool_cancel(h));
    CHECK_FALSE(cancel_pool_contains(h));
    CHECK_EQ(stow_genpool_count(&cancel_pool), count);
    CHECK_EQ(peak_of_pool(), peak);
    CHECK(stow_genpool_check(&cancel_pool));
    cancel_pool_handle_t again;
    uint32_t *q = cancel_pool_alloc(&again);
    CHECK_PTR_EQ(q, p);
    CHECK_EQ(again.untyped.bits, h.untyped.bits);
    CHECK_EQ(*q, 0u); /* zeroed, as any alloc */
    CHECK(stow_genpool_check(&cancel_pool));
}

TEST(cancel_genpool)
{
    stow_genpool_clear(&cancel_pool);
    uint32_t v = 1u;
    cancel_pool_handle_t a = cancel_pool_insert(&v);
    cancel_pool_handle_t b = cancel_pool_insert(&v);
    genpool_round_trip(); /* a never-used slot */
    CHECK(cancel_pool_remove(a));
    genpool_round_trip(); /* the free list: slot 0, its next generation */
    CHECK(cancel_pool_remove(b));
    stow_genpool_clear(&cancel_pool);
    genpool_round_trip(); /* a slot used before the clear */
    /* a stale or null handle: nothing */
    CHECK_FALSE(cancel_pool_cancel(a));
    cancel_pool_handle_t none = {STOW_HANDLE_NULL};
    CHECK_FALSE(cancel_pool_cancel(none));
    CHECK(stow_genpool_check(&cancel_pool));
    /* the whole pool, then each one back: the list holds them all again */
    stow_genpool_clear(&cancel_pool);
    cancel_pool_handle_t all[4];
    for (uint32_t i = 0; i < 4u; i++) {
        CHECK_NOT_NULL(cancel_pool_alloc(&all[i]));
    }
    for (uint32_t i = 4u; i-- > 0u;) {
        CHECK(cancel_pool_cancel(all[i]));
        CHECK(stow_genpool_check(&cancel_pool));
    }
    CHECK_EQ(stow_genpool_count(&cancel_pool), 0u);
    for (uint32_t i = 0; i < 4u; i++) {
        cancel_pool_handle_t h;
        CHECK_NOT_NULL(cancel_pool_alloc(&h));
        CHECK_EQ(h.untyped.bits, all[i].untyped.bits);
    }
    stow_genpool_clear(&cancel_pool);
}

/* Without the generation step, a slot at its last generation is not retired. */
TEST(cancel_genpool_spends_no_generation)
{
    stow_genpool_clear(&cancel_pool);
    uint32_t v = 1u;
    cancel_pool_handle_t h = cancel_pool_insert(&v);
    for (uint32_t k = 0; k < 100u; k++) {
        CHECK(cancel_pool_cancel(h));
        cancel_pool_handle_t again = cancel_pool_insert(&v);
        CHECK_EQ(again.untyped.bits, h.untyped.bits);
    }
    CHECK_EQ(stow_genpool_retired(&cancel_pool), 0u);
    stow_genpool_clear(&cancel_pool);
}

static void slotmap_round_trip(void)
{
    uint32_t count = stow_slotmap_count(&cancel_map);
    cancel_map_handle_t h;
    uint32_t *p = cancel_map_alloc(&h);
    CHECK_NOT_NULL(p);
    *p = 0xBADu;
    CHECK(cancel_map_cancel(h));
    CHECK_FALSE(cancel_map_contains(h));
    CHECK_EQ(stow_slotmap_count(&cancel_map), count);
    CHECK(stow_slotmap_check(&cancel_map));
    cancel_map_handle_t again;
    uint32_t *q = cancel_map_alloc(&again);
    CHECK_PTR_EQ(q, p);
    CHECK_EQ(again.untyped.bits, h.untyped.bits);
    CHECK_EQ(*q, 0u);
    CHECK(stow_slotmap_check(&cancel_map));
}

TEST(cancel_slotmap)
{
    stow_slotmap_clear(&cancel_map);
    uint32_t v = 1u;
    cancel_map_handle_t a = cancel_map_insert(&v);
    cancel_map_handle_t b = cancel_map_insert(&v);
    slotmap_round_trip(); /* a never-used index */
    CHECK(cancel_map_remove(a));
    slotmap_round_trip(); /* a freed index parked at the end */
    /* only the last item: b is not */
    cancel_map_handle_t c = cancel_map_insert(&v);
    CHECK_FALSE(cancel_map_cancel(b));
    CHECK(cancel_map_contains(b));
    /* a dead mark goes with the item */
    CHECK(cancel_map_mark_dead(c));
    CHECK_EQ(stow_slotmap_dead_count(&cancel_map), 1u);
    CHECK(cancel_map_cancel(c));
    CHECK_EQ(stow_slotmap_dead_count(&cancel_map), 0u);
    CHECK(stow_slotmap_check(&cancel_map));
    CHECK_FALSE(cancel_map_cancel(c)); /* stale now */
    cancel_map_handle_t none = {STOW_HANDLE_NULL};
    CHECK_FALSE(cancel_map_cancel(none));
    stow_slotmap_clear(&cancel_map);
    slotmap_round_trip(); /* after a clear */
    stow_slotmap_clear(&cancel_map);
    CHECK(stow_slotmap_check(&cancel_map));
}

#if STOW_CHECK_LEVEL >= 2 && !STOW_TEST_ASAN
/* A write through the pointer after the cancel is a use after release: the next
 * alloc reports it, as it does after a remove (AddressSanitizer would stop at
 * the write itself). */
TEST(cancel_releases_the_item)
{
    stow_slotmap_clear(&cancel_map);
    cancel_map_handle_t h;
    uint32_t *p = cancel_map_alloc(&h);
    CHECK(cancel_map_cancel(h));
    *p = 1u;
    EXPECT_VIOLATION(cancel_map_alloc(&h));
    stow_slotmap_clear(&cancel_map);
    stow_genpool_clear(&cancel_pool);
    cancel_pool_handle_t g;
    p = cancel_pool_alloc(&g);
    CHECK(cancel_pool_cancel(g));
    *p = 1u;
    EXPECT_VIOLATION(cancel_pool_alloc(&g));
    stow_genpool_clear(&cancel_pool);
}
#endif

TEST(cancel_null_container)
{
#if STOW_CHECK_LEVEL >= 1
    EXPECT_VIOLATION_TEXT(CHECK_FALSE(stow_genpool_cancel(NULL, STOW_HANDLE_NULL)),
                          "stow_genpool_cancel: pool pointer is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_FALSE(stow_slotmap_cancel(NULL, STOW_HANDLE_NULL)),
                          "stow_slotmap_cancel: map pointer is NULL");
#endif
}

void stow_test_suite_cancel(void)
{
    RUN(cancel_genpool);
    RUN(cancel_genpool_spends_no_generation);
    RUN(cancel_slotmap);
#if STOW_CHECK_LEVEL >= 2 && !STOW_TEST_ASAN
    RUN(cancel_releases_the_item);
#endif
    RUN(cancel_null_container);
}
