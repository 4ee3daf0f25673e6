/* SPDX-License-Identifier: MIT */
/* test_packed.c - every clause of stow/packed.h, on the host and on every board. */
#include "harness.h"

struct particle {
    int32_t x, y;
    uint16_t life;
};

STOW_PACKED_DEFINE(test_packed_defined, struct particle, 6);
STOW_PACKED_DEFINE_STATIC(test_packed_bytes, char, 5);

#if defined(STOW_TEST_RAM_KIB) && STOW_TEST_RAM_KIB < 64
#define PWALK_CAP 32u
#else
#define PWALK_CAP 160u
#endif
#define PWALK_BUF_BYTES (PWALK_CAP * 8u)

static STOW_ALIGNAS(16) unsigned char pbuf[PWALK_BUF_BYTES];
static stow_packed_t arr;

static uint32_t packed_fails(const stow_packed_t *a)
{
    stow_stats_t s;
    stow_packed_stats(a, &s);
    return s.fails;
}

static void fresh_u32(stow_packed_t *a, uint32_t capacity)
{
    stow_test_fill(pbuf, 0xA5u, sizeof pbuf);
    CHECK(stow_packed_init(a, pbuf, sizeof pbuf, sizeof(uint32_t), STOW_ALIGNOF(uint32_t), capacity));
    CHECK(stow_packed_check(a));
}

static void push_u32(stow_packed_t *a, uint32_t v)
{
    uint32_t *p = (uint32_t *)stow_packed_push(a);
    CHECK_NOT_NULL(p);
    CHECK_EQ(*p, 0);
    *p = v;
}

TEST(packed_defined_is_ready_without_init)
{
    stow_packed_t *a = &test_packed_defined;
    CHECK(stow_packed_check(a));
    CHECK_EQ(stow_packed_count(a), 0);
    CHECK_EQ(stow_packed_capacity(a), 6);
    struct particle *all = STOW_PACKED_DATA(a, struct particle);
    CHECK_EQ((uintptr_t)all % STOW_PACKED_ALIGN(STOW_ALIGNOF(struct particle)), 0);
    stow_test_fill(all, 0xA5u, 6 * sizeof(struct particle)); /* never assumed zeroed */
    for (int i = 0; i < 6; i++) {
        struct particle *p = STOW_PACKED_PUSH(a, struct particle);
        CHECK_PTR_EQ(p, all + i);
        CHECK(p->x == 0 && p->y == 0 && p->life == 0);
        p->x = i;
    }
    CHECK_NULL(stow_packed_push(a));
    CHECK_EQ(packed_fails(a), 1);
    CHECK_EQ(STOW_PACKED_AT(a, struct particle, 4)->x, 4);
#if defined(STOW_TEST_TARGET) && STOW_SECTIONS
    extern unsigned char __stow_start[], __stow_end[];
    CHECK((unsigned char *)all >= __stow_start && (unsigned char *)all < __stow_end);
#endif
    CHECK(stow_packed_check(a));
    stow_packed_clear(a);
    CHECK_EQ(stow_packed_count(a), 0);
    /* odd sizes: a byte at a time */
    char *c = STOW_PACKED_PUSH(&test_packed_bytes, char);
    CHECK_NOT_NULL(c);
    *c = 'a';
    c = STOW_PACKED_PUSH(&test_packed_bytes, char);
    *c = 'b';
    stow_packed_remove_at(&test_packed_bytes, 0);
    CHECK_EQ(*STOW_PACKED_AT(&test_packed_bytes, char, 0), 'b');
    stow_packed_clear(&test_packed_bytes);
}

