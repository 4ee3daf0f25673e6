/* SPDX-License-Identifier: MIT */
/* test_arena.c - every clause of stow/arena.h, on the host and on every board. */
#include "harness.h"

/* The 16 KiB boards (micro:bit, sifive_e) get 512: no case needs more, and the
 * heap's tests need the RAM. */
#if defined(STOW_TEST_RAM_KIB) && STOW_TEST_RAM_KIB < 64
#define BUF_BYTES 512u
#else
#define BUF_BYTES 1024u
#endif

STOW_ARENA_DEFINE(test_arena_defined, 512);
STOW_ARENA_DEFINE_STATIC(test_arena_static, 96);

/* Buffers for init()-made arenas, aligned so offsets below are predictable. */
static STOW_ALIGNAS(256) unsigned char buf_a[BUF_BYTES];
static STOW_ALIGNAS(256) unsigned char buf_b[BUF_BYTES];
static STOW_ALIGNAS(256) unsigned char buf_c[BUF_BYTES];

static stow_arena_t arena_a, arena_b, arena_c;

static bool in_buffer(const void *p, const unsigned char *buf, size_t size)
{
    const unsigned char *b = (const unsigned char *)p;
    return b >= buf && b <= buf + size;
}

static void fresh(stow_arena_t *a, unsigned char *buf, size_t size)
{
    stow_test_fill(a, 0xEEu, sizeof *a); /* padding too: tests compare structs bytewise */
    stow_test_fill(buf, 0xA5u, size);    /* storage is never assumed zeroed */
    CHECK(stow_arena_init(a, buf, size));
    CHECK(stow_arena_check(a));
}

struct vec3 {
    int32_t x, y, z;
};

static uint32_t fails_of(const stow_arena_t *a)
{
    stow_stats_t s;
    stow_arena_stats(a, &s);
    return s.fails;
}

TEST(arena_defined_is_ready_without_init)
{
    CHECK(stow_arena_check(&test_arena_defined));
    CHECK_EQ(stow_arena_capacity(&test_arena_defined), 512);
    CHECK_EQ(stow_arena_used(&test_arena_defined), 0);
    int *x = STOW_ARENA_NEW(&test_arena_defined, int);
    CHECK_NOT_NULL(x);
    CHECK_EQ(*x, 0);
    CHECK_EQ((uintptr_t)x % STOW_ALIGNOF(int), 0);
    CHECK_EQ(stow_arena_used(&test_arena_defined), sizeof(int));
    CHECK_EQ(stow_arena_capacity(&test_arena_static), 96);
    CHECK_NOT_NULL(stow_arena_alloc(&test_arena_static, 96, 1));
    CHECK_NULL(stow_arena_alloc(&test_arena_static, 1, 1));
    CHECK(stow_arena_check(&test_arena_static));
    stow_arena_reset(&test_arena_defined);
    stow_arena_reset(&test_arena_static);
}

TEST(arena_defined_storage_is_aligned_and_placed)
{
    void *p = stow_arena_alloc(&test_arena_defined, 0, 1);
    CHECK_NOT_NULL(p);
    CHECK_EQ((uintptr_t)p % STOW_DEFAULT_ALIGN, 0);
#if defined(STOW_TEST_TARGET) && STOW_SECTIONS
    extern unsigned char __stow_start[], __stow_end[];
    CHECK((unsigned char *)p >= __stow_start && (unsigned char *)p < __stow_end);
#endif
    stow_arena_reset(&test_arena_defined);
}

TEST(arena_init_refuses_bad_buffers)
{
    stow_arena_t a;
    fresh(&a, buf_a, 64);
    stow_arena_t before;
    stow_test_copy(&before, &a, sizeof a);
    CHECK_FALSE(stow_arena_init(&a, NULL, 64));
    CHECK_BYTES_EQ(&before, &a, sizeof a);
    CHECK_FALSE(stow_arena_init(&a, buf_a, 0));
    CHECK_BYTES_EQ(&before, &a, sizeof a);
    CHECK_EQ(STOW_ARENA_BYTES(100), 100);
    /* Any buffer alignment is fine: alignment is per allocation. */
    CHECK(stow_arena_init(&a, buf_a + 1, 63));
    void *p = stow_arena_alloc(&a, 4, 4);
    CHECK_EQ((uintptr_t)p % 4, 0);
    CHECK(stow_arena_check(&a));
}

TEST(arena_alloc_honours_every_alignment)
{
    fresh(&arena_a, buf_a, BUF_BYTES);
    for (size_t align = 1; align <= 256; align *= 2) {
        stow_arena_reset(&arena_a);
        CHECK_NOT_NULL(stow_arena_alloc(&arena_a, 1, 1)); /* knock the position off */
        unsigned char *p = (unsigned char *)stow_arena_alloc(&arena_a, 7, align);
        CHECK_NOT_NULL(p);
        CHECK_EQ((uintptr_t)p % align, 0);
        CHECK(in_buffer(p + 7, buf_a, BUF_BYTES));
        /* used counts the padding: exactly up to the end of this allocation */
        CHECK_EQ(stow_arena_used(&arena_a), (size_t)(p + 7 - buf_a));
        CHECK(stow_arena_check(&arena_a));
    }
}

