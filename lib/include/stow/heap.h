/* SPDX-License-Identifier: MIT */
/* stow/heap.h - a variable-size heap over static storage, in bounded time.
 *
 * The heap serves requests of any size from static storage: a JSON document,
 * a TLS record, a Lua string, a message of unknown length. alloc, aligned
 * alloc, free, and realloc when it can stay in place run in constant time with
 * no loop over blocks or size classes, so an interrupt handler or a control loop
 * can call them with a known worst case.
 *
 *     STOW_HEAP_DEFINE(msg_heap, 16 * 1024);            // file scope: ready, no init call
 *     char *text = stow_heap_alloc(&msg_heap, len + 1);  // NULL when there is no room
 *     ...
 *     text = stow_heap_realloc(&msg_heap, text, 2 * len + 1);  // on NULL, text is still valid
 *     stow_heap_free(&msg_heap, text);                   // NULL is ignored
 *
 * Two policies, chosen per heap (docs/heap.md compares them):
 *   - the default ("good fit"), for RAM: small requests take headerless slots,
 *     larger ones a block with a one-word header from the best-fitting of a
 *     hundred or so size classes. It runs real programs in little more
 *     storage than they ask for: the smallest storage that runs the Lua,
 *     OpenSSL and Python traces of bench/traces/ is 1.09, 1.05 and 1.05 times
 *     their peak of requested bytes on Cortex-M4 (1.10, 1.07, 1.06 at check
 *     level 1). But no bound on its storage is proven: an adversary can
 *     fragment it (see "Sizing" below).
 *   - bounded (STOW_HEAP_DEFINE_BOUNDED, stow_heap_init_bounded): power-of-two
 *     blocks, "half fit", for which STOW_HEAP_BYTES_FOR gives storage that no
 *     sequence of requests within the stated limits can exhaust. It needs more
 *     storage for the same program (1.47-1.57 times the peak on those traces),
 *     and the macro's figure is several times that, for the worst order of
 *     requests.
 *
 * Blocks and slots (default policy). A request of up to STOW_HEAP_SMALL_MAX
 * bytes (72 on Cortex-M) takes a slot of 1-7 or 9 times STOW_HEAP_ALIGN bytes,
 * carved with no header from a 64 * STOW_HEAP_ALIGN byte page (512 on
 * Cortex-M) that holds slots of one size and a page header of STOW_HEAP_ALIGN
 * bytes: a 16-byte request costs 16 bytes and a share of 1/63 of a page
 * header. Pages come from the top of the first region and go back to it when
 * they empty. A larger request (or a small one when no page can be had) takes
 * a block: the request plus a one-word header (STOW_HEAP_OVERHEAD), rounded up
 * to STOW_HEAP_ALIGN, at least STOW_HEAP_MIN_BLOCK; the free block it comes
 * from is the first of the class of its exact size if that one is large
 * enough, else the first of the smallest non-empty class sure to fit it (each
 * power of two is split into four classes); the rest of the free block, if
 * it can stand as a block, stays free. Freed blocks merge with free neighbours
 * at once. stow_heap_usable_size() tells how much of its slot or block a
 * pointer may use.
 *
 *   target              STOW_HEAP_OVERHEAD  STOW_HEAP_ALIGN  STOW_HEAP_MIN_BLOCK  STOW_HEAP_SMALL_MAX
 *   Cortex-M (AAPCS)    4                   8                16                   72
 *   rv32 ilp32, i386    4                   16               16                   144
 *   x86-64, AArch64     8                   16               32                   144
 *
 * (At check level 2 each slot and block keeps one more word, so
 * STOW_HEAP_SMALL_MAX is a word less.) Size 0 is a request for the smallest
 * slot or block: alloc(0) returns a unique pointer (not NULL) that must not be
 * dereferenced, and can be freed.
 *
 * stow_heap_largest_free() says what is sure to succeed: every request up to
 * it. A larger request fails, unless it is at most STOW_HEAP_SMALL_MAX and its
 * slot size has a free slot in a page already taken.
 *
 * Sizing. A bounded heap is sized by a proven bound:
 * STOW_HEAP_BYTES_FOR(max_live_bytes, max_request) is storage on which no
 * request fails, at any check level, with any order of frees, for a program
 * whose live requested bytes never add up to more than max_live_bytes and of
 * which none is larger than max_request; STOW_HEAP_BYTES_FOR_MIN adds the
 * smallest request (min_request) and is much smaller when that is not tiny.
 * max_live_bytes counts a 0-byte request as 1 and counts a realloc that moves
 * its block (a realloc to another power-of-two block: see stow_heap_realloc)
 * with both its old and its new size while it runs. The bound is J. M.
 * Robson's for allocators whose blocks are powers of two, as o1heap documents
 * it for half fit: blocks of M (1 + log2(n / m)) bytes are never exhausted, M
 * the most block bytes live at once, n the largest block and m the smallest
 * (lib/src/heap.c gives the argument and what the tests check). The macros
 * hold for a heap of one region; regions added to a bounded heap add room, but
 * the bound is not claimed for their sum.
 *   The default heap has no such bound (best fit's worst case, M (n - 2),
 * after Robson, is no use for sizing; a page of slots can be kept by one live
 * slot). Size it from evidence: record the program's allocations (on the host
 * with adapters/preload, on the target with STOW_HEAP_TRACE below), and
 * `make heap-size TRACE=file` gives the smallest storage that runs them;
 * add headroom for what the recording did not exercise.
 *
 * Aligned allocation: stow_heap_alloc_aligned() takes any power of two up to
 * the heap's size, in O(1): a block (never a slot, above STOW_HEAP_ALIGN) sure
 * to hold an aligned payload, whose bytes before the payload go back as a
 * free block. realloc keeps the alignment a block was allocated with. Aligned
 * requests are outside the bound: count each as size + align.
 *
 * Regions: stow_heap_add_region() adds more storage (another RAM bank: DTCM,
 * SRAM1, SRAM2...) to a heap, in O(1) plus one comparison per region already
 * there (the overlap test). A block never spans two regions. Slots come from
 * the first region only; blocks from any. stats and check cover every region.
 *
 * Hooks: stow_heap_set_failed_hook() names a function called after each
 * refused request (FreeRTOS's vApplicationMallocFailedHook sits on it). With
 * STOW_HEAP_TRACE set to 1 (config.h), stow_heap_set_trace() names a function
 * called after every alloc, calloc, aligned alloc, realloc and free, and
 * stow_heap_trace_write() is one that writes the calls through
 * stow_port_write() in the trace format `make heap-size` replays.
 *
 * Memory: besides the slots and blocks, the heap's own bytes: the stow_heap_t
 * (STOW_HEAP_STRUCT_BYTES: 508 bytes on Cortex-M, 376 of them the first free
 * block of each of its 94 size classes; 1360 bytes on x86-64) and, in the
 * storage of each region, up to STOW_HEAP_ALIGN bytes to align the first
 * payload and a word that ends the blocks; each added region also keeps a
 * five-word description of itself at its start; at check levels 1 and 2, one
 * bit per STOW_HEAP_ALIGN bytes (1/64 of the storage on Cortex-M).
 * STOW_HEAP_BYTES_FOR counts the storage's share.
 *
 * Failures: a request that cannot be met (no slot and no free block large
 * enough, a size beyond the heap, a size that overflows when the header is
 * added, an alignment larger than the heap, calloc's n * size overflowing
 * size_t) returns NULL, counts in stats().fails and calls the failed hook, at
 * every check level. Everything listed under "contract violation" is a caller
 * bug: it goes to the port's assert hook (STOW_CHECK_LEVEL >= 1) with the
 * call's name and the misuse ("stow_heap_free: not a live block of this heap")
 * and, if the hook returns, the call returns NULL / 0 / false / does nothing
 * with the heap exactly as it was. At level 0 a violation is undefined.
 *
 * Level 1 checks every pointer given to free, realloc and usable_size: it must
 * be a live slot or block of this heap. A pointer outside the heap, inside a
 * slot or block, misaligned, or to one already freed is a violation, found by
 * one bit per STOW_HEAP_ALIGN bytes that marks where live slots and blocks
 * start (so double free is caught at level 1 already), in O(1) plus one
 * comparison per region to find the pointer's.
 * Level 2 adds, in O(block size) per call:
 *   - poison: freed bytes are filled with 0xDD; alloc and realloc report
 *     (through the assert hook, as stow_heap_alloc) free bytes that changed
 *     while they were free, then hand the slot or block out anyway; a free
 *     that empties a page of slots reports them for its slots (as
 *     stow_heap_free), since the page is poisoned afresh for its next class;
 *   - a canary: each slot and block keeps, after the requested bytes, 0xDD up
 *     to a last word that holds the requested size (so level 2 slots and
 *     blocks are one word larger); free and realloc report ("stow_heap_free:
 *     write past the end of the block") one whose canary changed, then go on.
 *     usable_size is then the requested size.
 * AddressSanitizer builds, at every level, poison freed slots and blocks, so
 * that a read or write through a stale pointer is reported where it happens
 * (see config.h).
 *
 * Costs: instructions per call on Cortex-M4 at -O2, level 0, each call timed
 * on its own under QEMU (make bench; docs/heap.md has every row and core).
 * Replaying the traces of bench/traces/, mean / longest: alloc 39 / 84 (Lua),
 * 34 / 80 (OpenSSL), 49 / 80 (Python); free 34 / 83, 30 / 85, 44 / 77. A
 * slot takes 25 to allocate (32 the first time it is handed out) and 24 to
 * free (FreeRTOS's heap_4 takes 51 and 41 for 16 bytes); a block 45 to 83 to
 * allocate (52 from the top) and 32 to 76 to free, the most when a class
 * fills or empties at each step; the longest paths are a page taken from the
 * top (70) or given back (64), an emptied page joining the runs of empty
 * pages around it (up to 85 in the traces), a block split from a block alone
 * in its class, found in the next word of class bits, with the rest put in an
 * empty class (83; 86 two words on, 88 in the fourth word, which only blocks
 * of 32 MiB and more reach), and a block freed between two free neighbours,
 * each alone in its class (76). At
 * level 1 add about 20 to alloc and 45 to free (the live-start bits, and the
 * regions' lookup). A moving realloc copies min(old usable size, new size)
 * bytes four words at a time (about 1.7 instructions a word). Before its first
 * use, a DEFINE'd heap has not laid out its storage; the first call does (O(1)
 * at level 0; at levels 1 and 2 it clears the bit map, storage / (8 *
 * STOW_HEAP_ALIGN) bytes, once), and so does init.
 *
 * Shared use (interrupts, threads, cores): stow_heap_alloc_isr(),
 * stow_heap_free_isr() and stow_heap_realloc_isr() run the plain call under the
 * heap's own lock, stow_port_lock() on a word inside the heap (stow/port.h).
 * With the Cortex-M and RISC-V ports that lock masks interrupts on the core;
 * with the host port it is a lock on that word alone, so threads on two heaps
 * never wait for each other. Every call that changes a shared heap must then go
 * through them or run between stow_heap_lock() and stow_heap_unlock() (calloc,
 * aligned alloc, add_region, stats, check...). The one-core ports' lock masks
 * neither NMI nor HardFault, and does not stop another core (a heap shared
 * between cores needs a port whose lock spins on the word too: stow/port.h,
 * "Writing your own"). A moving realloc copies under the lock: O(size) with
 * interrupts masked. The hooks run inside the call, under the lock when the
 * call holds it. Per call, from a thread / an interrupt handler / another core
 * while other contexts use the same heap ("port" = with a port whose lock
 * spans cores: host, Zephyr SMP, or your own):
 *   alloc_isr, free_isr, realloc_isr,    safe / safe / port
 *   lock/unlock
 *   alloc, alloc_aligned, calloc,        not safe: only between lock() and
 *   realloc, free, usable_size, stats,   unlock(), or in a context that has the
 *   largest_free, check, add_region,     heap to itself (usable_size reads a
 *   set_failed_hook, set_trace           header a neighbour's free rewrites)
 *   init, init_bounded                   not safe: before any sharing starts
 *
 * Options: STOW_CHECK_LEVEL and STOW_HEAP_TRACE (config.h) change the layout of
 * stow_heap_t and of the storage: build the library and its users alike.
 *
 * The fields of stow_heap_t are private; they are in the header only so that
 * STOW_HEAP_DEFINE can build the object with a constant initializer.
 */
