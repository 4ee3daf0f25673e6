/* SPDX-License-Identifier: MIT */
/* test_genpool.c - every clause of stow/genpool.h, on the host and on every board.
 *
 * Generation overflow is tested for real: with the default 16 index bits a slot is
 * cycled through all 65535 generations; the extra host builds with
 * STOW_HANDLE_INDEX_BITS=28 (15 generations) run the same tests in STOW_GEN_WRAP
 * and STOW_GEN_RETIRE mode, where the random walk meets overflow all the time. */
#include "harness.h"

#define MAX_GEN STOW_HANDLE_MAX_GENERATION
#define RETIRE_MODE (STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE)

/* The generation a slot hands out after gen: 0 when the slot retires instead. */
static uint32_t gen_after(uint32_t gen)
{
    if (gen < MAX_GEN) {
        return gen + 1u;
    }
    return RETIRE_MODE ? 0u : 1u;
}

struct enemy {
    int32_t health;
    int16_t x, y;
};

struct missile {
    int32_t damage;
    stow_handle_t target;
};

/* One buffer for every pool made with init(), and room to snapshot it. */
#define GP_BUF_BYTES 768u
static STOW_ALIGNAS(16) unsigned char gp_buf[GP_BUF_BYTES];
static stow_genpool_t gp;

static struct {
    stow_genpool_t pool;
    unsigned char buf[GP_BUF_BYTES];
} snap;

static void take_snapshot(const stow_genpool_t *g)
{
    stow_test_copy(&snap.pool, g, sizeof *g);
    stow_test_copy(snap.buf, gp_buf, GP_BUF_BYTES);
}

static bool same_as_snapshot(const stow_genpool_t *g)
{
    return stow_test_first_difference(&snap.pool, g, sizeof *g) == sizeof *g &&
           stow_test_first_difference(snap.buf, gp_buf, GP_BUF_BYTES) == GP_BUF_BYTES;
}

/* A pool over gp_buf, which first gets a fill that is not zero (storage is never
 * assumed zeroed). */
static void fresh(size_t item_size, size_t item_align, uint32_t capacity)
{
    stow_test_fill(gp_buf, 0xA5u, GP_BUF_BYTES);
    CHECK_LE(STOW_GENPOOL_BYTES(item_size, item_align, capacity), GP_BUF_BYTES);
    CHECK(stow_genpool_init(&gp, gp_buf, GP_BUF_BYTES, item_size, item_align, capacity));
    CHECK(stow_genpool_check(&gp));
}

static uint32_t fails_of(const stow_genpool_t *g)
{
    stow_stats_t s;
    stow_genpool_stats(g, &s);
    return s.fails;
}

static stow_handle_t make(uint32_t index, uint32_t gen) { return stow_handle_make(index, gen); }

static void put_u32(stow_genpool_t *g, uint32_t value, stow_handle_t *out)
{
    *out = stow_genpool_insert(g, &value);
    CHECK(!stow_handle_is_null(*out));
}

static uint32_t u32_at(const stow_genpool_t *g, stow_handle_t h)
{
    const uint32_t *p = (const uint32_t *)stow_genpool_get(g, h);
    return p != NULL ? *p : 0xFFFFFFFFu;
}

/* ---------------------------------------------------------------- definition */

#define DEFINED_CAP 8u
STOW_GENPOOL_DEFINE(test_genpool_defined, struct enemy, DEFINED_CAP);
STOW_GENPOOL_DEFINE_STATIC(test_genpool_chars, char, 5);

/* Runs first: the defined pool has never been touched. Its storage is made to
 * look live (every word a plausible handle, every bitmap bit set), as garbage RAM
 * could, and nothing of it may be believed. */
TEST(genpool_defined_is_ready_without_init)
{
    uint32_t *words = (uint32_t *)test_genpool_defined.words;
    uint32_t *bits = (uint32_t *)test_genpool_defined.bits;
    for (uint32_t i = 0; i < DEFINED_CAP; i++) {
        words[i] = stow_handle_make(i, 1u).bits;
    }
    bits[0] = 0xFFFFFFFFu;
    CHECK(stow_genpool_check(&test_genpool_defined));
    CHECK_EQ(stow_genpool_capacity(&test_genpool_defined), DEFINED_CAP);
    CHECK_EQ(stow_genpool_count(&test_genpool_defined), 0);
    CHECK(stow_handle_is_null(stow_genpool_first(&test_genpool_defined)));
    for (uint32_t i = 0; i < DEFINED_CAP; i++) {
        CHECK_NULL(stow_genpool_get(&test_genpool_defined, make(i, 1u)));
        CHECK_FALSE(stow_genpool_contains(&test_genpool_defined, make(i, 1u)));
        CHECK_FALSE(stow_genpool_remove(&test_genpool_defined, make(i, 1u)));
    }
    stow_handle_t h[DEFINED_CAP];
    for (uint32_t i = 0; i < DEFINED_CAP; i++) {
        struct enemy e = {(int32_t)(100 + i), (int16_t)i, (int16_t)-1};
        h[i] = stow_genpool_insert(&test_genpool_defined, &e);
        CHECK_EQ(stow_handle_index(h[i]), i);
        CHECK_EQ(stow_handle_generation(h[i]), 1);
        CHECK(stow_genpool_check(&test_genpool_defined));
    }
    for (uint32_t i = 0; i < DEFINED_CAP; i++) {
        struct enemy *e = (struct enemy *)stow_genpool_get(&test_genpool_defined, h[i]);
        CHECK_NOT_NULL(e);
        CHECK_EQ(e->health, 100 + i);
        CHECK_EQ((uintptr_t)e % STOW_ALIGNOF(struct enemy), 0);
#if defined(STOW_TEST_TARGET) && STOW_SECTIONS
        extern unsigned char __stow_start[], __stow_end[];
        CHECK((unsigned char *)e >= __stow_start && (unsigned char *)e < __stow_end);
#endif
    }
    struct enemy extra = {0, 0, 0};
    CHECK(stow_handle_is_null(stow_genpool_insert(&test_genpool_defined, &extra)));
    CHECK_EQ(fails_of(&test_genpool_defined), 1);
    stow_genpool_clear(&test_genpool_defined);
    CHECK(stow_genpool_check(&test_genpool_defined));
}

TEST(genpool_define_static_sizes_its_storage)
{
    /* 5 one-byte items, 3 bytes of padding, 5 words, one bitmap word */
    CHECK_EQ(STOW_GENPOOL_BYTES(1, 1, 5), 5 + 3 + 5 * 4 + 4);
    CHECK_EQ(sizeof stow__genpool_buf_test_genpool_chars, STOW_GENPOOL_BYTES(1, 1, 5));
    CHECK_EQ(sizeof stow__genpool_buf_test_genpool_defined,
             STOW_GENPOOL_BYTES(sizeof(struct enemy), STOW_ALIGNOF(struct enemy), DEFINED_CAP));
    CHECK_EQ(STOW_GENPOOL_BYTES(8, 4, 33), 8 * 33 + 4 * 33 + 2 * 4);
    CHECK_EQ(STOW_GENPOOL_BYTES(3, 2, 4), 16 + 16 + 4); /* items 4 bytes apart */
    CHECK_EQ(STOW_GENPOOL_BUF_ALIGN(1), STOW_ALIGNOF(uint32_t));
    CHECK_EQ(STOW_GENPOOL_BUF_ALIGN(16), 16);
    CHECK_EQ(STOW_GENPOOL_BUF_ALIGN(0), STOW_DEFAULT_ALIGN > 4 ? STOW_DEFAULT_ALIGN : 4);
    CHECK_EQ((uintptr_t)stow__genpool_buf_test_genpool_chars % 4, 0);
    stow_handle_t h[5];
    for (char c = 0; c < 5; c++) {
        char v = (char)('a' + c);
        h[(int)c] = stow_genpool_insert(&test_genpool_chars, &v);
    }
    for (int i = 0; i < 5; i++) {
        char *p = (char *)stow_genpool_get(&test_genpool_chars, h[i]);
        CHECK_NOT_NULL(p);
        CHECK_EQ(*p, 'a' + i);
        CHECK_PTR_EQ(p, stow__genpool_buf_test_genpool_chars + i);
        CHECK(stow_handle_eq(stow_genpool_handle_of(&test_genpool_chars, p), h[i]));
    }
    CHECK(stow_genpool_check(&test_genpool_chars));
}

TEST(genpool_init_refuses_bad_buffers_and_changes_nothing)
{
    stow_test_fill(gp_buf, 0x5Au, GP_BUF_BYTES);
    size_t need = STOW_GENPOOL_BYTES(8, 4, 10);
    CHECK(stow_genpool_init(&gp, gp_buf, need, 8, 4, 10)); /* exactly enough */
    for (size_t k = 0; k < GP_BUF_BYTES; k++) {
        CHECK_EQ(gp_buf[k], 0x5A); /* init reads and writes none of the buffer */
    }
    CHECK(stow_genpool_check(&gp));
    take_snapshot(&gp);
    CHECK_FALSE(stow_genpool_init(&gp, NULL, need, 8, 4, 10));
    CHECK_FALSE(stow_genpool_init(&gp, gp_buf, need - 1, 8, 4, 10));
    CHECK_FALSE(stow_genpool_init(&gp, gp_buf + 2, need, 8, 4, 10)); /* misaligned */
    CHECK_FALSE(stow_genpool_init(&gp, gp_buf + 4, GP_BUF_BYTES - 4, 8, 8, 10)); /* items need 8 */
    CHECK_FALSE(stow_genpool_init(&gp, gp_buf + 1, GP_BUF_BYTES - 1, 1, 1, 10)); /* words need 4 */
    CHECK_FALSE(stow_genpool_init(&gp, gp_buf, need, 8, 4, 0));
    CHECK_FALSE(stow_genpool_init(&gp, gp_buf, need, 0, 4, 10));
    /* Beyond the handle's index range: refused, whatever the buffer claims (init
     * touches no byte of it, so a claim this large is safe to test). */
    CHECK_FALSE(stow_genpool_init(&gp, gp_buf, SIZE_MAX, 1, 1, STOW_HANDLE_MAX_CAPACITY + 1u));
    /* item_size rounded up to the alignment overflows; items of 4 GiB or more */
    CHECK_FALSE(stow_genpool_init(&gp, gp_buf, SIZE_MAX, SIZE_MAX - 2u, 8, 1));
#if STOW_HANDLE_INDEX_BITS >= 12
    CHECK_FALSE(stow_genpool_init(&gp, gp_buf, SIZE_MAX, (size_t)1 << 20, 1, 1u << 12));
    CHECK_FALSE(stow_genpool_init(&gp, gp_buf, SIZE_MAX, UINT32_MAX / 4095u + 1u, 1, 4095u));
#endif
    CHECK(same_as_snapshot(&gp));
    CHECK(stow_genpool_check(&gp));
    /* align 0 is the default alignment */
    CHECK(stow_genpool_init(&gp, gp_buf, GP_BUF_BYTES, 3, 0, 4));
    CHECK_EQ(gp.stride, STOW_DEFAULT_ALIGN);
    CHECK_EQ(STOW_GENPOOL_BYTES(3, 0, 4), STOW_GENPOOL_BYTES(3, STOW_DEFAULT_ALIGN, 4));
    /* the largest capacity is accepted (nothing is touched, so no room is needed) */
    CHECK(stow_genpool_init(&gp, gp_buf, SIZE_MAX, 1, 1, STOW_HANDLE_MAX_CAPACITY));
    CHECK_EQ(stow_genpool_capacity(&gp), STOW_HANDLE_MAX_CAPACITY);
}

/* ---------------------------------------------------------------- a missile and its target */

STOW_GENPOOL_DEFINE_TYPED(test_enemies, struct enemy, 1);
STOW_GENPOOL_DEFINE_TYPED_STATIC(test_missiles, struct missile, 4);

/* The generational arena's own example: a pool of one enemy, a missile that keeps
 * its target's handle, the target destroyed, a new enemy in the same slot. */
