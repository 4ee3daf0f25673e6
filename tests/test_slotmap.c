/* SPDX-License-Identifier: MIT */
/* test_slotmap.c - every clause of stow/slotmap.h, on the host and on every board. */
#include "harness.h"

/* ------------------------------------------------------------------ fixtures */

struct thing {
    uint32_t a, b, c;
};

struct word4 {
    char text[16];
};

STOW_SLOTMAP_DEFINE(test_slotmap_defined, struct thing, 8);
STOW_SLOTMAP_DEFINE_STATIC(test_slotmap_words, struct word4, 4);
STOW_SLOTMAP_DEFINE_STATIC(test_slotmap_small, uint32_t, 3);
STOW_SLOTMAP_DEFINE_TYPED_STATIC(test_missiles, struct thing, 4);
STOW_SLOTMAP_DEFINE_TYPED(test_slotmap_enemies, uint16_t, 5);
/* A typed map shared between files: what its header says, with the item struct
 * declared, not defined... */
struct shared_bullet;
STOW_SLOTMAP_DECLARE_TYPED(test_shared_bullets, struct shared_bullet);
/* ...and what the one .c file that defines it says. */
struct shared_bullet {
    uint32_t id;
};
STOW_SLOTMAP_DEFINE(test_shared_bullets, struct shared_bullet, 3);

/* Random walks: larger on the host and the big boards, small on the 16 KiB boards. */
#if defined(STOW_TEST_RAM_KIB) && STOW_TEST_RAM_KIB < 64
#define WALK_CAP 36u
#else
#define WALK_CAP 192u
#endif
#if WALK_CAP > STOW_HANDLE_MAX_CAPACITY
#undef WALK_CAP
#define WALK_CAP STOW_HANDLE_MAX_CAPACITY
#endif
#define WALK_BUF_BYTES (WALK_CAP * 20u + 64u)

static STOW_ALIGNAS(16) unsigned char walk_buf[WALK_BUF_BYTES];
static stow_slotmap_t map_a;

static uint32_t fails_of(const stow_slotmap_t *m)
{
    stow_stats_t s;
    stow_slotmap_stats(m, &s);
    return s.fails;
}

static stow_handle_t insert_u32(stow_slotmap_t *m, uint32_t value)
{
    return stow_slotmap_insert(m, &value);
}

static uint32_t value_of(const stow_slotmap_t *m, stow_handle_t h)
{
    const uint32_t *p = (const uint32_t *)stow_slotmap_get(m, h);
    return p != NULL ? *p : 0xFFFFFFFFu;
}

/* A map of uint32_t over walk_buf, storage dirtied first. */
static void fresh_u32(stow_slotmap_t *m, uint32_t capacity)
{
    stow_test_fill(walk_buf, 0xA5u, sizeof walk_buf);
    CHECK(stow_slotmap_init(m, walk_buf, sizeof walk_buf, sizeof(uint32_t), STOW_ALIGNOF(uint32_t),
                            capacity));
    CHECK(stow_slotmap_check(m));
}

static bool str_eq(const char *a, const char *b)
{
    size_t i = 0;
    for (; a[i] != '\0' && a[i] == b[i]; i++) {
    }
    return a[i] == b[i];
}

static void str_append(char *dst, const char *tail)
{
    size_t n = 0;
    while (dst[n] != '\0') {
        n++;
    }
    for (size_t i = 0; tail[i] != '\0'; i++) {
        dst[n++] = tail[i];
    }
    dst[n] = '\0';
}

static struct word4 *word_of(struct word4 *w, const char *text)
{
    stow_test_fill(w, 0, sizeof *w);
    str_append(w->text, text);
    return w;
}

/* ------------------------------------------------------------------ basics */

TEST(slotmap_defined_is_ready_without_init)
{
    stow_slotmap_t *m = &test_slotmap_defined;
    CHECK(stow_slotmap_check(m));
    CHECK_EQ(stow_slotmap_count(m), 0);
    CHECK_EQ(stow_slotmap_capacity(m), 8);
    CHECK_EQ(stow_slotmap_retired(m), 0);
    CHECK_EQ((uintptr_t)stow_slotmap_data(m) % STOW_ALIGNOF(struct thing), 0);
    /* The storage is never assumed zeroed: dirty all of it (on the boards it
     * already is, by start-up) and the map still works. */
    stow_test_fill(stow_slotmap_data(m), 0xA5u, STOW_SLOTMAP_BYTES(sizeof(struct thing), STOW_ALIGNOF(struct thing), 8));
    CHECK(stow_slotmap_check(m));
    struct thing t = {1, 2, 3};
    stow_handle_t h = stow_slotmap_insert(m, &t);
    CHECK(!stow_handle_is_null(h));
    struct thing *p = (struct thing *)stow_slotmap_get(m, h);
    CHECK_PTR_EQ(p, stow_slotmap_data(m));
    CHECK(p->a == 1 && p->b == 2 && p->c == 3);
    stow_handle_t h2;
    struct thing *q = (struct thing *)stow_slotmap_alloc(m, &h2);
    CHECK_PTR_EQ(q, p + 1);
    CHECK(q->a == 0 && q->b == 0 && q->c == 0);
    CHECK_EQ(stow_slotmap_count(m), 2);
    CHECK(stow_slotmap_check(m));
#if defined(STOW_TEST_TARGET) && STOW_SECTIONS
    extern unsigned char __stow_start[], __stow_end[];
    CHECK((unsigned char *)p >= __stow_start && (unsigned char *)p < __stow_end);
#endif
    stow_slotmap_clear(m);
    CHECK(stow_slotmap_check(m));
}

TEST(slotmap_bytes_and_overhead)
{
    /* 8 bytes per slot on top of the items, as the header says. */
    CHECK_EQ(STOW_SLOTMAP_BYTES(12, 4, 10), 10u * 12u + 10u * 8u);
    CHECK_EQ(STOW_SLOTMAP_BYTES(5, 1, 3), 16u + 3u * 8u); /* 15 rounded to 16 */
    CHECK_EQ(STOW_SLOTMAP_BYTES(5, 4, 3), 3u * 8u + 3u * 8u);
    CHECK_EQ(STOW_SLOTMAP_ALIGN(1), STOW_ALIGNOF(uint32_t));
    CHECK_EQ(STOW_SLOTMAP_ALIGN(64), 64);
    CHECK_EQ(STOW_SLOTMAP_ALIGN(0), STOW_SLOTMAP_ALIGN(STOW_DEFAULT_ALIGN));
}

TEST(slotmap_init_refuses_bad_buffers)
{
    stow_slotmap_t m;
    stow_test_fill(&m, 0u, sizeof m); /* deterministic padding: compared bytewise below */
    fresh_u32(&m, 4);
    CHECK_EQ(insert_u32(&m, 7).bits, stow_handle_make(0, 1).bits);
    stow_slotmap_t before;
    stow_test_copy(&before, &m, sizeof m);
    size_t need = STOW_SLOTMAP_BYTES(sizeof(uint32_t), 4, 8);
    CHECK_FALSE(stow_slotmap_init(&m, NULL, need, 4, 4, 8));
    CHECK_FALSE(stow_slotmap_init(&m, walk_buf, need - 1u, 4, 4, 8));
    CHECK_FALSE(stow_slotmap_init(&m, walk_buf + 2, need, 4, 4, 8)); /* misaligned */
    CHECK_FALSE(stow_slotmap_init(&m, walk_buf + 4, need, 4, 8, 8)); /* misaligned for align 8 */
    CHECK_FALSE(stow_slotmap_init(&m, walk_buf + 2, need, 4, 1, 8)); /* the tables need 4 */
    CHECK_FALSE(stow_slotmap_init(&m, walk_buf, need, 4, 4, 0));
#if STOW_HANDLE_MAX_CAPACITY < UINT32_MAX
    CHECK_FALSE(stow_slotmap_init(&m, walk_buf, SIZE_MAX, 4, 4, (uint32_t)STOW_HANDLE_MAX_CAPACITY + 1u));
#endif
    CHECK_FALSE(stow_slotmap_init(&m, walk_buf, SIZE_MAX, SIZE_MAX - 2u, 4, 2)); /* rounding overflows */
    CHECK_FALSE(stow_slotmap_init(&m, walk_buf, SIZE_MAX, SIZE_MAX / 2u, 1, 3)); /* product overflows */
    CHECK_FALSE(stow_slotmap_init(&m, walk_buf, SIZE_MAX - 8u, SIZE_MAX / 4u, 1, 4)); /* + tables */
    CHECK_BYTES_EQ(&before, &m, sizeof m);
    CHECK_EQ(value_of(&m, stow_handle_make(0, 1)), 7);
    /* Sizes near the top of size_t: init only computes (it writes nothing to the
     * buffer), so a pretend size shows where the arithmetic draws the line. */
#if STOW_HANDLE_MAX_CAPACITY >= 0x1000u
    stow_slotmap_t big;
    CHECK(stow_slotmap_init(&big, walk_buf, SIZE_MAX, 0x10000u, 1, 0x1000u));
    CHECK(stow_slotmap_init(&big, walk_buf, SIZE_MAX, 0x1000u, 1, 0x1000u));
    CHECK_FALSE(stow_slotmap_init(&big, walk_buf, 0x1000u * 0x1000u + 8u * 0x1000u - 1u, 0x1000u, 1, 0x1000u));
    CHECK(stow_slotmap_init(&big, walk_buf, 0x1000u * 0x1000u + 8u * 0x1000u, 0x1000u, 1, 0x1000u));
#if SIZE_MAX <= UINT32_MAX
    CHECK_FALSE(stow_slotmap_init(&big, walk_buf, SIZE_MAX, 0x100000u, 1, 0x1000u)); /* 2^32 */
    CHECK_FALSE(stow_slotmap_init(&big, walk_buf, SIZE_MAX, 0x1000u, 0x100000u, 0x1000u));
    CHECK_FALSE(stow_slotmap_init(&big, walk_buf, SIZE_MAX, 0xFFFFFu, 1, 0x1000u)); /* items fit, tables not */
#endif
#endif
    /* Exactly enough is enough; align 0 means the default; size 0 is refused. */
    CHECK(stow_slotmap_init(&m, walk_buf, need, 4, 4, 8));
    CHECK_EQ(stow_slotmap_count(&m), 0);
    CHECK(stow_slotmap_init(&m, walk_buf, STOW_SLOTMAP_BYTES(3, 0, 2), 3, 0, 2));
    stow_handle_t h1 = insert_u32(&m, 0x11223344u);
    stow_handle_t h2 = insert_u32(&m, 0x55667788u);
    CHECK_EQ((uintptr_t)stow_slotmap_get(&m, h2) - (uintptr_t)stow_slotmap_get(&m, h1), STOW_DEFAULT_ALIGN);
    CHECK(stow_slotmap_check(&m));
    CHECK(stow_slotmap_check(&m));
    stow_test_copy(&before, &m, sizeof m);
    CHECK_FALSE(stow_slotmap_init(&m, walk_buf, sizeof walk_buf, 0, 1, 3)); /* item_size 0 */
    CHECK_BYTES_EQ(&before, &m, sizeof m);
}