#ifndef STOW_HEAP_H
#define STOW_HEAP_H

#include "config.h"
#include "stats.h"
#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes in a block's header, payload alignment, the smallest block, and the
 * largest request a slot serves. */
#define STOW_HEAP_OVERHEAD sizeof(void *)
#define STOW_HEAP_ALIGN                                                           \
    (STOW__CAST(size_t, STOW_DEFAULT_ALIGN) > 2u * sizeof(void *)                 \
         ? STOW__CAST(size_t, STOW_DEFAULT_ALIGN)                                 \
         : 2u * sizeof(void *))
#define STOW_HEAP_MIN_BLOCK (((4u * sizeof(void *)) + STOW_HEAP_ALIGN - 1u) & ~(STOW_HEAP_ALIGN - 1u))
#define STOW_HEAP_SMALL_MAX (9u * STOW_HEAP_ALIGN - STOW__HEAP_TAIL)

/* Level 2 keeps the requested size in each slot's and block's last word. */
#if STOW_CHECK_LEVEL >= 2
#define STOW__HEAP_TAIL sizeof(void *)
#else
#define STOW__HEAP_TAIL (sizeof(void *) * 0u)
#endif

/* STOW_HEAP_TRACE changes stow_heap_t, so it joins the link-time check of the
 * options (config.h): init's link name spells it, and a DEFINE'd heap's config
 * field points at four symbols, the three every container names and the one
 * that names this option's value, which the library defines. */
