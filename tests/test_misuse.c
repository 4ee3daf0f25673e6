/* test_misuse.c - cells of the bad-input matrix (README) that the module suites
 * leave open: misuse whose documented answer is a runtime result ("false,
 * nothing changes, no fail counted") rather than a contract violation, checked
 * byte for byte on the container and its storage. Runs at every level. */
#include "harness.h"

static STOW_ALIGNAS(16) unsigned char misuse_buf[384];
static STOW_ALIGNAS(16) unsigned char misuse_saved_buf[sizeof misuse_buf];

/* The container struct and its storage as they were, and the check that they
 * still are. */
static STOW_ALIGNAS(16) unsigned char misuse_saved_obj[256];

static void save(const void *obj, size_t size)
{
    if (size > sizeof misuse_saved_obj) { /* then check_unchanged() fails */
        stow_test_fill(misuse_saved_obj, 0u, sizeof misuse_saved_obj);
        return;
    }
    stow_test_copy(misuse_saved_obj, obj, size);
    stow_test_copy(misuse_saved_buf, misuse_buf, sizeof misuse_buf);
}

static void check_unchanged(const void *obj, size_t size)
{
    CHECK_BYTES_EQ(misuse_saved_obj, obj, size);
    CHECK_BYTES_EQ(misuse_saved_buf, misuse_buf, sizeof misuse_buf);
}

static uint32_t genpool_fails(const stow_genpool_t *g)
{
    stow_stats_t s;
    stow_genpool_stats(g, &s);
    return s.fails;
}

static uint32_t slotmap_fails(const stow_slotmap_t *m)
{
    stow_stats_t s;
    stow_slotmap_stats(m, &s);
    return s.fails;
}

/* Removing an item twice: the second remove names a stale handle, so it is an
 * ordinary "false" (genpool.h, slotmap.h), changes nothing and is not a fail. */
TEST(misuse_double_remove_is_a_stale_remove)
{
    stow_genpool_t g;
    stow_test_fill(&g, 0u, sizeof g);
    stow_test_fill(misuse_buf, 0xA5u, sizeof misuse_buf);
    CHECK(stow_genpool_init(&g, misuse_buf, sizeof misuse_buf, 8, 4, 8));
    uint32_t v[2] = {1, 2};
    stow_handle_t a = stow_genpool_insert(&g, v);
    stow_handle_t b = stow_genpool_insert(&g, v);
    CHECK(stow_genpool_remove(&g, a));
    save(&g, sizeof g);
    CHECK_FALSE(stow_genpool_remove(&g, a));
    CHECK_NULL(stow_genpool_get(&g, a));
    CHECK_CALL(check_unchanged(&g, sizeof g));
    CHECK_EQ(genpool_fails(&g), 0);
    CHECK(stow_genpool_contains(&g, b));
    CHECK(stow_genpool_check(&g));

    stow_slotmap_t m;
    stow_test_fill(&m, 0u, sizeof m);
    stow_test_fill(misuse_buf, 0xA5u, sizeof misuse_buf);
    CHECK(stow_slotmap_init(&m, misuse_buf, sizeof misuse_buf, 8, 4, 8));
    a = stow_slotmap_insert(&m, v);
    b = stow_slotmap_insert(&m, v);
    stow_handle_t c = stow_slotmap_insert(&m, v);
    CHECK(stow_slotmap_remove(&m, a)); /* c moves into a's place */
    save(&m, sizeof m);
    CHECK_FALSE(stow_slotmap_remove(&m, a));
    CHECK_FALSE(stow_slotmap_mark_dead(&m, a));
    CHECK_CALL(check_unchanged(&m, sizeof m));
    CHECK_EQ(slotmap_fails(&m), 0);
    CHECK_EQ(stow_slotmap_count(&m), 2);
    CHECK(stow_slotmap_contains(&m, b) && stow_slotmap_contains(&m, c));
    /* and after refresh destroyed it */
    CHECK(stow_slotmap_mark_dead(&m, b));
    CHECK_EQ(stow_slotmap_refresh(&m, NULL, NULL), 1);
    save(&m, sizeof m);
    CHECK_FALSE(stow_slotmap_remove(&m, b));
    CHECK_CALL(check_unchanged(&m, sizeof m));
    CHECK(stow_slotmap_check(&m));
}