/* Swap-and-pop by handle: A, B, C; free B; C moves into B's place and its handle still
 * finds it; a handle to a freed slot is refused after the slot is reused. */
TEST(slotmap_swap_and_pop_walkthrough)
{
    stow_slotmap_t *m = &test_slotmap_small;
    stow_slotmap_clear(m);
    uint32_t a = 0xAu, b = 0xBu, c = 0xCu, d = 0xDu;
    stow_handle_t ha = stow_slotmap_insert(m, &a);
    stow_handle_t hb = stow_slotmap_insert(m, &b);
    stow_handle_t hc = stow_slotmap_insert(m, &c);
    uint32_t *data = (uint32_t *)stow_slotmap_data(m);
    CHECK(data[0] == a && data[1] == b && data[2] == c);
    CHECK_EQ(stow_handle_index(hb), stow_handle_index(stow_slotmap_handle_at(m, 1)));
    CHECK(stow_slotmap_remove(m, hb));
    CHECK_EQ(stow_slotmap_count(m), 2);
    CHECK(data[0] == a && data[1] == c);              /* C moved into B's place */
    CHECK_PTR_EQ(stow_slotmap_get(m, hc), &data[1]);   /* and its handle follows it */
    CHECK_EQ(stow_slotmap_handle_at(m, 1).bits, hc.bits);
    CHECK_PTR_EQ(stow_slotmap_get(m, ha), &data[0]);
    CHECK_NULL(stow_slotmap_get(m, hb));
    CHECK_FALSE(stow_slotmap_contains(m, hb));
    CHECK(stow_slotmap_check(m));
    /* B's slot is reused by D: same index, new generation; B's handle stays stale. */
    stow_handle_t hd = stow_slotmap_insert(m, &d);
    CHECK_EQ(stow_handle_index(hd), stow_handle_index(hb));
    CHECK_NE(stow_handle_generation(hd), stow_handle_generation(hb));
    CHECK_NULL(stow_slotmap_get(m, hb));
    CHECK_FALSE(stow_slotmap_remove(m, hb));
    CHECK_FALSE(stow_slotmap_mark_dead(m, hb));
    CHECK_EQ(value_of(m, hd), d);
    CHECK_EQ(value_of(m, hc), c);
    CHECK_EQ(value_of(m, ha), a);
    CHECK_EQ(stow_slotmap_count(m), 3);
    CHECK(stow_slotmap_check(m));
    stow_slotmap_clear(m);
}

/* Deferred destruction, the classic example (objects marked dead during a frame,
 * reaped together by refresh), with fixed char arrays for the strings. */
static uint32_t destroyed_calls;
static void count_destroy(void *item, void *ctx)
{
    (void)item;
    if (ctx == &destroyed_calls) {
        destroyed_calls++;
    }
}

TEST(slotmap_deferred_destruction_walkthrough)
{
    stow_slotmap_t *m = &test_slotmap_words;
    CHECK_EQ(stow_slotmap_count(m), 0);
    struct word4 w;
    (void)word_of(&w, "hi");
    stow_handle_t h0 = stow_slotmap_insert(m, &w);
    (void)word_of(&w, "bye");
    stow_handle_t h1 = stow_slotmap_insert(m, &w);
    (void)word_of(&w, "hello");
    stow_handle_t h2 = stow_slotmap_insert(m, &w);
    (void)word_of(&w, "goodbye");
    stow_handle_t h3 = stow_slotmap_insert(m, &w);
    CHECK_EQ(stow_slotmap_count(m), 4);
    str_append(((struct word4 *)stow_slotmap_get(m, h0))->text, " sir");
    CHECK(stow_slotmap_mark_dead(m, h1));
    str_append(((struct word4 *)stow_slotmap_get(m, h2))->text, " madam");
    CHECK(stow_slotmap_mark_dead(m, h3));
    /* Dead, but not gone until refresh. */
    CHECK(stow_slotmap_contains(m, h1) && stow_slotmap_is_dead(m, h1));
    CHECK(str_eq(((struct word4 *)stow_slotmap_get(m, h3))->text, "goodbye"));
    CHECK_EQ(stow_slotmap_count(m), 4);
    destroyed_calls = 0;
    CHECK_EQ(stow_slotmap_refresh(m, count_destroy, &destroyed_calls), 2);
    CHECK_EQ(destroyed_calls, 2);
    CHECK_FALSE(stow_slotmap_contains(m, h1));
    CHECK_FALSE(stow_slotmap_contains(m, h3));
    CHECK(str_eq(((struct word4 *)stow_slotmap_get(m, h0))->text, "hi sir"));
    CHECK(str_eq(((struct word4 *)stow_slotmap_get(m, h2))->text, "hello madam"));
    CHECK_EQ(stow_slotmap_count(m), 2);
    struct word4 *data = (struct word4 *)stow_slotmap_data(m);
    CHECK(str_eq(data[0].text, "hi sir") && str_eq(data[1].text, "hello madam"));
    CHECK(stow_slotmap_check(m));
    stow_slotmap_clear(m);
}

TEST(slotmap_handles_are_refused_when_stale_null_or_never_issued)
{
    fresh_u32(&map_a, 6);
    stow_handle_t null = STOW_HANDLE_NULL;
    CHECK_NULL(stow_slotmap_get(&map_a, null));
    /* Indices never used since start-up: whatever their words hold, refused. */
    for (uint32_t i = 0; i < 6; i++) {
        for (uint32_t g = 0; g < 4; g++) {
            stow_handle_t forged = stow_handle_make(i, g);
            CHECK_NULL(stow_slotmap_get(&map_a, forged));
            CHECK_FALSE(stow_slotmap_contains(&map_a, forged));
            CHECK_FALSE(stow_slotmap_remove(&map_a, forged));
            CHECK_FALSE(stow_slotmap_mark_dead(&map_a, forged));
            CHECK_FALSE(stow_slotmap_is_dead(&map_a, forged));
        }
    }
    stow_handle_t h[6];
    for (uint32_t i = 0; i < 6; i++) {
        h[i] = insert_u32(&map_a, 100u + i);
    }
    CHECK_NULL(stow_slotmap_get(&map_a, null)); /* full map: index 0 is live */
    CHECK_FALSE(stow_slotmap_remove(&map_a, null));
    CHECK_FALSE(stow_slotmap_mark_dead(&map_a, null));
    /* Every other generation of a live index, and an index beyond capacity. */
    for (uint32_t i = 0; i < 6; i++) {
        for (uint32_t g = 0; g < 8 && g <= STOW_HANDLE_MAX_GENERATION; g++) {
            stow_handle_t forged = stow_handle_make(i, g);
            if (stow_handle_eq(forged, h[i])) {
                continue;
            }
            CHECK_NULL(stow_slotmap_get(&map_a, forged));
            CHECK_FALSE(stow_slotmap_remove(&map_a, forged));
        }
    }
#if STOW_HANDLE_INDEX_BITS > 3
    CHECK_NULL(stow_slotmap_get(&map_a, stow_handle_make(6, 1)));
    CHECK_NULL(stow_slotmap_get(&map_a, stow_handle_make(STOW_HANDLE_INDEX_MASK, 1)));
#endif
    /* Free indices (parked after count) refuse their next generation too. */
    CHECK(stow_slotmap_remove(&map_a, h[2]));
    CHECK(stow_slotmap_remove(&map_a, h[4]));
    CHECK_NULL(stow_slotmap_get(&map_a, h[2]));
    CHECK_NULL(stow_slotmap_get(&map_a, stow_handle_make(2, stow_handle_generation(h[2]) + 1u)));
    CHECK_NULL(stow_slotmap_get(&map_a, stow_handle_make(4, stow_handle_generation(h[4]) + 1u)));
    CHECK_EQ(fails_of(&map_a), 0); /* stale handles are not fails */
    CHECK(stow_slotmap_check(&map_a));
}

/* Whatever the RAM holds in the words of never-used indices, even a word that
 * would decode to a live position, no handle naming them resolves. */
