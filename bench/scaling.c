/* SPDX-License-Identifier: MIT */
/* scaling.c - how throughput grows with the cores that share stow: W workers (RISC-V
 * harts under QEMU with multi-threaded TCG, built with STOW_RV_HARTS=W; or host
 * threads, W from the command line) make the same calls at once, and each
 * workload's calls per second is printed; bench/scaling.sh divides by the one-
 * worker figure. Workloads, SCALING_OPS calls per worker each:
 *   shared atomic pool   alloc_atomic + free_atomic on one pool (lock-free: the
 *                        workers contend for one cache line)
 *   shared heap (_isr)   alloc_isr + free_isr of 24 bytes on one heap (the
 *                        heap's lock: one worker at a time inside)
 *   own scratch          arena reset, two arena allocations, an alloc and a free
 *                        on the worker's own pool (plain calls, nothing shared:
 *                        what the per-core scratch pattern buys)
 * Line per workload: "@scale|<platform>|<workers>|<workload>|<calls per second>".
 * A ratio, not a time, is what to read: QEMU's harts and the host's threads
 * share the host's CPUs with each other (and with whatever else runs), so with
 * more workers than host CPUs the ratio can only stay flat.
 */
#if !defined(__riscv)
#define _POSIX_C_SOURCE 200809L /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): POSIX */
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stow/stow.h"

#ifndef SCALING_OPS
#define SCALING_OPS 200000u
#endif
#define WORKERS_MAX 4u
#define WORKLOADS 3u
static const char *const workload_name[WORKLOADS] = {"shared atomic pool: alloc_atomic + free_atomic",
                                                     "shared heap: alloc_isr + free_isr",
                                                     "own scratch: arena and pool, plain calls"};

static STOW_ALIGNAS(16) unsigned char pool_buf[STOW_POOL_BYTES(16u, 8u, 64u)];
static STOW_ALIGNAS(STOW_HEAP_ALIGN) unsigned char heap_buf[4096];
static stow_pool_t pool;
static stow_heap_t heap;

/* What one worker has to itself, on cache lines of its own (128 bytes: two lines
 * on most hosts): with per-core scratch, sharing a line is sharing after all. */
struct worker {
    STOW_ALIGNAS(128) stow_arena_t arena;
    stow_pool_t scratch;
    void *sink;
    STOW_ALIGNAS(16) unsigned char arena_buf[256];
    STOW_ALIGNAS(16) unsigned char scratch_buf[STOW_POOL_BYTES(16u, 8u, 4u)];
};
static struct worker workers_of[WORKERS_MAX];

static bool set_up(void)
{
    bool ok = stow_pool_init(&pool, pool_buf, sizeof pool_buf, 16u, 8u, 64u) &&
              stow_heap_init(&heap, heap_buf, sizeof heap_buf);
    for (uint32_t w = 0u; w < WORKERS_MAX; w++) {
        struct worker *me = &workers_of[w];
        ok = ok && stow_arena_init(&me->arena, me->arena_buf, sizeof me->arena_buf) &&
             stow_pool_init(&me->scratch, me->scratch_buf, sizeof me->scratch_buf, 16u, 8u, 4u);
    }
    return ok;
}

static void work(uint32_t w, uint32_t workload)
{
    struct worker *me = &workers_of[w];
    void *volatile *sink = (void *volatile *)&me->sink;
    for (uint32_t i = 0u; i < SCALING_OPS; i++) {
        if (workload == 0u) {
            void *b = stow_pool_alloc_atomic(&pool);
            stow_pool_free_atomic(&pool, b);
            *sink = b;
        } else if (workload == 1u) {
            void *p = stow_heap_alloc_isr(&heap, 24u);
            stow_heap_free_isr(&heap, p);
            *sink = p;
        } else {
            stow_arena_reset(&me->arena);
            *sink = stow_arena_alloc(&me->arena, 24u, 8u);
            *sink = stow_arena_alloc(&me->arena, 40u, 8u);
            void *b = stow_pool_alloc(&me->scratch);
            stow_pool_free(&me->scratch, b);
        }
    }
}