TEST(packed_init_refuses_bad_buffers)
{
    stow_packed_t a;
    fresh_u32(&a, 4);
    CHECK_CALL(push_u32(&a, 3));
    stow_packed_t before;
    stow_test_copy(&before, &a, sizeof a);
    CHECK_EQ(STOW_PACKED_BYTES(4, 4, 10), 40);
    CHECK_EQ(STOW_PACKED_BYTES(5, 4, 10), 80);
    CHECK_EQ(STOW_PACKED_BYTES(3, 0, 2), 2u * STOW_DEFAULT_ALIGN);
    CHECK_FALSE(stow_packed_init(&a, NULL, 40, 4, 4, 10));
    CHECK_FALSE(stow_packed_init(&a, pbuf, 39, 4, 4, 10));
    CHECK_FALSE(stow_packed_init(&a, pbuf + 2, 40, 4, 4, 10));
    CHECK_FALSE(stow_packed_init(&a, pbuf, 40, 4, 4, 0));
    CHECK_FALSE(stow_packed_init(&a, pbuf, 40, 0, 4, 10)); /* item_size 0 */
    CHECK_FALSE(stow_packed_init(&a, pbuf, SIZE_MAX, SIZE_MAX - 1u, 4, 1)); /* rounding overflows */
    CHECK_FALSE(stow_packed_init(&a, pbuf, SIZE_MAX, SIZE_MAX / 2u + 1u, 1, 2)); /* product */
    CHECK_BYTES_EQ(&before, &a, sizeof a);
    /* init only computes: a pretend size shows where the arithmetic draws the line */
    CHECK(stow_packed_init(&a, pbuf, SIZE_MAX, 0x10000u, 1, 0xFFFFu));
    CHECK(stow_packed_init(&a, pbuf, SIZE_MAX, 0xFFFFu, 1, 0x10000u));
    CHECK(stow_packed_init(&a, pbuf, 0x10000u * 0x10u, 0x10u, 1, 0x10000u));
    CHECK_FALSE(stow_packed_init(&a, pbuf, 0x10000u * 0x10u - 1u, 0x10u, 1, 0x10000u));
#if SIZE_MAX <= UINT32_MAX
    CHECK_FALSE(stow_packed_init(&a, pbuf, SIZE_MAX, 0x10000u, 1, 0x10000u)); /* 2^32 */
    CHECK_FALSE(stow_packed_init(&a, pbuf, SIZE_MAX, 0x20000u, 1, 0x8001u));
    CHECK_FALSE(stow_packed_init(&a, pbuf, SIZE_MAX, 0x8001u, 0x20000u, 0x8001u));
    CHECK_FALSE(stow_packed_init(&a, pbuf, SIZE_MAX, 0x100u, 1, 0x1000000u));
#endif
    CHECK(stow_packed_init(&a, pbuf, 40, 4, 4, 10));
    CHECK(stow_packed_init(&a, pbuf + 1, 21, 3, 1, 7)); /* byte items anywhere */
    CHECK_NOT_NULL(stow_packed_push(&a));
    CHECK(stow_packed_init(&a, pbuf, 2u * STOW_DEFAULT_ALIGN, 3, 0, 2));
    unsigned char *p0 = (unsigned char *)stow_packed_push(&a);
    unsigned char *p1 = (unsigned char *)stow_packed_push(&a);
    CHECK_EQ(p1 - p0, STOW_DEFAULT_ALIGN);
    CHECK(stow_packed_check(&a));
}

TEST(packed_remove_at_swaps_the_last_item_in)
{
    fresh_u32(&arr, 8);
    for (uint32_t i = 0; i < 5; i++) {
        CHECK_CALL(push_u32(&arr, 10u + i));
    }
    const uint32_t *d = (const uint32_t *)stow_packed_data(&arr);
    stow_packed_remove_at(&arr, 1); /* 14 moves into 1 */
    CHECK_EQ(stow_packed_count(&arr), 4);
    CHECK(d[0] == 10 && d[1] == 14 && d[2] == 12 && d[3] == 13);
    stow_packed_remove_at(&arr, 3); /* the last: just popped */
    CHECK_EQ(stow_packed_count(&arr), 3);
    CHECK(d[0] == 10 && d[1] == 14 && d[2] == 12);
    stow_packed_remove_at(&arr, 0);
    CHECK(d[0] == 12 && d[1] == 14);
    CHECK_PTR_EQ(stow_packed_at(&arr, 1), d + 1);
    stow_packed_remove_at(&arr, 0);
    stow_packed_remove_at(&arr, 0);
    CHECK_EQ(stow_packed_count(&arr), 0);
    CHECK(stow_packed_check(&arr));
    /* items never move on push */
    CHECK_CALL(push_u32(&arr, 1));
    uint32_t *first = STOW_PACKED_AT(&arr, uint32_t, 0);
    CHECK_CALL(push_u32(&arr, 2));
    CHECK_PTR_EQ(STOW_PACKED_AT(&arr, uint32_t, 0), first);
}