TEST(slotmap_never_used_words_are_never_trusted)
{
    fresh_u32(&map_a, 8);
    stow_handle_t h0 = insert_u32(&map_a, 40);
    stow_handle_t h1 = insert_u32(&map_a, 41);
    for (uint32_t i = 2; i < 8; i++) {
        for (uint32_t pos = 0; pos < 2; pos++) {
            uint32_t gen = 1u + (i & 1u);
            ((uint32_t *)map_a.sparse)[i] = stow_handle_make(i ^ pos, gen).bits; /* "generation gen, position pos" */
            ((uint32_t *)map_a.dense)[i] = i;
            stow_handle_t forged = stow_handle_make(i, gen);
            CHECK_NULL(stow_slotmap_get(&map_a, forged));
            CHECK_FALSE(stow_slotmap_contains(&map_a, forged));
            CHECK_FALSE(stow_slotmap_is_dead(&map_a, forged));
            CHECK_FALSE(stow_slotmap_mark_dead(&map_a, forged));
            CHECK_FALSE(stow_slotmap_remove(&map_a, forged));
        }
    }
    CHECK_EQ(stow_slotmap_count(&map_a), 2);
    CHECK_EQ(stow_slotmap_dead_count(&map_a), 0);
    CHECK_EQ(value_of(&map_a, h0), 40);
    CHECK_EQ(value_of(&map_a, h1), 41);
    CHECK(stow_slotmap_check(&map_a));
    /* and the first use of such an index overwrites the word */
    stow_handle_t h2 = insert_u32(&map_a, 42);
    CHECK_EQ(h2.bits, stow_handle_make(2, 1).bits);
    CHECK_EQ(value_of(&map_a, h2), 42);
    CHECK_NULL(stow_slotmap_get(&map_a, stow_handle_make(2, 2)));
    CHECK(stow_slotmap_check(&map_a));
}

TEST(slotmap_full_map_refuses_and_counts_fails)
{
    fresh_u32(&map_a, 3);
    for (uint32_t i = 0; i < 3; i++) {
        CHECK(!stow_handle_is_null(insert_u32(&map_a, i)));
    }
    stow_slotmap_t before;
    stow_test_copy(&before, &map_a, sizeof map_a);
    CHECK(stow_handle_is_null(insert_u32(&map_a, 9)));
    stow_handle_t out = stow_handle_make(1, 1);
    CHECK_NULL(stow_slotmap_alloc(&map_a, &out));
    CHECK(stow_handle_is_null(out));
    CHECK_EQ(fails_of(&map_a), 2);
    before.fails = 2; /* the one field a refusal changes */
    CHECK_BYTES_EQ(&before, &map_a, sizeof map_a);
    stow_stats_t s;
    stow_slotmap_stats(&map_a, &s);
    CHECK(s.capacity == 3 && s.used == 3 && s.peak == 3 && s.fails == 2);
    CHECK(stow_slotmap_remove(&map_a, stow_slotmap_handle_at(&map_a, 0)));
    CHECK(!stow_handle_is_null(insert_u32(&map_a, 5)));
    CHECK(stow_slotmap_check(&map_a));
}

TEST(slotmap_alloc_zeroes_reused_memory)
{
    stow_test_fill(walk_buf, 0xA5u, sizeof walk_buf);
    CHECK(stow_slotmap_init(&map_a, walk_buf, sizeof walk_buf, 7, 1, 4)); /* byte path */
    stow_handle_t h;
    unsigned char *p = (unsigned char *)stow_slotmap_alloc(&map_a, &h);
    CHECK_NOT_NULL(p);
    for (size_t i = 0; i < 7; i++) {
        CHECK_EQ(p[i], 0);
    }
    stow_test_fill(p, 0x77u, 7);
    CHECK(stow_slotmap_remove(&map_a, h));
    unsigned char *q = (unsigned char *)stow_slotmap_alloc(&map_a, &h);
    CHECK_PTR_EQ(q, p);
    for (size_t i = 0; i < 7; i++) {
        CHECK_EQ(q[i], 0);
    }
    fresh_u32(&map_a, 4); /* word path */
    uint32_t *w = (uint32_t *)stow_slotmap_alloc(&map_a, &h);
    CHECK_EQ(*w, 0);
    *w = 0x12345678u;
    CHECK(stow_slotmap_remove(&map_a, h));
    w = (uint32_t *)stow_slotmap_alloc(&map_a, &h);
    CHECK_EQ(*w, 0);
    CHECK(stow_slotmap_check(&map_a));
}

/* Items of 1 to 10 words: 4 words are moved in one step, 5 to 8 words as two
 * overlapping 16-byte blocks, the others by the word loop. Every word of every
 * item is checked after inserts, a remove that moves the last item into the
 * hole, a refresh that slides survivors down and a read_isr, so that a copy that
 * drops or repeats a word is caught; then alloc must zero every word of a
 * position that held an item, and no word of its neighbour. */
static void check_items_2_and_3(stow_handle_t const h[4], uint32_t words)
{
    uint32_t src[10];
    uint32_t out[10];
    size_t size = words * sizeof(uint32_t);
    for (uint32_t k = 2; k < 4u; k++) {
        for (uint32_t j = 0; j < words; j++) {
            src[j] = 0x1000u * words + 16u * k + j + 1u;
        }
        const uint32_t *item = (const uint32_t *)stow_slotmap_get(&map_a, h[k]);
        CHECK_NOT_NULL(item);
        CHECK_BYTES_EQ(item, src, size);
        stow_test_fill(out, 0u, sizeof out);
        CHECK(stow_slotmap_read_isr(&map_a, h[k], out));
        CHECK_BYTES_EQ(out, src, size);
    }
}

TEST(slotmap_copies_every_word_of_items_of_each_size)
{
    uint32_t src[10];
    for (uint32_t words = 1u; words <= 10u; words++) {
        size_t size = words * sizeof(uint32_t);
        CHECK(stow_slotmap_init(&map_a, walk_buf, sizeof walk_buf, size, 4, 4));
        stow_handle_t h[4];
        for (uint32_t k = 0; k < 4u; k++) {
            for (uint32_t j = 0; j < words; j++) {
                src[j] = 0x1000u * words + 16u * k + j + 1u;
            }
            h[k] = stow_slotmap_insert(&map_a, src);
        }
        CHECK(stow_slotmap_remove(&map_a, h[0]));     /* item 3 moves to position 0 */
        CHECK(stow_slotmap_mark_dead(&map_a, h[1]));
        CHECK_EQ(stow_slotmap_refresh(&map_a, NULL, NULL), 1u); /* item 2 slides down */
        CHECK_CALL(check_items_2_and_3(h, words));
        stow_handle_t z;
        const uint32_t *fresh = (const uint32_t *)stow_slotmap_alloc(&map_a, &z); /* position 2 */
        CHECK_NOT_NULL(fresh);
        for (uint32_t j = 0; j < words; j++) {
            CHECK_EQ(fresh[j], 0u);
        }
        CHECK_CALL(check_items_2_and_3(h, words));
        CHECK(stow_slotmap_check(&map_a));
    }
}

TEST(slotmap_insert_copies_odd_sizes_and_unaligned_sources)
{
    stow_test_fill(walk_buf, 0xA5u, sizeof walk_buf);
    /* item_size 6 at align 4: stride 8; insert copies 6 bytes, not 8. */
    CHECK(stow_slotmap_init(&map_a, walk_buf, sizeof walk_buf, 6, 4, 5));
    static STOW_ALIGNAS(4) unsigned char src[24];
    for (unsigned i = 0; i < 24; i++) {
        src[i] = (unsigned char)(i + 1u);
    }
    stow_handle_t h0 = stow_slotmap_insert(&map_a, src + 8); /* words from an aligned source */
    stow_handle_t h1 = stow_slotmap_insert(&map_a, src + 1);  /* unaligned source */
    unsigned char *p0 = (unsigned char *)stow_slotmap_get(&map_a, h0);
    unsigned char *p1 = (unsigned char *)stow_slotmap_get(&map_a, h1);
    CHECK_EQ(p1 - p0, 8);
    CHECK_BYTES_EQ(p0, src + 8, 6);
    CHECK_BYTES_EQ(p1, src + 1, 6);
    /* exactly 6 bytes came in: the padding still holds what the RAM held */
    CHECK(p0[6] == 0xA5u && p0[7] == 0xA5u && p1[6] == 0xA5u && p1[7] == 0xA5u);
    CHECK(stow_slotmap_remove(&map_a, h0)); /* h1's item moves down, all 6 bytes */
    CHECK_PTR_EQ(stow_slotmap_get(&map_a, h1), p0);
    CHECK_BYTES_EQ(p0, src + 1, 6);
    /* a reused slot too: 6 bytes in, the padding untouched (old bytes, or poison) */
    stow_handle_t h2 = stow_slotmap_insert(&map_a, src + 8);
    unsigned char *p2 = (unsigned char *)stow_slotmap_get(&map_a, h2);
    CHECK_PTR_EQ(p2, p1);
    CHECK_BYTES_EQ(p2, src + 8, 6);
    CHECK(p2[6] == (STOW_CHECK_LEVEL >= 2 ? 0xDDu : 0xA5u));
    CHECK(p2[7] == (STOW_CHECK_LEVEL >= 2 ? 0xDDu : 0xA5u));
    CHECK(stow_slotmap_check(&map_a));
}

/* ------------------------------------------------------------------ dead marks, refresh */

