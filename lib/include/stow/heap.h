/* SPDX-License-Identifier: MIT */
/* stow/heap.h - a variable-size heap over static storage, in bounded time.
 *
 * The heap serves requests of any size from one static buffer: a JSON document,
 * a TLS record, a Lua string, a message of unknown length. alloc, aligned
 * alloc, free, and realloc when it can stay in place run in constant time with
 * no loop over blocks or size classes, so an interrupt handler or a control loop
 * can call them with a known worst case; and a heap sized with
 * STOW_HEAP_BYTES_FOR never fails for lack of a large enough piece, however the
 * program allocates and frees within the limits it gave.
 *
 *     STOW_HEAP_DEFINE(msg_heap, 16 * 1024);            // file scope: ready, no init call
 *     char *text = stow_heap_alloc(&msg_heap, len + 1);  // NULL when there is no room
 *     ...
 *     text = stow_heap_realloc(&msg_heap, text, 2 * len + 1);  // on NULL, text is still valid
 *     stow_heap_free(&msg_heap, text);                   // NULL is ignored
 *
 * Blocks. Each request takes a block: the request plus a header of two words
 * (STOW_HEAP_OVERHEAD: 8 bytes on 32-bit targets, 16 on 64-bit), rounded up to
 * a power of two, and at least STOW_HEAP_MIN_BLOCK (four words: 16 or 32
 * bytes). Payloads are aligned to STOW_HEAP_ALIGN, the larger of
 * STOW_DEFAULT_ALIGN and two words (see the table below). stow_heap_usable_size() tells how much
 * of its block a pointer may use. Only when no power-of-two block can be found
 * does the heap look at the first free block of the size class below, and hand
 * out exactly what the request needs if that block is large enough: so the whole
 * of an empty heap can be had in one request, and stow_heap_largest_free() says
 * exactly what will succeed: every request up to it, none larger. (It is the
 * first block of the highest non-empty class; a larger block further down that
 * class's list is not looked at, so a request that only it could hold is
 * refused.)
 *
 *   target              STOW_HEAP_OVERHEAD  STOW_HEAP_ALIGN  STOW_HEAP_MIN_BLOCK
 *   Cortex-M (AAPCS)    8                   8                16
 *   rv32 ilp32, i386    8                   16               16
 *   x86-64, AArch64     16                  16               32
 *
 * Size 0 is a request for a block of the minimum size: alloc(0) returns a
 * unique pointer (not NULL) that must not be dereferenced, and can be freed.
 *
 * Sizing by a proven bound. The heap keeps its free blocks in size classes by
 * powers of two and serves a request for a block of 2^k bytes from any free
 * block of the smallest non-empty class that is sure to fit it (2^k or more),
 * splitting off the rest; freed blocks merge with free neighbours at once. This
 * is the policy o1heap uses, and the heap is sized by the bound o1heap
 * documents for it, after J. M. Robson's analysis of allocators whose blocks
 * are powers of two ("Bounds for some functions concerning dynamic storage
 * allocation", J. ACM 21(3), 1974): no sequence of requests exhausts
 *     M * (1 + log2(n / m))
 * bytes of blocks, where M is the most block bytes live at once, n the largest
 * block and m the smallest (lib/src/heap.c gives the idea, and what the tests
 * check). STOW_HEAP_BYTES_FOR(max_live_bytes, max_request) turns that into
 * storage bytes for a program whose live requests never add up to more than
 * max_live_bytes and of which none is larger than max_request: with M counted
 * from requested bytes, each request at its worst (a 1-byte request takes a
 * whole minimum block; a request one byte over a power of two takes nearly
 * twice its size), plus the heap's own words. max_live_bytes counts requested
 * bytes, a 0-byte request as 1. That worst case is many tiny requests, so
 * STOW_HEAP_BYTES_FOR_MIN(max_live_bytes, max_request, min_request) tightens
 * the figure for a program whose requests are never smaller than min_request.
 * Within those limits no request fails, at any check level, with any sequence
 * of frees: tests/test_heap.c drives adversaries that free the blocks that
 * split the heap most and checks it. Aligned requests are outside the bound
 * (each may cost up to its alignment more); count an aligned request as
 * size + align.
 *
 * Aligned allocation: stow_heap_alloc_aligned() takes any power of two up to
 * the heap's size, in O(1): it asks for a block that is sure to hold an aligned
 * payload and gives the bytes before it back as a free block. realloc keeps the
 * alignment a block was allocated with.
 *
 * Memory: besides the blocks, the heap's own words: the stow_heap_t (about 300
 * bytes on 32-bit targets: 32 size classes of two pointers; about 1.1 KiB on
 * 64-bit) and, in the storage, up to STOW_HEAP_ALIGN bytes to align the first
 * payload, a word that ends the blocks and, at check levels 1 and 2, one bit per
 * STOW_HEAP_ALIGN bytes of blocks (1/64 of the storage on Cortex-M).
 * STOW_HEAP_BYTES_FOR counts them all.
 *
 * Failures: a request that cannot be met (no free block large enough, a size
 * beyond the heap, a size that overflows when the header is added, an
 * alignment larger than the heap, calloc's n * size overflowing size_t)
 * returns NULL and counts in stats().fails, at every check level. Everything
 * listed under "contract violation" is a caller bug: it goes to the port's
 * assert hook (STOW_CHECK_LEVEL >= 1) with the call's name and the misuse
 * ("stow_heap_free: not a live block of this heap") and, if the hook returns,
 * the call returns NULL / 0 / does nothing with the heap exactly as it was. At
 * level 0 a violation is undefined.
 *
 * Level 1 checks every pointer given to free, realloc and usable_size: it must
 * be the start of a live block of this heap. A pointer outside the heap,
 * inside a block, misaligned, or to a block already freed is a violation,
 * found in O(1) by one bit per STOW_HEAP_ALIGN bytes that marks where live
 * blocks start (so double free is caught at level 1 already).
 * Level 2 adds, in O(block size) per call:
 *   - poison: freed bytes are filled with 0xDD; alloc and realloc report
 *     (through the assert hook, as stow_heap_alloc) free bytes that changed
 *     while they were free, then hand the block out anyway;
 *   - a canary: each block keeps, after the requested bytes, 0xDD up to a last
 *     word that holds the requested size (so level 2 blocks are one word
 *     larger); free and realloc report ("stow_heap_free: write past the end of
 *     the block") a block whose canary changed, then go on. usable_size is then
 *     the requested size.
 * AddressSanitizer builds, at every level, poison freed blocks, so that a read or
 * write through a stale pointer is reported where it happens (see config.h).
 *
 * Costs: alloc, aligned alloc, free and in-place realloc are O(1), with no loop.
 * Measured by make bench, each call timed on its own, on Cortex-M4 at -O2 level
 * 0 with requests of 8-512 bytes and about 100 blocks live: alloc 47 instructions
 * on average and 63 at most (its longest path, the exact fit from the class
 * below), free 41 on average and 60 at most (both neighbours merged), realloc in
 * place 64 / 96, aligned alloc 113 / 129; calloc adds the zeroing and a moving
 * realloc the copy, a word at a time. Before its first use, a DEFINE'd heap has
 * not laid out its storage; the first call does (O(1) at level 0; at levels 1
 * and 2 it clears the bit map, capacity / (8 * STOW_HEAP_ALIGN) bytes, once),
 * and so does init.
 *
 * Shared use (interrupts, threads, cores): stow_heap_alloc_isr(),
 * stow_heap_free_isr() and stow_heap_realloc_isr() run the plain call under the
 * heap's own lock, stow_port_lock() on a word inside the heap (stow/port.h).
 * With the Cortex-M and RISC-V ports that lock masks interrupts on the core;
 * with the host port it is a lock on that word alone, so threads on two heaps
 * never wait for each other. Every call that changes a shared heap must then go
 * through them or run between stow_heap_lock() and stow_heap_unlock() (calloc,
 * aligned alloc, stats, check...). The one-core ports' lock masks neither NMI
 * nor HardFault, and does not stop another core (a heap shared between cores
 * needs a port whose lock spins on the word too: stow/port.h, "Writing your
 * own"). A moving realloc copies under the lock: O(size) with interrupts
 * masked. Per call, from a thread / an interrupt handler / another core while
 * other contexts use the same heap ("port" = with a port whose lock spans
 * cores: host, Zephyr SMP, or your own):
 *   alloc_isr, free_isr, realloc_isr,    safe / safe / port
 *   lock/unlock
 *   alloc, alloc_aligned, calloc,        not safe: only between lock() and
 *   realloc, free, usable_size, stats,   unlock(), or in a context that has the
 *   largest_free, check                  heap to itself (usable_size reads a
 *                                        header a neighbour's free rewrites)
 *   init                                 not safe: before any sharing starts
 *
 * Options: STOW_CHECK_LEVEL (config.h) changes the layout of stow_heap_t and
 * of the storage: build the library and its users alike.
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

/* A node of a size class's circular list: a free block's links, or a class's
 * own list head. */
