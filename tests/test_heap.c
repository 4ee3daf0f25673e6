/* SPDX-License-Identifier: MIT */
/* test_heap.c - every clause of stow/heap.h, on the host and on every board,
 * and the fragmentation bound (STOW_HEAP_BYTES_FOR) against adversaries that
 * use the addresses they get. */
#include "harness.h"

#if !defined(STOW_TEST_TARGET)
#include <pthread.h>
#include <stdatomic.h>
#endif

/* ---- the heap's constants, and the storage the tests work in ------------------ */

#define WORD sizeof(void *)
#define OVERHEAD STOW_HEAP_OVERHEAD
#define GRAIN STOW_HEAP_ALIGN
#define MIN_BLOCK STOW_HEAP_MIN_BLOCK
#if STOW_CHECK_LEVEL >= 2
#define TAIL sizeof(void *) /* level 2 keeps the requested size in each block's last word */
#else
#define TAIL ((size_t)0u)
#endif
#define SIZE_BITS (sizeof(size_t) * 8u)

/* One DEFINE'd heap whose storage, once the first test has seen the heap ready
 * without init, is the work buffer of every other test (heaps made with init over
 * parts of it, snapshots, scratch). The 16 KiB boards (micro:bit, sifive_e) have
 * little RAM to spare: 512 bytes there. */
#if defined(STOW_TEST_RAM_KIB) && STOW_TEST_RAM_KIB < 64
#define WORK_BYTES 512u
#define SMALL_RAM 1
#elif defined(STOW_TEST_TARGET)
#define WORK_BYTES (64u * 1024u)
#define SMALL_RAM 0
#else
#define WORK_BYTES (2u * 1024u * 1024u)
#define SMALL_RAM 0
#endif

STOW_HEAP_DEFINE(test_heap_defined, WORK_BYTES);
#define WORK stow__heap_buf_test_heap_defined

/* The second heap: file-local, sized by the bound macro (a constant expression,
 * so DEFINE takes it), and the "other heap" of the ownership tests. */
#define STATIC_LIVE 16u
#define STATIC_MAX 8u
#define STATIC_MIN 8u
STOW_HEAP_DEFINE_STATIC(test_heap_static, STOW_HEAP_BYTES_FOR_MIN(STATIC_LIVE, STATIC_MAX, STATIC_MIN));

/* The bound macros are integer constant expressions. */
STOW_STATIC_ASSERT(STOW_HEAP_BYTES_FOR(100, 50) == STOW_HEAP_BYTES_FOR_MIN(100, 50, 1),
                   "BYTES_FOR is BYTES_FOR_MIN with min_request 1");
STOW_STATIC_ASSERT(STOW_HEAP_BYTES_FOR_MIN(100, 50, 0) == STOW_HEAP_BYTES_FOR_MIN(100, 50, 1),
                   "a 0-byte request counts as 1");
STOW_STATIC_ASSERT(STOW_HEAP_BYTES_FOR(1, 1) >= STOW_HEAP_MIN_BYTES, "one request needs a heap");
enum { test_heap_enum_bytes = (int)STOW_HEAP_BYTES_FOR(64, 16) };
static const unsigned char test_heap_array_of_bound[STOW_HEAP_BYTES_FOR_MIN(8, 8, 8) > 0u ? 1 : -1] = {1u};

static stow_heap_t *const heap_a = &test_heap_defined;
static stow_heap_t *const heap_b = &test_heap_static;

/* ---- helpers ------------------------------------------------------------------ */

static stow_stats_t stats_of(const stow_heap_t *h)
{
    stow_stats_t s;
    stow_heap_stats(h, &s);
    return s;
}

static uint32_t fails_of(const stow_heap_t *h) { return stats_of(h).fails; }

static bool aligned_to(const void *p, size_t align) { return ((uintptr_t)p & (align - 1u)) == 0u; }

/* Makes *h an empty heap over the size bytes at buf, both dirty first: the
 * object's padding gets a known value (tests compare objects bytewise) and the
 * storage is never assumed zeroed. */
static void fresh(stow_heap_t *h, unsigned char *buf, size_t size)
{
    stow_test_fill(h, 0xEEu, sizeof *h);
    stow_test_fill(buf, 0xA5u, size);
    CHECK(stow_heap_init(h, buf, size));
    CHECK(stow_heap_check(h));
}

/* The heap's own words, read and written as lib/src/heap.c lays them out (word 0
 * of a block: its size | USED (1) | PREV_FREE (2); a payload starts OVERHEAD
 * bytes into its block), through the harness, which AddressSanitizer does not
 * check: the heap keeps its headers and free blocks poisoned in ASan builds. */
#define USED_BIT ((size_t)1u)
#define PREV_FREE_BIT ((size_t)2u)
#define ALIGNED_BIT ((size_t)4u) /* allocated with more than STOW_HEAP_ALIGN: word 1 says how much */
#define FLAG_BITS ((size_t)7u)

static size_t word_at(const unsigned char *p)
{
    size_t w;
    stow_test_copy(&w, p, sizeof w);
    return w;
}

static void set_word_at(unsigned char *p, size_t w) { stow_test_copy(p, &w, sizeof w); }

static unsigned char *block_of(const void *payload)
{
    return (unsigned char *)(uintptr_t)payload - OVERHEAD;
}

/* The bytes of the block p is the payload of: what stats().used counts for it. */
static size_t block_bytes(const void *p) { return word_at(block_of(p)) & ~FLAG_BITS; }

/* The block a request takes when its power of two is carved (the documented
 * STOW_HEAP_BLOCK_BYTES, computed here with a loop). */
static uint64_t pow2_at_least(uint64_t x)
{
    uint64_t p = 1u;
    while (p < x) {
        p <<= 1;
    }
    return p;
}

static size_t block_for(size_t size)
{
    uint64_t b = pow2_at_least((uint64_t)size + OVERHEAD + TAIL);
    return b < MIN_BLOCK ? MIN_BLOCK : (size_t)b;
}

static unsigned log2_of(uint64_t pow2)
{
    unsigned k = 0u;
    while (pow2 > 1u) {
        pow2 >>= 1;
        k++;
    }
    return k;
}

/* The macros with a variable argument, each in a function of its own: their
 * expansions are large, and -O0 gives them large frames. */
static size_t storage_macro(size_t blocks) { return (size_t)STOW__HEAP_STORAGE(blocks); }

/* A heap and its storage as they were, for "nothing changed"; the copy goes to
 * snap (in the work buffer, past the heap's storage). */
static void save(const stow_heap_t *h, unsigned char *snap)
{
    stow_test_copy(snap, h, sizeof *h);
    stow_test_copy(snap + sizeof *h, h->buf, h->size);
}

static void check_unchanged(const stow_heap_t *h, const unsigned char *snap)
{
    CHECK_BYTES_EQ(snap, h, sizeof *h);
    CHECK_BYTES_EQ(snap + sizeof *h, h->buf, h->size);
}

/* The same, but for the one field a refused request changes. */
static void check_unchanged_but_fails(const stow_heap_t *h, unsigned char *snap, uint32_t fails)
{
    CHECK_EQ(h->fails, fails);
    stow_test_copy(snap + offsetof(stow_heap_t, fails), &fails, sizeof fails);
    CHECK_CALL(check_unchanged(h, snap));
}

#if STOW_CHECK_LEVEL >= 1
/* FNV-1a over n bytes: "unchanged" where there is no room for a copy. */
static uint32_t hash_of(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    uint32_t x = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        x = (x ^ b[i]) * 16777619u;
    }
    return x;
}
#endif

static bool holds(const unsigned char *p, unsigned char value, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] != value) {
            return false;
        }
    }
    return true;
}

/* The bytes a caller may write in p: at level 2 exactly the request (the canary
 * follows), below that all the usable size. */
static size_t writable(const stow_heap_t *h, const void *p) { return stow_heap_usable_size(h, p); }

/* Allocates every free byte: largest_free() until it is 0. Returns how many. */
static uint32_t fill_up(stow_heap_t *h)
{
    uint32_t n = 0;
    for (size_t lf; (lf = stow_heap_largest_free(h)) != 0u; n++) {
        if (stow_heap_alloc(h, lf) == NULL) {
            break;
        }
    }
    return n;
}

/* ---- static definition ---------------------------------------------------------- */

TEST(heap_defined_is_ready_without_init)
{
    /* Dirty the storage before the first use, as the boards' start-up does. */
    stow_test_fill(WORK, 0xA5u, sizeof WORK);
    stow_test_fill(stow__heap_buf_test_heap_static, 0xA5u, sizeof stow__heap_buf_test_heap_static);
    CHECK_EQ(sizeof WORK, WORK_BYTES);
    CHECK(aligned_to(WORK, GRAIN));
    CHECK(aligned_to(stow__heap_buf_test_heap_static, GRAIN));
    CHECK_NULL(heap_a->first); /* the storage is laid out by the first call that needs it */
    CHECK(STOW__CONFIG_GUARD_IS_HERE(heap_a->config));
    CHECK(stow_heap_check(heap_a));
    stow_stats_t s = stats_of(heap_a);
    CHECK(s.used == 0u && s.peak == 0u && s.fails == 0u);
    CHECK_LE(s.capacity, WORK_BYTES);
    CHECK_EQ(s.capacity % GRAIN, 0);
    /* the blocks take all but the heap's own words, as many as the bound macros
     * count for them */
    size_t blocks = WORK_BYTES & ~(GRAIN - 1u);
    while (storage_macro(blocks) > WORK_BYTES) {
        blocks -= GRAIN;
    }
    CHECK_LE(blocks, s.capacity);
    size_t lf = stow_heap_largest_free(heap_a);
    CHECK_EQ(lf, s.capacity - OVERHEAD - TAIL);
    CHECK_NULL(heap_a->first); /* asking does not lay it out */

    unsigned char *p = (unsigned char *)stow_heap_alloc(heap_a, 24);
    CHECK_NOT_NULL(p);
    CHECK(aligned_to(p, GRAIN));
    CHECK(p >= WORK && p + 24 <= WORK + WORK_BYTES);
#if defined(STOW_TEST_TARGET) && STOW_SECTIONS
    extern unsigned char __stow_start[], __stow_end[];
    CHECK(p >= __stow_start && p + 24 <= __stow_end);
#endif
    stow_test_fill(p, 0x5Au, 24);
    stow_stats_t t = stats_of(heap_a);
    CHECK_EQ(t.capacity, s.capacity);
    CHECK_EQ(t.used, block_for(24));
    CHECK_EQ(t.peak, block_for(24));
    CHECK(stow_heap_check(heap_a));
    stow_heap_free(heap_a, p);
    CHECK_EQ(stow_heap_largest_free(heap_a), lf);
    unsigned char *all = (unsigned char *)stow_heap_alloc(heap_a, lf); /* the whole heap */
    CHECK_PTR_EQ(all, p);
    CHECK_EQ(stats_of(heap_a).used, s.capacity);
    CHECK_EQ(stow_heap_largest_free(heap_a), 0);
    stow_heap_free(heap_a, all);
    CHECK(stow_heap_check(heap_a));
}

/* The file-local one, sized by the bound macro: its first call is a refused
 * request (or, at levels 1 and 2, a violation, which leaves it as it was). */
TEST(heap_defined_static_is_ready_without_init)
{
    stow_heap_t *h = heap_b;
    CHECK_EQ(sizeof stow__heap_buf_test_heap_static, STOW_HEAP_BYTES_FOR_MIN(STATIC_LIVE, STATIC_MAX, STATIC_MIN));
    CHECK_NULL(h->first);
#if STOW_CHECK_LEVEL >= 1
    /* Before its first use no block is live: handing it a pointer is a violation,
     * and it stays as it was (not laid out). */
    stow_heap_t before;
    stow_test_copy(&before, h, sizeof before);
    EXPECT_VIOLATION(stow_heap_free(h, stow__heap_buf_test_heap_static + 2u * GRAIN));
    EXPECT_VIOLATION(CHECK_EQ(stow_heap_usable_size(h, stow__heap_buf_test_heap_static + 2u * GRAIN), 0));
    CHECK_BYTES_EQ(&before, h, sizeof before);
#endif
    /* A refused first request lays it out all the same. */
    CHECK_NULL(stow_heap_alloc(h, SIZE_MAX));
    CHECK_NOT_NULL(h->first);
    CHECK_EQ(fails_of(h), 1);
    CHECK(stow_heap_check(h));
    void *q = stow_heap_realloc(h, NULL, STATIC_MAX);
    CHECK_NOT_NULL(q);
    CHECK(aligned_to(q, GRAIN));
    CHECK_LE(STATIC_MAX, stow_heap_usable_size(h, q));
    stow_heap_free(h, q);
    stow_stats_t s = stats_of(h);
    CHECK_EQ(stow_heap_largest_free(h), s.capacity - OVERHEAD - TAIL);
    CHECK(stow_heap_check(h));

    /* init over storage of the same size and alignment lays it out the same way;
     * an init'ed heap keeps no configuration check (NULL), a DEFINE'd one does. */
    CHECK(STOW__CONFIG_GUARD_IS_HERE(h->config));
    CHECK_CALL(fresh(heap_a, WORK, sizeof stow__heap_buf_test_heap_static));
    CHECK_EQ(stats_of(heap_a).capacity, s.capacity);
    CHECK_EQ(stow_heap_largest_free(heap_a), stow_heap_largest_free(h));
    CHECK_EQ((uintptr_t)heap_a->limit - (uintptr_t)heap_a->first, (uintptr_t)h->limit - (uintptr_t)h->first);
    CHECK_EQ((uintptr_t)heap_a->first - (uintptr_t)heap_a->buf, (uintptr_t)h->first - (uintptr_t)h->buf);
    CHECK_NULL(heap_a->config);
    CHECK_EQ(test_heap_enum_bytes, STOW_HEAP_BYTES_FOR(64, 16));
    CHECK_EQ(test_heap_array_of_bound[0], 1);
}

/* ---- sizes and the bound macros ---------------------------------------------------- */


/* STOW_HEAP_BLOCK_BYTES at sizes around the header, the minimum block and
 * powers of two, folded at compile time. */