TEST(arena_alloc_zero_align_means_default)
{
    fresh(&arena_a, buf_a, BUF_BYTES);
    CHECK_NOT_NULL(stow_arena_alloc(&arena_a, 1, 1));
    void *p = stow_arena_alloc(&arena_a, 5, 0);
    CHECK_NOT_NULL(p);
    CHECK_EQ((uintptr_t)p % STOW_DEFAULT_ALIGN, 0);
}

/* Size 0 is a request for one byte: every call gives a unique, aligned, non-NULL
 * pointer that costs at most one alignment step, whatever the alignment (0
 * included), through alloc, alloc_zeroed, alloc_array and the macros alike; it
 * is refused (NULL, a fail) only where one byte at that alignment is refused. */
TEST(arena_size_zero_is_a_unique_aligned_one_byte_request)
{
    const size_t d = STOW_DEFAULT_ALIGN;
    fresh(&arena_a, buf_a, 4 * d);
    unsigned char *p = (unsigned char *)stow_arena_alloc(&arena_a, 0, 0);
    unsigned char *q = (unsigned char *)stow_arena_alloc(&arena_a, 0, 0);
    CHECK_PTR_EQ(p, buf_a);
    CHECK_PTR_EQ(q, buf_a + d); /* unique: p took one byte, q the next aligned one */
    CHECK_EQ(stow_arena_used(&arena_a), d + 1); /* one alignment step each, at most */
    unsigned char *r = (unsigned char *)stow_arena_alloc(&arena_a, 0, 1);
    CHECK_PTR_EQ(r, buf_a + d + 1);
    unsigned char *z = (unsigned char *)stow_arena_alloc_zeroed(&arena_a, 0, 2);
    CHECK_PTR_EQ(z, buf_a + d + 2);
    unsigned char *e = (unsigned char *)stow_arena_alloc_array(&arena_a, 0, 4, 0);
    CHECK_PTR_EQ(e, buf_a + 2 * d);
    unsigned char *f = (unsigned char *)stow_arena_alloc_array(&arena_a, 5, 0, 1);
    CHECK_PTR_EQ(f, buf_a + 2 * d + 1);
    struct vec3 *v = STOW_ARENA_NEW_ARRAY(&arena_a, struct vec3, 0);
    CHECK_PTR_EQ(v, buf_a + 2 * d + 4);
    CHECK_EQ(fails_of(&arena_a), 0);
    /* room for one more byte at the default alignment and none after it */
    CHECK_NOT_NULL(stow_arena_alloc(&arena_a, 4 * d - (2 * d + 5) - d, 1));
    CHECK_EQ(stow_arena_used(&arena_a), 3 * d);
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 0, 0), buf_a + 3 * d);
    CHECK_NOT_NULL(stow_arena_alloc(&arena_a, d - 1, 1)); /* full */
    stow_arena_t before;
    stow_test_copy(&before, &arena_a, sizeof arena_a);
    CHECK_NULL(stow_arena_alloc(&arena_a, 0, 1)); /* as a one-byte request would be */
    CHECK_NULL(stow_arena_alloc_zeroed(&arena_a, 0, 0));
    CHECK_NULL(stow_arena_alloc_array(&arena_a, 0, 0, 0));
    CHECK_EQ(fails_of(&arena_a), 3);
    before.fails = 3;
    CHECK_BYTES_EQ(&before, &arena_a, sizeof arena_a);
    CHECK(stow_arena_check(&arena_a));
    /* in a chain, size 0 moves on to the next block like any request */
    fresh(&arena_a, buf_a, 8);
    fresh(&arena_b, buf_b, 8);
    stow_arena_chain(&arena_a, &arena_b);
    CHECK_NOT_NULL(stow_arena_alloc(&arena_a, 8, 1));
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 0, 0), buf_b);
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 0, 0), NULL); /* buf_b + 1 is not aligned, 8 bytes */
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 0, 1), buf_b + 1);
    CHECK_EQ(fails_of(&arena_a), 1);
    CHECK(stow_arena_check(&arena_a));
}

TEST(arena_allocations_are_disjoint_and_sequential)
{
    fresh(&arena_a, buf_a, 256);
    unsigned char *p = (unsigned char *)stow_arena_alloc(&arena_a, 10, 1);
    unsigned char *q = (unsigned char *)stow_arena_alloc(&arena_a, 10, 1);
    CHECK_PTR_EQ(p, buf_a);
    CHECK_PTR_EQ(q, buf_a + 10);
    stow_test_fill(p, 0x11, 10);
    stow_test_fill(q, 0x22, 10);
    CHECK_EQ(p[9], 0x11);
    CHECK_EQ(q[0], 0x22);
}

TEST(arena_full_returns_null_counts_fail_and_changes_nothing)
{
    fresh(&arena_a, buf_a, 100);
    CHECK_NOT_NULL(stow_arena_alloc(&arena_a, 90, 1));
    stow_arena_t before;
    stow_test_copy(&before, &arena_a, sizeof arena_a);
    CHECK_NULL(stow_arena_alloc(&arena_a, 11, 1));
    CHECK_EQ(fails_of(&arena_a), 1);
    /* the padding does not fit either */
    CHECK_NULL(stow_arena_alloc(&arena_a, 8, 64));
    CHECK_EQ(fails_of(&arena_a), 2);
    /* an alignment far beyond the block */
    CHECK_NULL(stow_arena_alloc(&arena_a, 1, (size_t)1 << (sizeof(size_t) * 8 - 1)));
    CHECK_EQ(fails_of(&arena_a), 3);
    CHECK_NULL(stow_arena_alloc(&arena_a, SIZE_MAX, 1));
    CHECK_EQ(fails_of(&arena_a), 4);
    before.fails = 4; /* the one field a refusal changes */
    CHECK_BYTES_EQ(&before, &arena_a, sizeof arena_a);
    CHECK_NOT_NULL(stow_arena_alloc(&arena_a, 10, 1)); /* exactly fills */
    CHECK_EQ(stow_arena_used(&arena_a), 100);
    CHECK(stow_arena_check(&arena_a));
}

