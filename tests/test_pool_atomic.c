/* SPDX-License-Identifier: MIT */
/* test_pool_atomic.c - stow_pool_alloc_atomic() and stow_pool_free_atomic(), one
 * call at a time, on the host and on every board: the same results as the plain
 * calls, the counters, check() and reset() over what they leave, and their
 * contract checks. Concurrency itself is tests/stress/. */
#include "harness.h"

/* The micro:bit's level-2 image is at the end of its flash and RAM: there this
 * suite runs the level-2 case only (the others run in its level-0 and level-1
 * images). */
#if defined(STOW_TEST_RAM_KIB) && STOW_TEST_RAM_KIB < 64 && STOW_CHECK_LEVEL >= 2
#define ATOMIC_ALL_CASES 0
#else
#define ATOMIC_ALL_CASES 1
#endif

static STOW_ALIGNAS(16) unsigned char atomic_buf[STOW_POOL_BYTES(16, 8, 8)];
static stow_pool_t apool;

static void afresh(uint32_t capacity)
{
    stow_test_fill(atomic_buf, 0xA5u, sizeof atomic_buf);
    CHECK(stow_pool_init(&apool, atomic_buf, sizeof atomic_buf, 16, 8, capacity));
}


#if ATOMIC_ALL_CASES
STOW_POOL_DEFINE_STATIC(atomic_defined, uint32_t, 3);

static stow_stats_t astats(void)
{
    stow_stats_t s;
    stow_pool_stats(&apool, &s);
    return s;
}

TEST(pool_atomic_hands_out_every_block_once_then_fails)
{
    CHECK_CALL(afresh(8));
    unsigned char *b[8];
    for (uint32_t i = 0; i < 8u; i++) {
        b[i] = (unsigned char *)stow_pool_alloc_atomic(&apool);
        CHECK_PTR_EQ(b[i], atomic_buf + 16u * i); /* never-used blocks in address order */
        stow_test_fill(b[i], (unsigned char)i, 16);
        CHECK_EQ(stow_pool_used(&apool), i + 1u);
    }
    CHECK_NULL(stow_pool_alloc_atomic(&apool));
    CHECK_NULL(stow_pool_alloc_atomic(&apool));
    stow_stats_t s = astats();
    CHECK(s.capacity == 8u && s.used == 8u && s.peak == 8u && s.fails == 2u);
    CHECK(stow_pool_check(&apool));
    for (uint32_t i = 0; i < 8u; i++) {
        CHECK_EQ(b[i][15], i); /* nobody wrote another's block */
    }
}

TEST(pool_atomic_reuses_the_last_freed_block_first)
{
    CHECK_CALL(afresh(8));
    void *x = stow_pool_alloc_atomic(&apool);
    void *y = stow_pool_alloc_atomic(&apool);
    void *z = stow_pool_alloc_atomic(&apool);
    stow_pool_free_atomic(&apool, y);
    stow_pool_free_atomic(&apool, x);
    CHECK_EQ(stow_pool_used(&apool), 1u);
    CHECK(stow_pool_check(&apool));
    CHECK_PTR_EQ(stow_pool_alloc_atomic(&apool), x);
    CHECK_PTR_EQ(stow_pool_alloc_atomic(&apool), y);
    CHECK_PTR_EQ(stow_pool_alloc_atomic(&apool), atomic_buf + 48); /* then never-used ones */
    stow_pool_free_atomic(&apool, NULL); /* ignored */
    CHECK_EQ(stow_pool_used(&apool), 4u);
    stow_pool_free_atomic(&apool, z);
    CHECK(stow_pool_check(&apool));
}

TEST(pool_atomic_uses_the_free_list_when_bump_is_at_the_end)
{
    CHECK_CALL(afresh(3));
    void *x = stow_pool_alloc_atomic(&apool);
    void *y = stow_pool_alloc_atomic(&apool);
    void *z = stow_pool_alloc_atomic(&apool);
    stow_pool_free_atomic(&apool, y);
    CHECK_PTR_EQ(stow_pool_alloc_atomic(&apool), y);
    CHECK_NULL(stow_pool_alloc_atomic(&apool));
    stow_pool_free_atomic(&apool, z);
    stow_pool_free_atomic(&apool, x);
    stow_pool_free_atomic(&apool, y);
    stow_stats_t s = astats();
    CHECK(s.used == 0u && s.peak == 3u && s.fails == 1u);
    CHECK(stow_pool_check(&apool));
    for (int i = 0; i < 3; i++) {
        CHECK_NOT_NULL(stow_pool_alloc_atomic(&apool));
    }
    CHECK_NULL(stow_pool_alloc_atomic(&apool));
    CHECK_EQ(astats().fails, 2u);
}

TEST(pool_atomic_reset_takes_everything_back)
{
    CHECK_CALL(afresh(4));
    void *x = stow_pool_alloc_atomic(&apool);
    void *y = stow_pool_alloc_atomic(&apool);
    stow_pool_free_atomic(&apool, x);
    (void)y;
    stow_pool_reset(&apool);
    CHECK_EQ(stow_pool_used(&apool), 0u);
    CHECK(stow_pool_check(&apool));
    for (uint32_t i = 0; i < 4u; i++) {
        CHECK_PTR_EQ(stow_pool_alloc_atomic(&apool), atomic_buf + 16u * i);
    }
    CHECK_NULL(stow_pool_alloc_atomic(&apool));
    CHECK_EQ(astats().peak, 4u);
}

