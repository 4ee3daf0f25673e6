/* SPDX-License-Identifier: MIT */
/* test_misuse.c - cells of the bad-input matrix (README) that the module suites
 * leave open: misuse whose documented answer is a runtime result ("false,
 * nothing changes, no fail counted") rather than a contract violation, checked
 * byte for byte on the container and its storage. Runs at every level, except
 * the one case of a promise made for level 0 only (genpool's handle_of). */
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

/* Size 0, one rule for every container (stow/stow.h): a size of 0 that asks for
 * memory gets the smallest unit the container hands out, at an address of its
 * own, aligned as asked; never NULL, never a fail for being 0. Arena requests:
 * one byte. Pool blocks of size 0: one pointer. genpool, slot map and packed
 * items have a C type's size, never 0: init refuses item_size 0 (false, nothing
 * changed, no report), at every level. */
TEST(misuse_size_zero_is_the_smallest_unit_everywhere)
{
    stow_arena_t a;
    CHECK(stow_arena_init(&a, misuse_buf, 64));
    unsigned char *x = (unsigned char *)stow_arena_alloc(&a, 0, 1);
    unsigned char *y = (unsigned char *)stow_arena_alloc(&a, 0, 4);
    unsigned char *z = (unsigned char *)stow_arena_alloc_zeroed(&a, 0, 1);
    CHECK_PTR_EQ(x, misuse_buf);
    CHECK_PTR_EQ(y, misuse_buf + 4); /* x took one byte; y is aligned as asked */
    CHECK_PTR_EQ(z, misuse_buf + 5);
    stow_stats_t s;
    stow_arena_stats(&a, &s);
    CHECK_EQ(s.fails, 0);
    CHECK(stow_arena_check(&a));

    stow_pool_t p;
    CHECK_EQ(STOW_POOL_BYTES(0, 0, 4), STOW_POOL_BYTES(sizeof(void *), 0, 4));
    CHECK(stow_pool_init(&p, misuse_buf, STOW_POOL_BYTES(0, 0, 4), 0, 0, 4));
    x = (unsigned char *)stow_pool_alloc(&p);
    y = (unsigned char *)stow_pool_alloc(&p);
    CHECK_NOT_NULL(x);
    CHECK_NOT_NULL(y);
    CHECK_LE(sizeof(void *), (uintptr_t)(y - x)); /* room for the free-list link */
    CHECK_EQ((uintptr_t)x % STOW_DEFAULT_ALIGN, 0);
    stow_pool_free(&p, x);
    CHECK_PTR_EQ(stow_pool_alloc(&p), x);
    CHECK(stow_pool_check(&p));

    uint32_t violations = stow_test_violations();
    stow_genpool_t g;
    stow_test_fill(&g, 0u, sizeof g); /* its padding too: compared byte for byte */
    CHECK(stow_genpool_init(&g, misuse_buf, sizeof misuse_buf, 8, 4, 8));
    save(&g, sizeof g);
    CHECK_FALSE(stow_genpool_init(&g, misuse_buf, sizeof misuse_buf, 0, 4, 8));
    CHECK_FALSE(stow_genpool_init(&g, misuse_buf, sizeof misuse_buf, 0, 1, 1));
    CHECK_CALL(check_unchanged(&g, sizeof g));

    stow_slotmap_t m;
    stow_test_fill(&m, 0u, sizeof m); /* its padding too: compared byte for byte */
    CHECK(stow_slotmap_init(&m, misuse_buf, sizeof misuse_buf, 8, 4, 8));
    save(&m, sizeof m);
    CHECK_FALSE(stow_slotmap_init(&m, misuse_buf, sizeof misuse_buf, 0, 4, 8));
    CHECK_FALSE(stow_slotmap_init(&m, misuse_buf, sizeof misuse_buf, 0, 1, 1));
    CHECK_CALL(check_unchanged(&m, sizeof m));

    stow_packed_t k;
    stow_test_fill(&k, 0u, sizeof k); /* its padding too: compared byte for byte */
    CHECK(stow_packed_init(&k, misuse_buf, sizeof misuse_buf, 8, 4, 8));
    save(&k, sizeof k);
    CHECK_FALSE(stow_packed_init(&k, misuse_buf, sizeof misuse_buf, 0, 4, 8));
    CHECK_FALSE(stow_packed_init(&k, misuse_buf, sizeof misuse_buf, 0, 1, 1));
    CHECK_CALL(check_unchanged(&k, sizeof k));
    CHECK_EQ(stow_test_violations(), violations); /* a runtime result, not a violation */
}

