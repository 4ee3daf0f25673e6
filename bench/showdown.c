/* SPDX-License-Identifier: MIT */
/* showdown.c - a published "performance showdown" of pool designs (a naive pool, a
 * free-list pool, a packed array and a slot map), reproduced with stow's containers.
 *
 * Four workload sets, as the article defines them (allocations N, frees F, update
 * passes I; then 500 frees and 500 allocations per frame for 1,000 frames), each
 * run through the article's three phases with its particle:
 *   alloc/free  N allocations, then F frees in a seeded shuffled order;
 *   churn       per frame, 500 live particles picked at random are freed, then
 *               500 allocated (all in one timed stretch per frame);
 *   iteration   every live particle updated, I times over.
 * Timed: the allocator calls (with the is_active bookkeeping that the article's own
 * PoolAlloc/PoolFree do) and the update loop. Not timed: picking victims, giving
 * new particles their position and velocity, keeping the driver's list of live
 * particles. Each timed stretch has the clock's own cost taken off (calibrated at
 * start-up: the median of many empty stretches), since churn has 1,000 stretches
 * of a few microseconds.
 *
 * Designs, each with the calls a user of it would write:
 *   naive      the article's naive pool, a bench-only baseline: allocation scans
 *              from the first slot for an inactive one (front-filling), up to the
 *              highest slot ever used, then bumps; iteration checks is_active in
 *              every slot up to there.
 *   stow_pool  the article's free-list pool: stow_pool_alloc/free; iteration checks
 *              is_active in every block of the pool (see pool_iterate for the
 *              blocks never handed out).
 *   packed     stow_packed_push / stow_packed_remove_at (swap-and-pop); a plain
 *              loop over stow_packed_data.
 *   slotmap    stow_slotmap_alloc / stow_slotmap_remove by handle; a plain loop
 *              over stow_slotmap_data.
 *   genpool    stow_genpool_alloc / stow_genpool_remove by handle; iteration with
 *              STOW_GENPOOL_FOREACH, the fastest walk its header shows (a bitmap
 *              walk in line).
 *   malloc     malloc/free of one particle each, the live pointers in an array that
 *              iteration walks (kept up to date outside the timed stretches).
 * The library is linked as separate objects (no LTO), as a user links it: every
 * stow call is a real call, like every malloc call.
 *
 * Each design runs every set RUNS times, the designs taking turns so that noise
 * from other processes spreads over all of them; the table gives the median of
 * each phase (churn: see below) beside the article's published figure (an M4 Pro
 * laptop), and each
 * design's ratio to stow_pool in this run (the article's ratios to its free list
 * beside them). Churn is 1,000 stretches of a few microseconds each, and one
 * preemption (milliseconds) in any of them outweighs the whole phase, so that the
 * median of the runs' sums swung from 0.65x to 5x between runs on a loaded
 * machine. Every run replays the same frames (same seed, same state), so churn is
 * the sum over the frames of each frame's least time over the RUNS runs: a
 * stretch something else interrupted is dropped, not averaged in. The median of
 * the sums is printed under the targets for comparison. `showdown FILE` also writes the medians to FILE, one block per
 * set, for gnuplot (bench/showdown.gp).
 *
 * Host only. Build and run: make bench (the Makefile builds it with
 * -DSTOW_HANDLE_INDEX_BITS=20, since Set 3's 100,000 particles need 17 index bits).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stow/stow.h"

#ifndef RUNS
#define RUNS 7 /* the Makefile's SHOWDOWN_RUNS */
#endif
#if RUNS < 1
#error "RUNS must be at least 1"
#endif
#define MAX_ITEMS 100000u
#define CHURN 500u
#define FRAMES 1000u

#if STOW_HANDLE_MAX_CAPACITY < 100000u
#error "showdown.c needs STOW_HANDLE_INDEX_BITS >= 17 (Set 3 has 100,000 particles)"
#endif

/* The article's particle: its fields, with is_active moved from first to last. A
 * free stow_pool block keeps its free-list link in its first sizeof(void *) bytes
 * (pool.h: the pool has no per-block overhead, so the link has nowhere else to
 * go), where the article's union puts position and velocity and keeps is_active
 * outside. Last, the flag survives the link, so the pool's iteration can read it
 * in free blocks as the article's does. Same size either way (24 bytes), and the
 * other designs never look at the flag's position. Check level 2 would overwrite
 * the flag with poison (0xDD, not a valid bool): build at level 0 or 1. */