TEST(packed_full_clear_and_stats)
{
    fresh_u32(&arr, 3);
    stow_stats_t s;
    stow_packed_stats(&arr, &s);
    CHECK(s.capacity == 3 && s.used == 0 && s.peak == 0 && s.fails == 0);
    for (uint32_t i = 0; i < 3; i++) {
        CHECK_CALL(push_u32(&arr, i));
    }
    stow_packed_t before;
    stow_test_copy(&before, &arr, sizeof arr);
    CHECK_NULL(stow_packed_push(&arr));
    CHECK_NULL(stow_packed_push(&arr));
    before.fails = 2;
    CHECK_BYTES_EQ(&before, &arr, sizeof arr);
    stow_packed_stats(&arr, &s);
    CHECK(s.used == 3 && s.peak == 3 && s.fails == 2);
    stow_packed_remove_at(&arr, 0);
    stow_packed_stats(&arr, &s);
    CHECK(s.used == 2 && s.peak == 3);
    stow_packed_clear(&arr);
    stow_packed_stats(&arr, &s);
    CHECK(s.used == 0 && s.peak == 3 && s.fails == 2 && s.capacity == 3);
    CHECK_CALL(push_u32(&arr, 7));
    CHECK_EQ(*STOW_PACKED_AT(&arr, uint32_t, 0), 7);
    CHECK(stow_packed_check(&arr));
}

TEST(packed_check_finds_broken_invariants)
{
    fresh_u32(&arr, 4);
    CHECK_CALL(push_u32(&arr, 1));
    stow_packed_t saved;
    stow_test_copy(&saved, &arr, sizeof arr);
    arr.count = 5;
    CHECK_FALSE(stow_packed_check(&arr));
    stow_test_copy(&arr, &saved, sizeof arr);
    arr.peak = 5;
    CHECK_FALSE(stow_packed_check(&arr));
    stow_test_copy(&arr, &saved, sizeof arr);
    arr.items = NULL;
    CHECK_FALSE(stow_packed_check(&arr));
    stow_test_copy(&arr, &saved, sizeof arr);
    arr.capacity = 0;
    CHECK_FALSE(stow_packed_check(&arr));
    stow_test_copy(&arr, &saved, sizeof arr);
    CHECK(stow_packed_check(&arr));
}

#if STOW_CHECK_LEVEL >= 1
TEST(packed_violations_leave_the_array_unchanged)
{
    fresh_u32(&arr, 6);
    CHECK_CALL(push_u32(&arr, 1));
    CHECK_CALL(push_u32(&arr, 2));
    stow_packed_t before;
    static STOW_ALIGNAS(16) unsigned char before_buf[6 * 4];
    stow_test_copy(&before, &arr, sizeof arr);
    stow_test_copy(before_buf, pbuf, sizeof before_buf);
    void *p = &p;
    stow_stats_t s;
    EXPECT_VIOLATION(CHECK_FALSE(stow_packed_init(NULL, pbuf, 40, 4, 4, 4)));
    EXPECT_VIOLATION(CHECK_FALSE(stow_packed_init(&arr, pbuf, 40, 4, 6, 4)));
    EXPECT_VIOLATION(p = stow_packed_push(NULL));
    CHECK_NULL(p);
    EXPECT_VIOLATION(stow_packed_remove_at(NULL, 0));
    EXPECT_VIOLATION(stow_packed_remove_at(&arr, 2)); /* == count */
    EXPECT_VIOLATION(stow_packed_remove_at(&arr, 6));
    EXPECT_VIOLATION(stow_packed_remove_at(&arr, 0xFFFFFFFFu));
    p = &p;
    EXPECT_VIOLATION(p = stow_packed_at(NULL, 0));
    CHECK_NULL(p);
    p = &p;
    EXPECT_VIOLATION(p = stow_packed_at(&arr, 2));
    CHECK_NULL(p);
    p = &p;
    EXPECT_VIOLATION(p = stow_packed_data(NULL));
    CHECK_NULL(p);
    EXPECT_VIOLATION(CHECK_EQ(stow_packed_count(NULL), 0));
    EXPECT_VIOLATION(CHECK_EQ(stow_packed_capacity(NULL), 0));
    EXPECT_VIOLATION(stow_packed_clear(NULL));
    EXPECT_VIOLATION(stow_packed_stats(NULL, &s));
    EXPECT_VIOLATION(stow_packed_stats(&arr, NULL));
    EXPECT_VIOLATION(CHECK_FALSE(stow_packed_check(NULL)));
    CHECK_BYTES_EQ(&before, &arr, sizeof arr);
    CHECK_BYTES_EQ(before_buf, pbuf, sizeof before_buf);
    CHECK(stow_packed_check(&arr));
}
/* What reaches the assert hook: the public function's name and the misuse in
 * words a user can act on ("" with STOW_ASSERT_TEXT 0). */