TEST(genpool_missile_loses_its_destroyed_target)
{
    struct enemy first = {100, 3, 4};
    test_enemies_handle_t target = test_enemies_insert(&first);
    CHECK_FALSE(test_enemies_is_null(target));
    struct missile m = {1, target.untyped};
    test_missiles_handle_t missile = test_missiles_insert(&m);
    CHECK_NOT_NULL(test_missiles_get(missile));

    /* Explode: the target is destroyed and removed. */
    CHECK(test_enemies_remove(target));
    test_enemies_handle_t seen;
    seen.untyped = test_missiles_get(missile)->target;
    CHECK_NULL(test_enemies_get(seen));
    CHECK_FALSE(test_enemies_contains(seen));

    struct enemy second = {50, 9, 9};
    test_enemies_handle_t spawned = test_enemies_insert(&second);
    CHECK_EQ(stow_handle_index(spawned.untyped), stow_handle_index(target.untyped));
    CHECK_NE(stow_handle_generation(spawned.untyped), stow_handle_generation(target.untyped));
    CHECK_NULL(test_enemies_get(seen)); /* the missile does not follow the newcomer */
    CHECK_EQ(test_enemies_get(spawned)->health, 50);
    CHECK_FALSE(test_enemies_remove(target));
    CHECK_EQ(test_enemies_count(), 1);
    CHECK(stow_genpool_check(&test_enemies));
    test_enemies_clear();
    test_missiles_clear();
}

/* ---------------------------------------------------------------- a block store with a flush */

/* store_new_block: consecutive inserts take consecutive indices, distinct handles. */
TEST(genpool_block_store_store_new_block)
{
    CHECK_CALL(fresh(1, 1, 10));
    bool yes = true;
    stow_handle_t h0 = stow_genpool_insert(&gp, &yes);
    stow_handle_t h1 = stow_genpool_insert(&gp, &yes);
    CHECK_EQ(stow_handle_index(h0), 0);
    CHECK_EQ(stow_handle_index(h1), 1);
    CHECK_FALSE(stow_handle_eq(h0, h1));
    CHECK(stow_genpool_check(&gp));
}

/* remove_block: the removed slot is reused for the next insert, with the new
 * value, under a handle that differs from the removed one. */
TEST(genpool_block_store_remove_block)
{
    CHECK_CALL(fresh(1, 1, 10));
    bool yes = true, no = false;
    stow_handle_t h0 = stow_genpool_insert(&gp, &yes);
    stow_handle_t h1 = stow_genpool_insert(&gp, &yes);
    CHECK(stow_genpool_remove(&gp, h0));
    CHECK_FALSE(stow_genpool_contains(&gp, h0));
    stow_handle_t h2 = stow_genpool_insert(&gp, &no);
    CHECK_EQ(stow_handle_index(h2), stow_handle_index(h0));
    CHECK_FALSE(stow_handle_eq(h2, h0));
    CHECK_FALSE(stow_handle_eq(h2, h1));
    CHECK_EQ(*(bool *)stow_genpool_get(&gp, h2), false);
    CHECK_EQ(gp_buf[0], 0); /* data[0] == false */
    CHECK_NULL(stow_genpool_get(&gp, h0));
    CHECK(stow_genpool_check(&gp));
}

/* flush: after clear() the old handles find nothing (a versioned block store
 * panics; here get() says NULL), and new inserts work under handles none of the
 * old ones match. */
TEST(genpool_block_store_flush)
{
    CHECK_CALL(fresh(1, 1, 10));
    bool yes = true;
    stow_handle_t old[3];
    for (int i = 0; i < 3; i++) {
        old[i] = stow_genpool_insert(&gp, &yes);
    }
    CHECK_EQ(*(bool *)stow_genpool_get(&gp, old[0]), true);
    stow_genpool_clear(&gp);
    CHECK(stow_genpool_check(&gp));
    CHECK_EQ(stow_genpool_count(&gp), 0);
    for (int i = 0; i < 3; i++) {
        CHECK_NULL(stow_genpool_get(&gp, old[i]));
    }
    for (int i = 0; i < 3; i++) {
        stow_handle_t h = stow_genpool_insert(&gp, &yes);
        CHECK(!stow_handle_is_null(h));
        for (int j = 0; j < 3; j++) {
            CHECK_FALSE(stow_handle_eq(h, old[j]));
            CHECK_NULL(stow_genpool_get(&gp, old[j]));
        }
    }
    CHECK(stow_genpool_check(&gp));
}

/* exceed_allocated_reserve: the insert past the capacity is refused (a block store
 * panics; here a null handle and a counted fail), and nothing changes. */
TEST(genpool_block_store_exceed_capacity)
{
    CHECK_CALL(fresh(1, 1, 10));
    bool yes = true;
    stow_handle_t last = STOW_HANDLE_NULL;
    for (int i = 0; i < 10; i++) {
        last = stow_genpool_insert(&gp, &yes);
    }
    CHECK_EQ(stow_handle_index(last), 9);
    take_snapshot(&gp);
    CHECK(stow_handle_is_null(stow_genpool_insert(&gp, &yes)));
    CHECK_EQ(fails_of(&gp), 1);
    stow_handle_t out = make(1, 1);
    CHECK_NULL(stow_genpool_alloc(&gp, &out));
    CHECK(stow_handle_is_null(out));
    CHECK_NULL(stow_genpool_alloc(&gp, NULL));
    CHECK_EQ(fails_of(&gp), 3);
    snap.pool.fails = 3; /* the one field a refusal changes */
    CHECK(same_as_snapshot(&gp));
    CHECK(stow_genpool_check(&gp));
}

/* ---------------------------------------------------------------- insert, alloc */

TEST(genpool_alloc_gives_zeroed_items)
{
    static const size_t sizes[] = {8, 7, 12, 1};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t size = sizes[s];
        CHECK_CALL(fresh(size, size % 4 == 0 ? 4 : 1, 6));
        stow_handle_t h;
        unsigned char *p = (unsigned char *)stow_genpool_alloc(&gp, &h);
        CHECK_NOT_NULL(p);
        CHECK_PTR_EQ(stow_genpool_get(&gp, h), p);
        for (size_t k = 0; k < size; k++) {
            CHECK_EQ(p[k], 0); /* the 0xA5 the buffer held is gone */
        }
        stow_test_fill(p, 0x77u, size);
        CHECK(stow_genpool_remove(&gp, h));
        unsigned char *q = (unsigned char *)stow_genpool_alloc(&gp, NULL); /* out may be NULL */
        CHECK_PTR_EQ(q, p); /* the same slot again, zeroed again */
        for (size_t k = 0; k < size; k++) {
            CHECK_EQ(q[k], 0);
        }
        CHECK(stow_handle_eq(stow_genpool_handle_of(&gp, q), make(0, 2)));
        CHECK(stow_genpool_check(&gp));
    }
}

TEST(genpool_insert_copies_items_of_every_shape)
{
    /* word copies (size a multiple of 4, align 4 or more) and byte copies; a pool
     * of align 1 takes sources at any address */
    static const size_t shapes[][2] = {{4, 4}, {8, 4}, {12, 4}, {32, 8}, {8, 1}, {1, 1},
                                       {3, 1}, {6, 4}, {10, 2}, {5, 8}};
    STOW_ALIGNAS(8) unsigned char src[40];
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        size_t size = shapes[s][0], align = shapes[s][1];
        CHECK_CALL(fresh(size, align, 5));
        CHECK_EQ(gp.copy_words, size % 4 == 0 && align >= 4 ? size / 4 : 0);
        for (unsigned offset = 0; offset < (align == 1 ? 4u : 1u); offset++) {
            for (size_t k = 0; k < size; k++) {
                src[offset + k] = (unsigned char)(k * 7u + offset + 1u);
            }
            stow_handle_t h = stow_genpool_insert(&gp, src + offset);
            unsigned char *p = (unsigned char *)stow_genpool_get(&gp, h);
            CHECK_NOT_NULL(p);
            CHECK_BYTES_EQ(p, src + offset, size);
            for (size_t k = size; k < gp.stride; k++) {
                CHECK_EQ(p[k], 0xA5); /* nothing written past the item */
            }
        }
        CHECK(stow_genpool_check(&gp));
    }
#if STOW_CHECK_LEVEL >= 1
    /* a source that would need unaligned word loads breaks insert's contract */
    CHECK_CALL(fresh(8, 4, 5));
    take_snapshot(&gp);
    stow_handle_t r = make(1, 1);
    EXPECT_VIOLATION(r = stow_genpool_insert(&gp, src + 2));
    CHECK(stow_handle_is_null(r));
    CHECK(same_as_snapshot(&gp));
#endif
}

/* ---------------------------------------------------------------- handles */

TEST(genpool_null_and_forged_handles_are_stale)
{
    CHECK_CALL(fresh(4, 4, 8));
    stow_handle_t live[4];
    for (uint32_t i = 0; i < 4; i++) {
        CHECK_CALL(put_u32(&gp, 1000u + i, &live[i]));
    }
    CHECK(stow_genpool_remove(&gp, live[3])); /* slot 3: free, generation 2 waiting */
    /* Never-used slots 4..7 hold garbage that looks like handles. */
    uint32_t *words = (uint32_t *)gp.words;
    for (uint32_t i = 4; i < 8; i++) {
        words[i] = stow_handle_make(i, 1u).bits;
    }
    stow_handle_t forged[] = {
        STOW_HANDLE_NULL,
        make(0, 0),                 /* a live index with generation 0 */
        make(1, 2),                 /* a generation not issued yet */
        make(2, MAX_GEN),
        make(3, 1),                 /* the removed item */
        make(3, 2),                 /* the generation the free slot will hand out next */
        make(3, 0),
        make(4, 1),                 /* never-used slots, whatever they hold */
        make(7, 1),
        make(8, 1),                 /* beyond the capacity */
        make(STOW_HANDLE_INDEX_MASK, 1),
        make(STOW_HANDLE_INDEX_MASK, MAX_GEN),
    };
    take_snapshot(&gp);
    for (size_t k = 0; k < sizeof forged / sizeof forged[0]; k++) {
        CHECK_NULL(stow_genpool_get(&gp, forged[k]));
        CHECK_FALSE(stow_genpool_contains(&gp, forged[k]));
        CHECK_FALSE(stow_genpool_remove(&gp, forged[k]));
    }
    /* Every 32-bit pattern with a small index: exactly the three live handles match. */
    uint32_t matches = 0;
    for (uint32_t gen = 0; gen <= (MAX_GEN < 300u ? MAX_GEN : 300u); gen++) {
        for (uint32_t i = 0; i < 10; i++) {
            stow_handle_t h = make(i, gen);
            bool is_live = i < 3 && stow_handle_eq(h, live[i]);
            CHECK_EQ(stow_genpool_contains(&gp, h), is_live);
            CHECK_EQ(stow_genpool_get(&gp, h) != NULL, is_live);
            matches += is_live ? 1u : 0u;
            if (!is_live) {
                CHECK_FALSE(stow_genpool_remove(&gp, h));
            }
        }
    }
    CHECK_EQ(matches, 3);
    CHECK(same_as_snapshot(&gp)); /* stale handles change nothing, count no fail */
    CHECK_EQ(fails_of(&gp), 0);
    CHECK(stow_genpool_check(&gp));
    /* Removing twice: the second is a stale remove. */
    CHECK(stow_genpool_remove(&gp, live[0]));
    CHECK_FALSE(stow_genpool_remove(&gp, live[0]));
    CHECK(stow_genpool_check(&gp));
}

TEST(genpool_reuse_moves_the_generation_on)
{
    CHECK_CALL(fresh(4, 4, 2));
    stow_handle_t other;
    CHECK_CALL(put_u32(&gp, 7u, &other));
    stow_handle_t prev;
    CHECK_CALL(put_u32(&gp, 0u, &prev));
    uint32_t gen = stow_handle_generation(prev);
    CHECK_EQ(gen, 1);
    for (uint32_t n = 1; n < 200; n++) {
        CHECK(stow_genpool_remove(&gp, prev));
        stow_handle_t h;
        CHECK_CALL(put_u32(&gp, n, &h));
        CHECK_EQ(stow_handle_index(h), 1);
        CHECK_EQ(stow_handle_generation(h), gen_after(gen));
        gen = stow_handle_generation(h);
        CHECK_NULL(stow_genpool_get(&gp, prev));
        CHECK_EQ(u32_at(&gp, h), n);
        prev = h;
        if (gen == MAX_GEN) {
            break; /* overflow has tests of its own */
        }
    }
    CHECK_EQ(u32_at(&gp, other), 7);
    CHECK(stow_genpool_check(&gp));
}