/* An n * size that does not fit a size_t (STOW_ARENA_NEW_ARRAY, alloc_array) is a
 * runtime result at every level: NULL and one fail per call, and no other byte of
 * the arena or its storage changes. A product that wraps to a small number must
 * not become a short buffer, nor a count of -1 a huge one. */
struct misuse_vec3 {
    uint32_t x, y, z;
};

TEST(misuse_arena_array_overflow_counts_a_fail_and_changes_nothing_else)
{
    stow_arena_t a;
    stow_test_fill(&a, 0u, sizeof a);
    stow_test_fill(misuse_buf, 0xA5u, sizeof misuse_buf);
    CHECK(stow_arena_init(&a, misuse_buf, sizeof misuse_buf));
    CHECK_NOT_NULL(stow_arena_alloc(&a, 8, 8));
    stow_arena_t before;
    stow_test_copy(&before, &a, sizeof a);
    save(&a, sizeof a); /* the storage */
    size_t wraps = SIZE_MAX / sizeof(struct misuse_vec3) + 2u; /* * 12 wraps to a few bytes */
    long minus_one = -1;                                       /* converts to SIZE_MAX */
    CHECK_NULL(STOW_ARENA_NEW_ARRAY(&a, struct misuse_vec3, wraps));
    CHECK_NULL(STOW_ARENA_NEW_ARRAY(&a, struct misuse_vec3, minus_one));
    CHECK_NULL(stow_arena_alloc_array(&a, SIZE_MAX / 2u + 1u, 2, 1));
    CHECK_NULL(stow_arena_alloc_array(&a, 2, SIZE_MAX, 0));
    before.fails += 4u; /* the one field a refusal changes */
    CHECK_BYTES_EQ(&before, &a, sizeof a);
    CHECK_BYTES_EQ(misuse_saved_buf, misuse_buf, sizeof misuse_buf);
    stow_stats_t s;
    stow_arena_stats(&a, &s);
    CHECK_EQ(s.fails, 4);
    CHECK_EQ(s.used, 8);
    CHECK(stow_arena_check(&a));
}

/* iterate() takes any cursor: one at or beyond the capacity is the end of the
 * walk at every level (NULL), not an index violation, and changes nothing. */
TEST(misuse_genpool_iterate_from_beyond_the_capacity_gives_null)
{
    stow_genpool_t g;
    stow_test_fill(&g, 0u, sizeof g);
    stow_test_fill(misuse_buf, 0xA5u, sizeof misuse_buf);
    CHECK(stow_genpool_init(&g, misuse_buf, sizeof misuse_buf, 4, 4, 8));
    for (uint32_t i = 0; i < 8; i++) { /* full: the last slot is live */
        CHECK(!stow_handle_is_null(stow_genpool_insert(&g, &i)));
    }
    const uint32_t cursors[] = {8, 9, 31, 32, 33, 1000, STOW_HANDLE_INDEX_MASK, UINT32_MAX - 1u,
                                UINT32_MAX};
    save(&g, sizeof g);
    for (size_t k = 0; k < sizeof cursors / sizeof cursors[0]; k++) {
        uint32_t cursor = cursors[k];
        CHECK_NULL(stow_genpool_iterate(&g, &cursor));
    }
    CHECK_CALL(check_unchanged(&g, sizeof g));
    uint32_t cursor = 7;
    const uint32_t *last = (const uint32_t *)stow_genpool_iterate(&g, &cursor);
    CHECK_NOT_NULL(last);
    CHECK_EQ(*last, 7);
    CHECK_EQ(cursor, 8);
    CHECK_NULL(stow_genpool_iterate(&g, &cursor));
    CHECK(stow_genpool_check(&g));
}

