/* SPDX-License-Identifier: MIT */
/* stow/arena.h - linear (bump) allocator over static blocks, with marks and a chain.
 *
 * An arena hands out memory by moving a pointer forward and takes it all back at
 * once: reset() for everything, rewind() to a mark for everything allocated after
 * it. Nothing is freed one by one, so allocation is a few instructions and there
 * is no fragmentation. Use it for data that dies together: one frame's scratch,
 * one request, one level load. When one block is full, allocation continues in the
 * next block of its chain (a list of blocks, as an arena that grows on a heap
 * keeps, but of static blocks), and mark/rewind/reset/used/capacity cover the
 * whole chain.
 *
 *     STOW_ARENA_DEFINE(frame, 16 * 1024);          // file scope: ready, no init call
 *     struct hit *hits = STOW_ARENA_NEW_ARRAY(&frame, struct hit, n);   // zeroed or NULL
 *     stow_arena_mark_t m = stow_arena_mark(&frame);
 *     char *tmp = stow_arena_alloc(&frame, 256, 1);  // scratch for a moment
 *     stow_arena_rewind(&frame, m);                  // tmp is gone, hits stays
 *     stow_arena_reset(&frame);                      // end of frame: all gone
 *
 * Alignment: every call takes an alignment; 0 means STOW_DEFAULT_ALIGN (that of
 * max_align_t). It must be a power of two; any power of two works, and an
 * alignment larger than the room left is simply a request with no room.
 *
 * Size 0 (alloc, alloc_zeroed, alloc_array with a count or a size of 0, and the
 * NEW macros alike): a request for one byte. It returns a unique pointer,
 * aligned as asked and not NULL (distinct from every other allocation of the
 * arena that is still live, as malloc's is), that must not be dereferenced, and
 * costs at most one alignment step: the padding up to the alignment plus that
 * byte. Like every request, it returns NULL and counts a fail only when no block
 * has room for it, i.e. for one byte at that alignment.
 *
 * Failures: a request with no room in the current block or any later block of the
 * chain returns NULL and counts in stats().fails; so does an n * size product that
 * overflows. Everything else listed under "contract violation" is a caller bug: it
 * goes to the port's assert hook (STOW_CHECK_LEVEL >= 1) with the call's name and
 * the misuse ("stow_arena_alloc: alignment is not a power of two") and, if the
 * hook returns, the call returns NULL / does nothing and the arena is unchanged.
 *
 * A chain has one head, the arena its blocks were chained to; every call goes to
 * the head. Calling anything on a block chained into another arena is a contract
 * violation, and so is initialising such a block again with stow_arena_init(),
 * which would make it hand out bytes the head hands out too. init itself cannot
 * report that (see stow_arena_init); the head does, at its next call that
 * reaches the block (see the violations of each call below), and refuses the
 * call, so it never hands out or gives back the block's bytes again.
 *
 * Check level 2 also fills bytes given back by rewind() and reset() with 0xDD and,
 * when they are handed out again, reports (through the assert hook) any byte that
 * was written in between: a write through a pointer that outlived its rewind. The
 * allocation then proceeds, since refusing it would not undo the damage. In an
 * AddressSanitizer build those bytes are poisoned too, at every level, and an
 * access through such a pointer is reported at once (see config.h).
 *
 * Shared use: none of these calls is safe from a thread, an interrupt handler or
 * another core while another context uses the same arena, and there are no
 * _isr variants: an arena is one context's scratch, and its marks and resets
 * only make sense in one context's order. Give each context its own, defined
 * statically, and pick it by the context's index (or wrap every call on a
 * shared one in stow_port_critical_enter()/exit(), which serialises them but
 * does not make another context's reset any less of a surprise):
 *
 *     STOW_ARENA_DEFINE_STATIC(scratch_0, 64 * 1024);     // one per worker thread
 *     STOW_ARENA_DEFINE_STATIC(scratch_1, 64 * 1024);
 *     static stow_arena_t *const scratch[] = {&scratch_0, &scratch_1};
 *     void job(unsigned worker) {                          // on worker thread `worker`
 *         stow_arena_t *a = scratch[worker];
 *         stow_arena_reset(a);                             // this job's temporaries only
 *         ...
 *     }
 *
 * Double-buffered frame arenas keep last frame's results readable for one more
 * frame: two arenas, flipped each frame; a frame resets the one it is about to
 * fill, which held the frame before last:
 *
 *     STOW_ARENA_DEFINE_STATIC(frame_even, 256 * 1024);
 *     STOW_ARENA_DEFINE_STATIC(frame_odd, 256 * 1024);
 *     static stow_arena_t *const frames[2] = {&frame_even, &frame_odd};
 *     stow_arena_t *now = frames[frame & 1u], *last = frames[(frame + 1u) & 1u];
 *     stow_arena_reset(now);   // last frame's data, in *last, stays put
 *
 * Workers may write into a frame arena's memory while the frame runs, if the
 * frame's thread allocated their slices before starting them and no one
 * allocates from it meanwhile: the arena's own calls stay in one thread, the
 * bytes are the workers' (tests/threads/threads.c does exactly this).
 *
 * The fields of stow_arena_t are private; they are in the header only so that
 * STOW_ARENA_DEFINE can build the object with a constant initializer.
 */