TEST(packed_violations_name_the_call_and_the_misuse)
{
    fresh_u32(&arr, 6);
    CHECK_CALL(push_u32(&arr, 1));
    void *p = &p;
    stow_stats_t s;
    EXPECT_VIOLATION_TEXT(CHECK_FALSE(stow_packed_init(NULL, pbuf, 40, 4, 4, 4)),
                          "stow_packed_init: array is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_FALSE(stow_packed_init(&arr, pbuf, 40, 4, 6, 4)),
                          "stow_packed_init: alignment is not a power of two");
    EXPECT_VIOLATION_TEXT(p = stow_packed_push(NULL), "stow_packed_push: array is NULL");
    EXPECT_VIOLATION_TEXT(stow_packed_remove_at(NULL, 0), "stow_packed_remove_at: array is NULL");
    EXPECT_VIOLATION_TEXT(stow_packed_remove_at(&arr, 1),
                          "stow_packed_remove_at: index is not below the count");
    EXPECT_VIOLATION_TEXT(p = stow_packed_at(&arr, 1),
                          "stow_packed_at: index is not below the count");
    EXPECT_VIOLATION_TEXT(p = stow_packed_data(NULL), "stow_packed_data: array is NULL");
    CHECK_NULL(p);
    EXPECT_VIOLATION_TEXT(CHECK_EQ(stow_packed_count(NULL), 0), "stow_packed_count: array is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_EQ(stow_packed_capacity(NULL), 0),
                          "stow_packed_capacity: array is NULL");
    EXPECT_VIOLATION_TEXT(stow_packed_clear(NULL), "stow_packed_clear: array is NULL");
    EXPECT_VIOLATION_TEXT(stow_packed_stats(&arr, NULL), "stow_packed_stats: out is NULL");
    EXPECT_VIOLATION_TEXT(stow_packed_stats(NULL, &s), "stow_packed_stats: array is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_FALSE(stow_packed_check(NULL)), "stow_packed_check: array is NULL");
    CHECK_EQ(stow_packed_count(&arr), 1);
    CHECK(stow_packed_check(&arr));
}
#endif


#if STOW_CHECK_LEVEL >= 2
/* A word of released memory, read as a stale pointer would (unseen by ASan). */
static uint32_t u32_stale(const uint32_t *p)
{
    uint32_t v;
    stow_test_copy(&v, p, sizeof v);
    return v;
}

TEST(packed_level2_poisons_and_catches_writes_after_remove)
{
    fresh_u32(&arr, 6);
    for (uint32_t i = 0; i < 4; i++) {
        CHECK_CALL(push_u32(&arr, i));
    }
    uint32_t *last = STOW_PACKED_AT(&arr, uint32_t, 3);
    stow_packed_remove_at(&arr, 1);
    CHECK_EQ(u32_stale(last), 0xDDDDDDDDu);
    CHECK(stow_packed_check(&arr));
    uint32_t seen = stow_test_violations();
    CHECK_PTR_EQ(stow_packed_push(&arr), last); /* clean reuse: quiet */
    CHECK_EQ(stow_test_violations(), seen);
    stow_packed_remove_at(&arr, 3);
    stow_test_poke(last, 5); /* written after removal */
    CHECK_FALSE(stow_packed_check(&arr));
    uint32_t *again = NULL;
    EXPECT_VIOLATION_TEXT(again = (uint32_t *)stow_packed_push(&arr),
                          "stow_packed_push: the position was written after its item left");
    CHECK_PTR_EQ(again, last); /* reported, and the push still happens (zeroed) */
    CHECK_EQ(*again, 0);
    CHECK(stow_packed_check(&arr));
    uint32_t *first = STOW_PACKED_AT(&arr, uint32_t, 0);
    stow_packed_clear(&arr);
    CHECK_EQ(u32_stale(first), 0xDDDDDDDDu);
    CHECK(stow_packed_check(&arr));
    stow_test_poke(&first[2], 0);
    CHECK_FALSE(stow_packed_check(&arr));
}
#endif

/* A seeded random walk against a model (the expected contents, in order), with
 * check() after every step. */
static uint32_t pmodel[PWALK_CAP];

static unsigned char pbyte(uint32_t tag, size_t k) { return (unsigned char)(tag * 13u + k * 5u + (tag >> 7)); }

static void packed_walk(size_t size, size_t align, uint32_t steps, uint32_t seed)
{
    stow_test_fill(pbuf, 0xA5u, sizeof pbuf);
    size_t stride = (size + align - 1u) & ~(align - 1u);
    uint32_t cap = (uint32_t)(sizeof pbuf / (stride != 0u ? stride : 1u));
    cap = cap > PWALK_CAP ? PWALK_CAP : cap;
    CHECK(stow_packed_init(&arr, pbuf, sizeof pbuf, size, align, cap));
    stow_test_seed(seed);
    uint32_t n = 0, peak = 0, fails = 0, tag = 0, removes = 0;
    for (uint32_t step = 0; step < steps; step++) {
        bool filling = ((step >> 9) & 1u) == 0u;
        uint32_t op = stow_test_rand_below(100);
        if (op < (filling ? 70u : 30u)) {
            unsigned char *p = (unsigned char *)stow_packed_push(&arr);
            if (n == cap) {
                CHECK_NULL(p);
                fails++;
            } else {
                CHECK_PTR_EQ(p, pbuf + (size_t)n * stride);
                tag++;
                for (size_t k = 0; k < size; k++) {
                    CHECK_EQ(p[k], 0);
                    p[k] = pbyte(tag, k);
                }
                pmodel[n++] = tag;
                peak = n > peak ? n : peak;
            }
        } else if (op < 98u) {
            if (n > 0) {
                uint32_t i = stow_test_rand_below(n);
                stow_packed_remove_at(&arr, i);
                pmodel[i] = pmodel[n - 1u];
                n--;
                removes++;
            }
        } else if (op == 98u && !filling && stow_test_rand_below(8) == 0) {
            stow_packed_clear(&arr);
            n = 0;
        }
        CHECK(stow_packed_check(&arr));
        CHECK_EQ(stow_packed_count(&arr), n);
        const unsigned char *data = (const unsigned char *)stow_packed_data(&arr);
        for (uint32_t i = 0; i < n; i++) {
            for (size_t k = 0; k < size; k++) {
                CHECK_EQ(data[(size_t)i * stride + k], pbyte(pmodel[i], k));
            }
        }
        stow_stats_t s;
        stow_packed_stats(&arr, &s);
        CHECK(s.used == n && s.peak == peak && s.fails == fails && s.capacity == cap);
    }
    CHECK_LT(0, fails);
    CHECK_LT(0, removes);
}

TEST(packed_random_walk_words)
{
    CHECK_CALL(packed_walk(8, 4, STOW_TEST_SCALED(100000), 0xACEu));
}

TEST(packed_random_walk_odd_bytes)
{
    CHECK_CALL(packed_walk(3, 1, STOW_TEST_SCALED(30000), 0xBEEu));
}

void stow_test_suite_packed(void)
{
    RUN(packed_defined_is_ready_without_init);
    RUN(packed_init_refuses_bad_buffers);
    RUN(packed_remove_at_swaps_the_last_item_in);
    RUN(packed_full_clear_and_stats);
    RUN(packed_check_finds_broken_invariants);
#if STOW_CHECK_LEVEL >= 1
    RUN(packed_violations_leave_the_array_unchanged);
    RUN(packed_violations_name_the_call_and_the_misuse);
#endif
#if STOW_CHECK_LEVEL >= 2
    RUN(packed_level2_poisons_and_catches_writes_after_remove);
#endif
    RUN(packed_random_walk_words);
    RUN(packed_random_walk_odd_bytes);
}