/* Stale, null and forged handles: every function that takes a handle answers
 * NULL / false, changes nothing and counts no fail. (genpool's side is in
 * test_genpool.c: genpool_null_and_forged_handles_are_stale.) */
TEST(misuse_slotmap_stale_null_forged_handles_change_nothing)
{
    stow_slotmap_t m;
    stow_test_fill(&m, 0u, sizeof m);
    stow_test_fill(misuse_buf, 0xA5u, sizeof misuse_buf);
    CHECK(stow_slotmap_init(&m, misuse_buf, sizeof misuse_buf, 4, 4, 8));
    uint32_t v = 7;
    stow_handle_t live = stow_slotmap_insert(&m, &v);
    stow_handle_t gone = stow_slotmap_insert(&m, &v);
    (void)stow_slotmap_insert(&m, &v);
    CHECK(stow_slotmap_remove(&m, gone));
    CHECK(stow_slotmap_mark_dead(&m, live));
    const stow_handle_t bad[] = {
        gone,                                                             /* stale */
        STOW_HANDLE_NULL,                                                 /* null */
        stow_handle_make(stow_handle_index(live), 0),                     /* generation 0 */
        stow_handle_make(stow_handle_index(gone), stow_handle_generation(gone) + 1u), /* not issued yet */
        stow_handle_make(5, 1),                                           /* never used */
        stow_handle_make(8, 1),                                           /* beyond the capacity */
        stow_handle_make(STOW_HANDLE_INDEX_MASK, STOW_HANDLE_MAX_GENERATION),
    };
    save(&m, sizeof m);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        CHECK_NULL(stow_slotmap_get(&m, bad[k]));
        CHECK_FALSE(stow_slotmap_contains(&m, bad[k]));
        CHECK_FALSE(stow_slotmap_is_dead(&m, bad[k]));
        CHECK_FALSE(stow_slotmap_mark_dead(&m, bad[k]));
        CHECK_FALSE(stow_slotmap_remove(&m, bad[k]));
    }
    CHECK_CALL(check_unchanged(&m, sizeof m));
    CHECK_EQ(slotmap_fails(&m), 0);
    CHECK(stow_slotmap_is_dead(&m, live));
    CHECK(stow_slotmap_check(&m));
}

/* Bad buffers and sizes at init are runtime results for every container:
 * false, and the object is not touched (a byte-for-byte check on an object that
 * was in use). */