TEST(pool_atomic_works_on_a_defined_pool)
{
    uint32_t *a = (uint32_t *)stow_pool_alloc_atomic(&atomic_defined);
    uint32_t *b = (uint32_t *)stow_pool_alloc_atomic(&atomic_defined);
    CHECK_NOT_NULL(a);
    CHECK_NOT_NULL(b);
    *a = 1u;
    *b = 2u;
    stow_pool_free_atomic(&atomic_defined, a);
    CHECK_EQ(stow_pool_used(&atomic_defined), 1u);
    CHECK(stow_pool_check(&atomic_defined));
    stow_pool_free_atomic(&atomic_defined, b);
    CHECK_EQ(stow_pool_used(&atomic_defined), 0u);
    CHECK(stow_pool_check(&atomic_defined));
}

/* check() sees a broken list of the atomic calls as it sees the plain one's. */
TEST(pool_atomic_check_sees_a_cycle)
{
    CHECK_CALL(afresh(4));
    unsigned char *x = (unsigned char *)stow_pool_alloc_atomic(&apool);
    unsigned char *y = (unsigned char *)stow_pool_alloc_atomic(&apool);
    stow_pool_free_atomic(&apool, x);
    stow_pool_free_atomic(&apool, y); /* y -> x -> NULL */
    CHECK(stow_pool_check(&apool));
    unsigned char *saved[sizeof(void *)];
    stow_test_copy(saved, x, sizeof(void *));
    stow_test_copy(x, &y, sizeof(void *)); /* x -> y: a cycle */
    CHECK_FALSE(stow_pool_check(&apool));
    stow_test_copy(x, saved, sizeof(void *));
    CHECK(stow_pool_check(&apool));
}

#endif

#if STOW_CHECK_LEVEL >= 1 && ATOMIC_ALL_CASES
TEST(pool_atomic_violations_name_the_call_and_change_nothing)
{
    CHECK_CALL(afresh(4));
    unsigned char *x = (unsigned char *)stow_pool_alloc_atomic(&apool);
    void *r = NULL;
    stow_stats_t before = astats();
    EXPECT_VIOLATION_TEXT(r = stow_pool_alloc_atomic(NULL), "stow_pool_alloc_atomic: pool is NULL");
    CHECK_NULL(r);
    EXPECT_VIOLATION_TEXT(stow_pool_free_atomic(NULL, x), "stow_pool_free_atomic: pool is NULL");
    EXPECT_VIOLATION_TEXT(stow_pool_free_atomic(&apool, x + 1),
                          "stow_pool_free_atomic: pointer is not a block of this pool");
    EXPECT_VIOLATION_TEXT(stow_pool_free_atomic(&apool, atomic_buf + 16u * 4u),
                          "stow_pool_free_atomic: pointer is not a block of this pool");
    EXPECT_VIOLATION_TEXT(stow_pool_free_atomic(&apool, &r),
                          "stow_pool_free_atomic: pointer is not a block of this pool");
    EXPECT_VIOLATION_TEXT(stow_pool_free_atomic(&apool, atomic_buf + 16u),
                          "stow_pool_free_atomic: block was not handed out since init or the "
                          "last reset");
    stow_stats_t after = astats();
    CHECK(before.used == after.used && before.fails == after.fails);
    CHECK(stow_pool_check(&apool));
    CHECK_PTR_EQ(stow_pool_alloc_atomic(&apool), atomic_buf + 16u); /* still the next one */
}
#endif

#if STOW_CHECK_LEVEL >= 2
TEST(pool_atomic_level2_double_free_poison_and_links)
{
    CHECK_CALL(afresh(4));
    unsigned char *x = (unsigned char *)stow_pool_alloc_atomic(&apool);
    unsigned char *y = (unsigned char *)stow_pool_alloc_atomic(&apool);
    unsigned char *z = (unsigned char *)stow_pool_alloc_atomic(&apool);
    stow_pool_free_atomic(&apool, x);
    CHECK_EQ(stow_test_peek(x + 15), 0xDDu); /* poisoned after the link */
    EXPECT_VIOLATION_TEXT(stow_pool_free_atomic(&apool, x), "stow_pool_free_atomic: double free");
    CHECK(stow_pool_check(&apool));
    CHECK_EQ(stow_pool_used(&apool), 2u);

    stow_test_poke(x + 15, 0); /* a write after free: reported by the alloc that takes x */
    EXPECT_VIOLATION_TEXT(CHECK_PTR_EQ(stow_pool_alloc_atomic(&apool), x),
                          "stow_pool_alloc_atomic: a free block was written after it was freed");

    /* A link overwritten with a block in use: reported, not followed. */
    stow_pool_free_atomic(&apool, y);
    stow_pool_free_atomic(&apool, x); /* x -> y */
    stow_test_copy(x, &z, sizeof(void *)); /* x -> z, which is in use */
    EXPECT_VIOLATION_TEXT(CHECK_PTR_EQ(stow_pool_alloc_atomic(&apool), x),
                          "stow_pool_alloc_atomic: the free list was corrupted (a free block's "
                          "link was overwritten)");
    CHECK_FALSE(stow_pool_check(&apool)); /* y was dropped: neither listed nor marked in use */
    CHECK_PTR_EQ(stow_pool_alloc_atomic(&apool), atomic_buf + 48); /* never-used, then none */
    CHECK_NULL(stow_pool_alloc_atomic(&apool));
    stow_pool_reset(&apool);
    CHECK(stow_pool_check(&apool));

    /* A link to the block itself. */
    x = (unsigned char *)stow_pool_alloc_atomic(&apool);
    stow_pool_free_atomic(&apool, x);
    stow_test_copy(x, &x, sizeof(void *));
    EXPECT_VIOLATION(CHECK_PTR_EQ(stow_pool_alloc_atomic(&apool), x));
    stow_pool_reset(&apool);
    CHECK(stow_pool_check(&apool));
}
#endif

