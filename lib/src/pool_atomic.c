/* SPDX-License-Identifier: MIT */
/* pool_atomic.c - stow_pool_alloc_atomic() and stow_pool_free_atomic(): the pool's
 * free list taken and given back without a lock where the core allows it. See
 * stow/pool.h for the contract; pool.c for the representation, which these calls
 * share: blocks below bump are in use or on a NULL-terminated free list threaded
 * through their first pointer, free_count counts that list, bump only grows
 * between resets.
 *
 * Four builds (STOW__POOL_ATOMIC, picked in pool.h from the compiler's macros and
 * STOW_MULTICORE):
 *
 * EXCLUSIVE (one core of ARMv7-M, ARMv8-M mainline and baseline: every M-profile
 * core with LDREX/STREX, built without STOW_MULTICORE). Pop: LDREX the head b,
 * read b's link, STREX the link into the head; push: LDREX the head, write it
 * into the block's link, STREX the block. free_count, fails and bump change by
 * LDREX/STREX loops of their own. Why a pop cannot take a stale link (the ABA
 * problem of a compare-and-swap list): the STREX succeeds only if the local
 * monitor is still armed by the LDREX, and an M-profile core clears it on every
 * exception entry and return (the architecture's ExceptionTaken and
 * ExceptionReturn do ClearExclusiveLocal). So a STREX that succeeds ran with no
 * handler between it and its LDREX: the head, and b's link, are what they were
 * at the LDREX, and the pop is as if it had run with interrupts masked. Inside
 * the window there are loads (the link, and at level 2 its test) and, in a
 * push, the store of the link into the block being pushed: a plain store to an
 * address other than the head's leaves the local monitor as it is (unoptimised
 * level-2 builds also call the link test there, whose stack stores are to other
 * addresses too). This argument is for one core: another core's store clears
 * the reservation only where a global monitor covers the memory, QEMU's
 * emulation compares values instead (a head that went away and came back
 * passes), and these calls carry no barrier. Several cores take TAGGED.
 *
 * PRIMASK (ARMv6-M: no exclusives). The few loads and stores of a pop or push
 * with PRIMASK set, saved and restored (so it nests); everything that can run
 * outside the section does (contract checks, poison fill and check, reports).
 *
 * TAGGED (hosts with lock-free 64-bit atomics: x86-64, i686, AArch64...; RV32
 * with the A extension; ARMv7-M and ARMv8-M built with STOW_MULTICORE). The head
 * is one word, tagged_head, of 64 bits on hosts and 32 on the others: the head
 * block's index plus one (0 for an empty list) in its low bits and a tag above
 * them that every successful compare-and-swap of the head increments. A pop
 * reads the head, reads the head block's link, and swaps in (the link's index +
 * 1, tag + 1); if between the read and the swap another context popped b, used
 * it and pushed it back (head equal again, link changed), the tag differs and
 * the swap fails. The ABA guard is this tag, not a reservation: a C11
 * compare-and-swap compares values, and so do the LR/SC and LDREX/STREX that
 * implement it wherever the reservation is emulated (QEMU, on every core
 * family) or lost less often than it should be (RISC-V lets a hart's own
 * handler leave a reservation standing; a global monitor may not cover the
 * memory). The split of the word: 64 bits, the index in the low 32 and the tag
 * in the high 32, so it takes exactly 2^32 swaps inside one call's window to
 * fool a pop. 32 bits, the index in the low k bits, k the bits of capacity
 * (tagged_mask() = 2^k - 1, the smallest such mask >= capacity >= index + 1),
 * and the tag in the 32 - k bits above: (h | mask) + 1 adds one to the tag and
 * clears the index in one addition (the carry out of bit 31 is dropped: the tag
 * wraps). It takes 2^(32 - k) swaps inside one window: 2^22 for a pool of 1000
 * blocks, 2^16 for 65535. (A 32-bit core holds at most 2^30 blocks of 4 bytes,
 * so the tag never has fewer than 2 bits; a pool that large would need a
 * 64-bit word.) The link read may read a block that another context has just
 * taken and is writing: that read is a deliberate race whose value is used only
 * if the swap then succeeds, which proves nobody took the block meanwhile; it is
 * one aligned pointer load (volatile), in a function ThreadSanitizer does not
 * check. Push releases the head (so the block's link and contents written
 * before are seen by whoever pops it, on any core: on ARMv7-M and ARMv8-M the
 * compiler puts a DMB around the LDREX/STREX loop, on RISC-V the aq and rl bits
 * of LR/SC) and pop acquires it. The plain calls keep their head in free_list;
 * this list is the other one, and check() and reset() handle both.
 *
 * PORT (RV32 without the A extension, ARMv6-M built with STOW_MULTICORE, and
 * anything else without lock-free 32-bit atomics): the PRIMASK build's code
 * inside stow_port_critical_enter()/exit(), which a port for several cores makes
 * a lock that the other cores respect (stow/port.h).
 *
 * Counters: a pop and its free_count decrement are two atomic steps, so between
 * them (and between a push and its increment) free_count is off by the calls in
 * flight; it is exact whenever no call is running. A never-used block is taken
 * when the free list looked empty, which may no longer be true at the bump, so
 * the bump pointer can pass more blocks than were ever in use at once: peak is
 * an upper bound. alloc fails only after it has seen bump at end and then the
 * free list empty: bump never moves back between resets, so at that moment
 * every block was in use, and the fail is counted (atomically).
 *
 * Level 2: the allocation bitmap changes by atomic read-modify-writes of its
 * words (inside the section on PRIMASK and PORT). free clears the block's bit
 * and reports a double free if it was already clear, before anything else
 * changes; alloc validates the link it is about to make the head (a block start
 * below bump, not the block itself, bit clear) inside the pop: when the pop
 * succeeds, nothing changed in between, so the test holds for the list as it
 * was. Whether a NULL link ends the list early cannot be told without a lock:
 * free_count is not taken with the head.
 */
