/* SPDX-License-Identifier: MIT */
/* test_pool.c - every clause of stow/pool.h, on the host and on every board. */
#include "harness.h"

#if !defined(STOW_TEST_TARGET)
#include <pthread.h>
#include <stdatomic.h>
#endif

/* One work buffer, cut into parts for the tests that need several pools; the
 * large-capacity test takes all of it. Small-RAM boards (the micro:bit) get 1 KiB. */
#if defined(STOW_TEST_RAM_KIB) && STOW_TEST_RAM_KIB < 64
#define WORK_BYTES 1024u
#elif defined(STOW_TEST_TARGET)
#define WORK_BYTES (128u * 1024u)
#else
#define WORK_BYTES (1024u * 1024u)
#endif
#define PART_BYTES 256u

static STOW_ALIGNAS(64) unsigned char work[WORK_BYTES];
#define PART(i) (work + 64u + (size_t)(i)*PART_BYTES) /* room below PART(0) for "outside" pointers */

static stow_pool_t pool_a, pool_b, pool_c;

struct msg {
    uint32_t id;
    uint16_t len;
    unsigned char body[10];
};

struct wide {
    STOW_ALIGNAS(64) unsigned char bytes[3];
};

/* Blocks whose size is not a power of two: odd factors 3 and 25 (13 on 64-bit). */
struct trio {
    void *a, *b, *c;
};

struct hundred {
    unsigned char bytes[100];
};

STOW_POOL_DEFINE(test_pool_msgs, struct msg, 6);
STOW_POOL_DEFINE_STATIC(test_pool_trios, struct trio, 7);
STOW_POOL_DEFINE_STATIC(test_pool_hundreds, struct hundred, 3);
STOW_POOL_DEFINE_STATIC(test_pool_chars, char, 5);
STOW_POOL_DEFINE_STATIC(test_pool_wide, struct wide, 2);

/* ---- helpers ------------------------------------------------------------------ */

static size_t stride_of(size_t size, size_t align) { return STOW_POOL_STRIDE(size, align); }

/* Makes *p a pool over buf (filled with 0xA5 first: storage is never assumed zeroed). */
static void fresh(stow_pool_t *p, unsigned char *buf, size_t size, size_t align, uint32_t capacity)
{
    size_t bytes = STOW_POOL_BYTES(size, align, capacity);
    stow_test_fill(buf, 0xA5u, bytes);
    CHECK(stow_pool_init(p, buf, bytes, size, align, capacity));
    CHECK(stow_pool_check(p));
}

static stow_stats_t stats_of(const stow_pool_t *p)
{
    stow_stats_t s;
    stow_pool_stats(p, &s);
    return s;
}

/* True when ptr is the start of block i of a pool over buf with this stride. */
static bool is_block_start(const void *ptr, const unsigned char *buf, size_t stride, uint32_t capacity)
{
    const unsigned char *q = (const unsigned char *)ptr;
    return q >= buf && q < buf + (size_t)capacity * stride && (size_t)(q - buf) % stride == 0u;
}

/* A pool and its storage as they were, for "a violation changes nothing". */
static stow_pool_t saved_pool;
static unsigned char saved_bytes[PART_BYTES];

static void save(const stow_pool_t *p, const unsigned char *buf, size_t n)
{
    stow_test_copy(&saved_pool, p, sizeof *p);
    stow_test_copy(saved_bytes, buf, n);
}

static void check_unchanged(const stow_pool_t *p, const unsigned char *buf, size_t n)
{
    CHECK_BYTES_EQ(&saved_pool, p, sizeof *p);
    CHECK_BYTES_EQ(saved_bytes, buf, n);
}

/* The free-list link in a free block, read or forged as a stale pointer would:
 * through the harness, which AddressSanitizer does not check (a free block is
 * poisoned in ASan builds). */
static unsigned char *link_in(const unsigned char *block)
{
    unsigned char *link;
    stow_test_copy(&link, block, sizeof link);
    return link;
}

static void forge_link(unsigned char *block, unsigned char *link)
{
    stow_test_copy(block, &link, sizeof link);
}

/* ---- static definition -------------------------------------------------------- */

TEST(pool_defined_is_ready_without_init)
{
    /* Dirty the storage before the first use, as the boards' start-up does. */
    stow_test_fill(stow__pool_buf_test_pool_msgs, 0xA5u, sizeof stow__pool_buf_test_pool_msgs);
    CHECK(stow_pool_check(&test_pool_msgs));
    CHECK_EQ(stow_pool_capacity(&test_pool_msgs), 6);
    CHECK_EQ(stow_pool_used(&test_pool_msgs), 0);
    CHECK_EQ(sizeof stow__pool_buf_test_pool_msgs, STOW_POOL_BYTES(sizeof(struct msg), STOW_ALIGNOF(struct msg), 6));
    struct msg *m[6];
    for (int i = 0; i < 6; i++) {
        m[i] = STOW_POOL_NEW(&test_pool_msgs, struct msg);
        CHECK_NOT_NULL(m[i]);
        CHECK_EQ((uintptr_t)m[i] % STOW_ALIGNOF(struct msg), 0);
        CHECK(is_block_start(m[i], stow__pool_buf_test_pool_msgs,
                             stride_of(sizeof(struct msg), STOW_ALIGNOF(struct msg)), 6));
        m[i]->id = (uint32_t)i;
        m[i]->len = 10;
        stow_test_fill(m[i]->body, (unsigned char)i, sizeof m[i]->body);
        CHECK(stow_pool_check(&test_pool_msgs));
    }
    CHECK_NULL(stow_pool_alloc(&test_pool_msgs));
    for (int i = 0; i < 6; i++) {
        CHECK_EQ(m[i]->id, i);
        CHECK_EQ(m[i]->body[9], i);
        for (int j = 0; j < i; j++) {
            CHECK(m[i] != m[j]);
        }
    }
    stow_pool_free(&test_pool_msgs, m[2]);
    CHECK_PTR_EQ(stow_pool_alloc(&test_pool_msgs), m[2]);
    stow_stats_t s = stats_of(&test_pool_msgs);
    CHECK(s.capacity == 6 && s.used == 6 && s.peak == 6 && s.fails == 1);
    stow_pool_reset(&test_pool_msgs);
    CHECK(stow_pool_check(&test_pool_msgs));

    /* The static ones: blocks of one char take a pointer's room each. */
    CHECK_EQ(sizeof stow__pool_buf_test_pool_chars, STOW_POOL_BYTES(1, 1, 5));
    char *c[5];
    for (int i = 0; i < 5; i++) {
        c[i] = STOW_POOL_NEW(&test_pool_chars, char);
        CHECK_NOT_NULL(c[i]);
        *c[i] = (char)('a' + i);
    }
    CHECK_NULL(STOW_POOL_NEW(&test_pool_chars, char));
    for (int i = 0; i < 5; i++) {
        CHECK_EQ(*c[i], 'a' + i);
        stow_pool_free(&test_pool_chars, c[i]);
    }
    CHECK_EQ(stow_pool_used(&test_pool_chars), 0);
    CHECK(stow_pool_check(&test_pool_chars));
}

/* STOW_POOL_DEFINE computes at compile time what init computes at run time (the
 * inverse above all): the two objects are the same bytes. */
static void defined_matches_init(stow_pool_t *defined, unsigned char *buf, size_t bytes,
                                 size_t size, size_t align, uint32_t capacity)
{
    stow_pool_t made;
    stow_test_fill(&made, 0u, sizeof made);
    CHECK(stow_pool_init(&made, buf, bytes, size, align, capacity));
    /* All but the last field: a DEFINE'd pool keeps its file's configuration
     * check there, an init'ed one NULL. */
    CHECK_BYTES_EQ(&made, defined, offsetof(stow_pool_t, config));
    CHECK_NULL(made.config);
    CHECK(STOW__CONFIG_GUARD_IS_HERE(defined->config));
    CHECK(stow_pool_check(defined));
    /* every block, once, then back */
    stow_pool_t *p = defined;
    void *first = stow_pool_alloc(p);
    for (uint32_t i = 1; i < capacity; i++) {
        CHECK_NOT_NULL(stow_pool_alloc(p));
    }
    CHECK_NULL(stow_pool_alloc(p));
    CHECK(stow_pool_check(p));
    stow_pool_free(p, (unsigned char *)first + (size_t)(capacity - 1u) * p->stride);
    stow_pool_free(p, first);
    CHECK(stow_pool_check(p));
    stow_pool_reset(p);
}

TEST(pool_defined_matches_init)
{
    const size_t ptr = sizeof(void *);
    CHECK_EQ(test_pool_trios.stride, 3 * ptr);
    CHECK_EQ(test_pool_hundreds.stride, (100 + ptr - 1) / ptr * ptr);
    CHECK_CALL(defined_matches_init(&test_pool_trios, stow__pool_buf_test_pool_trios,
                                    sizeof stow__pool_buf_test_pool_trios, sizeof(struct trio),
                                    STOW_ALIGNOF(struct trio), 7));
    CHECK_CALL(defined_matches_init(&test_pool_hundreds, stow__pool_buf_test_pool_hundreds,
                                    sizeof stow__pool_buf_test_pool_hundreds, sizeof(struct hundred),
                                    STOW_ALIGNOF(struct hundred), 3));
    CHECK_CALL(defined_matches_init(&test_pool_wide, stow__pool_buf_test_pool_wide,
                                    sizeof stow__pool_buf_test_pool_wide, sizeof(struct wide),
                                    STOW_ALIGNOF(struct wide), 2));
}

