/* SPDX-License-Identifier: MIT */
/* stow/pool.h - fixed-size blocks with an intrusive free list.
 *
 * A pool hands out blocks of one size from a static array and takes them back
 * one by one, in any order, in O(1): the workhorse for messages, particles,
 * buffers and anything else a firmware makes and drops at a high rate. A freed
 * block becomes a node of the free list: its first bytes hold the link to the
 * next free block, so the list costs no memory of its own. Blocks that were
 * never used are handed out by a bump pointer, so a pool is ready at once, with
 * storage that was never zeroed, and neither init nor reset touches the blocks.
 *
 *     struct msg { uint32_t id; uint8_t body[20]; };
 *     STOW_POOL_DEFINE(msg_pool, struct msg, 32);       // file scope: ready, no init call
 *     struct msg *m = STOW_POOL_NEW(&msg_pool, struct msg);  // NULL when all 32 are in use
 *     if (m != NULL) { m->id = 7; send(m); }
 *     stow_pool_free(&msg_pool, m);                     // NULL is ignored
 *
 * Blocks: sizeof(T) rounded up to a multiple of max(alignof(T), alignof(void *)),
 * and to at least sizeof(void *) (the free-list link lives in a free block). So
 * blocks of 1, 2 or 3 bytes take a pointer's room each; a 12-byte struct of
 * uint32_t takes 12 bytes on a 32-bit target. Every block is aligned to
 * max(alignof(T), alignof(void *)). Contents after alloc are unspecified.
 *
 * Per-block overhead: none at check levels 0 and 1 beyond that rounding;
 * STOW_POOL_BYTES(sizeof(T), alignof(T), n) is n blocks, nothing more. Check
 * level 2 adds one bit per block (an allocation bitmap after the blocks, in
 * 32-bit words) and 0xDD poison in free blocks.
 *
 * Failures: alloc on a pool whose blocks are all in use returns NULL and counts
 * in stats().fails. Everything listed under "contract violation" is a caller bug:
 * it goes to the port's assert hook (STOW_CHECK_LEVEL >= 1) with the call's name
 * and the misuse ("stow_pool_free: double free") and, if the hook returns, the call returns NULL / false / 0 / does nothing, and the pool, its
 * blocks included, is exactly as it was. At level 0 a violation is undefined.
 *
 * Level 1 checks every pointer given to free(): it must be the start of a block
 * of this pool that was handed out since init or the last reset (a pointer
 * outside the pool, inside a block but not at its start, or misaligned is a
 * violation). That test needs no division, which Cortex-M0 does not have: the
 * offset from the first block times the multiplicative inverse of the block
 * size's odd factor, rotated right by the block size's power-of-two factor, is
 * the block index exactly when the offset is a whole number of blocks, and a
 * number >= capacity otherwise (see index_of in pool.c for why; blocks of a
 * power-of-two size multiply by 1). The inverse is computed once, by init or at
 * compile time by STOW_POOL_DEFINE. Cost, measured on Cortex-M4 at -O2 (make
 * bench): free() takes 8 instructions at level 0 and 23 at level 1, where the
 * block-start test is 3 loads, a subtract, a multiply (1 cycle on M3/M4; 1 or
 * 32 on M0/M0+, as the chip was built), a rotate and a compare-and-branch, and
 * the "handed out" test 3 more. alloc()
 * takes 9 instructions from the free list and 12 for a never-used block at
 * level 0 (11 and 13 at level 1).
 *
 * Level 2 adds, in O(1) per call:
 *   - double free: the allocation bitmap has the block's bit clear -> violation;
 *   - poison: free() fills the block with 0xDD, except its first sizeof(void *)
 *     bytes, which hold the free-list link; alloc() reports (through the assert
 *     hook) a block whose poison changed while it was free, then hands it out
 *     anyway, since refusing would not undo the damage. reset() poisons every
 *     block that was handed out (O(blocks used) at level 2), and alloc() checks
 *     those too when it bumps over them again;
 *   - the link: before alloc() makes the next free block the head of the list,
 *     it checks the link. The pool knows how many blocks its free list holds, so
 *     it knows where the list ends: the last free block's link must be NULL, and
 *     every other one must name a block start of this pool, below the bump
 *     pointer, with its bit clear (so a block that is live or already taken is
 *     refused too). A NULL written over a link while more blocks are free (a
 *     stale `node->next = NULL` through a pointer to a freed block) is a bad link
 *     like any other. A bad link is reported and not followed: the rest of the
 *     free list is dropped (those blocks count as in use, so used() and alloc()
 *     agree, and check() returns false, until reset), which is safer than handing
 *     out a block that may be live. A link overwritten with the address of
 *     another free block goes unseen.
 *
 * AddressSanitizer builds, at every level, poison a freed block whole (its link
 * included: the pool reads and writes links unseen by the sanitizer) and the
 * blocks reset() takes back, so that an access through a pointer to a free block
 * is reported at once (see config.h).
 *
 * Shared use (interrupts, threads, cores): stow_pool_alloc_isr() and
 * stow_pool_free_isr() run the plain call under the pool's own lock,
 * stow_port_lock() on a word inside the pool (stow/port.h). With the Cortex-M
 * and RISC-V ports that lock masks interrupts on the core (PRIMASK or
 * mstatus.MIE; the word is not touched); with the host port it is a lock on
 * that word alone, so threads on two pools never wait for each other. Every
 * call that changes a shared pool must then go through them or run between
 * stow_pool_lock() and stow_pool_unlock(), which is also how to run several
 * calls as one step (reset, a check, stats that agree with each other). A
 * contract violation in an _isr call reaches the assert hook with the lock held.
 * What the one-core ports do not cover: PRIMASK masks neither NMI nor HardFault
 * (nor any fault handler), so those handlers must not touch a pool another
 * context uses; and another core is not stopped, so a pool shared between
 * cores needs a port whose lock spins on the word too (stow/port.h, "Writing
 * your own"; the multi-core ports, smp.c, do). Per call, from a thread / an
 * interrupt handler / another core while other contexts use the same pool
 * ("port" = with a port whose lock spans cores: host, Zephyr SMP,
 * port/riscv/smp.c, port/cortex-m/smp.c, or your own):
 *   alloc_isr, free_isr, lock/unlock    safe / safe / port
 *   owns, capacity                      safe / safe / safe (they read what only
 *                                       init changes)
 *   alloc, alloc_checked, NEW, free,    not safe: only between lock() and
 *   reset, used, stats, check           unlock(), or in a context that has the
 *                                       pool to itself
 *   init                                not safe: before any sharing starts
 *   alloc_atomic, free_atomic           safe / safe / see below (lock-free
 *                                       where the core allows; several cores:
 *                                       RV32A, or Cortex-M with STOW_MULTICORE)
 *
 * Options: only STOW_CHECK_LEVEL (config.h), which changes the layout of
 * stow_pool_t and STOW_POOL_BYTES: build the library and its users alike.
 *
 * The fields of stow_pool_t are private; they are in the header only so that
 * STOW_POOL_DEFINE can build the object with a constant initializer.
 */