#include "pool_internal.h"

#if STOW__POOL_ATOMIC == STOW__POOL_ATOMIC_TAGGED
#include <stdatomic.h>
#endif

#define NAME_ALLOC "stow_pool_alloc_atomic: "
#define NAME_FREE "stow_pool_free_atomic: "

/* ---- the primitives of each build ---------------------------------------------
 *
 * bump_now(p)            the bump pointer, one atomic load (levels 1, 2)
 * count_add(field, d)    field += d (uint32_t), atomic
 * count_zero(field)      field = 0, atomic
 * Level 2: bit_is_set(p, i), bit_set(p, i), bit_clear(p, i) (false, changing
 * nothing, when the bit was clear already). */

#if STOW__POOL_ATOMIC == STOW__POOL_ATOMIC_EXCLUSIVE

/* One word each: the "Q" operand is the word's address in a register, as LDREX and
 * STREX take it. The "memory" clobbers keep the compiler from moving the link's
 * load or store, or the block's contents, across them. */
static inline unsigned char *ll_ptr(unsigned char *const *addr)
{
    unsigned char *value;
    __asm__ volatile("ldrex %0, %1" : "=r"(value) : "Q"(*addr) : "memory");
    return value;
}

static inline uint32_t sc_ptr(unsigned char **addr, unsigned char *value)
{
    uint32_t failed;
    __asm__ volatile("strex %0, %2, %1" : "=&r"(failed), "=Q"(*addr) : "r"(value) : "memory");
    return failed;
}

static inline uint32_t ll_u32(const uint32_t *addr)
{
    uint32_t value;
    __asm__ volatile("ldrex %0, %1" : "=r"(value) : "Q"(*addr) : "memory");
    return value;
}

static inline uint32_t sc_u32(uint32_t *addr, uint32_t value)
{
    uint32_t failed;
    __asm__ volatile("strex %0, %2, %1" : "=&r"(failed), "=Q"(*addr) : "r"(value) : "memory");
    return failed;
}

static inline void count_add(uint32_t *field, uint32_t d)
{
    uint32_t value;
    do {
        value = ll_u32(field) + d;
    } while (sc_u32(field, value) != 0u);
}

#if STOW_CHECK_LEVEL >= 1
static inline unsigned char *bump_now(const stow_pool_t *p)
{
    return *(unsigned char *const volatile *)&p->bump;
}
#endif