typedef struct {
    float position[2];
    float velocity[2];
    float lifetime_remaining;
    bool is_active;
} particle_t;

#if STOW_CHECK_LEVEL >= 2
#error "showdown.c reads is_active in free pool blocks, which level 2 poisons"
#endif

/* Untimed: what a spawner writes into a particle it got from the allocator. */
static void spawn(particle_t *p, uint32_t seed)
{
    p->position[0] = (float)(seed & 1023u);
    p->position[1] = (float)((seed >> 10) & 1023u);
    p->velocity[0] = 0.5f;
    p->velocity[1] = -0.25f;
    p->lifetime_remaining = 1e9f; /* nobody dies of old age during the benchmark */
    p->is_active = true;
}

static inline void update(particle_t *p)
{
    const float dt = 1.0f / 60.0f;
    p->position[0] += p->velocity[0] * dt;
    p->position[1] += p->velocity[1] * dt;
    p->lifetime_remaining -= dt;
}

/* ---------------------------------------------------------------- clock, random */

static double clock_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static double clock_cost_ms; /* of one empty timed stretch */

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void calibrate_clock(void)
{
    enum { N = 1001 };
    static double t[N];
    for (int i = 0; i < N; i++) {
        double t0 = clock_ms();
        t[i] = clock_ms() - t0;
    }
    qsort(t, N, sizeof t[0], by_value);
    clock_cost_ms = t[N / 2];
}

#define TIMED(acc, stmt)                                \
    do {                                                \
        double t0_ = clock_ms();                        \
        stmt;                                           \
        (acc) += clock_ms() - t0_ - clock_cost_ms;      \
    } while (0)

static uint32_t rng;
static uint32_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}
static uint32_t rand_below(uint32_t n) { return (uint32_t)(((uint64_t)next_rand() * n) >> 32); }

/* ---------------------------------------------------------------- designs
 * The driver keeps live[0, nlive): a reference to every live particle (pointer,
 * handle), so that it can pick victims without timing it. Each design gives
 *   NAME_setup(capacity), NAME_alloc(ref *) -> particle or NULL,
 *   NAME_free(ref) (or, for packed, NAME_remove_at(position)), NAME_iterate().
 * All are static inline, so a timed loop calls the allocator directly. */

typedef struct {
    particle_t *ptr;
    stow_handle_t handle; /* slotmap and genpool free by handle */
} ref_t;

static void fail(const char *design, const char *what)
{
    fprintf(stderr, "showdown: %s: %s\n", design, what);
    exit(1);
}

/* The article's naive pool. */
static particle_t naive_slots[MAX_ITEMS];
static uint32_t naive_high; /* slots ever used */
static inline void naive_setup(uint32_t capacity)
{
    (void)capacity;
    naive_high = 0;
}
static inline particle_t *naive_alloc(ref_t *r)
{
    for (uint32_t i = 0; i < naive_high; i++) {
        if (!naive_slots[i].is_active) {
            naive_slots[i].is_active = true;
            return r->ptr = &naive_slots[i];
        }
    }
    if (naive_high == MAX_ITEMS) {
        return r->ptr = NULL;
    }
    naive_slots[naive_high].is_active = true;
    return r->ptr = &naive_slots[naive_high++];
}
static inline void naive_free(ref_t r) { r.ptr->is_active = false; }
static inline void naive_iterate(void)
{
    for (uint32_t i = 0; i < naive_high; i++) {
        if (naive_slots[i].is_active) {
            update(&naive_slots[i]);
        }
    }
}

/* stow_pool, over a buffer of our own so that iteration can walk the blocks.
 * Blocks never handed out hold whatever the buffer held (stow never writes a
 * block before handing it out). The iteration has to read is_active in every
 * block, so the buffer is zeroed once before init, untimed: a user who walks a
 * pool this way must do the same (or walk only blocks that were handed out, which
 * stow_pool's interface does not expose). Set by set the pool has exactly N
 * blocks, and phase 1 hands out every one of them. */
