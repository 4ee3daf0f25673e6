/* SPDX-License-Identifier: MIT */
/* ops_heap.c - instructions per heap call, mean and max, each call timed on its
 * own (bench.h, "one call at a time"); on the host also the fragmentation of the
 * same workload against glibc's malloc.
 *
 * The workload: sizes drawn uniformly from 8 to 512 bytes by a fixed xorshift32
 * sequence; LIVE blocks live at once (100, or fewer where the storage is small:
 * as many as one per 800 bytes of it, 14 on the micro:bit); each step frees a
 * live block picked at random and allocates one of a new size in its place. A
 * heap made by init over stow_bench_ram (BENCH_RAM_BYTES). Phases, one after
 * another on the same heap:
 *   1. alloc and free: LIVE allocations (untimed), then STEPS steps of the
 *      workload, every free and every alloc timed;
 *   2. realloc: STEPS reallocs of a random live block to a random size, 8-512;
 *      those that stay in place (shrink, or grow into the next block: O(1)) and
 *      those that move (O(size): they copy) go to two rows;
 *   3. alloc_aligned: STEPS steps that free a random block (untimed) and
 *      allocate 8-512 bytes at alignment 16, 32, 64, 128 or 256 in its place.
 * Any refusal stops the benchmark: the workload never runs the heap out.
 * Before the workload, rows take the longest paths of alloc and free on
 * purpose (a random workload seldom does), WORST calls each on a fresh heap:
 *   alloc of a block  its own class holds one block, too small; no class above
 *          it in its word of class bits has one: the search goes on to the
 *          next word, to a block alone in its class (emptied now), whose
 *          rest goes to a class that was empty (two class bits change);
 *   free of a block   between two free neighbours, each alone in its class:
 *          both unlinked (both classes emptied), merged, linked into a class
 *          that was empty;
 *   16 bytes          alloc and free of a slot, in a page another slot keeps;
 *   alloc of a slot   its class has no page: a page taken from the top;
 *   free of a slot    its page empties: the page goes back to the top.
 * The workload's max says what a random mix met; these, what it can cost.
 *
 * Fragmentation (host): the workload of phase 1 again, on a fresh heap and on
 * glibc's malloc, the same sizes in the same order. For each allocator:
 *   peak live     the most requested bytes live at once;
 *   footprint     the most, over the run, of the storage in use: for stow, its
 *                 blocks up to the free block at the end of them (the top)
 *                 and its pages of slots; for glibc, the highest byte in use
 *                 less the lowest block start the run saw (a byte in use is
 *                 one of the requested bytes of a live block; a block starts
 *                 two words before its payload).
 * footprint / peak live is how much address space the allocator needed per
 * byte asked for: 1 would be a perfect packing. glibc's figure leaves out what
 * it had obtained from the system above that (its top pad), which is more.
 */
#include "bench.h"

#ifndef STOW_BENCH_TARGET
#include <stdlib.h>
#endif

#define SIZE_MIN 8u
#define SIZE_MAX_REQ 512u
#define STEPS 2000u
#define HEAP_BYTES BENCH_RAM_BYTES
#define LIVE_MAX 100u
/* A block's request of about 100 bytes, above the largest slot on every target
 * (100 on Cortex-M, whose slots go up to 72 bytes; 172 where they go up to 144). */
#define BLOCK_100 (STOW_HEAP_SMALL_MAX + 28u)
#define LIVE (HEAP_BYTES / 800u < LIVE_MAX ? (uint32_t)(HEAP_BYTES / 800u) : LIVE_MAX)
#define EMPTY_RUNS 16u
#define WORST 50u

static stow_heap_t heap;
#define live stow_bench_ptrs

/* ---- the workload's numbers ----------------------------------------------------- */

static uint32_t rng_state;

static void rng_seed(void) { rng_state = 0x2545F491u; }

static uint32_t rng(void)
{
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    rng_state = x;
    return x;
}

static size_t rng_size(void) { return SIZE_MIN + rng() % (SIZE_MAX_REQ - SIZE_MIN + 1u); }

/* ---- timed calls -------------------------------------------------------------------- */