TEST(slotmap_dead_items_stay_until_refresh)
{
    fresh_u32(&map_a, 8);
    stow_handle_t h[5];
    for (uint32_t i = 0; i < 5; i++) {
        h[i] = insert_u32(&map_a, 10u + i);
    }
    CHECK_EQ(stow_slotmap_refresh(&map_a, NULL, NULL), 0); /* nothing dead: nothing happens */
    CHECK_EQ(stow_slotmap_count(&map_a), 5);
    CHECK(stow_slotmap_mark_dead(&map_a, h[1]));
    CHECK(stow_slotmap_mark_dead(&map_a, h[1])); /* idempotent */
    CHECK(stow_slotmap_mark_dead(&map_a, h[3]));
    CHECK_EQ(stow_slotmap_dead_count(&map_a), 2);
    CHECK(stow_slotmap_check(&map_a));
    CHECK(stow_slotmap_is_dead(&map_a, h[1]));
    CHECK_FALSE(stow_slotmap_is_dead(&map_a, h[0]));
    CHECK_EQ(value_of(&map_a, h[1]), 11);
    CHECK_EQ(stow_slotmap_count(&map_a), 5);
    const uint32_t *data = (const uint32_t *)stow_slotmap_data(&map_a);
    CHECK_EQ(data[1], 11);
    CHECK_EQ(data[3], 13);
    CHECK_EQ(stow_slotmap_handle_at(&map_a, 3).bits, h[3].bits);
    /* Removing a dead item works, and the mark travels with a moved item. */
    CHECK(stow_slotmap_remove(&map_a, h[1])); /* h[4] (live) moves to 1 */
    CHECK_EQ(stow_slotmap_dead_count(&map_a), 1);
    CHECK(stow_slotmap_remove(&map_a, h[0])); /* h[3] (dead) moves to 0 */
    CHECK_EQ(stow_slotmap_dead_count(&map_a), 1); /* a live item went: the count stays */
    CHECK_EQ(data[0], 13);
    CHECK(stow_slotmap_is_dead(&map_a, h[3]));
    CHECK_FALSE(stow_slotmap_is_dead(&map_a, h[4]));
    CHECK(stow_slotmap_check(&map_a));
    CHECK_FALSE(stow_slotmap_is_dead(&map_a, h[1])); /* stale: not "dead", just gone */
    CHECK_EQ(stow_slotmap_refresh(&map_a, NULL, NULL), 1);
    CHECK_FALSE(stow_slotmap_contains(&map_a, h[3]));
    CHECK_EQ(stow_slotmap_count(&map_a), 2);
    CHECK(data[0] == 14 && data[1] == 12);
    CHECK_EQ(stow_slotmap_dead_count(&map_a), 0);
    CHECK(stow_slotmap_check(&map_a));
}

static struct {
    uint32_t calls;
    uint32_t seen[WALK_CAP];
    const stow_slotmap_t *map;
    bool item_was_intact;
} destroy_log;

static void log_destroy(void *item, void *ctx)
{
    if (ctx != &destroy_log || destroy_log.calls >= WALK_CAP) {
        destroy_log.item_was_intact = false;
        return;
    }
    uint32_t v = *(const uint32_t *)item;
    /* the item is still the one that was marked: value and dead mark agree */
    const stow_slotmap_t *m = destroy_log.map;
    uint32_t pos = (uint32_t)((size_t)((const unsigned char *)item - m->items) / m->stride);
    if ((((const uint32_t *)m->dense)[pos] & STOW__SLOTMAP_DEAD) == 0u || (v & 1u) == 0u) {
        destroy_log.item_was_intact = false;
    }
    destroy_log.seen[destroy_log.calls++] = v;
}

TEST(slotmap_refresh_destroys_each_dead_item_once_and_keeps_order)
{
    fresh_u32(&map_a, 32);
    stow_handle_t h[32];
    stow_test_seed(0xD1Eu);
    uint32_t next = 0;
    for (uint32_t round = 0; round < 6; round++) {
        /* top the map up: inserts append, so packed order is insertion order */
        while (stow_slotmap_count(&map_a) < 32 - round) {
            uint32_t n = stow_slotmap_count(&map_a);
            h[n] = insert_u32(&map_a, next);
            next += 2u; /* even: alive */
            if (stow_handle_is_null(h[n])) {
                break; /* slots retired (with very few generation bits) */
            }
        }
        uint32_t n = stow_slotmap_count(&map_a);
        uint32_t *data = (uint32_t *)stow_slotmap_data(&map_a);
        uint32_t expect_dead = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (stow_test_rand_below(3) == 0) {
                CHECK(stow_slotmap_mark_dead(&map_a, h[i]));
                data[i] |= 1u; /* odd: marked dead (the item stays writable) */
                expect_dead++;
                if (stow_test_rand_below(2) == 0) {
                    CHECK(stow_slotmap_mark_dead(&map_a, h[i]));
                }
            }
        }
        CHECK_EQ(stow_slotmap_dead_count(&map_a), expect_dead);
        destroy_log.calls = 0;
        destroy_log.map = &map_a;
        destroy_log.item_was_intact = true;
        CHECK_EQ(stow_slotmap_refresh(&map_a, log_destroy, &destroy_log), expect_dead);
        CHECK(destroy_log.item_was_intact);
        CHECK_EQ(destroy_log.calls, expect_dead);
        /* each dead item once, in position order; survivors in order, handles kept */
        uint32_t calls = 0, kept = 0;
        uint32_t last_kept = 0;
        bool first = true;
        stow_handle_t survivors[32];
        for (uint32_t i = 0; i < n; i++) {
            const uint32_t *p = (const uint32_t *)stow_slotmap_get(&map_a, h[i]);
            if (p == NULL) {
                calls++;
                continue;
            }
            CHECK_EQ(*p & 1u, 0);
            CHECK_PTR_EQ(p, data + kept); /* stable: the kept-th survivor is at kept */
            CHECK(first || *p > last_kept);
            first = false;
            last_kept = *p;
            survivors[kept++] = h[i];
        }
        CHECK_EQ(calls, expect_dead);
        /* Values grow with position and only dead items hold odd ones (the
         * callback checked): strictly growing means each dead item exactly once,
         * in position order. */
        for (uint32_t i = 1; i < destroy_log.calls; i++) {
            CHECK_LT(destroy_log.seen[i - 1], destroy_log.seen[i]);
        }
        CHECK_EQ(kept, n - expect_dead);
        CHECK_EQ(stow_slotmap_count(&map_a), kept);
        for (uint32_t i = 0; i < kept; i++) {
            h[i] = survivors[i];
        }
        CHECK(stow_slotmap_check(&map_a));
    }
    /* NULL callback: still destroys */
    CHECK(stow_slotmap_mark_dead(&map_a, h[0]));
    CHECK_EQ(stow_slotmap_refresh(&map_a, NULL, NULL), 1);
    CHECK_NULL(stow_slotmap_get(&map_a, h[0]));
    CHECK(stow_slotmap_check(&map_a));
}

TEST(slotmap_clear_makes_every_handle_stale)
{
    fresh_u32(&map_a, 8);
    stow_handle_t h[8];
    for (uint32_t i = 0; i < 8; i++) {
        h[i] = insert_u32(&map_a, i);
    }
    CHECK(stow_slotmap_remove(&map_a, h[5]));
    CHECK(stow_slotmap_mark_dead(&map_a, h[2]));
    CHECK(stow_handle_is_null(insert_u32(&map_a, 0)) == false);
    CHECK(stow_handle_is_null(insert_u32(&map_a, 0)));
    stow_slotmap_clear(&map_a);
    CHECK(stow_slotmap_check(&map_a));
    CHECK_EQ(stow_slotmap_count(&map_a), 0);
    CHECK_EQ(stow_slotmap_dead_count(&map_a), 0);
    for (uint32_t i = 0; i < 8; i++) {
        CHECK_FALSE(stow_slotmap_contains(&map_a, h[i]));
    }
    stow_stats_t s;
    stow_slotmap_stats(&map_a, &s);
    CHECK(s.used == 0 && s.peak == 8 && s.fails == 1 && s.capacity == 8);
    /* refill: fresh handles, the old ones stay stale */
    stow_handle_t g[8];
    for (uint32_t i = 0; i < 8; i++) {
        g[i] = insert_u32(&map_a, 50u + i);
        for (uint32_t j = 0; j < 8; j++) {
            CHECK(!stow_handle_eq(g[i], h[j]));
        }
    }
    for (uint32_t i = 0; i < 8; i++) {
        CHECK_NULL(stow_slotmap_get(&map_a, h[i]));
        CHECK_EQ(value_of(&map_a, g[i]), 50u + i);
    }
    stow_slotmap_clear(&map_a);
    stow_slotmap_clear(&map_a); /* clearing an empty map is fine */
    CHECK(stow_slotmap_check(&map_a));
}

TEST(slotmap_handle_at_iterates_with_handles)
{
    fresh_u32(&map_a, 10);
    for (uint32_t i = 0; i < 10; i++) {
        (void)insert_u32(&map_a, i * 3u);
    }
    CHECK(stow_slotmap_remove(&map_a, stow_slotmap_handle_at(&map_a, 4)));
    CHECK(stow_slotmap_mark_dead(&map_a, stow_slotmap_handle_at(&map_a, 6)));
    const uint32_t *data = (const uint32_t *)stow_slotmap_data(&map_a);
    for (uint32_t i = 0; i < stow_slotmap_count(&map_a); i++) {
        stow_handle_t h = stow_slotmap_handle_at(&map_a, i);
        CHECK_PTR_EQ(stow_slotmap_get(&map_a, h), data + i);
    }
    /* removing while iterating backwards visits every item once */
    uint32_t visited = 0;
    for (uint32_t i = stow_slotmap_count(&map_a); i-- > 0;) {
        CHECK(stow_slotmap_remove(&map_a, stow_slotmap_handle_at(&map_a, i)));
        visited++;
    }
    CHECK_EQ(visited, 9);
    CHECK_EQ(stow_slotmap_count(&map_a), 0);
    CHECK(stow_slotmap_check(&map_a));
}

/* ------------------------------------------------------------------ typed handles */