TEST(genpool_free_list_is_last_in_first_out_then_never_used_slots)
{
    CHECK_CALL(fresh(4, 4, 6));
    stow_handle_t h[4];
    for (uint32_t i = 0; i < 4; i++) {
        CHECK_CALL(put_u32(&gp, i, &h[i]));
    }
    CHECK(stow_genpool_remove(&gp, h[1]));
    CHECK(stow_genpool_remove(&gp, h[2]));
    CHECK(stow_genpool_check(&gp));
    stow_handle_t a, b, c;
    CHECK_CALL(put_u32(&gp, 10u, &a));
    CHECK_CALL(put_u32(&gp, 11u, &b));
    CHECK_CALL(put_u32(&gp, 12u, &c));
    CHECK(stow_handle_eq(a, make(2, 2)));
    CHECK(stow_handle_eq(b, make(1, 2)));
    CHECK(stow_handle_eq(c, make(4, 1)));
    CHECK(stow_genpool_check(&gp));
}

/* A single slot emptied and refilled over and over: the free list's bottom node
 * links nowhere, and must never look live. */
TEST(genpool_single_slot_free_list)
{
    for (uint32_t cap = 1; cap <= 3; cap++) {
        CHECK_CALL(fresh(4, 4, cap));
        stow_handle_t h;
        for (uint32_t n = 0; n < 50 && n + 1u < MAX_GEN; n++) { /* RETIRE: stop short of it */
            CHECK_CALL(put_u32(&gp, n, &h));
            CHECK_EQ(stow_handle_index(h), 0);
            CHECK(stow_genpool_check(&gp));
            CHECK(stow_genpool_remove(&gp, h));
            CHECK(stow_genpool_check(&gp));
            CHECK(stow_handle_is_null(stow_genpool_first(&gp)));
            CHECK(stow_handle_is_null(stow_genpool_handle_of(&gp, gp_buf)));
            for (uint32_t gen = 0; gen < 60 && gen <= MAX_GEN; gen++) {
                CHECK_FALSE(stow_genpool_contains(&gp, make(0, gen)));
            }
        }
    }
}

/* ---------------------------------------------------------------- handle_of */

TEST(genpool_handle_of_round_trips_for_every_stride)
{
    static const size_t sizes[] = {1, 2, 3, 5, 6, 7, 12, 20, 24, 40, 48, 100};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (size_t align = 1; align <= 8; align *= 2) {
            size_t size = sizes[s];
            uint32_t cap = size <= 20 ? 13u : 5u;
            CHECK_CALL(fresh(size, align, cap));
            stow_handle_t h[13];
            for (uint32_t i = 0; i < cap; i++) {
                unsigned char *p = (unsigned char *)stow_genpool_alloc(&gp, &h[i]);
                CHECK_NOT_NULL(p);
                CHECK_EQ((uintptr_t)p % align, 0);
                CHECK_PTR_EQ(p, gp_buf + i * gp.stride);
                CHECK(stow_handle_eq(stow_genpool_handle_of(&gp, p), h[i]));
            }
            /* a removed item's slot: no live handle */
            unsigned char *p2 = (unsigned char *)stow_genpool_get(&gp, h[2]);
            CHECK(stow_genpool_remove(&gp, h[2]));
            CHECK(stow_handle_is_null(stow_genpool_handle_of(&gp, p2)));
            stow_handle_t again;
            CHECK_PTR_EQ(stow_genpool_alloc(&gp, &again), p2);
            CHECK(stow_handle_eq(stow_genpool_handle_of(&gp, p2), again));
            /* after clear: every slot's pointer gives the null handle */
            stow_genpool_clear(&gp);
            for (uint32_t i = 0; i < cap; i++) {
                CHECK(stow_handle_is_null(stow_genpool_handle_of(&gp, gp_buf + i * gp.stride)));
            }
            CHECK(stow_genpool_check(&gp));
        }
    }
    /* never-used slots of a fresh pool */
    CHECK_CALL(fresh(12, 4, 9));
    stow_handle_t h;
    CHECK_NOT_NULL(stow_genpool_alloc(&gp, &h));
    CHECK(stow_handle_is_null(stow_genpool_handle_of(&gp, gp_buf + 12)));
    CHECK(stow_handle_is_null(stow_genpool_handle_of(&gp, gp_buf + 8 * 12)));
}

#if STOW_CHECK_LEVEL >= 1
TEST(genpool_handle_of_rejects_pointers_not_to_an_item)
{
    static const size_t sizes[] = {12, 1, 6, 40, 24};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t size = sizes[s];
        uint32_t cap = 7;
        CHECK_CALL(fresh(size, size % 4 == 0 ? 4 : 1, cap));
        for (uint32_t i = 0; i < cap; i++) {
            CHECK_NOT_NULL(stow_genpool_alloc(&gp, NULL));
        }
        take_snapshot(&gp);
        stow_handle_t r = make(1, 1);
        EXPECT_VIOLATION(r = stow_genpool_handle_of(&gp, NULL));
        CHECK(stow_handle_is_null(r));
        /* just before the items (made from integers: pointer arithmetic may not go there) */
        EXPECT_VIOLATION(r = stow_genpool_handle_of(&gp, (const void *)((uintptr_t)gp_buf - 1u)));
        EXPECT_VIOLATION(r = stow_genpool_handle_of(&gp, (const void *)((uintptr_t)gp_buf - gp.stride)));
        EXPECT_VIOLATION(r = stow_genpool_handle_of(&gp, snap.buf)); /* another buffer */
        EXPECT_VIOLATION(r = stow_genpool_handle_of(&gp, gp_buf + cap * gp.stride)); /* the words */
        EXPECT_VIOLATION(r = stow_genpool_handle_of(&gp, gp.words));
        EXPECT_VIOLATION(r = stow_genpool_handle_of(&gp, &gp));
        CHECK(stow_handle_is_null(r));
        for (uint32_t i = 0; i < cap; i++) {
            for (uint32_t off = 1; off < gp.stride; off++) { /* interior and misaligned */
                r = make(1, 1);
                EXPECT_VIOLATION(r = stow_genpool_handle_of(&gp, gp_buf + i * gp.stride + off));
                CHECK(stow_handle_is_null(r));
            }
            CHECK_EQ(stow_handle_index(stow_genpool_handle_of(&gp, gp_buf + i * gp.stride)), i);
        }
        CHECK(same_as_snapshot(&gp));
    }
}
#endif

/* ---------------------------------------------------------------- iteration */

/* The items STOW_GENPOOL_FOREACH visits, in order, into out[0, max); returns how
 * many it visited (all of them, beyond max too). One helper, so that the walk is
 * expanded once: the micro:bit's flash is tight at level 2. */
static uint32_t foreach_items(const stow_genpool_t *g, void **out, uint32_t max)
{
    uint32_t n = 0;
    STOW_GENPOOL_FOREACH(g, unsigned char, p) {
        if (n < max) {
            out[n] = p;
        }
        n++;
    }
    return n;
}

/* The same with stow_genpool_walk_next(), which must stay at the end once there
 * (UINT32_MAX if it does not). */
static uint32_t walk_next_items(const stow_genpool_t *g, void **out, uint32_t max)
{
    uint32_t n = 0;
    stow_genpool_walk_t w = stow_genpool_walk_begin(g);
    for (; stow_genpool_walk_next(&w); n++) {
        if (n < max) {
            out[n] = w.item;
        }
    }
    return stow_genpool_walk_next(&w) ? UINT32_MAX : n;
}

/* Walks the pool and checks that it visits exactly the handles in want[0, n), in
 * slot order: with first()/next(), with iterate(), item by item, and with the
 * walk in both its forms. */
static void expect_iteration(const stow_genpool_t *g, const stow_handle_t *want, uint32_t n)
{
    uint32_t seen = 0;
    for (stow_handle_t h = stow_genpool_first(g); !stow_handle_is_null(h); h = stow_genpool_next(g, h)) {
        CHECK_LT(seen, n);
        CHECK(stow_handle_eq(h, want[seen]));
        CHECK_NOT_NULL(stow_genpool_get(g, h));
        seen++;
    }
    CHECK_EQ(seen, n);
    uint32_t cursor = 0;
    seen = 0;
    for (void *item; (item = stow_genpool_iterate(g, &cursor)) != NULL;) {
        CHECK_LT(seen, n);
        CHECK_PTR_EQ(item, stow_genpool_get(g, want[seen]));
        CHECK_EQ(cursor, stow_handle_index(want[seen]) + 1u);
        seen++;
    }
    CHECK_EQ(seen, n);
    CHECK_NULL(stow_genpool_iterate(g, &cursor)); /* and it stays at the end */
    static void *items[70];
    for (int form = 0; form < 2; form++) {
        CHECK_EQ(form == 0 ? foreach_items(g, items, 70) : walk_next_items(g, items, 70), n);
        for (seen = 0; seen < n && seen < 70; seen++) {
            CHECK_PTR_EQ(items[seen], stow_genpool_get(g, want[seen]));
        }
    }
}

TEST(genpool_iteration_visits_each_live_item_once_in_slot_order)
{
    CHECK_CALL(fresh(4, 4, 70));
    stow_handle_t h[70], want[70];
    for (uint32_t i = 0; i < 70; i++) {
        CHECK_CALL(put_u32(&gp, i, &h[i]));
    }
    CHECK_CALL(expect_iteration(&gp, h, 70));
    uint32_t n = 0;
    for (uint32_t i = 0; i < 70; i++) {
        if (i % 3 == 0 || i == 31 || i == 32 || i == 63 || i == 64) {
            CHECK(stow_genpool_remove(&gp, h[i]));
        } else {
            want[n++] = h[i];
        }
    }
    CHECK_CALL(expect_iteration(&gp, want, n));
    /* empty, and garbage bitmap bits above the bump index are never believed */
    CHECK_CALL(fresh(4, 4, 40));
    ((uint32_t *)gp.bits)[0] = 0xFFFFFFFFu;
    ((uint32_t *)gp.bits)[1] = 0xFFFFFFFFu;
    CHECK(stow_handle_is_null(stow_genpool_first(&gp)));
    for (uint32_t i = 0; i < 3; i++) {
        CHECK_CALL(put_u32(&gp, i, &h[i]));
    }
    CHECK_CALL(expect_iteration(&gp, h, 3));
    for (uint32_t i = 3; i < 40; i++) {
        CHECK_CALL(put_u32(&gp, i, &h[i]));
    }
    CHECK(stow_genpool_remove(&gp, h[39]));
    CHECK(stow_genpool_remove(&gp, h[38]));
    CHECK_CALL(expect_iteration(&gp, h, 38));
    /* next() from the last slot, from a removed handle, and past the end */
    CHECK(stow_handle_is_null(stow_genpool_next(&gp, h[37])));
    CHECK(stow_handle_eq(stow_genpool_next(&gp, h[38]), STOW_HANDLE_NULL));
    CHECK(stow_handle_eq(stow_genpool_next(&gp, make(5, 3)), h[6]));
}

/* The bitmap is never read where the pool has not written it (init leaves the
 * storage as it finds it): the first slot of each 32 to leave the bump index
 * writes its bitmap word whole, so the garbage that was there is gone, not
 * merely masked. */