#if STOW_HEAP_TRACE
#define STOW__HEAP_GUARD_TRACE STOW_HEAP_TRACE_1
#else
#define STOW__HEAP_GUARD_TRACE STOW_HEAP_TRACE_0
#endif
#if STOW__HAVE_GUARD
#ifdef __cplusplus
extern "C" {
#endif
extern const char STOW__GUARD_SYMBOL(STOW__HEAP_GUARD_TRACE);
#ifdef __cplusplus
}
#endif
#define STOW__HEAP_GUARDED(fn)                                                                 \
    __asm__(STOW__STR(__USER_LABEL_PREFIX__) #fn "__" STOW__STR(STOW__GUARD_LEVEL) "__"        \
            STOW__STR(STOW__GUARD_INDEX) "__" STOW__STR(STOW__GUARD_OVERFLOW) "__"             \
            STOW__STR(STOW__HEAP_GUARD_TRACE))
#ifdef __cplusplus
extern "C++" {
template <long Level, long IndexBits, long Overflow, long Trace> struct stow__heap_config_guard_of {
    static const char *const symbols[4];
};
template <long Level, long IndexBits, long Overflow, long Trace>
const char *const stow__heap_config_guard_of<Level, IndexBits, Overflow, Trace>::symbols[4] = {
    &STOW__GUARD_SYMBOL(STOW__GUARD_LEVEL), &STOW__GUARD_SYMBOL(STOW__GUARD_INDEX),
    &STOW__GUARD_SYMBOL(STOW__GUARD_OVERFLOW), &STOW__GUARD_SYMBOL(STOW__HEAP_GUARD_TRACE)};
}
#define STOW__HEAP_CONFIG_GUARD                                                                \
    (stow__heap_config_guard_of<STOW_CHECK_LEVEL, STOW_HANDLE_INDEX_BITS, STOW_GENERATION_OVERFLOW, \
                                STOW_HEAP_TRACE>::symbols)
#else
#define STOW__HEAP_CONFIG_GUARD                                                                \
    ((const char *const[4]){&STOW__GUARD_SYMBOL(STOW__GUARD_LEVEL),                           \
                            &STOW__GUARD_SYMBOL(STOW__GUARD_INDEX),                           \
                            &STOW__GUARD_SYMBOL(STOW__GUARD_OVERFLOW),                        \
                            &STOW__GUARD_SYMBOL(STOW__HEAP_GUARD_TRACE)})
#endif
#else
#define STOW__HEAP_GUARDED(fn)
#define STOW__HEAP_CONFIG_GUARD STOW__CONFIG_GUARD
#endif

typedef struct stow_heap stow_heap_t;

/* Called after a request is refused and counted in stats().fails, with the
 * heap and the bytes asked for (calloc: n * size, or SIZE_MAX when that
 * overflows). It may allocate from another heap, or record and return; it must
 * not call into this heap. */
typedef void stow_heap_failed_fn(stow_heap_t *h, size_t size);