TEST(slotmap_typed_wrappers)
{
    struct thing t = {7, 8, 9};
    test_missiles_handle_t m1 = test_missiles_insert(&t);
    test_missiles_handle_t m2;
    struct thing *p2 = test_missiles_alloc(&m2);
    CHECK_NOT_NULL(p2);
    CHECK_EQ(p2->a, 0);
    p2->a = 70;
    struct thing *p1 = test_missiles_get(m1);
    CHECK(p1 != NULL && p1->a == 7 && p1->c == 9);
    CHECK(test_missiles_contains(m2));
    CHECK_EQ(test_missiles_count(), 2);
    CHECK_PTR_EQ(test_missiles_data(), p1);
    CHECK_EQ(test_missiles_handle_at(1).untyped.bits, m2.untyped.bits);
    CHECK(test_missiles_mark_dead(m1));
    CHECK(test_missiles_is_dead(m1));
    CHECK_EQ(test_missiles_refresh(NULL, NULL), 1);
    CHECK_FALSE(test_missiles_contains(m1));
    CHECK_EQ(test_missiles_get(m2)->a, 70);
    CHECK(test_missiles_remove(m2));
    CHECK_FALSE(test_missiles_remove(m2));
    CHECK_EQ(test_missiles_count(), 0);
    uint16_t e = 0xBEEFu;
    test_slotmap_enemies_handle_t eh = test_slotmap_enemies_insert(&e);
    CHECK_EQ(*test_slotmap_enemies_get(eh), 0xBEEF);
    test_slotmap_enemies_clear();
    CHECK_NULL(test_slotmap_enemies_get(eh));
    CHECK(stow_slotmap_check(&test_missiles));
    CHECK(stow_slotmap_check(&test_slotmap_enemies));
    struct shared_bullet b = {77u};
    test_shared_bullets_handle_t bh = test_shared_bullets_insert(&b);
    CHECK_EQ(test_shared_bullets_get(bh)->id, 77);
    CHECK(test_shared_bullets_remove(bh));
    CHECK_NULL(test_shared_bullets_get(bh));
    CHECK(stow_slotmap_check(&test_shared_bullets));
}

/* ------------------------------------------------------------------ generations */

/* "Freed handle slots are reused last-freed first", and the exception the header
 * states: a retirement puts the slot freed longest ago first. */
TEST(slotmap_free_slots_are_reused_last_freed_first)
{
    fresh_u32(&map_a, 5);
    stow_handle_t h[5];
    for (uint32_t i = 0; i < 5; i++) {
        h[i] = insert_u32(&map_a, i);
    }
    CHECK(stow_slotmap_remove(&map_a, h[1]));
    CHECK(stow_slotmap_remove(&map_a, h[3]));
    CHECK(stow_slotmap_remove(&map_a, h[0]));
    stow_handle_t h0 = insert_u32(&map_a, 10);
    CHECK_EQ(stow_handle_index(h0), 0);
    CHECK_EQ(stow_handle_index(insert_u32(&map_a, 11)), 3);
    CHECK_EQ(stow_handle_index(insert_u32(&map_a, 12)), 1);
    CHECK(stow_slotmap_check(&map_a));
#if STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE && STOW_HANDLE_MAX_GENERATION <= 64u
    /* index 4 to its last generation; then free 0, then 2, then retire 4 */
    stow_handle_t last = h[4];
    while (stow_handle_generation(last) < STOW_HANDLE_MAX_GENERATION) {
        CHECK(stow_slotmap_remove(&map_a, last));
        last = insert_u32(&map_a, 4);
        CHECK_EQ(stow_handle_index(last), 4);
    }
    CHECK(stow_slotmap_remove(&map_a, h0));
    CHECK(stow_slotmap_remove(&map_a, h[2]));
    CHECK(stow_slotmap_remove(&map_a, last)); /* retires index 4 */
    CHECK_EQ(stow_slotmap_retired(&map_a), 1);
    CHECK_EQ(stow_handle_index(insert_u32(&map_a, 20)), 0); /* freed longest ago */
    CHECK_EQ(stow_handle_index(insert_u32(&map_a, 21)), 2);
    CHECK(stow_handle_is_null(insert_u32(&map_a, 22))); /* four usable slots, all live */
    CHECK(stow_slotmap_check(&map_a));
#endif
}

#if STOW_HANDLE_MAX_GENERATION <= 0x10000u
/* Cycles one slot through every generation. With WRAP the generation after the
 * largest is 1; with RETIRE the slot is retired, counted, and never reused. */
TEST(slotmap_generation_overflow)
{
    fresh_u32(&map_a, 2);
    stow_handle_t other = insert_u32(&map_a, 0xEEu); /* index 0 stays live throughout */
    stow_handle_t first = insert_u32(&map_a, 0u);
    CHECK_EQ(stow_handle_index(first), 1);
    CHECK_EQ(stow_handle_generation(first), 1);
    stow_handle_t h = first;
    for (uint32_t gen = 1; gen < STOW_HANDLE_MAX_GENERATION; gen++) {
        CHECK_EQ(stow_handle_generation(h), gen);
        CHECK(stow_slotmap_remove(&map_a, h));
        CHECK_NULL(stow_slotmap_get(&map_a, h));
        h = insert_u32(&map_a, gen);
        CHECK_EQ(stow_handle_index(h), 1);
    }
    CHECK_EQ(stow_handle_generation(h), STOW_HANDLE_MAX_GENERATION);
    CHECK_NULL(stow_slotmap_get(&map_a, first));
    CHECK(stow_slotmap_check(&map_a));
    CHECK(stow_slotmap_remove(&map_a, h));
    CHECK_NULL(stow_slotmap_get(&map_a, h));
    stow_stats_t s;
#if STOW_GENERATION_OVERFLOW == STOW_GEN_WRAP
    CHECK_EQ(stow_slotmap_retired(&map_a), 0);
    stow_handle_t again = insert_u32(&map_a, 5u);
    CHECK_EQ(again.bits, first.bits); /* generation 1 again: the documented cost of WRAP */
    CHECK_EQ(value_of(&map_a, first), 5);
    stow_slotmap_stats(&map_a, &s);
    CHECK_EQ(s.capacity, 2);
    CHECK_EQ(value_of(&map_a, other), 0xEE);
#else
    CHECK_EQ(stow_slotmap_retired(&map_a), 1);
    stow_slotmap_stats(&map_a, &s);
    CHECK(s.capacity == 1 && s.used == 1);
    CHECK(stow_slotmap_check(&map_a));
    CHECK(stow_handle_is_null(insert_u32(&map_a, 5u))); /* the retired slot is never reused */
    CHECK_EQ(fails_of(&map_a), 1);
    CHECK_NULL(stow_slotmap_get(&map_a, first));
    CHECK_NULL(stow_slotmap_get(&map_a, stow_handle_make(1, 0)));
    CHECK_NULL(stow_slotmap_get(&map_a, h));
    /* the live item is untouched, and its slot goes on working */
    CHECK_EQ(value_of(&map_a, other), 0xEE);
    CHECK(stow_slotmap_remove(&map_a, other));
    stow_handle_t back = insert_u32(&map_a, 6u);
    CHECK_EQ(stow_handle_index(back), 0);
    CHECK_EQ(stow_slotmap_count(&map_a), 1);
#endif
    CHECK(stow_slotmap_check(&map_a));
}

#if STOW_HANDLE_MAX_GENERATION <= 64u
/* Retirement (or wrap) through clear and refresh, among other free slots, and
 * until every slot is used up: the map then refuses everything, consistently. */
TEST(slotmap_generation_overflow_through_clear_and_refresh)
{
    fresh_u32(&map_a, 6);
    stow_handle_t h[6];
    uint32_t rounds = 0;
    for (;;) {
        uint32_t n = 0;
        stow_handle_t got;
        while (n < 6 && !stow_handle_is_null(got = insert_u32(&map_a, n))) {
            h[n++] = got;
        }
        CHECK_EQ(n, 6u - stow_slotmap_retired(&map_a));
        if (n == 0 || rounds > 4u * STOW_HANDLE_MAX_GENERATION) {
            break;
        }
        /* alternate: clear; refresh of every other; remove of the middle */
        if (rounds % 3u == 0u) {
            stow_slotmap_clear(&map_a);
        } else if (rounds % 3u == 1u) {
            for (uint32_t i = 0; i < n; i += 2) {
                CHECK(stow_slotmap_mark_dead(&map_a, h[i]));
            }
            CHECK_EQ(stow_slotmap_refresh(&map_a, NULL, NULL), (n + 1u) / 2u);
            stow_slotmap_clear(&map_a);
        } else {
            for (uint32_t i = n / 2u; i < n; i++) {
                CHECK(stow_slotmap_remove(&map_a, h[i]));
            }
            for (uint32_t i = 0; i < n / 2u; i++) {
                CHECK(stow_slotmap_remove(&map_a, h[i]));
            }
        }
        for (uint32_t i = 0; i < n; i++) {
            CHECK_NULL(stow_slotmap_get(&map_a, h[i]));
        }
        stow_stats_t s;
        stow_slotmap_stats(&map_a, &s);
        CHECK_EQ(s.capacity, 6u - stow_slotmap_retired(&map_a));
        CHECK(stow_slotmap_check(&map_a));
        rounds++;
    }
#if STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE
    CHECK_EQ(stow_slotmap_retired(&map_a), 6);
    CHECK_EQ(stow_slotmap_count(&map_a), 0);
#else
    CHECK_EQ(stow_slotmap_retired(&map_a), 0);
#endif
    CHECK(stow_slotmap_check(&map_a));
}
#endif
#endif

/* ------------------------------------------------------------------ check() */