TEST(arena_alloc_zeroed_zeroes)
{
    fresh(&arena_a, buf_a, 256);
    unsigned char *p = (unsigned char *)stow_arena_alloc_zeroed(&arena_a, 200, 4);
    CHECK_NOT_NULL(p);
    for (size_t i = 0; i < 200; i++) {
        CHECK_EQ(p[i], 0);
    }
    CHECK_NULL(stow_arena_alloc_zeroed(&arena_a, 100, 1));
    CHECK_EQ(fails_of(&arena_a), 1);
}

TEST(arena_new_and_new_array)
{
    fresh(&arena_a, buf_a, 256);
    struct vec3 *v = STOW_ARENA_NEW(&arena_a, struct vec3);
    CHECK_NOT_NULL(v);
    CHECK_EQ((uintptr_t)v % STOW_ALIGNOF(struct vec3), 0);
    CHECK(v->x == 0 && v->y == 0 && v->z == 0);
    struct vec3 *vs = STOW_ARENA_NEW_ARRAY(&arena_a, struct vec3, 10);
    CHECK_NOT_NULL(vs);
    CHECK_PTR_EQ(vs, v + 1);
    for (int i = 0; i < 10; i++) {
        CHECK(vs[i].x == 0 && vs[i].y == 0 && vs[i].z == 0);
    }
    CHECK_EQ(stow_arena_used(&arena_a), 11 * sizeof(struct vec3));
    CHECK_NOT_NULL(STOW_ARENA_NEW_ARRAY(&arena_a, struct vec3, 0));
}

TEST(arena_new_array_overflow_gives_null_not_a_short_buffer)
{
    fresh(&arena_a, buf_a, 256);
    size_t huge = SIZE_MAX / sizeof(struct vec3) + 2u; /* huge * 12 wraps to a small number */
    CHECK_NULL(STOW_ARENA_NEW_ARRAY(&arena_a, struct vec3, huge));
    CHECK_EQ(fails_of(&arena_a), 1);
    CHECK_NULL(stow_arena_alloc_array(&arena_a, SIZE_MAX, 2, 1));
    CHECK_EQ(fails_of(&arena_a), 2);
    CHECK_EQ(stow_arena_used(&arena_a), 0);
    CHECK_NOT_NULL(stow_arena_alloc_array(&arena_a, 5, 0, 1));
    CHECK(stow_arena_check(&arena_a));
}

TEST(arena_mark_and_rewind)
{
    fresh(&arena_a, buf_a, 256);
    void *keep = stow_arena_alloc(&arena_a, 16, 8);
    stow_arena_mark_t m = stow_arena_mark(&arena_a);
    void *t1 = stow_arena_alloc(&arena_a, 40, 8);
    stow_arena_mark_t inner = stow_arena_mark(&arena_a);
    void *t2 = stow_arena_alloc(&arena_a, 40, 8);
    CHECK(keep && t1 && t2);
    CHECK_EQ(stow_arena_used(&arena_a), 96);
    stow_arena_rewind(&arena_a, inner);
    CHECK_EQ(stow_arena_used(&arena_a), 56);
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 40, 8), t2); /* the same room again */
    stow_arena_rewind(&arena_a, m);
    CHECK_EQ(stow_arena_used(&arena_a), 16);
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 40, 8), t1);
    /* a mark equal to the position is a no-op; rewinding twice is fine */
    stow_arena_rewind(&arena_a, m);
    stow_arena_mark_t here = stow_arena_mark(&arena_a);
    stow_arena_rewind(&arena_a, here);
    stow_arena_rewind(&arena_a, m);
    CHECK_EQ(stow_arena_used(&arena_a), 16);
    CHECK(stow_arena_check(&arena_a));
}

TEST(arena_reset_frees_all_and_keeps_stats)
{
    fresh(&arena_a, buf_a, 128);
    CHECK_NOT_NULL(stow_arena_alloc(&arena_a, 100, 1));
    CHECK_NULL(stow_arena_alloc(&arena_a, 100, 1));
    stow_arena_reset(&arena_a);
    CHECK_EQ(stow_arena_used(&arena_a), 0);
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 8, 1), buf_a);
    stow_stats_t s;
    stow_arena_stats(&arena_a, &s);
    CHECK_EQ(s.capacity, 128);
    CHECK_EQ(s.used, 8);
    CHECK_EQ(s.peak, 100);
    CHECK_EQ(s.fails, 1);
    CHECK(stow_arena_check(&arena_a));
}

