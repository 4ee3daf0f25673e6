/* SPDX-License-Identifier: MIT */
/* tests/smp/stress.c - every core of a multi-core image, and a timer interrupt on
 * every core, use shared containers at once through the calls documented as safe
 * across cores; and each core keeps its own scratch arena and pool (the
 * per-core scratch pattern, docs/multicore.md). Runs under QEMU with
 * multi-threaded TCG, where the cores really run at the same time on the host's
 * CPUs: RISC-V virt with -smp 4 (port/riscv/smp.c) and the two Cortex-M33 of
 * MPS2 AN521 (port/cortex-m/smp.c, built for ARMv8-M or for ARMv6-M with a chip
 * lock, tests/smp/peterson.c). tests/smp/rules.mk builds and runs the variants.
 *
 * Contexts: each core's main loop and its timer handler (RISC-V: the CLINT's
 * machine timer of that hart; Cortex-M: that core's SysTick), 2 * CORES in all,
 * numbered 1 up. Each has its own holdings, counters and random numbers. What
 * they share:
 *   pool        alloc_atomic, free_atomic: blocks of 16 bytes
 *   heap        alloc_isr, realloc_isr, free_isr: 8 to 96 bytes
 *   genpool     insert_isr, read_isr, remove_isr; an item is rewritten only
 *               between lock() and unlock() (get, then the new tag)
 *   slot map    the same (its items move when others are removed)
 *   locked pool lock(), then plain alloc and free of one to three blocks and
 *               used() before and after, which must differ by exactly those
 *               (nobody else is inside), then unlock()
 * Every main loop runs until it has made SMP_OPS / CORES calls; the handlers
 * run whenever their timer fires (every 10 to 100 us of QEMU's clock) and make
 * one or two calls each time.
 *
 * What would show a broken container, lock or port:
 *   - every block, slot and item is checked to be one of its container's and
 *     claimed in an owner table (pool blocks, locked-pool blocks, genpool and
 *     slot-map slots by index) that must show it unclaimed: a double hand-out;
 *     the holder clears its claim before giving the block back, and the
 *     container's own synchronisation orders that before the next hand-out;
 *   - everything handed out carries its holder's tag in every word (heap blocks
 *     too, whose contents realloc must keep), checked before it is given back:
 *     memory written by someone else;
 *   - read_isr of the handle another context publishes must copy a whole item
 *     (its three words agree) of that context, or report it gone;
 *   - per-core scratch: each main loop fills what it took from its own arena
 *     (reset each round) and pool, and checks it after taking the rest;
 *   - after the run, with every timer stopped and everything given back:
 *     used() or count() is 0 for every container, fails counts every NULL each
 *     context got, peak is within capacity, check() passes for all of them, the
 *     heap's largest free block is what it was at the start, and the pool hands
 *     out every block exactly once more; at least SMP_OPS calls in all, and
 *     every core's handler ran and made calls.
 * The first failure stops the run: the first main loop to see it prints
 * "FAIL <what>" and exits with status 1.
 *
 * Broken builds that rules.mk runs and expects to fail: -DSMP_PLAIN=<mask> (the
 * plain calls instead of the shared ones: 1 pool, 2 heap, 4 genpool, 8 slot map,
 * 16 no lock()/unlock() around the locked pool and the item rewrites), the
 * one-core port (port.c without smp.c), and -DSMP_SHARED_SCRATCH (every core
 * takes core 0's scratch arena and pool).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stow/stow.h"
#include "../xorshift.h"

#ifndef SMP_OPS
#define SMP_OPS 1000000u
#endif
#ifndef SMP_PLAIN
#define SMP_PLAIN 0
#endif
#ifndef SMP_SHARED_SCRATCH
#define SMP_SHARED_SCRATCH 0
#endif
/* 1: the port takes the chip lock of tests/smp/peterson.c (ARMv6-M image) */
#ifndef SMP_CHIP_LOCK
#define SMP_CHIP_LOCK 0
#endif
#if SMP_CHIP_LOCK
uint32_t stow_test_chip_locks(void);
#endif

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* ---- the platform: core number, starting the other cores, the timer -------- */

#if defined(__riscv)
#define CORES STOW_RV_HARTS
#define CLINT_MTIMECMP_LO(h) REG32(0x02004000u + 8u * (h))
#define CLINT_MTIMECMP_HI(h) REG32(0x02004004u + 8u * (h))
#define CLINT_MTIME_LO REG32(0x0200BFF8u)
#define CLINT_MTIME_HI REG32(0x0200BFFCu)
#define CLINT_MSIP(h) REG32(0x02000000u + 4u * (h))
#define MIE_MTIE (UINT32_C(1) << 7)
#define MIE_MSIE (UINT32_C(1) << 3)
/* The CLINT counts at 10 MHz: 100 to 1000 ticks are 10 to 100 us. */
#define PERIOD_MIN 100u
#define PERIOD_MAX 1000u

static inline uint32_t core_id(void)
{
    uint32_t hart;
    __asm__ volatile("csrr %0, mhartid" : "=r"(hart));
    return hart;
}

static void timer_next(uint32_t core, uint32_t ticks)
{
    uint32_t hi;
    uint32_t lo;
    do {
        hi = CLINT_MTIME_HI;
        lo = CLINT_MTIME_LO;
    } while (CLINT_MTIME_HI != hi);
    uint32_t at = lo + ticks;
    CLINT_MTIMECMP_HI(core) = UINT32_MAX; /* no early match while the low half changes */
    CLINT_MTIMECMP_LO(core) = at;
    CLINT_MTIMECMP_HI(core) = hi + (at < lo ? 1u : 0u);
}