#define BLOCK_SIZES(X)                                                                     \
    X(0) X(1) X(2) X(3) X(4) X(5) X(7) X(8) X(9) X(11) X(12) X(13) X(15) X(16) X(17) X(19) \
    X(20) X(21) X(23) X(24) X(25) X(31) X(32) X(33) X(39) X(40) X(41) X(47) X(48) X(49)   \
    X(55) X(56) X(57) X(63) X(64) X(65) X(100) X(111) X(112) X(113) X(119) X(120) X(121)  \
    X(1000) X(1008) X(1009) X(4072) X(4073) X(65535) X(1000000)
#define AS_SIZE(n) (size_t)(n),
#define AS_BLOCK(n) STOW_HEAP_BLOCK_BYTES(n),
static const size_t block_sizes[] = {BLOCK_SIZES(AS_SIZE)};
static const uint64_t block_macro[] = {BLOCK_SIZES(AS_BLOCK)};

TEST(heap_block_sizes_are_as_documented)
{
    CHECK_EQ(OVERHEAD, 2u * sizeof(void *)); /* 8 bytes on 32-bit targets, 16 on 64-bit */
    CHECK_EQ(GRAIN, STOW_DEFAULT_ALIGN > 2u * sizeof(void *) ? STOW_DEFAULT_ALIGN : 2u * sizeof(void *));
    CHECK_EQ(MIN_BLOCK, (4u * sizeof(void *) + GRAIN - 1u) / GRAIN * GRAIN);
#if defined(__arm__)
    CHECK(OVERHEAD == 8u && GRAIN == 8u && MIN_BLOCK == 16u);
#elif defined(__riscv) || defined(__i386__)
    CHECK(OVERHEAD == 8u && GRAIN == 16u && MIN_BLOCK == 16u);
#elif defined(__x86_64__) || defined(__aarch64__)
    CHECK(OVERHEAD == 16u && GRAIN == 16u && MIN_BLOCK == 32u);
#endif
    for (size_t k = 0; k < sizeof block_sizes / sizeof block_sizes[0]; k++) {
        CHECK_EQ(block_macro[k], block_for(block_sizes[k]));
    }
    CHECK_EQ(STOW_HEAP_BLOCK_BYTES(0), MIN_BLOCK);
    CHECK_EQ(STOW_HEAP_MIN_BYTES, STOW__HEAP_STORAGE(MIN_BLOCK));
    /* the bound grows with both limits */
    CHECK_LT(STOW_HEAP_BYTES_FOR(1, 1), STOW_HEAP_BYTES_FOR(2, 1));
    CHECK_LE(STOW_HEAP_BYTES_FOR(7, 8), STOW_HEAP_BYTES_FOR(8, 8));
    CHECK_LT(STOW_HEAP_BYTES_FOR(8, 8), STOW_HEAP_BYTES_FOR(9, 8));
    CHECK_LT(STOW_HEAP_BYTES_FOR(63, 8), STOW_HEAP_BYTES_FOR(65, 8));
    CHECK_LT(STOW_HEAP_BYTES_FOR(64, 16), STOW_HEAP_BYTES_FOR(64, 64));
    CHECK_LE(STOW_HEAP_BYTES_FOR_MIN(64, 64, 32), STOW_HEAP_BYTES_FOR(64, 64));
}

/* The storage the bound macros give for b bytes of blocks (the heap's own words
 * added) holds at least b bytes of blocks, for every b. */
TEST(heap_bytes_for_counts_the_heaps_own_words)
{
    size_t top = SMALL_RAM ? WORK_BYTES : 64u * 1024u;
    for (size_t b = MIN_BLOCK; storage_macro(b) <= top; b += GRAIN) {
        size_t bytes = storage_macro(b);
        CHECK(stow_heap_init(heap_a, WORK, bytes));
        CHECK_LE(b, stats_of(heap_a).capacity);
        CHECK_LE(b - OVERHEAD - TAIL, stow_heap_largest_free(heap_a));
    }
    /* and far beyond, at a few sizes */
    for (size_t b = top; storage_macro(b) <= WORK_BYTES; b = b * 3u / 2u + GRAIN) {
        b &= ~(GRAIN - 1u);
        CHECK(stow_heap_init(heap_a, WORK, storage_macro(b)));
        CHECK_LE(b, stats_of(heap_a).capacity);
    }
    CHECK(stow_heap_check(heap_a));
}

/* The most block bytes that requests of min_req to max_req bytes can hold while
 * their sizes add up to at most live (a 0-byte request counts as 1): a knapsack
 * over the request sizes, each taking block_for() bytes, in table[0..live]. */
static uint64_t most_block_bytes(size_t live, size_t max_req, size_t min_req, uint64_t *table)
{
    size_t lo = min_req > 0u ? min_req : 1u;
    table[0] = 0u;
    for (size_t x = 1; x <= live; x++) {
        uint64_t best = table[x - 1u];
        for (size_t s = lo; s <= max_req && s <= x; s++) {
            uint64_t v = table[x - s] + block_for(s);
            best = v > best ? v : best;
        }
        table[x] = best;
    }
    return table[live];
}

/* (max_live_bytes, max_request, min_request) triples for the bound tests: the
 * 16 KiB boards take the small ones only (the test skips what does not fit the
 * work buffer, and checks that some ran). */
struct limits {
    size_t live, max_req, min_req;
    uint64_t bytes; /* STOW_HEAP_BYTES_FOR_MIN(live, max_req, min_req) */
};
/* The macro is folded at compile time here: with variables for arguments it
 * expands to an expression that -O0 gives a frame of tens of kilobytes. */
#define LIMITS(live, max_req, min_req) {live, max_req, min_req, STOW_HEAP_BYTES_FOR_MIN(live, max_req, min_req)}
static const struct limits bound_cases[] = {
    LIMITS(16u, 8u, 4u),      LIMITS(32u, 16u, 8u),     LIMITS(48u, 24u, 8u),
    LIMITS(24u, 16u, 1u),
    LIMITS(64u, 64u, 64u),    LIMITS(256u, 64u, 1u),    LIMITS(512u, 128u, 16u),
    LIMITS(2048u, 256u, 16u), LIMITS(1000u, 300u, 20u), LIMITS(4096u, 256u, 1u),
    LIMITS(4096u, 256u, 32u), LIMITS(4096u, 1024u, 48u), LIMITS(16384u, 1024u, 48u),
    LIMITS(65536u, 4096u, 112u),
};
#define BOUND_CASES (sizeof bound_cases / sizeof bound_cases[0])

/* init over STOW_HEAP_BYTES_FOR_MIN(live, max, min) bytes gives at least the
 * bound's block bytes: M (1 + log2(n / m)), M the most block bytes such
 * requests can hold at once (found by search, not by the macro's formula), n
 * the largest request's block and m the smallest block. */
TEST(heap_init_over_bytes_for_holds_the_bound)
{
    uint32_t ran = 0;
    for (size_t k = 0; k < BOUND_CASES; k++) {
        const struct limits *c = &bound_cases[k];
        uint64_t bytes = c->bytes;
        if (bytes > WORK_BYTES || (c->live + 1u) * sizeof(uint64_t) > WORK_BYTES ||
            c->live * (c->max_req - c->min_req + 1u) > STOW_TEST_SCALED(4000000u)) {
            continue;
        }
        uint64_t most = most_block_bytes(c->live, c->max_req, c->min_req, (uint64_t *)(void *)WORK);
        uint64_t largest = block_for(c->max_req);
        uint64_t m = most > largest ? most : largest;
        uint64_t need = m * (1u + log2_of(largest) - log2_of(MIN_BLOCK));
        CHECK_CALL(fresh(heap_a, WORK, (size_t)bytes));
        stow_stats_t s = stats_of(heap_a);
        if (s.capacity < need) {
            stow_test_print("  bound case ");
            stow_test_print_u(k);
            stow_test_print("\n");
        }
        CHECK_LE(need, s.capacity);
        ran++;
    }
    CHECK_LE(SMALL_RAM ? 1u : 2u, ran);
}

/* ---- init ------------------------------------------------------------------------- */

/* A heap of a few blocks (five minimum blocks or more), its snapshot after it in WORK. */
#define SMALL_HEAP (SMALL_RAM ? 104u : 6u * MIN_BLOCK + 32u)
STOW_STATIC_ASSERT(SMALL_HEAP + sizeof(stow_heap_t) + SMALL_HEAP <= WORK_BYTES, "room for a snapshot");

TEST(heap_init_refuses_bad_buffers_and_changes_nothing)
{
    unsigned char *snap = WORK + SMALL_HEAP;
    CHECK_CALL(fresh(heap_a, WORK, SMALL_HEAP));
    void *x = stow_heap_alloc(heap_a, 8);
    CHECK_NOT_NULL(x);
    CHECK_NULL(stow_heap_alloc(heap_a, SIZE_MAX));
    save(heap_a, snap);
    CHECK_FALSE(stow_heap_init(heap_a, NULL, SMALL_HEAP));
    CHECK_FALSE(stow_heap_init(heap_a, WORK + 1, SMALL_HEAP - 1u));      /* misaligned */
    CHECK_FALSE(stow_heap_init(heap_a, WORK + GRAIN / 2u, SMALL_HEAP - GRAIN / 2u));
    CHECK_FALSE(stow_heap_init(heap_a, WORK + WORD, SMALL_HEAP - WORD)); /* a word is not enough */
    CHECK_FALSE(stow_heap_init(heap_a, WORK, 0));
    CHECK_FALSE(stow_heap_init(heap_a, WORK, 1));
    CHECK_FALSE(stow_heap_init(heap_a, WORK, MIN_BLOCK));
    CHECK_FALSE(stow_heap_init(heap_a, WORK, STOW_HEAP_MIN_BYTES - 1u)); /* below the smallest */
    CHECK_CALL(check_unchanged(heap_a, snap));
    CHECK(stow_heap_check(heap_a));
    CHECK_EQ(stow_heap_usable_size(heap_a, x), writable(heap_a, x));
    /* the smallest heap: one minimum block, and a fresh start for the statistics */
    CHECK(stow_heap_init(heap_a, WORK, STOW_HEAP_MIN_BYTES));
    CHECK(stow_heap_check(heap_a));
    stow_stats_t s = stats_of(heap_a);
    CHECK(s.used == 0u && s.peak == 0u && s.fails == 0u);
    CHECK_LE(MIN_BLOCK, s.capacity);
    CHECK_LT(s.capacity, STOW_HEAP_MIN_BYTES);
    size_t lf = stow_heap_largest_free(heap_a);
    CHECK_EQ(lf, s.capacity - OVERHEAD - TAIL);
    CHECK_NOT_NULL(stow_heap_alloc(heap_a, lf));
    CHECK_NULL(stow_heap_alloc(heap_a, 0));
    CHECK_EQ(fails_of(heap_a), 1);
    CHECK(stow_heap_check(heap_a));
    CHECK(stow_heap_init(heap_a, WORK, STOW_HEAP_MIN_BYTES));
    uint32_t blocks = 0;
    while (stow_heap_alloc(heap_a, 0) != NULL) {
        blocks++;
    }
    CHECK_LE(1, blocks);
    CHECK_EQ(blocks, s.capacity / MIN_BLOCK);
    CHECK(stow_heap_check(heap_a));
    /* any size from there on is accepted, and so is storage that does not end on a grain */
    for (size_t size = STOW_HEAP_MIN_BYTES; size <= STOW_HEAP_MIN_BYTES + 3u * GRAIN; size++) {
        CHECK(stow_heap_init(heap_a, WORK, size));
        CHECK(stow_heap_check(heap_a));
        CHECK_NOT_NULL(stow_heap_alloc(heap_a, stow_heap_largest_free(heap_a)));
    }
}

/* ---- alloc ----------------------------------------------------------------------- */

/* For every heap size from the smallest up: largest_free() is the whole heap less
 * one header, a request of that many bytes gets it, one byte more is refused. */
TEST(heap_empty_heap_is_allocatable_in_one_request)
{
    size_t top = SMALL_RAM ? WORK_BYTES : STOW_HEAP_MIN_BYTES + 600u;
    for (size_t size = STOW_HEAP_MIN_BYTES; size <= top; size++) {
        CHECK_CALL(fresh(heap_a, WORK, size));
        stow_stats_t s = stats_of(heap_a);
        CHECK_EQ(s.capacity % GRAIN, 0);
        CHECK_LE(s.capacity, size);
        size_t lf = stow_heap_largest_free(heap_a);
        CHECK_EQ(lf, s.capacity - OVERHEAD - TAIL);
        CHECK_NULL(stow_heap_alloc(heap_a, lf + 1u));
        CHECK_NULL(stow_heap_alloc_aligned(heap_a, lf + 1u, 0));
        CHECK_NULL(stow_heap_calloc(heap_a, lf + 1u, 1));
        CHECK_NULL(stow_heap_realloc(heap_a, NULL, lf + 1u));
        CHECK_EQ(fails_of(heap_a), 4);
        unsigned char *p = (unsigned char *)stow_heap_alloc(heap_a, lf);
        CHECK_NOT_NULL(p);
        CHECK_PTR_EQ(p, heap_a->first + OVERHEAD);
        CHECK_LE(lf, stow_heap_usable_size(heap_a, p));
        CHECK_EQ(stats_of(heap_a).used, s.capacity);
        CHECK_EQ(stow_heap_largest_free(heap_a), 0);
        CHECK_NULL(stow_heap_alloc(heap_a, 0));
        CHECK_EQ(fails_of(heap_a), 5);
        CHECK(stow_heap_check(heap_a));
        stow_heap_free(heap_a, p);
        CHECK_EQ(stow_heap_largest_free(heap_a), lf);
        unsigned char *z = (unsigned char *)stow_heap_calloc(heap_a, 1, lf);
        CHECK_PTR_EQ(z, p);
        CHECK(holds(z, 0u, lf));
        stow_heap_free(heap_a, z);
        CHECK_PTR_EQ(stow_heap_alloc_aligned(heap_a, lf, GRAIN), p);
        stow_heap_free(heap_a, p);
        CHECK_PTR_EQ(stow_heap_realloc(heap_a, NULL, lf), p);
        stow_heap_free(heap_a, p);
        CHECK_EQ(stats_of(heap_a).used, 0);
        CHECK(stow_heap_check(heap_a));
    }
}