/* Called after each call when STOW_HEAP_TRACE is 1: op is 'm' (alloc), 'c'
 * (calloc; size is n * size, arg is n), 'a' (aligned alloc; arg is the
 * alignment asked for), 'r' (realloc; old is the block it resized, block the
 * result), 'f' (free; not called for free(NULL)); block is NULL for a refused
 * request. realloc(NULL, n) reports as 'm'. */
typedef void stow_heap_trace_fn(void *ctx, char op, const void *block, size_t size, const void *old,
                                size_t arg);

/* Where a region's blocks are. Region 0 is the storage of DEFINE or init;
 * every region added after it keeps one of these at its start. */
typedef struct stow_heap_region stow_heap_region_t;
struct stow_heap_region {
    stow_heap_region_t *next; /* the next region, or NULL */
    unsigned char *first;     /* the first block */
    unsigned char *limit;     /* the word that ends the blocks (a header of size 0, in use) */
    unsigned char *top;       /* one past the region's slot pages and blocks */
    unsigned char *end;       /* one past the storage it was given */
    uint32_t *starts;         /* level >= 1: bit i: a live slot or block starts at first + WORD + i * ALIGN */
};

/* Size classes of free blocks: four per power of two (and one per
 * STOW_HEAP_ALIGN below 4 * STOW_HEAP_ALIGN), from STOW_HEAP_MIN_BLOCK up,
 * for blocks below 2^28 bytes on 32-bit targets and 2^40 on 64-bit ones (a
 * region's blocks stay below that): 94 classes on Cortex-M, 138 on x86-64,
 * their bits in four words (see heap.c). */
#define STOW__HEAP_LOG2_LIMIT (sizeof(size_t) >= 8u ? 40u : 28u)
#define STOW__HEAP_ALIGN_SHIFT STOW__SHIFT_OF(STOW_HEAP_ALIGN)
#define STOW__HEAP_CLASSES \
    (4u * (STOW__HEAP_LOG2_LIMIT - STOW__HEAP_ALIGN_SHIFT) - 4u - STOW_HEAP_MIN_BLOCK / STOW_HEAP_ALIGN)
#define STOW__HEAP_CLASS_WORDS 4u
#define STOW__HEAP_SLOT_CLASSES 8u

/* The fields are in the order the heap's fast paths address them by (see
 * heap.c, "Size classes"): the class bits first, so that a class's word of
 * bits is the object's word c / 32, then as many words before heads[] as
 * heap.c's formula for a size's class gives for the smallest block (14 on
 * Cortex-M), so that the head of class c is the object's word c. top and
 * zone_lo, zone_lo and zone_len, used and peak are neighbours (one load each
 * pair). */
struct stow_heap {
    size_t classes[STOW__HEAP_CLASS_WORDS];        /* class bits (heap.c, "Size classes"): which classes have a block */
    unsigned char *avail[STOW__HEAP_SLOT_CLASSES]; /* per slot size: a page with a free slot, or NULL */
    uint32_t bounded;           /* 1: power-of-two blocks, no slots (STOW_HEAP_BYTES_FOR holds) */
    size_t fast_max;            /* the largest request the fast paths serve: 0 until laid out, always 0 when bounded */
    void *heads[STOW__HEAP_CLASSES];               /* the first free block of each class, or NULL */
    unsigned char *buf;         /* region 0's storage, as DEFINE'd or given to init */
    size_t size;
    const char *const *config;  /* the options its DEFINE saw (config.h), or NULL after init */
    uint32_t lock;              /* the port's lock word for the _isr calls and lock(): 0 when free */
    uint32_t fails;             /* refused requests */
    unsigned char *spare;       /* the first empty page of slots not at the bottom, or NULL */
    unsigned char *top;         /* region 0's last block when it is free (not in a class), or its end word */
    unsigned char *zone_lo;     /* the lowest page of slots (region 0's top when none) */
    size_t zone_len;            /* the bytes of the pages of slots: region 0's top - zone_lo */
    size_t max_size;            /* the largest request an empty region could meet; 0 until laid out */
    size_t used;                /* bytes in live slots and blocks, headers included */
    size_t peak;                /* high-water mark of used (see heap.c) */
    stow_heap_failed_fn *failed;
    stow_heap_region_t region;  /* region 0; .first is NULL until the storage is laid out */
#if STOW_HEAP_TRACE
    stow_heap_trace_fn *trace;
    void *trace_ctx;
#endif
};

/* sizeof(stow_heap_t), for budgets: about 0.9 KiB on 32-bit targets. */
#define STOW_HEAP_STRUCT_BYTES sizeof(stow_heap_t)

/* The block a request of size bytes takes in a bounded heap (default
 * alignment): size, the header (and at level 2 the size word) rounded up to a
 * power of two, at least STOW_HEAP_MIN_BLOCK. A constant expression when size
 * is. */
#define STOW_HEAP_BLOCK_BYTES(size) (UINT64_C(1) << STOW__HEAP_BLOCK_LOG2(STOW__CAST(uint64_t, size)))

/* Storage bytes for a bounded heap that can never fail for lack of a large
 * enough free block, when the requested bytes live at once never exceed
 * max_live_bytes, no request exceeds max_request, and none is below
 * min_request (1 or more; a 0-byte request counts as 1). See "Sizing" above.
 * Holds for heaps from STOW_HEAP_DEFINE_BOUNDED or stow_heap_init_bounded, not
 * for the default policy. A constant expression when its arguments are;
 * uint64_t arithmetic (check the result fits your RAM, let alone size_t). */
#define STOW_HEAP_BYTES_FOR_MIN(max_live_bytes, max_request, min_request)                   \
    STOW__HEAP_BOUND(STOW__HEAP_REQ(max_live_bytes), STOW__CAST(uint64_t, max_request),   \
                     STOW__HEAP_REQ(min_request), STOW__HEAP_BLOCK_LOG2(STOW__HEAP_REQ(min_request)))