static void timer_start(uint32_t core)
{
    timer_next(core, PERIOD_MAX);
    __asm__ volatile("csrs mie, %0" : : "r"(MIE_MTIE | MIE_MSIE) : "memory");
}

static void timer_stop(void) { __asm__ volatile("csrc mie, %0" : : "r"(MIE_MTIE | MIE_MSIE) : "memory"); }

/* QEMU delivers the timer from its main loop, which a busy host runs every
 * millisecond or so; a software interrupt that one hart sends another is
 * delivered at once. The main loops send them at random (interrupt_other). */
static void interrupt_other(uint32_t core, uint32_t r)
{
    CLINT_MSIP((core + 1u + (r % (CORES - 1u))) % CORES) = 1u;
}
#else
#define CORES 2u
#define CPU_IDENTITY REG32(0x4001F000u)
#define SYST_CSR REG32(0xE000E010u)
#define SYST_RVR REG32(0xE000E014u)
#define SYST_CVR REG32(0xE000E018u)
#define SYST_ENABLE_TICKINT_CORECLK 7u
/* SysTick on the core clock (25 MHz): 250 to 2500 ticks are 10 to 100 us. */
#define PERIOD_MIN 250u
#define PERIOD_MAX 2500u

void stow_an521_start_core1(void (*fn)(void));

static inline uint32_t core_id(void) { return CPU_IDENTITY; }

static void timer_next(uint32_t core, uint32_t ticks)
{
    (void)core;
    SYST_RVR = ticks; /* taken at the next reload */
}

static void timer_start(uint32_t core)
{
    (void)core;
    SYST_CSR = 0u;
    SYST_RVR = PERIOD_MAX;
    SYST_CVR = 0u;
    SYST_CSR = SYST_ENABLE_TICKINT_CORECLK;
}

static void timer_stop(void)
{
    SYST_CSR = 0u;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}

static void interrupt_other(uint32_t core, uint32_t r)
{
    (void)core;
    (void)r;
}
#endif

#define CONTEXTS (2u * CORES)

/* A full barrier: what one core wrote before it is seen by another core that
 * saw a flag written after it, and read after its own barrier. */
static inline void barrier(void)
{
#if defined(__riscv)
    __asm__ volatile("fence rw, rw" ::: "memory");
#else
    __asm__ volatile("dmb" ::: "memory");
#endif
}

/* ---- the calls under test (SMP_PLAIN: the plain ones) ----------------------- */

#if SMP_PLAIN & 1
#define POOL_ALLOC stow_pool_alloc
#define POOL_FREE stow_pool_free
#else
#define POOL_ALLOC stow_pool_alloc_atomic
#define POOL_FREE stow_pool_free_atomic
#endif
#if SMP_PLAIN & 2
#define HEAP_ALLOC stow_heap_alloc
#define HEAP_REALLOC stow_heap_realloc
#define HEAP_FREE stow_heap_free
#else
#define HEAP_ALLOC stow_heap_alloc_isr
#define HEAP_REALLOC stow_heap_realloc_isr
#define HEAP_FREE stow_heap_free_isr
#endif
#if SMP_PLAIN & 4
#define GP_INSERT stow_genpool_insert
#define GP_REMOVE stow_genpool_remove
static bool gp_read_plain(stow_genpool_t *g, stow_handle_t h, void *out);
#define GP_READ gp_read_plain
#else
#define GP_INSERT stow_genpool_insert_isr
#define GP_REMOVE stow_genpool_remove_isr
#define GP_READ stow_genpool_read_isr
#endif
#if SMP_PLAIN & 8
#define SM_INSERT stow_slotmap_insert
#define SM_REMOVE stow_slotmap_remove
static bool sm_read_plain(stow_slotmap_t *m, stow_handle_t h, void *out);
#define SM_READ sm_read_plain
#else
#define SM_INSERT stow_slotmap_insert_isr
#define SM_REMOVE stow_slotmap_remove_isr
#define SM_READ stow_slotmap_read_isr
#endif
#if SMP_PLAIN & 16
#define LOCKED(kind, c) ((void)(c), 0u)
#define UNLOCKED(kind, c, s) ((void)(c), (void)(s))
#else
#define LOCKED(kind, c) stow_##kind##_lock(c)
#define UNLOCKED(kind, c, s) stow_##kind##_unlock((c), (s))
#endif

/* ---- the shared containers, over storage of the test's own ------------------- */

struct block {
    uint32_t w[4];
};
struct item {
    uint32_t tag, inv, mix;
};

/* Fewer blocks and slots than the contexts can hold at once, so that NULL
 * happens too; the locked pool holds two, and a round may want three. */
#define POOL_CAP (3u * CONTEXTS)
#define QPOOL_CAP 2u
#define HEAP_BYTES (256u * CONTEXTS)
#define GP_CAP (3u * CONTEXTS)
#define SM_CAP (3u * CONTEXTS)

static uint64_t pool_buf[STOW_POOL_BYTES(sizeof(struct block), 8u, POOL_CAP) / 8u + 1u];
static uint64_t qpool_buf[STOW_POOL_BYTES(sizeof(struct block), 8u, QPOOL_CAP) / 8u + 1u];
static STOW_ALIGNAS(STOW_HEAP_ALIGN) unsigned char heap_buf[HEAP_BYTES];
static uint64_t gp_buf[STOW_GENPOOL_BYTES(sizeof(struct item), 4u, GP_CAP) / 8u + 1u];
static uint64_t sm_buf[STOW_SLOTMAP_BYTES(sizeof(struct item), 4u, SM_CAP) / 8u + 1u];
static stow_pool_t pool;
static stow_pool_t qpool;
static stow_heap_t heap;
static stow_genpool_t gp;
static stow_slotmap_t sm;
static size_t heap_largest_at_start;