typedef struct stow_heap_node stow_heap_node_t;
struct stow_heap_node {
    stow_heap_node_t *next;
    stow_heap_node_t *prev;
};

#define STOW__HEAP_CLASSES (sizeof(size_t) * CHAR_BIT)

typedef struct stow_heap stow_heap_t;
struct stow_heap {
    size_t used;           /* bytes in live blocks, headers included */
    size_t classes_used;   /* bit c: class c (free blocks with c leading zeros in their size) is not empty */
    size_t peak;           /* high-water mark of used */
    size_t max_size;       /* the largest request the empty heap could meet; 0 until laid out */
    unsigned char *first;  /* the first block; NULL until the storage is laid out */
    unsigned char *limit;  /* one past the last block: a header word that ends the blocks */
    uint32_t fails;        /* refused requests */
#if STOW_CHECK_LEVEL >= 1
    uint32_t *starts;      /* bit i: a live block starts at first + i * STOW_HEAP_ALIGN */
#endif
    unsigned char *buf;    /* the storage, as DEFINE'd or given to init */
    size_t size;
    const char *const *config; /* the options its DEFINE saw (config.h), or NULL after init */
    uint32_t lock;             /* the port's lock word for the _isr calls and lock(): 0 when free */
    stow_heap_node_t classes[STOW__HEAP_CLASSES];
};