#define STOW_HEAP_BYTES_FOR(max_live_bytes, max_request) \
    STOW_HEAP_BYTES_FOR_MIN(max_live_bytes, max_request, 1u)

/* STOW_HEAP_DEFINE(name, bytes): defines, at file or namespace scope, a ready
 * heap `name` (default policy) over bytes of storage (a constant; at least
 * STOW_HEAP_MIN_BYTES, checked at compile time), aligned to STOW_HEAP_ALIGN and
 * placed in the NOBITS section .bss.stow.heap.<name> (see linker/stow.ld). No
 * init call; the storage need not be zeroed. STOW_HEAP_DEFINE_STATIC makes
 * `name` file-local. Inside a C++ class a DEFINE is a compile error whose text
 * points to the C++ layer. The _BOUNDED forms define a bounded heap (see
 * "Sizing"), e.g. STOW_HEAP_DEFINE_BOUNDED(h, STOW_HEAP_BYTES_FOR(2048, 256)). */
#define STOW_HEAP_DEFINE(name, bytes) STOW__HEAP_DEFINE(STOW__CONSTINIT, STOW__NO_SUBSYSTEM, name, bytes, 0u)
#define STOW_HEAP_DEFINE_STATIC(name, bytes) \
    STOW__HEAP_DEFINE(static STOW__CONSTINIT, STOW__NO_SUBSYSTEM, name, bytes, 0u)
#define STOW_HEAP_DEFINE_BOUNDED(name, bytes) \
    STOW__HEAP_DEFINE(STOW__CONSTINIT, STOW__NO_SUBSYSTEM, name, bytes, 1u)
#define STOW_HEAP_DEFINE_BOUNDED_STATIC(name, bytes) \
    STOW__HEAP_DEFINE(static STOW__CONSTINIT, STOW__NO_SUBSYSTEM, name, bytes, 1u)
/* The same, counted in subsystem sub (stow/report.h: subsystems and budgets). */
#define STOW_HEAP_DEFINE_IN(sub, name, bytes) \
    STOW__HEAP_DEFINE(STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, bytes, 0u)
#define STOW_HEAP_DEFINE_STATIC_IN(sub, name, bytes) \
    STOW__HEAP_DEFINE(static STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, bytes, 0u)
#define STOW_HEAP_DEFINE_BOUNDED_IN(sub, name, bytes) \
    STOW__HEAP_DEFINE(STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, bytes, 1u)
#define STOW_HEAP_DEFINE_BOUNDED_STATIC_IN(sub, name, bytes) \
    STOW__HEAP_DEFINE(static STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, bytes, 1u)

/* The smallest storage a heap accepts: room for one minimum block and the
 * heap's own words in it; and the smallest an added region accepts, which
 * also keeps its description (stow_heap_region_t) at its start. */
#define STOW_HEAP_MIN_BYTES STOW__HEAP_STORAGE(STOW__CAST(uint64_t, STOW_HEAP_MIN_BLOCK))
#define STOW_HEAP_MIN_REGION_BYTES                                                             \
    (STOW_HEAP_MIN_BYTES +                                                                     \
     ((sizeof(stow_heap_region_t) + sizeof(void *) + STOW_HEAP_ALIGN - 1u) & ~(STOW_HEAP_ALIGN - 1u)) - \
     STOW_HEAP_ALIGN)

/* Makes *h an empty heap (default policy) over the size bytes at buf, its
 * region 0. O(1) at level 0; at levels 1 and 2 it clears the bit map (size /
 * (8 * STOW_HEAP_ALIGN) bytes). Statistics start at zero; no hook is set.
 * Returns false, changing nothing, if buf is NULL, not aligned to
 * STOW_HEAP_ALIGN, or size is below STOW_HEAP_MIN_BYTES. Storage beyond what
 * blocks below 2^28 bytes (2^40 on 64-bit) can use is left alone.
 * Contract violation: h is NULL. */
bool stow_heap_init(stow_heap_t *h, void *buf, size_t size) STOW__HEAP_GUARDED(stow_heap_init);

/* The same for a bounded heap (see "Sizing"): power-of-two blocks, no slots. */
bool stow_heap_init_bounded(stow_heap_t *h, void *buf, size_t size) STOW__HEAP_GUARDED(stow_heap_init_bounded);

/* Adds the size bytes at buf to h as one more region (a heap of either
 * policy; laid out first if it was not yet). O(1) plus one comparison per
 * region already there; at levels 1 and 2 it also clears the region's bit map.
 * Returns false, changing nothing, if buf is NULL, not aligned to
 * STOW_HEAP_ALIGN, size is below STOW_HEAP_MIN_REGION_BYTES, or [buf, buf + size)
 * overlaps a region of h (or h itself). The region stays the heap's: there is
 * no call to take it back. Contract violation: h is NULL. */
bool stow_heap_add_region(stow_heap_t *h, void *buf, size_t size);

/* size bytes aligned to STOW_HEAP_ALIGN, or NULL (counting a fail) when no slot
 * and no free block can hold them. Contents unspecified. O(1); at level 2 also
 * O(block) for the poison check and the canary. Contract violation: h is NULL.
 * Level 2 also reports, as stow_heap_alloc, free bytes written while they were
 * free. */
void *stow_heap_alloc(stow_heap_t *h, size_t size);

/* size bytes aligned to align (a power of two; 0 means STOW_HEAP_ALIGN, and
 * anything below it gives STOW_HEAP_ALIGN), or NULL (counting a fail) when no
 * free block can hold them or align exceeds the heap. O(1). Contract violation
 * (returns NULL, fails unchanged): h is NULL; align is not 0 or a power of
 * two. */