/* Owner tables: the context holding each pool block and each genpool and slot-map
 * slot, 0 for nobody. */
static volatile uint8_t pool_owner[POOL_CAP];
static volatile uint8_t qpool_owner[QPOOL_CAP];
static volatile uint8_t gp_owner[GP_CAP];
static volatile uint8_t sm_owner[SM_CAP];
/* One live handle of each context's, for the others' read_isr (0: none). */
static volatile uint32_t gp_public[CONTEXTS + 1u];
static volatile uint32_t sm_public[CONTEXTS + 1u];

/* ---- per-core scratch: no sharing, no locks ------------------------------------ */

#define SCRATCH_ARENA_BYTES 256u
#define SCRATCH_POOL_CAP 6u
#define SCRATCH_HELD 4u
static uint64_t scratch_arena_buf[CORES][SCRATCH_ARENA_BYTES / 8u];
static uint64_t scratch_pool_buf[CORES][STOW_POOL_BYTES(sizeof(struct block), 8u, SCRATCH_POOL_CAP) / 8u + 1u];
static stow_arena_t scratch_arena[CORES];
static stow_pool_t scratch_pool[CORES];

/* ---- contexts ----------------------------------------------------------------- */

#define HOLD_POOL 4u
#define HOLD_HEAP 4u
#define HOLD_ITEMS 4u

struct heap_block {
    uint32_t *p;
    uint32_t words;
};

struct context {
    uint32_t id;     /* 1 up: core * 2 + 1 for the main loop, + 2 for the handler */
    uint32_t core;
    uint32_t rand;
    uint32_t serial;
    uint32_t calls;
    uint32_t pool_nulls, qpool_nulls, heap_nulls, gp_nulls, sm_nulls;
    struct block *pool_held[HOLD_POOL];
    uint32_t pool_count;
    struct heap_block heap_held[HOLD_HEAP];
    uint32_t heap_count;
    stow_handle_t gp_held[HOLD_ITEMS];
    uint32_t gp_count;
    stow_handle_t sm_held[HOLD_ITEMS];
    uint32_t sm_count;
    /* per-core scratch (main loops only) */
    struct block *scratch_held[SCRATCH_HELD];
    uint32_t scratch_count;
    uint32_t scratch_rounds;
};

static struct context contexts[CONTEXTS + 1u];
static volatile const char *failure;
static volatile uint32_t begin;         /* core 0 has set everything up */
static volatile uint32_t done[CORES];   /* each core's main loop has finished */
static volatile uint32_t interrupts[CORES];       /* timer */
static volatile uint32_t other_interrupts[CORES]; /* sent by another core */

static void fail(const char *what)
{
    if (failure == NULL) {
        failure = what;
    }
}

static inline uint32_t below(uint32_t r, uint32_t n) { return (uint32_t)(((uint64_t)r * n) >> 32); }

static uint32_t new_tag(struct context *c)
{
    c->serial++;
    return (c->id << 24) ^ (c->serial & 0xFFFFFFu) ^ 0x00A50000u;
}

static bool in_range(const void *p, const void *lo, size_t bytes, size_t size)
{
    uintptr_t a = (uintptr_t)p;
    uintptr_t b = (uintptr_t)lo;
    return a >= b && a - b <= bytes - size;
}

static void fill_block(struct block *b, uint32_t tag)
{
    for (uint32_t k = 0u; k < 4u; k++) {
        b->w[k] = tag + k;
    }
}

static bool block_is(const struct block *b, uint32_t tag)
{
    for (uint32_t k = 0u; k < 4u; k++) {
        if (b->w[k] != tag + k) {
            return false;
        }
    }
    return true;
}

/* A block's tag is in its last word, which the free-list link never overlays. */
static uint32_t block_tag(const struct block *b) { return b->w[3] - 3u; }

static struct item item_of(uint32_t tag)
{
    struct item it = {tag, ~tag, tag * 0x9E3779B9u};
    return it;
}

static bool item_is_whole(const struct item *it)
{
    return it->inv == ~it->tag && it->mix == it->tag * 0x9E3779B9u;
}

#if SMP_PLAIN & 4
static bool gp_read_plain(stow_genpool_t *g, stow_handle_t h, void *out)
{
    const struct item *it = (const struct item *)stow_genpool_get(g, h);
    if (it == NULL) {
        return false;
    }
    *(struct item *)out = *it;
    return true;
}
#endif

#if SMP_PLAIN & 8
static bool sm_read_plain(stow_slotmap_t *m, stow_handle_t h, void *out)
{
    const struct item *it = (const struct item *)stow_slotmap_get(m, h);
    if (it == NULL) {
        return false;
    }
    *(struct item *)out = *it;
    return true;
}
#endif

/* ---- the shared pool ------------------------------------------------------------ */

static uint32_t block_index(const stow_pool_t *p, const void *buf, size_t bytes, const struct block *b)
{
    if (!in_range(b, buf, bytes, sizeof *b) || ((uintptr_t)b - (uintptr_t)buf) % sizeof *b != 0u) {
        fail("a pool handed out a pointer that is not one of its blocks");
        return UINT32_MAX;
    }
    (void)p;
    return (uint32_t)(((uintptr_t)b - (uintptr_t)buf) / sizeof *b);
}