/* Size 0 asks for a minimum block: a unique pointer, freed like any other. */
TEST(heap_size_zero_is_a_minimum_block)
{
    CHECK_CALL(fresh(heap_a, WORK, 512));
    CHECK_EQ(block_for(0), MIN_BLOCK);
    void *a = stow_heap_alloc(heap_a, 0);
    void *b = stow_heap_alloc(heap_a, 0);
    CHECK(a != NULL && b != NULL && a != b);
    CHECK(aligned_to(a, GRAIN) && aligned_to(b, GRAIN));
    CHECK_EQ(block_bytes(a), MIN_BLOCK);
    CHECK_EQ(stats_of(heap_a).used, 2u * MIN_BLOCK);
    CHECK_EQ(stow_heap_usable_size(heap_a, a), STOW_CHECK_LEVEL >= 2 ? 0u : MIN_BLOCK - OVERHEAD);
    void *c = stow_heap_calloc(heap_a, 0, 5);
    void *d = stow_heap_calloc(heap_a, 5, 0);
    void *e = stow_heap_alloc_aligned(heap_a, 0, 64);
    CHECK(c != NULL && d != NULL && e != NULL && c != d);
    CHECK(aligned_to(e, 64));
    CHECK_PTR_EQ(stow_heap_realloc(heap_a, a, 0), a); /* stays, and is not freed */
    CHECK_EQ(block_bytes(a), MIN_BLOCK);
    void *f = stow_heap_realloc(heap_a, NULL, 0);
    CHECK_NOT_NULL(f);
    CHECK_EQ(fails_of(heap_a), 0);
    CHECK(stow_heap_check(heap_a));
    stow_heap_free(heap_a, a);
    stow_heap_free(heap_a, b);
    stow_heap_free(heap_a, c);
    stow_heap_free(heap_a, d);
    stow_heap_free(heap_a, e);
    stow_heap_free(heap_a, f);
    stow_heap_free(heap_a, NULL); /* ignored */
    CHECK_EQ(stats_of(heap_a).used, 0);
    CHECK_EQ(stow_heap_largest_free(heap_a), stats_of(heap_a).capacity - OVERHEAD - TAIL);
    CHECK(stow_heap_check(heap_a));
}

/* Every size up to a few hundred bytes: aligned, the power-of-two block (used
 * grows by exactly that), a usable size that covers the request (exactly the
 * request at level 2), every usable byte writable without harm. */
TEST(heap_alloc_gives_aligned_power_of_two_blocks)
{
    size_t top = SMALL_RAM ? 100u : 700u;
    CHECK_CALL(fresh(heap_a, WORK, SMALL_RAM ? WORK_BYTES : 4096u));
    size_t initial = stow_heap_largest_free(heap_a);
    for (size_t n = 0; n <= top; n++) {
        unsigned char *p = (unsigned char *)stow_heap_alloc(heap_a, n);
        CHECK_NOT_NULL(p);
        CHECK(aligned_to(p, GRAIN));
        CHECK_EQ(block_bytes(p), block_for(n));
        CHECK_EQ(stats_of(heap_a).used, block_for(n));
        size_t u = stow_heap_usable_size(heap_a, p);
        CHECK_LE(n, u);
        CHECK_EQ(u, STOW_CHECK_LEVEL >= 2 ? n : block_for(n) - OVERHEAD);
        stow_test_fill(p, 0x3Cu, u);
        unsigned char *q = (unsigned char *)stow_heap_alloc(heap_a, n);
        CHECK_NOT_NULL(q);
        CHECK(q >= p + u + OVERHEAD); /* after p's block */
        stow_test_fill(q, 0xC3u, u);
        CHECK(holds(p, 0x3Cu, u));
        CHECK(stow_heap_check(heap_a));
        stow_heap_free(heap_a, p);
        stow_heap_free(heap_a, q);
        CHECK_EQ(stow_heap_largest_free(heap_a), initial);
    }
    stow_stats_t s = stats_of(heap_a);
    CHECK(s.used == 0u && s.peak == 2u * block_for(top) && s.fails == 0u);
    CHECK(stow_heap_check(heap_a));
}

/* Sizes that cannot be met, above all those that wrap when the header is added
 * or the size rounded: NULL and a fail, and nothing else changes. */
TEST(heap_refuses_sizes_that_overflow_and_counts_a_fail)
{
    unsigned char *snap = WORK + SMALL_HEAP;
    CHECK_CALL(fresh(heap_a, WORK, SMALL_HEAP));
    unsigned char *x = (unsigned char *)stow_heap_alloc(heap_a, 5);
    CHECK_NOT_NULL(x);
    stow_test_fill(x, 0x77u, 5);
    size_t lf = stow_heap_largest_free(heap_a);
    save(heap_a, snap);
    const size_t half = (size_t)1u << (SIZE_BITS - 1u);
    const size_t sizes[] = {SIZE_MAX, SIZE_MAX - 1u, SIZE_MAX - OVERHEAD + 1u, SIZE_MAX - OVERHEAD,
                            SIZE_MAX - OVERHEAD - TAIL, SIZE_MAX - OVERHEAD - TAIL - GRAIN + 2u,
                            SIZE_MAX - 2u * GRAIN, half, half - 1u, half - OVERHEAD, half + OVERHEAD,
                            SIZE_MAX / 3u, stats_of(heap_a).capacity, WORK_BYTES};
    uint32_t fails = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        CHECK_NULL(stow_heap_alloc(heap_a, n));
        CHECK_NULL(stow_heap_alloc_isr(heap_a, n));
        CHECK_NULL(stow_heap_alloc_aligned(heap_a, n, 0));
        CHECK_NULL(stow_heap_alloc_aligned(heap_a, n, 64));
        CHECK_NULL(stow_heap_calloc(heap_a, 1, n));
        CHECK_NULL(stow_heap_calloc(heap_a, n, 1));
        CHECK_NULL(stow_heap_realloc(heap_a, x, n)); /* x stays as it was */
        CHECK_NULL(stow_heap_realloc_isr(heap_a, x, n));
        CHECK_NULL(stow_heap_realloc(heap_a, NULL, n));
        fails += 9u;
        CHECK_CALL(check_unchanged_but_fails(heap_a, snap, fails));
    }
    /* one byte more than the largest free block: refused (realloc of x may grow
     * into it, so not that) */
    CHECK_NULL(stow_heap_alloc(heap_a, lf + 1u));
    CHECK_NULL(stow_heap_alloc_isr(heap_a, lf + 1u));
    CHECK_NULL(stow_heap_alloc_aligned(heap_a, lf + 1u, 0));
    CHECK_NULL(stow_heap_calloc(heap_a, lf + 1u, 1));
    CHECK_NULL(stow_heap_realloc(heap_a, NULL, lf + 1u));
    fails += 5u;
    CHECK_CALL(check_unchanged_but_fails(heap_a, snap, fails));
    /* calloc's n * size wrapping: not a short block */
    const size_t root = (size_t)1u << (SIZE_BITS / 2u);
    CHECK_NULL(stow_heap_calloc(heap_a, SIZE_MAX, 2));
    CHECK_NULL(stow_heap_calloc(heap_a, 2, SIZE_MAX));
    CHECK_NULL(stow_heap_calloc(heap_a, half + 1u, 2));   /* 2 after the wrap */
    CHECK_NULL(stow_heap_calloc(heap_a, root, root));      /* 0 after the wrap */
    CHECK_NULL(stow_heap_calloc(heap_a, root + 1u, root)); /* root after the wrap */
    CHECK_NULL(stow_heap_calloc(heap_a, SIZE_MAX / 3u + 1u, 3));
    fails += 6u;
    /* alignments beyond the heap */
    CHECK_NULL(stow_heap_alloc_aligned(heap_a, 1, half));
    CHECK_NULL(stow_heap_alloc_aligned(heap_a, 0, (size_t)pow2_at_least(WORK_BYTES) * 2u));
    fails += 2u;
    CHECK_CALL(check_unchanged_but_fails(heap_a, snap, fails));
    CHECK(holds(x, 0x77u, 5));
    CHECK(stow_heap_check(heap_a));
    /* and it still works */
    stow_heap_free(heap_a, x);
    CHECK_NOT_NULL(stow_heap_alloc(heap_a, stow_heap_largest_free(heap_a)));
    CHECK_EQ(fails_of(heap_a), fails);
}


/* Neighbouring blocks merge when freed: two freed neighbours serve one request
 * of both their sizes, at the first one's address. */
TEST(heap_free_merges_neighbours)
{
    const size_t u = MIN_BLOCK;
    const size_t r = u - OVERHEAD - TAIL; /* a request that takes exactly one minimum block */
    CHECK_CALL(fresh(heap_a, WORK, SMALL_RAM ? 384u : 1024u));
    unsigned char *b[6];
    for (int i = 0; i < 6; i++) {
        b[i] = (unsigned char *)stow_heap_alloc(heap_a, r);
        CHECK_NOT_NULL(b[i]);
        CHECK_EQ(block_bytes(b[i]), u);
        CHECK_PTR_EQ(b[i], heap_a->first + OVERHEAD + (size_t)i * u); /* in address order */
    }
    (void)fill_up(heap_a);
    CHECK_EQ(stow_heap_largest_free(heap_a), 0);
    stow_heap_free(heap_a, b[1]);
    stow_heap_free(heap_a, b[3]);
    CHECK_EQ(stow_heap_largest_free(heap_a), r); /* two holes of one block each */
    CHECK_NULL(stow_heap_alloc(heap_a, r + 1u));
    stow_heap_free(heap_a, b[2]); /* merges with both */
    CHECK_EQ(stow_heap_largest_free(heap_a), 3u * u - OVERHEAD - TAIL);
    CHECK(stow_heap_check(heap_a));
    CHECK_PTR_EQ(stow_heap_alloc(heap_a, 3u * u - OVERHEAD - TAIL), b[1]);
    stow_heap_free(heap_a, b[1]);
    stow_heap_free(heap_a, b[0]); /* merges with the next */
    stow_heap_free(heap_a, b[4]); /* with the previous */
    CHECK_EQ(stow_heap_largest_free(heap_a), 5u * u - OVERHEAD - TAIL);
    CHECK_PTR_EQ(stow_heap_alloc(heap_a, 5u * u - OVERHEAD - TAIL), b[0]);
    CHECK_EQ(fails_of(heap_a), 1);
    CHECK(stow_heap_check(heap_a));
}

/* used, peak and fails, exactly, through a run of calls. */
TEST(heap_stats_count_used_peak_and_fails)
{
    CHECK_CALL(fresh(heap_a, WORK, SMALL_RAM ? 512u : 2048u));
    stow_stats_t s = stats_of(heap_a);
    size_t capacity = s.capacity;
    CHECK(s.used == 0u && s.peak == 0u && s.fails == 0u);
    void *a = stow_heap_alloc(heap_a, 40);
    void *b = stow_heap_calloc(heap_a, 3, 10);
    void *c = stow_heap_alloc_aligned(heap_a, 8, 64);
    size_t used = block_bytes(a) + block_bytes(b) + block_bytes(c);
    CHECK_EQ(block_bytes(a), block_for(40));
    CHECK_EQ(block_bytes(b), block_for(30));
    s = stats_of(heap_a);
    CHECK(s.capacity == capacity && s.used == used && s.peak == used && s.fails == 0u);
    stow_heap_free(heap_a, a);
    s = stats_of(heap_a);
    CHECK(s.used == used - block_for(40) && s.peak == used);
    CHECK_NULL(stow_heap_alloc(heap_a, capacity));
    CHECK_NULL(stow_heap_calloc(heap_a, SIZE_MAX, SIZE_MAX));
    CHECK_EQ(stats_of(heap_a).fails, 2);
    b = stow_heap_realloc(heap_a, b, 100);
    CHECK_NOT_NULL(b);
    used = block_bytes(b) + block_bytes(c);
    s = stats_of(heap_a);
    CHECK(s.used == used && s.peak >= used && s.fails == 2u);
    stow_heap_free(heap_a, b);
    stow_heap_free(heap_a, c);
    s = stats_of(heap_a);
    CHECK(s.capacity == capacity && s.used == 0u && s.fails == 2u);
    size_t peak = s.peak;
    void *all = stow_heap_alloc(heap_a, stow_heap_largest_free(heap_a));
    CHECK_NOT_NULL(all);
    s = stats_of(heap_a);
    CHECK(s.used == capacity && s.peak == capacity && peak <= capacity);
    stow_heap_free(heap_a, all);
    CHECK(stow_heap_check(heap_a));
}

/* ---- realloc ---------------------------------------------------------------------- */