TEST(pool_defined_storage_is_aligned_and_placed)
{
    struct wide *w = STOW_POOL_NEW(&test_pool_wide, struct wide);
    struct wide *x = STOW_POOL_NEW(&test_pool_wide, struct wide);
    CHECK(w != NULL && x != NULL);
    CHECK_EQ((uintptr_t)w % 64, 0);
    CHECK_EQ((uintptr_t)x % 64, 0);
    CHECK_EQ(sizeof stow__pool_buf_test_pool_wide, STOW_POOL_BYTES(64, 64, 2));
#if defined(STOW_TEST_TARGET) && STOW_SECTIONS
    extern unsigned char __stow_start[], __stow_end[];
    CHECK((unsigned char *)w >= __stow_start && (unsigned char *)x + 64 <= __stow_end);
    unsigned char *m = (unsigned char *)stow_pool_alloc(&test_pool_msgs);
    CHECK(m >= __stow_start && m < __stow_end);
    stow_pool_free(&test_pool_msgs, m);
#endif
    stow_pool_free(&test_pool_wide, x);
    stow_pool_free(&test_pool_wide, w);
    CHECK(stow_pool_check(&test_pool_wide));
}

/* ---- init and sizes ----------------------------------------------------------- */

TEST(pool_bytes_is_blocks_rounded_to_pointers_and_nothing_more)
{
    const size_t ptr = sizeof(void *);
    const size_t map = STOW_CHECK_LEVEL >= 2 ? 4u : 0u; /* per 32 blocks, level 2 only */
    CHECK_EQ(STOW_POOL_STRIDE(1, 1), ptr);
    CHECK_EQ(STOW_POOL_STRIDE(3, 1), ptr);
    CHECK_EQ(STOW_POOL_STRIDE(ptr, 0), STOW_DEFAULT_ALIGN > ptr ? STOW_DEFAULT_ALIGN : ptr);
    CHECK_EQ(STOW_POOL_STRIDE(12, 4), ptr == 4 ? 12 : 16);
    CHECK_EQ(STOW_POOL_STRIDE(40, 32), 64);
    CHECK_EQ(STOW_POOL_STRIDE(65, 64), 128);
    CHECK_EQ(STOW_POOL_BYTES(3, 1, 10), 10 * ptr + map);
    CHECK_EQ(STOW_POOL_BYTES(sizeof(struct msg), STOW_ALIGNOF(struct msg), 32),
             32 * stride_of(sizeof(struct msg), STOW_ALIGNOF(struct msg)) + map);
    CHECK_EQ(STOW_POOL_BYTES(64, 64, 33), 33 * 64 + 2 * map);
    CHECK_EQ(STOW_POOL_BLOCK_ALIGN(1), STOW_ALIGNOF(void *));
    CHECK_EQ(STOW_POOL_BLOCK_ALIGN(64), 64);
    CHECK_EQ(STOW_POOL_BLOCK_ALIGN(0), STOW_DEFAULT_ALIGN);
}

TEST(pool_init_refuses_bad_buffers_and_changes_nothing)
{
    unsigned char *buf = PART(0);
    fresh(&pool_a, buf, 8, 8, 4);
    CHECK_NOT_NULL(stow_pool_alloc(&pool_a));
    stow_pool_t before;
    stow_test_copy(&before, &pool_a, sizeof pool_a);
    size_t bytes = STOW_POOL_BYTES(8, 8, 4);
    CHECK_FALSE(stow_pool_init(&pool_a, NULL, bytes, 8, 8, 4));
    CHECK_FALSE(stow_pool_init(&pool_a, buf, bytes, 8, 8, 0));              /* no blocks */
    CHECK_FALSE(stow_pool_init(&pool_a, buf, bytes - 1u, 8, 8, 4));         /* too small */
    CHECK_FALSE(stow_pool_init(&pool_a, buf, 0, 8, 8, 4));
    CHECK_FALSE(stow_pool_init(&pool_a, buf + 4, bytes, 8, 8, 4));          /* misaligned */
    CHECK_FALSE(stow_pool_init(&pool_a, buf + 1, bytes, 1, 1, 4));          /* links need pointers' alignment */
    CHECK_FALSE(stow_pool_init(&pool_a, buf + 32, bytes, 8, 64, 1));
    CHECK_FALSE(stow_pool_init(&pool_a, buf, SIZE_MAX, SIZE_MAX - 2u, 8, 1)); /* stride overflows */
    CHECK_FALSE(stow_pool_init(&pool_a, buf, SIZE_MAX, SIZE_MAX / 2u, 8, 3)); /* blocks overflow */
    CHECK_FALSE(stow_pool_init(&pool_a, buf, SIZE_MAX, SIZE_MAX / 64u, 64, 64));
    CHECK_BYTES_EQ(&before, &pool_a, sizeof pool_a);
    CHECK(stow_pool_check(&pool_a));
    /* exactly enough is enough; more is fine; init writes nothing into the buffer */
    stow_test_fill(buf, 0x5Au, PART_BYTES);
    CHECK(stow_pool_init(&pool_a, buf, bytes, 8, 8, 4));
    CHECK_EQ(stow_test_first_difference(buf, buf + 1, PART_BYTES - 1u), PART_BYTES - 1u);
    CHECK_EQ(stow_pool_used(&pool_a), 0);
    CHECK_EQ(stats_of(&pool_a).fails, 0);
    CHECK(stow_pool_init(&pool_a, buf, PART_BYTES, 8, 8, 4));
    CHECK(stow_pool_check(&pool_a));
    /* block size 0: pointer-sized blocks, distinct */
    CHECK(stow_pool_init(&pool_a, buf, PART_BYTES, 0, 1, 3));
    void *x = stow_pool_alloc(&pool_a), *y = stow_pool_alloc(&pool_a);
    CHECK(x != NULL && y != NULL && x != y);
    CHECK_EQ((uintptr_t)y - (uintptr_t)x, sizeof(void *));
    CHECK(stow_pool_check(&pool_a));
}

/* ---- alloc and free ----------------------------------------------------------- */

TEST(pool_blocks_smaller_than_a_pointer)
{
    for (size_t size = 1; size <= 3; size++) {
        fresh(&pool_a, PART(0), size, 1, 12);
        unsigned char *q[12];
        for (uint32_t i = 0; i < 12; i++) {
            q[i] = (unsigned char *)stow_pool_alloc(&pool_a);
            CHECK_NOT_NULL(q[i]);
            CHECK(is_block_start(q[i], PART(0), sizeof(void *), 12));
            CHECK_EQ((uintptr_t)q[i] % STOW_ALIGNOF(void *), 0);
            stow_test_fill(q[i], (unsigned char)(0x10u + i), size);
        }
        CHECK_NULL(stow_pool_alloc(&pool_a));
        /* give back every other one: their neighbours' bytes survive the links */
        for (uint32_t i = 0; i < 12; i += 2) {
            stow_pool_free(&pool_a, q[i]);
            CHECK(stow_pool_check(&pool_a));
        }
        for (uint32_t i = 1; i < 12; i += 2) {
            for (size_t j = 0; j < size; j++) {
                CHECK_EQ(q[i][j], 0x10u + i);
            }
        }
        for (uint32_t i = 10; i < 12; i -= 2) { /* LIFO: last freed comes back first */
            CHECK_PTR_EQ(stow_pool_alloc(&pool_a), q[i]);
        }
        CHECK_NULL(stow_pool_alloc(&pool_a));
        CHECK(stow_pool_check(&pool_a));
    }
}

TEST(pool_every_alignment_from_1_to_64)
{
    for (size_t align = 1; align <= 64; align *= 2) {
        const size_t sizes[] = {1, 3, align, align + 1, 3 * align};
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            size_t size = sizes[k];
            size_t stride = stride_of(size, align);
            uint32_t cap = 4;
            CHECK_LE(STOW_POOL_BYTES(size, align, cap), 1024);
            fresh(&pool_a, work, size, align, cap);
            CHECK_EQ(stride % align, 0);
            CHECK_LE(size, stride);
            unsigned char *q[4];
            for (uint32_t i = 0; i < cap; i++) {
                q[i] = (unsigned char *)stow_pool_alloc(&pool_a);
                CHECK_NOT_NULL(q[i]);
                CHECK_EQ((uintptr_t)q[i] % align, 0);
                CHECK(is_block_start(q[i], work, stride, cap));
                for (uint32_t j = 0; j < i; j++) { /* no overlap */
                    CHECK(q[j] + size <= q[i] || q[i] + size <= q[j]);
                }
                stow_test_fill(q[i], (unsigned char)(i + 1u), size);
            }
            CHECK_NULL(stow_pool_alloc(&pool_a));
            for (uint32_t i = 0; i < cap; i++) {
                CHECK_EQ(q[i][0], i + 1u);
                CHECK_EQ(q[i][size - 1u], i + 1u);
                stow_pool_free(&pool_a, q[i]);
            }
            CHECK(stow_pool_check(&pool_a));
            /* a pool over an init buffer with a T of that alignment */
            q[0] = (unsigned char *)stow_pool_alloc_checked(&pool_a, size, align);
            CHECK_PTR_EQ(q[0], q[cap - 1u]);
        }
    }
}