TEST(arena_stats_track_peak_between_rewinds)
{
    fresh(&arena_a, buf_a, 256);
    stow_stats_t s;
    stow_arena_stats(&arena_a, &s);
    CHECK(s.capacity == 256 && s.used == 0 && s.peak == 0 && s.fails == 0);
    stow_arena_mark_t m = stow_arena_mark(&arena_a);
    CHECK_NOT_NULL(stow_arena_alloc(&arena_a, 50, 1));
    stow_arena_stats(&arena_a, &s);
    CHECK_EQ(s.peak, 50);
    stow_arena_rewind(&arena_a, m);
    CHECK_NOT_NULL(stow_arena_alloc(&arena_a, 30, 1));
    stow_arena_stats(&arena_a, &s);
    CHECK_EQ(s.used, 30);
    CHECK_EQ(s.peak, 50);
    CHECK_NOT_NULL(stow_arena_alloc(&arena_a, 70, 1));
    stow_arena_stats(&arena_a, &s);
    CHECK_EQ(s.peak, 100);
}

TEST(arena_chain_continues_in_next_block)
{
    fresh(&arena_a, buf_a, 64);
    fresh(&arena_b, buf_b, 128);
    fresh(&arena_c, buf_c, 256);
    stow_arena_chain(&arena_a, &arena_b);
    stow_arena_chain(&arena_a, &arena_c); /* appends after b */
    CHECK(stow_arena_check(&arena_a));
    CHECK_EQ(stow_arena_capacity(&arena_a), 64 + 128 + 256);
    unsigned char *p = (unsigned char *)stow_arena_alloc(&arena_a, 60, 1);
    CHECK_PTR_EQ(p, buf_a);
    stow_arena_mark_t in_a = stow_arena_mark(&arena_a);
    unsigned char *q = (unsigned char *)stow_arena_alloc(&arena_a, 10, 1); /* a has 4 left */
    CHECK_PTR_EQ(q, buf_b);
    CHECK_EQ(stow_arena_used(&arena_a), 64 + 10); /* a's 4-byte tail counts as used */
    /* too big for the rest of b and for b as a whole: goes to c, b's rest is passed over */
    unsigned char *r = (unsigned char *)stow_arena_alloc(&arena_a, 200, 1);
    CHECK_PTR_EQ(r, buf_c);
    CHECK_EQ(stow_arena_used(&arena_a), 64 + 128 + 200);
    CHECK(stow_arena_check(&arena_a));
    /* nothing has room for this: refused, nothing moves */
    CHECK_NULL(stow_arena_alloc(&arena_a, 100, 1));
    CHECK_EQ(fails_of(&arena_a), 1);
    CHECK_EQ(stow_arena_used(&arena_a), 64 + 128 + 200);
    /* rewind across blocks */
    stow_arena_rewind(&arena_a, in_a);
    CHECK_EQ(stow_arena_used(&arena_a), 60);
    CHECK(stow_arena_check(&arena_a));
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 4, 1), buf_a + 60);
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 1, 1), buf_b);
    /* reset covers the chain */
    CHECK_NOT_NULL(stow_arena_alloc(&arena_a, 200, 1));
    stow_arena_reset(&arena_a);
    CHECK_EQ(stow_arena_used(&arena_a), 0);
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 1, 1), buf_a);
    stow_stats_t s;
    stow_arena_stats(&arena_a, &s);
    CHECK_EQ(s.capacity, 448);
    CHECK_EQ(s.peak, 392);
    CHECK(stow_arena_check(&arena_a));
}

STOW_ARENA_DEFINE_STATIC(test_frame_main, 32);
STOW_ARENA_DEFINE_STATIC(test_frame_overflow, 64);

TEST(arena_chain_of_defined_blocks)
{
    stow_arena_chain(&test_frame_main, &test_frame_overflow);
    CHECK_EQ(stow_arena_capacity(&test_frame_main), 96);
    CHECK_NOT_NULL(stow_arena_alloc(&test_frame_main, 32, 1));
    CHECK_NOT_NULL(stow_arena_alloc(&test_frame_main, 64, 1));
    CHECK_NULL(stow_arena_alloc(&test_frame_main, 1, 1));
    CHECK(stow_arena_check(&test_frame_main));
    stow_arena_reset(&test_frame_main);
    CHECK_EQ(stow_arena_used(&test_frame_main), 0);
}

TEST(arena_check_finds_broken_invariants)
{
    fresh(&arena_a, buf_a, 64);
    fresh(&arena_b, buf_b, 64);
    stow_arena_chain(&arena_a, &arena_b);
    CHECK(stow_arena_check(&arena_a));
    unsigned char *saved = arena_a.ptr;
    arena_a.ptr = arena_a.end + 1; /* a pointer outside its block */
    CHECK_FALSE(stow_arena_check(&arena_a));
    arena_a.ptr = saved;
    arena_b.next = &arena_a; /* a cycle */
    CHECK_FALSE(stow_arena_check(&arena_a));
    arena_b.next = NULL;
    arena_b.head = &arena_b; /* a block the head does not own */
    CHECK_FALSE(stow_arena_check(&arena_a));
    arena_b.head = &arena_a;
    arena_a.end = arena_a.limit - 1; /* the cursor disagrees with its block */
    CHECK_FALSE(stow_arena_check(&arena_a));
    arena_a.end = arena_a.limit;
    arena_b.limit = arena_b.base; /* a block of no bytes is sound... */
    CHECK(stow_arena_check(&arena_a));
    arena_b.limit = buf_b + 64;
    arena_b.base = NULL; /* ...one without storage is not */
    CHECK_FALSE(stow_arena_check(&arena_a));
    arena_b.base = buf_b + 65; /* nor one that ends before it starts */
    CHECK_FALSE(stow_arena_check(&arena_a));
    arena_b.base = buf_b;
    arena_a.cur = &arena_c; /* current block not in the chain */
    CHECK_FALSE(stow_arena_check(&arena_a));
    arena_a.cur = &arena_a;
    CHECK(stow_arena_check(&arena_a));
}