#if STOW_CHECK_LEVEL >= 2
static inline void count_zero(uint32_t *field) { *(volatile uint32_t *)field = 0u; }

static inline bool bit_is_set(const stow_pool_t *p, uintptr_t i)
{
    return ((((const volatile uint32_t *)map_of(p))[i >> 5] >> (i & 31u)) & 1u) != 0u;
}

static void bit_set(stow_pool_t *p, uintptr_t i)
{
    uint32_t *word = &map_of(p)[i >> 5];
    uint32_t value;
    do {
        value = ll_u32(word) | (UINT32_C(1) << (i & 31u));
    } while (sc_u32(word, value) != 0u);
}

static bool bit_clear(stow_pool_t *p, uintptr_t i)
{
    uint32_t *word = &map_of(p)[i >> 5];
    uint32_t bit = UINT32_C(1) << (i & 31u);
    uint32_t value;
    do {
        value = ll_u32(word);
        if ((value & bit) == 0u) {
            return false; /* the reservation is left open: the next LDREX replaces it */
        }
    } while (sc_u32(word, value & ~bit) != 0u);
    return true;
}
#endif

#elif STOW__POOL_ATOMIC == STOW__POOL_ATOMIC_TAGGED

#if STOW__POOL_HEAD_BITS == 64
STOW_STATIC_ASSERT(ATOMIC_LLONG_LOCK_FREE == 2, "the 64-bit tagged pool head needs lock-free 64-bit atomics");
#endif
/* C11 atomics (_Atomic and <stdatomic.h>): MISRA C:2012 rule 1.4 deviation R1
 * (docs/misra.md), the only portable lock-free compare-and-swap there is. */
STOW_STATIC_ASSERT(ATOMIC_INT_LOCK_FREE == 2 && ATOMIC_POINTER_LOCK_FREE == 2,
                   "the tagged pool head needs lock-free 32-bit and pointer atomics");
STOW_STATIC_ASSERT(sizeof(_Atomic stow__pool_head_t) == sizeof(stow__pool_head_t) &&
                       sizeof(_Atomic uint32_t) == sizeof(uint32_t),
                   "the pool's fields must be usable as atomic objects");

/* The pool's plain fields as the atomic objects they are to these calls (same size
 * and alignment: checked above; a 64-bit tagged_head is declared 8-aligned). */
typedef _Atomic stow__pool_head_t atomic_head_t;
#define HEAD(p) ((atomic_head_t *)(void *)&(p)->tagged_head)
#define BUMP(p) ((unsigned char *_Atomic *)(void *)&(p)->bump)
#define U32(ptr) ((_Atomic uint32_t *)(void *)(ptr))

/* A race the sanitizer must not report: see the opening comment. */
#if defined(__SANITIZE_THREAD__)
#define NO_TSAN __attribute__((no_sanitize_thread, noinline))
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NO_TSAN __attribute__((no_sanitize("thread"), noinline))
#endif
#endif
#ifndef NO_TSAN
#define NO_TSAN
#endif

static STOW__NO_ASAN NO_TSAN unsigned char *speculative_link(const unsigned char *block)
{
    /* volatile: one load of the whole aligned pointer, made where it is written
     * (ThreadSanitizer would check an atomic load even here). */
    return *(unsigned char *const volatile *)(const void *)block;
}

static inline void count_add(uint32_t *field, uint32_t d)
{
    atomic_fetch_add_explicit(U32(field), d, memory_order_relaxed);
}

#if STOW_CHECK_LEVEL >= 1
static inline unsigned char *bump_now(const stow_pool_t *p)
{
    return atomic_load_explicit(BUMP((stow_pool_t *)(uintptr_t)p), memory_order_relaxed);
}
#endif

/* The block at head word h's index (mask: tagged_mask(p)), or NULL. */
static inline unsigned char *block_at(const stow_pool_t *p, stow__pool_head_t h, stow__pool_head_t mask)
{
    return tagged_block(p, (uint32_t)(h & mask));
}

/* Block b's index plus one, 0 for NULL: what the head word holds for it. */
static inline stow__pool_head_t index_word(const stow_pool_t *p, const unsigned char *b)
{
    return b == NULL ? 0u : (stow__pool_head_t)(uint32_t)(index_of(p, b) + 1u);
}