TEST(pool_capacity_one)
{
    fresh(&pool_a, PART(0), 16, 8, 1);
    CHECK_EQ(stow_pool_capacity(&pool_a), 1);
    void *x = stow_pool_alloc(&pool_a);
    CHECK_PTR_EQ(x, PART(0));
    CHECK_NULL(stow_pool_alloc(&pool_a));
    CHECK_NULL(stow_pool_alloc(&pool_a));
    CHECK_EQ(stow_pool_used(&pool_a), 1);
    stow_pool_free(&pool_a, x);
    CHECK_EQ(stow_pool_used(&pool_a), 0);
    CHECK(stow_pool_check(&pool_a));
    CHECK_PTR_EQ(stow_pool_alloc(&pool_a), x);
    CHECK_NULL(stow_pool_alloc(&pool_a));
    stow_stats_t s = stats_of(&pool_a);
    CHECK(s.capacity == 1 && s.used == 1 && s.peak == 1 && s.fails == 3);
    CHECK(stow_pool_owns(&pool_a, x));
    CHECK(!stow_pool_owns(&pool_a, PART(0) + 16));
    stow_pool_reset(&pool_a);
    CHECK_PTR_EQ(stow_pool_alloc(&pool_a), x);
    CHECK(stow_pool_check(&pool_a));
}

TEST(pool_large_capacity)
{
    const size_t stride = sizeof(void *);
    uint32_t cap = (uint32_t)(WORK_BYTES / stride);
    while (STOW_POOL_BYTES(stride, sizeof(void *), cap) > WORK_BYTES) {
        cap--;
    }
    stow_test_fill(work, 0xA5u, WORK_BYTES);
    CHECK(stow_pool_init(&pool_a, work, WORK_BYTES, stride, sizeof(void *), cap));
    CHECK_EQ(stow_pool_capacity(&pool_a), cap);
    for (uintptr_t round = 1; round <= 2; round++) {
        /* every block exactly once: each is stamped with its own address and the
         * round, which nothing else writes, so a second hand-out shows */
        for (uint32_t i = 0; i < cap; i++) {
            uintptr_t *q = (uintptr_t *)stow_pool_alloc(&pool_a);
            CHECK_NOT_NULL(q);
            CHECK(is_block_start(q, work, stride, cap));
            CHECK((*q ^ round) != (uintptr_t)q);
            *q = (uintptr_t)q ^ round;
        }
        CHECK_NULL(stow_pool_alloc(&pool_a));
        CHECK_EQ(stow_pool_used(&pool_a), cap);
        CHECK(stow_pool_check(&pool_a));
        /* free all, in an order that is neither forward nor backward */
        for (uint32_t i = 0; i < cap; i++) {
            uint32_t k = (uint32_t)(((uint64_t)i * 7919u) % cap);
            if (cap % 7919u == 0u) {
                k = i;
            }
            stow_pool_free(&pool_a, work + (size_t)k * stride);
        }
        CHECK_EQ(stow_pool_used(&pool_a), 0);
        CHECK(stow_pool_check(&pool_a));
    }
    stow_stats_t s = stats_of(&pool_a);
    CHECK(s.capacity == cap && s.used == 0 && s.peak == cap && s.fails == 2);
}

TEST(pool_free_null_is_ignored)
{
    fresh(&pool_a, PART(0), 8, 8, 4);
    void *x = stow_pool_alloc(&pool_a);
    CHECK_NOT_NULL(x);
    save(&pool_a, PART(0), PART_BYTES);
    uint32_t violations = stow_test_violations();
    stow_pool_free(&pool_a, NULL);
    stow_pool_free_isr(&pool_a, NULL);
    CHECK_EQ(stow_test_violations(), violations);
    CHECK_CALL(check_unchanged(&pool_a, PART(0), PART_BYTES));
}

TEST(pool_reuses_the_last_freed_block_first)
{
    fresh(&pool_a, PART(0), 24, 8, 8);
    void *x = stow_pool_alloc(&pool_a), *y = stow_pool_alloc(&pool_a), *z = stow_pool_alloc(&pool_a);
    stow_pool_free(&pool_a, y);
    stow_pool_free(&pool_a, x);
    CHECK_PTR_EQ(stow_pool_alloc(&pool_a), x);
    CHECK_PTR_EQ(stow_pool_alloc(&pool_a), y);
    /* the free list empty again, never-used blocks follow in address order */
    CHECK_PTR_EQ(stow_pool_alloc(&pool_a), (unsigned char *)z + stride_of(24, 8));
    CHECK(stow_pool_check(&pool_a));
}

TEST(pool_owns_pointers_into_its_blocks_only)
{
    fresh(&pool_a, PART(0), 12, 4, 5);
    fresh(&pool_b, PART(1), 12, 4, 5);
    size_t stride = stride_of(12, 4);
    unsigned char *base = PART(0);
    unsigned char *end = base + 5 * stride;
    CHECK(stow_pool_owns(&pool_a, base));
    CHECK(stow_pool_owns(&pool_a, base + 1));              /* interior */
    CHECK(stow_pool_owns(&pool_a, base + 2 * stride + 5)); /* interior of a never-used block */
    CHECK(stow_pool_owns(&pool_a, end - 1));               /* last byte of the last block */
    CHECK_FALSE(stow_pool_owns(&pool_a, end));             /* one past the end */
    CHECK_FALSE(stow_pool_owns(&pool_a, end + 1));
    CHECK_FALSE(stow_pool_owns(&pool_a, NULL));
    CHECK_FALSE(stow_pool_owns(&pool_a, PART(1)));         /* another pool's block */
    CHECK_FALSE(stow_pool_owns(&pool_b, base));
    CHECK_FALSE(stow_pool_owns(&pool_a, &stride));         /* the stack */
    CHECK_FALSE(stow_pool_owns(&pool_a, &pool_a));
    void *x = stow_pool_alloc(&pool_a);
    CHECK(stow_pool_owns(&pool_a, x));
    CHECK_FALSE(stow_pool_owns(&pool_b, x));
    stow_pool_free(&pool_a, x);
    CHECK(stow_pool_owns(&pool_a, x)); /* free or in use alike */
}

TEST(pool_reset_frees_everything_in_o1_and_keeps_stats)
{
    fresh(&pool_a, PART(0), 16, 16, 6);
    void *q[6];
    for (int i = 0; i < 6; i++) {
        q[i] = stow_pool_alloc(&pool_a);
    }
    CHECK_NULL(stow_pool_alloc(&pool_a));
    stow_pool_free(&pool_a, q[1]);
    stow_pool_free(&pool_a, q[4]);
    stow_test_fill(q[0], 0x33u, 16);
#if STOW_CHECK_LEVEL < 2
    /* levels 0 and 1: reset writes no byte of the storage */
    save(&pool_a, PART(0), PART_BYTES);
    stow_pool_reset(&pool_a);
    CHECK_BYTES_EQ(saved_bytes, PART(0), PART_BYTES);
#else
    stow_pool_reset(&pool_a);
    for (size_t i = 0; i < 6 * 16; i++) { /* level 2: every handed-out byte poisoned */
        CHECK_EQ(stow_test_peek(PART(0) + i), 0xDD);
    }
#endif
    CHECK(stow_pool_check(&pool_a));
    CHECK_EQ(stow_pool_used(&pool_a), 0);
    stow_stats_t s = stats_of(&pool_a);
    CHECK(s.capacity == 6 && s.used == 0 && s.peak == 6 && s.fails == 1);
    /* reuse: all six again, in address order, and the free list was forgotten */
    for (int i = 0; i < 6; i++) {
        CHECK_PTR_EQ(stow_pool_alloc(&pool_a), q[i]);
        CHECK(stow_pool_check(&pool_a));
    }
    CHECK_NULL(stow_pool_alloc(&pool_a));
    stow_pool_reset(&pool_a);
    stow_pool_reset(&pool_a); /* twice is fine */
    CHECK_NOT_NULL(stow_pool_alloc(&pool_a));
    s = stats_of(&pool_a);
    CHECK(s.used == 1 && s.peak == 6 && s.fails == 2);
    CHECK(stow_pool_check(&pool_a));
}

TEST(pool_stats_count_used_peak_and_fails)
{
    fresh(&pool_a, PART(0), 8, 8, 4);
    stow_stats_t s = stats_of(&pool_a);
    CHECK(s.capacity == 4 && s.used == 0 && s.peak == 0 && s.fails == 0);
    void *x = stow_pool_alloc(&pool_a), *y = stow_pool_alloc(&pool_a);
    s = stats_of(&pool_a);
    CHECK(s.used == 2 && s.peak == 2);
    stow_pool_free(&pool_a, x);
    stow_pool_free(&pool_a, y);
    x = stow_pool_alloc(&pool_a);
    s = stats_of(&pool_a);
    CHECK(s.used == 1 && s.peak == 2 && s.fails == 0);
    y = stow_pool_alloc(&pool_a);
    void *z = stow_pool_alloc(&pool_a);
    CHECK_NOT_NULL(stow_pool_alloc(&pool_a));
    CHECK_NULL(stow_pool_alloc(&pool_a));
    CHECK_NULL(stow_pool_alloc_isr(&pool_a));
    CHECK_NULL(STOW_POOL_NEW(&pool_a, uint64_t));
    s = stats_of(&pool_a);
    CHECK(s.used == 4 && s.peak == 4 && s.fails == 3);
    CHECK_EQ(stow_pool_used(&pool_a), 4);
    stow_pool_free(&pool_a, z);
    stow_pool_free(&pool_a, y);
    s = stats_of(&pool_a);
    CHECK(s.used == 2 && s.peak == 4 && s.fails == 3);
    CHECK(stow_pool_check(&pool_a));
}