TEST(heap_realloc_follows_c_and_stays_in_place_when_it_can)
{
    const size_t u = MIN_BLOCK;
    CHECK_CALL(fresh(heap_a, WORK, SMALL_RAM ? 512u : 2048u));
    /* NULL: an alloc */
    unsigned char *p = (unsigned char *)stow_heap_realloc(heap_a, NULL, 2u * u);
    CHECK_NOT_NULL(p);
    CHECK_EQ(block_bytes(p), block_for(2u * u));
    unsigned char *q = (unsigned char *)stow_heap_alloc(heap_a, 0); /* p's next neighbour, live */
    CHECK_PTR_EQ(q, p + block_bytes(p));
    for (size_t i = 0; i < 2u * u; i++) {
        p[i] = (unsigned char)i;
    }
    /* shrinking stays in place; the bytes given back become a free block */
    size_t used = stats_of(heap_a).used;
    CHECK_PTR_EQ(stow_heap_realloc(heap_a, p, u), p);
    CHECK_EQ(block_bytes(p), block_for(u));
    CHECK_EQ(stats_of(heap_a).used, used - (block_for(2u * u) - block_for(u)));
    for (size_t i = 0; i < u; i++) {
        CHECK_EQ(p[i], (unsigned char)i);
    }
    CHECK(stow_heap_check(heap_a));
    /* growing into the free bytes after it stays in place too */
    CHECK_PTR_EQ(stow_heap_realloc(heap_a, p, 2u * u), p);
    CHECK_EQ(block_bytes(p), block_for(2u * u));
    CHECK_EQ(stats_of(heap_a).used, used);
    for (size_t i = 0; i < u; i++) {
        CHECK_EQ(p[i], (unsigned char)i);
    }
    /* growing with a live neighbour moves: contents kept, the old block freed */
    for (size_t i = 0; i < 2u * u; i++) {
        p[i] = (unsigned char)(i + 3u);
    }
    unsigned char *r = (unsigned char *)stow_heap_realloc(heap_a, p, 4u * u);
    CHECK_NOT_NULL(r);
    CHECK(r != p);
    CHECK(aligned_to(r, GRAIN));
    for (size_t i = 0; i < 2u * u; i++) {
        CHECK_EQ(r[i], (unsigned char)(i + 3u));
    }
    CHECK_EQ(stats_of(heap_a).used, MIN_BLOCK + block_for(4u * u));
    CHECK(stow_heap_check(heap_a));
    CHECK_PTR_EQ(stow_heap_alloc(heap_a, 2u * u), p); /* p's block was free */
    stow_heap_free(heap_a, p);
    /* size 0: the minimum block, in place, not freed */
    CHECK_PTR_EQ(stow_heap_realloc(heap_a, r, 0), r);
    CHECK_EQ(block_bytes(r), MIN_BLOCK);
    CHECK_EQ(stats_of(heap_a).used, 2u * MIN_BLOCK);
    CHECK(stow_heap_check(heap_a));
    /* an aligned block keeps its alignment when it moves: room before it, none after;
     * it grows past its whole block, which its alignment's padding may have made
     * larger than asked (how much depends on where the buffer lies) */
    void *room = stow_heap_alloc(heap_a, 8u * u);
    unsigned char *al = (unsigned char *)stow_heap_alloc_aligned(heap_a, 8, 4u * GRAIN);
    CHECK(room != NULL && al != NULL);
    CHECK(aligned_to(al, 4u * GRAIN));
    stow_test_fill(al, 0x42u, 8);
    (void)fill_up(heap_a);
    stow_heap_free(heap_a, room);
    unsigned char *moved = (unsigned char *)stow_heap_realloc(heap_a, al, block_bytes(al));
    CHECK_NOT_NULL(moved);
    CHECK(moved != al);
    CHECK(aligned_to(moved, 4u * GRAIN));
    CHECK(holds(moved, 0x42u, 8));
    CHECK(stow_heap_check(heap_a));
    stow_heap_free(heap_a, moved);
    /* no room: NULL and a fail, and the block is untouched and still live */
    stow_test_fill(r, 0x19u, writable(heap_a, r));
    size_t rn = writable(heap_a, r);
    uint32_t fails = fails_of(heap_a);
    CHECK_NULL(stow_heap_realloc(heap_a, r, stats_of(heap_a).capacity));
    CHECK_EQ(fails_of(heap_a), fails + 1u);
    CHECK(holds(r, 0x19u, rn));
    CHECK_EQ(stow_heap_usable_size(heap_a, r), rn);
    CHECK(stow_heap_check(heap_a));
    stow_heap_free(heap_a, r);
    CHECK(stow_heap_check(heap_a));
}

/* Shrinking never fails, not even in a heap with no free byte (Lua's allocator
 * contract depends on it), and the bytes given back can be had again. */
TEST(heap_realloc_shrinks_in_place_in_a_full_heap)
{
    CHECK_CALL(fresh(heap_a, WORK, SMALL_RAM ? 512u : 4096u));
    size_t lf = stow_heap_largest_free(heap_a);
    unsigned char *p = (unsigned char *)stow_heap_alloc(heap_a, lf);
    CHECK_NOT_NULL(p);
    for (size_t i = 0; i < lf; i++) {
        p[i] = (unsigned char)(i * 7u);
    }
    CHECK_EQ(stow_heap_largest_free(heap_a), 0);
    size_t size = lf;
    while (size > 0u) {
        size = size / 2u;
        size_t was = block_bytes(p);
        CHECK_PTR_EQ(stow_heap_realloc(heap_a, p, size), p);
        for (size_t i = 0; i < size; i++) {
            CHECK_EQ(p[i], (unsigned char)(i * 7u));
        }
        CHECK_LE(size, stow_heap_usable_size(heap_a, p));
        CHECK(stow_heap_check(heap_a));
        /* what it gave back, when it could stand as a block, is the one free block */
        size_t back = was - block_bytes(p);
        CHECK_EQ(stow_heap_largest_free(heap_a), back >= MIN_BLOCK ? back - OVERHEAD - TAIL : 0u);
        CHECK_EQ(stats_of(heap_a).used, stats_of(heap_a).capacity - back);
        (void)fill_up(heap_a); /* and the heap is full again */
        CHECK_EQ(stow_heap_largest_free(heap_a), 0);
    }
    CHECK_EQ(fails_of(heap_a), 0);
}

/* ---- calloc ----------------------------------------------------------------------- */

TEST(heap_calloc_zeroes_and_checks_the_product)
{
    CHECK_CALL(fresh(heap_a, WORK, SMALL_RAM ? 512u : 2048u));
    /* dirty the bytes calloc will hand out again */
    unsigned char *p = (unsigned char *)stow_heap_alloc(heap_a, 200);
    CHECK_NOT_NULL(p);
    stow_test_fill(p, 0xA7u, writable(heap_a, p));
    stow_heap_free(heap_a, p);
    unsigned char *z = (unsigned char *)stow_heap_calloc(heap_a, 25, 8);
    CHECK_PTR_EQ(z, p);
    CHECK(holds(z, 0u, 200));
    CHECK_LE(200, stow_heap_usable_size(heap_a, z));
    stow_heap_free(heap_a, z);
    z = (unsigned char *)stow_heap_calloc(heap_a, 8, 25);
    CHECK_PTR_EQ(z, p);
    CHECK(holds(z, 0u, 200));
    CHECK_EQ(fails_of(heap_a), 0);
    CHECK_NULL(stow_heap_calloc(heap_a, (size_t)1u << (SIZE_BITS / 2u), (size_t)1u << (SIZE_BITS / 2u)));
    CHECK_EQ(fails_of(heap_a), 1);
    CHECK(stow_heap_check(heap_a));
}

/* ---- aligned alloc ------------------------------------------------------------------ */

/* Every power of two from 1 to beyond the heap: an aligned pointer, or NULL and
 * a fail; with the heap empty, every alignment up to a quarter of it succeeds;
 * one beyond the heap never does. Freeing the block gives the heap back whole. */
TEST(heap_aligned_alloc_takes_every_power_of_two)
{
    size_t size = SMALL_RAM ? WORK_BYTES : 8192u;
    CHECK_CALL(fresh(heap_a, WORK, size));
    size_t capacity = stats_of(heap_a).capacity;
    size_t initial = stow_heap_largest_free(heap_a);
    const size_t sizes[] = {0u, 1u, GRAIN, 3u * GRAIN + 1u};
    uint32_t fails = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        for (size_t align = 1; align != 0u; align <<= 1) {
            uint32_t before = fails_of(heap_a);
            unsigned char *p = (unsigned char *)stow_heap_alloc_aligned(heap_a, sizes[k], align);
            if (p == NULL) {
                fails++;
                CHECK_EQ(fails_of(heap_a), before + 1u);
                CHECK(align > capacity / 4u);
            } else {
                CHECK(aligned_to(p, align > GRAIN ? align : GRAIN));
                CHECK_LE(sizes[k], stow_heap_usable_size(heap_a, p));
                CHECK(p >= heap_a->first && p + sizes[k] <= heap_a->limit);
                stow_test_fill(p, 0xABu, writable(heap_a, p));
                CHECK(stow_heap_check(heap_a));
                CHECK_LE(align, capacity); /* never an alignment beyond the heap */
                /* its neighbours, when it has some, are free or the heap's ends */
                stow_heap_free(heap_a, p);
            }
            CHECK_EQ(fails_of(heap_a), fails);
            CHECK_EQ(stow_heap_largest_free(heap_a), initial);
            CHECK(stow_heap_check(heap_a));
        }
    }
    CHECK_LT(0, fails);
    /* 0 and anything below STOW_HEAP_ALIGN mean STOW_HEAP_ALIGN */
    unsigned char *d = (unsigned char *)stow_heap_alloc_aligned(heap_a, 24, 0);
    CHECK_PTR_EQ(d, heap_a->first + OVERHEAD);
    stow_heap_free(heap_a, d);
    CHECK_PTR_EQ(stow_heap_alloc_aligned(heap_a, 24, 2), d);
    /* among live blocks, at every offset: each aligned block is aligned, and the
     * bytes before it stay usable */
    stow_heap_free(heap_a, d);
    for (size_t align = 2u * GRAIN; align <= (SMALL_RAM ? 64u : 512u); align <<= 1) {
        for (size_t skew = 0; skew < 4u; skew++) {
            void *pre = stow_heap_alloc(heap_a, skew * GRAIN);
            unsigned char *p = (unsigned char *)stow_heap_alloc_aligned(heap_a, 5, align);
            void *post = stow_heap_alloc(heap_a, 1);
            CHECK(pre != NULL && p != NULL && post != NULL);
            CHECK(aligned_to(p, align));
            CHECK(stow_heap_check(heap_a));
            stow_heap_free(heap_a, pre);
            stow_heap_free(heap_a, p);
            stow_heap_free(heap_a, post);
            CHECK_EQ(stow_heap_largest_free(heap_a), initial);
        }
    }
    CHECK(stow_heap_check(heap_a));
}

/* ---- largest_free -------------------------------------------------------------------- */

/* After any mix of calls, a request of largest_free() bytes succeeds, and so does
 * every smaller one; one byte more is refused. */
TEST(heap_largest_free_is_exact_after_mixed_operations)
{
    size_t size = SMALL_RAM ? 512u : 8192u;
    CHECK_CALL(fresh(heap_a, WORK, size));
    void *live[16];
    for (int i = 0; i < 16; i++) {
        live[i] = NULL;
    }
    uint32_t fails = 0;
    stow_test_seed(0x1F4E5u);
    uint32_t steps = STOW_TEST_SCALED(3000u);
    for (uint32_t step = 0; step < steps; step++) {
        uint32_t i = stow_test_rand_below(16);
        if (live[i] != NULL && stow_test_rand_below(3) == 0u) {
            stow_heap_free(heap_a, live[i]);
            live[i] = NULL;
        } else {
            size_t n = stow_test_rand_below((uint32_t)(size / 8u));
            bool aligned = stow_test_rand_below(4) == 0u;
            void *p = aligned ? stow_heap_alloc_aligned(heap_a, n, (size_t)1u << stow_test_rand_below(8))
                              : stow_heap_realloc(heap_a, live[i], n);
            if (p == NULL) {
                fails++;
            } else {
                if (aligned) {
                    stow_heap_free(heap_a, live[i]); /* replaced */
                }
                live[i] = p;
            }
        }
        CHECK(stow_heap_check(heap_a));
        size_t lf = stow_heap_largest_free(heap_a);
        CHECK_NULL(stow_heap_alloc(heap_a, lf + 1u));
        fails++;
        if (lf > 0u) {
            size_t probes[3] = {lf, lf - 1u, stow_test_rand_below((uint32_t)lf)};
            for (int k = 0; k < 3; k++) {
                void *p = stow_heap_alloc(heap_a, probes[k]);
                CHECK_NOT_NULL(p);
                stow_heap_free(heap_a, p);
            }
        } else {
            CHECK_EQ(heap_a->classes_used, 0); /* no free block at all */
        }
        CHECK_EQ(fails_of(heap_a), fails);
    }
    for (int i = 0; i < 16; i++) {
        stow_heap_free(heap_a, live[i]);
    }
    CHECK_EQ(stats_of(heap_a).used, 0);
    CHECK_EQ(stow_heap_largest_free(heap_a), stats_of(heap_a).capacity - OVERHEAD - TAIL);
    CHECK(stow_heap_check(heap_a));
}

/* largest_free() is the first block of the highest non-empty class: two free
 * blocks in one size class, the smaller one first in its list, and no larger
 * block. A request up to the first one's size succeeds; one that only the
 * second could hold is refused (heap.h says so), and counts a fail. */
TEST(heap_largest_free_is_the_first_block_of_the_highest_class)
{
    const size_t u = MIN_BLOCK;
    CHECK_CALL(fresh(heap_a, WORK, SMALL_RAM ? 512u : 2048u));
    void *a = stow_heap_alloc(heap_a, 8u * u - OVERHEAD - TAIL); /* 8u */
    void *a2 = stow_heap_alloc(heap_a, 0);                       /* u */
    void *s1 = stow_heap_alloc(heap_a, 0);
    void *b = stow_heap_alloc(heap_a, 8u * u - OVERHEAD - TAIL);  /* 8u */
    void *b2 = stow_heap_alloc(heap_a, 4u * u - OVERHEAD - TAIL); /* 4u */
    void *s2 = stow_heap_alloc(heap_a, 0);
    CHECK(a && a2 && s1 && b && b2 && s2);
    (void)fill_up(heap_a);
    stow_heap_free(heap_a, b);
    stow_heap_free(heap_a, b2); /* a free block of 12u */
    stow_heap_free(heap_a, a);
    stow_heap_free(heap_a, a2); /* a free block of 9u, first in the class of 8u to 16u */
    CHECK(stow_heap_check(heap_a));
    size_t lf = stow_heap_largest_free(heap_a);
    CHECK_EQ(lf, 9u * u - OVERHEAD - TAIL);
    CHECK_NULL(stow_heap_alloc(heap_a, 10u * u - OVERHEAD - TAIL)); /* fits 12u only */
    CHECK_NULL(stow_heap_alloc(heap_a, lf + 1u));
    CHECK_EQ(fails_of(heap_a), 2);
    CHECK_PTR_EQ(stow_heap_alloc(heap_a, lf), a);
    /* with the first one gone, the other is the answer */
    CHECK_EQ(stow_heap_largest_free(heap_a), 12u * u - OVERHEAD - TAIL);
    CHECK_PTR_EQ(stow_heap_alloc(heap_a, 10u * u - OVERHEAD - TAIL), b);
    CHECK(stow_heap_check(heap_a));
}

/* ---- ISR variants ------------------------------------------------------------------- */

#if defined(STOW_TEST_TARGET)
/* 1 while interrupts are masked: PRIMASK on Cortex-M, mstatus.MIE clear on RISC-V. */
static uint32_t masked(void)
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