static particle_t pool_blocks[MAX_ITEMS];
static stow_pool_t pool;
static uint32_t pool_capacity;
static inline void pool_setup(uint32_t capacity)
{
    memset(pool_blocks, 0, sizeof pool_blocks);
    pool_capacity = capacity;
    if (!stow_pool_init(&pool, pool_blocks, sizeof pool_blocks, sizeof(particle_t),
                        _Alignof(particle_t), capacity)) {
        fail("stow_pool", "init");
    }
}
static inline particle_t *pool_alloc(ref_t *r)
{
    particle_t *p = (particle_t *)stow_pool_alloc(&pool);
    if (p != NULL) {
        p->is_active = true;
    }
    return r->ptr = p;
}
static inline void pool_free(ref_t r)
{
    r.ptr->is_active = false;
    stow_pool_free(&pool, r.ptr);
}
static inline void pool_iterate(void)
{
    for (uint32_t i = 0; i < pool_capacity; i++) {
        if (pool_blocks[i].is_active) {
            update(&pool_blocks[i]);
        }
    }
}

static unsigned char packed_buf[STOW_PACKED_BYTES(sizeof(particle_t), _Alignof(particle_t),
                                                  MAX_ITEMS)] __attribute__((aligned(16)));
static stow_packed_t packed;
static inline void packed_setup(uint32_t capacity)
{
    if (!stow_packed_init(&packed, packed_buf, sizeof packed_buf, sizeof(particle_t),
                          _Alignof(particle_t), capacity)) {
        fail("stow_packed", "init");
    }
}
static inline particle_t *packed_alloc(ref_t *r)
{
    return r->ptr = (particle_t *)stow_packed_push(&packed);
}
static inline void packed_remove_at(uint32_t position) { stow_packed_remove_at(&packed, position); }
static inline void packed_iterate(void)
{
    particle_t *p = (particle_t *)stow_packed_data(&packed);
    uint32_t n = stow_packed_count(&packed);
    for (uint32_t i = 0; i < n; i++) {
        update(&p[i]);
    }
}

static unsigned char slotmap_buf[STOW_SLOTMAP_BYTES(sizeof(particle_t), _Alignof(particle_t),
                                                    MAX_ITEMS)] __attribute__((aligned(16)));
static stow_slotmap_t slotmap;
static inline void slotmap_setup(uint32_t capacity)
{
    if (!stow_slotmap_init(&slotmap, slotmap_buf, sizeof slotmap_buf, sizeof(particle_t),
                           _Alignof(particle_t), capacity)) {
        fail("stow_slotmap", "init");
    }
}
static inline particle_t *slotmap_alloc(ref_t *r)
{
    return r->ptr = (particle_t *)stow_slotmap_alloc(&slotmap, &r->handle);
}
static inline void slotmap_free(ref_t r) { (void)stow_slotmap_remove(&slotmap, r.handle); }
static inline void slotmap_iterate(void)
{
    particle_t *p = (particle_t *)stow_slotmap_data(&slotmap);
    uint32_t n = stow_slotmap_count(&slotmap);
    for (uint32_t i = 0; i < n; i++) {
        update(&p[i]);
    }
}

static unsigned char genpool_buf[STOW_GENPOOL_BYTES(sizeof(particle_t), _Alignof(particle_t),
                                                    MAX_ITEMS)] __attribute__((aligned(16)));
static stow_genpool_t genpool;
/* init, not clear: after clear() the slots count as used before, and the first
 * pass over them takes genpool's slower path; every run starts from scratch. */
static inline void genpool_setup(uint32_t capacity)
{
    if (!stow_genpool_init(&genpool, genpool_buf, sizeof genpool_buf, sizeof(particle_t),
                           _Alignof(particle_t), capacity)) {
        fail("stow_genpool", "init");
    }
}
static inline particle_t *genpool_alloc(ref_t *r)
{
    return r->ptr = (particle_t *)stow_genpool_alloc(&genpool, &r->handle);
}
static inline void genpool_free(ref_t r) { (void)stow_genpool_remove(&genpool, r.handle); }
static inline void genpool_iterate(void)
{
    STOW_GENPOOL_FOREACH(&genpool, particle_t, p) {
        update(p);
    }
}

static particle_t *heap_live[MAX_ITEMS];
static uint32_t heap_count;
static inline void heap_setup(uint32_t capacity)
{
    (void)capacity;
    heap_count = 0;
}
static inline particle_t *heap_alloc(ref_t *r)
{
    return r->ptr = (particle_t *)malloc(sizeof(particle_t));
}
static inline void heap_free(ref_t r) { free(r.ptr); }
static inline void heap_iterate(void)
{
    for (uint32_t i = 0; i < heap_count; i++) {
        update(heap_live[i]);
    }
}