/* Bytes in a block's header, payload alignment, and the smallest block. */
#define STOW_HEAP_OVERHEAD (2u * sizeof(void *))
#define STOW_HEAP_ALIGN                                                           \
    (STOW__CAST(size_t, STOW_DEFAULT_ALIGN) > 2u * sizeof(void *)                 \
         ? STOW__CAST(size_t, STOW_DEFAULT_ALIGN)                                 \
         : 2u * sizeof(void *))
#define STOW_HEAP_MIN_BLOCK (((4u * sizeof(void *)) + STOW_HEAP_ALIGN - 1u) & ~(STOW_HEAP_ALIGN - 1u))

/* Level 2 keeps the requested size in each block's last word. */
#if STOW_CHECK_LEVEL >= 2
#define STOW__HEAP_TAIL sizeof(void *)
#else
#define STOW__HEAP_TAIL (sizeof(void *) * 0u)
#endif

/* The block a request of size bytes takes (default alignment): size, the header
 * (and at level 2 the size word) rounded up to a power of two, at least
 * STOW_HEAP_MIN_BLOCK. A constant expression when size is. */
#define STOW_HEAP_BLOCK_BYTES(size)                                                       \
    STOW__HEAP_MAX(STOW__CAST(uint64_t, STOW_HEAP_MIN_BLOCK),                             \
                   STOW__HEAP_POW2CEIL(STOW__CAST(uint64_t, size) + STOW_HEAP_OVERHEAD +   \
                                       STOW__HEAP_TAIL))

/* Storage bytes for a heap that can never fail for lack of a large enough free
 * block, when the requested bytes live at once never exceed max_live_bytes, no
 * request exceeds max_request, and none is below min_request (1 or more; a
 * 0-byte request counts as 1). See "Sizing by a proven bound" above. A constant
 * expression when its arguments are; uint64_t arithmetic (check the result
 * fits your RAM, let alone size_t). */
#define STOW_HEAP_BYTES_FOR_MIN(max_live_bytes, max_request, min_request)                 \
    STOW__HEAP_STORAGE(STOW__HEAP_LIVE_BLOCKS(max_live_bytes, max_request, min_request) * \
                       (1u + STOW__BITPOS(STOW_HEAP_BLOCK_BYTES(max_request)) -            \
                        STOW__BITPOS(STOW__CAST(uint64_t, STOW_HEAP_MIN_BLOCK))))
#define STOW_HEAP_BYTES_FOR(max_live_bytes, max_request) \
    STOW_HEAP_BYTES_FOR_MIN(max_live_bytes, max_request, 1u)

/* STOW_HEAP_DEFINE(name, bytes): defines, at file or namespace scope, a ready
 * heap `name` over bytes of storage (a constant; at least STOW_HEAP_MIN_BYTES,
 * checked at compile time), aligned to STOW_HEAP_ALIGN and placed in the NOBITS
 * section .bss.stow.heap.<name> (see linker/stow.ld). No init call; the storage
 * need not be zeroed. STOW_HEAP_DEFINE_STATIC makes `name` file-local. Inside a
 * C++ class a DEFINE is a compile error whose text points to the C++ layer. */