static void pool_take(struct context *c)
{
    if (c->pool_count == HOLD_POOL) {
        return;
    }
    struct block *b = (struct block *)POOL_ALLOC(&pool);
    c->calls++;
    if (b == NULL) {
        c->pool_nulls++;
        return;
    }
    uint32_t i = block_index(&pool, pool_buf, POOL_CAP * sizeof *b, b);
    if (i == UINT32_MAX) {
        return;
    }
    if (pool_owner[i] != 0u) {
        fail("pool: a block was handed out while someone held it");
        return;
    }
    pool_owner[i] = (uint8_t)c->id;
    fill_block(b, new_tag(c));
    c->pool_held[c->pool_count++] = b;
}

static void pool_give(struct context *c, uint32_t k)
{
    struct block *b = c->pool_held[k];
    uint32_t i = (uint32_t)(((uintptr_t)b - (uintptr_t)pool_buf) / sizeof *b);
    if (!block_is(b, block_tag(b)) || (block_tag(b) >> 24) != c->id) {
        fail("pool: a held block was written by someone else");
        return;
    }
    if (pool_owner[i] != c->id) {
        fail("pool: the owner record of a held block changed");
        return;
    }
    pool_owner[i] = 0u;
    c->pool_held[k] = c->pool_held[--c->pool_count];
    POOL_FREE(&pool, b);
    c->calls++;
}

/* ---- the heap -------------------------------------------------------------------- */

static void heap_fill(uint32_t *p, uint32_t words, uint32_t tag)
{
    for (uint32_t k = 0u; k < words; k++) {
        p[k] = tag ^ (k * 0x01000193u);
    }
}

static bool heap_is(const uint32_t *p, uint32_t words, uint32_t tag)
{
    for (uint32_t k = 0u; k < words; k++) {
        if (p[k] != (tag ^ (k * 0x01000193u))) {
            return false;
        }
    }
    return true;
}

static bool heap_block_ok(const struct heap_block *hb, uint32_t id)
{
    return (hb->p[0] >> 24) == id && heap_is(hb->p, hb->words, hb->p[0]);
}

static bool heap_pointer_ok(const void *p, uint32_t words)
{
    if (!in_range(p, heap_buf, sizeof heap_buf, words * 4u) || (uintptr_t)p % 4u != 0u) {
        fail("heap: a pointer outside the heap's storage");
        return false;
    }
    return true;
}

static void heap_take(struct context *c, uint32_t r)
{
    if (c->heap_count == HOLD_HEAP) {
        return;
    }
    uint32_t words = 2u + 2u * below(r, 12u); /* 8 to 96 bytes */
    uint32_t *p = (uint32_t *)HEAP_ALLOC(&heap, words * 4u);
    c->calls++;
    if (p == NULL) {
        c->heap_nulls++;
        return;
    }
    if (!heap_pointer_ok(p, words)) {
        return;
    }
    heap_fill(p, words, new_tag(c));
    c->heap_held[c->heap_count].p = p;
    c->heap_held[c->heap_count].words = words;
    c->heap_count++;
}

static void heap_resize(struct context *c, uint32_t k, uint32_t r)
{
    struct heap_block *hb = &c->heap_held[k];
    if (!heap_block_ok(hb, c->id)) {
        fail("heap: a held block was written by someone else");
        return;
    }
    uint32_t tag = hb->p[0];
    uint32_t words = 2u + 2u * below(r, 12u);
    uint32_t *p = (uint32_t *)HEAP_REALLOC(&heap, hb->p, words * 4u);
    c->calls++;
    if (p == NULL) {
        c->heap_nulls++; /* the block stays as it was */
        return;
    }
    if (!heap_pointer_ok(p, words)) {
        return;
    }
    uint32_t kept = words < hb->words ? words : hb->words;
    if (!heap_is(p, kept, tag)) {
        fail("heap: realloc did not keep the contents");
        return;
    }
    hb->p = p;
    hb->words = words;
    heap_fill(p, words, new_tag(c));
}

static void heap_give(struct context *c, uint32_t k)
{
    struct heap_block *hb = &c->heap_held[k];
    if (!heap_block_ok(hb, c->id)) {
        fail("heap: a held block was written by someone else");
        return;
    }
    uint32_t *p = hb->p;
    *hb = c->heap_held[--c->heap_count];
    HEAP_FREE(&heap, p);
    c->calls++;
}

/* ---- genpool and slot map: the same steps on both ----------------------------------- */

static void publish(volatile uint32_t *table, const struct context *c, const stow_handle_t *held,
                    uint32_t count)
{
    table[c->id] = count == 0u ? 0u : held[count - 1u].bits;
}

static void gp_insert(struct context *c)
{
    if (c->gp_count == HOLD_ITEMS) {
        return;
    }
    struct item it = item_of(new_tag(c));
    stow_handle_t h = GP_INSERT(&gp, &it);
    c->calls++;
    if (h.bits == 0u) {
        c->gp_nulls++;
        return;
    }
    uint32_t i = h.bits & STOW_HANDLE_INDEX_MASK;
    if (i >= GP_CAP) {
        fail("genpool: a handle beyond the capacity");
        return;
    }
    if (gp_owner[i] != 0u) {
        fail("genpool: a slot was handed out while someone held it");
        return;
    }
    gp_owner[i] = (uint8_t)c->id;
    c->gp_held[c->gp_count++] = h;
    publish(gp_public, c, c->gp_held, c->gp_count);
}