TEST(genpool_bitmap_words_are_written_before_they_are_read)
{
    stow_handle_t h[40];
    CHECK_CALL(fresh(4, 4, 40)); /* the buffer holds 0xA5 everywhere */
    const uint32_t *bits = (const uint32_t *)gp.bits;
    CHECK_CALL(put_u32(&gp, 0, &h[0]));
    CHECK_EQ(bits[0], 1u);
    for (uint32_t i = 1; i < 33; i++) {
        CHECK_CALL(put_u32(&gp, i, &h[i]));
    }
    CHECK_EQ(bits[0], UINT32_MAX);
    CHECK_EQ(bits[1], 1u);
    /* alloc after a clear: slots used before keep their word; a never-used one
     * past them starts the next word */
    stow_genpool_clear(&gp);
    for (uint32_t i = 0; i < 33; i++) {
        CHECK_NOT_NULL(stow_genpool_alloc(&gp, &h[i]));
    }
    CHECK_EQ(bits[1], 1u);
    CHECK(stow_genpool_check(&gp));
    /* the same when the slots used before end with a word: the first
     * never-used slot past them starts the next word */
    CHECK_CALL(fresh(4, 4, 40));
    bits = (const uint32_t *)gp.bits;
    for (uint32_t i = 0; i < 32; i++) {
        CHECK_CALL(put_u32(&gp, i, &h[i]));
    }
    stow_genpool_clear(&gp);
    for (uint32_t i = 0; i < 33; i++) {
        CHECK_NOT_NULL(stow_genpool_alloc(&gp, &h[i]));
    }
    CHECK_EQ(bits[1], 1u);
    CHECK(stow_genpool_check(&gp));
}

TEST(genpool_iteration_tolerates_removing_the_current_item)
{
    CHECK_CALL(fresh(4, 4, 50));
    stow_handle_t h[50];
    for (uint32_t i = 0; i < 50; i++) {
        CHECK_CALL(put_u32(&gp, i, &h[i]));
    }
    /* remove the odd ones as they are visited, and one ahead of the cursor */
    uint32_t visits = 0, sum = 0;
    CHECK(stow_genpool_remove(&gp, h[20]));
    for (stow_handle_t it = stow_genpool_first(&gp); !stow_handle_is_null(it);
         it = stow_genpool_next(&gp, it)) {
        uint32_t v = u32_at(&gp, it);
        CHECK_NE(v, 20);
        visits++;
        sum += v;
        if (v % 2 == 1) {
            CHECK(stow_genpool_remove(&gp, it));
        }
        if (v == 10) {
            CHECK(stow_genpool_remove(&gp, h[30])); /* ahead: not visited */
        }
        CHECK(stow_genpool_check(&gp));
    }
    CHECK_EQ(visits, 48);
    CHECK_EQ(sum, 49 * 50 / 2 - 20 - 30);
    CHECK_EQ(stow_genpool_count(&gp), 23); /* the even ones, less 20 and 30 */
    /* remove everything while iterating */
    for (stow_handle_t it = stow_genpool_first(&gp); !stow_handle_is_null(it);
         it = stow_genpool_next(&gp, it)) {
        CHECK(stow_genpool_remove(&gp, it));
    }
    CHECK_EQ(stow_genpool_count(&gp), 0);
    CHECK(stow_handle_is_null(stow_genpool_first(&gp)));
    CHECK(stow_genpool_check(&gp));
}

TEST(genpool_iterate_tolerates_removing_the_current_item)
{
    CHECK_CALL(fresh(4, 4, 50));
    stow_handle_t h[50];
    for (uint32_t i = 0; i < 50; i++) {
        CHECK_CALL(put_u32(&gp, i, &h[i]));
    }
    uint32_t visits = 0, sum = 0, cursor = 0;
    for (uint32_t *v; (v = (uint32_t *)stow_genpool_iterate(&gp, &cursor)) != NULL;) {
        visits++;
        sum += *v;
        if (*v % 2 == 1) {
            CHECK(stow_genpool_remove(&gp, stow_genpool_handle_of(&gp, v)));
        }
        if (*v == 10) {
            CHECK(stow_genpool_remove(&gp, h[30])); /* ahead: not visited */
        }
        CHECK(stow_genpool_check(&gp));
    }
    CHECK_EQ(visits, 49);
    CHECK_EQ(sum, 49 * 50 / 2 - 30);
    CHECK_EQ(stow_genpool_count(&gp), 24); /* the even ones, less 30 */
}

TEST(genpool_foreach_tolerates_removing_the_current_item_and_break)
{
    CHECK_CALL(fresh(4, 4, 70));
    stow_handle_t h[70];
    for (uint32_t i = 0; i < 70; i++) {
        CHECK_CALL(put_u32(&gp, i, &h[i]));
    }
    uint32_t visits = 0, sum = 0;
    STOW_GENPOOL_FOREACH(&gp, uint32_t, v) {
        visits++;
        sum += *v;
        if (*v % 2 == 1 || *v >= 60) { /* 60 up: a whole run goes, item by item */
            CHECK(stow_genpool_remove(&gp, stow_genpool_handle_of(&gp, v)));
        }
    }
    CHECK(stow_genpool_check(&gp));
    CHECK_EQ(visits, 70);
    CHECK_EQ(sum, 69 * 70 / 2);
    CHECK_EQ(stow_genpool_count(&gp), 30);
    CHECK_EQ(foreach_items(&gp, NULL, 0), 30);
    /* break ends the whole walk; continue goes on with the next item; a walk
     * nested in another sees every item for each outer one */
    visits = 0;
    uint32_t inner = 0;
    STOW_GENPOOL_FOREACH(&gp, uint32_t, v) {
        if (*v == 4) {
            continue;
        }
        STOW_GENPOOL_FOREACH(&gp, uint32_t, u) {
            inner += *u == *v ? 1u : 0u;
        }
        if (*v == 40) {
            break;
        }
        visits++;
    }
    CHECK_EQ(visits, 19); /* 0, 2 and 6 to 38 */
    CHECK_EQ(inner, 20);
}

#if STOW_CHECK_LEVEL >= 2
/* Removing an item ahead of the walk (in the same 32-slot word, which the walk
 * has read already) is reported at level 2, and the walk skips the removed item. */
TEST(genpool_foreach_reports_an_item_removed_ahead)
{
    CHECK_CALL(fresh(4, 4, 40));
    stow_handle_t h[40];
    for (uint32_t i = 0; i < 40; i++) {
        CHECK_CALL(put_u32(&gp, i, &h[i]));
    }
    uint32_t visits = 0, sum = 0;
    bool more = true;
    stow_genpool_walk_t w = stow_genpool_walk_begin(&gp);
    while (stow_genpool_walk_next(&w)) {
        uint32_t v = *(uint32_t *)w.item;
        visits++;
        sum += v;
        if (v == 10) {
            CHECK(stow_genpool_remove(&gp, h[12]));
        }
        if (v == 11) { /* 12 is next: found removed, reported, skipped */
            EXPECT_VIOLATION_TEXT(more = stow_genpool_walk_next(&w),
                                  "stow_genpool_walk_next: item removed during the walk");
            CHECK(more);
            CHECK_EQ(*(uint32_t *)w.item, 13);
            visits++;
            sum += 13;
        }
    }
    CHECK_EQ(visits, 39);
    CHECK_EQ(sum, 39 * 40 / 2 - 12);
}
#endif

/* A big pool with few live items, spread out: each is visited once, in order.
 * (make bench times such a pass: see bench/ops_genpool.c.) */
#if !defined(STOW_TEST_TARGET) || STOW_TEST_RAM_KIB >= 64
#define SPARSE_CAP 10000u
#define SPARSE_LIVE 500u
static STOW_ALIGNAS(4) unsigned char sparse_buf[STOW_GENPOOL_BYTES(4, 4, SPARSE_CAP)];
#else
#define SPARSE_CAP 90u
#define SPARSE_LIVE 9u
#define sparse_buf gp_buf
#endif

TEST(genpool_iteration_skips_a_sparse_pool)
{
    stow_genpool_t sp;
    stow_test_fill(sparse_buf, 0xA5u, sizeof sparse_buf);
    CHECK(stow_genpool_init(&sp, sparse_buf, sizeof sparse_buf, 4, 4, SPARSE_CAP));
    uint32_t stride = SPARSE_CAP / SPARSE_LIVE;
    for (uint32_t i = 0; i < SPARSE_CAP; i++) {
        stow_handle_t h = stow_genpool_insert(&sp, &i);
        CHECK(!stow_handle_is_null(h));
    }
    for (uint32_t i = 0; i < SPARSE_CAP; i++) {
        if (i % stride != 7 || i / stride >= SPARSE_LIVE) {
            CHECK(stow_genpool_remove(&sp, make(i, 1)));
        }
    }
    CHECK_EQ(stow_genpool_count(&sp), SPARSE_LIVE);
    uint32_t seen = 0;
    for (stow_handle_t h = stow_genpool_first(&sp); !stow_handle_is_null(h); h = stow_genpool_next(&sp, h)) {
        CHECK_EQ(stow_handle_index(h), seen * stride + 7);
        CHECK_EQ(*(uint32_t *)stow_genpool_get(&sp, h), seen * stride + 7);
        seen++;
    }
    CHECK_EQ(seen, SPARSE_LIVE);
    static void *walked[SPARSE_LIVE];
    CHECK_EQ(foreach_items(&sp, walked, SPARSE_LIVE), SPARSE_LIVE);
    for (seen = 0; seen < SPARSE_LIVE; seen++) {
        CHECK_EQ(*(uint32_t *)walked[seen], seen * stride + 7);
    }
    CHECK(stow_genpool_check(&sp));
    stow_genpool_clear(&sp);
    CHECK_EQ(foreach_items(&sp, NULL, 0), 0); /* the bits are old, the bump index 0 */
    CHECK(stow_handle_is_null(stow_genpool_first(&sp)));
    CHECK(stow_genpool_check(&sp));
}

/* ---------------------------------------------------------------- clear */

TEST(genpool_clear_makes_every_handle_stale)
{
    CHECK_CALL(fresh(4, 4, 8));
    stow_handle_t old[6], removed[2];
    for (uint32_t i = 0; i < 6; i++) {
        CHECK_CALL(put_u32(&gp, i, &old[i]));
    }
    unsigned char *p5 = (unsigned char *)stow_genpool_get(&gp, old[5]);
    removed[0] = old[1];
    removed[1] = old[4];
    CHECK(stow_genpool_remove(&gp, removed[0]));
    CHECK(stow_genpool_remove(&gp, removed[1]));
    stow_genpool_clear(&gp);
    CHECK(stow_genpool_check(&gp));
    CHECK_EQ(stow_genpool_count(&gp), 0);
    CHECK(stow_handle_is_null(stow_genpool_first(&gp)));
    CHECK(stow_handle_is_null(stow_genpool_handle_of(&gp, p5)));
    for (uint32_t i = 0; i < 6; i++) {
        CHECK_NULL(stow_genpool_get(&gp, old[i]));
        CHECK_FALSE(stow_genpool_remove(&gp, old[i]));
    }
    /* Refill in steps: slots come back from index 0, each with a generation no old
     * handle has (live ones move on by one, free ones hand out what they kept). */
    stow_handle_t fresh_h[8];
    for (uint32_t i = 0; i < 8; i++) {
        CHECK_CALL(put_u32(&gp, 100u + i, &fresh_h[i]));
        CHECK_EQ(stow_handle_index(fresh_h[i]), i);
        CHECK_EQ(stow_handle_generation(fresh_h[i]), i < 6 ? 2u : 1u);
        for (uint32_t j = 0; j < 6; j++) {
            CHECK_FALSE(stow_handle_eq(fresh_h[i], old[j]));
            CHECK_NULL(stow_genpool_get(&gp, old[j]));
        }
        CHECK(stow_genpool_check(&gp));
    }
    for (uint32_t i = 0; i < 8; i++) {
        CHECK_EQ(u32_at(&gp, fresh_h[i]), 100u + i);
    }
    CHECK_CALL(expect_iteration(&gp, fresh_h, 8));
    stow_stats_t s;
    stow_genpool_stats(&gp, &s);
    CHECK_EQ(s.peak, 8);
    CHECK_EQ(s.used, 8);
}