#define STOW_HEAP_DEFINE(name, bytes) STOW__HEAP_DEFINE(STOW__CONSTINIT, name, bytes)
#define STOW_HEAP_DEFINE_STATIC(name, bytes) STOW__HEAP_DEFINE(static STOW__CONSTINIT, name, bytes)
/* The same, counted in subsystem sub (stow/report.h: subsystems and budgets). */
#define STOW_HEAP_DEFINE_IN(sub, name, bytes) \
    STOW__HEAP_DEFINE_IN(STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, bytes)
#define STOW_HEAP_DEFINE_STATIC_IN(sub, name, bytes) \
    STOW__HEAP_DEFINE_IN(static STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, bytes)

/* The smallest storage a heap accepts: room for one minimum block and the
 * heap's own words. */
#define STOW_HEAP_MIN_BYTES STOW__HEAP_STORAGE(STOW__CAST(uint64_t, STOW_HEAP_MIN_BLOCK))

/* Makes *h an empty heap over the size bytes at buf. O(1) at level 0; at
 * levels 1 and 2 it clears the bit map (size / (8 * STOW_HEAP_ALIGN) bytes).
 * Statistics start at zero. Returns false, changing nothing, if buf is NULL,
 * not aligned to STOW_HEAP_ALIGN, or size is below STOW_HEAP_MIN_BYTES.
 * Contract violation: h is NULL. */
bool stow_heap_init(stow_heap_t *h, void *buf, size_t size) STOW__GUARDED(stow_heap_init);

/* size bytes aligned to STOW_HEAP_ALIGN, or NULL (counting a fail) when no free
 * block can hold them. Contents unspecified. O(1); at level 2 also O(block) for
 * the poison check and the canary. Contract violation: h is NULL. Level 2 also
 * reports, as stow_heap_alloc, free bytes written while they were free. */
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

/* C's realloc: p's block resized to size bytes, its contents kept up to the
 * smaller of the two sizes, with the alignment p was allocated with.
 *   - p NULL: stow_heap_alloc(h, size).
 *   - size 0: like any other size, the block shrinks to the minimum; the result
 *     is not NULL and is freed like any block (p is not freed by it).
 *   - shrinking stays in place and never fails (what Lua's allocator contract
 *     needs); the bytes given back become a free block when there are enough
 *     of them.
 *   - growing stays in place when the next block is free and large enough.
 *   - otherwise the data move to a new block: O(size).
 * Returns the block (p itself when it stayed in place), or NULL (counting a
 * fail) when there is no room, in which case p is untouched and still valid.
 * O(1) in place (plus O(block) at level 2); O(size) when it moves.
 * Contract violation (returns NULL, nothing changes): h is NULL; p is not a
 * live block of this heap (see "Level 1"). */
void *stow_heap_realloc(stow_heap_t *h, void *p, size_t size);

/* Gives p's block back; free neighbours merge with it. NULL is ignored. O(1);
 * at level 2 also O(block). Contract violation (nothing changes): h is NULL; p
 * is not a live block of this heap: outside it, inside a block, misaligned, or
 * freed already (see "Level 1"). Level 2 also reports a changed canary (the
 * block is freed anyway). */
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
 * O(1). Contract violation (returns 0): h is NULL; p is not a live block of
 * this heap (NULL included). */
size_t stow_heap_usable_size(const stow_heap_t *h, const void *p);

/* Fills *out, in bytes: capacity (the bytes of blocks, headers included, that
 * the storage holds), used (bytes in live blocks, headers included), peak (the
 * high-water mark of used since DEFINE or init), fails (refused requests;
 * contract violations are not counted). O(1).
 * Contract violation: h or out is NULL. */
void stow_heap_stats(const stow_heap_t *h, stow_stats_t *out);

/* The largest size stow_heap_alloc() would return a block for now (0 when it
 * would refuse even size 0). O(1). Contract violation: h is NULL (returns 0). */
size_t stow_heap_largest_free(const stow_heap_t *h);

/* Walks every block and every size class and returns false if any invariant is
 * broken: block sizes and bounds, headers that disagree with their neighbours,
 * two free blocks side by side, a free block in the wrong class or missing from
 * its class, a broken class list, the class bits, the used count; at level 1 the
 * live-start bits; at level 2 the poison of every free block and the canary of
 * every live one. For tests and debug builds. O(capacity).
 * Contract violation: h is NULL (returns false). */