/* The head word after h with index word i first: the tag one up. */
static inline stow__pool_head_t head_word(stow__pool_head_t h, stow__pool_head_t mask, stow__pool_head_t i)
{
    return ((h | mask) + 1u) | i;
}

#if STOW_CHECK_LEVEL >= 2
static inline void count_zero(uint32_t *field)
{
    atomic_store_explicit(U32(field), 0u, memory_order_relaxed);
}

static inline bool bit_is_set(const stow_pool_t *p, uintptr_t i)
{
    uint32_t word = atomic_load_explicit(U32(&map_of(p)[i >> 5]), memory_order_relaxed);
    return ((word >> (i & 31u)) & 1u) != 0u;
}

static void bit_set(stow_pool_t *p, uintptr_t i)
{
    atomic_fetch_or_explicit(U32(&map_of(p)[i >> 5]), UINT32_C(1) << (i & 31u), memory_order_relaxed);
}

static bool bit_clear(stow_pool_t *p, uintptr_t i)
{
    uint32_t bit = UINT32_C(1) << (i & 31u);
    return (atomic_fetch_and_explicit(U32(&map_of(p)[i >> 5]), ~bit, memory_order_relaxed) & bit) != 0u;
}
#endif

#else /* PRIMASK, PORT: a short section; plain accesses inside it */

#if STOW__POOL_ATOMIC == STOW__POOL_ATOMIC_PRIMASK
static inline uint32_t section_enter(void)
{
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
    return primask;
}

static inline void section_exit(uint32_t primask)
{
    __asm__ volatile("msr primask, %0" : : "r"(primask) : "memory");
}
#else
static inline uint32_t section_enter(void) { return stow_port_critical_enter(); }
static inline void section_exit(uint32_t state) { stow_port_critical_exit(state); }
#endif

#if STOW_CHECK_LEVEL >= 1
static inline unsigned char *bump_now(const stow_pool_t *p)
{
    return *(unsigned char *const volatile *)&p->bump;
}
#endif

#if STOW_CHECK_LEVEL >= 2
static inline bool bit_is_set(const stow_pool_t *p, uintptr_t i)
{
    return ((map_of(p)[i >> 5] >> (i & 31u)) & 1u) != 0u;
}

static inline void bit_set(stow_pool_t *p, uintptr_t i)
{
    map_of(p)[i >> 5] |= UINT32_C(1) << (i & 31u);
}

static bool bit_clear(stow_pool_t *p, uintptr_t i)
{
    uint32_t bit = UINT32_C(1) << (i & 31u);
    uint32_t state = section_enter();
    uint32_t word = map_of(p)[i >> 5];
    map_of(p)[i >> 5] = word & ~bit;
    section_exit(state);
    return (word & bit) != 0u;
}
#endif

#endif

/* ---- level 2: shared by every build ------------------------------------------ */

#if STOW_CHECK_LEVEL >= 2
/* True when next may become the head after block b: NULL, or a block start of
 * this pool below bump, other than b, whose bit says free. */
static bool link_is_good(const stow_pool_t *p, const unsigned char *b, const unsigned char *next)
{
    if (next == NULL) {
        return true;
    }
    uintptr_t i = index_of(p, next);
    return next != b && i < p->capacity && next < bump_now(p) && !bit_is_set(p, i);
}

/* What follows taking b off the free list, outside any section: the report of a
 * bad link found in the pop (the rest of the list was dropped: those blocks count
 * as in use, as with stow_pool_alloc), and b's poison. */
static STOW__NOINLINE void took_free(stow_pool_t *p, unsigned char *b, bool bad)
{
    if (bad) {
        STOW__REPORT(NAME_ALLOC "the free list was corrupted (a free block's link was overwritten)");
    }
    if (!stow__poison_intact(b + LINK_BYTES, p->stride - LINK_BYTES)) {
        STOW__REPORT(NAME_ALLOC "a free block was written after it was freed");
    }
}

static STOW__NOINLINE void took_fresh(const stow_pool_t *p, const unsigned char *b)
{
    if (b < p->poison_end && !stow__poison_intact(b, p->stride)) {
        STOW__REPORT(NAME_ALLOC "a block was written after the pool was reset");
    }
}
#endif

