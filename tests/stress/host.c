/* SPDX-License-Identifier: MIT */
/* tests/stress/host.c - THREADS threads allocate and free blocks of one pool at
 * once with stow_pool_alloc_atomic()/stow_pool_free_atomic(), on the host.
 *
 * Each thread holds up to HOLD blocks, two threads together more than the pool has, so
 * the pool runs dry at times. A block handed out is checked to be one of the pool's
 * and claimed in owner[] by an atomic exchange that must find it unclaimed (a
 * block handed out twice shows there); the thread writes its tag over the whole
 * block, the word the free-list link overlays included, and checks the tag
 * before it gives the block back. At the end: used() is 0, fails counts the NULLs,
 * check() passes, and the pool hands out every block exactly once more.
 * Built with ThreadSanitizer too (tests/stress/rules.mk), which must stay silent.
 *
 * With -DSTRESS_PLAIN the threads use stow_pool_alloc()/stow_pool_free(), which
 * are not thread-safe: under ThreadSanitizer that build must be reported.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "stow/pool.h"
#include "../xorshift.h"

#ifdef STRESS_PLAIN
#define POOL_ALLOC stow_pool_alloc
#define POOL_FREE stow_pool_free
#define CALLS "stow_pool_alloc/free (plain: expected to be reported)"
#else
#define POOL_ALLOC stow_pool_alloc_atomic
#define POOL_FREE stow_pool_free_atomic
#define CALLS "stow_pool_alloc_atomic/free_atomic"
#endif

#ifndef THREADS
#define THREADS 6
#endif
#ifndef OPS_PER_THREAD
#define OPS_PER_THREAD 200000u
#endif
/* Two threads running at once (as on two cores) hold more than this at times. */
#define CAPACITY 24u
#define HOLD 16u
#define WORDS 6u

struct block {
    uint32_t w[WORDS];
};

STOW_POOL_DEFINE_STATIC(shared, struct block, CAPACITY);

static _Atomic unsigned char owner[CAPACITY];
static atomic_int failures;
static atomic_uint nulls;
static atomic_uint calls;
static atomic_int go;

static void fail(const char *what)
{
    if (atomic_fetch_add(&failures, 1) == 0) {
        fprintf(stderr, "FAIL %s\n", what);
    }
}

/* The block's index, or CAPACITY when b is not a block start of the pool. */
static uint32_t index_of_block(const struct block *b)
{
    uintptr_t offset = (uintptr_t)b - (uintptr_t)shared.base;
    if (offset >= CAPACITY * sizeof(struct block) || offset % sizeof(struct block) != 0u) {
        return CAPACITY;
    }
    return (uint32_t)(offset / sizeof(struct block));
}

static void *hammer(void *arg)
{
    unsigned char me = (unsigned char)(uintptr_t)arg;
    struct block *held[HOLD];
    uint32_t count = 0u;
    uint32_t rand = 0x9E3779B9u * (uint32_t)(me + 1u);
    uint32_t serial = 0u;
    uint32_t my_calls = 0u;
    uint32_t my_nulls = 0u;
    while (atomic_load(&go) == 0) {
    }
    for (uint32_t op = 0; op < OPS_PER_THREAD && atomic_load_explicit(&failures, memory_order_relaxed) == 0;
         op++) {
        uint32_t r = stow_test_xorshift(&rand);
        if (count != 0u && (r & 0xFFu) < 32u + 160u * count / HOLD) {
            uint32_t k = (r >> 8) % count;
            struct block *b = held[k];
            uint32_t i = index_of_block(b);
            uint32_t tag = ((uint32_t)me << 24) ^ (b->w[WORDS - 1u] << 6) ^ i;
            for (uint32_t w = 0; w < WORDS - 1u; w++) {
                if (b->w[w] != tag + w) {
                    fail("a block was written by a thread that did not hold it");
                }
            }
            if (atomic_exchange(&owner[i], 0) != me) {
                fail("the owner record of a held block changed");
            }
            held[k] = held[--count];
            POOL_FREE(&shared, b);
        } else if (count < HOLD) {
            struct block *b = (struct block *)POOL_ALLOC(&shared);
            if (b == NULL) {
                my_nulls++;
            } else {
                uint32_t i = index_of_block(b);
                if (i == CAPACITY) {
                    fail("the pool handed out a pointer that is not one of its blocks");
                    break;
                }
                if (atomic_exchange(&owner[i], me) != 0) {
                    fail("a block was handed out while another thread held it");
                }
                serial++;
                uint32_t tag = ((uint32_t)me << 24) ^ (serial << 6) ^ i;
                for (uint32_t w = 0; w < WORDS - 1u; w++) {
                    b->w[w] = tag + w;
                }
                b->w[WORDS - 1u] = serial;
                held[count++] = b;
            }
        } else {
            continue;
        }
        my_calls++;
    }
    while (count != 0u) {
        struct block *b = held[--count];
        atomic_store(&owner[index_of_block(b)], 0);
        POOL_FREE(&shared, b);
        my_calls++;
    }
    atomic_fetch_add(&calls, my_calls);
    atomic_fetch_add(&nulls, my_nulls);
    return NULL;
}

static unsigned passed, failed;

static void result(int ok, const char *what)
{
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (ok) {
        passed++;
    } else {
        failed++;
    }
}

int main(void)
{
    printf("stress: %d threads, %s, check level %d\n", THREADS, CALLS, STOW_CHECK_LEVEL);
    pthread_t t[THREADS];
    for (int k = 0; k < THREADS; k++) {
        if (pthread_create(&t[k], NULL, hammer, (void *)(uintptr_t)(k + 1)) != 0) {
            printf("cannot start the threads\n");
            return 1;
        }
    }
    atomic_store(&go, 1);
    for (int k = 0; k < THREADS; k++) {
        pthread_join(t[k], NULL);
    }
    result(atomic_load(&failures) == 0, "no block handed out twice or written by another thread");
    stow_stats_t s;
    stow_pool_stats(&shared, &s);
    printf("     calls %u, NULL returned %u, fails %u\n", atomic_load(&calls), atomic_load(&nulls),
           (unsigned)s.fails);
    result(atomic_load(&calls) >= 1000000u, "at least 1,000,000 calls in all");
    result(s.used == 0u && stow_pool_used(&shared) == 0u, "every block given back: used() is 0");
    result(s.fails == atomic_load(&nulls), "fails counts every NULL returned");
    result(stow_pool_check(&shared), "check() passes");
    unsigned got = 0u;
    int distinct = 1;
    for (uint32_t k = 0; k < CAPACITY; k++) {
        struct block *b = (struct block *)POOL_ALLOC(&shared);
        uint32_t i = b == NULL ? CAPACITY : index_of_block(b);
        if (i == CAPACITY) {
            break;
        }
        distinct = distinct && atomic_exchange(&owner[i], 1) == 0;
        got++;
    }
    result(got == CAPACITY && distinct && POOL_ALLOC(&shared) == NULL,
           "afterwards every block comes out exactly once, then NULL");
#if STOW__POOL_ATOMIC == STOW__POOL_ATOMIC_TAGGED
    _Atomic uint64_t word = 0u;
    result(atomic_is_lock_free(&word), "the 64-bit head word is lock-free");
#endif
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0u ? 0 : 1;
}
