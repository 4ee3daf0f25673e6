/* SPDX-License-Identifier: MIT */
/* tests/threads/threads.c - containers shared between host threads, and the
 * per-thread scratch pattern (see the README's "Concurrency").
 *
 *   threads heap|genpool|slotmap|locks|workers|frames
 *
 * runs one scenario and exits 0 when every invariant held:
 *
 *   heap      THREADS threads allocate, grow, shrink and free blocks of one heap
 *             through the _isr calls; each block is filled with its owner's tag
 *             and checked before every realloc and free (a block handed out twice
 *             is overwritten by the other owner), then the live blocks the threads
 *             report must be what the heap counts, and check() must pass.
 *   genpool   the same with one genpool: insert_isr, get_isr of one's own items
 *             (only their owner removes them, so the pointer stays valid),
 *             remove_isr, and read_isr of the handles other threads publish, which
 *             must copy a whole item (its three words agree) or report it gone.
 *   slotmap   the same with one slot map; since a remove anywhere moves items, a
 *             thread reads its own items with read_isr or between lock() and
 *             unlock(), never through a pointer kept past the lock.
 *   locks     a thread holds one container's lock while this one works on a second
 *             container of each kind: those calls must finish while the lock is
 *             still held (two containers, two locks). Then the same container's
 *             _isr call must wait until the holder lets go.
 *   workers   an engine loop: worker threads each build their results in their own
 *             statically defined arena (reset at the start of each job) ...
 *   frames    ... into slices of this frame's arena, of two double-buffered frame
 *             arenas; every frame checks that last frame's results are intact.
 *             workers and frames run the same loop; they differ in what the broken
 *             build breaks.
 *
 * Built with -DTHREADS_BROKEN, each scenario must fail instead: the shared
 * containers are used through the plain calls, the port's lock is one word for
 * every container (the weak host stow_port_lock replaced below), the workers all
 * get the same arena, or both frames the same arena. tests/threads/rules.mk runs
 * the good build at -O2 and under ThreadSanitizer, and the broken build under
 * ThreadSanitizer, which reports the unlocked calls' races on every run (without
 * it, how often the broken build trips its own checks depends on how the threads
 * happen to interleave: always for heap and frames, now and then for the rest),
 * so that the test is shown able to fail on every run.
 */
#define _POSIX_C_SOURCE 200809L /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): POSIX feature test */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stow/stow.h"
#include "../xorshift.h"

#ifndef THREADS
#define THREADS 4
#endif
/* Operations per thread; the ThreadSanitizer builds pass fewer. */
#ifndef THREADS_OPS
#define THREADS_OPS 300000
#endif

static const char *scenario = "?";

static void fail(const char *what, unsigned a, unsigned b)
{
    printf("threads: FAIL %s: %s (%u, %u)\n", scenario, what, a, b);
    fflush(stdout);
    exit(1);
}