/* ---- alloc ------------------------------------------------------------------- */

#if STOW__POOL_ATOMIC == STOW__POOL_ATOMIC_EXCLUSIVE || STOW__POOL_ATOMIC == STOW__POOL_ATOMIC_TAGGED
/* The never-used block b, which the caller just took off the bump pointer, goes
 * out (level 2: its bit set, its poison checked). */
static inline void *hand_out_fresh(stow_pool_t *p, unsigned char *b)
{
#if STOW_CHECK_LEVEL >= 2
    bit_set(p, index_of(p, b));
    took_fresh(p, b);
#endif
    stow__acquire(b, p->stride);
    return b;
}

/* After a pop took b (bad: its link failed the level-2 test and the rest of the
 * list was dropped): the count, and at level 2 the bitmap and the reports. */
static inline void popped(stow_pool_t *p, unsigned char *b, bool bad)
{
#if STOW_CHECK_LEVEL >= 2
    if (bad) {
        count_zero(&p->free_count);
    } else {
        count_add(&p->free_count, UINT32_MAX);
    }
    bit_set(p, index_of(p, b));
    took_free(p, b, bad);
#else
    (void)bad;
    count_add(&p->free_count, UINT32_MAX); /* - 1 */
#endif
    stow__acquire(b, p->stride);
}
#endif

#if STOW__POOL_ATOMIC == STOW__POOL_ATOMIC_EXCLUSIVE

/* Takes the head of the free list into *out; false when the list is empty. */
static inline bool pop(stow_pool_t *p, unsigned char **out)
{
    unsigned char *b;
    unsigned char *next;
    bool bad = false; /* stays false below level 2 */
    do {
        b = ll_ptr(&p->free_list);
        if (b == NULL) {
            return false;
        }
        next = link_of(b);
#if STOW_CHECK_LEVEL >= 2
        bad = !link_is_good(p, b, next);
        if (bad) {
            next = NULL; /* not followed: the rest of the list is dropped */
        }
#endif
    } while (sc_ptr(&p->free_list, next) != 0u); /* an exception came in between: again */
    popped(p, b, bad);
    *out = b;
    return true;
}

/* The free list was empty: a never-used block, or the free list again once bump
 * is at end for good (until reset), or NULL when that is empty too. Out of line,
 * so that the free-list path stays short. */
static STOW__NOINLINE void *alloc_fresh(stow_pool_t *p)
{
    for (;;) {
        unsigned char *b = ll_ptr(&p->bump);
        if (b == p->end) {
            if (pop(p, &b)) {
                return b;
            }
            count_add(&p->fails, 1u);
            return NULL;
        }
        if (sc_ptr(&p->bump, b + p->stride) == 0u) {
            return hand_out_fresh(p, b);
        }
    }
}

void *stow_pool_alloc_atomic(stow_pool_t *p)
{
    STOW__CHECK(p != NULL, NAME_ALLOC "pool is NULL", NULL);
    unsigned char *b;
    if (pop(p, &b)) {
        return b;
    }
    return alloc_fresh(p);
}

#elif STOW__POOL_ATOMIC == STOW__POOL_ATOMIC_TAGGED

void *stow_pool_alloc_atomic(stow_pool_t *p)
{
    STOW__CHECK(p != NULL, NAME_ALLOC "pool is NULL", NULL);
    atomic_head_t *head = HEAD(p);
    const stow__pool_head_t mask = tagged_mask(p);
    stow__pool_head_t h = atomic_load_explicit(head, memory_order_acquire);
    for (;;) {
        unsigned char *b = block_at(p, h, mask);
        if (b != NULL) {
            unsigned char *next = speculative_link(b);
            bool bad = false; /* stays false below level 2 */
#if STOW_CHECK_LEVEL >= 2
            bad = !link_is_good(p, b, next);
            if (bad) {
                next = NULL;
            }
#endif
            if (!atomic_compare_exchange_weak_explicit(head, &h, head_word(h, mask, index_word(p, next)),
                                                       memory_order_acquire,
                                                       memory_order_acquire)) {
                continue;
            }
            popped(p, b, bad);
            return b;
        }
        unsigned char *_Atomic *bump = BUMP(p);
        b = atomic_load_explicit(bump, memory_order_relaxed);
        while (b != p->end) {
            if (atomic_compare_exchange_weak_explicit(bump, &b, b + p->stride, memory_order_relaxed,
                                                      memory_order_relaxed)) {
                return hand_out_fresh(p, b);
            }
        }
        /* bump is at end for good (until reset): full if the list is empty now. */
        h = atomic_load_explicit(head, memory_order_acquire);
        if ((h & mask) == 0u) {
            count_add(&p->fails, 1u);
            return NULL;
        }
    }
}