#if STOW_CHECK_LEVEL >= 1
TEST(arena_violations_leave_the_arena_unchanged)
{
    fresh(&arena_a, buf_a, 128);
    fresh(&arena_b, buf_b, 128);
    fresh(&arena_c, buf_c, 128);
    stow_arena_chain(&arena_a, &arena_b);
    CHECK_NOT_NULL(stow_arena_alloc(&arena_a, 20, 4));
    stow_arena_mark_t m = stow_arena_mark(&arena_a);
    CHECK_NOT_NULL(stow_arena_alloc(&arena_a, 20, 4));
    stow_arena_rewind(&arena_a, m); /* m is now the position... */
    CHECK_NOT_NULL(stow_arena_alloc(&arena_a, 4, 4));
    stow_arena_mark_t above = stow_arena_mark(&arena_a);
    stow_arena_rewind(&arena_a, m); /* ...and above lies above it */

    stow_arena_t before_a, before_b, before_c;
    stow_test_copy(&before_a, &arena_a, sizeof arena_a);
    stow_test_copy(&before_b, &arena_b, sizeof arena_b);
    stow_test_copy(&before_c, &arena_c, sizeof arena_c);
    void *p = &p;
    stow_arena_mark_t mk;
    stow_stats_t s;

    EXPECT_VIOLATION(CHECK_FALSE(stow_arena_init(NULL, buf_a, 8)));
    EXPECT_VIOLATION(p = stow_arena_alloc(NULL, 8, 8));
    CHECK_NULL(p);
    for (size_t bad = 3; bad < 300; bad += 2 + bad / 4) {
        if ((bad & (bad - 1)) == 0) {
            continue;
        }
        p = &p;
        EXPECT_VIOLATION(p = stow_arena_alloc(&arena_a, 8, bad));
        CHECK_NULL(p);
    }
    EXPECT_VIOLATION(p = stow_arena_alloc(&arena_a, 8, 12));
    EXPECT_VIOLATION(p = stow_arena_alloc_zeroed(&arena_a, 8, 6));
    EXPECT_VIOLATION(p = stow_arena_alloc_zeroed(NULL, 8, 8));
    EXPECT_VIOLATION(p = stow_arena_alloc_array(&arena_a, 2, 8, 24));
    EXPECT_VIOLATION(p = stow_arena_alloc_array(NULL, 2, 8, 8));
    EXPECT_VIOLATION(p = stow_arena_alloc(&arena_b, 8, 8)); /* a chained block */
    EXPECT_VIOLATION(p = stow_arena_alloc_array(&arena_b, 1, 8, 8));
    CHECK_NULL(p);
    EXPECT_VIOLATION(mk = stow_arena_mark(NULL));
    CHECK_NULL(mk.block);
    EXPECT_VIOLATION(mk = stow_arena_mark(&arena_b));
    CHECK_NULL(mk.block);
    EXPECT_VIOLATION(stow_arena_rewind(NULL, m));
    EXPECT_VIOLATION(stow_arena_rewind(&arena_b, m));
    EXPECT_VIOLATION(stow_arena_rewind(&arena_a, above));            /* above the position */
    EXPECT_VIOLATION(stow_arena_rewind(&arena_a, stow_arena_mark(&arena_c))); /* foreign */
    mk.block = NULL;
    mk.ptr = NULL;
    EXPECT_VIOLATION(stow_arena_rewind(&arena_a, mk));
    mk.block = &arena_a;
    mk.ptr = arena_a.end; /* inside the current block, above the position */
    EXPECT_VIOLATION(stow_arena_rewind(&arena_a, mk));
    mk.block = &arena_b; /* a block after the current one */
    mk.ptr = arena_b.base;
    EXPECT_VIOLATION(stow_arena_rewind(&arena_a, mk));
    EXPECT_VIOLATION(stow_arena_reset(NULL));
    EXPECT_VIOLATION(stow_arena_reset(&arena_b));
    EXPECT_VIOLATION(stow_arena_chain(NULL, &arena_c));
    EXPECT_VIOLATION(stow_arena_chain(&arena_a, NULL));
    EXPECT_VIOLATION(stow_arena_chain(&arena_a, &arena_a));
    EXPECT_VIOLATION(stow_arena_chain(&arena_a, &arena_b)); /* already chained */
    EXPECT_VIOLATION(stow_arena_chain(&arena_b, &arena_c)); /* onto a chained block */
    CHECK_NOT_NULL(stow_arena_alloc(&arena_c, 1, 1));
    stow_test_copy(&before_c, &arena_c, sizeof arena_c);
    EXPECT_VIOLATION(stow_arena_chain(&arena_a, &arena_c)); /* next has memory in use */
    EXPECT_VIOLATION(CHECK_EQ(stow_arena_used(NULL), 0));
    EXPECT_VIOLATION(CHECK_EQ(stow_arena_used(&arena_b), 0));
    EXPECT_VIOLATION(CHECK_EQ(stow_arena_capacity(NULL), 0));
    EXPECT_VIOLATION(CHECK_EQ(stow_arena_capacity(&arena_b), 0));
    EXPECT_VIOLATION(stow_arena_stats(NULL, &s));
    EXPECT_VIOLATION(stow_arena_stats(&arena_a, NULL));
    EXPECT_VIOLATION(stow_arena_stats(&arena_b, &s));
    EXPECT_VIOLATION(CHECK_FALSE(stow_arena_check(NULL)));

    CHECK_BYTES_EQ(&before_a, &arena_a, sizeof arena_a);
    CHECK_BYTES_EQ(&before_b, &arena_b, sizeof arena_b);
    CHECK_BYTES_EQ(&before_c, &arena_c, sizeof arena_c);
    CHECK(stow_arena_check(&arena_a));
    CHECK(stow_arena_check(&arena_c));
}
/* What reaches the assert hook: the public function's name and the misuse in
 * words a user can act on ("" with STOW_ASSERT_TEXT 0). */