struct aligned8 {
    STOW_ALIGNAS(8) uint32_t v;
};

struct pair {
    uint32_t a, b;
};

TEST(pool_new_returns_typed_blocks)
{
    fresh(&pool_a, PART(0), sizeof(struct pair), STOW_ALIGNOF(struct pair), 3);
    struct pair *p = STOW_POOL_NEW(&pool_a, struct pair);
    CHECK_NOT_NULL(p);
    p->a = 1;
    p->b = 2;
    uint16_t *small = STOW_POOL_NEW(&pool_a, uint16_t); /* smaller than the block: fine */
    CHECK_NOT_NULL(small);
    *small = 7;
    CHECK_NOT_NULL(STOW_POOL_NEW(&pool_a, uint32_t));
    CHECK_NULL(STOW_POOL_NEW(&pool_a, struct pair));
    CHECK_EQ(p->a + p->b, 3);
    CHECK_EQ(stats_of(&pool_a).fails, 1);
    stow_pool_free(&pool_a, small);
    CHECK_PTR_EQ(stow_pool_alloc_checked(&pool_a, 0, STOW_ALIGNOF(struct pair)), small);
    CHECK(stow_pool_check(&pool_a));
}

/* ---- ISR variants ------------------------------------------------------------- */

#if defined(STOW_TEST_TARGET)
/* 1 while interrupts are masked: PRIMASK on Cortex-M, mstatus.MIE clear on RISC-V. */
static uint32_t primask(void)
{
    uint32_t v;
#if defined(__riscv)
    __asm__ volatile("csrr %0, mstatus" : "=r"(v));
    v = (v & 8u) == 0u ? 1u : 0u;
#else
    __asm__ volatile("mrs %0, primask" : "=r"(v));
#endif
    return v;
}
#endif

TEST(pool_isr_variants_match_alloc_and_free_and_nest)
{
    fresh(&pool_a, PART(0), 8, 8, 2);
    void *x = stow_pool_alloc_isr(&pool_a);
    void *y = stow_pool_alloc_isr(&pool_a);
    CHECK(x != NULL && y != NULL && x != y);
    CHECK_NULL(stow_pool_alloc_isr(&pool_a));
    CHECK_EQ(stats_of(&pool_a).fails, 1);
    stow_pool_free_isr(&pool_a, x);
    CHECK_EQ(stow_pool_used(&pool_a), 1);
    CHECK_PTR_EQ(stow_pool_alloc_isr(&pool_a), x);
#if defined(STOW_TEST_TARGET)
    CHECK_EQ(primask(), 0); /* interrupts stay enabled after the calls */
#endif
    /* inside a critical section of the caller's: nests, and leaves it masked */
    uint32_t state = stow_port_critical_enter();
    stow_pool_free_isr(&pool_a, y);
    void *z = stow_pool_alloc_isr(&pool_a);
#if defined(STOW_TEST_TARGET)
    uint32_t masked = primask();
#endif
    stow_port_critical_exit(state);
    CHECK_PTR_EQ(z, y);
#if defined(STOW_TEST_TARGET)
    CHECK_EQ(masked, 1);
    CHECK_EQ(primask(), 0);
#endif
    CHECK(stow_pool_check(&pool_a));
}

#if defined(STOW_TEST_TARGET)
/* A real interrupt: PendSV, pended by the test. Its handler trades a block with
 * the pool each time (takes one, gives back the one it took the time before),
 * as a driver ISR does with message buffers. */
void PendSV_Handler(void);
static stow_pool_t *volatile isr_pool;
static void *volatile isr_held;
static volatile uint32_t isr_runs, isr_misses;

void PendSV_Handler(void)
{
    void *q = stow_pool_alloc_isr(isr_pool);
    if (q == NULL) {
        isr_misses++;
    } else {
        stow_test_fill(q, 0xEEu, 8);
    }
    stow_pool_free_isr(isr_pool, isr_held);
    isr_held = q;
    isr_runs++;
}

#if defined(__riscv)
/* RISC-V: the machine software interrupt, pended through the CLINT's msip
 * (hart 0's, at 0x02000000 on QEMU's virt and sifive_e); port/riscv/trap.c
 * calls this handler. */
#define CLINT_MSIP (*(volatile uint32_t *)(uintptr_t)0x02000000u)
void stow_riscv_software_interrupt(void);
void stow_riscv_software_interrupt(void)
{
    CLINT_MSIP = 0u; /* taken: no longer pending */
    PendSV_Handler();
}

static void pend_isr(void)
{
    CLINT_MSIP = 1u;
    /* mie.MSIE on; a CSR write also ends QEMU's translation block, so the
     * interrupt is taken before the next instruction, as the isb makes sure of
     * on Cortex-M. */
    __asm__ volatile("fence\n\tcsrs mie, %0" : : "r"(UINT32_C(1) << 3) : "memory");
}
#define SYNC_ISR() __asm__ volatile("" ::: "memory") /* critical_exit's csrsi did it */
#else
static void pend_isr(void)
{
    *(volatile uint32_t *)(uintptr_t)0xE000ED04u = UINT32_C(1) << 28; /* ICSR.PENDSVSET */
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}
#define SYNC_ISR() __asm__ volatile("isb" ::: "memory")
#endif

TEST(pool_shared_with_an_interrupt_handler)
{
    fresh(&pool_a, PART(0), 8, 8, 6);
    isr_pool = &pool_a;
    isr_held = NULL;
    isr_runs = 0;
    isr_misses = 0;
    unsigned char *mine[4];
    for (int i = 0; i < 4; i++) { /* not an initializer: that would be a memset call */
        mine[i] = NULL;
    }
    for (uint32_t i = 0; i < 200; i++) {
        unsigned char **slot = &mine[i % 4u];
        stow_pool_free_isr(&pool_a, *slot);
        *slot = (unsigned char *)stow_pool_alloc_isr(&pool_a);
        CHECK_NOT_NULL(*slot);
        stow_test_fill(*slot, (unsigned char)i, 8);
        pend_isr(); /* taken at once: the handler runs between our calls */
        CHECK_EQ(isr_runs, i + 1u);
        CHECK((*slot)[7] == (unsigned char)i); /* the handler did not get our block */
        CHECK(stow_pool_check(&pool_a));
    }
    /* masked: the interrupt waits until the critical section ends */
    uint32_t state = stow_port_critical_enter();
    pend_isr();
    uint32_t runs_inside = isr_runs;
    stow_port_critical_exit(state);
    SYNC_ISR();
    CHECK_EQ(runs_inside, 200);
    CHECK_EQ(isr_runs, 201);
    /* and so does the pool's own lock: on one core it is the critical section */
    state = stow_pool_lock(&pool_a);
    pend_isr();
    runs_inside = isr_runs;
    stow_pool_unlock(&pool_a, state);
    SYNC_ISR();
    CHECK_EQ(runs_inside, 201);
    CHECK_EQ(isr_runs, 202);
    CHECK_EQ(isr_misses, 0);
    CHECK_EQ(stow_pool_used(&pool_a), 5); /* four of ours and the handler's one */
    CHECK(stow_pool_check(&pool_a));
    isr_pool = NULL;
}
#else
/* On the host the pool's lock is a spin lock on its word: two threads
 * hammer one pool through the _isr variants, each writing its own pattern into
 * the blocks it holds; a block handed to both would show. */
#define THREAD_ROUNDS 20000u

struct hammer {
    unsigned char tag;
    uint32_t nulls, clashes;
};

static atomic_uint hammers_ready;

static void *hammer_pool(void *arg)
{
    struct hammer *h = (struct hammer *)arg;
    /* both threads start together, so that their calls really overlap */
    atomic_fetch_add(&hammers_ready, 1u);
    while (atomic_load(&hammers_ready) < 2u) {
    }
    for (uint32_t round = 0; round < THREAD_ROUNDS; round++) {
        unsigned char *q[3];
        for (int i = 0; i < 3; i++) {
            q[i] = (unsigned char *)stow_pool_alloc_isr(&pool_c);
            if (q[i] == NULL) {
                h->nulls++;
            } else {
                stow_test_fill(q[i], h->tag, 16);
            }
        }
        for (int i = 2; i >= 0; i--) {
            if (q[i] != NULL) {
                for (int j = 0; j < 16; j++) {
                    h->clashes += q[i][j] != h->tag ? 1u : 0u;
                }
                stow_pool_free_isr(&pool_c, q[i]);
            }
        }
    }
    return NULL;
}