#ifndef STOW_ARENA_H
#define STOW_ARENA_H

#include "config.h"
#include "stats.h"
#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct stow_arena stow_arena_t;
struct stow_arena {
    unsigned char *ptr;   /* head only: first free byte of the current block */
    unsigned char *end;   /* head only: end of the current block (a copy of cur->limit) */
    unsigned char *base;  /* first byte of this block */
    unsigned char *limit; /* one past the last byte of this block */
    stow_arena_t *next;   /* next block of the chain, or NULL */
    stow_arena_t *head;   /* the arena this block serves: itself, or the one it was chained to */
    stow_arena_t *cur;    /* head only: the block allocations come from */
    size_t peak;          /* head only: high-water mark of used, as of the last rewind */
    size_t done;          /* head only: bytes of the blocks before cur (they count as used) */
    uint32_t fails;       /* head only: refused requests */
#if STOW_CHECK_LEVEL >= 2
    unsigned char *poison_end; /* this block's bytes from its free position to here hold 0xDD */
#endif
    const char *const *config; /* the options its DEFINE saw (config.h), or NULL after init */
};

/* A position in an arena's chain, from stow_arena_mark(). Private fields. */
typedef struct {
    stow_arena_t *block;
    unsigned char *ptr;
} stow_arena_mark_t;

/* Buffer bytes stow_arena_init() needs for an arena of `bytes` bytes: the arena
 * keeps no header in its buffer, so this is bytes itself. */
#define STOW_ARENA_BYTES(bytes) STOW__CAST(size_t, bytes)

/* STOW_ARENA_DEFINE(name, bytes): defines, at file or namespace scope, a ready
 * arena `name` of `bytes` bytes (a constant, at least 1: 0 is a compile error) and
 * its storage, aligned to STOW_DEFAULT_ALIGN and placed in the NOBITS section
 * .bss.stow.arena.<name> (see linker/stow.ld). No init call; the storage need not
 * be zeroed. STOW_ARENA_DEFINE_STATIC makes `name` file-local. Inside a C++ class
 * a DEFINE is a compile error whose text points to the C++ layer (stow/stow.hpp),
 * whose containers hold their storage inside the object. */
#define STOW_ARENA_DEFINE(name, bytes) STOW__ARENA_DEFINE(STOW__CONSTINIT, name, bytes)
#define STOW_ARENA_DEFINE_STATIC(name, bytes) STOW__ARENA_DEFINE(static STOW__CONSTINIT, name, bytes)
/* The same, counted in subsystem sub (stow/report.h: subsystems and budgets). */
#define STOW_ARENA_DEFINE_IN(sub, name, bytes) \
    STOW__ARENA_DEFINE_IN(STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, bytes)