TEST(genpool_clear_part_way_and_again)
{
    CHECK_CALL(fresh(4, 4, 8));
    stow_handle_t a[6], b[2], c[8];
    for (uint32_t i = 0; i < 6; i++) {
        CHECK_CALL(put_u32(&gp, i, &a[i]));
    }
    stow_genpool_clear(&gp);
    /* only two slots reached again: slots 2..5 still hold their cleared items */
    CHECK_CALL(put_u32(&gp, 10u, &b[0]));
    CHECK_CALL(put_u32(&gp, 11u, &b[1]));
    CHECK(stow_genpool_remove(&gp, b[0]));
    CHECK(stow_genpool_check(&gp));
    for (uint32_t i = 0; i < 6; i++) {
        CHECK_NULL(stow_genpool_get(&gp, a[i]));
    }
    stow_genpool_clear(&gp); /* a clear before the first one's slots were all reached */
    CHECK(stow_genpool_check(&gp));
    stow_genpool_clear(&gp); /* and one of an empty pool */
    CHECK(stow_genpool_check(&gp));
    for (uint32_t i = 0; i < 8; i++) {
        CHECK_CALL(put_u32(&gp, 20u + i, &c[i]));
        CHECK_EQ(stow_handle_index(c[i]), i);
    }
    CHECK_EQ(stow_handle_generation(c[0]), 3); /* a: 1, b[0]: 2 (removed), now 3 */
    CHECK_EQ(stow_handle_generation(c[1]), 3); /* a: 1, b[1]: 2 (cleared), now 3 */
    for (uint32_t i = 2; i < 6; i++) {
        CHECK_EQ(stow_handle_generation(c[i]), 2);
    }
    CHECK_EQ(stow_handle_generation(c[6]), 1);
    for (uint32_t i = 0; i < 6; i++) {
        CHECK_NULL(stow_genpool_get(&gp, a[i]));
    }
    CHECK_NULL(stow_genpool_get(&gp, b[0]));
    CHECK_NULL(stow_genpool_get(&gp, b[1]));
    CHECK(stow_handle_is_null(stow_genpool_insert(&gp, &c)));
    CHECK(stow_genpool_check(&gp));
}

/* ---------------------------------------------------------------- overflow */

#if MAX_GEN <= 65535u
/* Cycles slot 0 of the pool through n more generations (remove, insert). */
static void cycle_slot0(stow_handle_t *h, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        CHECK(stow_genpool_remove(&gp, *h));
        stow_handle_t next = stow_genpool_insert(&gp, &k);
        CHECK_EQ(stow_handle_index(next), 0);
        CHECK_NE(stow_handle_generation(next), 0);
        *h = next;
    }
}

#if !RETIRE_MODE
TEST(genpool_generation_wraps_to_one)
{
    CHECK_CALL(fresh(4, 4, 2));
    stow_handle_t h, other;
    CHECK_CALL(put_u32(&gp, 0u, &h));
    CHECK_CALL(put_u32(&gp, 5u, &other));
    stow_handle_t first = h;
    CHECK_CALL(cycle_slot0(&h, MAX_GEN - 1u));
    CHECK_EQ(stow_handle_generation(h), MAX_GEN);
    CHECK_NULL(stow_genpool_get(&gp, first));
    CHECK(stow_genpool_check(&gp));
    CHECK_CALL(cycle_slot0(&h, 1));
    CHECK_EQ(stow_handle_generation(h), 1); /* never 0 */
    CHECK(stow_handle_eq(h, first));        /* the documented price of wrapping */
    CHECK_EQ(stow_genpool_retired(&gp), 0);
    CHECK(stow_genpool_check(&gp));
    /* through clear(): a live item at the last generation goes on with 1 */
    CHECK_CALL(cycle_slot0(&h, MAX_GEN - 1u));
    CHECK_EQ(stow_handle_generation(h), MAX_GEN);
    stow_genpool_clear(&gp);
    stow_handle_t after;
    CHECK_CALL(put_u32(&gp, 9u, &after));
    CHECK(stow_handle_eq(after, make(0, 1)));
    CHECK_NULL(stow_genpool_get(&gp, h));
    CHECK(stow_genpool_check(&gp));
    /* and a free slot whose next generation wrapped already */
    CHECK_CALL(cycle_slot0(&after, MAX_GEN - 1u));
    CHECK(stow_genpool_remove(&gp, after));
    stow_genpool_clear(&gp);
    CHECK_CALL(put_u32(&gp, 9u, &after));
    CHECK(stow_handle_eq(after, make(0, 1)));
    CHECK_EQ(stow_genpool_retired(&gp), 0);
    CHECK(stow_genpool_check(&gp));
}
#else
TEST(genpool_generation_retires_the_slot)
{
    CHECK_CALL(fresh(4, 4, 3));
    stow_handle_t h, other;
    CHECK_CALL(put_u32(&gp, 0u, &h));
    CHECK_CALL(put_u32(&gp, 5u, &other));
    CHECK_CALL(cycle_slot0(&h, MAX_GEN - 1u));
    CHECK_EQ(stow_handle_generation(h), MAX_GEN);
    CHECK_EQ(stow_genpool_retired(&gp), 0);
    CHECK(stow_genpool_remove(&gp, h)); /* its last generation: slot 0 retires */
    CHECK_EQ(stow_genpool_retired(&gp), 1);
    CHECK_EQ(stow_genpool_count(&gp), 1);
    CHECK(stow_genpool_check(&gp));
    CHECK_NULL(stow_genpool_get(&gp, h));
    CHECK_FALSE(stow_genpool_remove(&gp, h));
    for (uint32_t gen = 0; gen <= MAX_GEN; gen++) {
        CHECK_FALSE(stow_genpool_contains(&gp, make(0, gen)));
    }
    CHECK(stow_handle_is_null(stow_genpool_handle_of(&gp, gp_buf)));
    /* the pool holds capacity - retired items at most */
    stow_handle_t c;
    CHECK_CALL(put_u32(&gp, 7u, &c));
    CHECK_EQ(stow_handle_index(c), 2);
    uint32_t x = 0;
    CHECK(stow_handle_is_null(stow_genpool_insert(&gp, &x)));
    CHECK_EQ(fails_of(&gp), 1);
    stow_stats_t s;
    stow_genpool_stats(&gp, &s);
    CHECK_EQ(s.capacity, 3);
    CHECK_EQ(s.used, 2);
    /* clear() does not bring it back: the bump index steps over it */
    stow_genpool_clear(&gp);
    stow_handle_t d, e;
    CHECK_CALL(put_u32(&gp, 1u, &d));
    CHECK_CALL(put_u32(&gp, 2u, &e));
    CHECK_EQ(stow_handle_index(d), 1);
    CHECK_EQ(stow_handle_index(e), 2);
    CHECK(stow_handle_is_null(stow_genpool_insert(&gp, &x)));
    CHECK_EQ(stow_genpool_retired(&gp), 1);
    CHECK(stow_genpool_check(&gp));
    CHECK_CALL(expect_iteration(&gp, (stow_handle_t[]){d, e}, 2));
}

TEST(genpool_generation_retires_a_slot_that_died_in_a_clear)
{
    CHECK_CALL(fresh(4, 4, 2));
    stow_handle_t h, other;
    CHECK_CALL(put_u32(&gp, 0u, &h));
    CHECK_CALL(put_u32(&gp, 5u, &other));
    CHECK_CALL(cycle_slot0(&h, MAX_GEN - 1u));
    CHECK_EQ(stow_handle_generation(h), MAX_GEN);
    stow_genpool_clear(&gp); /* slot 0 dies at its last generation */
    CHECK(stow_genpool_check(&gp));
    stow_handle_t a;
    CHECK_CALL(put_u32(&gp, 1u, &a));
    CHECK(stow_handle_eq(a, make(1, 2))); /* slot 0 stepped over and retired */
    CHECK_EQ(stow_genpool_retired(&gp), 1);
    CHECK(stow_genpool_check(&gp));
    uint32_t x = 0;
    CHECK(stow_handle_is_null(stow_genpool_insert(&gp, &x)));
    CHECK_NULL(stow_genpool_get(&gp, h));
    stow_genpool_clear(&gp);
    CHECK_CALL(put_u32(&gp, 1u, &a));
    CHECK(stow_handle_eq(a, make(1, 3)));
    CHECK_EQ(stow_genpool_retired(&gp), 1);
    CHECK(stow_genpool_check(&gp));
    /* every slot retired: the pool is full for good */
    CHECK_CALL(fresh(4, 4, 1));
    CHECK_CALL(put_u32(&gp, 0u, &h));
    CHECK_CALL(cycle_slot0(&h, MAX_GEN - 1u));
    CHECK(stow_genpool_remove(&gp, h));
    CHECK(stow_handle_is_null(stow_genpool_insert(&gp, &x)));
    stow_genpool_clear(&gp);
    CHECK(stow_handle_is_null(stow_genpool_insert(&gp, &x)));
    CHECK_NULL(stow_genpool_alloc(&gp, NULL));
    CHECK_EQ(fails_of(&gp), 3);
    CHECK(stow_genpool_check(&gp));
}

#if MAX_GEN < 100u
/* A pool of RUN_SLOTS retired slots, then one in use, then room. */
#define RUN_SLOTS 1000u
#define RUN_CAP (RUN_SLOTS + 64u)
static STOW_ALIGNAS(4) unsigned char run_buf[STOW_GENPOOL_BYTES(4, 4, RUN_CAP)];
static stow_genpool_t run_pool;

/* Slot i of run_pool (live, generation gen) goes through its last generations and
 * retires; check() verifies the run words after each retirement. */
static void retire_slot_of_run_pool(stow_handle_t h)
{
    uint32_t i = stow_handle_index(h);
    for (uint32_t gen = stow_handle_generation(h); gen < MAX_GEN; gen++) {
        CHECK(stow_genpool_remove(&run_pool, h));
        h = stow_genpool_insert(&run_pool, &gen);
        CHECK_EQ(stow_handle_index(h), i); /* the free list is LIFO */
    }
    uint32_t retired = stow_genpool_retired(&run_pool);
    CHECK(stow_genpool_remove(&run_pool, h));
    CHECK_EQ(stow_genpool_retired(&run_pool), retired + 1u);
    CHECK(stow_genpool_check(&run_pool));
}

/* After clear(), the bump index walks the slots used before. A run of retired
 * slots is stepped over in one step: its first word gives its length, and no word
 * inside it is read, by any insert after any number of clears. (Stepping over
 * them one by one made clear + insert + remove O(retired slots).) The test turns
 * every word inside the run into a trap, a word a slot-by-slot walk would take
 * for a free slot and hand out; an insert that read one would return a handle to
 * a retired slot. */
TEST(genpool_insert_after_clear_steps_over_a_run_of_retired_slots)
{
    stow_test_fill(run_buf, 0xA5u, sizeof run_buf);
    CHECK(stow_genpool_init(&run_pool, run_buf, sizeof run_buf, 4, 4, RUN_CAP));
    static stow_handle_t h[RUN_SLOTS + 1u];
    for (uint32_t i = 0; i <= RUN_SLOTS; i++) {
        h[i] = stow_genpool_insert(&run_pool, &i);
        CHECK_EQ(stow_handle_index(h[i]), i);
    }
    /* even slots first, then odd ones: each odd one joins the runs on both sides */
    for (uint32_t i = 0; i < RUN_SLOTS; i += 2u) {
        CHECK_CALL(retire_slot_of_run_pool(h[i]));
    }
    for (uint32_t i = 1; i < RUN_SLOTS; i += 2u) {
        CHECK_CALL(retire_slot_of_run_pool(h[i]));
    }
    CHECK_EQ(stow_genpool_retired(&run_pool), RUN_SLOTS);
    CHECK_EQ(stow_genpool_count(&run_pool), 1);

    uint32_t *words = (uint32_t *)run_pool.words;
    for (uint32_t i = 1; i + 1u < RUN_SLOTS; i++) {
        words[i] = stow_handle_make(i ^ 1u, 5u).bits; /* a free slot's word */
    }
    /* clear + insert + remove, over and over: slot `at` goes through its
     * generations, retires, joins the run, and the next one takes over */
    uint32_t at = RUN_SLOTS, gen = 2u, retired = RUN_SLOTS;
    for (uint32_t round = 0; round < 4u * MAX_GEN; round++) {
        stow_genpool_clear(&run_pool);
        uint32_t x = round;
        stow_handle_t got = stow_genpool_insert(&run_pool, &x);
        CHECK(stow_handle_eq(got, make(at, gen)));
        CHECK_EQ(stow_genpool_count(&run_pool), 1);
        CHECK_EQ(u32_at(&run_pool, got), round);
        CHECK(stow_genpool_remove(&run_pool, got));
        if (gen == MAX_GEN) {
            retired++;
            at++;
            gen = 1u; /* a never-used slot */
        } else {
            gen++; /* a free slot hands out the generation it kept */
        }
        CHECK_EQ(stow_genpool_retired(&run_pool), retired);
    }
    CHECK_EQ(at, RUN_SLOTS + 4u); /* the run grew by the slots that retired */
    for (uint32_t i = 1; i + 1u < RUN_SLOTS; i++) {
        words[i] = i ^ 1u; /* any retired word will do inside a run */
    }
    CHECK(stow_genpool_check(&run_pool));
}
#endif
#endif
#endif