static void gp_remove(struct context *c, uint32_t k)
{
    stow_handle_t h = c->gp_held[k];
    struct item copy;
    bool ok = GP_READ(&gp, h, &copy);
    c->calls++;
    if (!ok || !item_is_whole(&copy) || (copy.tag >> 24) != c->id) {
        fail("genpool: a held item was lost or written by someone else");
        return;
    }
    uint32_t i = h.bits & STOW_HANDLE_INDEX_MASK;
    if (gp_owner[i] != c->id) {
        fail("genpool: the owner record of a held slot changed");
        return;
    }
    c->gp_held[k] = c->gp_held[--c->gp_count];
    publish(gp_public, c, c->gp_held, c->gp_count);
    gp_owner[i] = 0u;
    if (!GP_REMOVE(&gp, h)) {
        fail("genpool: remove_isr refused a live handle");
    }
    c->calls++;
}

/* lock(), get, write a new tag over the whole item, unlock(): a reader elsewhere
 * sees the old item or the new one, never a mix. */
static void gp_rewrite(struct context *c, uint32_t k)
{
    uint32_t state = LOCKED(genpool, &gp);
    struct item *it = (struct item *)stow_genpool_get(&gp, c->gp_held[k]);
    if (it == NULL || !in_range(it, gp_buf, sizeof gp_buf, sizeof *it) || (it->tag >> 24) != c->id) {
        UNLOCKED(genpool, &gp, state);
        fail("genpool: a held item was lost or written by someone else");
        return;
    }
    uint32_t tag = new_tag(c);
    it->tag = tag;
    it->inv = ~tag;
    it->mix = tag * 0x9E3779B9u;
    UNLOCKED(genpool, &gp, state);
    c->calls++;
}

static void gp_read_other(struct context *c, uint32_t r)
{
    uint32_t other = 1u + below(r, CONTEXTS);
    stow_handle_t h = {gp_public[other]};
    struct item copy;
    if (GP_READ(&gp, h, &copy) && (!item_is_whole(&copy) || (copy.tag >> 24) != other)) {
        fail("genpool: read_isr copied a torn item or another context's");
    }
    c->calls++;
}

static void sm_insert(struct context *c)
{
    if (c->sm_count == HOLD_ITEMS) {
        return;
    }
    struct item it = item_of(new_tag(c));
    stow_handle_t h = SM_INSERT(&sm, &it);
    c->calls++;
    if (h.bits == 0u) {
        c->sm_nulls++;
        return;
    }
    uint32_t i = h.bits & STOW_HANDLE_INDEX_MASK;
    if (i >= SM_CAP) {
        fail("slotmap: a handle beyond the capacity");
        return;
    }
    if (sm_owner[i] != 0u) {
        fail("slotmap: a slot was handed out while someone held it");
        return;
    }
    sm_owner[i] = (uint8_t)c->id;
    c->sm_held[c->sm_count++] = h;
    publish(sm_public, c, c->sm_held, c->sm_count);
}

static void sm_remove(struct context *c, uint32_t k)
{
    stow_handle_t h = c->sm_held[k];
    struct item copy;
    bool ok = SM_READ(&sm, h, &copy);
    c->calls++;
    if (!ok || !item_is_whole(&copy) || (copy.tag >> 24) != c->id) {
        fail("slotmap: a held item was lost or written by someone else");
        return;
    }
    uint32_t i = h.bits & STOW_HANDLE_INDEX_MASK;
    if (sm_owner[i] != c->id) {
        fail("slotmap: the owner record of a held slot changed");
        return;
    }
    c->sm_held[k] = c->sm_held[--c->sm_count];
    publish(sm_public, c, c->sm_held, c->sm_count);
    sm_owner[i] = 0u;
    if (!SM_REMOVE(&sm, h)) {
        fail("slotmap: remove_isr refused a live handle");
    }
    c->calls++;
}

static void sm_rewrite(struct context *c, uint32_t k)
{
    uint32_t state = LOCKED(slotmap, &sm);
    struct item *it = (struct item *)stow_slotmap_get(&sm, c->sm_held[k]);
    if (it == NULL || !in_range(it, sm_buf, sizeof sm_buf, sizeof *it) || (it->tag >> 24) != c->id) {
        UNLOCKED(slotmap, &sm, state);
        fail("slotmap: a held item was lost or written by someone else");
        return;
    }
    uint32_t tag = new_tag(c);
    it->tag = tag;
    it->inv = ~tag;
    it->mix = tag * 0x9E3779B9u;
    UNLOCKED(slotmap, &sm, state);
    c->calls++;
}

static void sm_read_other(struct context *c, uint32_t r)
{
    uint32_t other = 1u + below(r, CONTEXTS);
    stow_handle_t h = {sm_public[other]};
    struct item copy;
    if (SM_READ(&sm, h, &copy) && (!item_is_whole(&copy) || (copy.tag >> 24) != other)) {
        fail("slotmap: read_isr copied a torn item or another context's");
    }
    c->calls++;
}

/* ---- lock() and unlock() around plain calls -------------------------------------------- */