#if STOW__POOL_ATOMIC == STOW__POOL_ATOMIC_TAGGED
/* The tagged head (pool_atomic.c): the first block's index + 1 in the bits up to
 * the capacity's top bit (in a 64-bit word, the low 32), and above them a tag
 * that every change of the head moves on by one and that wraps to 0. */
TEST(pool_atomic_tagged_head_counts_every_change_and_wraps)
{
    CHECK_CALL(afresh(5));
    unsigned index_bits = STOW__POOL_HEAD_BITS == 64 ? 32u : 3u; /* capacity 5: 3 bits */
    uint64_t tag1 = UINT64_C(1) << index_bits;
    unsigned char *x = (unsigned char *)stow_pool_alloc_atomic(&apool);
    CHECK_PTR_EQ(x, atomic_buf);
    CHECK_EQ(apool.tagged_head, 0u); /* a never-used block: the head did not change */
    stow_pool_free_atomic(&apool, x);
    CHECK_EQ(apool.tagged_head, tag1 | 1u); /* tag 1, block 0 */
    CHECK_PTR_EQ(stow_pool_alloc_atomic(&apool), x);
    CHECK_EQ(apool.tagged_head, 2u * tag1); /* tag 2, empty */
    stow_pool_free_atomic(&apool, x);
    CHECK_EQ(apool.tagged_head, 3u * tag1 | 1u);
    /* The largest tag, block 0 first: the next change wraps the tag to 0. */
#if STOW__POOL_HEAD_BITS == 64
    apool.tagged_head = (UINT64_MAX & ~(tag1 - 1u)) | 1u;
#else
    apool.tagged_head = (uint32_t)((UINT32_MAX & ~(tag1 - 1u)) | 1u);
#endif
    CHECK_PTR_EQ(stow_pool_alloc_atomic(&apool), x);
    CHECK_EQ(apool.tagged_head, 0u);
    CHECK(stow_pool_check(&apool));
    stow_pool_free_atomic(&apool, x);
    CHECK_EQ(apool.tagged_head, tag1 | 1u);
    CHECK(stow_pool_check(&apool));
}
#endif

#if !defined(STOW_TEST_TARGET) && STOW__POOL_ATOMIC == STOW__POOL_ATOMIC_TAGGED && STOW__POOL_HEAD_BITS == 64
/* The host build is C11 atomics on a 64-bit word: lock-free, as the header says. */
#include <stdatomic.h>
TEST(pool_atomic_host_word_is_lock_free)
{
    _Atomic uint64_t word = 0u;
    CHECK(atomic_is_lock_free(&word));
    CHECK_EQ((uintptr_t)&apool.tagged_head % 8u, 0u);
}
#endif

void stow_test_suite_pool_atomic(void)
{
#if ATOMIC_ALL_CASES
    RUN(pool_atomic_hands_out_every_block_once_then_fails);
    RUN(pool_atomic_reuses_the_last_freed_block_first);
    RUN(pool_atomic_uses_the_free_list_when_bump_is_at_the_end);
    RUN(pool_atomic_reset_takes_everything_back);
    RUN(pool_atomic_works_on_a_defined_pool);
    RUN(pool_atomic_check_sees_a_cycle);
#endif
#if STOW_CHECK_LEVEL >= 1 && ATOMIC_ALL_CASES
    RUN(pool_atomic_violations_name_the_call_and_change_nothing);
#endif
#if STOW_CHECK_LEVEL >= 2
    RUN(pool_atomic_level2_double_free_poison_and_links);
#endif
#if STOW__POOL_ATOMIC == STOW__POOL_ATOMIC_TAGGED
    RUN(pool_atomic_tagged_head_counts_every_change_and_wraps);
#endif
#if !defined(STOW_TEST_TARGET) && STOW__POOL_ATOMIC == STOW__POOL_ATOMIC_TAGGED && STOW__POOL_HEAD_BITS == 64
    RUN(pool_atomic_host_word_is_lock_free);
#endif
}