#if defined(__riscv)
/* ---- RISC-V virt: hart 0 times each workload with the CLINT's mtime (10 MHz,
 * QEMU's clock: without -icount, the host's); the others wait for the go. */
#define WORKERS STOW_RV_HARTS
#define MTIME_LO (*(volatile uint32_t *)(uintptr_t)0x0200BFF8u)
#define MTIME_HI (*(volatile uint32_t *)(uintptr_t)0x0200BFFCu)
#define TICKS_PER_SECOND 10000000u

static volatile uint32_t go;       /* workload number + 1 that the workers may start */
static volatile uint32_t finished; /* workers done with it (amoadd) */

static uint64_t now(void)
{
    uint32_t hi, lo;
    do {
        hi = MTIME_HI;
        lo = MTIME_LO;
    } while (MTIME_HI != hi);
    return ((uint64_t)hi << 32) | lo;
}

void stow_riscv_hart_main(uint32_t hart);
void stow_riscv_hart_main(uint32_t hart)
{
    for (uint32_t k = 0u; k < WORKLOADS; k++) {
        while (go != k + 1u) {
        }
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        work(hart, k);
        __atomic_fetch_add(&finished, 1u, __ATOMIC_SEQ_CST);
    }
}

static void print_u(uint64_t v)
{
    char d[20];
    unsigned n = sizeof d;
    do {
        d[--n] = (char)('0' + (char)(v % 10u));
        v /= 10u;
    } while (v != 0u);
    stow_port_write(&d[n], sizeof d - n);
}

static void print(const char *s)
{
    size_t n = 0u;
    while (s[n] != '\0') {
        n++;
    }
    stow_port_write(s, n);
}

int main(void)
{
    if (!set_up()) {
        print("scaling: set-up failed\n");
        return 1;
    }
    for (uint32_t k = 0u; k < WORKLOADS; k++) {
        finished = 0u;
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        uint64_t t0 = now();
        go = k + 1u;
        work(0u, k);
        while (finished != WORKERS - 1u) {
        }
        uint64_t ticks = now() - t0;
        print("@scale|RV32IMAC, QEMU harts|");
        print_u(WORKERS);
        print("|");
        print(workload_name[k]);
        print("|");
        print_u((uint64_t)WORKERS * SCALING_OPS * TICKS_PER_SECOND / (ticks != 0u ? ticks : 1u));
        print("\n");
    }
    return 0;
}
#else
/* ---- the host: W threads (the command line), timed with the monotonic clock. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_barrier_t start;
static pthread_barrier_t stop;
static uint32_t current;

static void *worker(void *arg)
{
    uint32_t w = (uint32_t)(uintptr_t)arg;
    for (uint32_t k = 0u; k < WORKLOADS; k++) {
        pthread_barrier_wait(&start);
        work(w, current);
        pthread_barrier_wait(&stop);
    }
    return NULL;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    uint32_t workers = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 1u;
    if (workers < 1u || workers > WORKERS_MAX || !set_up()) {
        fprintf(stderr, "usage: scaling 1..%u\n", WORKERS_MAX);
        return 1;
    }
    pthread_t t[WORKERS_MAX];
    pthread_barrier_init(&start, NULL, workers + 1u);
    pthread_barrier_init(&stop, NULL, workers + 1u);
    for (uint32_t w = 0u; w < workers; w++) {
        pthread_create(&t[w], NULL, worker, (void *)(uintptr_t)w);
    }
    for (uint32_t k = 0u; k < WORKLOADS; k++) {
        current = k;
        double t0 = seconds();
        pthread_barrier_wait(&start);
        pthread_barrier_wait(&stop);
        double elapsed = seconds() - t0;
        printf("@scale|" SCALING_HOST ", threads|%u|%s|%.0f\n", workers, workload_name[k],
               (double)workers * SCALING_OPS / elapsed);
    }
    for (uint32_t w = 0u; w < workers; w++) {
        pthread_join(t[w], NULL);
    }
    return 0;
}
#endif