/* ---------------------------------------------------------------- stats, check */

TEST(genpool_stats_track_used_peak_and_fails)
{
    CHECK_CALL(fresh(4, 4, 6));
    stow_stats_t s;
    stow_genpool_stats(&gp, &s);
    CHECK(s.capacity == 6 && s.used == 0 && s.peak == 0 && s.fails == 0);
    stow_handle_t h[6];
    for (uint32_t i = 0; i < 5; i++) {
        CHECK_CALL(put_u32(&gp, i, &h[i]));
    }
    stow_genpool_stats(&gp, &s);
    CHECK(s.used == 5 && s.peak == 5);
    for (uint32_t i = 0; i < 3; i++) {
        CHECK(stow_genpool_remove(&gp, h[i]));
    }
    CHECK_CALL(put_u32(&gp, 9u, &h[0]));
    stow_genpool_stats(&gp, &s);
    CHECK(s.used == 3 && s.peak == 5 && s.fails == 0);
    for (uint32_t i = 0; i < 3; i++) {
        CHECK_CALL(put_u32(&gp, i, &h[i]));
    }
    CHECK(stow_handle_is_null(stow_genpool_insert(&gp, &s)));
    stow_genpool_stats(&gp, &s);
    CHECK(s.used == 6 && s.peak == 6 && s.fails == 1);
    CHECK_EQ(stow_genpool_count(&gp), 6);
    stow_genpool_clear(&gp);
    stow_genpool_stats(&gp, &s);
    CHECK(s.capacity == 6 && s.used == 0 && s.peak == 6 && s.fails == 1);
    CHECK_EQ(stow_genpool_retired(&gp), 0);
}

TEST(genpool_check_finds_broken_invariants)
{
    CHECK_CALL(fresh(4, 4, 40));
    stow_handle_t h[36];
    for (uint32_t i = 0; i < 36; i++) {
        CHECK_CALL(put_u32(&gp, i, &h[i]));
    }
    CHECK(stow_genpool_remove(&gp, h[3]));
    CHECK(stow_genpool_remove(&gp, h[34]));
    CHECK(stow_genpool_remove(&gp, h[10])); /* free list: 10 -> 34 -> 3 */
    CHECK(stow_genpool_check(&gp));
    take_snapshot(&gp);
    CHECK(stow_genpool_check(&gp));
    CHECK(same_as_snapshot(&gp)); /* check() leaves no mark behind */

    uint32_t *words = (uint32_t *)gp.words;
    uint32_t *bits = (uint32_t *)gp.bits;
    uint32_t w;
#define BREAK_AND_RESTORE(lvalue, bad)             \
    do {                                           \
        w = (uint32_t)(lvalue);                    \
        lvalue = (bad);                            \
        CHECK_FALSE(stow_genpool_check(&gp));      \
        lvalue = w;                                \
        CHECK(stow_genpool_check(&gp));            \
    } while (0)
    BREAK_AND_RESTORE(gp.bump, 41u);                          /* beyond the capacity */
    BREAK_AND_RESTORE(gp.reached, 41u);
    BREAK_AND_RESTORE(gp.free_count, 2u);                     /* counts disagree */
    BREAK_AND_RESTORE(gp.free_count, 4u);
    BREAK_AND_RESTORE(gp.retired, 1u);
    BREAK_AND_RESTORE(gp.retired_below, 1u);
    BREAK_AND_RESTORE(gp.inverse, gp.inverse + 2u);          /* handle_of would be wrong */
    BREAK_AND_RESTORE(gp.copy_words, 2u);
    BREAK_AND_RESTORE(gp.item_size, 5u);
    BREAK_AND_RESTORE(gp.free_head, 5u);                     /* a live slot on the list */
    BREAK_AND_RESTORE(gp.free_head, 36u);                    /* a link out of range */
    BREAK_AND_RESTORE(bits[0], bits[0] & ~(1u << 5));         /* a live slot without its bit */
    BREAK_AND_RESTORE(bits[0], bits[0] | (1u << 3));          /* a free slot with one */
    BREAK_AND_RESTORE(words[10], (words[10] & ~STOW_HANDLE_INDEX_MASK) | 3u); /* 10 -> 3: 34 unreached */
    BREAK_AND_RESTORE(words[34], (words[34] & ~STOW_HANDLE_INDEX_MASK) | 35u); /* 34 -> 35, a live one */
    BREAK_AND_RESTORE(words[34], words[34] & STOW_HANDLE_INDEX_MASK);        /* free with generation 0 */
    BREAK_AND_RESTORE(words[34], (words[34] & ~STOW_HANDLE_INDEX_MASK) | 34u); /* looks live */
    BREAK_AND_RESTORE(words[34], (words[34] & ~STOW_HANDLE_INDEX_MASK) | 10u); /* a cycle 10 -> 34 -> 10 */
    BREAK_AND_RESTORE(words[7], 7u);                          /* a live word with generation 0 */
    BREAK_AND_RESTORE(words[7], 6u);                          /* retired, in the middle of things */
#undef BREAK_AND_RESTORE
    CHECK(same_as_snapshot(&gp)); /* every failed check() cleaned up its marks too */
}

#if STOW_CHECK_LEVEL >= 1
TEST(genpool_violations_leave_the_pool_unchanged)
{
    CHECK_CALL(fresh(8, 4, 10));
    stow_handle_t h[4];
    for (uint32_t i = 0; i < 4; i++) {
        CHECK_NOT_NULL(stow_genpool_alloc(&gp, &h[i]));
    }
    CHECK(stow_genpool_remove(&gp, h[1]));
    take_snapshot(&gp);
    stow_handle_t r = make(1, 1);
    void *p = &p;
    stow_stats_t s;
    uint32_t item[2] = {1, 2};

    EXPECT_VIOLATION(CHECK_FALSE(stow_genpool_init(NULL, gp_buf, GP_BUF_BYTES, 8, 4, 10)));
    EXPECT_VIOLATION(CHECK_FALSE(stow_genpool_init(&gp, gp_buf, GP_BUF_BYTES, 8, 3, 10)));
    EXPECT_VIOLATION(CHECK_FALSE(stow_genpool_init(&gp, gp_buf, GP_BUF_BYTES, 8, 12, 10)));
    EXPECT_VIOLATION(p = stow_genpool_alloc(NULL, &r));
    CHECK_NULL(p);
    EXPECT_VIOLATION(r = stow_genpool_insert(NULL, item));
    CHECK(stow_handle_is_null(r));
    r = make(1, 1);
    EXPECT_VIOLATION(r = stow_genpool_insert(&gp, NULL));
    CHECK(stow_handle_is_null(r));
    p = &p;
    EXPECT_VIOLATION(p = stow_genpool_get(NULL, h[0]));
    CHECK_NULL(p);
    EXPECT_VIOLATION(CHECK_FALSE(stow_genpool_contains(NULL, h[0])));
    EXPECT_VIOLATION(CHECK_FALSE(stow_genpool_remove(NULL, h[0])));
    EXPECT_VIOLATION(r = stow_genpool_handle_of(NULL, gp_buf));
    EXPECT_VIOLATION(stow_genpool_clear(NULL));
    EXPECT_VIOLATION(CHECK_EQ(stow_genpool_count(NULL), 0));
    EXPECT_VIOLATION(CHECK_EQ(stow_genpool_capacity(NULL), 0));
    EXPECT_VIOLATION(CHECK_EQ(stow_genpool_retired(NULL), 0));
    r = make(1, 1);
    EXPECT_VIOLATION(r = stow_genpool_first(NULL));
    uint32_t cursor = 0;
    void *visited = &cursor;
    EXPECT_VIOLATION(visited = stow_genpool_iterate(NULL, &cursor));
    CHECK_NULL(visited);
    visited = &cursor;
    EXPECT_VIOLATION(visited = stow_genpool_iterate(&gp, NULL));
    CHECK_NULL(visited);
    CHECK_EQ(cursor, 0);
    CHECK(stow_handle_is_null(r));
    EXPECT_VIOLATION(r = stow_genpool_next(NULL, h[0]));
    r = make(1, 1);
    EXPECT_VIOLATION(r = stow_genpool_next(&gp, STOW_HANDLE_NULL));
    CHECK(stow_handle_is_null(r));
    EXPECT_VIOLATION(r = stow_genpool_next(&gp, make(10, 1))); /* index beyond the capacity */
    EXPECT_VIOLATION(r = stow_genpool_next(&gp, make(STOW_HANDLE_INDEX_MASK, 3)));
    CHECK(stow_handle_is_null(r));
    EXPECT_VIOLATION(stow_genpool_stats(NULL, &s));
    EXPECT_VIOLATION(stow_genpool_stats(&gp, NULL));
    EXPECT_VIOLATION(CHECK_FALSE(stow_genpool_check(NULL)));

    CHECK(same_as_snapshot(&gp));
    CHECK(stow_genpool_check(&gp));
    /* next() of a stale handle is fine: the loop may have removed it */
    CHECK(stow_handle_eq(stow_genpool_next(&gp, h[1]), h[2]));
}

/* A violation reaches the assert hook as the public function's name and the
 * misuse in words, not as the failed expression. */
TEST(genpool_violations_name_the_function_and_the_misuse)
{
    CHECK_CALL(fresh(8, 4, 4));
    stow_handle_t h, r;
    unsigned char *p = (unsigned char *)stow_genpool_alloc(&gp, &h);
    CHECK_NOT_NULL(p);
    uint32_t item[3] = {1, 2, 3};
    stow_stats_t s;
    EXPECT_VIOLATION(r = stow_genpool_insert(&gp, NULL));
    CHECK_LAST_VIOLATION("stow_genpool_insert: item pointer is NULL");
    EXPECT_VIOLATION(r = stow_genpool_insert(&gp, (const unsigned char *)item + 1));
    CHECK_LAST_VIOLATION("stow_genpool_insert: item is not aligned to 4 (the pool copies items by words)");
    EXPECT_VIOLATION(r = stow_genpool_insert(NULL, item));
    CHECK_LAST_VIOLATION("stow_genpool_insert: pool pointer is NULL");
    EXPECT_VIOLATION(CHECK_FALSE(stow_genpool_init(&gp, gp_buf, GP_BUF_BYTES, 8, 3, 4)));
    CHECK_LAST_VIOLATION("stow_genpool_init: item_align is neither 0 nor a power of two");
    EXPECT_VIOLATION(r = stow_genpool_handle_of(&gp, p + 4));
    CHECK_LAST_VIOLATION("stow_genpool_handle_of: pointer is not the start of an item");
    EXPECT_VIOLATION(r = stow_genpool_handle_of(&gp, item));
    CHECK_LAST_VIOLATION("stow_genpool_handle_of: pointer is outside the pool's items");
    EXPECT_VIOLATION(r = stow_genpool_next(&gp, STOW_HANDLE_NULL));
    CHECK_LAST_VIOLATION("stow_genpool_next: handle is null");
    EXPECT_VIOLATION(r = stow_genpool_next(&gp, make(4, 1)));
    CHECK_LAST_VIOLATION("stow_genpool_next: handle's index is not below the capacity");
    EXPECT_VIOLATION(stow_genpool_stats(&gp, NULL));
    CHECK_LAST_VIOLATION("stow_genpool_stats: out pointer is NULL");
    EXPECT_VIOLATION(stow_genpool_iterate(&gp, NULL));
    CHECK_LAST_VIOLATION("stow_genpool_iterate: cursor pointer is NULL");
    stow_genpool_walk_t w;
    EXPECT_VIOLATION_TEXT(w = stow_genpool_walk_begin(NULL),
                          "stow_genpool_walk_begin: pool pointer is NULL");
    CHECK_FALSE(stow_genpool_walk_next(&w)); /* an empty walk */
    EXPECT_VIOLATION(stow_genpool_clear(NULL));
    CHECK_LAST_VIOLATION("stow_genpool_clear: pool pointer is NULL");
    (void)s;
    CHECK(stow_handle_is_null(r));
    CHECK(stow_handle_eq(stow_genpool_handle_of(&gp, p), h));
    CHECK(stow_genpool_check(&gp));
}
#endif