bool stow_heap_check(const stow_heap_t *h);

/* ---- private: what the macros above expand to ----------------------------------- */

#define STOW__HEAP_MAX(a, b) ((a) > (b) ? (a) : (b))
#define STOW__HEAP_SMEAR(v, s) ((v) | ((v) >> (s)))
/* The smallest power of two >= x (x >= 1), as a constant expression. */
#define STOW__HEAP_POW2CEIL(x)                                                                   \
    (STOW__HEAP_SMEAR(                                                                           \
         STOW__HEAP_SMEAR(                                                                       \
         STOW__HEAP_SMEAR(                                                                       \
         STOW__HEAP_SMEAR(                                                                       \
                     STOW__HEAP_SMEAR(STOW__HEAP_SMEAR(STOW__CAST(uint64_t, x) - 1u, 1), 2), 4), \
                 8),                                                                             \
             16),                                                                                \
         32) +                                                                                   \
     1u)
/* Block bytes live at once: each requested byte costs at most
 * max(BLOCK(min) / min, 2 (min + header words) / min) bytes of block. */
#define STOW__HEAP_REQ(m) (STOW__HEAP_MAX(STOW__CAST(uint64_t, m), UINT64_C(1)))
#define STOW__HEAP_LIVE_BLOCKS(live, max_req, min_req)                                           \
    STOW__HEAP_MAX(STOW_HEAP_BLOCK_BYTES(max_req),                                               \
                   (STOW__CAST(uint64_t, live) *                                                 \
                        STOW__HEAP_MAX(STOW_HEAP_BLOCK_BYTES(STOW__HEAP_REQ(min_req)),           \
                                       2u * (STOW__HEAP_REQ(min_req) + STOW_HEAP_OVERHEAD +       \
                                             STOW__HEAP_TAIL)) +                                  \
                    STOW__HEAP_REQ(min_req) - 1u) /                                              \
                       STOW__HEAP_REQ(min_req))
/* Storage for blocks of b bytes: the first payload's alignment, the end word
 * and, at levels 1 and 2, the live-start bits in 32-bit words (with one word
 * and one granule of slack for the rounding). */
#if STOW_CHECK_LEVEL >= 1
#define STOW__HEAP_MAP_BYTES(b) (((b) / (32u * STOW_HEAP_ALIGN) + 2u) * 4u + STOW_HEAP_ALIGN)
#else
#define STOW__HEAP_MAP_BYTES(b) UINT64_C(0)
#endif
#define STOW__HEAP_STORAGE(b) \
    (STOW__CAST(uint64_t, b) + STOW_HEAP_ALIGN + sizeof(void *) + STOW__HEAP_MAP_BYTES(STOW__CAST(uint64_t, b)))

#define STOW__HEAP_DEFINE(linkage, name, bytes)                                            \
    STOW__HEAP_DEFINE_IN(linkage, STOW__NO_SUBSYSTEM, name, bytes)
#define STOW__HEAP_DEFINE_IN(linkage, sub, name, bytes)                                    \
    STOW__FILE_SCOPE_ONLY;                                                                 \
    STOW_STATIC_ASSERT(STOW__CAST(uint64_t, bytes) >= STOW_HEAP_MIN_BYTES &&               \
                           STOW__CAST(uint64_t, bytes) <= SIZE_MAX,                        \
                       "STOW_HEAP_DEFINE: bytes must be at least STOW_HEAP_MIN_BYTES");     \
    STOW_ALIGNAS(STOW_HEAP_ALIGN) STOW__SECTION_IN(sub, heap, name)                        \
    static unsigned char stow__heap_buf_##name[STOW__CAST(size_t, bytes)];                 \
    linkage stow_heap_t name = {0u, 0u, 0u, 0u, NULL, NULL, 0u, STOW__HEAP_STARTS_INIT     \
                                stow__heap_buf_##name, STOW__CAST(size_t, bytes),          \
                                STOW__CONFIG_GUARD, 0u, {{NULL, NULL}}};                   \
    STOW__REGISTER(sub, heap, name, stow__heap_buf_##name)

#if STOW_CHECK_LEVEL >= 1
#define STOW__HEAP_STARTS_INIT NULL,
#else
#define STOW__HEAP_STARTS_INIT
#endif

#ifdef __cplusplus
}
#endif

#endif /* STOW_HEAP_H */