static void qpool_round(struct context *c, uint32_t r)
{
    struct block *got[3];
    uint32_t want = 1u + below(r, 3u);
    uint32_t state = LOCKED(pool, &qpool);
    uint32_t before = stow_pool_used(&qpool);
    uint32_t n = 0u;
    for (uint32_t k = 0u; k < want; k++) {
        struct block *b = (struct block *)stow_pool_alloc(&qpool);
        if (b == NULL) {
            c->qpool_nulls++;
            continue;
        }
        uint32_t i = block_index(&qpool, qpool_buf, QPOOL_CAP * sizeof *b, b);
        if (i == UINT32_MAX) {
            break;
        }
        if (qpool_owner[i] != 0u) {
            fail("locked pool: a block was handed out while someone held it");
            break;
        }
        qpool_owner[i] = (uint8_t)c->id;
        fill_block(b, new_tag(c));
        got[n++] = b;
    }
    if (stow_pool_used(&qpool) != before + n) {
        fail("locked pool: used() changed under the lock by more than this context's calls");
    }
    while (n != 0u) {
        struct block *b = got[--n];
        uint32_t i = (uint32_t)(((uintptr_t)b - (uintptr_t)qpool_buf) / sizeof *b);
        if (!block_is(b, block_tag(b)) || (block_tag(b) >> 24) != c->id || qpool_owner[i] != c->id) {
            fail("locked pool: a block was written by someone else under the lock");
        }
        qpool_owner[i] = 0u;
        stow_pool_free(&qpool, b);
    }
    if (stow_pool_used(&qpool) != before) {
        fail("locked pool: used() changed under the lock by more than this context's calls");
    }
    UNLOCKED(pool, &qpool, state);
    c->calls += want + 1u;
}

/* ---- one step of a context ------------------------------------------------------------------ */

static void step(struct context *c)
{
    uint32_t r = stow_test_xorshift(&c->rand);
    uint32_t r2 = stow_test_xorshift(&c->rand);
    switch (r & 15u) {
    case 0: case 1: case 2: case 3:
        if (c->pool_count != 0u && below(r2, HOLD_POOL + 1u) < c->pool_count) {
            pool_give(c, below(r2, c->pool_count));
        } else {
            pool_take(c);
        }
        break;
    case 4: case 5: case 6:
        if (c->heap_count != 0u && below(r2, HOLD_HEAP + 1u) < c->heap_count) {
            if ((r2 & 3u) == 0u) {
                heap_resize(c, below(r2, c->heap_count), r);
            } else {
                heap_give(c, below(r2, c->heap_count));
            }
        } else {
            heap_take(c, r2);
        }
        break;
    case 7: case 8: case 9:
        if ((r2 & 3u) == 0u) {
            gp_read_other(c, r2);
        } else if (c->gp_count != 0u && (r2 & 4u) != 0u) {
            gp_rewrite(c, below(r2, c->gp_count));
        } else if (c->gp_count != 0u && below(r2, HOLD_ITEMS + 1u) < c->gp_count) {
            gp_remove(c, below(r2, c->gp_count));
        } else {
            gp_insert(c);
        }
        break;
    case 10: case 11: case 12:
        if ((r2 & 3u) == 0u) {
            sm_read_other(c, r2);
        } else if (c->sm_count != 0u && (r2 & 4u) != 0u) {
            sm_rewrite(c, below(r2, c->sm_count));
        } else if (c->sm_count != 0u && below(r2, HOLD_ITEMS + 1u) < c->sm_count) {
            sm_remove(c, below(r2, c->sm_count));
        } else {
            sm_insert(c);
        }
        break;
    default:
        qpool_round(c, r2);
        break;
    }
}

/* ---- per-core scratch ----------------------------------------------------------------------- */

static void scratch_round(struct context *c)
{
    uint32_t mine = SMP_SHARED_SCRATCH ? 0u : c->core;
    stow_arena_t *a = &scratch_arena[mine];
    stow_pool_t *p = &scratch_pool[mine];
    uint32_t r = stow_test_xorshift(&c->rand);
    uint32_t *part[5];
    uint32_t words[5];
    uint32_t tag = new_tag(c);
    uint32_t n = 2u + below(r, 4u);

    stow_arena_reset(a);
    for (uint32_t j = 0u; j < n; j++) {
        words[j] = 2u + ((r >> (4u * j)) & 7u); /* at most 5 * 36 bytes of 256 */
        part[j] = (uint32_t *)stow_arena_alloc(a, words[j] * 4u, 4u);
        if (part[j] == NULL || !in_range(part[j], scratch_arena_buf[mine], SCRATCH_ARENA_BYTES, words[j] * 4u)) {
            fail("scratch: the core's own arena refused a part that fits");
            return;
        }
        heap_fill(part[j], words[j], tag + j);
    }
    for (uint32_t j = 0u; j < n; j++) {
        if (!heap_is(part[j], words[j], tag + j)) {
            fail("scratch: a part of the core's own arena was written by someone else");
            return;
        }
    }
    if (c->scratch_count == SCRATCH_HELD) {
        struct block *b = c->scratch_held[0];
        if (!block_is(b, block_tag(b)) || (block_tag(b) >> 24) != c->id) {
            fail("scratch: a block of the core's own pool was written by someone else");
            return;
        }
        stow_pool_free(p, b);
        c->scratch_held[0] = c->scratch_held[--c->scratch_count];
    }
    struct block *b = (struct block *)stow_pool_alloc(p);
    if (b == NULL) {
        fail("scratch: the core's own pool ran dry (it holds more than this core takes)");
        return;
    }
    fill_block(b, tag);
    c->scratch_held[c->scratch_count++] = b;
    c->scratch_rounds++;
}

/* ---- the handlers and the main loops ---------------------------------------------------------- */