/* Deterministic half: another thread holds the critical section for 10 ms; an
 * _isr call made meanwhile must wait for it, so it sees the holder done. */
static atomic_uint holder_state; /* 0 starting, 1 holding, 2 about to release */

/* Holds the pool's own lock (what the _isr calls take) for 10 ms. */
static void *hold_critical_section(void *arg)
{
    uint32_t state = stow_pool_lock((stow_pool_t *)arg);
    atomic_store(&holder_state, 1u);
    uint32_t t0 = stow_port_cycles(); /* nanoseconds in the host port */
    while (stow_port_cycles() - t0 < 10000000u) {
    }
    atomic_store(&holder_state, 2u);
    stow_pool_unlock((stow_pool_t *)arg, state);
    return NULL;
}

TEST(pool_isr_variants_wait_for_the_pool_lock_held_elsewhere)
{
    fresh(&pool_c, PART(2), 16, 8, 6);
    void *x = NULL;
    for (int k = 0; k < 2; k++) {
        atomic_store(&holder_state, 0u);
        pthread_t thread;
        CHECK(pthread_create(&thread, NULL, hold_critical_section, &pool_c) == 0);
        while (atomic_load(&holder_state) == 0u) {
        }
        if (k == 0) {
            x = stow_pool_alloc_isr(&pool_c);
        } else {
            stow_pool_free_isr(&pool_c, x);
        }
        unsigned seen = atomic_load(&holder_state);
        CHECK(pthread_join(thread, NULL) == 0);
        CHECK_EQ(seen, 2);
    }
    CHECK_NOT_NULL(x);
    CHECK_EQ(stow_pool_used(&pool_c), 0);
    CHECK(stow_pool_check(&pool_c));
}

TEST(pool_isr_variants_exclude_each_other_across_threads)
{
    fresh(&pool_c, PART(2), 16, 8, 6);
    struct hammer one = {0x11u, 0u, 0u}, two = {0x22u, 0u, 0u};
    atomic_store(&hammers_ready, 0u);
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, hammer_pool, &two) == 0);
    hammer_pool(&one);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_EQ(one.nulls + two.nulls, 0); /* 6 blocks, at most 6 held */
    CHECK_EQ(one.clashes, 0);
    CHECK_EQ(two.clashes, 0);
    CHECK_EQ(stow_pool_used(&pool_c), 0);
    CHECK(stow_pool_check(&pool_c));
}
#endif

/* ---- check() ------------------------------------------------------------------ */

TEST(pool_check_finds_broken_invariants)
{
    fresh(&pool_a, PART(0), 16, 8, 6);
    unsigned char *x = (unsigned char *)stow_pool_alloc(&pool_a);
    unsigned char *y = (unsigned char *)stow_pool_alloc(&pool_a);
    unsigned char *z = (unsigned char *)stow_pool_alloc(&pool_a);
    stow_pool_free(&pool_a, x);
    stow_pool_free(&pool_a, y); /* list: y -> x */
    CHECK(stow_pool_check(&pool_a));
    stow_pool_t good;
    stow_test_copy(&good, &pool_a, sizeof pool_a);
    unsigned char *link = link_in(x);

    pool_a.free_count++;                             /* counts disagree */
    CHECK_FALSE(stow_pool_check(&pool_a));
    pool_a.free_count = good.free_count;
    forge_link(x, y);                /* a cycle */
    CHECK_FALSE(stow_pool_check(&pool_a));
    forge_link(x, y + 1);            /* interior link */
    CHECK_FALSE(stow_pool_check(&pool_a));
    forge_link(x, z + 16);           /* at the bump pointer: never handed out */
    CHECK_FALSE(stow_pool_check(&pool_a));
    forge_link(x, PART(1));          /* outside */
    CHECK_FALSE(stow_pool_check(&pool_a));
    forge_link(x, z);                /* a block in use */
    CHECK_FALSE(stow_pool_check(&pool_a));
    forge_link(x, link);
    CHECK(stow_pool_check(&pool_a));
    pool_a.free_list = z;                            /* a block in use on the list */
    CHECK_FALSE(stow_pool_check(&pool_a));
    pool_a.free_list = good.free_list;
    pool_a.bump += 1;                                /* bump off a block boundary */
    CHECK_FALSE(stow_pool_check(&pool_a));
    pool_a.bump = pool_a.end + 16;                   /* bump beyond the end */
    CHECK_FALSE(stow_pool_check(&pool_a));
    pool_a.bump = good.bump;
    pool_a.inverse += 2;
    CHECK_FALSE(stow_pool_check(&pool_a));
    pool_a.inverse = good.inverse;
    pool_a.shift++;
    CHECK_FALSE(stow_pool_check(&pool_a));
    pool_a.shift = good.shift;
    pool_a.stride += 8;
    CHECK_FALSE(stow_pool_check(&pool_a));
    pool_a.stride = good.stride;
    pool_a.end -= 16;
    CHECK_FALSE(stow_pool_check(&pool_a));
    pool_a.end = good.end;
    pool_a.base += 4;                                /* misaligned for the declared 8 */
    pool_a.end += 4;
    CHECK_FALSE(stow_pool_check(&pool_a));
    pool_a.base = good.base;
    pool_a.end = good.end;
    pool_a.capacity = 0;
    CHECK_FALSE(stow_pool_check(&pool_a));
    pool_a.capacity = good.capacity;
    pool_a.peak = 7;
    CHECK_FALSE(stow_pool_check(&pool_a));
    pool_a.peak = good.peak;
    pool_a.block_align = 24;
    CHECK_FALSE(stow_pool_check(&pool_a));
    pool_a.block_align = good.block_align;
#if STOW_CHECK_LEVEL >= 2
    uint32_t *map = (uint32_t *)(void *)pool_a.end;
    map[0] ^= 1u << 2;                               /* z's bit cleared */
    CHECK_FALSE(stow_pool_check(&pool_a));
    map[0] ^= 1u << 2;
    map[0] ^= 1u << 0;                               /* x's bit set though x is free */
    CHECK_FALSE(stow_pool_check(&pool_a));
    map[0] ^= 1u << 0;
    CHECK(stow_pool_check(&pool_a));
    stow_test_poke(x + 15, 0);                       /* a write after free */
    CHECK_FALSE(stow_pool_check(&pool_a));
    stow_test_poke(x + 15, 0xDD);
    CHECK(stow_pool_check(&pool_a));
    pool_a.poison_end = pool_a.end + 16;
    CHECK_FALSE(stow_pool_check(&pool_a));
    pool_a.poison_end = good.poison_end;
#endif
    CHECK_BYTES_EQ(&good, &pool_a, sizeof pool_a);
    CHECK(stow_pool_check(&pool_a));
}

/* ---- contract violations ------------------------------------------------------ */