#if STOW_CHECK_LEVEL == 0
/* The one violation genpool.h answers at level 0 too: handle_of() of a pointer
 * that is not the first byte of an item (NULL, outside the items, interior or
 * misaligned) gives an unspecified handle and never reads outside the pool. So
 * each such call must return, report nothing and change nothing. (At levels 1
 * and 2 they are reported: test_genpool.c,
 * genpool_handle_of_rejects_pointers_not_to_an_item.) */
TEST(misuse_genpool_handle_of_level0_answers_and_changes_nothing)
{
    stow_genpool_t g;
    stow_test_fill(&g, 0u, sizeof g);
    stow_test_fill(misuse_buf, 0xA5u, sizeof misuse_buf);
    const uint32_t cap = 8, stride = 12;
    CHECK(stow_genpool_init(&g, misuse_buf, sizeof misuse_buf, stride, 4, cap));
    stow_handle_t h[6];
    unsigned char *item[6];
    for (uint32_t i = 0; i < 6; i++) { /* slots 6 and 7 never used */
        item[i] = (unsigned char *)stow_genpool_alloc(&g, &h[i]);
        CHECK_NOT_NULL(item[i]);
    }
    CHECK(stow_genpool_remove(&g, h[1]));
    CHECK(stow_genpool_remove(&g, h[4]));
    save(&g, sizeof g);
    uint32_t violations = stow_test_violations();
    int local = 0;
    const uintptr_t items = (uintptr_t)misuse_buf;
    const void *outside[] = {
        NULL,
        (const void *)(items - 1u), /* made from integers: pointer arithmetic may not go there */
        (const void *)(items - stride),
        (const void *)(items - (uintptr_t)cap * stride),
        misuse_buf + cap * stride,   /* one past the items: the words */
        g.words,
        g.bits,
        misuse_saved_buf,            /* another buffer */
        &local,                      /* the stack */
        &g,
        (const void *)(uintptr_t)stride,
        (const void *)UINTPTR_MAX,
    };
    for (size_t k = 0; k < sizeof outside / sizeof outside[0]; k++) {
        (void)stow_genpool_handle_of(&g, outside[k]);
    }
    for (uint32_t i = 0; i < cap; i++) {
        for (uint32_t off = 1; off < stride; off++) { /* interior, aligned or not */
            (void)stow_genpool_handle_of(&g, misuse_buf + i * stride + off);
        }
    }
    (void)local;
    CHECK_EQ(stow_test_violations(), violations);
    CHECK_CALL(check_unchanged(&g, sizeof g));
    for (uint32_t i = 0; i < 6; i++) { /* and the pool answers as before */
        bool live = i != 1 && i != 4;
        CHECK_PTR_EQ(stow_genpool_get(&g, h[i]), live ? item[i] : NULL);
        CHECK(stow_handle_eq(stow_genpool_handle_of(&g, item[i]), live ? h[i] : STOW_HANDLE_NULL));
    }
    CHECK(stow_genpool_check(&g));
}
#endif

void stow_test_suite_misuse(void)
{
    RUN(misuse_double_remove_is_a_stale_remove);
    RUN(misuse_slotmap_stale_null_forged_handles_change_nothing);
    RUN(misuse_init_refusals_change_nothing);
    RUN(misuse_size_zero_is_the_smallest_unit_everywhere);
    RUN(misuse_arena_array_overflow_counts_a_fail_and_changes_nothing_else);
    RUN(misuse_genpool_iterate_from_beyond_the_capacity_gives_null);
#if STOW_CHECK_LEVEL == 0
    RUN(misuse_genpool_handle_of_level0_answers_and_changes_nothing);
#endif
}