TEST(heap_isr_variants_match_the_plain_calls_and_nest)
{
    CHECK_CALL(fresh(heap_a, WORK, 256));
    unsigned char *x = (unsigned char *)stow_heap_alloc_isr(heap_a, 20);
    CHECK_NOT_NULL(x);
    CHECK_EQ(block_bytes(x), block_for(20));
    stow_test_fill(x, 0x66u, 20);
    unsigned char *y = (unsigned char *)stow_heap_realloc_isr(heap_a, x, 60);
    CHECK_NOT_NULL(y);
    CHECK(holds(y, 0x66u, 20));
    CHECK_PTR_EQ(stow_heap_realloc_isr(heap_a, y, 8), y); /* shrinks in place */
    CHECK_NULL(stow_heap_alloc_isr(heap_a, SIZE_MAX));
    CHECK_NULL(stow_heap_realloc_isr(heap_a, y, SIZE_MAX));
    CHECK_EQ(fails_of(heap_a), 2);
    void *z = stow_heap_realloc_isr(heap_a, NULL, 4);
    CHECK_NOT_NULL(z);
    stow_heap_free_isr(heap_a, NULL);
#if defined(STOW_TEST_TARGET)
    CHECK_EQ(masked(), 0); /* interrupts enabled again after each call */
#endif
    /* inside a critical section of the caller's: they nest, and leave it masked */
    uint32_t state = stow_port_critical_enter();
    stow_heap_free_isr(heap_a, y);
    void *w = stow_heap_alloc_isr(heap_a, 8);
#if defined(STOW_TEST_TARGET)
    uint32_t inside = masked();
#endif
    stow_port_critical_exit(state);
    CHECK_PTR_EQ(w, y);
#if defined(STOW_TEST_TARGET)
    CHECK_EQ(inside, 1);
    CHECK_EQ(masked(), 0);
#endif
    stow_heap_free_isr(heap_a, w);
    stow_heap_free_isr(heap_a, z);
    CHECK_EQ(stats_of(heap_a).used, 0);
    CHECK(stow_heap_check(heap_a));
}


TEST(heap_lock_groups_plain_calls_and_nests)
{
    CHECK_CALL(fresh(heap_a, WORK, 256));
    uint32_t state = stow_heap_lock(heap_a);
    void *x = stow_heap_calloc(heap_a, 4, 8);
    void *y = stow_heap_alloc_isr(heap_a, 24); /* nested: does not wait for itself */
    CHECK_NOT_NULL(x);
    CHECK_NOT_NULL(y);
    CHECK(stow_heap_check(heap_a));
    stow_heap_unlock(heap_a, state);
    stow_heap_free_isr(heap_a, x); /* released: this takes the lock again */
    stow_heap_free_isr(heap_a, y);
    CHECK_EQ(stats_of(heap_a).used, 0);
#if STOW_CHECK_LEVEL >= 1
    EXPECT_VIOLATION_TEXT(CHECK_EQ(stow_heap_lock(NULL), 0), "stow_heap_lock: heap is NULL");
    EXPECT_VIOLATION_TEXT(stow_heap_unlock(NULL, 0u), "stow_heap_unlock: heap is NULL");
    /* a violation inside an _isr call lets the lock go */
    EXPECT_VIOLATION(stow_heap_free_isr(heap_a, (unsigned char *)heap_a->first + 1));
    void *z = stow_heap_alloc_isr(heap_a, 8);
    CHECK_NOT_NULL(z);
    stow_heap_free_isr(heap_a, z);
#endif
    CHECK(stow_heap_check(heap_a));
}

#if !defined(STOW_TEST_TARGET)
/* On the host the heap's lock is a spin lock on its word: two threads share one
 * heap through the _isr calls, each writing its own pattern into what it holds;
 * a block handed to both, or moved under the other, would show. */
#define HEAP_THREAD_ROUNDS 5000u

struct heap_hammer {
    unsigned char tag;
    uint32_t seed, nulls, clashes;
};

static atomic_uint heap_hammers_ready;

static uint32_t hammer_rand(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

static void *hammer_heap(void *arg)
{
    struct heap_hammer *m = (struct heap_hammer *)arg;
    unsigned char *held[4] = {NULL, NULL, NULL, NULL};
    size_t sizes[4] = {0u, 0u, 0u, 0u};
    atomic_fetch_add(&heap_hammers_ready, 1u);
    while (atomic_load(&heap_hammers_ready) < 2u) {
    }
    for (uint32_t round = 0; round < STOW_TEST_SCALED(HEAP_THREAD_ROUNDS); round++) {
        uint32_t r = hammer_rand(&m->seed);
        size_t i = r % 4u;
        for (size_t j = 0; j < sizes[i]; j++) {
            m->clashes += held[i][j] != m->tag ? 1u : 0u;
        }
        size_t n = (r >> 8) % 200u;
        if ((r >> 16) % 3u == 0u) {
            stow_heap_free_isr(heap_a, held[i]);
            held[i] = (unsigned char *)stow_heap_alloc_isr(heap_a, n);
        } else {
            unsigned char *q = (unsigned char *)stow_heap_realloc_isr(heap_a, held[i], n);
            if (q == NULL) {
                stow_heap_free_isr(heap_a, held[i]);
            }
            held[i] = q;
        }
        if (held[i] == NULL) {
            m->nulls++;
            sizes[i] = 0u;
        } else {
            sizes[i] = n;
            stow_test_fill(held[i], m->tag, n);
        }
    }
    for (size_t i = 0; i < 4u; i++) {
        stow_heap_free_isr(heap_a, held[i]);
    }
    return NULL;
}

TEST(heap_isr_variants_exclude_each_other_across_threads)
{
    CHECK_CALL(fresh(heap_a, WORK, 16384));
    struct heap_hammer one = {0x11u, 0x1234567u, 0u, 0u}, two = {0x22u, 0x7654321u, 0u, 0u};
    atomic_store(&heap_hammers_ready, 0u);
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, hammer_heap, &two) == 0);
    hammer_heap(&one);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_EQ(one.nulls + two.nulls, 0); /* 8 blocks of at most 256 bytes: always room */
    CHECK_EQ(one.clashes, 0);
    CHECK_EQ(two.clashes, 0);
    CHECK_EQ(stats_of(heap_a).used, 0);
    CHECK(stow_heap_check(heap_a));
}
#endif

/* ---- check() ------------------------------------------------------------------------ */

/* Flips one word or bit of the heap at a time, and check() must see each. */
#define BREAK_WORD(addr, value)                                                        \
    do {                                                                               \
        unsigned char *at_ = (unsigned char *)(addr);                                  \
        size_t was_ = word_at(at_);                                                    \
        set_word_at(at_, (value));                                                     \
        CHECK_FALSE(stow_heap_check(heap_a));                                          \
        set_word_at(at_, was_);                                                        \
        CHECK(stow_heap_check(heap_a));                                                \
    } while (0)

TEST(heap_check_finds_broken_invariants)
{
    CHECK_CALL(fresh(heap_a, WORK, SMALL_RAM ? 384u : 2048u));
    unsigned char *a = (unsigned char *)stow_heap_alloc(heap_a, 8);
    unsigned char *b = (unsigned char *)stow_heap_alloc(heap_a, 3u * MIN_BLOCK);
    unsigned char *c = (unsigned char *)stow_heap_alloc(heap_a, 8);
    unsigned char *d = (unsigned char *)stow_heap_alloc(heap_a, 8);
    CHECK(a && b && c && d);
    stow_heap_free(heap_a, b); /* a free block between two live ones */
    CHECK(stow_heap_check(heap_a));
    stow_heap_t good;
    stow_test_copy(&good, heap_a, sizeof good);
    unsigned char *fb = block_of(b);
    size_t fsize = word_at(fb);
    unsigned char *cb = block_of(c);
    size_t chead = word_at(cb);
    CHECK_EQ(chead & FLAG_BITS, USED_BIT | PREV_FREE_BIT);

    /* a live block's header */
    BREAK_WORD(block_of(a), word_at(block_of(a)) + GRAIN);  /* size too large */
    BREAK_WORD(block_of(a), word_at(block_of(a)) - GRAIN);  /* too small */
    BREAK_WORD(block_of(a), USED_BIT);                      /* size 0 */
    BREAK_WORD(block_of(a), word_at(block_of(a)) & ~USED_BIT); /* looks free */
    BREAK_WORD(block_of(a), word_at(block_of(a)) | PREV_FREE_BIT);
    if (GRAIN > 8u) { /* with a grain of 8 the three low bits are all flags */
        BREAK_WORD(block_of(a), word_at(block_of(a)) + 8u); /* not a multiple of the grain */
    }
    {   /* said to be aligned further, with no power of two in word 1 */
        size_t word1 = word_at(block_of(a) + sizeof(size_t));
        set_word_at(block_of(a) + sizeof(size_t), 3u);
        BREAK_WORD(block_of(a), word_at(block_of(a)) | ALIGNED_BIT);
        set_word_at(block_of(a) + sizeof(size_t), word1);
    }
    BREAK_WORD(cb, chead & ~PREV_FREE_BIT);                  /* its free neighbour unannounced */
    /* the free block: header, footer, links */
    BREAK_WORD(fb, fsize | USED_BIT);
    BREAK_WORD(fb, fsize - GRAIN);
    BREAK_WORD(fb, fsize + GRAIN);
    BREAK_WORD(fb + fsize - WORD, fsize - GRAIN);           /* footer */
    BREAK_WORD(fb + WORD, (size_t)(uintptr_t)(fb + WORD));   /* next: itself */
    BREAK_WORD(fb + WORD, (size_t)(uintptr_t)(cb + WORD));   /* next: a live block */
    BREAK_WORD(fb + WORD, (size_t)(uintptr_t)(fb + 2u * WORD)); /* next: misaligned */
    BREAK_WORD(fb + WORD, (size_t)(uintptr_t)&good);          /* next: outside the heap */
    BREAK_WORD(fb + WORD, 0u);                                 /* next: NULL, not followed */
    BREAK_WORD(fb + 2u * WORD, (size_t)(uintptr_t)(fb + WORD)); /* prev: itself */
    BREAK_WORD(fb + 2u * WORD, 0u);                            /* prev: NULL */
    BREAK_WORD(fb, 0u);                                        /* a free block of size 0 */
    /* the end word */
    BREAK_WORD(heap_a->limit, word_at(heap_a->limit) & ~USED_BIT);
    BREAK_WORD(heap_a->limit, word_at(heap_a->limit) + GRAIN);
    BREAK_WORD(heap_a->limit, word_at(heap_a->limit) ^ PREV_FREE_BIT);
    /* the object */
    heap_a->used += GRAIN;
    CHECK_FALSE(stow_heap_check(heap_a));
    heap_a->used = good.used;
    /* (peak below used is no corruption: peak catches up when used next falls,
     * and stats() reports the larger of the two) */
    /* the bit of the class that holds fb (classes are numbered by leading zeros) */
    heap_a->classes_used ^= (size_t)1u << (sizeof(size_t) * CHAR_BIT - 1u - log2_of(pow2_at_least(fsize + 1u) / 2u));
    CHECK_FALSE(stow_heap_check(heap_a));
    heap_a->classes_used = good.classes_used;
    heap_a->classes_used |= (size_t)1u << 2u; /* a class with no block */
    CHECK_FALSE(stow_heap_check(heap_a));
    heap_a->classes_used = good.classes_used;
    heap_a->max_size -= GRAIN;
    CHECK_FALSE(stow_heap_check(heap_a));
    heap_a->max_size = good.max_size;
    heap_a->limit -= GRAIN;
    CHECK_FALSE(stow_heap_check(heap_a));
    heap_a->limit = good.limit;
    heap_a->first += GRAIN;
    CHECK_FALSE(stow_heap_check(heap_a));
    heap_a->first = good.first;
    heap_a->size -= 4u * GRAIN;
    CHECK_FALSE(stow_heap_check(heap_a));
    heap_a->size = good.size;
#if STOW_CHECK_LEVEL >= 1
    uint32_t *starts = heap_a->starts;
    size_t ia = (size_t)(block_of(a) - heap_a->first) / GRAIN;
    size_t ib = (size_t)(fb - heap_a->first) / GRAIN;
    starts[ia / 32u] ^= (uint32_t)1u << (ia % 32u); /* a live block's start bit cleared */
    CHECK_FALSE(stow_heap_check(heap_a));
    starts[ia / 32u] ^= (uint32_t)1u << (ia % 32u);
    starts[ib / 32u] ^= (uint32_t)1u << (ib % 32u); /* a free block's bit set */
    CHECK_FALSE(stow_heap_check(heap_a));
    starts[ib / 32u] ^= (uint32_t)1u << (ib % 32u);
    starts[(ib + 1u) / 32u] ^= (uint32_t)1u << ((ib + 1u) % 32u); /* a bit inside a block */
    CHECK_FALSE(stow_heap_check(heap_a));
    starts[(ib + 1u) / 32u] ^= (uint32_t)1u << ((ib + 1u) % 32u);
    CHECK(stow_heap_check(heap_a));
#endif
#if STOW_CHECK_LEVEL >= 2
    stow_test_poke(fb + 3u * WORD, 0x00u); /* a write after free */
    CHECK_FALSE(stow_heap_check(heap_a));
    stow_test_poke(fb + 3u * WORD, 0xDDu);
    CHECK(stow_heap_check(heap_a));
    unsigned char was = stow_test_peek(a + 8);
    stow_test_poke(a + 8, (unsigned char)(was ^ 0x40u)); /* past a's request: canary or size word */
    CHECK_FALSE(stow_heap_check(heap_a));
    stow_test_poke(a + 8, was);
    CHECK(stow_heap_check(heap_a));
    stow_test_fill(a, 0x11u, 8);
    BREAK_WORD(block_of(a) + block_bytes(a) - WORD, 7u); /* the requested size, smaller */
    BREAK_WORD(block_of(a) + block_bytes(a) - WORD, SIZE_MAX); /* beyond the block */
#endif
    CHECK_BYTES_EQ(&good, heap_a, sizeof good);
    CHECK(stow_heap_check(heap_a));
    /* a class list that runs in a circle without its head */
    stow_heap_free(heap_a, d);
    stow_heap_free(heap_a, a); /* two free blocks now, not in the same class maybe */
    CHECK(stow_heap_check(heap_a));
}

/* ---- contract violations ------------------------------------------------------------ */