static void isr(bool timer)
{
    uint32_t core = core_id();
    struct context *c = &contexts[2u * core + 2u];
    uint32_t r = stow_test_xorshift(&c->rand);
    if (timer) {
        timer_next(core, PERIOD_MIN + below(r, PERIOD_MAX - PERIOD_MIN + 1u));
        interrupts[core]++;
    } else {
        other_interrupts[core]++;
    }
    if (failure != NULL) {
        return; /* a container is broken: stop using them, so that the report gets out */
    }
    for (uint32_t n = 1u + (r & 7u); n != 0u; n--) {
        step(c);
    }
}

#if defined(__riscv)
void stow_riscv_timer_interrupt(void);
void stow_riscv_timer_interrupt(void) { isr(true); }
void stow_riscv_software_interrupt(void);
void stow_riscv_software_interrupt(void)
{
    CLINT_MSIP(core_id()) = 0u;
    isr(false);
}
#else
void SysTick_Handler(void);
void SysTick_Handler(void) { isr(true); }
#endif

/* One write, so that two cores that report at once (a broken build) print two
 * whole lines. */
static void report_and_exit(uint32_t core)
{
    char line[160];
    size_t n = 0u;
    const char *parts[3] = {"FAIL ", (const char *)(uintptr_t)failure, " (seen by core "};
    for (uint32_t k = 0u; k < 3u; k++) {
        for (const char *t = parts[k]; *t != '\0' && n < sizeof line - 8u; t++) {
            line[n++] = *t;
        }
    }
    line[n++] = (char)('0' + (char)(core % 10u));
    line[n++] = ')';
    line[n++] = '\n';
    stow_port_write(line, n);
    stow_port_exit(1);
}

static void core_loop(uint32_t core)
{
    struct context *c = &contexts[2u * core + 1u];
    timer_start(core);
    while (c->calls < SMP_OPS / CORES) {
        if (failure != NULL) {
            report_and_exit(core);
        }
        step(c);
        if ((c->rand & 7u) == 0u) {
            scratch_round(c);
        }
        if ((c->rand & 0x78u) == 0u) {
            interrupt_other(core, c->rand >> 8);
        }
    }
    timer_stop();
    barrier();
    done[core] = 1u;
}

static void core_main(uint32_t core)
{
    while (begin == 0u) {
    }
    barrier();
    core_loop(core);
    while (failure == NULL) {
    }
    report_and_exit(core);
}

#if defined(__riscv)
void stow_riscv_hart_main(uint32_t hart);
void stow_riscv_hart_main(uint32_t hart) { core_main(hart); }
#else
static void core1_main(void) { core_main(1u); }
#endif

static uint32_t passed;
static uint32_t failed;

static void result(bool ok, const char *what)
{
    stow_print(ok ? "ok   " : "FAIL ");
    stow_print(what);
    stow_print("\n");
    if (ok) {
        passed++;
    } else {
        failed++;
    }
}

static void set_up(void)
{
    bool ok = stow_pool_init(&pool, pool_buf, sizeof pool_buf, sizeof(struct block), 8u, POOL_CAP) &&
              stow_pool_init(&qpool, qpool_buf, sizeof qpool_buf, sizeof(struct block), 8u, QPOOL_CAP) &&
              stow_heap_init(&heap, heap_buf, sizeof heap_buf) &&
              stow_genpool_init(&gp, gp_buf, sizeof gp_buf, sizeof(struct item), 4u, GP_CAP) &&
              stow_slotmap_init(&sm, sm_buf, sizeof sm_buf, sizeof(struct item), 4u, SM_CAP);
    for (uint32_t k = 0u; k < CORES; k++) {
        ok = ok && stow_arena_init(&scratch_arena[k], scratch_arena_buf[k], sizeof scratch_arena_buf[k]) &&
             stow_pool_init(&scratch_pool[k], scratch_pool_buf[k], sizeof scratch_pool_buf[k],
                            sizeof(struct block), 8u, SCRATCH_POOL_CAP);
    }
    if (!ok) {
        stow_print("FAIL setting up the containers\n");
        stow_port_exit(1);
    }
    heap_largest_at_start = stow_heap_largest_free(&heap);
    for (uint32_t id = 1u; id <= CONTEXTS; id++) {
        contexts[id].id = id;
        contexts[id].core = (id - 1u) / 2u;
        contexts[id].rand = 0x9E3779B9u * id + 0x2545F491u;
    }
}

/* Everything every context holds goes back (every core is done: no call runs). */
static void give_everything_back(void)
{
    for (uint32_t id = 1u; id <= CONTEXTS; id++) {
        struct context *c = &contexts[id];
        while (c->pool_count != 0u) {
            pool_give(c, 0u);
        }
        while (c->heap_count != 0u) {
            heap_give(c, 0u);
        }
        while (c->gp_count != 0u) {
            gp_remove(c, 0u);
        }
        while (c->sm_count != 0u) {
            sm_remove(c, 0u);
        }
        while (c->scratch_count != 0u) {
            stow_pool_free(&scratch_pool[SMP_SHARED_SCRATCH ? 0u : c->core], c->scratch_held[--c->scratch_count]);
        }
    }
}