void *stow_heap_alloc_aligned(stow_heap_t *h, size_t size, size_t align);

/* n * size bytes, zeroed, aligned to STOW_HEAP_ALIGN; NULL (counting a fail)
 * when n * size overflows size_t or there is no room. O(1) + O(n * size) for the
 * zeroing. Contract violation: h is NULL. */
void *stow_heap_calloc(stow_heap_t *h, size_t n, size_t size);

/* C's realloc: p's slot or block resized to size bytes, its contents kept up
 * to the smaller of the old usable size and the new size, with the alignment p
 * was allocated with.
 *   - p NULL: stow_heap_alloc(h, size).
 *   - size 0: like any other size, the smallest slot or block; the result is
 *     not NULL and is freed like any (p is not freed by it).
 *   - default policy: a slot stays while the new size fits it, and moves to
 *     grow; a block shrinks in place (the bytes given back become a free block
 *     when there are enough of them), grows in place when the block after it
 *     is free and large enough, and otherwise moves. A shrink never moves.
 *   - bounded policy: the block stays when the new size takes the same
 *     power-of-two block, and otherwise moves to one of the new size, a
 *     shrink too: where the policy puts it, so that the bound holds (it counts
 *     the old and the new size while the move runs).
 *   - a shrink never fails: when a bounded heap has no room to move it, it
 *     stays in place and gives its tail back.
 * Returns the slot or block (p itself when it stayed), or NULL (counting a
 * fail) when there is no room, in which case p is untouched and still valid.
 * O(1) in place (plus O(block) at level 2); O(size) when it moves, which copies
 * min(old usable size, size) bytes, four words at a time.
 * Contract violation (returns NULL, nothing changes): h is NULL; p is not a
 * live slot or block of this heap (see "Level 1"). */
void *stow_heap_realloc(stow_heap_t *h, void *p, size_t size);

/* Gives p's slot or block back; free neighbours merge with a block. NULL is
 * ignored. O(1); at level 2 also O(block). Contract violation (nothing
 * changes): h is NULL; p is not a live slot or block of this heap: outside it,
 * inside one, misaligned, or freed already (see "Level 1"). Level 2 also
 * reports a changed canary (the block is freed anyway). */
void stow_heap_free(stow_heap_t *h, void *p);

/* alloc, free and realloc under the heap's lock (see "Shared use" above):
 * ISR-safe and thread-safe, and they nest (inside lock()/unlock() or the
 * caller's own critical section). Same results and violations, the same text
 * for them. Safe from a thread and from an interrupt handler; from another core
 * only with a port whose lock spans cores. */
void *stow_heap_alloc_isr(stow_heap_t *h, size_t size);
void stow_heap_free_isr(stow_heap_t *h, void *p);
void *stow_heap_realloc_isr(stow_heap_t *h, void *p, size_t size);

/* Takes and releases the heap's lock, so that other calls (calloc, an aligned
 * alloc, stats, check) or several calls in a row run as one step against every
 * _isr call elsewhere. Between them use the plain calls; lock() returns the
 * state unlock() needs. Pairs nest. O(1). Hold it briefly: on Cortex-M it
 * masks interrupts. Safe from a thread and from an interrupt handler; from
 * another core only with a port whose lock spans cores.
 * Contract violation: h is NULL (lock returns 0, unlock does nothing). */
uint32_t stow_heap_lock(stow_heap_t *h);
void stow_heap_unlock(stow_heap_t *h, uint32_t state);

/* The bytes p may use: at least what was asked for (at level 2 exactly that).
 * O(1). Contract violation (returns 0): h is NULL; p is not a live slot or
 * block of this heap (NULL included). */
size_t stow_heap_usable_size(const stow_heap_t *h, const void *p);

/* Fills *out, in bytes: capacity (the bytes of slot pages and blocks, headers
 * included, that the regions hold), used (bytes in live slots and blocks,
 * headers included), peak (the high-water mark of used since DEFINE or init),
 * fails (refused requests; contract violations are not counted). O(1).
 * Contract violation: h or out is NULL. */
void stow_heap_stats(const stow_heap_t *h, stow_stats_t *out);

/* The largest size stow_heap_alloc() is sure to serve now (0 when it could
 * refuse even size 0): every request up to it succeeds. A larger one fails,
 * unless it is at most STOW_HEAP_SMALL_MAX and a page already holds a free
 * slot of its size. O(1). Contract violation: h is NULL (returns 0). */
size_t stow_heap_largest_free(const stow_heap_t *h);

/* Names the function called after each refused request (NULL: none). O(1).
 * Contract violation: h is NULL. */
void stow_heap_set_failed_hook(stow_heap_t *h, stow_heap_failed_fn *fn);

#if STOW_HEAP_TRACE
/* Names the function called after each alloc, calloc, aligned alloc, realloc
 * and free of h (NULL: none), with ctx. O(1). Contract violation: h is NULL. */
void stow_heap_set_trace(stow_heap_t *h, stow_heap_trace_fn *fn, void *ctx);
#endif

/* A stow_heap_trace_fn that writes one line per call through stow_port_write()
 * (or the tracer's own write function),
 * in the format of adapters/preload's STOW_HEAP_TRACE ("op id size arg"; see
 * docs/heap.md), after a first line "# stow trace 1: op id size arg". ctx is a
 * stow_heap_tracer_t: a table of capacity entries (a power of two, at least
 * twice the most slots and blocks live at once) in which a live block's id is
 * its entry's place plus one, so that ids are small numbers unique among the
 * live blocks and used again after a free (bench/replay.c and `make heap-size`
 * replay such traces). A block the table has no room for is written with id
 * 0, as a refused request is, and counted in dropped. O(capacity) at worst per
 * call (a debug path). Available whatever STOW_HEAP_TRACE is. */