TEST(misuse_init_refusals_change_nothing)
{
    size_t big = SIZE_MAX / 2u + 1u;
    stow_arena_t a;
    stow_test_fill(&a, 0u, sizeof a);
    CHECK(stow_arena_init(&a, misuse_buf, 64));
    CHECK_NOT_NULL(stow_arena_alloc(&a, 8, 8));
    save(&a, sizeof a);
    CHECK_FALSE(stow_arena_init(&a, NULL, 64));
    CHECK_FALSE(stow_arena_init(&a, misuse_buf, 0));
    CHECK_CALL(check_unchanged(&a, sizeof a));

    stow_pool_t p;
    stow_test_fill(&p, 0u, sizeof p);
    CHECK(stow_pool_init(&p, misuse_buf, sizeof misuse_buf, 8, 8, 4));
    CHECK_NOT_NULL(stow_pool_alloc(&p));
    save(&p, sizeof p);
    CHECK_FALSE(stow_pool_init(&p, NULL, sizeof misuse_buf, 8, 8, 4));
    CHECK_FALSE(stow_pool_init(&p, misuse_buf + 4, sizeof misuse_buf - 4u, 8, 8, 4)); /* misaligned */
    CHECK_FALSE(stow_pool_init(&p, misuse_buf, STOW_POOL_BYTES(8, 8, 4) - 1u, 8, 8, 4)); /* too small */
    CHECK_FALSE(stow_pool_init(&p, misuse_buf, sizeof misuse_buf, 8, 8, 0));
    CHECK_FALSE(stow_pool_init(&p, misuse_buf, SIZE_MAX, big, 8, 2)); /* n * size overflows */
    CHECK_CALL(check_unchanged(&p, sizeof p));

    stow_genpool_t g;
    stow_test_fill(&g, 0u, sizeof g);
    CHECK(stow_genpool_init(&g, misuse_buf, sizeof misuse_buf, 8, 4, 8));
    CHECK_NOT_NULL(stow_genpool_alloc(&g, NULL));
    save(&g, sizeof g);
    CHECK_FALSE(stow_genpool_init(&g, NULL, sizeof misuse_buf, 8, 4, 8));
    CHECK_FALSE(stow_genpool_init(&g, misuse_buf + 2, sizeof misuse_buf - 2u, 8, 4, 8));
    CHECK_FALSE(stow_genpool_init(&g, misuse_buf, STOW_GENPOOL_BYTES(8, 4, 8) - 1u, 8, 4, 8));
    CHECK_FALSE(stow_genpool_init(&g, misuse_buf, SIZE_MAX, big, 1, 2));
    CHECK_FALSE(stow_genpool_init(&g, misuse_buf, SIZE_MAX, 1, 1, STOW_HANDLE_MAX_CAPACITY + 1u));
    CHECK_CALL(check_unchanged(&g, sizeof g));

    stow_slotmap_t m;
    stow_test_fill(&m, 0u, sizeof m);
    CHECK(stow_slotmap_init(&m, misuse_buf, sizeof misuse_buf, 8, 4, 8));
    CHECK_NOT_NULL(stow_slotmap_alloc(&m, &(stow_handle_t){0}));
    save(&m, sizeof m);
    CHECK_FALSE(stow_slotmap_init(&m, NULL, sizeof misuse_buf, 8, 4, 8));
    CHECK_FALSE(stow_slotmap_init(&m, misuse_buf + 2, sizeof misuse_buf - 2u, 8, 4, 8));
    CHECK_FALSE(stow_slotmap_init(&m, misuse_buf, STOW_SLOTMAP_BYTES(8, 4, 8) - 1u, 8, 4, 8));
    CHECK_FALSE(stow_slotmap_init(&m, misuse_buf, SIZE_MAX, big, 1, 2));
#if STOW_HANDLE_MAX_CAPACITY < UINT32_MAX
    CHECK_FALSE(stow_slotmap_init(&m, misuse_buf, SIZE_MAX, 1, 1, (uint32_t)STOW_HANDLE_MAX_CAPACITY + 1u));
#endif
    CHECK_CALL(check_unchanged(&m, sizeof m));

    stow_packed_t k;
    stow_test_fill(&k, 0u, sizeof k);
    CHECK(stow_packed_init(&k, misuse_buf, sizeof misuse_buf, 8, 4, 8));
    CHECK_NOT_NULL(stow_packed_push(&k));
    save(&k, sizeof k);
    CHECK_FALSE(stow_packed_init(&k, NULL, sizeof misuse_buf, 8, 4, 8));
    CHECK_FALSE(stow_packed_init(&k, misuse_buf + 2, sizeof misuse_buf - 2u, 8, 4, 8));
    CHECK_FALSE(stow_packed_init(&k, misuse_buf, STOW_PACKED_BYTES(8, 4, 8) - 1u, 8, 4, 8));
    CHECK_FALSE(stow_packed_init(&k, misuse_buf, SIZE_MAX, big, 1, 2));
    CHECK_CALL(check_unchanged(&k, sizeof k));
}

void stow_test_suite_misuse(void)
{
    RUN(misuse_double_remove_is_a_stale_remove);
    RUN(misuse_slotmap_stale_null_forged_handles_change_nothing);
    RUN(misuse_init_refusals_change_nothing);
}