#if STOW_CHECK_LEVEL >= 1
TEST(pool_violations_leave_the_pool_unchanged)
{
    const size_t stride = stride_of(12, 4);
    fresh(&pool_a, PART(0), 12, 4, 8);
    fresh(&pool_b, PART(1), 12, 4, 8);
    unsigned char *x = (unsigned char *)stow_pool_alloc(&pool_a);
    unsigned char *y = (unsigned char *)stow_pool_alloc(&pool_a);
    unsigned char *z = (unsigned char *)stow_pool_alloc(&pool_a);
    unsigned char *other = (unsigned char *)stow_pool_alloc(&pool_b);
    stow_pool_free(&pool_a, y);
    save(&pool_a, PART(0), PART_BYTES);
    unsigned char *end = PART(0) + 8 * stride;
    void *r = &r;
    stow_stats_t s;
    int local = 0;

    EXPECT_VIOLATION(CHECK_FALSE(stow_pool_init(NULL, PART(2), PART_BYTES, 8, 8, 4)));
    EXPECT_VIOLATION(CHECK_FALSE(stow_pool_init(&pool_a, PART(2), PART_BYTES, 8, 3, 4)));
    EXPECT_VIOLATION(CHECK_FALSE(stow_pool_init(&pool_a, PART(2), PART_BYTES, 8, 24, 4)));
    EXPECT_VIOLATION(r = stow_pool_alloc(NULL));
    CHECK_NULL(r);
    EXPECT_VIOLATION(r = stow_pool_alloc_isr(NULL));
    CHECK_NULL(r);
    r = &r;
    EXPECT_VIOLATION(r = stow_pool_alloc_checked(NULL, 4, 4));
    CHECK_NULL(r);
    r = &r;
    EXPECT_VIOLATION(r = stow_pool_alloc_checked(&pool_a, 13, 4));     /* larger than the block */
    CHECK_NULL(r);
    EXPECT_VIOLATION(r = STOW_POOL_NEW(&pool_a, struct msg));          /* 16 bytes in 12 */
    EXPECT_VIOLATION(r = STOW_POOL_NEW(&pool_a, struct aligned8));     /* alignment 8 in 4 */
    EXPECT_VIOLATION(r = stow_pool_alloc_checked(&pool_a, 4, 8));      /* alignment weaker than T's */
    EXPECT_VIOLATION(r = stow_pool_alloc_checked(&pool_a, 4, 0));      /* 0: the default alignment */
    EXPECT_VIOLATION(r = stow_pool_alloc_checked(&pool_a, 4, 3));      /* not a power of two */
    EXPECT_VIOLATION(r = stow_pool_alloc_checked(&pool_a, 4, 6));
    CHECK_NULL(r);
    EXPECT_VIOLATION(stow_pool_free(NULL, x));
    EXPECT_VIOLATION(stow_pool_free(NULL, NULL));
    EXPECT_VIOLATION(stow_pool_free(&pool_a, PART(0) - 1));           /* outside, below */
    EXPECT_VIOLATION(stow_pool_free(&pool_a, PART(0) - stride));
    EXPECT_VIOLATION(stow_pool_free(&pool_a, end));                    /* one past the end */
    EXPECT_VIOLATION(stow_pool_free(&pool_a, end + stride));
    EXPECT_VIOLATION(stow_pool_free(&pool_a, x + 1));                  /* interior, misaligned */
    EXPECT_VIOLATION(stow_pool_free(&pool_a, x + 4));                  /* interior, aligned */
    EXPECT_VIOLATION(stow_pool_free(&pool_a, x + stride - 1));
    EXPECT_VIOLATION(stow_pool_free(&pool_a, z + 2));
    EXPECT_VIOLATION(stow_pool_free(&pool_a, z + stride));             /* never handed out */
    EXPECT_VIOLATION(stow_pool_free(&pool_a, end - stride));
    EXPECT_VIOLATION(stow_pool_free(&pool_a, other));                  /* another pool's */
    EXPECT_VIOLATION(stow_pool_free(&pool_a, &local));                 /* the stack */
    EXPECT_VIOLATION(stow_pool_free(&pool_a, &pool_a));
    EXPECT_VIOLATION(stow_pool_free(&pool_a, (void *)(uintptr_t)stride));
    EXPECT_VIOLATION(stow_pool_free(&pool_a, (void *)UINTPTR_MAX));
    EXPECT_VIOLATION(stow_pool_free_isr(NULL, x));
    EXPECT_VIOLATION(stow_pool_free_isr(&pool_a, x + 1));
    EXPECT_VIOLATION(stow_pool_free_isr(&pool_a, other));
    EXPECT_VIOLATION(CHECK_FALSE(stow_pool_owns(NULL, x)));
    EXPECT_VIOLATION(stow_pool_reset(NULL));
    EXPECT_VIOLATION(CHECK_EQ(stow_pool_capacity(NULL), 0));
    EXPECT_VIOLATION(CHECK_EQ(stow_pool_used(NULL), 0));
    EXPECT_VIOLATION(stow_pool_stats(NULL, &s));
    EXPECT_VIOLATION(stow_pool_stats(&pool_a, NULL));
    EXPECT_VIOLATION(CHECK_FALSE(stow_pool_check(NULL)));
    (void)local;

    CHECK_CALL(check_unchanged(&pool_a, PART(0), PART_BYTES));
    CHECK(stow_pool_check(&pool_a));
    CHECK(stow_pool_check(&pool_b));
    /* and the pool still works as before */
    CHECK_PTR_EQ(stow_pool_alloc(&pool_a), y);
    stow_pool_free(&pool_a, x);
    stow_pool_free(&pool_a, z);
    CHECK(stow_pool_check(&pool_a));
}

/* What reaches the assert hook: the public function's name and the misuse in
 * words a user can act on ("" with STOW_ASSERT_TEXT 0). */