typedef struct stow_heap_tracer {
    const void **blocks; /* capacity entries, NULL to start with */
    size_t capacity;     /* a power of two */
    /* Where the lines go: NULL for stow_port_write(), else write(write_ctx,
     * text, len) (a buffer, a UART, a test). */
    void (*write)(void *write_ctx, const char *text, size_t len);
    void *write_ctx;
    uint32_t dropped;    /* blocks that found no room in the table */
    bool started;        /* the first line is written */
} stow_heap_tracer_t;
#define STOW_HEAP_TRACER(table) {(table), sizeof(table) / sizeof((table)[0]), STOW__NULL, STOW__NULL, 0u, false}
void stow_heap_trace_write(void *ctx, char op, const void *block, size_t size, const void *old, size_t arg);

/* Walks every region's blocks, every slot page and every size class and
 * returns false if any invariant is broken: block sizes and bounds, headers
 * that disagree with their neighbours, two free blocks side by side, a free
 * block in the wrong class or missing from its class, a broken class list, the
 * class bits, the pages' headers and free slots, the lists of pages, the used
 * count; at level 1 the live-start bits; at level 2 the poison of every free
 * block and slot and the canary of every live one. For tests and debug builds.
 * O(capacity). Contract violation: h is NULL (returns false). */
bool stow_heap_check(const stow_heap_t *h);

/* ---- private: what the macros above expand to ----------------------------------- */

/* The sizing macros are constant expressions, which cannot keep a value in a
 * variable: each use of a parameter is expanded again, and macros nested inside
 * macros that use a parameter twice grow exponentially (a power of two found by
 * smearing bits, inside a max, inside a bit count, came to over a megabyte of
 * text for one STOW_HEAP_BYTES_FOR, which every file using it paid for in
 * compile time). So the costly value, a block's log2, is a sum in which each
 * term names its argument once, and the bound names it a few times at most. */

/* A block's header (and at level 2 its size word) less one, and the smallest
 * block less one, as constants that expand to one name each. */
enum stow__heap_sizes {
    STOW__HEAP_HEAD_LESS_1 = STOW_HEAP_OVERHEAD + STOW__HEAP_TAIL - 1u,
    STOW__HEAP_MIN_LESS_1 = STOW_HEAP_MIN_BLOCK - 1u
};
#define STOW__HEAP_REQ(m) (STOW__CAST(uint64_t, m) > 1u ? STOW__CAST(uint64_t, m) : UINT64_C(1))

/* The block of a request of x bytes (uint64_t) is 2^L, L the bit length of
 * v = (x + header - 1) | (smallest block - 1): a power of two at least x +
 * header, and at least the smallest block. L counts the k in 0..62 with v >=
 * 2^k, each term naming x once; LOG2_MIN does it for the smaller of two
 * requests (the one whose v has the shorter bit length). */