TEST(arena_violations_name_the_call_and_the_misuse)
{
    fresh(&arena_a, buf_a, 128);
    fresh(&arena_b, buf_b, 128);
    fresh(&arena_c, buf_c, 128);
    stow_arena_chain(&arena_a, &arena_b);
    stow_arena_mark_t m = stow_arena_mark(&arena_a);
    CHECK_NOT_NULL(stow_arena_alloc(&arena_a, 4, 4));
    stow_arena_mark_t above = stow_arena_mark(&arena_a);
    stow_arena_rewind(&arena_a, m);
    void *p = &p;
    EXPECT_VIOLATION_TEXT(CHECK_FALSE(stow_arena_init(NULL, buf_a, 8)),
                          "stow_arena_init: arena is NULL");
    EXPECT_VIOLATION_TEXT(p = stow_arena_alloc(NULL, 8, 8), "stow_arena_alloc: arena is NULL");
    EXPECT_VIOLATION_TEXT(p = stow_arena_alloc(&arena_a, 8, 3),
                          "stow_arena_alloc: alignment is not a power of two");
    EXPECT_VIOLATION_TEXT(p = stow_arena_alloc_zeroed(&arena_a, 8, 6),
                          "stow_arena_alloc_zeroed: alignment is not a power of two");
    EXPECT_VIOLATION_TEXT(p = stow_arena_alloc_array(&arena_a, 1, 8, 24),
                          "stow_arena_alloc_array: alignment is not a power of two");
    EXPECT_VIOLATION_TEXT(p = stow_arena_alloc(&arena_b, 8, 8),
                          "stow_arena_alloc: called on a block chained into another arena");
    CHECK_NULL(p);
    EXPECT_VIOLATION_TEXT((void)stow_arena_mark(&arena_b),
                          "stow_arena_mark: called on a block chained into another arena");
    EXPECT_VIOLATION_TEXT(stow_arena_rewind(&arena_a, above),
                          "stow_arena_rewind: mark is not from this arena or lies above the "
                          "current position");
    EXPECT_VIOLATION_TEXT(stow_arena_reset(&arena_b),
                          "stow_arena_reset: called on a block chained into another arena");
    EXPECT_VIOLATION_TEXT(stow_arena_chain(&arena_a, NULL), "stow_arena_chain: next is NULL");
    EXPECT_VIOLATION_TEXT(stow_arena_chain(&arena_a, &arena_a),
                          "stow_arena_chain: next is the arena itself");
    EXPECT_VIOLATION_TEXT(stow_arena_chain(&arena_c, &arena_b),
                          "stow_arena_chain: next is chained already, or a block of its chain "
                          "was initialised again");
    CHECK_NOT_NULL(stow_arena_alloc(&arena_c, 1, 1));
    EXPECT_VIOLATION_TEXT(stow_arena_chain(&arena_a, &arena_c),
                          "stow_arena_chain: next has memory in use");
    EXPECT_VIOLATION_TEXT(CHECK_EQ(stow_arena_used(&arena_b), 0),
                          "stow_arena_used: called on a block chained into another arena");
    EXPECT_VIOLATION_TEXT(CHECK_EQ(stow_arena_capacity(NULL), 0),
                          "stow_arena_capacity: arena is NULL");
    EXPECT_VIOLATION_TEXT(stow_arena_stats(&arena_a, NULL), "stow_arena_stats: out is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_FALSE(stow_arena_check(NULL)), "stow_arena_check: arena is NULL");
    CHECK(stow_arena_check(&arena_a));
}

/* stow_arena_init() on a block chained into another arena. init cannot see it
 * (the object it is given may hold anything before init, so it reads nothing
 * from it) and returns true; the head of the chain reports it at its next call
 * that reaches the block, before it hands out or gives back any of the block's
 * bytes, and changes nothing. */
TEST(arena_init_of_a_chained_block_is_reported_by_its_head)
{
    void *p = &p;
    stow_stats_t s;
    /* the head's current block is initialised again: every call reports it */
    fresh(&arena_a, buf_a, 64);
    fresh(&arena_b, buf_b, 64);
    stow_arena_chain(&arena_a, &arena_b);
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 64, 1), buf_a);
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 8, 1), buf_b);
    stow_arena_mark_t m = stow_arena_mark(&arena_a);
    CHECK(stow_arena_init(&arena_b, buf_b, 64));
    stow_arena_t before;
    stow_test_copy(&before, &arena_a, sizeof arena_a);
    EXPECT_VIOLATION_TEXT(p = stow_arena_alloc(&arena_a, 8, 1),
                          "stow_arena_alloc: a block of its chain was initialised again");
    CHECK_NULL(p);
    EXPECT_VIOLATION_TEXT(p = stow_arena_alloc_zeroed(&arena_a, 8, 1),
                          "stow_arena_alloc_zeroed: a block of its chain was initialised again");
    EXPECT_VIOLATION(p = stow_arena_alloc_array(&arena_a, 1, 8, 1));
    CHECK_NULL(p);
    EXPECT_VIOLATION((void)stow_arena_mark(&arena_a));
    EXPECT_VIOLATION(stow_arena_rewind(&arena_a, m));
    EXPECT_VIOLATION(stow_arena_reset(&arena_a));
    EXPECT_VIOLATION((void)stow_arena_used(&arena_a));
    EXPECT_VIOLATION((void)stow_arena_capacity(&arena_a));
    EXPECT_VIOLATION(stow_arena_stats(&arena_a, &s));
    EXPECT_VIOLATION(stow_arena_chain(&arena_a, &arena_c));
    CHECK_BYTES_EQ(&before, &arena_a, sizeof arena_a);
    CHECK_FALSE(stow_arena_check(&arena_a));
    CHECK_PTR_EQ(stow_arena_alloc(&arena_b, 8, 1), buf_b); /* b is an arena of its own now */
    CHECK(stow_arena_check(&arena_b));

    /* a block after the current one: the head refuses to move into it */
    fresh(&arena_a, buf_a, 64);
    fresh(&arena_b, buf_b, 64);
    fresh(&arena_c, buf_c, 64);
    stow_arena_chain(&arena_a, &arena_b);
    stow_arena_chain(&arena_a, &arena_c);
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 60, 1), buf_a);
    CHECK(stow_arena_init(&arena_b, buf_b, 64));
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 4, 1), buf_a + 60); /* room in a: nothing to see */
    CHECK_EQ(stow_arena_used(&arena_a), 64);                     /* nor up to the position */
    stow_test_copy(&before, &arena_a, sizeof arena_a);
    EXPECT_VIOLATION_TEXT(p = stow_arena_alloc(&arena_a, 1, 1),
                          "stow_arena_alloc: a block of its chain was initialised again");
    CHECK_NULL(p);
    EXPECT_VIOLATION_TEXT(CHECK_EQ(stow_arena_capacity(&arena_a), 0),
                          "stow_arena_capacity: a block of its chain was initialised again");
    CHECK_BYTES_EQ(&before, &arena_a, sizeof arena_a);
    CHECK_EQ(arena_a.fails, 0); /* read directly: stats() would report the chain */

    /* a block before the current one, full of the head's allocations: rewind,
     * reset, used and stats report it (alloc in a later block cannot see it) */
    fresh(&arena_a, buf_a, 64);
    fresh(&arena_b, buf_b, 64);
    fresh(&arena_c, buf_c, 64);
    stow_arena_chain(&arena_a, &arena_b);
    stow_arena_chain(&arena_a, &arena_c);
    m = stow_arena_mark(&arena_a);
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 64, 1), buf_a);
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 64, 1), buf_b);
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 8, 1), buf_c);
    CHECK(stow_arena_init(&arena_b, buf_b, 64));
    stow_test_copy(&before, &arena_a, sizeof arena_a);
    EXPECT_VIOLATION_TEXT(stow_arena_reset(&arena_a),
                          "stow_arena_reset: a block of its chain was initialised again");
    EXPECT_VIOLATION_TEXT(stow_arena_rewind(&arena_a, m),
                          "stow_arena_rewind: a block of its chain was initialised again");
    EXPECT_VIOLATION((void)stow_arena_used(&arena_a));
    EXPECT_VIOLATION(stow_arena_stats(&arena_a, &s));
    CHECK_BYTES_EQ(&before, &arena_a, sizeof arena_a);
    CHECK_FALSE(stow_arena_check(&arena_a));
    /* initialising the head again starts it over */
    CHECK(stow_arena_init(&arena_a, buf_a, 64));
    CHECK(stow_arena_check(&arena_a));
}