#if STOW_CHECK_LEVEL >= 2
TEST(genpool_level2_poisons_and_catches_writes_after_remove)
{
    CHECK_CALL(fresh(8, 4, 4));
    stow_handle_t h[3];
    unsigned char *p[3];
    for (uint32_t i = 0; i < 3; i++) {
        p[i] = (unsigned char *)stow_genpool_alloc(&gp, &h[i]);
    }
    CHECK(stow_genpool_remove(&gp, h[1]));
    for (size_t k = 0; k < 8; k++) {
        CHECK_EQ(stow_test_peek(&p[1][k]), 0xDD);
    }
    CHECK(stow_genpool_check(&gp));
    uint32_t seen = stow_test_violations();
    stow_handle_t again;
    CHECK_PTR_EQ(stow_genpool_alloc(&gp, &again), p[1]); /* a clean reuse reports nothing */
    CHECK_EQ(stow_test_violations(), seen);
    CHECK(stow_genpool_remove(&gp, again));
    stow_test_poke(&p[1][3], 1); /* a write through a pointer that outlived its item */
    CHECK_FALSE(stow_genpool_check(&gp));
    stow_handle_t r = STOW_HANDLE_NULL;
    uint32_t item[2] = {5, 6};
    EXPECT_VIOLATION(r = stow_genpool_insert(&gp, item));
    CHECK_LAST_VIOLATION("stow_genpool_insert, stow_genpool_alloc: the item's memory was written "
                         "after the item was removed or cleared (through a stale pointer)");
    CHECK_EQ(stow_handle_index(r), 1); /* reported, and the insert still happens */
    CHECK_BYTES_EQ(p[1], item, 8);
    CHECK(stow_genpool_check(&gp));
    /* clear() poisons the live items; a write after it shows when the slot is reached */
    stow_genpool_clear(&gp);
    for (uint32_t i = 0; i < 3; i++) {
        for (size_t k = 0; k < 8; k++) {
            CHECK_EQ(stow_test_peek(&p[i][k]), 0xDD);
        }
    }
    CHECK(stow_genpool_check(&gp));
    stow_test_poke(&p[0][7], 0);
    CHECK_FALSE(stow_genpool_check(&gp));
    EXPECT_VIOLATION(CHECK_PTR_EQ(stow_genpool_alloc(&gp, NULL), p[0]));
    CHECK(stow_genpool_check(&gp));
    seen = stow_test_violations();
    CHECK_NOT_NULL(stow_genpool_alloc(&gp, NULL)); /* the others were left alone */
    CHECK_EQ(stow_test_violations(), seen);
    CHECK(stow_genpool_check(&gp));
}
#endif

/* ---------------------------------------------------------------- typed handles */

/* As a header would: the item struct declared, not defined. */
struct shared_thing;
STOW_GENPOOL_DECLARE_TYPED(test_shared_things, struct shared_thing);
/* As the one .c file that defines the pool would. */
struct shared_thing {
    uint32_t id;
};
STOW_GENPOOL_DEFINE(test_shared_things, struct shared_thing, 3);

TEST(genpool_typed_wrappers_work_on_their_pool)
{
    struct shared_thing t = {41};
    test_shared_things_handle_t a = test_shared_things_insert(&t);
    test_shared_things_handle_t b;
    struct shared_thing *pb = test_shared_things_alloc(&b);
    CHECK_NOT_NULL(pb);
    CHECK_EQ(pb->id, 0);
    pb->id = 42;
    CHECK_EQ(test_shared_things_get(a)->id, 41);
    CHECK(test_shared_things_contains(b));
    CHECK(stow_handle_eq(test_shared_things_handle_of(pb).untyped, b.untyped));
    CHECK_EQ(test_shared_things_count(), 2);
    uint32_t sum = 0;
    for (test_shared_things_handle_t it = test_shared_things_first(); !test_shared_things_is_null(it);
         it = test_shared_things_next(it)) {
        sum += test_shared_things_get(it)->id;
    }
    CHECK_EQ(sum, 83);
    CHECK(test_shared_things_remove(a));
    CHECK_FALSE(test_shared_things_remove(a));
    CHECK_NULL(test_shared_things_get(a));
    CHECK_NOT_NULL(test_shared_things_alloc(NULL));
    test_shared_things_clear();
    CHECK_FALSE(test_shared_things_contains(b));
    CHECK_EQ(test_shared_things_count(), 0);
    CHECK(stow_genpool_check(&test_shared_things));
}

/* ---------------------------------------------------------------- random walk */

/* A seeded random walk against a model of what the header promises: which slots
 * can be handed out, the generation each reuse must carry, which handles are live,
 * what each item holds, what iteration visits, and what is counted. check() runs
 * after every step. Items are 12 bytes (an odd part of 3: handle_of's inverse is
 * not a trivial one), and the capacity 37 is not a power of two. */
#define WALK_CAP 37u
#define WALK_OLD 16u

enum { SLOT_NEVER, SLOT_LIVE, SLOT_FREE, SLOT_RETIRED };

struct walk_item {
    uint32_t a, b, c;
};

static struct {
    unsigned char state[WALK_CAP];
    uint32_t gen[WALK_CAP]; /* the last generation the slot handed out */
    uint32_t tag[WALK_CAP];
    uint32_t live, fails, peak, retired;
    stow_handle_t old[WALK_OLD]; /* recently stale handles */
    uint32_t old_at;
} model;

static void walk_reset(void)
{
    stow_test_fill(gp_buf, 0xA5u, GP_BUF_BYTES);
    CHECK(stow_genpool_init(&gp, gp_buf, GP_BUF_BYTES, sizeof(struct walk_item),
                            STOW_ALIGNOF(struct walk_item), WALK_CAP));
    for (uint32_t i = 0; i < WALK_CAP; i++) {
        model.state[i] = SLOT_NEVER;
        model.gen[i] = 0;
    }
    model.live = model.fails = model.peak = model.retired = 0;
    for (uint32_t k = 0; k < WALK_OLD; k++) {
        model.old[k] = STOW_HANDLE_NULL;
    }
}

/* Slots that can still be handed out: never used, or free with a generation left
 * (in RETIRE mode a slot cleared at its last generation is as good as retired). */
static bool walk_slot_usable(uint32_t i)
{
    return model.state[i] == SLOT_NEVER ||
           (model.state[i] == SLOT_FREE && gen_after(model.gen[i]) != 0u);
}

static bool walk_has_room(void)
{
    for (uint32_t i = 0; i < WALK_CAP; i++) {
        if (walk_slot_usable(i)) {
            return true;
        }
    }
    return false;
}

static bool walk_is_live(stow_handle_t h)
{
    uint32_t i = stow_handle_index(h);
    return i < WALK_CAP && model.state[i] == SLOT_LIVE && stow_handle_generation(h) == model.gen[i];
}

static void walk_forget(stow_handle_t h)
{
    model.old[model.old_at] = h;
    model.old_at = (model.old_at + 1u) % WALK_OLD;
}

static void walk_fill(struct walk_item *item, uint32_t tag)
{
    item->a = tag;
    item->b = ~tag;
    item->c = tag * 2654435761u;
}

/* The pool handed out h (null when it refused): check it against the model. */
static void walk_took(stow_handle_t h, uint32_t tag)
{
    if (stow_handle_is_null(h)) {
        CHECK_FALSE(walk_has_room());
        model.fails++;
        return;
    }
    uint32_t i = stow_handle_index(h);
    CHECK_LT(i, WALK_CAP);
    CHECK(walk_slot_usable(i));
    uint32_t want = model.state[i] == SLOT_NEVER ? 1u : gen_after(model.gen[i]);
    CHECK_EQ(stow_handle_generation(h), want);
    model.state[i] = SLOT_LIVE;
    model.gen[i] = want;
    model.tag[i] = tag;
    model.live++;
    model.peak = model.live > model.peak ? model.live : model.peak;
}

static void walk_removed(uint32_t i)
{
    walk_forget(make(i, model.gen[i]));
    if (gen_after(model.gen[i]) == 0u) {
        model.state[i] = SLOT_RETIRED;
        model.retired++;
    } else {
        model.state[i] = SLOT_FREE;
    }
    model.live--;
}

/* A live slot chosen at random, or WALK_CAP when there is none. */
static uint32_t walk_pick_live(void)
{
    if (model.live == 0u) {
        return WALK_CAP;
    }
    uint32_t k = stow_test_rand_below(model.live);
    for (uint32_t i = 0; i < WALK_CAP; i++) {
        if (model.state[i] == SLOT_LIVE && k-- == 0u) {
            return i;
        }
    }
    return WALK_CAP;
}

static stow_handle_t walk_forged(void)
{
    switch (stow_test_rand_below(4)) {
    case 0:
        return model.old[stow_test_rand_below(WALK_OLD)];
    case 1: {
        uint32_t i = stow_test_rand_below(WALK_CAP);
        return make(i, model.gen[i] + stow_test_rand_below(3)); /* around the real one */
    }
    case 2:
        return make(stow_test_rand_below(WALK_CAP + 5u), stow_test_rand_below(MAX_GEN + 1u));
    default: {
        stow_handle_t h;
        h.bits = stow_test_rand();
        return h;
    }
    }
}

static void walk_step(uint32_t step)
{
    uint32_t op = stow_test_rand_below(1000);
    if (op < 300) {
        struct walk_item item;
        walk_fill(&item, step);
        CHECK_CALL(walk_took(stow_genpool_insert(&gp, &item), step));
    } else if (op < 380) {
        stow_handle_t h;
        struct walk_item *p = (struct walk_item *)stow_genpool_alloc(&gp, &h);
        CHECK_EQ(p == NULL, stow_handle_is_null(h));
        if (p != NULL) {
            CHECK(p->a == 0 && p->b == 0 && p->c == 0);
            walk_fill(p, step);
        }
        CHECK_CALL(walk_took(h, step));
    } else if (op < 580) {
        uint32_t i = walk_pick_live();
        if (i < WALK_CAP) {
            CHECK(stow_genpool_remove(&gp, make(i, model.gen[i])));
            walk_removed(i);
        }
    } else if (op < 700) {
        uint32_t i = walk_pick_live();
        if (i < WALK_CAP) {
            stow_handle_t h = make(i, model.gen[i]);
            void *p = stow_genpool_get(&gp, h);
            CHECK_PTR_EQ(p, gp_buf + (size_t)i * sizeof(struct walk_item));
            CHECK(stow_handle_eq(stow_genpool_handle_of(&gp, p), h));
        }
    } else if (op < 900) {
        stow_handle_t h = walk_forged();
        bool live = walk_is_live(h);
        CHECK_EQ(stow_genpool_contains(&gp, h), live);
        CHECK_EQ(stow_genpool_get(&gp, h) != NULL, live);
        if (!live) {
            CHECK_FALSE(stow_genpool_remove(&gp, h));
        }
        uint32_t i = stow_test_rand_below(WALK_CAP);
        stow_handle_t of = stow_genpool_handle_of(&gp, gp_buf + (size_t)i * sizeof(struct walk_item));
        CHECK(model.state[i] == SLOT_LIVE ? stow_handle_eq(of, make(i, model.gen[i]))
                                          : stow_handle_is_null(of));
    } else if (op < 998) {
        bool removing = stow_test_rand_below(4) == 0;
        uint32_t prev = 0, visited = 0, live = model.live;
        for (stow_handle_t h = stow_genpool_first(&gp); !stow_handle_is_null(h);
             h = stow_genpool_next(&gp, h)) {
            uint32_t i = stow_handle_index(h);
            CHECK(visited == 0 || i > prev);
            CHECK(walk_is_live(h));
            prev = i;
            visited++;
            if (removing && stow_test_rand_below(8) == 0) {
                CHECK(stow_genpool_remove(&gp, h));
                walk_removed(i);
            }
        }
        CHECK_EQ(visited, live);
        if (!removing) {
            uint32_t cursor = 0, items = 0;
            for (void *item; (item = stow_genpool_iterate(&gp, &cursor)) != NULL; items++) {
                CHECK(walk_is_live(stow_genpool_handle_of(&gp, item)));
            }
            CHECK_EQ(items, live);
        }
    } else {
        stow_genpool_clear(&gp);
        for (uint32_t i = 0; i < WALK_CAP; i++) {
            if (model.state[i] == SLOT_LIVE) {
                walk_forget(make(i, model.gen[i]));
                model.state[i] = SLOT_FREE;
            }
        }
        model.live = 0;
    }
}