#define STOW__HEAP_V(x) (((x) + STOW__HEAP_HEAD_LESS_1) | STOW__HEAP_MIN_LESS_1)
#define STOW__HEAP_AT(x, pow) (STOW__HEAP_V(x) >= (pow) ? 1u : 0u)
#define STOW__HEAP_AT_MIN(x, pow) (STOW__HEAP_V(STOW__HEAP_MIN2 x) >= (pow) ? 1u : 0u)
#define STOW__HEAP_MIN2(x, y) ((x) < (y) ? (x) : (y))
/* The sum of at(x, 2^k) for k in 0..62. */
#define STOW__HEAP_AT8(at, x, p)                                                                              \
    (at(x, UINT64_C(0x1##p)) + at(x, UINT64_C(0x2##p)) + at(x, UINT64_C(0x4##p)) + at(x, UINT64_C(0x8##p)) + \
     at(x, UINT64_C(0x10##p)) + at(x, UINT64_C(0x20##p)) + at(x, UINT64_C(0x40##p)) + at(x, UINT64_C(0x80##p)))
#define STOW__HEAP_SUM63(at, x)                                                                               \
    (STOW__HEAP_AT8(at, x, ) + STOW__HEAP_AT8(at, x, 00) + STOW__HEAP_AT8(at, x, 0000) +                      \
     STOW__HEAP_AT8(at, x, 000000) + STOW__HEAP_AT8(at, x, 00000000) + STOW__HEAP_AT8(at, x, 0000000000) +     \
     STOW__HEAP_AT8(at, x, 000000000000) + at(x, UINT64_C(0x100000000000000)) +                               \
     at(x, UINT64_C(0x200000000000000)) + at(x, UINT64_C(0x400000000000000)) +                                \
     at(x, UINT64_C(0x800000000000000)) + at(x, UINT64_C(0x1000000000000000)) +                               \
     at(x, UINT64_C(0x2000000000000000)) + at(x, UINT64_C(0x4000000000000000)))
#define STOW__HEAP_BLOCK_LOG2(x) STOW__HEAP_SUM63(STOW__HEAP_AT, x)
/* The same for the smaller of x and y. */
#define STOW__HEAP_LOG2_MIN(x, y) STOW__HEAP_SUM63(STOW__HEAP_AT_MIN, (x, y))

/* The bound for live (at least 1), max_req and min_req (at least 1) requested
 * bytes: M (1 + log2(n / m)) block bytes, counting the largest request as at
 * most live (no request can be larger than the bytes live). M, the block
 * bytes live at once, is at most live * c, c the most block bytes a requested
 * byte can cost: BLOCK(r) / r falls while BLOCK(r) stays and jumps where it
 * doubles, each jump lower than the one before, so for r >= min_req its
 * largest value is at r = m = min_req, B / m (B = BLOCK(m) = 2^lb), or at the
 * first jump, r1 = B - header + 1, 2 B / r1, when a request that large is
 * allowed; the jump's is the larger exactly when 2 m > r1. Then live * c is at
 * least the largest block. */
#define STOW__HEAP_BOUND(live, max_req, min_req, lb)                                          \
    STOW__HEAP_STORAGE(STOW__HEAP_LIVE_BLOCKS(live, max_req, min_req, lb) *                   \
                       (1u + STOW__HEAP_LOG2_MIN(max_req, live) - (lb)))
#define STOW__HEAP_MIN3(a, b, c) ((a) < (b) ? ((a) < (c) ? (a) : (c)) : ((b) < (c) ? (b) : (c)))
/* The jump's cost applies: r1 <= each of max_req, live and 2 m - 1, that is
 * their least + header - 1 >= 2^lb. */
#define STOW__HEAP_JUMP(live, max_req, min_req, lb) \
    (((STOW__HEAP_MIN3(max_req, live, 2u * (min_req) - 1u) + STOW__HEAP_HEAD_LESS_1) >> (lb)) != 0u)
/* ceil(live * c), as (a - 1) / d + 1 (a >= 1) */
#define STOW__HEAP_LIVE_BLOCKS(live, max_req, min_req, lb)                                  \
    (STOW__HEAP_JUMP(live, max_req, min_req, lb)                                            \
         ? (((live) << ((lb) + 1u)) - 1u) / ((UINT64_C(1) << (lb)) - STOW__HEAP_HEAD_LESS_1) + 1u \
         : (((live) << (lb)) - 1u) / (min_req) + 1u)

/* Storage for blocks of b bytes: the first payload's alignment and the end
 * word (ALIGN together) and, at levels 1 and 2, the live-start bits in 32-bit
 * words: b / (8 ALIGN) bytes, with two words and one granule of slack for the
 * rounding (b named once: (b + b / (8 ALIGN)) as one quotient). */
#if STOW_CHECK_LEVEL >= 1
#define STOW__HEAP_STORAGE(b)                                                                    \
    (STOW__CAST(uint64_t, b) * (8u * STOW_HEAP_ALIGN + 1u) / (8u * STOW_HEAP_ALIGN) + 2u * STOW_HEAP_ALIGN + 8u)
#else
#define STOW__HEAP_STORAGE(b) (STOW__CAST(uint64_t, b) + STOW_HEAP_ALIGN)
#endif

/* The constant initializer of a heap over bytes at buf: what DEFINE and the C++
 * layer build. The first call lays it out: the class lists (the last three
 * arguments: avail, classes, heads) are set then, whatever they held; DEFINE gives them zeros,
 * the C++ layer values that a constructor run at run time can store without
 * zero-filling them in bulk (a call to memset). */
#if STOW_HEAP_TRACE
#define STOW__HEAP_TRACE_INIT , STOW__NULL, STOW__NULL
#else
#define STOW__HEAP_TRACE_INIT
#endif
#define STOW__HEAP_INITIALIZER(buf, bytes, config, bounded) \
    STOW__HEAP_INITIALIZER_TAIL(buf, bytes, config, bounded, {STOW__NULL}, {0u}, {STOW__NULL})
#define STOW__HEAP_INITIALIZER_TAIL(buf, bytes, config, bounded, avail, classes, heads)             \
    {classes,                                                                                        \
     avail,                                                                                          \
     (bounded),                                                                                      \
     0u,                                                                                             \
     heads,                                                                                          \
     (buf),                                                                                          \
     STOW__CAST(size_t, bytes),                                                                      \
     (config),                                                                                       \
     0u,                                                                                             \
     0u,                                                                                             \
     STOW__NULL,                                                                                     \
     STOW__NULL,                                                                                     \
     STOW__NULL,                                                                                     \
     0u,                                                                                             \
     0u,                                                                                             \
     0u,                                                                                             \
     0u,                                                                                             \
     STOW__NULL,                                                                                     \
     {STOW__NULL, STOW__NULL, STOW__NULL, STOW__NULL, STOW__NULL, STOW__NULL}                        \
     STOW__HEAP_TRACE_INIT}

#define STOW__HEAP_DEFINE(linkage, sub, name, bytes, bounded)                              \
    STOW__FILE_SCOPE_ONLY;                                                                 \
    /* bytes in [MIN_BYTES, SIZE_MAX], bytes named once (the sizing macros are long) */   \
    STOW_STATIC_ASSERT((STOW__CAST(uint64_t, bytes) - STOW_HEAP_MIN_BYTES) /               \
                               (STOW__CAST(uint64_t, SIZE_MAX) - STOW_HEAP_MIN_BYTES + 1u) == 0u, \
                       "STOW_HEAP_DEFINE: bytes must be at least STOW_HEAP_MIN_BYTES and fit size_t"); \
    STOW_ALIGNAS(STOW_HEAP_ALIGN) STOW__SECTION_IN(sub, heap, name)                        \
    static unsigned char stow__heap_buf_##name[STOW__CAST(size_t, bytes)];                 \
    linkage stow_heap_t name = STOW__HEAP_INITIALIZER(stow__heap_buf_##name,               \
                                                      sizeof stow__heap_buf_##name,        \
                                                      STOW__HEAP_CONFIG_GUARD, bounded);   \
    STOW__REGISTER(sub, heap, name, stow__heap_buf_##name)

#ifdef __cplusplus
}
#endif

#endif /* STOW_HEAP_H */