#endif

#if STOW_CHECK_LEVEL >= 2
TEST(arena_level2_poisons_and_catches_writes_after_rewind)
{
    fresh(&arena_a, buf_a, 128);
    stow_arena_mark_t m = stow_arena_mark(&arena_a);
    unsigned char *p = (unsigned char *)stow_arena_alloc(&arena_a, 64, 1);
    stow_test_fill(p, 0x5A, 64);
    stow_arena_rewind(&arena_a, m);
    for (size_t i = 0; i < 64; i++) {
        CHECK_EQ(stow_test_peek(p + i), 0xDD);
    }
    CHECK(stow_arena_check(&arena_a));
    /* a clean reuse reports nothing */
    uint32_t seen = stow_test_violations();
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 16, 1), p);
    CHECK_EQ(stow_test_violations(), seen);
    stow_arena_reset(&arena_a);
    stow_test_poke(p + 40, 1); /* a write through a pointer that outlived the reset */
    CHECK_FALSE(stow_arena_check(&arena_a));
    CHECK_PTR_EQ(stow_arena_alloc(&arena_a, 32, 1), p); /* before the damage: quiet */
    unsigned char *q = NULL;
    EXPECT_VIOLATION(q = (unsigned char *)stow_arena_alloc(&arena_a, 16, 1));
    CHECK_PTR_EQ(q, p + 32); /* reported, and the allocation still happens */
    CHECK(stow_arena_check(&arena_a));
}
#endif