#if STOW_CHECK_LEVEL >= 1
TEST(heap_violations_leave_the_heap_unchanged)
{
    unsigned char *snap = WORK + SMALL_HEAP;
    CHECK_CALL(fresh(heap_a, WORK, SMALL_HEAP));
    unsigned char *x = (unsigned char *)stow_heap_alloc(heap_a, 0); /* minimum blocks */
    unsigned char *y = (unsigned char *)stow_heap_alloc(heap_a, 0);
    unsigned char *z = (unsigned char *)stow_heap_alloc(heap_a, 0);
    unsigned char *o = (unsigned char *)stow_heap_alloc(heap_b, 8); /* another heap's */
    CHECK(x && y && z && o);
    stow_heap_free(heap_a, y); /* freed: a second free is a double free */
    save(heap_a, snap);
    uint32_t other = hash_of(heap_b, sizeof *heap_b);
    void *r = &r;
    stow_stats_t s;
    int local = 0;
    const uintptr_t first = (uintptr_t)heap_a->first;
    void *const bad[] = {
        (void *)(first - GRAIN),                    /* below the heap */
        (void *)first,                              /* the first block's header */
        x + 1,                                      /* interior, misaligned */
        x + GRAIN / 2u,                             /* misaligned */
        x + GRAIN,                                  /* interior or the next header, aligned */
        z - OVERHEAD,                               /* a header */
        y,                                          /* freed already */
        z + block_bytes(z),                         /* inside the free block after z */
        heap_a->limit,                              /* the end word */
        heap_a->limit + OVERHEAD,                   /* past the blocks */
        WORK + SMALL_HEAP,                          /* one past the storage */
        o,                                          /* another heap's block */
        &local,                                     /* the stack */
        heap_a,                                     /* the heap object */
        (void *)(uintptr_t)GRAIN,                   /* near 0 */
        (void *)(UINTPTR_MAX & ~(uintptr_t)(GRAIN - 1u)), /* the top of memory */
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        void *p = bad[k];
        EXPECT_VIOLATION(stow_heap_free(heap_a, p));
        EXPECT_VIOLATION(stow_heap_free_isr(heap_a, p));
        EXPECT_VIOLATION(r = stow_heap_realloc(heap_a, p, 8));
        CHECK_NULL(r);
        r = &r;
        EXPECT_VIOLATION(r = stow_heap_realloc(heap_a, p, 0));
        CHECK_NULL(r);
        r = &r;
        EXPECT_VIOLATION(r = stow_heap_realloc_isr(heap_a, p, SIZE_MAX)); /* a violation, not a fail */
        CHECK_NULL(r);
        r = &r;
        EXPECT_VIOLATION(CHECK_EQ(stow_heap_usable_size(heap_a, p), 0));
    }
    EXPECT_VIOLATION(CHECK_EQ(stow_heap_usable_size(heap_a, NULL), 0));
    /* NULL heap */
    EXPECT_VIOLATION(CHECK_FALSE(stow_heap_init(NULL, WORK + 2u * SMALL_HEAP, SMALL_HEAP)));
    EXPECT_VIOLATION(r = stow_heap_alloc(NULL, 8));
    CHECK_NULL(r);
    r = &r;
    EXPECT_VIOLATION(r = stow_heap_alloc_isr(NULL, 8));
    CHECK_NULL(r);
    r = &r;
    EXPECT_VIOLATION(r = stow_heap_alloc_aligned(NULL, 8, 64));
    CHECK_NULL(r);
    r = &r;
    EXPECT_VIOLATION(r = stow_heap_calloc(NULL, 1, 8));
    CHECK_NULL(r);
    r = &r;
    EXPECT_VIOLATION(r = stow_heap_realloc(NULL, x, 8));
    CHECK_NULL(r);
    r = &r;
    EXPECT_VIOLATION(r = stow_heap_realloc(NULL, NULL, 8));
    CHECK_NULL(r);
    r = &r;
    EXPECT_VIOLATION(r = stow_heap_realloc_isr(NULL, x, 8));
    CHECK_NULL(r);
    EXPECT_VIOLATION(stow_heap_free(NULL, x));
    EXPECT_VIOLATION(stow_heap_free(NULL, NULL));
    EXPECT_VIOLATION(stow_heap_free_isr(NULL, x));
    EXPECT_VIOLATION(CHECK_EQ(stow_heap_usable_size(NULL, x), 0));
    EXPECT_VIOLATION(stow_heap_stats(NULL, &s));
    EXPECT_VIOLATION(stow_heap_stats(heap_a, NULL));
    EXPECT_VIOLATION(CHECK_EQ(stow_heap_largest_free(NULL), 0));
    EXPECT_VIOLATION(CHECK_FALSE(stow_heap_check(NULL)));
    /* alignments that are not powers of two: NULL, and no fail counted */
    const size_t aligns[] = {3u, 6u, 24u, 100u, GRAIN + 1u, (size_t)1u << 20 | 1u, SIZE_MAX, SIZE_MAX - 1u};
    for (size_t k = 0; k < sizeof aligns / sizeof aligns[0]; k++) {
        r = &r;
        EXPECT_VIOLATION(r = stow_heap_alloc_aligned(heap_a, 8, aligns[k]));
        CHECK_NULL(r);
    }
    (void)local;
    CHECK_CALL(check_unchanged(heap_a, snap));
    CHECK_EQ(hash_of(heap_b, sizeof *heap_b), other);
    CHECK(stow_heap_check(heap_a));
    CHECK(stow_heap_check(heap_b));
    /* and it works as before */
    CHECK_PTR_EQ(stow_heap_alloc(heap_a, 0), y);
    stow_heap_free(heap_a, x);
    stow_heap_free(heap_a, y);
    stow_heap_free(heap_a, z);
    stow_heap_free(heap_b, o);
    CHECK_EQ(stats_of(heap_a).used, 0);
    CHECK(stow_heap_check(heap_a));
}

/* What reaches the assert hook: the public function's name and the misuse in
 * words a user can act on ("" with STOW_ASSERT_TEXT 0). */
#define NOT_LIVE " not a live block of this heap (outside, interior, misaligned or freed already)"