TEST(slotmap_check_finds_broken_invariants)
{
    fresh_u32(&map_a, 6);
    stow_handle_t h[5];
    for (uint32_t i = 0; i < 5; i++) {
        h[i] = insert_u32(&map_a, i);
    }
    CHECK(stow_slotmap_remove(&map_a, h[1]));
    CHECK(stow_slotmap_mark_dead(&map_a, h[2]));
    CHECK(stow_slotmap_check(&map_a));
    stow_slotmap_t saved;
    stow_test_copy(&saved, &map_a, sizeof map_a);
    uint32_t *dense = map_a.dense, *sparse = map_a.sparse;
    uint32_t w;

    map_a.count = map_a.top + 1u; /* count beyond top */
    CHECK_FALSE(stow_slotmap_check(&map_a));
    stow_test_copy(&map_a, &saved, sizeof map_a);
    map_a.bump = map_a.capacity + 1u;
    CHECK_FALSE(stow_slotmap_check(&map_a));
    stow_test_copy(&map_a, &saved, sizeof map_a);
    map_a.top = map_a.bump + 1u;
    CHECK_FALSE(stow_slotmap_check(&map_a));
    stow_test_copy(&map_a, &saved, sizeof map_a);
    map_a.peak = map_a.top - 1u;
    CHECK_FALSE(stow_slotmap_check(&map_a));
    stow_test_copy(&map_a, &saved, sizeof map_a);
    map_a.dead = 0; /* disagrees with the marks */
    CHECK_FALSE(stow_slotmap_check(&map_a));
    stow_test_copy(&map_a, &saved, sizeof map_a);
    map_a.top = map_a.count; /* a free index no longer listed */
    CHECK_FALSE(stow_slotmap_check(&map_a));
    stow_test_copy(&map_a, &saved, sizeof map_a);

    CHECK_EQ(map_a.count, 4);
    CHECK_EQ(map_a.top, 5);
    w = dense[0];
    dense[0] = dense[1]; /* an index listed twice */
    CHECK_FALSE(stow_slotmap_check(&map_a));
    dense[0] = w;
    w = dense[4];
    dense[4] = w | STOW__SLOTMAP_DEAD; /* a dead mark on a free position */
    CHECK_FALSE(stow_slotmap_check(&map_a));
    dense[4] = w;
    CHECK(stow_slotmap_check(&map_a));
    fresh_u32(&map_a, 6);
    for (uint32_t i = 0; i < 5; i++) {
        h[i] = insert_u32(&map_a, i);
    }
    CHECK(stow_slotmap_check(&map_a));
    dense = map_a.dense;
    sparse = map_a.sparse;
    w = dense[2];
    dense[2] = w | STOW__SLOTMAP_DEAD; /* a mark the dead count does not know */
    CHECK_FALSE(stow_slotmap_check(&map_a));
    dense[2] = 7u; /* an index never used */
    CHECK_FALSE(stow_slotmap_check(&map_a));
    dense[2] = w;
    w = sparse[3];
    sparse[3] = w & STOW_HANDLE_INDEX_MASK; /* generation 0, not the retired word */
    CHECK_FALSE(stow_slotmap_check(&map_a));
    sparse[3] = w ^ 1u; /* points at the wrong position */
    CHECK_FALSE(stow_slotmap_check(&map_a));
    sparse[3] = 3u ^ STOW_HANDLE_INDEX_MASK; /* retired word, but nothing is retired */
    CHECK_FALSE(stow_slotmap_check(&map_a));
    sparse[3] = w;
    CHECK(stow_slotmap_check(&map_a));
    map_a.items = NULL;
    CHECK_FALSE(stow_slotmap_check(&map_a));
    map_a.items = walk_buf;
    CHECK(stow_slotmap_check(&map_a));
}

/* ------------------------------------------------------------------ contract violations */

#if STOW_CHECK_LEVEL >= 1
TEST(slotmap_violations_leave_the_map_unchanged)
{
    fresh_u32(&map_a, 6);
    stow_handle_t h0 = insert_u32(&map_a, 1);
    (void)insert_u32(&map_a, 2);
    CHECK(stow_slotmap_mark_dead(&map_a, h0));
    size_t bytes = STOW_SLOTMAP_BYTES(4, 4, 6);
    stow_slotmap_t before;
    static STOW_ALIGNAS(16) unsigned char before_buf[STOW_SLOTMAP_BYTES(4, 4, 6)];
    stow_test_copy(&before, &map_a, sizeof map_a);
    stow_test_copy(before_buf, walk_buf, bytes);
    void *p = &p;
    stow_handle_t h = stow_handle_make(1, 1);
    stow_stats_t s;

    EXPECT_VIOLATION(CHECK_FALSE(stow_slotmap_init(NULL, walk_buf, sizeof walk_buf, 4, 4, 4)));
    EXPECT_VIOLATION(CHECK_FALSE(stow_slotmap_init(&map_a, walk_buf, sizeof walk_buf, 4, 3, 4)));
    EXPECT_VIOLATION(CHECK_FALSE(stow_slotmap_init(&map_a, walk_buf, sizeof walk_buf, 4, 12, 4)));
    EXPECT_VIOLATION(p = stow_slotmap_alloc(NULL, &h));
    CHECK_NULL(p);
    p = &p;
    EXPECT_VIOLATION(p = stow_slotmap_alloc(&map_a, NULL));
    CHECK_NULL(p);
    EXPECT_VIOLATION(h = stow_slotmap_insert(NULL, &bytes));
    CHECK(stow_handle_is_null(h));
    h = h0;
    EXPECT_VIOLATION(h = stow_slotmap_insert(&map_a, NULL));
    CHECK(stow_handle_is_null(h));
    p = &p;
    EXPECT_VIOLATION(p = stow_slotmap_get(NULL, h0));
    CHECK_NULL(p);
    EXPECT_VIOLATION(CHECK_FALSE(stow_slotmap_contains(NULL, h0)));
    EXPECT_VIOLATION(CHECK_FALSE(stow_slotmap_remove(NULL, h0)));
    p = &p;
    EXPECT_VIOLATION(p = stow_slotmap_data(NULL));
    CHECK_NULL(p);
    EXPECT_VIOLATION(CHECK_EQ(stow_slotmap_count(NULL), 0));
    EXPECT_VIOLATION(CHECK_EQ(stow_slotmap_capacity(NULL), 0));
    EXPECT_VIOLATION(h = stow_slotmap_handle_at(NULL, 0));
    CHECK(stow_handle_is_null(h));
    h = h0;
    EXPECT_VIOLATION(h = stow_slotmap_handle_at(&map_a, 2)); /* == count */
    CHECK(stow_handle_is_null(h));
    EXPECT_VIOLATION(h = stow_slotmap_handle_at(&map_a, 0xFFFFFFFFu));
    EXPECT_VIOLATION(stow_slotmap_clear(NULL));
    EXPECT_VIOLATION(CHECK_FALSE(stow_slotmap_mark_dead(NULL, h0)));
    EXPECT_VIOLATION(CHECK_FALSE(stow_slotmap_is_dead(NULL, h0)));
    EXPECT_VIOLATION(CHECK_EQ(stow_slotmap_dead_count(NULL), 0));
    EXPECT_VIOLATION(CHECK_EQ(stow_slotmap_refresh(NULL, NULL, NULL), 0));
    EXPECT_VIOLATION(CHECK_EQ(stow_slotmap_retired(NULL), 0));
    EXPECT_VIOLATION(stow_slotmap_stats(NULL, &s));
    EXPECT_VIOLATION(stow_slotmap_stats(&map_a, NULL));
    EXPECT_VIOLATION(CHECK_FALSE(stow_slotmap_check(NULL)));

    CHECK_BYTES_EQ(&before, &map_a, sizeof map_a);
    CHECK_BYTES_EQ(before_buf, walk_buf, bytes);
    CHECK(stow_slotmap_check(&map_a));
}

/* A violation reaches the assert hook as the public function's name and the
 * misuse in words, not as the failed expression. */
TEST(slotmap_violations_name_the_function_and_the_misuse)
{
    fresh_u32(&map_a, 4);
    stow_handle_t h = insert_u32(&map_a, 7), r = h;
    uint32_t item = 7u;
    EXPECT_VIOLATION(r = stow_slotmap_handle_at(&map_a, 1));
    CHECK_LAST_VIOLATION("stow_slotmap_handle_at: index is not below count");
    CHECK(stow_handle_is_null(r));
    EXPECT_VIOLATION(r = stow_slotmap_insert(&map_a, NULL));
    CHECK_LAST_VIOLATION("stow_slotmap_insert: item pointer is NULL");
    EXPECT_VIOLATION(r = stow_slotmap_insert(NULL, &item));
    CHECK_LAST_VIOLATION("stow_slotmap_insert: map pointer is NULL");
    EXPECT_VIOLATION(CHECK_NULL(stow_slotmap_alloc(&map_a, NULL)));
    CHECK_LAST_VIOLATION("stow_slotmap_alloc: out pointer is NULL");
    EXPECT_VIOLATION(CHECK_FALSE(stow_slotmap_init(&map_a, walk_buf, sizeof walk_buf, 4, 6, 4)));
    CHECK_LAST_VIOLATION("stow_slotmap_init: item_align is neither 0 nor a power of two");
    EXPECT_VIOLATION(CHECK_FALSE(stow_slotmap_remove(NULL, h)));
    CHECK_LAST_VIOLATION("stow_slotmap_remove: map pointer is NULL");
    EXPECT_VIOLATION(stow_slotmap_stats(&map_a, NULL));
    CHECK_LAST_VIOLATION("stow_slotmap_stats: out pointer is NULL");
    EXPECT_VIOLATION(CHECK_EQ(stow_slotmap_refresh(NULL, NULL, NULL), 0));
    CHECK_LAST_VIOLATION("stow_slotmap_refresh: map pointer is NULL");
    CHECK(stow_handle_eq(stow_slotmap_handle_at(&map_a, 0), h));
    CHECK(stow_slotmap_check(&map_a));
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

TEST(slotmap_level2_poisons_and_catches_writes_after_remove)
{
    fresh_u32(&map_a, 6);
    stow_handle_t h[4];
    for (uint32_t i = 0; i < 4; i++) {
        h[i] = insert_u32(&map_a, i);
    }
    uint32_t *last = (uint32_t *)stow_slotmap_get(&map_a, h[3]);
    CHECK(stow_slotmap_remove(&map_a, h[1])); /* h[3] moves to 1; position 3 released */
    CHECK_EQ(u32_stale(last), 0xDDDDDDDDu);
    CHECK(stow_slotmap_check(&map_a));
    uint32_t seen = stow_test_violations();
    h[1] = insert_u32(&map_a, 9); /* a clean reuse reports nothing */
    CHECK_EQ(stow_test_violations(), seen);
    CHECK_PTR_EQ(stow_slotmap_get(&map_a, h[1]), last);
    CHECK(stow_slotmap_remove(&map_a, h[1]));
    stow_test_poke(last, 1); /* a write through a pointer kept past the remove */
    CHECK_FALSE(stow_slotmap_check(&map_a));
    EXPECT_VIOLATION(h[1] = insert_u32(&map_a, 10));
    CHECK_LAST_VIOLATION("stow_slotmap_insert, stow_slotmap_alloc: the item's memory was written "
                         "after its item was removed, refreshed away or cleared (through a stale pointer)");
    CHECK_EQ(value_of(&map_a, h[1]), 10); /* reported, and the insert still happens */
    CHECK(stow_slotmap_check(&map_a));
    /* refresh and clear release too */
    CHECK(stow_slotmap_mark_dead(&map_a, h[0]));
    uint32_t *tail = (uint32_t *)stow_slotmap_get(&map_a, h[1]);
    CHECK_EQ(stow_slotmap_refresh(&map_a, NULL, NULL), 1);
    CHECK_EQ(u32_stale(tail), 0xDDDDDDDDu);
    CHECK(stow_slotmap_check(&map_a));
    uint32_t *first = (uint32_t *)stow_slotmap_data(&map_a);
    stow_slotmap_clear(&map_a);
    CHECK_EQ(u32_stale(first), 0xDDDDDDDDu);
    CHECK(stow_slotmap_check(&map_a));
    stow_test_poke(&first[1], 0);
    CHECK_FALSE(stow_slotmap_check(&map_a));
    (void)insert_u32(&map_a, 1);
    EXPECT_VIOLATION((void)insert_u32(&map_a, 2));
    CHECK(stow_slotmap_check(&map_a));
}
#endif

/* ------------------------------------------------------------------ random walk */

/* The model: the packed order itself. Each entry has the handle and the tag its
 * item bytes were filled from; the map must agree with it entirely after every
 * step (data, handles, dead marks, counts, stats), and check() must pass. */
static struct {
    uint32_t handle[WALK_CAP];
    uint32_t tag[WALK_CAP];
    bool dead[WALK_CAP];
    uint32_t count;
    uint32_t stale[32]; /* recently invalidated handles */
    uint32_t nstale;
    uint32_t fails, peak, destroyed;
    size_t size; /* item size in bytes */
} model;

static unsigned char pattern_byte(uint32_t tag, size_t k) { return (unsigned char)((tag * 7u + k) ^ (tag >> 8)); }

static void fill_pattern(unsigned char *p, uint32_t tag, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        p[k] = pattern_byte(tag, k);
    }
}