/* A seeded random walk against a model: allocations get a fill pattern that must
 * survive until they are rewound, marks are kept on a stack, and check() runs
 * after every step. Exercises chains, every alignment and zero sizes. */
#define RANDOM_MARKS 8

TEST(arena_random_operations_match_a_model)
{
    fresh(&arena_a, buf_a, 200);
    fresh(&arena_b, buf_b, 300);
    fresh(&arena_c, buf_c, 100);
    stow_arena_chain(&arena_a, &arena_b);
    stow_arena_chain(&arena_a, &arena_c);
    stow_test_seed(0x5EEDu);

    struct {
        unsigned char *p;
        size_t size;
        unsigned char tag;
    } live[32];
    size_t nlive = 0;
    stow_arena_mark_t marks[RANDOM_MARKS];
    size_t mark_live[RANDOM_MARKS]; /* nlive when the mark was taken */
    size_t mark_used[RANDOM_MARKS];
    size_t nmarks = 0;
    uint32_t fails = 0;
    size_t peak = 0;
    uint32_t steps = STOW_TEST_SCALED(100000);

    for (uint32_t step = 0; step < steps; step++) {
        uint32_t op = stow_test_rand_below(100);
        if (op < 70 && nlive < 32) {
            size_t size = stow_test_rand_below(5) == 0 ? 0 : stow_test_rand_below(48);
            size_t align = (size_t)1 << stow_test_rand_below(7);
            size_t used_before = stow_arena_used(&arena_a);
            unsigned char *p = (unsigned char *)stow_arena_alloc(&arena_a, size, align);
            if (p == NULL) {
                fails++;
                CHECK_EQ(stow_arena_used(&arena_a), used_before);
            } else {
                CHECK_EQ((uintptr_t)p % align, 0);
                CHECK(in_buffer(p, buf_a, 200) || in_buffer(p, buf_b, 300) || in_buffer(p, buf_c, 100));
                CHECK_LE(used_before + size, stow_arena_used(&arena_a));
                unsigned char tag = (unsigned char)(step | 1u);
                stow_test_fill(p, tag, size);
                live[nlive].p = p;
                live[nlive].size = size;
                live[nlive].tag = tag;
                nlive++;
            }
        } else if (op < 80 && nmarks < RANDOM_MARKS) {
            marks[nmarks] = stow_arena_mark(&arena_a);
            mark_live[nmarks] = nlive;
            mark_used[nmarks] = stow_arena_used(&arena_a);
            nmarks++;
        } else if (op < 95 && nmarks > 0) {
            size_t k = stow_test_rand_below((uint32_t)nmarks);
            stow_arena_rewind(&arena_a, marks[k]);
            CHECK_EQ(stow_arena_used(&arena_a), mark_used[k]);
            nlive = mark_live[k];
            nmarks = k + 1; /* marks above k are above the position now */
        } else if (op >= 95) {
            stow_arena_reset(&arena_a);
            nlive = 0;
            nmarks = 0;
        }
        size_t used = stow_arena_used(&arena_a);
        peak = used > peak ? used : peak;
        for (size_t i = 0; i < nlive; i++) {
            for (size_t j = 0; j < live[i].size; j++) {
                CHECK_EQ(live[i].p[j], live[i].tag);
            }
        }
        CHECK(stow_arena_check(&arena_a));
    }
    stow_stats_t s;
    stow_arena_stats(&arena_a, &s);
    CHECK_EQ(s.fails, fails);
    CHECK_EQ(s.peak, peak);
    CHECK_EQ(s.capacity, 600);
    CHECK_LT(0, fails); /* the walk did fill the chain */
}

void stow_test_suite_arena(void)
{
    RUN(arena_defined_is_ready_without_init);
    RUN(arena_defined_storage_is_aligned_and_placed);
    RUN(arena_init_refuses_bad_buffers);
    RUN(arena_alloc_honours_every_alignment);
    RUN(arena_alloc_zero_align_means_default);
    RUN(arena_size_zero_is_a_unique_aligned_one_byte_request);
    RUN(arena_allocations_are_disjoint_and_sequential);
    RUN(arena_full_returns_null_counts_fail_and_changes_nothing);
    RUN(arena_alloc_zeroed_zeroes);
    RUN(arena_new_and_new_array);
    RUN(arena_new_array_overflow_gives_null_not_a_short_buffer);
    RUN(arena_mark_and_rewind);
    RUN(arena_reset_frees_all_and_keeps_stats);
    RUN(arena_stats_track_peak_between_rewinds);
    RUN(arena_chain_continues_in_next_block);
    RUN(arena_chain_of_defined_blocks);
    RUN(arena_check_finds_broken_invariants);
#if STOW_CHECK_LEVEL >= 1
    RUN(arena_violations_leave_the_arena_unchanged);
    RUN(arena_violations_name_the_call_and_the_misuse);
    RUN(arena_init_of_a_chained_block_is_reported_by_its_head);
#endif
#if STOW_CHECK_LEVEL >= 2
    RUN(arena_level2_poisons_and_catches_writes_after_rewind);
#endif
    RUN(arena_random_operations_match_a_model);
}