TEST(genpool_random_operations_match_a_model)
{
    stow_test_seed(0x6E9001u);
    CHECK_CALL(walk_reset());
    uint32_t steps = STOW_TEST_SCALED(100000);
    uint32_t resets = 0, total_fails = 0;
    for (uint32_t step = 1; step <= steps; step++) {
        CHECK_CALL(walk_step(step));
        CHECK(stow_genpool_check(&gp));
        CHECK_EQ(stow_genpool_count(&gp), model.live);
        stow_stats_t s;
        stow_genpool_stats(&gp, &s);
        CHECK_EQ(s.used, model.live);
        CHECK_EQ(s.peak, model.peak);
        CHECK_EQ(s.fails, model.fails);
        /* retired slots: those the model knows, plus any cleared at their last
         * generation that the pool has stepped over already */
        uint32_t doomed = 0;
        for (uint32_t i = 0; i < WALK_CAP; i++) {
            if (model.state[i] == SLOT_LIVE) {
                const struct walk_item *p =
                    (const struct walk_item *)stow_genpool_get(&gp, make(i, model.gen[i]));
                CHECK_NOT_NULL(p);
                CHECK(p->a == model.tag[i] && p->b == ~model.tag[i] &&
                      p->c == model.tag[i] * 2654435761u);
            }
            doomed += (model.state[i] == SLOT_FREE && gen_after(model.gen[i]) == 0u) ? 1u : 0u;
        }
        CHECK_LE(model.retired, stow_genpool_retired(&gp));
        CHECK_LE(stow_genpool_retired(&gp), model.retired + doomed);
        if (model.retired + doomed > WALK_CAP / 2u) { /* RETIRE mode uses the pool up */
            total_fails += model.fails;
            CHECK_CALL(walk_reset());
            resets++;
        }
    }
    total_fails += model.fails;
    CHECK_LT(0, total_fails); /* the walk did fill the pool */
#if RETIRE_MODE && MAX_GEN < 100u
    CHECK_LT(0, resets); /* and used slots up */
#else
    (void)resets;
#endif
}

/* Items of 1 to 8 words: 2 and 4 words are copied in one step, the others by the
 * word loop; insert and read_isr copy every word. */
TEST(genpool_copies_every_word_of_items_of_each_size)
{
    uint32_t src[8];
    uint32_t out[8];
    for (uint32_t words = 1u; words <= 8u; words++) {
        size_t size = words * sizeof(uint32_t);
        CHECK(stow_genpool_init(&gp, gp_buf, sizeof gp_buf, size, 4, 4));
        for (uint32_t j = 0; j < words; j++) {
            src[j] = 0x1000u * words + j + 1u;
        }
        stow_handle_t h = stow_genpool_insert(&gp, src);
        const uint32_t *item = (const uint32_t *)stow_genpool_get(&gp, h);
        CHECK_NOT_NULL(item);
        CHECK_BYTES_EQ(item, src, size);
        stow_test_fill(out, 0u, sizeof out);
        CHECK(stow_genpool_read_isr(&gp, h, out));
        CHECK_BYTES_EQ(out, src, size);
    }
}

/* ---------------------------------------------------------------- shared use */


/* The _isr calls give what the plain calls give, read_isr copies a whole item
 * to any alignment, and everything nests inside lock()/unlock() (on the host a
 * nested take of the same word must not wait for itself). */
TEST(genpool_shared_calls_match_the_plain_ones_and_nest)
{
    CHECK_CALL(fresh(12, 4, 4)); /* copied by words */
    /* static: a local array initializer may become a memcpy call on a target */
    static const uint32_t a[3] = {0x11111111u, 0x22222222u, 0x33333333u};
    static const uint32_t b[3] = {0x44444444u, 0x55555555u, 0x66666666u};
    stow_handle_t ha = stow_genpool_insert_isr(&gp, a);
    CHECK(!stow_handle_is_null(ha));
    CHECK_PTR_EQ(stow_genpool_get_isr(&gp, ha), stow_genpool_get(&gp, ha));
    uint32_t out[4];
    stow_test_fill(out, 0u, sizeof out);
    out[3] = 0xC0FFEEu;
    CHECK(stow_genpool_read_isr(&gp, ha, out));
    CHECK_BYTES_EQ(out, a, sizeof a);
    CHECK_EQ(out[3], 0xC0FFEEu); /* item_size bytes and no more */
    unsigned char odd[16];
    stow_test_fill(odd, 0u, sizeof odd);
    CHECK(stow_genpool_read_isr(&gp, ha, odd + 1)); /* misaligned: by bytes */
    CHECK_BYTES_EQ(odd + 1, a, sizeof a);
    CHECK_EQ(odd[13], 0u);

    uint32_t state = stow_genpool_lock(&gp);
    stow_handle_t hb = stow_genpool_insert_isr(&gp, b); /* nested: does not wait */
    const uint32_t *pb = (const uint32_t *)stow_genpool_get(&gp, hb);
    CHECK_NOT_NULL(pb);
    CHECK_EQ(pb[2], 0x66666666u);
    stow_genpool_unlock(&gp, state);
    CHECK_EQ(stow_genpool_count(&gp), 2);

    CHECK(stow_genpool_remove_isr(&gp, ha));
    CHECK(!stow_genpool_remove_isr(&gp, ha)); /* stale now */
    CHECK_NULL(stow_genpool_get_isr(&gp, ha));
    out[0] = 0xABCDu;
    CHECK(!stow_genpool_read_isr(&gp, ha, out));
    CHECK_EQ(out[0], 0xABCDu); /* nothing written */
    CHECK(!stow_genpool_read_isr(&gp, STOW_HANDLE_NULL, out));
    CHECK(stow_genpool_remove_isr(&gp, hb));
    CHECK_EQ(stow_genpool_count(&gp), 0);

    /* An item size that is not whole words goes by bytes everywhere. */
    CHECK_CALL(fresh(3, 1, 4));
    static const unsigned char c[3] = {7u, 8u, 9u};
    stow_handle_t hc = stow_genpool_insert_isr(&gp, c);
    unsigned char got[4];
    stow_test_fill(got, 0u, sizeof got);
    got[3] = 0x5Au;
    CHECK(stow_genpool_read_isr(&gp, hc, got));
    CHECK_BYTES_EQ(got, c, 3);
    CHECK_EQ(got[3], 0x5Au);
    CHECK(stow_genpool_check(&gp));
}

#if STOW_CHECK_LEVEL >= 1
TEST(genpool_shared_calls_report_misuse_and_change_nothing)
{
    CHECK_CALL(fresh(4, 4, 4));
    stow_handle_t h;
    CHECK_CALL(put_u32(&gp, 5u, &h));
    uint32_t out = 0u;
    take_snapshot(&gp);
    EXPECT_VIOLATION_TEXT(CHECK(!stow_genpool_read_isr(NULL, h, &out)),
                          "stow_genpool_read_isr: pool pointer is NULL");
    EXPECT_VIOLATION_TEXT(CHECK(!stow_genpool_read_isr(&gp, h, NULL)),
                          "stow_genpool_read_isr: out pointer is NULL");
    EXPECT_VIOLATION_TEXT(CHECK(stow_handle_is_null(stow_genpool_insert_isr(NULL, &out))),
                          "stow_genpool_insert: pool pointer is NULL");
    EXPECT_VIOLATION_TEXT(CHECK(stow_handle_is_null(stow_genpool_insert_isr(&gp, NULL))),
                          "stow_genpool_insert: item pointer is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_NULL(stow_genpool_get_isr(NULL, h)), "stow_genpool_get: pool pointer is NULL");
    EXPECT_VIOLATION_TEXT(CHECK(!stow_genpool_remove_isr(NULL, h)), "stow_genpool_remove: pool pointer is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_EQ(stow_genpool_lock(NULL), 0), "stow_genpool_lock: pool pointer is NULL");
    EXPECT_VIOLATION_TEXT(stow_genpool_unlock(NULL, 0u), "stow_genpool_unlock: pool pointer is NULL");
    CHECK(same_as_snapshot(&gp));
    /* the violation inside insert_isr let the lock go: this call does not wait */
    CHECK(stow_genpool_read_isr(&gp, h, &out));
    CHECK_EQ(out, 5);
}
#endif

void stow_test_suite_genpool(void)
{
    RUN(genpool_defined_is_ready_without_init);
    RUN(genpool_copies_every_word_of_items_of_each_size);
    RUN(genpool_define_static_sizes_its_storage);
    RUN(genpool_init_refuses_bad_buffers_and_changes_nothing);
    RUN(genpool_missile_loses_its_destroyed_target);
    RUN(genpool_block_store_store_new_block);
    RUN(genpool_block_store_remove_block);
    RUN(genpool_block_store_flush);
    RUN(genpool_block_store_exceed_capacity);
    RUN(genpool_alloc_gives_zeroed_items);
    RUN(genpool_insert_copies_items_of_every_shape);
    RUN(genpool_null_and_forged_handles_are_stale);
    RUN(genpool_reuse_moves_the_generation_on);
    RUN(genpool_free_list_is_last_in_first_out_then_never_used_slots);
    RUN(genpool_single_slot_free_list);
    RUN(genpool_handle_of_round_trips_for_every_stride);
#if STOW_CHECK_LEVEL >= 1
    RUN(genpool_handle_of_rejects_pointers_not_to_an_item);
#endif
    RUN(genpool_iteration_visits_each_live_item_once_in_slot_order);
    RUN(genpool_bitmap_words_are_written_before_they_are_read);
    RUN(genpool_iteration_tolerates_removing_the_current_item);
    RUN(genpool_iterate_tolerates_removing_the_current_item);
    RUN(genpool_foreach_tolerates_removing_the_current_item_and_break);
#if STOW_CHECK_LEVEL >= 2
    RUN(genpool_foreach_reports_an_item_removed_ahead);
#endif
    RUN(genpool_iteration_skips_a_sparse_pool);
    RUN(genpool_clear_makes_every_handle_stale);
    RUN(genpool_clear_part_way_and_again);
#if MAX_GEN <= 65535u
#if !RETIRE_MODE
    RUN(genpool_generation_wraps_to_one);
#else
    RUN(genpool_generation_retires_the_slot);
    RUN(genpool_generation_retires_a_slot_that_died_in_a_clear);
#if MAX_GEN < 100u
    RUN(genpool_insert_after_clear_steps_over_a_run_of_retired_slots);
#endif
#endif
#endif
    RUN(genpool_stats_track_used_peak_and_fails);
    RUN(genpool_check_finds_broken_invariants);
#if STOW_CHECK_LEVEL >= 1
    RUN(genpool_violations_leave_the_pool_unchanged);
    RUN(genpool_violations_name_the_function_and_the_misuse);
#endif
#if STOW_CHECK_LEVEL >= 2
    RUN(genpool_level2_poisons_and_catches_writes_after_remove);
#endif
    RUN(genpool_typed_wrappers_work_on_their_pool);
    RUN(genpool_random_operations_match_a_model);
    RUN(genpool_shared_calls_match_the_plain_ones_and_nest);
#if STOW_CHECK_LEVEL >= 1
    RUN(genpool_shared_calls_report_misuse_and_change_nothing);
#endif
}