#define STOW_ARENA_DEFINE_STATIC_IN(sub, name, bytes) \
    STOW__ARENA_DEFINE_IN(static STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, bytes)

#if STOW_CHECK_LEVEL >= 2
#define STOW__ARENA_POISON_INIT(buf) , (buf)
#else
#define STOW__ARENA_POISON_INIT(buf)
#endif
#define STOW__ARENA_DEFINE(linkage, name, bytes)                                       \
    STOW__ARENA_DEFINE_IN(linkage, STOW__NO_SUBSYSTEM, name, bytes)
#define STOW__ARENA_DEFINE_IN(linkage, sub, name, bytes)                               \
    STOW__FILE_SCOPE_ONLY;                                                             \
    STOW_STATIC_ASSERT((bytes) > 0 && STOW__FITS_SIZE(bytes, 1u, 0u),                  \
                       "STOW_ARENA_DEFINE: bytes must be 1 to SIZE_MAX");              \
    STOW_ALIGNAS(STOW_DEFAULT_ALIGN) STOW__SECTION_IN(sub, arena, name)                \
    static unsigned char stow__arena_buf_##name[STOW__CAST(size_t, bytes)];            \
    linkage stow_arena_t name = {stow__arena_buf_##name,                               \
                                 stow__arena_buf_##name + STOW__CAST(size_t, bytes),   \
                                 stow__arena_buf_##name,                               \
                                 stow__arena_buf_##name + STOW__CAST(size_t, bytes),   \
                                 NULL,                                                 \
                                 &(name),                                              \
                                 &(name),                                              \
                                 0u,                                                   \
                                 0u,                                                   \
                                 0u STOW__ARENA_POISON_INIT(stow__arena_buf_##name), \
                                 STOW__CONFIG_GUARD};                                  \
    STOW__REGISTER(sub, arena, name, stow__arena_buf_##name)

/* Makes *a an empty arena over buf[0, size), with no chain and zeroed statistics.
 * buf may have any alignment. O(1). *a may hold anything before; init reads
 * none of it. Initialising the head of a chain again is fine (its old blocks
 * stay chained to it, unused: init them too before using them elsewhere).
 * Returns false, changing nothing, if buf is NULL or size is 0.
 * Contract violation: a is NULL; a is a block chained into another arena. init
 * cannot see the second (the bytes of *a may be anything, so it cannot tell a
 * chained block from garbage, nor follow a pointer in it): it returns true, and
 * the head of the chain reports the violation at its next call that reaches
 * the block. From then on every such call on the head reports it and does
 * nothing; init the head again to start over. */
bool stow_arena_init(stow_arena_t *a, void *buf, size_t size) STOW__GUARDED(stow_arena_init);

/* Returns size bytes aligned to align (0: STOW_DEFAULT_ALIGN). Contents are
 * unspecified. size 0 is a request for one byte (see "Size 0" above). O(1) while
 * the current block has room; when it has not, O(blocks) to find a later block of
 * the chain with room (the unused tail of each block passed over counts as used
 * until rewind or reset).
 * Returns NULL, counting a fail, when no block has room.
 * Contract violation: a is NULL or is a block chained to another arena; align is
 * not 0 or a power of two; the block a allocates from, or a later block it would
 * move to, was initialised again. Level 2 reports (as stow_arena_alloc, from all
 * three allocation calls) bytes written after a rewind or reset gave them back. */
void *stow_arena_alloc(stow_arena_t *a, size_t size, size_t align);

/* stow_arena_alloc(), then zeroes the size bytes. O(size) on top. Violations as
 * stow_arena_alloc(). */
void *stow_arena_alloc_zeroed(stow_arena_t *a, size_t size, size_t align);

/* Zeroed room for count items of size bytes each, aligned to align; a count or a
 * size of 0 is a request of size 0. Returns NULL, counting a fail, when
 * count * size overflows size_t or there is no room.
 * Violations as stow_arena_alloc(). O(count * size). */
void *stow_arena_alloc_array(stow_arena_t *a, size_t count, size_t size, size_t align);

/* Zeroed T* or NULL; and n zeroed T's, n * sizeof(T) checked for overflow, or NULL. */
#define STOW_ARENA_NEW(a, T) \
    STOW__CAST(T *, stow_arena_alloc_zeroed((a), sizeof(T), STOW_ALIGNOF(T)))
#define STOW_ARENA_NEW_ARRAY(a, T, n) \
    STOW__CAST(T *, stow_arena_alloc_array((a), STOW__CAST(size_t, n), sizeof(T), STOW_ALIGNOF(T)))

/* The current position of the whole chain, for stow_arena_rewind(). O(1).
 * Contract violation: a is NULL or a chained block; the block a allocates from was
 * initialised again (the mark is then {NULL, NULL}). */
stow_arena_mark_t stow_arena_mark(const stow_arena_t *a);

/* Frees everything allocated since mark was taken; what was allocated before stays.
 * A mark equal to the current position is a no-op (rewinding a scope that
 * allocated nothing is ordinary code), and a mark stays usable after rewinding to
 * it or to an earlier one... until the arena passes it again and is rewound below
 * it: rewinding to a mark above the current position is a bug.
 * O(blocks), plus O(bytes freed) at check level 2 (poison).
 * Contract violation: a is NULL or a chained block; a block of the chain up to the
 * current one was initialised again; mark did not come from this arena's chain or
 * lies above the current position. */
void stow_arena_rewind(stow_arena_t *a, stow_arena_mark_t mark);

/* Frees everything in the whole chain. O(1) at level 0; O(blocks used) at levels 1
 * and 2 (the head check walks them) and in an AddressSanitizer build, plus
 * O(bytes freed) at level 2. Statistics (peak, fails) are kept.
 * Contract violation: a is NULL or a chained block; a block of the chain up to the
 * current one was initialised again. */
void stow_arena_reset(stow_arena_t *a);

/* Appends next, and any chain that hangs from it, to the end of a's chain: when a's
 * blocks are full, allocation continues there. Blocks can be of any size and come
 * from DEFINE or init. After this, next belongs to a: call everything on a, never on
 * next, and do not init next again. O(blocks).
 * Contract violation: a or next is NULL or already chained to an arena; next is a;
 * next (or a block chained to it) has memory in use; a block of a's or next's
 * chain was initialised again. */
void stow_arena_chain(stow_arena_t *a, stow_arena_t *next);

/* Bytes in use in the whole chain, padding and passed-over block tails included.
 * O(1) at level 0, O(blocks used) at levels 1 and 2 (the head check walks them).
 * Contract violation: a is NULL or a chained block; a block of the chain up to the
 * current one was initialised again (returns 0). */
size_t stow_arena_used(const stow_arena_t *a);

/* Bytes of the whole chain. O(blocks). Contract violation: a is NULL or a chained
 * block; a block of the chain was initialised again (returns 0). */
size_t stow_arena_capacity(const stow_arena_t *a);

/* Fills *out: capacity and used as above, peak (high-water mark of used) and fails.
 * O(blocks). Contract violation: a or out is NULL, or a is a chained block; a block
 * of the chain was initialised again. */
void stow_arena_stats(const stow_arena_t *a, stow_stats_t *out);

/* Walks the whole chain once and returns false if any internal invariant is
 * broken (a cycle, a pointer outside its block, a block not owned by a, as after
 * it was initialised again, the current block not in the chain, and at level 2 a
 * poisoned byte that was overwritten). For tests and debug builds. O(blocks), plus
 * O(bytes) at check level 2. Contract violation: a is NULL (returns false). */
bool stow_arena_check(const stow_arena_t *a);

#ifdef __cplusplus
}
#endif

#endif /* STOW_ARENA_H */