static void final_checks(void)
{
    uint32_t calls = 0u;
    uint32_t pool_nulls = 0u, qpool_nulls = 0u, heap_nulls = 0u, gp_nulls = 0u, sm_nulls = 0u;
    uint32_t handler_calls_everywhere = 1u;
    uint32_t fewest_interrupts = UINT32_MAX;
    uint32_t scratch_rounds = 0u;
    for (uint32_t id = 1u; id <= CONTEXTS; id++) {
        const struct context *c = &contexts[id];
        calls += c->calls;
        pool_nulls += c->pool_nulls;
        qpool_nulls += c->qpool_nulls;
        heap_nulls += c->heap_nulls;
        gp_nulls += c->gp_nulls;
        sm_nulls += c->sm_nulls;
        scratch_rounds += c->scratch_rounds;
        if (id % 2u == 0u && c->calls == 0u) {
            handler_calls_everywhere = 0u;
        }
    }
    for (uint32_t k = 0u; k < CORES; k++) {
        fewest_interrupts = interrupts[k] < fewest_interrupts ? interrupts[k] : fewest_interrupts;
    }
    stow_print("  calls: ");
    stow_print_u(calls, 0u);
    stow_print(" by ");
    stow_print_u(CONTEXTS, 0u);
    stow_print(" contexts on ");
    stow_print_u(CORES, 0u);
    stow_print(" cores; handler runs per core (timer/sent):");
    for (uint32_t k = 0u; k < CORES; k++) {
        stow_print(" ");
        stow_print_u(interrupts[k], 0u);
        stow_print("/");
        stow_print_u(other_interrupts[k], 0u);
    }
    stow_print("; scratch rounds: ");
    stow_print_u(scratch_rounds, 0u);
    stow_print("; NULL returned: ");
    stow_print_u(pool_nulls + qpool_nulls + heap_nulls + gp_nulls + sm_nulls, 0u);
    stow_print("\n");
    result(calls >= SMP_OPS, "at least SMP_OPS calls in all");
    result(fewest_interrupts >= 100u && handler_calls_everywhere != 0u,
           "every core's timer handler ran at least 100 times and made calls");

    give_everything_back();
    result(failure == NULL, "everything came back as it was handed out");

    stow_stats_t s;
    stow_pool_stats(&pool, &s);
    result(s.used == 0u && s.fails == pool_nulls && s.peak <= POOL_CAP && stow_pool_check(&pool),
           "pool: used 0, fails counts every NULL, peak within capacity, check() passes");
    stow_pool_stats(&qpool, &s);
    result(s.used == 0u && s.fails == qpool_nulls && stow_pool_check(&qpool),
           "locked pool: used 0, fails counts every NULL, check() passes");
    stow_heap_stats(&heap, &s);
    result(s.used == 0u && s.fails == heap_nulls && stow_heap_check(&heap) &&
               stow_heap_largest_free(&heap) == heap_largest_at_start,
           "heap: used 0, fails counts every NULL, check() passes, one free block as at the start");
    stow_genpool_stats(&gp, &s);
    result(s.used == 0u && stow_genpool_count(&gp) == 0u && s.fails == gp_nulls && s.peak <= GP_CAP &&
               stow_genpool_check(&gp),
           "genpool: count 0, fails counts every refusal, check() passes");
    stow_slotmap_stats(&sm, &s);
    result(s.used == 0u && stow_slotmap_count(&sm) == 0u && s.fails == sm_nulls && s.peak <= SM_CAP &&
               stow_slotmap_check(&sm),
           "slotmap: count 0, fails counts every refusal, check() passes");
    bool scratch_ok = scratch_rounds > 0u;
    for (uint32_t k = 0u; k < CORES; k++) {
        stow_pool_stats(&scratch_pool[k], &s);
        scratch_ok = scratch_ok && s.used == 0u && s.fails == 0u && stow_pool_check(&scratch_pool[k]) &&
                     stow_arena_check(&scratch_arena[k]);
    }
    result(scratch_ok, "per-core scratch: every core's arena and pool check() clean, nothing refused");
#if SMP_CHIP_LOCK
    stow_print("  chip lock taken ");
    stow_print_u(stow_test_chip_locks(), 0u);
    stow_print(" times\n");
    result(stow_test_chip_locks() >= SMP_OPS / 10u, "the port took every word through the chip lock hook");
#endif

    uint32_t got = 0u;
    bool distinct = true;
    for (uint32_t i = 0u; i < POOL_CAP; i++) {
        struct block *b = (struct block *)POOL_ALLOC(&pool);
        if (b == NULL || !stow_pool_owns(&pool, b)) {
            break;
        }
        uint32_t k = (uint32_t)(((uintptr_t)b - (uintptr_t)pool_buf) / sizeof *b);
        distinct = distinct && pool_owner[k] == 0u;
        pool_owner[k] = 1u;
        got++;
    }
    result(got == POOL_CAP && distinct && POOL_ALLOC(&pool) == NULL,
           "pool: afterwards every block comes out exactly once, then NULL");
}

int main(void)
{
    stow_print("smp stress: ");
    stow_print_u(CORES, 0u);
    stow_print(" cores, a timer interrupt on each, check level ");
    stow_print_u(STOW_CHECK_LEVEL, 0u);
#if SMP_PLAIN
    stow_print(", plain calls (expected to fail)");
#endif
#if SMP_SHARED_SCRATCH
    stow_print(", one scratch for all cores (expected to fail)");
#endif
    stow_print("\n");
    set_up();
    barrier();
    begin = 1u;
#if !defined(__riscv)
    stow_an521_start_core1(core1_main);
#endif
    core_loop(0u);
    for (uint32_t k = 0u; k < CORES; k++) {
        while (done[k] == 0u) {
            if (failure != NULL) {
                report_and_exit(0u);
            }
        }
    }
    barrier();
    if (failure != NULL) {
        report_and_exit(0u);
    }
    final_checks();
    stow_print_u(passed, 0u);
    stow_print(" passed, ");
    stow_print_u(failed, 0u);
    stow_print(" failed\n");
    return failed == 0u ? 0 : 1;
}