TEST(pool_violations_name_the_call_and_the_misuse)
{
    fresh(&pool_a, PART(0), 12, 4, 8);
    fresh(&pool_b, PART(1), 12, 4, 8);
    unsigned char *x = (unsigned char *)stow_pool_alloc(&pool_a);
    unsigned char *other = (unsigned char *)stow_pool_alloc(&pool_b);
    void *r = &r;
    stow_stats_t s;
    EXPECT_VIOLATION_TEXT(CHECK_FALSE(stow_pool_init(NULL, PART(2), PART_BYTES, 8, 8, 4)),
                          "stow_pool_init: pool is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_FALSE(stow_pool_init(&pool_c, PART(2), PART_BYTES, 8, 3, 4)),
                          "stow_pool_init: alignment is not a power of two");
    EXPECT_VIOLATION_TEXT(r = stow_pool_alloc(NULL), "stow_pool_alloc: pool is NULL");
    EXPECT_VIOLATION_TEXT(r = stow_pool_alloc_isr(NULL), "stow_pool_alloc: pool is NULL");
    EXPECT_VIOLATION_TEXT(r = stow_pool_alloc_checked(NULL, 4, 4),
                          "stow_pool_alloc_checked: pool is NULL");
    EXPECT_VIOLATION_TEXT(r = stow_pool_alloc_checked(&pool_a, 13, 4),
                          "stow_pool_alloc_checked: the object is larger than the pool's blocks");
    EXPECT_VIOLATION_TEXT(r = stow_pool_alloc_checked(&pool_a, 4, 3),
                          "stow_pool_alloc_checked: alignment is not a power of two");
    EXPECT_VIOLATION_TEXT(r = stow_pool_alloc_checked(&pool_a, 4, 8),
                          "stow_pool_alloc_checked: the object is more strictly aligned than "
                          "the pool's blocks");
    CHECK_NULL(r);
    EXPECT_VIOLATION_TEXT(stow_pool_free(NULL, x), "stow_pool_free: pool is NULL");
    EXPECT_VIOLATION_TEXT(stow_pool_free(&pool_a, other),
                          "stow_pool_free: pointer is not a block of this pool");
    EXPECT_VIOLATION_TEXT(stow_pool_free(&pool_a, x + 1),
                          "stow_pool_free: pointer is not a block of this pool");
    EXPECT_VIOLATION_TEXT(stow_pool_free(&pool_a, x + stride_of(12, 4)),
                          "stow_pool_free: block was not handed out since init or the last reset");
    EXPECT_VIOLATION_TEXT(CHECK_FALSE(stow_pool_owns(NULL, x)), "stow_pool_owns: pool is NULL");
    EXPECT_VIOLATION_TEXT(stow_pool_reset(NULL), "stow_pool_reset: pool is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_EQ(stow_pool_capacity(NULL), 0),
                          "stow_pool_capacity: pool is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_EQ(stow_pool_used(NULL), 0), "stow_pool_used: pool is NULL");
    EXPECT_VIOLATION_TEXT(stow_pool_stats(NULL, &s), "stow_pool_stats: pool is NULL");
    EXPECT_VIOLATION_TEXT(stow_pool_stats(&pool_a, NULL), "stow_pool_stats: out is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_FALSE(stow_pool_check(NULL)), "stow_pool_check: pool is NULL");
#if STOW_CHECK_LEVEL >= 2
    stow_pool_free(&pool_a, x);
    EXPECT_VIOLATION_TEXT(stow_pool_free(&pool_a, x), "stow_pool_free: double free");
#endif
    CHECK(stow_pool_check(&pool_a));
}

/* The division-free block-start test, byte by byte: for strides with odd factors
 * 1, 3, 5 and 25 (13 on 64-bit hosts), free() accepts exactly the starts of the
 * blocks handed out, and owns() exactly the bytes of the blocks, for every
 * address from 64 bytes below the pool to 64 bytes beyond it. */
TEST(pool_free_accepts_exactly_the_block_starts)
{
    const size_t sizes[] = {16, 20, 3 * sizeof(void *), 100};
    const size_t aligns[] = {16, 4, sizeof(void *), 1};
    for (size_t k = 0; k < 4; k++) {
        const uint32_t cap = 5;
        size_t stride = stride_of(sizes[k], aligns[k]);
        unsigned char *base = PART(0);
        fresh(&pool_a, base, sizes[k], aligns[k], cap);
        for (uint32_t i = 0; i < cap - 1u; i++) { /* the last block stays never-used */
            CHECK_PTR_EQ(stow_pool_alloc(&pool_a), base + i * stride);
        }
        size_t span = cap * stride;
        for (size_t at = 0; at < span + 128u; at++) {
            unsigned char *q = base - 64 + at;
            bool inside = at >= 64u && at < 64u + span;
            CHECK_EQ(stow_pool_owns(&pool_a, q), inside);
            if (inside && (at - 64u) % stride == 0u && at - 64u < (cap - 1u) * stride) {
                stow_pool_free(&pool_a, q);
                CHECK_PTR_EQ(stow_pool_alloc(&pool_a), q);
            } else {
                EXPECT_VIOLATION(stow_pool_free(&pool_a, q));
            }
        }
        CHECK_EQ(stow_pool_used(&pool_a), cap - 1u);
        CHECK(stow_pool_check(&pool_a));
    }
}

TEST(pool_free_after_reset_of_a_block_not_handed_out_again)
{
    fresh(&pool_a, PART(0), 8, 8, 4);
    void *x = stow_pool_alloc(&pool_a);
    void *y = stow_pool_alloc(&pool_a);
    stow_pool_reset(&pool_a);
    void *again = stow_pool_alloc(&pool_a);
    CHECK_PTR_EQ(again, x);
    save(&pool_a, PART(0), PART_BYTES);
    EXPECT_VIOLATION(stow_pool_free(&pool_a, y)); /* from before the reset, beyond bump now */
    CHECK_CALL(check_unchanged(&pool_a, PART(0), PART_BYTES));
    stow_pool_free(&pool_a, again);
    CHECK(stow_pool_check(&pool_a));
}
#endif

#if STOW_CHECK_LEVEL >= 2
TEST(pool_level2_catches_double_free)
{
    fresh(&pool_a, PART(0), 8, 8, 4);
    void *x = stow_pool_alloc(&pool_a), *y = stow_pool_alloc(&pool_a);
    stow_pool_free(&pool_a, x);
    save(&pool_a, PART(0), PART_BYTES);
    EXPECT_VIOLATION(stow_pool_free(&pool_a, x));
    EXPECT_VIOLATION(stow_pool_free_isr(&pool_a, x));
    CHECK_CALL(check_unchanged(&pool_a, PART(0), PART_BYTES));
    stow_pool_free(&pool_a, y);
    /* x is now second on the list, not the head: still caught */
    save(&pool_a, PART(0), PART_BYTES);
    EXPECT_VIOLATION(stow_pool_free(&pool_a, x));
    EXPECT_VIOLATION(stow_pool_free(&pool_a, y));
    CHECK_CALL(check_unchanged(&pool_a, PART(0), PART_BYTES));
    CHECK(stow_pool_check(&pool_a));
    /* after it is handed out again, one free is right again */
    CHECK_PTR_EQ(stow_pool_alloc(&pool_a), y);
    stow_pool_free(&pool_a, y);
    CHECK(stow_pool_check(&pool_a));
}

TEST(pool_level2_poisons_and_reports_writes_after_free)
{
    const size_t stride = stride_of(20, 4);
    fresh(&pool_a, PART(0), 20, 4, 4);
    unsigned char *x = (unsigned char *)stow_pool_alloc(&pool_a);
    unsigned char *y = (unsigned char *)stow_pool_alloc(&pool_a);
    stow_test_fill(x, 0x42u, 20);
    stow_pool_free(&pool_a, x);
    for (size_t i = sizeof(void *); i < stride; i++) { /* all but the link */
        CHECK_EQ(stow_test_peek(x + i), 0xDD);
    }
    /* a clean reuse reports nothing */
    uint32_t seen = stow_test_violations();
    CHECK_PTR_EQ(stow_pool_alloc(&pool_a), x);
    CHECK_EQ(stow_test_violations(), seen);
    stow_pool_free(&pool_a, x);
    stow_test_poke(x + stride - 1u, 1); /* a write through a stale pointer, padding included */
    CHECK_FALSE(stow_pool_check(&pool_a));
    unsigned char *q = NULL;
    EXPECT_VIOLATION(q = (unsigned char *)stow_pool_alloc(&pool_a));
    CHECK_PTR_EQ(q, x); /* reported, and handed out all the same */
    CHECK(stow_pool_check(&pool_a));
    stow_pool_free(&pool_a, y);
    stow_test_poke(y + sizeof(void *), 0);
    EXPECT_VIOLATION(q = (unsigned char *)stow_pool_alloc_isr(&pool_a));
    CHECK_PTR_EQ(q, y);
    CHECK(stow_pool_check(&pool_a));
}

TEST(pool_level2_reports_writes_after_reset)
{
    fresh(&pool_a, PART(0), 8, 8, 4);
    unsigned char *x = (unsigned char *)stow_pool_alloc(&pool_a);
    unsigned char *y = (unsigned char *)stow_pool_alloc(&pool_a);
    stow_pool_reset(&pool_a);
    CHECK(stow_pool_check(&pool_a));
    stow_test_poke(y, 7); /* through a pointer from before the reset */
    CHECK_FALSE(stow_pool_check(&pool_a));
    uint32_t seen = stow_test_violations();
    CHECK_PTR_EQ(stow_pool_alloc(&pool_a), x); /* untouched: quiet */
    CHECK_EQ(stow_test_violations(), seen);
    unsigned char *q = NULL;
    EXPECT_VIOLATION(q = (unsigned char *)stow_pool_alloc(&pool_a));
    CHECK_PTR_EQ(q, y);
    CHECK(stow_pool_check(&pool_a));
    /* beyond what was ever poisoned, never-used blocks are not checked */
    seen = stow_test_violations();
    CHECK_NOT_NULL(stow_pool_alloc(&pool_a));
    CHECK_EQ(stow_test_violations(), seen);
}

TEST(pool_level2_validates_links_before_following_them)
{
    const size_t stride = stride_of(16, 8);
    unsigned char *bad_links[7];
    fresh(&pool_a, PART(0), 16, 8, 8);
    unsigned char *base = PART(0);
    bad_links[0] = base + 1;              /* interior, misaligned */
    bad_links[1] = base + stride + 8;     /* interior, aligned */
    bad_links[2] = base + 6 * stride;     /* never handed out */
    bad_links[3] = PART(1);               /* outside */
    bad_links[4] = base + 2 * stride;     /* a block in use */
    bad_links[5] = base + 3 * stride;     /* itself */
    bad_links[6] = base - stride;         /* below */
    for (int k = 0; k < 7; k++) {
        fresh(&pool_a, PART(0), 16, 8, 8);
        unsigned char *q[4];
        for (int i = 0; i < 4; i++) {
            q[i] = (unsigned char *)stow_pool_alloc(&pool_a);
        }
        stow_pool_free(&pool_a, q[0]);
        stow_pool_free(&pool_a, q[1]);
        stow_pool_free(&pool_a, q[3]); /* list: q3 -> q1 -> q0; q2 in use */
        forge_link(q[3], bad_links[k]);
        CHECK_FALSE(stow_pool_check(&pool_a));
        unsigned char *got = NULL;
        EXPECT_VIOLATION(got = (unsigned char *)stow_pool_alloc(&pool_a));
        CHECK_PTR_EQ(got, q[3]); /* the head itself is fine */
        /* the bad link was not followed: the list was dropped, the next block
         * comes from the bump pointer, and q1, q0 are lost until reset */
        CHECK_PTR_EQ(stow_pool_alloc(&pool_a), base + 4 * stride);
        CHECK_EQ(stow_pool_used(&pool_a), 5); /* the two lost count as in use */
        CHECK_FALSE(stow_pool_check(&pool_a));
        stow_pool_reset(&pool_a);
        CHECK(stow_pool_check(&pool_a));
    }
    /* a link that makes a cycle is refused where it closes */
    fresh(&pool_a, PART(0), 16, 8, 8);
    unsigned char *a = (unsigned char *)stow_pool_alloc(&pool_a);
    unsigned char *b = (unsigned char *)stow_pool_alloc(&pool_a);
    stow_pool_free(&pool_a, a);
    stow_pool_free(&pool_a, b); /* b -> a */
    forge_link(a, b);
    CHECK_PTR_EQ(stow_pool_alloc(&pool_a), b);
    unsigned char *got = NULL;
    EXPECT_VIOLATION(got = (unsigned char *)stow_pool_alloc(&pool_a));
    CHECK_PTR_EQ(got, a);
    CHECK_PTR_EQ(stow_pool_alloc(&pool_a), base + 2 * stride); /* not b a second time */
    CHECK(stow_pool_check(&pool_a));
}
#endif

#if STOW_CHECK_LEVEL >= 2
/* A stale `node->next = NULL` through a pointer to a freed block: the list's end
 * is known from the count of free blocks, so a NULL link while blocks remain is
 * reported like any other bad link and not taken for the end of the list (which
 * would lose the rest of the list unseen and leave the pool refusing
 * allocations while used() says blocks are free). And the other way round: a
 * link that is not NULL in the last free block. */
TEST(pool_level2_reports_a_stale_null_link)
{
    const size_t stride = stride_of(16, 8);
    unsigned char *base = PART(0);
    fresh(&pool_a, base, 16, 8, 6);
    unsigned char *q[4];
    for (int i = 0; i < 4; i++) {
        q[i] = (unsigned char *)stow_pool_alloc(&pool_a);
    }
    stow_pool_free(&pool_a, q[0]);
    stow_pool_free(&pool_a, q[1]);
    stow_pool_free(&pool_a, q[3]); /* list: q3 -> q1 -> q0 */
    forge_link(q[3], NULL);        /* the stale write */
    CHECK_FALSE(stow_pool_check(&pool_a));
    unsigned char *got = NULL;
    EXPECT_VIOLATION_TEXT(got = (unsigned char *)stow_pool_alloc(&pool_a),
                          "stow_pool_alloc: the free list was corrupted (a free block's link "
                          "was overwritten)");
    CHECK_PTR_EQ(got, q[3]);
    /* as for every bad link: q1 and q0 are dropped and count as in use until
     * reset, and the pool goes on from the bump pointer, in agreement with used() */
    CHECK_EQ(stow_pool_used(&pool_a), 4);
    CHECK_PTR_EQ(stow_pool_alloc(&pool_a), base + 4 * stride);
    CHECK_PTR_EQ(stow_pool_alloc(&pool_a), base + 5 * stride);
    CHECK_NULL(stow_pool_alloc(&pool_a));
    CHECK_EQ(stow_pool_used(&pool_a), 6);
    CHECK_FALSE(stow_pool_check(&pool_a));
    stow_pool_reset(&pool_a);
    CHECK(stow_pool_check(&pool_a));

    /* the last free block's link must be NULL: a block address there is refused
     * too, even one that names a block whose bit says free */
    fresh(&pool_a, base, 16, 8, 6);
    for (int i = 0; i < 3; i++) {
        q[i] = (unsigned char *)stow_pool_alloc(&pool_a);
    }
    stow_pool_free(&pool_a, q[0]);
    stow_pool_free(&pool_a, q[1]); /* list: q1 -> q0 */
    forge_link(q[1], NULL);        /* q0 dropped... */
    EXPECT_VIOLATION(got = (unsigned char *)stow_pool_alloc(&pool_a));
    CHECK_PTR_EQ(got, q[1]);
    stow_pool_free(&pool_a, q[2]); /* list: q2, alone, link NULL */
    forge_link(q[2], q[0]);        /* ...and named by a stale write: its bit is clear */
    EXPECT_VIOLATION(got = (unsigned char *)stow_pool_alloc(&pool_a));
    CHECK_PTR_EQ(got, q[2]);
    CHECK_PTR_EQ(stow_pool_alloc(&pool_a), base + 3 * stride); /* not q0 */
    stow_pool_reset(&pool_a);
    CHECK(stow_pool_check(&pool_a));
}
#endif

/* ---- random walk -------------------------------------------------------------- */

/* Three pools of different shapes, driven at random through every entry point;
 * a model keeps which blocks are live and what was written into each. After
 * every step: check() on all three, used matches, and a new block overlaps no
 * live block of any pool; a block's bytes are verified when it is freed and, for
 * all live blocks, every 256 steps. */
#define WALK_POOLS 3
#define WALK_MAX_LIVE 16

struct walk_pool {
    stow_pool_t *pool;
    unsigned char *buf;
    size_t size, align;
    uint32_t capacity;
    unsigned char *live[WALK_MAX_LIVE];
    unsigned char tag[WALK_MAX_LIVE];
    uint32_t nlive, peak, fails;
};

static bool contents_intact(const unsigned char *q, size_t size, unsigned char tag)
{
    for (size_t j = 0; j < size; j++) {
        if (q[j] != (unsigned char)(tag + j)) {
            return false;
        }
    }
    return true;
}

static void walk_verify_all(const struct walk_pool *w)
{
    for (int k = 0; k < WALK_POOLS; k++) {
        for (uint32_t i = 0; i < w[k].nlive; i++) {
            CHECK(contents_intact(w[k].live[i], w[k].size, w[k].tag[i]));
        }
    }
}

static void walk_alloc(struct walk_pool *w, int k, uint32_t step)
{
    struct walk_pool *m = &w[k];
    unsigned char *q;
    switch (stow_test_rand_below(3)) {
    case 0: q = (unsigned char *)stow_pool_alloc(m->pool); break;
    case 1: q = (unsigned char *)stow_pool_alloc_isr(m->pool); break;
    default: q = (unsigned char *)stow_pool_alloc_checked(m->pool, m->size, m->align); break;
    }
    if (m->nlive == m->capacity) {
        CHECK_NULL(q);
        m->fails++;
        return;
    }
    CHECK_NOT_NULL(q);
    CHECK_EQ((uintptr_t)q % STOW_POOL_BLOCK_ALIGN(m->align), 0);
    CHECK(is_block_start(q, m->buf, stride_of(m->size, m->align), m->capacity));
    CHECK(stow_pool_owns(m->pool, q));
    for (int j = 0; j < WALK_POOLS; j++) {
        for (uint32_t i = 0; i < w[j].nlive; i++) {
            const unsigned char *o = w[j].live[i];
            CHECK(q + m->size <= o || o + w[j].size <= q);
        }
    }
    unsigned char tag = (unsigned char)(step * 7u);
    for (size_t j = 0; j < m->size; j++) {
        q[j] = (unsigned char)(tag + j);
    }
    m->live[m->nlive] = q;
    m->tag[m->nlive] = tag;
    m->nlive++;
    m->peak = m->nlive > m->peak ? m->nlive : m->peak;
}

static void walk_free(struct walk_pool *m)
{
    if (m->nlive == 0) {
        stow_pool_free(m->pool, NULL);
        return;
    }
    uint32_t i = stow_test_rand_below(m->nlive);
    CHECK(contents_intact(m->live[i], m->size, m->tag[i]));
    if (stow_test_rand_below(2) == 0) {
        stow_pool_free(m->pool, m->live[i]);
    } else {
        stow_pool_free_isr(m->pool, m->live[i]);
    }
    m->nlive--;
    m->live[i] = m->live[m->nlive];
    m->tag[i] = m->tag[m->nlive];
}

TEST(pool_random_operations_match_a_model)
{
    static struct walk_pool w[WALK_POOLS];
    static const size_t sizes[WALK_POOLS] = {1, 24, 40};
    static const size_t aligns[WALK_POOLS] = {1, 8, 32};
    static const uint32_t caps[WALK_POOLS] = {16, 8, 3};
    static stow_pool_t *const pools[WALK_POOLS] = {&pool_a, &pool_b, &pool_c};
    for (int k = 0; k < WALK_POOLS; k++) {
        w[k].pool = pools[k];
        w[k].buf = PART(k);
        w[k].size = sizes[k];
        w[k].align = aligns[k];
        w[k].capacity = caps[k];
        w[k].nlive = w[k].peak = w[k].fails = 0;
        CHECK_LE(STOW_POOL_BYTES(sizes[k], aligns[k], caps[k]), PART_BYTES);
        CHECK_CALL(fresh(pools[k], PART(k), sizes[k], aligns[k], caps[k]));
    }
    stow_test_seed(0x900Du);
    uint32_t steps = STOW_TEST_SCALED(100000);
    for (uint32_t step = 0; step < steps; step++) {
        int k = (int)stow_test_rand_below(WALK_POOLS);
        struct walk_pool *m = &w[k];
        uint32_t op = stow_test_rand_below(1000);
        if (op < 520) {
            CHECK_CALL(walk_alloc(w, k, step));
        } else if (op < 990) {
            CHECK_CALL(walk_free(m));
        } else if (op < 993) {
            for (uint32_t i = 0; i < m->nlive; i++) {
                CHECK(contents_intact(m->live[i], m->size, m->tag[i]));
            }
            stow_pool_reset(m->pool);
            m->nlive = 0;
        } else {
            stow_stats_t s = stats_of(m->pool);
            CHECK(s.capacity == m->capacity && s.used == m->nlive && s.peak == m->peak &&
                  s.fails == m->fails);
        }
        for (int j = 0; j < WALK_POOLS; j++) {
            CHECK(stow_pool_check(w[j].pool));
            CHECK_EQ(stow_pool_used(w[j].pool), w[j].nlive);
        }
        if (step % 256u == 255u) {
            CHECK_CALL(walk_verify_all(w));
        }
    }
    CHECK_CALL(walk_verify_all(w));
    for (int k = 0; k < WALK_POOLS; k++) {
        stow_stats_t s = stats_of(w[k].pool);
        CHECK(s.capacity == w[k].capacity && s.used == w[k].nlive && s.peak == w[k].peak &&
              s.fails == w[k].fails);
        CHECK_EQ(s.peak, w[k].capacity); /* the walk did fill each pool */
        CHECK_LT(0, s.fails);
    }
}

void stow_test_suite_pool(void)
{
    RUN(pool_defined_is_ready_without_init);
    RUN(pool_defined_matches_init);
    RUN(pool_defined_storage_is_aligned_and_placed);
    RUN(pool_bytes_is_blocks_rounded_to_pointers_and_nothing_more);
    RUN(pool_init_refuses_bad_buffers_and_changes_nothing);
    RUN(pool_blocks_smaller_than_a_pointer);
    RUN(pool_every_alignment_from_1_to_64);
    RUN(pool_capacity_one);
    RUN(pool_large_capacity);
    RUN(pool_free_null_is_ignored);
    RUN(pool_reuses_the_last_freed_block_first);
    RUN(pool_owns_pointers_into_its_blocks_only);
    RUN(pool_reset_frees_everything_in_o1_and_keeps_stats);
    RUN(pool_stats_count_used_peak_and_fails);
    RUN(pool_new_returns_typed_blocks);
    RUN(pool_isr_variants_match_alloc_and_free_and_nest);
#if defined(STOW_TEST_TARGET)
    RUN(pool_shared_with_an_interrupt_handler);
#else
    RUN(pool_isr_variants_wait_for_the_pool_lock_held_elsewhere);
    RUN(pool_isr_variants_exclude_each_other_across_threads);
#endif
    RUN(pool_check_finds_broken_invariants);
#if STOW_CHECK_LEVEL >= 1
    RUN(pool_violations_leave_the_pool_unchanged);
    RUN(pool_violations_name_the_call_and_the_misuse);
    RUN(pool_free_accepts_exactly_the_block_starts);
    RUN(pool_free_after_reset_of_a_block_not_handed_out_again);
#endif
#if STOW_CHECK_LEVEL >= 2
    RUN(pool_level2_catches_double_free);
    RUN(pool_level2_poisons_and_reports_writes_after_free);
    RUN(pool_level2_reports_writes_after_reset);
    RUN(pool_level2_validates_links_before_following_them);
    RUN(pool_level2_reports_a_stale_null_link);
#endif
    RUN(pool_random_operations_match_a_model);
}
