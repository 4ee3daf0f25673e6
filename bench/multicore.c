/* SPDX-License-Identifier: MIT */
/* multicore.c - what sharing across cores costs when nobody else is there:
 * instructions per lock() + unlock() pair, per critical section, and per atomic
 * pool call, built with the one-core ports and with the multi-core ones
 * (port/<core>/smp.c, and STOW_MULTICORE for the pool) side by side. Driven by
 * bench/ops.c like every other row (see bench.h), in images of its own
 * (bench/multicore.mk); the table is in docs/multicore.md.
 *
 * Without contention a lock pair is the port's two calls: on one core, mask and
 * restore; on several, also this core's number, a compare-and-swap that takes
 * the word and a store that gives it back, with their barriers. The ARMv6-M
 * multi-core images call a chip lock (stow/port.h) around the swap: here
 * BENCH_CHIP_LOCK defines it with the instructions of the port's own
 * STOW_PORT_SPINLOCK_REG version (a load that takes the lock, a DMB; a DMB, a
 * store that gives it back) on a RAM word that always reads "taken by this
 * read", and stow_port_core() (what a firmware without STOW_PORT_CORE_REG
 * defines) as one load, as from RP2040's SIO CPUID. A real register's access
 * time is not in an instruction count.
 */
#include "bench.h"

static stow_pool_t pool;
#define blocks stow_bench_ptrs

#if defined(BENCH_CORE_HOOK)
static volatile uint32_t core_register;
uint32_t stow_port_core(void) { return core_register; }
#endif
#if defined(BENCH_CHIP_LOCK)
static volatile uint32_t spinlock_register = 1u;

void stow_port_chip_lock(void)
{
    while (spinlock_register == 0u) {
    }
    __asm__ volatile("dmb" ::: "memory");
}

void stow_port_chip_unlock(void)
{
    __asm__ volatile("dmb" ::: "memory");
    spinlock_register = 1u;
}
#endif

static void prep_pool(void)
{
    if (!stow_pool_init(&pool, stow_bench_ram, STOW_POOL_BYTES(8u, 8u, BENCH_OPS), 8u, 8u, BENCH_OPS)) {
        stow_bench_fail("multicore", "pool init");
    }
}

static void prep_pool_full(void)
{
    prep_pool();
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        blocks[i] = stow_pool_alloc_atomic(&pool);
        if (blocks[i] == NULL) {
            stow_bench_fail("multicore", "pool full");
        }
    }
}

static void prep_pool_all_freed(void)
{
    prep_pool_full();
    for (uint32_t i = 0; i < BENCH_OPS; i++) {
        stow_pool_free_atomic(&pool, blocks[i]);
    }
}

static BENCH_BARE uint32_t bare_lock(stow_pool_t *p BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void bare_unlock(stow_pool_t *p BENCH_UNUSED, uint32_t s BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE uint32_t bare_enter(void) BENCH_BARE_BODY
static BENCH_BARE void bare_exit(uint32_t s BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void *bare_alloc(stow_pool_t *p BENCH_UNUSED) BENCH_BARE_BODY
static BENCH_BARE void bare_free(stow_pool_t *p BENCH_UNUSED, void *b BENCH_UNUSED) BENCH_BARE_BODY

BENCH_LOOP(run_mc_lock_pair, stow_pool_unlock(&pool, stow_pool_lock(&pool)))
BENCH_LOOP(base_mc_lock_pair, bare_unlock(&pool, bare_lock(&pool)))
BENCH_LOOP(run_mc_critical_pair, stow_port_critical_exit(stow_port_critical_enter()))
BENCH_LOOP(base_mc_critical_pair, bare_exit(bare_enter()))
BENCH_LOOP(run_mc_alloc_fresh, blocks[i] = stow_pool_alloc_atomic(&pool))
BENCH_LOOP(run_mc_alloc, blocks[i] = stow_pool_alloc_atomic(&pool))
BENCH_LOOP(base_mc_alloc, blocks[i] = bare_alloc(&pool))
BENCH_LOOP(run_mc_free, stow_pool_free_atomic(&pool, blocks[i]))
BENCH_LOOP(base_mc_free, bare_free(&pool, blocks[i]))

void stow_bench_multicore(void)
{
    BENCH_ROW_N("pool lock + unlock (a pair, per pair)", prep_pool, run_mc_lock_pair, base_mc_lock_pair,
                BENCH_OPS, 2u * BENCH_OPS);
    BENCH_ROW_N("port critical enter + exit (a pair, per pair)", NULL, run_mc_critical_pair,
                base_mc_critical_pair, BENCH_OPS, 2u * BENCH_OPS);
    BENCH_ROW("pool alloc_atomic (never-used block)", prep_pool, run_mc_alloc_fresh, base_mc_alloc);
    BENCH_ROW("pool alloc_atomic (free list)", prep_pool_all_freed, run_mc_alloc, base_mc_alloc);
    BENCH_ROW("pool free_atomic", prep_pool_full, run_mc_free, base_mc_free);
    if (stow_pool_used(&pool) != 0u || !stow_pool_check(&pool)) {
        stow_bench_fail("multicore", "pool check");
    }
}