static bool has_pattern(const unsigned char *p, uint32_t tag, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if (p[k] != pattern_byte(tag, k)) {
            return false;
        }
    }
    return true;
}

static void forget(uint32_t handle)
{
    model.stale[model.nstale++ & 31u] = handle;
}

/* Entry i of the model whose handle is h, or WALK_CAP. */
static uint32_t model_find(uint32_t h)
{
    for (uint32_t i = 0; i < model.count; i++) {
        if (model.handle[i] == h) {
            return i;
        }
    }
    return WALK_CAP;
}

static void model_on_destroy(void *item, void *ctx)
{
    if (ctx != &model) {
        return;
    }
    /* The destroyed items must come in position order and still hold their bytes:
     * find the next dead model entry at or after the cursor. */
    while (model.destroyed < model.count && !model.dead[model.destroyed]) {
        model.destroyed++;
    }
    if (model.destroyed < model.count &&
        has_pattern((const unsigned char *)item, model.tag[model.destroyed], model.size)) {
        model.dead[model.destroyed] = false; /* consumed: exactly once */
        model.tag[model.destroyed] ^= 0x80000000u; /* marks "destroyed" for the caller */
    }
    model.destroyed++;
}

static void expect_handle(const stow_slotmap_t *m, uint32_t bits)
{
    stow_handle_t h = {bits};
    uint32_t i = model_find(bits);
    unsigned char *p = (unsigned char *)stow_slotmap_get(m, h);
    if (i == WALK_CAP) {
        CHECK_NULL(p);
        CHECK_FALSE(stow_slotmap_contains(m, h));
        CHECK_FALSE(stow_slotmap_is_dead(m, h));
    } else {
        CHECK_PTR_EQ(p, (unsigned char *)stow_slotmap_data(m) + (size_t)i * m->stride);
        CHECK(stow_slotmap_contains(m, h));
        CHECK_EQ(stow_slotmap_is_dead(m, h), model.dead[i]);
    }
}

static void compare_with_model(const stow_slotmap_t *m)
{
    CHECK(stow_slotmap_check(m));
    CHECK_EQ(stow_slotmap_count(m), model.count);
    const unsigned char *data = (const unsigned char *)stow_slotmap_data(m);
    uint32_t dead = 0;
    for (uint32_t i = 0; i < model.count; i++) {
        CHECK_EQ(stow_slotmap_handle_at(m, i).bits, model.handle[i]);
        CHECK(has_pattern(data + (size_t)i * m->stride, model.tag[i], model.size));
        dead += model.dead[i] ? 1u : 0u;
    }
    CHECK_EQ(stow_slotmap_dead_count(m), dead);
    stow_stats_t s;
    stow_slotmap_stats(m, &s);
    CHECK_EQ(s.used, model.count);
    CHECK_EQ(s.peak, model.peak);
    CHECK_EQ(s.fails, model.fails);
    CHECK_EQ(s.capacity, WALK_CAP - stow_slotmap_retired(m));
}

static void walk_reset(stow_slotmap_t *m, size_t size, size_t align)
{
    stow_test_fill(walk_buf, 0xA5u, sizeof walk_buf);
    CHECK(stow_slotmap_init(m, walk_buf, sizeof walk_buf, size, align, WALK_CAP));
    model.count = 0;
    model.nstale = 0;
    model.fails = 0;
    model.peak = 0;
    model.size = size;
}

static void random_walk(size_t size, size_t align, uint32_t steps, uint32_t seed)
{
    stow_slotmap_t *m = &map_a;
    CHECK_CALL(walk_reset(m, size, align));
    stow_test_seed(seed);
    static STOW_ALIGNAS(8) unsigned char item[24];
    uint32_t tag = 1;
    uint32_t reinits = 0, refreshes = 0, removes = 0, gets = 0;
    /* Phases bias the walk to fill up and to drain, so full and empty both happen. */
    for (uint32_t step = 0; step < steps; step++) {
        bool filling = ((step >> 10) & 1u) == 0u;
        uint32_t op = stow_test_rand_below(100);
        /* op thresholds: insert, remove, mark dead, refresh, clear, else lookups */
        uint32_t t_insert = filling ? 50u : 15u, t_remove = filling ? 62u : 50u;
        uint32_t t_mark = filling ? 72u : 68u;
        if (op < t_insert) { /* insert or alloc */
            stow_handle_t h;
            unsigned char *p;
            tag++;
            if ((op & 1u) == 0u) {
                fill_pattern(item + (op & 4u ? 1u : 0u), tag, size); /* sometimes unaligned */
                h = stow_slotmap_insert(m, item + (op & 4u ? 1u : 0u));
                p = (unsigned char *)stow_slotmap_get(m, h);
            } else {
                p = (unsigned char *)stow_slotmap_alloc(m, &h);
                if (p != NULL) {
                    for (size_t k = 0; k < size; k++) {
                        CHECK_EQ(p[k], 0);
                    }
                    fill_pattern(p, tag, size);
                }
            }
            if (model.count == WALK_CAP - stow_slotmap_retired(m)) {
                CHECK(stow_handle_is_null(h));
                CHECK_NULL(p);
                model.fails++;
            } else {
                CHECK(!stow_handle_is_null(h));
                CHECK_EQ(model_find(h.bits), WALK_CAP); /* a fresh handle: nothing live has it */
                model.handle[model.count] = h.bits;
                model.tag[model.count] = tag;
                model.dead[model.count] = false;
                model.count++;
                if (model.count > model.peak) {
                    model.peak = model.count;
                }
            }
        } else if (op < t_remove) { /* remove: live (dead-marked or not), stale or forged */
            uint32_t bits;
            uint32_t pick = stow_test_rand_below(8);
            if (pick < 6u && model.count > 0) {
                bits = model.handle[stow_test_rand_below(model.count)];
            } else if (pick < 7u && model.nstale > 0) {
                bits = model.stale[stow_test_rand_below(model.nstale < 32u ? model.nstale : 32u)];
            } else {
                bits = stow_test_rand();
            }
            uint32_t i = model_find(bits);
            stow_handle_t h = {bits};
            CHECK_EQ(stow_slotmap_remove(m, h), i != WALK_CAP);
            if (i != WALK_CAP) {
                removes++;
                uint32_t last = model.count - 1u;
                model.handle[i] = model.handle[last];
                model.tag[i] = model.tag[last];
                model.dead[i] = model.dead[last];
                model.count = last;
                forget(bits);
            }
        } else if (op < t_mark) { /* mark dead */
            uint32_t bits = model.count > 0 && stow_test_rand_below(5) != 0
                                ? model.handle[stow_test_rand_below(model.count)]
                                : (model.nstale > 0 ? model.stale[stow_test_rand_below(model.nstale < 32u ? model.nstale : 32u)] : 0u);
            uint32_t i = model_find(bits);
            stow_handle_t h = {bits};
            CHECK_EQ(stow_slotmap_mark_dead(m, h), i != WALK_CAP);
            if (i != WALK_CAP) {
                model.dead[i] = true;
            }
        } else if (op < 75u) { /* refresh */
            refreshes++;
            uint32_t expect = 0;
            for (uint32_t i = 0; i < model.count; i++) {
                expect += model.dead[i] ? 1u : 0u;
            }
            model.destroyed = 0;
            CHECK_EQ(stow_slotmap_refresh(m, model_on_destroy, &model), expect);
            /* every destroyed entry was consumed exactly once, in order */
            uint32_t kept = 0;
            for (uint32_t i = 0; i < model.count; i++) {
                CHECK_FALSE(model.dead[i]);
                if ((model.tag[i] & 0x80000000u) != 0u) {
                    forget(model.handle[i]);
                    continue;
                }
                model.handle[kept] = model.handle[i];
                model.tag[kept] = model.tag[i];
                model.dead[kept] = false;
                kept++;
            }
            CHECK_EQ(kept, model.count - expect);
            model.count = kept;
        } else if (op < 76u && !filling && stow_test_rand_below(4) == 0) { /* clear (rare) */
            stow_slotmap_clear(m);
            for (uint32_t i = 0; i < model.count; i++) {
                forget(model.handle[i]);
            }
            model.count = 0;
        } else { /* lookups: live, stale, forged */
            gets++;
            if (model.count > 0) {
                CHECK_CALL(expect_handle(m, model.handle[stow_test_rand_below(model.count)]));
            }
            if (model.nstale > 0) {
                CHECK_CALL(expect_handle(m, model.stale[stow_test_rand_below(model.nstale < 32u ? model.nstale : 32u)]));
            }
            uint32_t forged = stow_test_rand();
            if (stow_test_rand_below(2) == 0 && model.count > 0) {
                /* near miss: a live index with another generation */
                forged = (forged & ~STOW_HANDLE_INDEX_MASK) |
                         (model.handle[stow_test_rand_below(model.count)] & STOW_HANDLE_INDEX_MASK);
            }
            CHECK_CALL(expect_handle(m, forged));
            CHECK_CALL(expect_handle(m, 0u));
        }
        CHECK_CALL(compare_with_model(m));
        /* With RETIRE and few generation bits the slots run out: start again. */
        if (stow_slotmap_retired(m) > WALK_CAP / 2u) {
            reinits++;
            CHECK_CALL(walk_reset(m, size, align));
        }
    }
    CHECK_LT(0, model.fails + reinits); /* the walk did fill the map */
    CHECK_LT(0, refreshes);
    CHECK_LT(0, removes);
    CHECK_LT(0, gets);
}