#ifndef STOW_POOL_H
#define STOW_POOL_H

#include "config.h"
#include "stats.h"
#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How stow_pool_alloc_atomic() and stow_pool_free_atomic() are built (see their
 * documentation below): load-/store-exclusive on M-profile cores that have them,
 * PRIMASK on those that do not, C11 atomics on a tagged head word where atomics
 * of its width are lock-free (64 bits on hosts, 32 on RV32 with the A extension
 * and, with STOW_MULTICORE, on ARMv7-M and ARMv8-M), and the port's critical
 * section everywhere else (and on ARMv6-M with STOW_MULTICORE).
 * STOW__POOL_HEAD_BITS is the width of the tagged head word where the pool has
 * one (0: none). It depends on the core only, never on STOW_MULTICORE, so that
 * the option changes no layout: ARMv7-M and ARMv8-M carry the word in both
 * builds. A test build may set both macros itself (a host build with a 32-bit
 * head runs the RV32 code under the host's tools). */
#define STOW__POOL_ATOMIC_EXCLUSIVE 1
#define STOW__POOL_ATOMIC_PRIMASK 2
#define STOW__POOL_ATOMIC_TAGGED 3
#define STOW__POOL_ATOMIC_PORT 4
#if defined(STOW__POOL_ATOMIC)
#ifndef STOW__POOL_HEAD_BITS
#error "a build that sets STOW__POOL_ATOMIC sets STOW__POOL_HEAD_BITS too"
#endif
#elif defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M' && defined(__GNUC__)
#if defined(__ARM_FEATURE_LDREX) && (__ARM_FEATURE_LDREX & 4)
#define STOW__POOL_HEAD_BITS 32
#if STOW_MULTICORE
#define STOW__POOL_ATOMIC STOW__POOL_ATOMIC_TAGGED
#else
#define STOW__POOL_ATOMIC STOW__POOL_ATOMIC_EXCLUSIVE
#endif
#else
#define STOW__POOL_HEAD_BITS 0
#if STOW_MULTICORE
#define STOW__POOL_ATOMIC STOW__POOL_ATOMIC_PORT
#else
#define STOW__POOL_ATOMIC STOW__POOL_ATOMIC_PRIMASK
#endif
#endif
#elif defined(__GNUC__) && defined(__GCC_ATOMIC_LLONG_LOCK_FREE) && __GCC_ATOMIC_LLONG_LOCK_FREE == 2 && \
    !defined(__STDC_NO_ATOMICS__)
#define STOW__POOL_ATOMIC STOW__POOL_ATOMIC_TAGGED
#define STOW__POOL_HEAD_BITS 64
#elif defined(__GNUC__) && defined(__GCC_ATOMIC_INT_LOCK_FREE) && __GCC_ATOMIC_INT_LOCK_FREE == 2 && \
    defined(__GCC_ATOMIC_POINTER_LOCK_FREE) && __GCC_ATOMIC_POINTER_LOCK_FREE == 2 && \
    !defined(__STDC_NO_ATOMICS__)
#define STOW__POOL_ATOMIC STOW__POOL_ATOMIC_TAGGED
#define STOW__POOL_HEAD_BITS 32
#else
#define STOW__POOL_ATOMIC STOW__POOL_ATOMIC_PORT
#define STOW__POOL_HEAD_BITS 0
#endif

typedef struct stow_pool stow_pool_t;
struct stow_pool {
    unsigned char *free_list; /* first free block (its first pointer links the next), or NULL */
#if STOW__POOL_HEAD_BITS == 64
    /* the atomic calls' free-list head: block index + 1 (0: empty) | a tag << 32 */
    STOW_ALIGNAS(8) uint64_t tagged_head;
#elif STOW__POOL_HEAD_BITS == 32
    /* the same in 32 bits: the index + 1 below the capacity's top bit, the tag above */
    uint32_t tagged_head;
#endif
    unsigned char *bump;      /* first block never handed out since init or the last reset */
    unsigned char *base;      /* first block */
    unsigned char *end;       /* one past the last block; level 2: the bitmap starts here */
    size_t stride;            /* bytes from one block to the next */
    uintptr_t inverse;        /* inverse of stride >> shift (odd) modulo 2^(bits of uintptr_t) */
    uint32_t shift;           /* stride's power-of-two factor: stride == odd << shift */
    uint32_t capacity;        /* blocks */
    uint32_t free_count;      /* blocks on the free list; in use: those below bump, minus these */
    uint32_t peak;            /* high-water mark of in use before the last reset; see stats */
    uint32_t fails;           /* refused allocations */
    size_t block_size;        /* as declared, for stow_pool_alloc_checked */
    size_t block_align;       /* as declared (0 resolved to STOW_DEFAULT_ALIGN) */
#if STOW_CHECK_LEVEL >= 2
    unsigned char *poison_end; /* blocks in [bump, poison_end) hold 0xDD in full */
#endif
    const char *const *config; /* the options its DEFINE saw (config.h), or NULL after init */
    uint32_t lock;             /* the port's lock word for the _isr calls and lock(): 0 when free */
};

/* The alignment of every block for a declared alignment align (0 means
 * STOW_DEFAULT_ALIGN): the free-list link needs a pointer's alignment. */
#define STOW_POOL_BLOCK_ALIGN(align)                                                        \
    STOW__POOL_MAX(STOW__CAST(size_t, (align) != 0u ? STOW__CAST(size_t, align)               \
                                                     : STOW__CAST(size_t, STOW_DEFAULT_ALIGN)), \
                   STOW__CAST(size_t, STOW_ALIGNOF(void *)))

/* Bytes from one block to the next for blocks of size bytes aligned to align: size
 * (at least sizeof(void *)) rounded up to STOW_POOL_BLOCK_ALIGN(align). */
#define STOW_POOL_STRIDE(size, align)                                                       \
    ((STOW__POOL_MAX(STOW__CAST(size_t, size), sizeof(void *)) + STOW_POOL_BLOCK_ALIGN(align) - \
      1u) &                                                                                   \
     ~(STOW_POOL_BLOCK_ALIGN(align) - 1u))

/* Buffer bytes stow_pool_init() needs for n blocks of size bytes aligned to align:
 * n strides at levels 0 and 1; level 2 adds the allocation bitmap, one bit per
 * block in 32-bit words. A constant expression when its arguments are; the caller
 * keeps n * stride within size_t (init checks it and refuses otherwise). */
#if STOW_CHECK_LEVEL >= 2
#define STOW__POOL_MAP_BYTES(n) (((STOW__CAST(size_t, n) + 31u) >> 5) * sizeof(uint32_t))
#else
#define STOW__POOL_MAP_BYTES(n) (sizeof(uint32_t) * 0u)
#endif
#define STOW_POOL_BYTES(size, align, n) \
    (STOW__CAST(size_t, n) * STOW_POOL_STRIDE(size, align) + STOW__POOL_MAP_BYTES(n))

/* STOW_POOL_DEFINE(name, T, capacity): defines, at file or namespace scope, a
 * ready pool `name` of capacity blocks for objects of type T (capacity a
 * constant, 1..UINT32_MAX; the storage must fit in size_t; both checked at
 * compile time), and its storage, aligned to STOW_POOL_BLOCK_ALIGN(alignof(T))
 * and placed in the NOBITS section .bss.stow.pool.<name> (see linker/stow.ld). No
 * init call; the storage need not be zeroed. STOW_POOL_DEFINE_STATIC makes `name`
 * file-local. Inside a C++ class a DEFINE is a compile error whose text points to
 * the C++ layer (stow/stow.hpp), whose containers hold their
 * storage inside the object. */
#define STOW_POOL_DEFINE(name, T, capacity) STOW__POOL_DEFINE(STOW__CONSTINIT, name, T, capacity)
#define STOW_POOL_DEFINE_STATIC(name, T, capacity) STOW__POOL_DEFINE(static STOW__CONSTINIT, name, T, capacity)
/* The same, counted in subsystem sub (stow/report.h: subsystems and budgets). */
#define STOW_POOL_DEFINE_IN(sub, name, T, capacity) \
    STOW__POOL_DEFINE_IN(STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, T, capacity)
#define STOW_POOL_DEFINE_STATIC_IN(sub, name, T, capacity) \
    STOW__POOL_DEFINE_IN(static STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, T, capacity)

/* A T* from the pool, or NULL when it is full: stow_pool_alloc_checked() with
 * sizeof(T) and alignof(T), so that a T larger than the pool's declared block, or
 * more strictly aligned, is a contract violation (level >= 1) instead of an
 * overflow. A T smaller than the block is fine. Not ISR-safe. */
#define STOW_POOL_NEW(p, T) STOW__CAST(T *, stow_pool_alloc_checked((p), sizeof(T), STOW_ALIGNOF(T)))

/* Makes *p an empty pool of capacity blocks of block_size bytes aligned to
 * block_align (0: STOW_DEFAULT_ALIGN) over buf. Writes nothing into buf. O(1).
 * block_size 0 gives pointer-sized blocks (the rule for size 0, stow/stow.h: the
 * smallest block a pool has, since a free block holds the free-list link).
 * Statistics start at zero.
 * Returns false, changing nothing, if buf is NULL, capacity is 0, buf is not
 * aligned to STOW_POOL_BLOCK_ALIGN(block_align), or buf_size is below
 * STOW_POOL_BYTES(block_size, block_align, capacity) or that size overflows.
 * Contract violation: p is NULL; block_align is not 0 or a power of two. */
bool stow_pool_init(stow_pool_t *p, void *buf, size_t buf_size, size_t block_size,
                    size_t block_align, uint32_t capacity) STOW__GUARDED(stow_pool_init);

/* A free block, or NULL (counting a fail) when every block is in use. The block
 * freed last is handed out first; never-used blocks in address order. O(1); at
 * level 2 also O(block size) for the poison check.
 * Contract violation: p is NULL. Level 2 also reports, as stow_pool_alloc, a free
 * block written after it was freed, a block written after reset, and a bad
 * free-list link (see "Level 2" above). */
void *stow_pool_alloc(stow_pool_t *p);

/* stow_pool_alloc(), after checking that an object of size bytes aligned to
 * align (0: STOW_DEFAULT_ALIGN) fits the pool's declared block: STOW_POOL_NEW's
 * engine. O(1). Contract violation (returns NULL, fails unchanged): p is NULL;
 * size is above the declared block size; align is not 0 or a power of two, or
 * above the declared block alignment. */
void *stow_pool_alloc_checked(stow_pool_t *p, size_t size, size_t align);

/* Gives a block back. NULL is ignored. O(1); at level 2 also O(block size) for
 * the poison. Contract violation (nothing changes): p is NULL; block is not the
 * start of one of this pool's blocks (outside it, one past its end, interior,
 * misaligned, or from another pool); block was not handed out since init or the
 * last reset (it lies at or beyond the bump pointer); level 2: block is already
 * free (double free). At level 1 a double free of a block handed out earlier is
 * not detected and breaks the free list. */
void stow_pool_free(stow_pool_t *p, void *block);

/* stow_pool_alloc() and stow_pool_free() under the pool's lock (see "Shared
 * use" above): ISR-safe and thread-safe, and they nest (inside lock()/unlock()
 * or the caller's own critical section, the outer state is restored). Same
 * results and violations, the same text for them; the port's lock on top (with
 * the Cortex-M port, 22 instructions each on a Cortex-M4 at level 0 instead of 9
 * and 8).
 * Safe from a thread and from an interrupt handler; from another core only with
 * a port whose lock spans cores. */
void *stow_pool_alloc_isr(stow_pool_t *p);
void stow_pool_free_isr(stow_pool_t *p, void *block);

/* stow_pool_alloc() and stow_pool_free() that any mix of thread code and
 * interrupt handlers on one core, of threads on several cores of a host, and
 * (see below) of cores of a multi-core chip may call on one pool at once. Same
 * results (a block or NULL; NULL is ignored by free), O(1) without contention
 * (level 2: also O(block size)), and what each build does:
 *   - ARMv7-M, ARMv8-M (M3, M4, M7, M33, M55, and the baseline M23, which has
 *     the exclusives too): lock-free with LDREX/STREX; interrupts stay enabled.
 *     A handler that comes in between makes the interrupted call retry, and an
 *     M-profile core clears its exclusive monitor on exception entry and return,
 *     so a taken block's stale link can never become the head. Measured on
 *     Cortex-M4 at -O2, level 0 (make bench): alloc 14 instructions from the free
 *     list and 16 for a never-used block, free 13 (level 1: 17, 23 and 28).
 *   - ARMv6-M (M0, M0+): no exclusives, so the loads and stores of the list
 *     and counters run with PRIMASK set: at most 10 instructions between CPSID
 *     and MSR at level 0 (level 2 adds the bitmap word's update), with no call,
 *     no loop and no check inside (those run before or after it). Cortex-M0,
 *     -O2, level 0: alloc 14 and 18, free 12 instructions. It masks neither NMI
 *     nor HardFault.
 *   - Hosts where 64-bit atomics are lock-free (x86-64, i686 with -m32,
 *     AArch64): C11 atomics on a head word holding the first block's index and
 *     a 32-bit tag that each change of the head increments (ABA-safe unless one
 *     call is delayed across a multiple of 2^32 changes). Lock-free by
 *     atomic_is_lock_free, no libatomic. They keep a free list of their own.
 *   - RV32 with the A extension (rv32imac, rv32emac...): the same in a 32-bit
 *     word, the index below the capacity's top bit and the tag in the bits
 *     above (32 minus the capacity's bits: 22 for 1000 blocks), by LR/SC and
 *     AMOs with acquire and release order. Lock-free, interrupts stay enabled;
 *     safe across harts. RV32IMAC, -O2, level 1 (make bench): alloc 48
 *     instructions from the free list and 32 for a never-used block, free 51.
 *   - Others (RV32 without the A extension among them): the port's critical
 *     section around the same few loads and stores, as on ARMv6-M.
 * Several cores of a chip (docs/multicore.md): RV32 with the A extension as
 * built. Cortex-M with STOW_MULTICORE (stow/config.h) in the library's build:
 * on ARMv7-M and ARMv8-M the tagged 32-bit head as on RV32 (LDREX/STREX, and a
 * DMB on each side of the swap, so that another core sees the link and the
 * contents written ahead of the head), which needs the chip's global monitor
 * to cover the pool's memory (on many chips only some RAM); on ARMv6-M the
 * port's critical section, which a multi-core port makes a cross-core lock
 * (port/cortex-m/smp.c: the chip's spinlock). Without the option, the ARMv7-M
 * and ARMv8-M build is for one core: it has no barrier, and its ABA argument
 * (the monitor cleared on exception entry) says nothing about another core's
 * stores under a monitor that compares values, as QEMU's does. NMI and fault
 * handlers may use the lock-free builds (the interrupted call retries), not
 * the masked ones.
 *
 * Checks: level 1 makes free's checks (a block start of this pool, below bump);
 * level 2 adds the bitmap (double free, tested and cleared in one atomic step, so
 * that of two frees of one block exactly one passes), the poison, and the link
 * test of alloc (a block start below bump, free by the bitmap, not the block
 * itself) made inside the pop. Reports come with interrupts enabled, as
 * "stow_pool_alloc_atomic: ..." and "stow_pool_free_atomic: ...". What cannot
 * be checked without a lock: a NULL link while more blocks are free (the count
 * of free blocks is not taken with the head); after a bad link is reported, the
 * counts are exact again only after reset().
 *
 * Mixing: a pool used with these calls takes every alloc and free through them
 * (on a host they keep their own list, which the plain calls do not see), until
 * reset(). capacity() and owns() may be called any time, and on a single core
 * used() and stats() too (on a host they read the counters without atomics:
 * call them where no call runs). Between the two steps of a call (the list,
 * then the count) used() is off by the calls in flight; peak is an upper
 * bound, as a call may take a never-used block while a block is being given
 * back; fails counts exactly. check() and reset() only when no call runs.
 * Contract violation: as stow_pool_alloc() and stow_pool_free(). */
void *stow_pool_alloc_atomic(stow_pool_t *p);
void stow_pool_free_atomic(stow_pool_t *p, void *block);

/* Takes and releases the pool's lock, so that several calls run as one step
 * against every _isr call elsewhere (for example reset, or check() and stats()
 * that agree). Between them use the plain calls; lock() returns the state that
 * unlock() needs. Pairs nest. O(1): one call into the port each. Hold it
 * briefly: on Cortex-M it masks interrupts. Safe from a thread and from an
 * interrupt handler; from another core only with a port whose lock spans cores.
 * Contract violation: p is NULL (lock returns 0, unlock does nothing). */
uint32_t stow_pool_lock(stow_pool_t *p);
void stow_pool_unlock(stow_pool_t *p, uint32_t state);

/* True when ptr points into the pool's blocks: any byte of any block, free or in
 * use, padding included (so an interior pointer is owned, one past the last block
 * is not). Use it to find which pool an address came from; free() is stricter.
 * O(1), one compare. Contract violation: p is NULL (returns false). */
bool stow_pool_owns(const stow_pool_t *p, const void *ptr);

/* Every block free again; pointers handed out earlier must not be used or freed
 * after this. O(1) at levels 0 and 1 (the blocks are not touched: the bump
 * pointer goes back to the first block); O(blocks handed out) at level 2, which
 * poisons them. peak and fails are kept.
 * Contract violation: p is NULL. */
void stow_pool_reset(stow_pool_t *p);

/* Blocks in the pool, and blocks in use now. O(1) (used: a multiply and a
 * rotate, since the pool counts free blocks rather than used ones).
 * Contract violation: p is NULL (returns 0). */
uint32_t stow_pool_capacity(const stow_pool_t *p);
uint32_t stow_pool_used(const stow_pool_t *p);

/* Fills *out: capacity and used in blocks, peak (the high-water mark of used since
 * DEFINE or init, across resets) and fails (refused allocations; contract
 * violations are not counted). O(1): the pool hands out a never-used block only
 * when no freed block is waiting, that is when every block below the bump
 * pointer is in use, so the high-water mark since the last reset is the number of
 * blocks the bump pointer has passed.
 * Contract violation: p or out is NULL. */
void stow_pool_stats(const stow_pool_t *p, stow_stats_t *out);

/* Walks the pool and returns false if any invariant is broken: its geometry
 * (stride, alignment, inverse, bounds: derived again from the declared block and
 * compared), the bump pointer, a free-list link out of range, interior or at or
 * beyond the bump pointer, a cycle, the list length not matching the pool's count
 * of free blocks; at level 2 also the bitmap disagreeing with the free list, and
 * poison that changed in a free block or in a never-used block poisoned by reset.
 * For tests and debug builds. O(capacity), plus O(bytes of free blocks) at
 * level 2.
 * Contract violation: p is NULL (returns false). */
bool stow_pool_check(const stow_pool_t *p);

/* ---- private: what the macros above expand to ----------------------------------- */

#define STOW__POOL_MAX(a, b) ((a) > (b) ? (a) : (b))

#if STOW_CHECK_LEVEL >= 2
#define STOW__POOL_POISON_INIT(buf) , (buf)
#else
#define STOW__POOL_POISON_INIT(buf)
#endif
#if STOW__POOL_HEAD_BITS != 0
#define STOW__POOL_TAGGED_INIT 0u,
#else
#define STOW__POOL_TAGGED_INIT
#endif

/* The block type gives the stride a short name, so that the inverse's expansion
 * stays small. */
#define STOW__POOL_DEFINE(linkage, name, T, cap)                                      \
    STOW__POOL_DEFINE_IN(linkage, STOW__NO_SUBSYSTEM, name, T, cap)
#define STOW__POOL_DEFINE_IN(linkage, sub, name, T, cap)                              \
    STOW__FILE_SCOPE_ONLY;                                                            \
    STOW_STATIC_ASSERT((cap) > 0 && STOW__CAST(uint64_t, cap) <= UINT32_MAX,          \
                       "STOW_POOL_DEFINE: capacity must be 1 to UINT32_MAX");         \
    STOW_STATIC_ASSERT(STOW__FITS_SIZE(cap, STOW_POOL_STRIDE(sizeof(T), STOW_ALIGNOF(T)), \
                                      STOW__POOL_MAP_BYTES(cap)),                     \
                       "STOW_POOL_DEFINE: the storage does not fit in size_t");       \
    typedef unsigned char stow__pool_block_##name[STOW_POOL_STRIDE(sizeof(T), STOW_ALIGNOF(T))]; \
    STOW_ALIGNAS(STOW_POOL_BLOCK_ALIGN(STOW_ALIGNOF(T))) STOW__SECTION_IN(sub, pool, name) \
    static unsigned char stow__pool_buf_##name[STOW_POOL_BYTES(sizeof(T), STOW_ALIGNOF(T), cap)]; \
    linkage stow_pool_t name = {                                                      \
        NULL,                                                                         \
        STOW__POOL_TAGGED_INIT                                                        \
        stow__pool_buf_##name,                                                        \
        stow__pool_buf_##name,                                                        \
        stow__pool_buf_##name + STOW__CAST(size_t, cap) * sizeof(stow__pool_block_##name), \
        sizeof(stow__pool_block_##name),                                              \
        STOW__CAST(uintptr_t, STOW__ODD_INVERSE(STOW__ODD_OF(sizeof(stow__pool_block_##name)))), \
        STOW__SHIFT_OF(sizeof(stow__pool_block_##name)),                              \
        STOW__CAST(uint32_t, cap),                                                    \
        0u,                                                                           \
        0u,                                                                           \
        0u,                                                                           \
        sizeof(T),                                                                    \
        STOW_ALIGNOF(T) STOW__POOL_POISON_INIT(stow__pool_buf_##name),             \
        STOW__CONFIG_GUARD,                                                           \
        0u};                                                                          \
    STOW__REGISTER(sub, pool, name, stow__pool_buf_##name)

#ifdef __cplusplus
}
#endif

#endif /* STOW_POOL_H */