#ifdef STOW_BENCH_TARGET
static BENCH_BARE void *bare_alloc(stow_heap_t *h BENCH_UNUSED, size_t size BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void bare_free(stow_heap_t *h BENCH_UNUSED, void *p BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void *bare_realloc(stow_heap_t *h BENCH_UNUSED, void *p BENCH_UNUSED,
                                     size_t size BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void *bare_alloc_aligned(stow_heap_t *h BENCH_UNUSED, size_t size BENCH_UNUSED,
                                           size_t align BENCH_UNUSED) BENCH_BARE_BODY
#endif

/* Each operation and its empty twin from one template, so that both compile
 * alike around the call. */
#define EACH_ALLOC(name, fn, key)                                                   \
    static BENCH_NOIPA void *name(stow_heap_t *h, size_t size)                      \
    {                                                                               \
        BENCH_EACH_BEGIN();                                                         \
        void *r = fn(h, size);                                                      \
        BENCH_EACH_END(key);                                                        \
        return r;                                                                   \
    }
#define EACH_FREE(name, fn, key)                                                    \
    static BENCH_NOIPA void name(stow_heap_t *h, void *p)                           \
    {                                                                               \
        BENCH_EACH_BEGIN();                                                         \
        fn(h, p);                                                                   \
        BENCH_EACH_END(key);                                                        \
    }
#define EACH_REALLOC(name, fn)                                                      \
    static BENCH_NOIPA void *name(stow_heap_t *h, void *p, size_t size)             \
    {                                                                               \
        BENCH_EACH_BEGIN();                                                         \
        void *r = fn(h, p, size);                                                   \
        BENCH_EACH_END(r == p ? "realloc-in-place" : "realloc-moves");              \
        return r;                                                                   \
    }
#define EACH_ALIGNED(name, fn, key)                                                 \
    static BENCH_NOIPA void *name(stow_heap_t *h, size_t size, size_t align)        \
    {                                                                               \
        BENCH_EACH_BEGIN();                                                         \
        void *r = fn(h, size, align);                                               \
        BENCH_EACH_END(key);                                                        \
        return r;                                                                   \
    }

EACH_ALLOC(each_alloc, stow_heap_alloc, "alloc")
EACH_FREE(each_free, stow_heap_free, "free")
EACH_ALLOC(each_alloc_worst, stow_heap_alloc, "alloc-worst") /* the same, another key for callgrind */
EACH_FREE(each_free_worst, stow_heap_free, "free-worst")
EACH_ALLOC(each_alloc_slot_page, stow_heap_alloc, "alloc-page")
EACH_ALLOC(each_alloc_16, stow_heap_alloc, "alloc-16")
EACH_FREE(each_free_16, stow_heap_free, "free-16")
EACH_FREE(each_free_slot_page, stow_heap_free, "free-page")
EACH_REALLOC(each_realloc, stow_heap_realloc)
EACH_ALIGNED(each_alloc_aligned, stow_heap_alloc_aligned, "aligned")
#ifdef STOW_BENCH_TARGET
EACH_ALLOC(each_bare_alloc, bare_alloc, "bare")
EACH_FREE(each_bare_free, bare_free, "bare")
EACH_REALLOC(each_bare_realloc, bare_realloc)
EACH_ALIGNED(each_bare_alloc_aligned, bare_alloc_aligned, "bare")

/* Instructions of the empty window of one signature: the same every time, or
 * the benchmark stops. */
static uint32_t empty_of(uint32_t (*window)(void))
{
    uint32_t first = window();
    for (uint32_t k = 1; k < EMPTY_RUNS; k++) {
        if (window() != first) {
            stow_bench_fail("heap", "the empty call's window is not constant");
        }
    }
    return first;
}
static uint32_t window_alloc(void)
{
    stow_bench_sink = each_bare_alloc(&heap, 8u);
    return stow_bench_insns(stow_bench_each_ticks);
}
static uint32_t window_free(void)
{
    each_bare_free(&heap, NULL);
    return stow_bench_insns(stow_bench_each_ticks);
}
static uint32_t window_realloc(void)
{
    stow_bench_sink = each_bare_realloc(&heap, NULL, 8u);
    return stow_bench_insns(stow_bench_each_ticks);
}
static uint32_t window_aligned(void)
{
    stow_bench_sink = each_bare_alloc_aligned(&heap, 8u, 64u);
    return stow_bench_insns(stow_bench_each_ticks);
}
#endif

/* ---- the benchmark ------------------------------------------------------------------------ */

static void *must(void *p, const char *what)
{
    if (p == NULL) {
        stow_bench_fail("heap", what);
    }
    return p;
}

#ifndef STOW_BENCH_TARGET
static void fragmentation(void);
#endif

void stow_bench_heap(void)
{
    stow_bench_each_t st_alloc = {"alloc", 0u, 0u, 0u};
    stow_bench_each_t st_free = {"free", 0u, 0u, 0u};
    stow_bench_each_t st_in_place = {"realloc-in-place", 0u, 0u, 0u};
    stow_bench_each_t st_moves = {"realloc-moves", 0u, 0u, 0u};
    stow_bench_each_t st_aligned = {"aligned", 0u, 0u, 0u};
    uint32_t e_alloc = 0u, e_free = 0u, e_realloc = 0u, e_aligned = 0u;
#ifdef STOW_BENCH_TARGET
    e_alloc = empty_of(window_alloc);
    e_free = empty_of(window_free);
    e_realloc = empty_of(window_realloc);
    e_aligned = empty_of(window_aligned);
#endif
    stow_bench_each_t st_alloc_worst = {"alloc-worst", 0u, 0u, 0u};
    stow_bench_each_t st_free_worst = {"free-worst", 0u, 0u, 0u};
    stow_bench_each_t st_slot_page = {"alloc-page", 0u, 0u, 0u};
    stow_bench_each_t st_slot_page_free = {"free-page", 0u, 0u, 0u};
    stow_bench_each_t st_alloc_16 = {"alloc-16", 0u, 0u, 0u};
    stow_bench_each_t st_free_16 = {"free-16", 0u, 0u, 0u};
    if (!stow_heap_init(&heap, stow_bench_ram, HEAP_BYTES)) {
        stow_bench_fail("heap", "init");
    }
    /* 0. the longest paths */
    size_t lf0 = stow_heap_largest_free(&heap);
    /* A block of 1 KiB (in the second word of class bits on 32-bit targets:
     * from 512 bytes on Cortex-M, 896 on RV32) alone in its class, then a
     * block of 192 bytes alone in the class of the 200-byte block that 196
     * bytes take (192-223), too small; guards between them and the top. */
    void *f = must(stow_heap_alloc(&heap, 1024u - STOW_HEAP_OVERHEAD), "alloc refused (worst path)");
    void *guard = must(stow_heap_alloc(&heap, BLOCK_100), "alloc refused (worst path)");
    void *small = must(stow_heap_alloc(&heap, 192u - STOW_HEAP_OVERHEAD), "alloc refused (worst path)");
    void *guard2 = must(stow_heap_alloc(&heap, BLOCK_100), "alloc refused (worst path)");
    stow_heap_free(&heap, f);
    stow_heap_free(&heap, small);
    for (uint32_t k = 0; k < WORST; k++) {
        void *p = must(each_alloc_worst(&heap, 196u), "alloc refused (worst path)");
        stow_bench_each_add(&st_alloc_worst, stow_bench_each_ticks, e_alloc);
        if (p != f) {
            stow_bench_fail("heap", "the worst alloc path did not take the lone block");
        }
        stow_heap_free(&heap, p);
    }
    stow_heap_free(&heap, guard);
    stow_heap_free(&heap, guard2);
    for (uint32_t k = 0; k < WORST; k++) {
        void *a = must(stow_heap_alloc(&heap, BLOCK_100), "alloc refused (worst path)");
        void *b = must(stow_heap_alloc(&heap, 200u), "alloc refused (worst path)");
        void *c = must(stow_heap_alloc(&heap, 400u), "alloc refused (worst path)");
        void *d = must(stow_heap_alloc(&heap, BLOCK_100), "alloc refused (worst path)");
        stow_heap_free(&heap, a);
        stow_heap_free(&heap, c);
        each_free_worst(&heap, b);
        stow_bench_each_add(&st_free_worst, stow_bench_each_ticks, e_free);
        stow_heap_free(&heap, d);
        if (stow_heap_largest_free(&heap) != lf0) {
            stow_bench_fail("heap", "the worst free path did not merge");
        }
    }
    for (uint32_t k = 0; k < WORST; k++) {
        void *p = must(each_alloc_slot_page(&heap, 16u), "alloc refused (new page)");
        stow_bench_each_add(&st_slot_page, stow_bench_each_ticks, e_alloc);
        each_free_slot_page(&heap, p);
        stow_bench_each_add(&st_slot_page_free, stow_bench_each_ticks, e_free);
        if (stow_heap_largest_free(&heap) != lf0) {
            stow_bench_fail("heap", "the page did not go back");
        }
    }
    /* a 16-byte request and its free, a slot in a page that stays (another
     * slot of it live), the pair FreeRTOS's heap_4 takes 51 / 41 for */
    void *keep = must(stow_heap_alloc(&heap, 16u), "alloc refused (16 bytes)");
    for (uint32_t k = 0; k < WORST; k++) {
        void *p = must(each_alloc_16(&heap, 16u), "alloc refused (16 bytes)");
        stow_bench_each_add(&st_alloc_16, stow_bench_each_ticks, e_alloc);
        each_free_16(&heap, p);
        stow_bench_each_add(&st_free_16, stow_bench_each_ticks, e_free);
    }
    stow_heap_free(&heap, keep);
    /* a fresh heap again: peak and the rest from zero */
    if (!stow_heap_init(&heap, stow_bench_ram, HEAP_BYTES)) {
        stow_bench_fail("heap", "init");
    }
    rng_seed();
    for (uint32_t i = 0; i < LIVE; i++) {
        live[i] = must(stow_heap_alloc(&heap, rng_size()), "alloc refused while filling");
    }
    /* 1. alloc and free */
    for (uint32_t s = 0; s < STEPS; s++) {
        uint32_t i = rng() % LIVE;
        each_free(&heap, live[i]);
        stow_bench_each_add(&st_free, stow_bench_each_ticks, e_free);
        live[i] = must(each_alloc(&heap, rng_size()), "alloc refused");
        stow_bench_each_add(&st_alloc, stow_bench_each_ticks, e_alloc);
    }
    /* 2. realloc */
    for (uint32_t s = 0; s < STEPS; s++) {
        uint32_t i = rng() % LIVE;
        void *q = must(each_realloc(&heap, live[i], rng_size()), "realloc refused");
        stow_bench_each_add(q == live[i] ? &st_in_place : &st_moves, stow_bench_each_ticks, e_realloc);
        live[i] = q;
    }
    /* 3. alloc_aligned */
    for (uint32_t s = 0; s < STEPS; s++) {
        uint32_t i = rng() % LIVE;
        stow_heap_free(&heap, live[i]);
        size_t size = rng_size();
        size_t align = (size_t)16u << (rng() % 5u);
        live[i] = must(each_alloc_aligned(&heap, size, align), "alloc_aligned refused");
        if (((uintptr_t)live[i] & (align - 1u)) != 0u) {
            stow_bench_fail("heap", "alloc_aligned: misaligned");
        }
        stow_bench_each_add(&st_aligned, stow_bench_each_ticks, e_aligned);
    }
    stow_stats_t stats;
    stow_heap_stats(&heap, &stats);
    if (!stow_heap_check(&heap) || stats.fails != 0u) {
        stow_bench_fail("heap", "check");
    }
    stow_bench_each_rows("heap alloc of a block, longest path (a lone block found in the next word of class bits "
                         "split, the rest to an empty class)",
                         &st_alloc_worst);
    stow_bench_each_rows("heap free of a block, longest path (merges two neighbours, each alone in its class)",
                         &st_free_worst);
    stow_bench_each_rows("heap alloc of 16 bytes (a slot)", &st_alloc_16);
    stow_bench_each_rows("heap free of 16 bytes (a slot)", &st_free_16);
    stow_bench_each_rows("heap alloc of a slot from a new page (taken from the top)", &st_slot_page);
    stow_bench_each_rows("heap free of a slot that empties its page (it goes back)", &st_slot_page_free);
    stow_bench_each_rows("heap alloc (8-512 B, random frees)", &st_alloc);
    stow_bench_each_rows("heap free (same workload)", &st_free);
    stow_bench_each_rows("heap realloc in place (to 8-512 B)", &st_in_place);
    stow_bench_each_rows("heap realloc that moves (copies, to 8-512 B)", &st_moves);
    stow_bench_each_rows("heap alloc_aligned (8-512 B, align 16-256)", &st_aligned);
    stow_bench_print("@note|" STOW_BENCH_COLUMN "|the heap rows keep ");
    stow_bench_print_u32(LIVE);
    stow_bench_print(" blocks live in ");
    stow_bench_print_u32((uint32_t)HEAP_BYTES);
    stow_bench_print(" bytes of storage\n");
#ifndef STOW_BENCH_TARGET
    fragmentation();
#endif
}

/* ---- fragmentation (host) ----------------------------------------------------------------- */

#ifndef STOW_BENCH_TARGET
struct frag {
    size_t live, peak_live;
    uintptr_t low, peak_high;
    size_t size[LIVE_MAX];
};

static void frag_took(struct frag *f, uint32_t i, void *p, size_t size, const stow_heap_t *h)
{
    if (p == NULL) {
        stow_bench_fail("heap", "fragmentation workload refused");
    }
    live[i] = p;
    f->size[i] = size;
    f->live += size;
    f->peak_live = f->live > f->peak_live ? f->live : f->peak_live;
    if (h != NULL) {
        /* stow: the blocks up to the top, and the pages of slots */
        const unsigned char *end = h->top != NULL ? h->top : h->region.limit;
        uintptr_t used = (uintptr_t)(end - h->region.first) + (uintptr_t)(h->region.top - h->zone_lo);
        f->low = 0u;
        f->peak_high = used > f->peak_high ? used : f->peak_high;
        return;
    }
    uintptr_t start = (uintptr_t)p - 2u * sizeof(size_t);
    f->low = start < f->low ? start : f->low;
    uintptr_t high = 0u;
    for (uint32_t k = 0; k < LIVE; k++) {
        uintptr_t end = (uintptr_t)live[k] + f->size[k];
        high = end > high ? end : high;
    }
    f->peak_high = high > f->peak_high ? high : f->peak_high;
}

static void frag_print(const char *who, const struct frag *f)
{
    stow_bench_print("%|");
    stow_bench_print(who);
    stow_bench_print("|");
    stow_bench_print_u32((uint32_t)f->peak_live);
    stow_bench_print("|");
    stow_bench_print_u32((uint32_t)(f->peak_high - f->low));
    stow_bench_print("\n");
}

/* Phase 1's workload through alloc and free (stow when h is not NULL). */
static void frag_run(struct frag *f, stow_heap_t *h)
{
    f->live = f->peak_live = 0u;
    f->low = UINTPTR_MAX;
    f->peak_high = 0u;
    for (uint32_t k = 0; k < LIVE; k++) {
        live[k] = NULL;
        f->size[k] = 0u;
    }
    rng_seed();
    for (uint32_t i = 0; i < LIVE; i++) {
        size_t size = rng_size();
        frag_took(f, i, h != NULL ? stow_heap_alloc(h, size) : malloc(size), size, h);
    }
    for (uint32_t s = 0; s < STEPS; s++) {
        uint32_t i = rng() % LIVE;
        if (h != NULL) {
            stow_heap_free(h, live[i]);
        } else {
            free(live[i]);
        }
        f->live -= f->size[i];
        f->size[i] = 0u;
        size_t size = rng_size();
        frag_took(f, i, h != NULL ? stow_heap_alloc(h, size) : malloc(size), size, h);
    }
    for (uint32_t k = 0; k < LIVE; k++) {
        if (h != NULL) {
            stow_heap_free(h, live[k]);
        } else {
            free(live[k]);
        }
        live[k] = NULL;
    }
}

static void fragmentation(void)
{
    static struct frag f;
    if (!stow_heap_init(&heap, stow_bench_ram, HEAP_BYTES)) {
        stow_bench_fail("heap", "init");
    }
    frag_run(&f, &heap);
    frag_print("stow heap (" STOW_BENCH_COLUMN ")", &f);
    frag_run(&f, NULL);
    frag_print("glibc malloc", &f);
}
#endif