TEST(heap_violations_name_the_call_and_the_misuse)
{
    CHECK_CALL(fresh(heap_a, WORK, SMALL_HEAP));
    unsigned char *x = (unsigned char *)stow_heap_alloc(heap_a, 8);
    CHECK_NOT_NULL(x);
    void *r = &r;
    stow_stats_t s;
    EXPECT_VIOLATION_TEXT(CHECK_FALSE(stow_heap_init(NULL, WORK, SMALL_HEAP)), "stow_heap_init: heap is NULL");
    EXPECT_VIOLATION_TEXT(r = stow_heap_alloc(NULL, 8), "stow_heap_alloc: heap is NULL");
    EXPECT_VIOLATION_TEXT(r = stow_heap_alloc_isr(NULL, 8), "stow_heap_alloc: heap is NULL");
    EXPECT_VIOLATION_TEXT(r = stow_heap_alloc_aligned(NULL, 8, 8), "stow_heap_alloc_aligned: heap is NULL");
    EXPECT_VIOLATION_TEXT(r = stow_heap_alloc_aligned(heap_a, 8, 12),
                          "stow_heap_alloc_aligned: alignment is not a power of two");
    EXPECT_VIOLATION_TEXT(r = stow_heap_calloc(NULL, 2, 8), "stow_heap_calloc: heap is NULL");
    EXPECT_VIOLATION_TEXT(r = stow_heap_realloc(NULL, x, 8), "stow_heap_realloc: heap is NULL");
    EXPECT_VIOLATION_TEXT(r = stow_heap_realloc_isr(NULL, x, 8), "stow_heap_realloc: heap is NULL");
    EXPECT_VIOLATION_TEXT(r = stow_heap_realloc(heap_a, x + 1, 8), "stow_heap_realloc:" NOT_LIVE);
    EXPECT_VIOLATION_TEXT(stow_heap_free(NULL, x), "stow_heap_free: heap is NULL");
    EXPECT_VIOLATION_TEXT(stow_heap_free_isr(NULL, x), "stow_heap_free: heap is NULL");
    EXPECT_VIOLATION_TEXT(stow_heap_free(heap_a, x + GRAIN), "stow_heap_free:" NOT_LIVE);
    EXPECT_VIOLATION_TEXT(CHECK_EQ(stow_heap_usable_size(NULL, x), 0), "stow_heap_usable_size: heap is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_EQ(stow_heap_usable_size(heap_a, NULL), 0), "stow_heap_usable_size:" NOT_LIVE);
    EXPECT_VIOLATION_TEXT(stow_heap_stats(NULL, &s), "stow_heap_stats: heap or out is NULL");
    EXPECT_VIOLATION_TEXT(stow_heap_stats(heap_a, NULL), "stow_heap_stats: heap or out is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_EQ(stow_heap_largest_free(NULL), 0), "stow_heap_largest_free: heap is NULL");
    EXPECT_VIOLATION_TEXT(CHECK_FALSE(stow_heap_check(NULL)), "stow_heap_check: heap is NULL");
    stow_heap_free(heap_a, x);
    /* a double free is found at level 1 already, by the live-start bits */
    EXPECT_VIOLATION_TEXT(stow_heap_free(heap_a, x), "stow_heap_free:" NOT_LIVE);
    CHECK_NULL(r);
    CHECK(stow_heap_check(heap_a));
}

/* Byte by byte, from below the heap to beyond it: free, realloc and usable_size
 * accept exactly the payloads of the live blocks (usable_size is the probe: it
 * changes nothing either way). */
TEST(heap_accepts_exactly_the_live_payloads)
{
    CHECK_CALL(fresh(heap_a, WORK, SMALL_HEAP));
    void *live[8];
    size_t nlive = 0;
    for (size_t n = 0; n < 8u; n++) {
        void *p = stow_heap_alloc(heap_a, n * 3u);
        if (p == NULL) {
            break;
        }
        live[nlive++] = p;
    }
    CHECK_LE(3, nlive);
    stow_heap_free(heap_a, live[1]);
    live[1] = live[--nlive];
    const unsigned char *lo = heap_a->first - 2u * GRAIN;
    const unsigned char *hi = heap_a->limit + 2u * GRAIN;
    uint32_t accepted = 0;
    for (const unsigned char *p = lo; p < hi; p++) {
        bool is_live = false;
        for (size_t i = 0; i < nlive; i++) {
            is_live = is_live || p == live[i];
        }
        if (is_live) {
            uint32_t seen = stow_test_violations();
            CHECK_LE(STOW_CHECK_LEVEL >= 2 ? 0u : 1u, stow_heap_usable_size(heap_a, p));
            CHECK_EQ(stow_test_violations(), seen);
            accepted++;
        } else {
            EXPECT_VIOLATION(CHECK_EQ(stow_heap_usable_size(heap_a, p), 0));
        }
    }
    CHECK_EQ(accepted, nlive);
    CHECK(stow_heap_check(heap_a));
}
#endif

/* ---- level 2 ------------------------------------------------------------------------ */

#if STOW_CHECK_LEVEL >= 2
TEST(heap_level2_poisons_and_reports_writes_after_free)
{
    const size_t n = (SMALL_RAM ? 2u : 4u) * MIN_BLOCK;
    CHECK_CALL(fresh(heap_a, WORK, SMALL_RAM ? WORK_BYTES : 2048u));
    unsigned char *a = (unsigned char *)stow_heap_alloc(heap_a, n);
    unsigned char *b = (unsigned char *)stow_heap_alloc(heap_a, n);
    unsigned char *c = (unsigned char *)stow_heap_alloc(heap_a, n);
    CHECK(a && b && c);
    size_t bb = block_bytes(b);
    stow_test_fill(b, 0x42u, n);
    stow_heap_free(heap_a, b);
    /* poisoned, all but the heap's own words: header, links, footer */
    unsigned char *fb = block_of(b);
    for (size_t i = 3u * WORD; i < bb - WORD; i++) {
        CHECK_EQ(stow_test_peek(fb + i), 0xDD);
    }
    CHECK(stow_heap_check(heap_a));
    /* a clean reuse reports nothing */
    uint32_t seen = stow_test_violations();
    CHECK_PTR_EQ(stow_heap_alloc(heap_a, n), b);
    CHECK_EQ(stow_test_violations(), seen);
    stow_heap_free(heap_a, b);
    stow_test_poke(b + n - 1u, 0x01u); /* a write through a stale pointer */
    CHECK_FALSE(stow_heap_check(heap_a));
    /* an alloc that takes other bytes says nothing */
    void *elsewhere = stow_heap_alloc(heap_a, 2u * n);
    CHECK_NOT_NULL(elsewhere);
    CHECK_EQ(stow_test_violations(), seen);
    /* the one that takes them reports it, and hands the block out all the same */
    unsigned char *q = NULL;
    EXPECT_VIOLATION_TEXT(q = (unsigned char *)stow_heap_alloc(heap_a, n),
                          "stow_heap_alloc: free memory was written after free");
    CHECK_PTR_EQ(q, b);
    CHECK(stow_heap_check(heap_a));
    /* calloc and aligned alloc report it too (as stow_heap_alloc) */
    stow_heap_free(heap_a, b);
    stow_test_poke(b + 2u * WORD, 0x00u);
    EXPECT_VIOLATION_TEXT(q = (unsigned char *)stow_heap_calloc(heap_a, 1, n),
                          "stow_heap_alloc: free memory was written after free");
    CHECK_PTR_EQ(q, b);
    CHECK(holds(q, 0u, n));
    stow_heap_free(heap_a, b);
    stow_test_poke(b + n / 2u, 0x00u);
    EXPECT_VIOLATION(q = (unsigned char *)stow_heap_alloc_aligned(heap_a, n, GRAIN));
    CHECK_PTR_EQ(q, b);
    /* realloc that grows into a written free neighbour reports it */
    stow_heap_free(heap_a, b);
    stow_test_poke(b + n / 2u, 0x00u);
    stow_test_fill(a, 0x33u, n);
    EXPECT_VIOLATION_TEXT(q = (unsigned char *)stow_heap_realloc(heap_a, a, 2u * n),
                          "stow_heap_realloc: free memory was written after free");
    CHECK_PTR_EQ(q, a);
    CHECK(holds(a, 0x33u, n));
    CHECK(stow_heap_check(heap_a));
    /* a write into a block that merged with its neighbour on free, reported when
     * the merged block is handed out */
    stow_heap_free(heap_a, c);
    stow_heap_free(heap_a, elsewhere);
    CHECK(stow_heap_check(heap_a));
    stow_test_poke(c + n - 1u, 0x5Au);
    CHECK_FALSE(stow_heap_check(heap_a));
    EXPECT_VIOLATION(q = (unsigned char *)stow_heap_alloc(heap_a, stow_heap_largest_free(heap_a)));
    CHECK_NOT_NULL(q);
    CHECK(stow_heap_check(heap_a));
}

TEST(heap_level2_canary_reports_a_write_past_the_end)
{
    CHECK_CALL(fresh(heap_a, WORK, SMALL_RAM ? WORK_BYTES : 2048u));
    size_t initial = stow_heap_largest_free(heap_a);
    for (size_t n = 0; n <= 3u * MIN_BLOCK; n++) {
        unsigned char *p = (unsigned char *)stow_heap_alloc(heap_a, n);
        CHECK_NOT_NULL(p);
        CHECK_EQ(stow_heap_usable_size(heap_a, p), n);
        stow_test_fill(p, 0x11u, n); /* every requested byte is the caller's */
        CHECK(stow_heap_check(heap_a));
        stow_test_poke(p + n, 0x11u); /* one byte past the end */
        CHECK_FALSE(stow_heap_check(heap_a));
        EXPECT_VIOLATION_TEXT(stow_heap_free(heap_a, p), "stow_heap_free: write past the end of the block");
        CHECK_EQ(stats_of(heap_a).used, 0); /* freed all the same */
        CHECK_EQ(stow_heap_largest_free(heap_a), initial);
        CHECK(stow_heap_check(heap_a));
    }
    /* the last byte of the block, the size word's */
    unsigned char *p = (unsigned char *)stow_heap_alloc(heap_a, 5);
    stow_test_poke(block_of(p) + block_bytes(p) - 1u, 0xFFu);
    EXPECT_VIOLATION(stow_heap_free_isr(heap_a, p));
    /* realloc reports it, and goes on: in place, and moving */
    p = (unsigned char *)stow_heap_alloc(heap_a, 5);
    void *next = stow_heap_alloc(heap_a, 0);
    stow_test_fill(p, 0x22u, 5);
    stow_test_poke(p + 5, 0x00u);
    unsigned char *q = NULL;
    EXPECT_VIOLATION_TEXT(q = (unsigned char *)stow_heap_realloc(heap_a, p, 3),
                          "stow_heap_realloc: write past the end of the block");
    CHECK_PTR_EQ(q, p);
    CHECK(stow_heap_check(heap_a)); /* a new canary after 3 bytes */
    stow_test_poke(p + 3, 0x00u);
    EXPECT_VIOLATION(q = (unsigned char *)stow_heap_realloc_isr(heap_a, p, 4u * MIN_BLOCK));
    CHECK_NOT_NULL(q);
    CHECK(q != p);
    CHECK(holds(q, 0x22u, 3));
    CHECK(stow_heap_check(heap_a));
    stow_heap_free(heap_a, q);
    stow_heap_free(heap_a, next);
    CHECK_EQ(stow_heap_largest_free(heap_a), initial);
}
#endif

/* ---- a random walk against a model -------------------------------------------------- */

/* A seeded walk of every call against a model of the live blocks (address, size,
 * alignment, a fill pattern): each result and each fail compared, the contents
 * of the block just touched checked at once and all of them every few steps,
 * blocks never overlapping, stats exact, check() after every call. At the end
 * everything is freed and largest_free is what it was at the start. */
#define MODEL_MAX (SMALL_RAM ? 10u : 48u)

struct model_block {
    unsigned char *p;
    size_t size, align;
    unsigned char tag;
};

struct model {
    struct model_block b[MODEL_MAX];
    uint32_t n, fails;
    size_t peak;
};

static size_t model_used(const struct model *m)
{
    size_t used = 0;
    for (uint32_t i = 0; i < m->n; i++) {
        used += block_bytes(m->b[i].p);
    }
    return used;
}

static void model_verify(const stow_heap_t *h, const struct model *m)
{
    for (uint32_t i = 0; i < m->n; i++) {
        const struct model_block *x = &m->b[i];
        CHECK(holds(x->p, x->tag, x->size));
        CHECK(aligned_to(x->p, x->align));
        CHECK_LE(x->size, stow_heap_usable_size(h, x->p));
        CHECK(x->p >= h->first + OVERHEAD && x->p + x->size <= h->limit);
        for (uint32_t j = i + 1u; j < m->n; j++) {
            const struct model_block *y = &m->b[j];
            CHECK(block_of(x->p) + block_bytes(x->p) <= block_of(y->p) ||
                  block_of(y->p) + block_bytes(y->p) <= block_of(x->p));
        }
    }
}

static size_t walk_size(size_t heap_bytes)
{
    uint32_t kind = stow_test_rand_below(16);
    if (kind == 0u) {
        return 0u;
    }
    if (kind < 10u) {
        return stow_test_rand_below(64);
    }
    if (kind < 15u) {
        return stow_test_rand_below((uint32_t)(heap_bytes / 8u));
    }
    return stow_test_rand_below((uint32_t)(heap_bytes / 2u));
}

TEST(heap_random_operations_match_a_model)
{
#if SMALL_RAM
    struct model m; /* on the stack: no static RAM to spare there */
#else
    static struct model m;
#endif
    size_t bytes = SMALL_RAM ? 512u : 16384u;
    CHECK_CALL(fresh(heap_a, WORK, bytes));
    size_t initial = stow_heap_largest_free(heap_a);
    m.n = 0;
    m.fails = 0;
    m.peak = 0;
    stow_test_seed(0x4EA9u);
    uint32_t steps = STOW_TEST_SCALED(20000u);
    for (uint32_t step = 0; step < steps; step++) {
        uint32_t op = stow_test_rand_below(100);
        unsigned char tag = (unsigned char)(step | 1u);
        size_t used_before = model_used(&m);
        if (op < 40u && m.n < MODEL_MAX) {
            size_t size = walk_size(bytes);
            size_t align = GRAIN;
            unsigned char *p;
            uint32_t how = stow_test_rand_below(8);
            if (how == 0u) {
                align = (size_t)1u << stow_test_rand_below(10);
                p = (unsigned char *)stow_heap_alloc_aligned(heap_a, size, align);
                align = align > GRAIN ? align : GRAIN;
            } else if (how == 1u) {
                size_t k = 1u + stow_test_rand_below(4);
                size = size / k;
                p = (unsigned char *)stow_heap_calloc(heap_a, k, size);
                size *= k;
                if (p != NULL) {
                    CHECK(holds(p, 0u, size));
                }
            } else if (how == 2u) {
                p = (unsigned char *)stow_heap_alloc_isr(heap_a, size);
            } else if (how == 3u) {
                p = (unsigned char *)stow_heap_realloc(heap_a, NULL, size);
            } else {
                p = (unsigned char *)stow_heap_alloc(heap_a, size);
            }
            if (p == NULL) {
                m.fails++;
            } else {
                stow_test_fill(p, tag, size);
                m.b[m.n].p = p;
                m.b[m.n].size = size;
                m.b[m.n].align = align;
                m.b[m.n].tag = tag;
                m.n++;
            }
        } else if (op < 70u && m.n > 0u) {
            struct model_block *x = &m.b[stow_test_rand_below(m.n)];
            size_t size = stow_test_rand_below(4) == 0u ? x->size / 2u : walk_size(bytes);
            unsigned char *q = stow_test_rand_below(2) == 0u ? (unsigned char *)stow_heap_realloc(heap_a, x->p, size)
                                                            : (unsigned char *)stow_heap_realloc_isr(heap_a, x->p, size);
            if (q == NULL) {
                m.fails++;
                CHECK_LT(x->size, size); /* shrinking never fails */
                CHECK(holds(x->p, x->tag, x->size));
            } else {
                size_t keep = size < x->size ? size : x->size;
                CHECK(holds(q, x->tag, keep));
                CHECK(aligned_to(q, x->align));
                if (q != x->p) { /* moved: both blocks were live for a moment */
                    size_t both = used_before + block_bytes(q);
                    m.peak = both > m.peak ? both : m.peak;
                }
                stow_test_fill(q + keep, x->tag, size - keep);
                x->p = q;
                x->size = size;
            }
        } else if (m.n > 0u) {
            uint32_t i = stow_test_rand_below(m.n);
            CHECK(holds(m.b[i].p, m.b[i].tag, m.b[i].size));
            if (stow_test_rand_below(2) == 0u) {
                stow_heap_free(heap_a, m.b[i].p);
            } else {
                stow_heap_free_isr(heap_a, m.b[i].p);
            }
            m.n--; /* field by field: a struct copy may become a memcpy call */
            m.b[i].p = m.b[m.n].p;
            m.b[i].size = m.b[m.n].size;
            m.b[i].align = m.b[m.n].align;
            m.b[i].tag = m.b[m.n].tag;
        }
        CHECK(stow_heap_check(heap_a));
        size_t used = model_used(&m);
        m.peak = used > m.peak ? used : m.peak;
        stow_stats_t s = stats_of(heap_a);
        CHECK_EQ(s.used, used);
        CHECK_EQ(s.peak, m.peak);
        CHECK_EQ(s.fails, m.fails);
        if (step % 64u == 63u) {
            CHECK_CALL(model_verify(heap_a, &m));
        }
    }
    CHECK_CALL(model_verify(heap_a, &m));
    CHECK_LT(0, m.fails); /* the walk did fill the heap */
    while (m.n > 0u) {
        stow_heap_free(heap_a, m.b[--m.n].p);
        CHECK(stow_heap_check(heap_a));
    }
    CHECK_EQ(stats_of(heap_a).used, 0);
    CHECK_EQ(stow_heap_largest_free(heap_a), initial);
}

/* ---- the fragmentation bound ---------------------------------------------------------- */

/* An adversary that keeps the requested bytes live at once within max_live and
 * every request within [min_req, max_req], and uses the addresses it gets: it
 * walks the heap's blocks (reading their headers as heap.c lays them out) to
 * choose what to free so that the heap is split as much as it can be. Each live
 * block carries its requested size in its first word (or, when it has room for
 * less, the usable size is the request: level 2). */
struct adversary {
    stow_heap_t *h;
    size_t live_max, req_max, req_min;
    size_t live;      /* requested bytes live, a 0-byte request counting 1 */
    size_t footprint; /* the highest end of a block so far, from the first block */
    size_t most_live_blocks; /* the most block bytes live at once */
    uint32_t nulls;   /* requests within the limits that got NULL, or would have */
    size_t refused;   /* the first of them */
    size_t free_then; /* the free bytes when it was refused */
    bool broken;      /* check() failed, or a shrink moved */
};

static size_t cost_of(size_t r) { return r > 0u ? r : 1u; }

static size_t adv_requested(const struct adversary *a, const unsigned char *p)
{
    size_t u = stow_heap_usable_size(a->h, p);
    if (u < sizeof(size_t)) {
        return u;
    }
    size_t r;
    stow_test_copy(&r, p, sizeof r);
    return r;
}

static void adv_note(struct adversary *a, unsigned char *p, size_t r)
{
    if (stow_heap_usable_size(a->h, p) >= sizeof(size_t)) {
        stow_test_copy(p, &r, sizeof r);
    }
    size_t end = (size_t)(block_of(p) + block_bytes(p) - a->h->first);
    a->footprint = end > a->footprint ? end : a->footprint;
    size_t used = a->h->used;
    a->most_live_blocks = used > a->most_live_blocks ? used : a->most_live_blocks;
}

/* The bound's promise, looked at after every call: while the limits leave room
 * for a request, the heap has a free block for it. The smallest request the
 * heap would refuse now is largest_free() + 1 (largest_free is exact): it must
 * be beyond the largest request, or beyond what the live limit leaves. */
static void adv_probe(struct adversary *a)
{
    size_t lf = stow_heap_largest_free(a->h);
    size_t r = lf + 1u > a->req_min ? lf + 1u : a->req_min;
    if (r <= a->req_max && a->live + cost_of(r) <= a->live_max) {
        if (a->nulls++ == 0u) {
            a->refused = r;
            a->free_then = stats_of(a->h).capacity - a->h->used;
        }
    }
}

static unsigned char *adv_take(struct adversary *a, size_t r)
{
    unsigned char *p = (unsigned char *)stow_heap_alloc(a->h, r);
    if (p == NULL) {
        if (a->nulls++ == 0u) {
            a->refused = r;
            a->free_then = stats_of(a->h).capacity - a->h->used;
        }
        return NULL;
    }
    a->live += cost_of(r);
    adv_note(a, p, r);
    adv_probe(a);
    return p;
}

static void adv_give(struct adversary *a, unsigned char *p)
{
    a->live -= cost_of(adv_requested(a, p));
    stow_heap_free(a->h, p);
    adv_probe(a);
}

/* Requests of r bytes while the limit allows. */
static void adv_fill(struct adversary *a, size_t r)
{
    while (a->live + cost_of(r) <= a->live_max && a->nulls == 0u) {
        (void)adv_take(a, r);
    }
}

/* The smallest request whose block is 2^j bytes (one byte more than the block
 * below holds: nearly twice its size), within the limits. */
static size_t adv_level_size(const struct adversary *a, unsigned j)
{
    size_t half = (size_t)1u << (j - 1u);
    size_t r = half >= OVERHEAD + TAIL ? half - OVERHEAD - TAIL + 1u : 0u;
    r = r < a->req_min ? a->req_min : r;
    return r > a->req_max ? a->req_max : r;
}

static unsigned char *next_block(const unsigned char *b) { return (unsigned char *)(uintptr_t)b + (word_at(b) & ~FLAG_BITS); }
static bool is_live_block(const unsigned char *b) { return (word_at(b) & USED_BIT) != 0u; }

/* Frees live blocks, walking up the heap, as long as that leaves no free run of
 * g bytes or more (short of the heap's last free block): requests of g bytes then
 * find no room among the blocks that stay. */
static void adv_pin(struct adversary *a, size_t g)
{
    unsigned char *b = a->h->first;
    unsigned char *end = a->h->limit;
    size_t run = 0;
    while (b < end) {
        unsigned char *next = next_block(b);
        if (!is_live_block(b)) {
            run += (size_t)(next - b);
            b = next;
            continue;
        }
        size_t after = 0;
        if (next < end && !is_live_block(next)) {
            after = (size_t)(next_block(next) - next);
        }
        bool last = after > 0u && next + after >= end;
        size_t size = (size_t)(next - b);
        if (!last && run + size + after >= g) {
            run = 0; /* keep it */
            b = next;
            continue;
        }
        run += size + after;
        adv_give(a, b + OVERHEAD);
        b = next + after;
    }
}

/* Of each run of neighbouring live blocks of block bytes, keeps every other one,
 * shrunk to the smallest request (a cheap pin), and frees the rest. */
static void adv_shrink_pins(struct adversary *a, size_t block)
{
    unsigned char *b = a->h->first;
    unsigned char *end = a->h->limit;
    uint32_t k = 0;
    while (b < end) {
        unsigned char *next = next_block(b);
        if (!is_live_block(b) || (size_t)(next - b) != block) {
            k = 0;
            b = next;
            continue;
        }
        if (next < end && !is_live_block(next)) {
            next = next_block(next);
        }
        unsigned char *p = b + OVERHEAD;
        if ((k++ & 1u) != 0u) {
            adv_give(a, p);
        } else {
            size_t was = adv_requested(a, p);
            unsigned char *q = (unsigned char *)stow_heap_realloc(a->h, p, a->req_min);
            if (q != p) {
                a->broken = true;
                return;
            }
            a->live = a->live - cost_of(was) + cost_of(a->req_min);
            adv_note(a, p, a->req_min);
            adv_probe(a);
        }
        b = next;
    }
}

/* Frees every other live block, in address order. */
static void adv_every_other(struct adversary *a)
{
    unsigned char *b = a->h->first;
    unsigned char *end = a->h->limit;
    uint32_t k = 0;
    while (b < end) {
        unsigned char *next = next_block(b);
        if (!is_live_block(b)) {
            b = next;
            continue;
        }
        if (next < end && !is_live_block(next)) {
            next = next_block(next);
        }
        if ((k++ & 1u) != 0u) {
            adv_give(a, b + OVERHEAD);
        }
        b = next;
    }
}

static void adv_free_all(struct adversary *a)
{
    unsigned char *b = a->h->first;
    unsigned char *end = a->h->limit;
    while (b < end) {
        unsigned char *next = next_block(b);
        if (is_live_block(b)) {
            if (next < end && !is_live_block(next)) {
                next = next_block(next);
            }
            adv_give(a, b + OVERHEAD);
        }
        b = next;
    }
}

/* Robson's ladder: fill the limit with the smallest requests; then, level by
 * level up to the largest request, pin the heap so that no hole holds the next
 * level's block (shrink_pins: every other block of the level just filled kept as
 * a minimum block; otherwise: every other block freed) and fill the limit again
 * with requests of that level, which must all go to fresh memory. */
static void adv_ladder(struct adversary *a, bool shrink_pins, uint32_t rounds)
{
    unsigned j0 = log2_of(block_for(a->req_min));
    unsigned j1 = log2_of(block_for(a->req_max));
    size_t last_block = 0;
    for (uint32_t round = 0; round < rounds; round++) {
        for (unsigned j = j0; j <= j1; j++) {
            size_t r = j == j0 ? a->req_min : adv_level_size(a, j);
            if (last_block != 0u) {
                if (shrink_pins) {
                    adv_shrink_pins(a, last_block);
                    adv_pin(a, block_for(r));
                } else {
                    adv_every_other(a);
                }
            }
            adv_fill(a, r);
            last_block = block_for(r);
            if (!stow_heap_check(a->h)) {
                a->broken = true;
            }
            if (a->nulls != 0u || a->broken) {
                return;
            }
        }
    }
}

/* At each step: frees (or shrinks to a pin) a live block whose neighbours are
 * both live, so that the hole it leaves stays a hole, or asks for the smallest
 * level whose block fits only the largest free block. */
static void adv_random(struct adversary *a, uint32_t steps, bool check_each)
{
    unsigned j0 = log2_of(block_for(a->req_min));
    unsigned j1 = log2_of(block_for(a->req_max));
    for (uint32_t step = 0; step < steps && a->nulls == 0u && !a->broken; step++) {
        size_t f1 = 0, f2 = 0;
        unsigned char *pick = NULL, *any = NULL;
        uint32_t picks = 0, lives = 0;
        bool prev_live = true;
        for (unsigned char *b = a->h->first; b < a->h->limit;) {
            unsigned char *next = next_block(b);
            size_t size = (size_t)(next - b);
            bool live = is_live_block(b);
            if (!live) {
                if (size > f1) {
                    f2 = f1;
                    f1 = size;
                } else if (size > f2) {
                    f2 = size;
                }
            } else {
                if (stow_test_rand_below(++lives) == 0u) {
                    any = b;
                }
                if (prev_live && (next >= a->h->limit || is_live_block(next)) &&
                    stow_test_rand_below(++picks) == 0u) {
                    pick = b;
                }
            }
            prev_live = live;
            b = next;
        }
        size_t r = SIZE_MAX;
        for (unsigned j = j0; j <= j1; j++) {
            size_t rj = j == j0 ? a->req_min : adv_level_size(a, j);
            if (block_for(rj) > f2 && a->live + cost_of(rj) <= a->live_max) {
                r = rj;
                break;
            }
        }
        uint32_t dice = stow_test_rand_below(8);
        if (r != SIZE_MAX && (dice < 5u || any == NULL)) {
            (void)adv_take(a, r);
        } else if (pick != NULL && dice < 7u) {
            unsigned char *p = pick + OVERHEAD;
            if (dice == 6u && block_bytes(p) > block_for(a->req_min)) {
                size_t was = adv_requested(a, p);
                if (stow_heap_realloc(a->h, p, a->req_min) != p) {
                    a->broken = true;
                }
                a->live = a->live - cost_of(was) + cost_of(a->req_min);
                adv_note(a, p, a->req_min);
                adv_probe(a);
            } else {
                adv_give(a, p);
            }
        } else if (any != NULL) {
            adv_give(a, any + OVERHEAD);
        }
        if (check_each && !stow_heap_check(a->h)) {
            a->broken = true;
        }
    }
    if (!stow_heap_check(a->h)) {
        a->broken = true;
    }
}

static void adv_start(struct adversary *a, stow_heap_t *h, const struct limits *c)
{
    a->h = h;
    a->live_max = c->live;
    a->req_max = c->max_req;
    a->req_min = c->min_req;
    a->live = 0;
    a->footprint = 0;
    a->most_live_blocks = 0;
    a->nulls = 0;
    a->refused = 0;
    a->free_then = 0;
    a->broken = false;
}

static void adv_report(const char *what, const struct limits *c, const struct adversary *a, size_t bytes)
{
    stow_test_print("  ");
    stow_test_print(what);
    stow_test_print(": live ");
    stow_test_print_u(c->live);
    stow_test_print(", requests ");
    stow_test_print_u(c->min_req);
    stow_test_print("-");
    stow_test_print_u(c->max_req);
    stow_test_print(", heap ");
    stow_test_print_u(bytes);
    stow_test_print(" bytes (capacity ");
    stow_test_print_u(stats_of(a->h).capacity);
    stow_test_print("): footprint ");
    stow_test_print_u(a->footprint);
    stow_test_print(", most block bytes live ");
    stow_test_print_u(a->most_live_blocks);
    stow_test_print(", refused ");
    stow_test_print_u(a->nulls);
    if (a->nulls != 0u) {
        stow_test_print(" (first: ");
        stow_test_print_u(a->refused);
        stow_test_print(" bytes with ");
        stow_test_print_u(a->free_then);
        stow_test_print(" free)");
    }
    stow_test_print("\n");
}

/* The most heap bytes the bound tests use: all of them on the host, less under
 * valgrind (STOW_TEST_SCALE 25), what the work buffer holds on a board. */
#if defined(STOW_TEST_TARGET)
#define BOUND_BYTES_MOST WORK_BYTES
#else
#define BOUND_BYTES_MOST STOW_TEST_SCALED(WORK_BYTES)
#endif

/* Within its limits, no adversary gets NULL from a heap of
 * STOW_HEAP_BYTES_FOR_MIN(limits) bytes, at any check level. */
TEST(heap_bound_holds_against_adversaries)
{
    struct adversary a;
    uint32_t ran = 0;
    for (size_t k = 0; k < BOUND_CASES; k++) {
        const struct limits *c = &bound_cases[k];
        uint64_t bytes = c->bytes;
        if (bytes > BOUND_BYTES_MOST) {
            continue;
        }
        for (int policy = 0; policy < 3; policy++) {
            CHECK_CALL(fresh(heap_a, WORK, (size_t)bytes));
            size_t initial = stow_heap_largest_free(heap_a);
            adv_start(&a, heap_a, c);
            if (policy < 2) {
                adv_ladder(&a, policy == 0, SMALL_RAM ? 2u : 3u);
            } else {
                stow_test_seed(0xB0D5u + (uint32_t)k);
                bool each = stats_of(heap_a).capacity <= 8192u;
                adv_random(&a, STOW_TEST_SCALED(each ? 6000u : 2000u), each);
            }
            bool verbose = false;
#if defined(STOW_TEST_HEAP_VERBOSE) /* -DSTOW_TEST_HEAP_VERBOSE: how far each adversary got */
            verbose = true;
#endif
            if (a.nulls != 0u || a.broken || verbose) {
                adv_report(policy == 0 ? "ladder, shrunk pins" : policy == 1 ? "ladder, every other" : "random",
                           c, &a, (size_t)bytes);
            }
            CHECK_EQ(a.nulls, 0);
            CHECK_FALSE(a.broken);
            CHECK_LE(a.live, c->live);
            adv_free_all(&a);
            CHECK_EQ(a.live, 0);
            CHECK_EQ(stats_of(heap_a).used, 0);
            CHECK_EQ(stow_heap_largest_free(heap_a), initial);
            CHECK(stow_heap_check(heap_a));
        }
        ran++;
    }
    CHECK_LE(SMALL_RAM ? 1u : 3u, ran);
    /* and the DEFINE'd heap sized by the macro */
    static const struct limits defined = LIMITS(STATIC_LIVE, STATIC_MAX, STATIC_MIN);
    for (int policy = 0; policy < 3; policy++) {
        adv_start(&a, heap_b, &defined);
        if (policy < 2) {
            adv_ladder(&a, policy == 0, 3u);
        } else {
            stow_test_seed(0xDEF1u);
            adv_random(&a, STOW_TEST_SCALED(4000u), true);
        }
        CHECK_EQ(a.nulls, 0);
        CHECK_FALSE(a.broken);
        adv_free_all(&a);
        CHECK(stow_heap_check(heap_b));
    }
}

/* The adversaries bite: against a heap of less than half the bound, they get
 * NULL (or find a request within the limits that largest_free() says would be
 * refused) while the heap has more free bytes than that request's block needs,
 * so the refusal comes from fragmentation, not from a lack of bytes. Tried at
 * 1/2, 2/5, 1/3 and 1/4 of the bound: some must bite. */
TEST(heap_bound_adversary_bites_an_undersized_heap)
{
    struct adversary a;
#if SMALL_RAM
    static const struct limits c = LIMITS(48u, 24u, 8u);
#elif defined(STOW_TEST_TARGET)
    static const struct limits c = LIMITS(2048u, 256u, 16u);
#else
    static const struct limits c = LIMITS(16384u, 1024u, 48u);
#endif
    static const uint32_t tenths_of[4][2] = {{1u, 2u}, {2u, 5u}, {1u, 3u}, {1u, 4u}};
    uint64_t bound = c.bytes;
    CHECK_LE(bound / 2u, WORK_BYTES);
    bool bitten = false;
    for (size_t f = 0; f < 4u && !bitten; f++) {
        size_t bytes = (size_t)(bound * tenths_of[f][0] / tenths_of[f][1]);
        for (int policy = 0; policy < 3 && !bitten; policy++) {
            CHECK_CALL(fresh(heap_a, WORK, bytes));
            adv_start(&a, heap_a, &c);
            if (policy < 2) {
                adv_ladder(&a, policy == 0, 3u);
            } else {
                stow_test_seed(0xB17Eu);
                adv_random(&a, STOW_TEST_SCALED(6000u), false);
            }
            CHECK_FALSE(a.broken);
            if (a.nulls != 0u && block_for(a.refused) < a.free_then) {
                bitten = true;
                adv_report(policy == 0 ? "ladder, shrunk pins" : policy == 1 ? "ladder, every other" : "random",
                           &c, &a, bytes);
                stow_test_print("    (a heap of ");
                stow_test_print_u(tenths_of[f][0]);
                stow_test_print("/");
                stow_test_print_u(tenths_of[f][1]);
                stow_test_print(" of the bound, ");
                stow_test_print_u(bound);
                stow_test_print(" bytes)\n");
            }
            CHECK(stow_heap_check(heap_a));
        }
    }
    CHECK(bitten);
}

void stow_test_suite_heap(void)
{
    RUN(heap_defined_is_ready_without_init);
    RUN(heap_defined_static_is_ready_without_init);
    RUN(heap_block_sizes_are_as_documented);
    RUN(heap_bytes_for_counts_the_heaps_own_words);
    RUN(heap_init_over_bytes_for_holds_the_bound);
    RUN(heap_init_refuses_bad_buffers_and_changes_nothing);
    RUN(heap_empty_heap_is_allocatable_in_one_request);
    RUN(heap_size_zero_is_a_minimum_block);
    RUN(heap_alloc_gives_aligned_power_of_two_blocks);
    RUN(heap_refuses_sizes_that_overflow_and_counts_a_fail);
    RUN(heap_free_merges_neighbours);
    RUN(heap_stats_count_used_peak_and_fails);
    RUN(heap_realloc_follows_c_and_stays_in_place_when_it_can);
    RUN(heap_realloc_shrinks_in_place_in_a_full_heap);
    RUN(heap_calloc_zeroes_and_checks_the_product);
    RUN(heap_aligned_alloc_takes_every_power_of_two);
    RUN(heap_largest_free_is_exact_after_mixed_operations);
    RUN(heap_largest_free_is_the_first_block_of_the_highest_class);
    RUN(heap_isr_variants_match_the_plain_calls_and_nest);
    RUN(heap_lock_groups_plain_calls_and_nests);
#if !defined(STOW_TEST_TARGET)
    RUN(heap_isr_variants_exclude_each_other_across_threads);
#endif
    RUN(heap_check_finds_broken_invariants);
#if STOW_CHECK_LEVEL >= 1
    RUN(heap_violations_leave_the_heap_unchanged);
    RUN(heap_violations_name_the_call_and_the_misuse);
    RUN(heap_accepts_exactly_the_live_payloads);
#endif
#if STOW_CHECK_LEVEL >= 2
    RUN(heap_level2_poisons_and_reports_writes_after_free);
    RUN(heap_level2_canary_reports_a_write_past_the_end);
#endif
    RUN(heap_random_operations_match_a_model);
    RUN(heap_bound_holds_against_adversaries);
    RUN(heap_bound_adversary_bites_an_undersized_heap);
}