/* ---------------------------------------------------------------- driver */

typedef struct {
    const char *title;
    uint32_t allocs, frees, iterations;
    double article_ms[4][3]; /* naive, free list, packed, slot map x alloc/free, churn, iteration */
} set_t;

static const set_t sets[4] = {
    {"Set 1: High Churn (95% Free) - 10,000 Allocs, 9,500 Frees, 1,000 Iterations, "
     "500 Churn/1,000 Frames",
     10000, 9500, 1000,
     {{12.99, 35.91, 2.79}, {0.17, 0.44, 5.48}, {0.27, 0.39, 0.31}, {0.15, 1.19, 0.31}}},
    {"Set 2: Low Churn (5% Free) - 10,000 Allocs, 500 Frees, 1,000 Iterations, "
     "500 Churn/1,000 Frames",
     10000, 500, 1000,
     {{12.94, 613.37, 6.51}, {0.13, 0.51, 7.63}, {0.15, 0.80, 6.92}, {0.15, 1.69, 7.00}}},
    {"Set 3: High Alloc/Free Cost - 100,000 Allocs, 99,500 Frees, 1,000 Iterations, "
     "500 Churn/1,000 Frames",
     100000, 99500, 1000,
     {{1244.46, 34.84, 25.13}, {1.41, 0.46, 32.69}, {2.73, 0.39, 0.31}, {1.62, 1.19, 0.31}}},
    {"Set 4: High Iteration Cost - 10,000 Allocs, 9,500 Frees, 100,000 Iterations, "
     "500 Churn/1,000 Frames",
     10000, 9500, 100000,
     {{12.78, 35.44, 273.18}, {0.15, 0.43, 542.18}, {0.26, 0.38, 30.79}, {0.15, 1.17, 30.62}}},
};

static ref_t live[MAX_ITEMS]; /* the driver's references to live particles */
static double frame_ms[FRAMES]; /* the last run's churn, frame by frame */
static uint32_t nlive;
static ref_t made[MAX_ITEMS];       /* allocated in the current batch */
static ref_t victims[MAX_ITEMS];    /* to free in the current batch, in order */
static uint32_t positions[MAX_ITEMS]; /* packed: position of the k-th removal */
static uint32_t order[MAX_ITEMS];

/* Chooses n distinct live particles in random order (a partial Fisher-Yates
 * shuffle), copies their references to victims[] and drops them from live[]. */
static void pick_victims(uint32_t n)
{
    for (uint32_t i = 0; i < nlive; i++) {
        order[i] = i;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = i + rand_below(nlive - i);
        uint32_t tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
        victims[i] = live[order[i]];
        live[order[i]].ptr = NULL;
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < nlive; i++) {
        if (live[i].ptr != NULL) {
            live[kept++] = live[i];
        }
    }
    nlive = kept;
}

/* Packed: a particle picked at random among the live ones is a random position
 * below the current count. The k-th removal of n comes after k others. The items
 * move, so the driver's live[] means nothing for packed; only nlive counts. */
static void pick_positions(uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        positions[k] = rand_below(nlive - k);
    }
    nlive -= n;
}

/* Untimed: gives the particles of a batch their data and records them as live. */
static void adopt(const char *design, uint32_t n, uint32_t seed)
{
    for (uint32_t i = 0; i < n; i++) {
        if (made[i].ptr == NULL) {
            fail(design, "allocation failed");
        }
        spawn(made[i].ptr, seed + i);
        live[nlive++] = made[i];
    }
}

static void heap_sync(void)
{
    for (uint32_t i = 0; i < nlive; i++) {
        heap_live[i] = live[i].ptr;
    }
    heap_count = nlive;
}
static void no_sync(void) {}

static void heap_release(void)
{
    for (uint32_t i = 0; i < nlive; i++) {
        free(live[i].ptr);
    }
}
static void no_release(void) {}

/* One run of set s through one design: out[] gets the three phases, in ms.
 * FREE_BATCH(n) frees the n victims picked for this batch (timed by the caller). */