#else /* PRIMASK, PORT */

void *stow_pool_alloc_atomic(stow_pool_t *p)
{
    STOW__CHECK(p != NULL, NAME_ALLOC "pool is NULL", NULL);
    uint32_t state = section_enter();
    unsigned char *b = p->free_list;
    if (b != NULL) {
        unsigned char *next = link_of(b);
#if STOW_CHECK_LEVEL >= 2
        bool bad = !link_is_good(p, b, next);
        p->free_list = bad ? NULL : next;
        p->free_count = bad ? 0u : p->free_count - 1u;
        bit_set(p, index_of(p, b));
        section_exit(state);
        took_free(p, b, bad);
#else
        p->free_list = next;
        p->free_count--;
        section_exit(state);
#endif
        stow__acquire(b, p->stride);
        return b;
    }
    b = p->bump;
    if (b == p->end) {
        p->fails++;
        section_exit(state);
        return NULL;
    }
    p->bump = b + p->stride;
#if STOW_CHECK_LEVEL >= 2
    bit_set(p, index_of(p, b));
    section_exit(state);
    took_fresh(p, b);
#else
    section_exit(state);
#endif
    stow__acquire(b, p->stride);
    return b;
}

#endif

/* ---- free -------------------------------------------------------------------- */

/* The checks and the poison of a block given back, before it goes on the list.
 * False (after a report) when the call must do nothing. */
static inline bool free_checks(stow_pool_t *p, unsigned char *b)
{
    STOW__CHECK(index_of(p, b) < p->capacity, NAME_FREE "pointer is not a block of this pool", false);
    STOW__CHECK(b < bump_now(p), NAME_FREE "block was not handed out since init or the last reset",
                false);
#if STOW_CHECK_LEVEL >= 2
    /* Test and clear in one step, so that two frees of one block cannot both pass. */
    STOW__CHECK(bit_clear(p, index_of(p, b)), NAME_FREE "double free", false);
#endif
    stow__release(b + LINK_BYTES, p->stride - LINK_BYTES); /* the link is not poison */
    stow__poison(b, LINK_BYTES);                           /* but stale all the same */
    return true;
}

void stow_pool_free_atomic(stow_pool_t *p, void *block)
{
    STOW__CHECK_VOID(p != NULL, NAME_FREE "pool is NULL");
    if (block == NULL) {
        return;
    }
    unsigned char *b = (unsigned char *)block;
    if (!free_checks(p, b)) {
        return;
    }
#if STOW__POOL_ATOMIC == STOW__POOL_ATOMIC_EXCLUSIVE
    do {
        set_link(b, ll_ptr(&p->free_list));
    } while (sc_ptr(&p->free_list, b) != 0u);
    count_add(&p->free_count, 1u);
#elif STOW__POOL_ATOMIC == STOW__POOL_ATOMIC_TAGGED
    atomic_head_t *head = HEAD(p);
    const stow__pool_head_t mask = tagged_mask(p);
    const stow__pool_head_t i = index_word(p, b);
    stow__pool_head_t h = atomic_load_explicit(head, memory_order_relaxed);
    do {
        set_link(b, block_at(p, h, mask));
    } while (!atomic_compare_exchange_weak_explicit(head, &h, head_word(h, mask, i), memory_order_release,
                                                    memory_order_relaxed));
    count_add(&p->free_count, 1u);
#else
    uint32_t state = section_enter();
    set_link(b, p->free_list);
    p->free_list = b;
    p->free_count++;
    section_exit(state);
#endif
}