TEST(slotmap_random_walk_words)
{
    CHECK_CALL(random_walk(12, 4, STOW_TEST_SCALED(100000), 0x5107u));
}

TEST(slotmap_random_walk_odd_bytes)
{
    CHECK_CALL(random_walk(5, 1, STOW_TEST_SCALED(20000), 0xB17Eu));
}

TEST(slotmap_random_walk_halfwords)
{
    CHECK_CALL(random_walk(2, 2, STOW_TEST_SCALED(20000), 0x0DDu));
}

/* ---------------------------------------------------------------- shared use */


/* The _isr calls give what the plain calls give, read_isr copies a whole item
 * (to any alignment) under the lock, and everything nests inside lock()/unlock(). */
TEST(slotmap_shared_calls_match_the_plain_ones_and_nest)
{
    CHECK_CALL(fresh_u32(&map_a, 4));
    uint32_t v1 = 0x01020304u, v2 = 0x0A0B0C0Du;
    stow_handle_t h1 = stow_slotmap_insert_isr(&map_a, &v1);
    stow_handle_t h2 = stow_slotmap_insert_isr(&map_a, &v2);
    CHECK(!stow_handle_is_null(h1) && !stow_handle_is_null(h2));
    CHECK_PTR_EQ(stow_slotmap_get_isr(&map_a, h2), stow_slotmap_get(&map_a, h2));
    uint32_t out[2];
    out[0] = 0u;
    out[1] = 0xC0FFEEu;
    CHECK(stow_slotmap_read_isr(&map_a, h2, out));
    CHECK_EQ(out[0], 0x0A0B0C0Du);
    CHECK_EQ(out[1], 0xC0FFEEu); /* item_size bytes and no more */
    unsigned char odd[8];
    stow_test_fill(odd, 0u, sizeof odd);
    CHECK(stow_slotmap_read_isr(&map_a, h1, odd + 1)); /* misaligned: by bytes */
    CHECK_BYTES_EQ(odd + 1, &v1, sizeof v1);
    CHECK_EQ(odd[5], 0u);

    /* remove_isr moves the last item into the gap: h2 still reads its value */
    CHECK(stow_slotmap_remove_isr(&map_a, h1));
    CHECK(!stow_slotmap_remove_isr(&map_a, h1));
    CHECK_NULL(stow_slotmap_get_isr(&map_a, h1));
    out[0] = 0xABCDu;
    CHECK(!stow_slotmap_read_isr(&map_a, h1, out));
    CHECK_EQ(out[0], 0xABCDu); /* nothing written */
    CHECK(stow_slotmap_read_isr(&map_a, h2, out));
    CHECK_EQ(out[0], 0x0A0B0C0Du);

    uint32_t state = stow_slotmap_lock(&map_a);
    stow_handle_t h3 = stow_slotmap_insert_isr(&map_a, &v1); /* nested: does not wait */
    CHECK_EQ(value_of(&map_a, h3), 0x01020304u);
    CHECK(stow_slotmap_mark_dead(&map_a, h3));
    stow_slotmap_unlock(&map_a, state);
    CHECK(stow_slotmap_read_isr(&map_a, h3, out)); /* dead-marked items read too */
    CHECK_EQ(out[0], 0x01020304u);
    CHECK(stow_slotmap_remove_isr(&map_a, h3));
    CHECK(stow_slotmap_remove_isr(&map_a, h2));
    CHECK_EQ(stow_slotmap_count(&map_a), 0);
    CHECK(stow_slotmap_check(&map_a));
}

#if STOW_CHECK_LEVEL >= 1
TEST(slotmap_shared_calls_report_misuse_and_change_nothing)
{
    CHECK_CALL(fresh_u32(&map_a, 4));
    stow_handle_t h = insert_u32(&map_a, 9u);
    uint32_t out = 0u;
    EXPECT_VIOLATION_TEXT(CHECK(!stow_slotmap_read_isr(NULL, h, &out)),
                          "stow_slotmap_read_isr: map pointer is NULL");
    EXPECT_VIOLATION_TEXT(CHECK(!stow_slotmap_read_isr(&map_a, h, NULL)),
                          "stow_slotmap_read_isr: out pointer is NULL");
    EXPECT_VIOLATION_TEXT(CHECK(stow_handle_is_null(stow_slotmap_insert_isr(NULL, &out))),
                          "stow_slotmap_insert: map pointer is NULL");
    EXPECT_VIOLATION_TEXT(CHECK(stow_handle_is_null(stow_slotmap_insert_isr(&map_a, NULL))),
                          "stow_slotmap_insert: item pointer is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_NULL(stow_slotmap_get_isr(NULL, h)), "stow_slotmap_get: map pointer is NULL");
    EXPECT_VIOLATION_TEXT(CHECK(!stow_slotmap_remove_isr(NULL, h)), "stow_slotmap_remove: map pointer is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_EQ(stow_slotmap_lock(NULL), 0), "stow_slotmap_lock: map pointer is NULL");
    EXPECT_VIOLATION_TEXT(stow_slotmap_unlock(NULL, 0u), "stow_slotmap_unlock: map pointer is NULL");
    CHECK_EQ(stow_slotmap_count(&map_a), 1);
    CHECK(stow_slotmap_check(&map_a));
    /* the violation inside insert_isr let the lock go: this call does not wait */
    CHECK(stow_slotmap_read_isr(&map_a, h, &out));
    CHECK_EQ(out, 9);
}
#endif

void stow_test_suite_slotmap(void)
{
    RUN(slotmap_defined_is_ready_without_init);
    RUN(slotmap_bytes_and_overhead);
    RUN(slotmap_init_refuses_bad_buffers);
    RUN(slotmap_swap_and_pop_walkthrough);
    RUN(slotmap_deferred_destruction_walkthrough);
    RUN(slotmap_handles_are_refused_when_stale_null_or_never_issued);
    RUN(slotmap_never_used_words_are_never_trusted);
    RUN(slotmap_full_map_refuses_and_counts_fails);
    RUN(slotmap_alloc_zeroes_reused_memory);
    RUN(slotmap_free_slots_are_reused_last_freed_first);
    RUN(slotmap_insert_copies_odd_sizes_and_unaligned_sources);
    RUN(slotmap_copies_every_word_of_items_of_each_size);
    RUN(slotmap_dead_items_stay_until_refresh);
    RUN(slotmap_refresh_destroys_each_dead_item_once_and_keeps_order);
    RUN(slotmap_clear_makes_every_handle_stale);
    RUN(slotmap_handle_at_iterates_with_handles);
    RUN(slotmap_typed_wrappers);
#if STOW_HANDLE_MAX_GENERATION <= 0x10000u
    RUN(slotmap_generation_overflow);
#if STOW_HANDLE_MAX_GENERATION <= 64u
    RUN(slotmap_generation_overflow_through_clear_and_refresh);
#endif
#endif
    RUN(slotmap_check_finds_broken_invariants);
#if STOW_CHECK_LEVEL >= 1
    RUN(slotmap_violations_leave_the_map_unchanged);
    RUN(slotmap_violations_name_the_function_and_the_misuse);
#endif
#if STOW_CHECK_LEVEL >= 2
    RUN(slotmap_level2_poisons_and_catches_writes_after_remove);
#endif
    RUN(slotmap_random_walk_words);
    RUN(slotmap_random_walk_odd_bytes);
    RUN(slotmap_random_walk_halfwords);
    RUN(slotmap_shared_calls_match_the_plain_ones_and_nest);
#if STOW_CHECK_LEVEL >= 1
    RUN(slotmap_shared_calls_report_misuse_and_change_nothing);
#endif
}