#define RUNNER(NAME, LABEL, PICK, FREE_ONE, SYNC, RELEASE)                           \
    static void run_##NAME(const set_t *s, double out[3])                             \
    {                                                                                 \
        rng = 0x5EED0004u;                                                            \
        nlive = 0;                                                                    \
        NAME##_setup(s->allocs);                                                      \
        out[0] = out[1] = out[2] = 0.0;                                               \
        TIMED(out[0], for (uint32_t i = 0; i < s->allocs; i++) NAME##_alloc(&made[i])); \
        adopt(LABEL, s->allocs, 0u);                                                  \
        PICK(s->frees);                                                               \
        TIMED(out[0], for (uint32_t k = 0; k < s->frees; k++) FREE_ONE(k));           \
        SYNC();                                                                       \
        for (uint32_t f = 0; f < FRAMES; f++) {                                       \
            PICK(CHURN);                                                              \
            frame_ms[f] = 0.0;                                                        \
            TIMED(frame_ms[f], for (uint32_t k = 0; k < CHURN; k++) FREE_ONE(k);      \
                               for (uint32_t i = 0; i < CHURN; i++) NAME##_alloc(&made[i])); \
            out[1] += frame_ms[f];                                                    \
            adopt(LABEL, CHURN, s->allocs + f * CHURN);                               \
            SYNC();                                                                   \
        }                                                                             \
        TIMED(out[2], for (uint32_t i = 0; i < s->iterations; i++) NAME##_iterate()); \
        RELEASE();                                                                    \
    }

#define NAIVE_FREE(k) naive_free(victims[k])
#define POOL_FREE(k) pool_free(victims[k])
#define SLOTMAP_FREE(k) slotmap_free(victims[k])
#define GENPOOL_FREE(k) genpool_free(victims[k])
#define HEAP_FREE(k) heap_free(victims[k])
#define PACKED_FREE(k) packed_remove_at(positions[k])

RUNNER(naive, "naive pool", pick_victims, NAIVE_FREE, no_sync, no_release)
RUNNER(pool, "stow_pool", pick_victims, POOL_FREE, no_sync, no_release)
RUNNER(packed, "stow_packed", pick_positions, PACKED_FREE, no_sync, no_release)
RUNNER(slotmap, "stow_slotmap", pick_victims, SLOTMAP_FREE, no_sync, no_release)
RUNNER(genpool, "stow_genpool", pick_victims, GENPOOL_FREE, no_sync, no_release)
RUNNER(heap, "malloc/free", pick_victims, HEAP_FREE, heap_sync, heap_release)

typedef struct {
    const char *name;
    void (*run)(const set_t *s, double out[3]);
    int article_row; /* row of the article's table, or -1 */
} design_t;

enum { NAIVE, POOL, PACKED, SLOTMAP, GENPOOL, HEAP, DESIGNS };
static double churn_median[4][DESIGNS]; /* churn: the median of the runs' sums, for comparison */
static const design_t designs[DESIGNS] = {
    {"Naive Pool (the article's, bench-only)", run_naive, 0},
    {"stow_pool (free list)", run_pool, 1},
    {"stow_packed (packed array)", run_packed, 2},
    {"stow_slotmap (slot map)", run_slotmap, 3},
    {"stow_genpool (generational)", run_genpool, -1},
    {"malloc/free (glibc)", run_heap, -1},
};
static const char *const short_name[DESIGNS] = {"naive", "stow_pool", "stow_packed",
                                                "stow_slotmap", "stow_genpool", "malloc"};

/* The targets stow set itself against the article's ratios. */
static void print_targets(double median[4][DESIGNS][3])
{
    printf("\nTargets (ratios of medians in this run; the article's in brackets):\n\n"
           "| target | Set 1 | Set 2 | Set 3 | Set 4 | |\n|---|---:|---:|---:|---:|---|\n");
    bool met = true;
    printf("| slot map churn / stow_pool churn <= 2 |");
    for (int si = 0; si < 4; si++) {
        double r = median[si][SLOTMAP][1] / median[si][POOL][1];
        met = met && r <= 2.0;
        printf(" %.2f [%.2f] |", r, sets[si].article_ms[3][1] / sets[si].article_ms[1][1]);
    }
    printf(" %s |\n", met ? "met" : "**missed**");
    printf("| same, median of the runs' sums (interference included; not the target) |");
    for (int si = 0; si < 4; si++) {
        printf(" %.2f |", churn_median[si][SLOTMAP] / churn_median[si][POOL]);
    }
    printf(" |\n");
    met = true;
    printf("| stow_genpool iteration <= stow_pool iteration |");
    for (int si = 0; si < 4; si++) {
        double r = median[si][GENPOOL][2] / median[si][POOL][2];
        met = met && r <= 1.0;
        printf(" %.2f |", r);
    }
    printf(" %s |\n", met ? "met" : "**missed**");
    /* Set 2 is the dense one: 9,500 of its 10,000 particles stay live. */
    double dense = median[1][GENPOOL][2] / median[1][PACKED][2];
    printf("| stow_genpool iteration / stow_packed iteration <= 2 (dense set) | | %.2f | | | %s |\n",
           dense, dense <= 2.0 ? "met" : "**missed**");
    const double *s4 = sets[3].article_ms[1];
    for (int di = PACKED; di <= SLOTMAP; di++) {
        double r = median[3][POOL][2] / median[3][di][2];
        printf("| stow_pool iteration / %s iteration >= 15 | | | | %.1f [%.1f] | %s |\n",
               short_name[di], r, s4[2] / sets[3].article_ms[di == PACKED ? 2 : 3][2],
               r >= 15.0 ? "met" : "**missed**");
    }
}

static void print_cell(double ms, double ref_ms)
{
    printf(" %.3f (%.2fx) |", ms, ms / ref_ms);
}

int main(int argc, char **argv)
{
    FILE *data = NULL;
    if (argc > 1 && (data = fopen(argv[1], "w")) == NULL) {
        fail("showdown", "cannot write the data file");
    }
    if (data != NULL) {
        fprintf(data, "# one block per set (gnuplot: index 0..3), medians in ms\n"
                      "# design alloc_free churn iteration\n");
    }
    calibrate_clock();
    printf("## The showdown on this machine\n\n"
           "Milliseconds, median of %d runs (churn: each frame's least time over the runs, summed; "
           "check level %d, gcc -O2), and in brackets the "
           "ratio to stow_pool in the same run. Beside each, the article's figure (M4 Pro laptop) "
           "and its ratio to the article's free-list pool. Clock cost per timed stretch, taken "
           "off: %.0f ns.\n",
           RUNS, STOW_CHECK_LEVEL, clock_cost_ms * 1e6);
    static double median[4][DESIGNS][3];
    for (int si = 0; si < 4; si++) {
        const set_t *s = &sets[si];
        static double runs[DESIGNS][3][RUNS];
        static double least[DESIGNS][FRAMES]; /* each churn frame's least time over the runs */
        for (int r = 0; r < RUNS; r++) {
            for (int di = 0; di < DESIGNS; di++) {
                double t[3];
                designs[di].run(s, t);
                for (int k = 0; k < 3; k++) {
                    runs[di][k][r] = t[k];
                }
                for (uint32_t f = 0; f < FRAMES; f++) {
                    least[di][f] = r == 0 || frame_ms[f] < least[di][f] ? frame_ms[f] : least[di][f];
                }
            }
        }
        for (int di = 0; di < DESIGNS; di++) {
            for (int k = 0; k < 3; k++) {
                qsort(runs[di][k], RUNS, sizeof(double), by_value);
                median[si][di][k] = runs[di][k][RUNS / 2];
            }
            churn_median[si][di] = median[si][di][1];
            median[si][di][1] = 0.0;
            for (uint32_t f = 0; f < FRAMES; f++) {
                median[si][di][1] += least[di][f];
            }
        }
        printf("\n### %s\n\n", s->title);
        printf("| Design | Alloc/Free (ms) | article | Churn (ms) | article | Iteration (ms) | article |\n"
               "|---|---:|---:|---:|---:|---:|---:|\n");
        for (int di = 0; di < DESIGNS; di++) {
            printf("| %s |", designs[di].name);
            for (int k = 0; k < 3; k++) {
                print_cell(median[si][di][k], median[si][POOL][k]);
                int sr = designs[di].article_row;
                if (sr >= 0) {
                    printf(" %.2f (%.2fx) |", s->article_ms[sr][k], s->article_ms[sr][k] / s->article_ms[1][k]);
                } else {
                    printf(" - |");
                }
            }
            printf("\n");
        }
        fflush(stdout);
        if (data != NULL) {
            fprintf(data, "# Set %d\n", si + 1);
            for (int di = 0; di < DESIGNS; di++) {
                fprintf(data, "%s %.6f %.6f %.6f\n", short_name[di], median[si][di][0],
                        median[si][di][1], median[si][di][2]);
            }
            fprintf(data, "\n\n");
        }
    }
    if (data != NULL) {
        fclose(data);
    }
    print_targets(median);
    return 0;
}