#define EXPECT(cond, a, b)                 \
    do {                                   \
        if (!(cond)) {                     \
            fail(#cond, (unsigned)(a), (unsigned)(b)); \
        }                                  \
    } while (0)

/* Sleeps rather than spins where a test waits on purpose, so that the
 * waiting costs `make test` wall time only, not the other jobs' cores. */
static void nap(long microseconds)
{
    struct timespec t = {0, microseconds * 1000L};
    nanosleep(&t, NULL);
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Starts THREADS threads on fn(0..THREADS-1) and waits for them. Each worker
 * calls start_gate() first, so that they all hammer at the same time. */
static pthread_barrier_t gate;

static void start_gate(void) { pthread_barrier_wait(&gate); }

static void run_threads(void *(*fn)(void *))
{
    pthread_t t[THREADS];
    static unsigned ids[THREADS];
    EXPECT(pthread_barrier_init(&gate, NULL, THREADS) == 0, 0, 0);
    for (unsigned i = 0u; i < THREADS; i++) {
        ids[i] = i;
        EXPECT(pthread_create(&t[i], NULL, fn, &ids[i]) == 0, i, 0);
    }
    for (unsigned i = 0u; i < THREADS; i++) {
        EXPECT(pthread_join(t[i], NULL) == 0, i, 0);
    }
    pthread_barrier_destroy(&gate);
}

#ifdef THREADS_BROKEN
/* The broken build: the shared calls without their lock, and one lock word for
 * every container (what a process-wide lock would be). */
#define HEAP_ALLOC stow_heap_alloc
#define HEAP_REALLOC stow_heap_realloc
#define HEAP_FREE stow_heap_free
#define GENPOOL_INSERT stow_genpool_insert
#define GENPOOL_GET(g, h) stow_genpool_get(g, h)
#define GENPOOL_REMOVE stow_genpool_remove
#define SLOTMAP_INSERT stow_slotmap_insert
#define SLOTMAP_GET(m, h) stow_slotmap_get(m, h)
#define SLOTMAP_REMOVE stow_slotmap_remove
#else
#define HEAP_ALLOC stow_heap_alloc_isr
#define HEAP_REALLOC stow_heap_realloc_isr
#define HEAP_FREE stow_heap_free_isr
#define GENPOOL_INSERT stow_genpool_insert_isr
#define GENPOOL_GET(g, h) stow_genpool_get_isr(g, h)
#define GENPOOL_REMOVE stow_genpool_remove_isr
#define SLOTMAP_INSERT stow_slotmap_insert_isr
#define SLOTMAP_GET(m, h) stow_slotmap_get_isr(m, h)
#define SLOTMAP_REMOVE stow_slotmap_remove_isr
#endif

/* ---- heap ---------------------------------------------------------------------- */

#define HEAP_SLOTS 12u
STOW_HEAP_DEFINE_STATIC(shared_heap, 48 * 1024);

struct block {
    unsigned char *p;
    size_t size;
    unsigned char tag;
};
static struct block heap_live[THREADS][HEAP_SLOTS];

/* Every byte of a block holds its owner's tag: a block handed out to two threads
 * at once, or a free block merged under a live one, shows as foreign bytes. */
static void check_block(const struct block *b)
{
    for (size_t i = 0u; i < b->size; i++) {
        EXPECT(b->p[i] == b->tag, b->p[i], b->tag);
    }
}

static void *heap_worker(void *arg)
{
    unsigned me = *(unsigned *)arg;
    uint32_t seed = 0x9E3779B9u * (me + 1u);
    struct block *live = heap_live[me];
    start_gate();
    for (unsigned op = 0u; op < THREADS_OPS; op++) {
        uint32_t r = stow_test_xorshift(&seed);
        struct block *b = &live[r % HEAP_SLOTS];
        size_t size = 1u + (r >> 8) % 300u;
        unsigned char tag = (unsigned char)(me * 60u + 1u + op % 60u);
        if (b->p == NULL) {
            b->p = (unsigned char *)HEAP_ALLOC(&shared_heap, size);
            if (b->p != NULL) {
                b->size = size;
                b->tag = tag;
                memset(b->p, tag, size);
            }
        } else if ((r & 0x30000000u) == 0u) {
            check_block(b);
            unsigned char *q = (unsigned char *)HEAP_REALLOC(&shared_heap, b->p, size);
            if (q != NULL) {
                b->p = q;
                for (size_t i = 0u; i < size && i < b->size; i++) {
                    EXPECT(q[i] == b->tag, q[i], b->tag); /* the prefix moved with it */
                }
                b->size = size;
                b->tag = tag;
                memset(q, tag, size);
            }
        } else {
            check_block(b);
            HEAP_FREE(&shared_heap, b->p);
            b->p = NULL;
        }
    }
    return NULL;
}

static void run_heap(void)
{
    run_threads(heap_worker);
    /* Every block the threads hold is whole and the heap's count agrees. */
    size_t live_bytes = 0u;
    for (unsigned t = 0u; t < THREADS; t++) {
        for (unsigned i = 0u; i < HEAP_SLOTS; i++) {
            if (heap_live[t][i].p != NULL) {
                check_block(&heap_live[t][i]);
                live_bytes += stow_heap_usable_size(&shared_heap, heap_live[t][i].p);
                stow_heap_free(&shared_heap, heap_live[t][i].p);
            }
        }
    }
    EXPECT(live_bytes > 0u, live_bytes, 0);
    stow_stats_t s;
    stow_heap_stats(&shared_heap, &s);
    EXPECT(s.used == 0u, s.used, 0);
    EXPECT(stow_heap_check(&shared_heap), 0, 0);
}

/* ---- genpool and slotmap: items, handles, a mailbox of published handles ---------- */

struct item {
    uint32_t owner;
    uint32_t seq;
    uint32_t sum; /* owner * K ^ seq: a torn or foreign copy disagrees */
    uint32_t spare;
};
#define ITEM_SUM(owner, seq) (((owner) + 1u) * 2654435761u ^ (seq))
#define ITEM_SLOTS 24u
#define MAILBOX 32u

STOW_GENPOOL_DEFINE_STATIC(shared_genpool, struct item, THREADS * ITEM_SLOTS);
STOW_SLOTMAP_DEFINE_STATIC(shared_slotmap, struct item, THREADS * ITEM_SLOTS);

#ifdef THREADS_BROKEN
/* read_isr without the lock: a get and a copy that a remove can overtake. */
static bool genpool_read(stow_genpool_t *g, stow_handle_t h, void *out)
{
    const void *p = stow_genpool_get(g, h);
    if (p != NULL) {
        memcpy(out, p, sizeof(struct item));
    }
    return p != NULL;
}
static bool slotmap_read(stow_slotmap_t *m, stow_handle_t h, void *out)
{
    const void *p = stow_slotmap_get(m, h);
    if (p != NULL) {
        memcpy(out, p, sizeof(struct item));
    }
    return p != NULL;
}
#define GENPOOL_READ genpool_read
#define SLOTMAP_READ slotmap_read
#else
#define GENPOOL_READ stow_genpool_read_isr
#define SLOTMAP_READ stow_slotmap_read_isr
#endif

struct held {
    stow_handle_t h;
    uint32_t seq;
};
static struct held held_items[THREADS][ITEM_SLOTS];
static _Atomic uint32_t mailbox[MAILBOX]; /* handle bits any thread may read */
static uint32_t inserts[THREADS], removes[THREADS], foreign_reads[THREADS];

static void check_item(const struct item *it, unsigned owner, uint32_t seq)
{
    EXPECT(it->owner == owner, it->owner, owner);
    EXPECT(it->seq == seq, it->seq, seq);
    EXPECT(it->sum == ITEM_SUM(owner, seq), it->sum, ITEM_SUM(owner, seq));
}

/* A handle of another thread's: the copy is either a whole item or nothing. */
static void read_foreign(unsigned me, uint32_t r, bool slotmap)
{
    stow_handle_t h = {atomic_load_explicit(&mailbox[r % MAILBOX], memory_order_relaxed)};
    struct item copy;
    bool got = slotmap ? SLOTMAP_READ(&shared_slotmap, h, &copy)
                       : GENPOOL_READ(&shared_genpool, h, &copy);
    if (got) {
        EXPECT(copy.owner < THREADS, copy.owner, 0);
        EXPECT(copy.sum == ITEM_SUM(copy.owner, copy.seq), copy.sum, copy.seq);
        foreign_reads[me]++;
    }
}

static void *items_worker(void *arg, bool slotmap)
{
    unsigned me = *(unsigned *)arg;
    uint32_t seed = 0x2545F491u * (me + 1u);
    struct held *held = held_items[me];
    uint32_t seq = 0u;
    start_gate();
    for (unsigned op = 0u; op < THREADS_OPS; op++) {
        uint32_t r = stow_test_xorshift(&seed);
        struct held *slot = &held[r % ITEM_SLOTS];
        if ((r & 0x300u) == 0u) {
            read_foreign(me, r >> 10, slotmap);
        } else if (slot->h.bits == 0u) {
            seq++;
            struct item it = {me, seq, ITEM_SUM(me, seq), 0u};
            stow_handle_t h = slotmap ? SLOTMAP_INSERT(&shared_slotmap, &it)
                                      : GENPOOL_INSERT(&shared_genpool, &it);
            if (h.bits != 0u) {
                slot->h = h;
                slot->seq = seq;
                inserts[me]++;
                atomic_store_explicit(&mailbox[(r >> 12) % MAILBOX], h.bits, memory_order_relaxed);
            }
        } else if ((r & 0xC00u) == 0u) {
            /* Read one's own item in place. The genpool never moves items and only
             * their owner removes them, so get_isr's pointer holds; a slot map
             * moves items on any remove, so that read takes the lock around it. */
            if (slotmap) {
                EXPECT(SLOTMAP_GET(&shared_slotmap, slot->h) != NULL, me, slot->seq);
#ifndef THREADS_BROKEN
                uint32_t state = stow_slotmap_lock(&shared_slotmap);
#endif
                const struct item *it = (const struct item *)stow_slotmap_get(&shared_slotmap, slot->h);
                EXPECT(it != NULL, me, slot->seq);
                check_item(it, me, slot->seq);
#ifndef THREADS_BROKEN
                stow_slotmap_unlock(&shared_slotmap, state);
#endif
            } else {
                const struct item *it = (const struct item *)GENPOOL_GET(&shared_genpool, slot->h);
                EXPECT(it != NULL, me, slot->seq);
                check_item(it, me, slot->seq);
            }
        } else {
            struct item copy;
            bool got = slotmap ? SLOTMAP_READ(&shared_slotmap, slot->h, &copy)
                               : GENPOOL_READ(&shared_genpool, slot->h, &copy);
            EXPECT(got, me, slot->seq);
            check_item(&copy, me, slot->seq);
            bool gone = slotmap ? SLOTMAP_REMOVE(&shared_slotmap, slot->h)
                                : GENPOOL_REMOVE(&shared_genpool, slot->h);
            EXPECT(gone, me, slot->seq);
            /* A second remove, and a read, of the stale handle find nothing. */
            gone = slotmap ? SLOTMAP_REMOVE(&shared_slotmap, slot->h)
                           : GENPOOL_REMOVE(&shared_genpool, slot->h);
            EXPECT(!gone, me, slot->seq);
            got = slotmap ? SLOTMAP_READ(&shared_slotmap, slot->h, &copy)
                          : GENPOOL_READ(&shared_genpool, slot->h, &copy);
            EXPECT(!got, me, slot->seq);
            slot->h.bits = 0u;
            removes[me]++;
        }
    }
    return NULL;
}

static void *genpool_worker(void *arg) { return items_worker(arg, false); }
static void *slotmap_worker(void *arg) { return items_worker(arg, true); }

static void run_items(bool slotmap)
{
    run_threads(slotmap ? slotmap_worker : genpool_worker);
    /* Counts conserved: what the threads hold is what the container counts, and
     * inserts minus removes is both. */
    uint32_t held = 0u, in = 0u, out = 0u, foreign = 0u;
    for (unsigned t = 0u; t < THREADS; t++) {
        in += inserts[t];
        out += removes[t];
        foreign += foreign_reads[t];
        for (unsigned i = 0u; i < ITEM_SLOTS; i++) {
            if (held_items[t][i].h.bits != 0u) {
                held++;
            }
        }
    }
    uint32_t count = slotmap ? stow_slotmap_count(&shared_slotmap) : stow_genpool_count(&shared_genpool);
    EXPECT(count == held, count, held);
    EXPECT(in - out == held, in - out, held);
    EXPECT(foreign > 0u, foreign, 0); /* the threads did read each other's items */
    for (unsigned t = 0u; t < THREADS; t++) {
        for (unsigned i = 0u; i < ITEM_SLOTS; i++) {
            struct held *s = &held_items[t][i];
            if (s->h.bits != 0u) {
                const struct item *it = slotmap ? (const struct item *)stow_slotmap_get(&shared_slotmap, s->h)
                                                : (const struct item *)stow_genpool_get(&shared_genpool, s->h);
                EXPECT(it != NULL, t, s->seq);
                check_item(it, t, s->seq);
                EXPECT(slotmap ? stow_slotmap_remove(&shared_slotmap, s->h)
                               : stow_genpool_remove(&shared_genpool, s->h),
                       t, s->seq);
            }
        }
    }
    count = slotmap ? stow_slotmap_count(&shared_slotmap) : stow_genpool_count(&shared_genpool);
    EXPECT(count == 0u, count, 0);
    EXPECT(slotmap ? stow_slotmap_check(&shared_slotmap) : stow_genpool_check(&shared_genpool), 0, 0);
}

/* ---- locks: one lock word per container ------------------------------------------ */

#ifdef THREADS_BROKEN
/* One word for every container: replaces the host port's weak lock. */
static uint32_t one_word;
uint32_t stow_port_lock(uint32_t *word)
{
    uint32_t expected = 0u;
    (void)word;
    while (!__atomic_compare_exchange_n(&one_word, &expected, 1u, false, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED)) {
        expected = 0u;
        nap(100);
    }
    return 1u;
}
void stow_port_unlock(uint32_t *word, uint32_t state)
{
    (void)word;
    (void)state;
    __atomic_store_n(&one_word, 0u, __ATOMIC_RELEASE);
}
#endif

STOW_HEAP_DEFINE_STATIC(heap_held, 4096);
STOW_HEAP_DEFINE_STATIC(heap_free_to_use, 4096);
STOW_POOL_DEFINE_STATIC(pool_free_to_use, struct item, 8);
STOW_GENPOOL_DEFINE_STATIC(genpool_free_to_use, struct item, 8);
STOW_SLOTMAP_DEFINE_STATIC(slotmap_free_to_use, struct item, 8);

static atomic_uint holder; /* 0 starting, 1 holding, 2 released */
static atomic_uint others_done;
static double hold_for; /* seconds the holder keeps the lock at most */

static void *hold_heap_lock(void *arg)
{
    (void)arg;
    uint32_t state = stow_heap_lock(&heap_held);
    atomic_store(&holder, 1u);
    double t0 = seconds_now();
    while (atomic_load(&others_done) == 0u && seconds_now() - t0 < hold_for) {
        nap(1000);
    }
    atomic_store(&holder, 2u);
    stow_heap_unlock(&heap_held, state);
    return NULL;
}

static void run_locks(void)
{
    /* Part 1: while heap_held's lock is held (up to 2 s), every other container's
     * _isr calls must finish. With one lock for all, they wait the 2 s out. */
    pthread_t t;
    hold_for = 2.0;
    EXPECT(pthread_create(&t, NULL, hold_heap_lock, NULL) == 0, 0, 0);
    while (atomic_load(&holder) == 0u) {
        sched_yield();
    }
    for (unsigned i = 0u; i < 1000u; i++) {
        struct item it = {0u, i, ITEM_SUM(0u, i), 0u}, copy;
        void *p = stow_heap_alloc_isr(&heap_free_to_use, 16u + i % 64u);
        EXPECT(p != NULL, i, 0);
        p = stow_heap_realloc_isr(&heap_free_to_use, p, 100u);
        EXPECT(p != NULL, i, 0);
        stow_heap_free_isr(&heap_free_to_use, p);
        void *b = stow_pool_alloc_isr(&pool_free_to_use);
        EXPECT(b != NULL, i, 0);
        stow_pool_free_isr(&pool_free_to_use, b);
        stow_handle_t g = stow_genpool_insert_isr(&genpool_free_to_use, &it);
        EXPECT(stow_genpool_read_isr(&genpool_free_to_use, g, &copy), i, 0);
        EXPECT(stow_genpool_get_isr(&genpool_free_to_use, g) != NULL, i, 0);
        EXPECT(stow_genpool_remove_isr(&genpool_free_to_use, g), i, 0);
        stow_handle_t m = stow_slotmap_insert_isr(&slotmap_free_to_use, &it);
        EXPECT(stow_slotmap_read_isr(&slotmap_free_to_use, m, &copy), i, 0);
        EXPECT(stow_slotmap_get_isr(&slotmap_free_to_use, m) != NULL, i, 0);
        EXPECT(stow_slotmap_remove_isr(&slotmap_free_to_use, m), i, 0);
    }
    unsigned seen = atomic_load(&holder);
    atomic_store(&others_done, 1u);
    EXPECT(pthread_join(t, NULL) == 0, 0, 0);
    EXPECT(seen == 1u, seen, 1); /* still held: the calls did not wait for it */

    /* Part 2: the held container's own _isr call waits for the holder (50 ms). */
    atomic_store(&holder, 0u);
    atomic_store(&others_done, 0u);
    hold_for = 0.05;
    EXPECT(pthread_create(&t, NULL, hold_heap_lock, NULL) == 0, 0, 0);
    while (atomic_load(&holder) == 0u) {
        sched_yield();
    }
    void *p = stow_heap_alloc_isr(&heap_held, 32u);
    seen = atomic_load(&holder);
    EXPECT(pthread_join(t, NULL) == 0, 0, 0);
    EXPECT(p != NULL, 0, 0);
    EXPECT(seen == 2u, seen, 2); /* it returned only after the release */
    stow_heap_free_isr(&heap_held, p);
    EXPECT(stow_heap_check(&heap_held) && stow_heap_check(&heap_free_to_use), 0, 0);
    EXPECT(stow_pool_check(&pool_free_to_use) && stow_genpool_check(&genpool_free_to_use) &&
               stow_slotmap_check(&slotmap_free_to_use),
           0, 0);
}

/* ---- per-thread scratch and double-buffered frame arenas ------------------------- */

/* The pattern (README, "Concurrency"; arena.h): one arena per worker, defined
 * statically and picked by the worker's index, reset at the start of each job;
 * two frame arenas, this frame's and last frame's, flipped each frame: a frame
 * resets the arena it is about to fill, which is the one that held the frame
 * before last, so last frame's results stay readable for one more frame. */
#define FRAMES 64u
#define RESULTS 64u /* per worker per frame */
STOW_ARENA_DEFINE_STATIC(worker_scratch_0, 8 * 1024);
STOW_ARENA_DEFINE_STATIC(worker_scratch_1, 8 * 1024);
STOW_ARENA_DEFINE_STATIC(worker_scratch_2, 8 * 1024);
STOW_ARENA_DEFINE_STATIC(worker_scratch_3, 8 * 1024);
STOW_ARENA_DEFINE_STATIC(frame_even, 4 * 1024);
STOW_ARENA_DEFINE_STATIC(frame_odd, 4 * 1024);
static stow_arena_t *worker_scratch[4] = {&worker_scratch_0, &worker_scratch_1,
                                          &worker_scratch_2, &worker_scratch_3};
static stow_arena_t *frame_arena[2] = {&frame_even, &frame_odd};

static pthread_barrier_t frame_start, frame_end;
static uint32_t *frame_out[4]; /* this frame's slice of the frame arena, per worker */
static uint32_t frame_number;

static uint32_t expected_result(uint32_t frame, unsigned worker, unsigned k)
{
    return frame * 0x10000u + worker * 0x100u + k;
}

/* A worker's job: build temporaries in its own scratch, check them, and write
 * RESULTS words into its slice of this frame's arena. */
static void *frame_worker(void *arg)
{
    unsigned me = *(unsigned *)arg;
    for (uint32_t f = 0u; f < FRAMES; f++) {
        pthread_barrier_wait(&frame_start);
        stow_arena_t *scratch = worker_scratch[me];
        stow_arena_reset(scratch);
        uint32_t frame = frame_number;
        uint32_t *tmp[8];
        for (unsigned j = 0u; j < 8u; j++) {
            tmp[j] = STOW_ARENA_NEW_ARRAY(scratch, uint32_t, 100u);
            EXPECT(tmp[j] != NULL, me, j);
            for (unsigned k = 0u; k < 100u; k++) {
                tmp[j][k] = frame ^ (me << 24) ^ (j << 16) ^ k;
            }
        }
        for (unsigned j = 0u; j < 8u; j++) {
            for (unsigned k = 0u; k < 100u; k++) {
                EXPECT(tmp[j][k] == (frame ^ (me << 24) ^ (j << 16) ^ k), tmp[j][k], me);
            }
        }
        /* Each result goes through the scratch: a temporary another worker
         * overwrote shows in the frame's results too. */
        for (unsigned k = 0u; k < RESULTS; k++) {
            uint32_t j = k % 8u;
            frame_out[me][k] = expected_result(frame, me, k) + (tmp[j][k] - (frame ^ (me << 24) ^ (j << 16) ^ k));
        }
        pthread_barrier_wait(&frame_end);
    }
    return NULL;
}

static void run_frames(bool share_scratch, bool one_frame_arena)
{
    if (share_scratch) {
        for (unsigned i = 1u; i < 4u; i++) {
            worker_scratch[i] = worker_scratch[0];
        }
    }
    if (one_frame_arena) {
        frame_arena[1] = frame_arena[0];
    }
    pthread_t t[4];
    unsigned ids[4] = {0u, 1u, 2u, 3u};
    EXPECT(pthread_barrier_init(&frame_start, NULL, 5u) == 0, 0, 0);
    EXPECT(pthread_barrier_init(&frame_end, NULL, 5u) == 0, 0, 0);
    for (unsigned i = 0u; i < 4u; i++) {
        EXPECT(pthread_create(&t[i], NULL, frame_worker, &ids[i]) == 0, i, 0);
    }
    uint32_t *last[4] = {NULL, NULL, NULL, NULL};
    uint32_t *before_last0 = NULL;
    for (uint32_t f = 0u; f < FRAMES; f++) {
        stow_arena_t *now = frame_arena[f & 1u];
        stow_arena_reset(now); /* held the frame before last: done with */
        frame_number = f;
        for (unsigned i = 0u; i < 4u; i++) {
            frame_out[i] = STOW_ARENA_NEW_ARRAY(now, uint32_t, RESULTS);
            EXPECT(frame_out[i] != NULL, f, i);
        }
        /* The frame before last's memory is reused, last frame's is not. */
        if (before_last0 != NULL) {
            EXPECT(frame_out[0] == before_last0, f, 0);
        }
        pthread_barrier_wait(&frame_start);
        pthread_barrier_wait(&frame_end);
        for (unsigned i = 0u; i < 4u; i++) {
            for (unsigned k = 0u; k < RESULTS; k++) {
                EXPECT(frame_out[i][k] == expected_result(f, i, k), f, i);
                if (last[i] != NULL) {
                    EXPECT(last[i][k] == expected_result(f - 1u, i, k), f, i); /* survived a frame */
                }
            }
        }
        before_last0 = last[0];
        for (unsigned i = 0u; i < 4u; i++) {
            last[i] = frame_out[i];
        }
    }
    for (unsigned i = 0u; i < 4u; i++) {
        EXPECT(pthread_join(t[i], NULL) == 0, i, 0);
        EXPECT(stow_arena_check(worker_scratch[i]), i, 0);
    }
    EXPECT(stow_arena_check(&frame_even) && stow_arena_check(&frame_odd), 0, 0);
    pthread_barrier_destroy(&frame_start);
    pthread_barrier_destroy(&frame_end);
}

/* ---- main -------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    if (argc != 2) {
        printf("usage: threads heap|genpool|slotmap|locks|workers|frames\n");
        return 2;
    }
    scenario = argv[1];
    bool broken = false;
#ifdef THREADS_BROKEN
    broken = true;
#endif
    if (strcmp(scenario, "heap") == 0) {
        run_heap();
    } else if (strcmp(scenario, "genpool") == 0) {
        run_items(false);
    } else if (strcmp(scenario, "slotmap") == 0) {
        run_items(true);
    } else if (strcmp(scenario, "locks") == 0) {
        run_locks();
    } else if (strcmp(scenario, "workers") == 0) {
        run_frames(broken, false);
    } else if (strcmp(scenario, "frames") == 0) {
        run_frames(false, broken);
    } else {
        printf("threads: no scenario %s\n", scenario);
        return 2;
    }
    printf("threads: %s ok\n", scenario);
    return 0;
}
