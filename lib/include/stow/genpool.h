/* SPDX-License-Identifier: MIT */
/* stow/genpool.h - generational arena: items that stay put, handles that know when
 * their item is gone.
 *
 * A genpool holds up to `capacity` items of one size in fixed slots. Inserting
 * gives a handle (stow_handle_t: slot index + the slot's generation); removing
 * bumps the slot's generation, so every handle to the removed item goes stale at
 * once, even after the slot is reused. It is the answer to objects with dynamic
 * lifetimes that refer to each other: a missile that keeps its target's handle
 * sees "gone" when the target dies, instead of following whichever enemy was
 * spawned into the same slot. Items never move while they
 * live, so pointers from get() stay good until the item is removed or cleared.
 *
 *     STOW_GENPOOL_DEFINE(enemies, struct enemy, 64);     // file scope: ready, no init call
 *     stow_handle_t target = stow_genpool_insert(&enemies, &e);   // copies e
 *     struct enemy *t = stow_genpool_get(&enemies, target);      // NULL once it is gone
 *     stow_genpool_remove(&enemies, target);                      // target is now stale
 *     for (stow_handle_t h = stow_genpool_first(&enemies); !stow_handle_is_null(h);
 *          h = stow_genpool_next(&enemies, h)) { ... }            // every live item once
 *
 * Typed handles: STOW_GENPOOL_DEFINE_TYPED(enemies, struct enemy, 64) also
 * declares enemies_handle_t and inline wrappers enemies_insert(), enemies_get()...
 * that take and return it, so a missile handle passed to the enemy pool does not
 * compile (see the end of this file).
 *
 * Memory: per slot, the item at its own size (sizeof(T): no header, no padding),
 * plus one 32-bit word and one bit of the occupancy bitmap: an overhead of 4 bytes
 * and 1 bit per slot. Per pool, up to 3 bytes of padding between the items and the
 * words, and the bitmap rounded up to whole 32-bit words (at most 31 bits unused);
 * STOW_GENPOOL_BYTES() gives the sum. The object itself is 84 bytes on a 32-bit
 * target.
 *
 * The slot's word is its whole state: for a live slot it is exactly the handle
 * (generation << STOW_HANDLE_INDEX_BITS | index); for a free slot, the generation
 * the slot will hand out next and the index of the next free slot (the free list
 * lives in those words: nothing is written into free items); for a retired slot,
 * generation 0. A slot is live exactly when the index bits of its word equal its
 * own index, which is how handle_of() and check() tell.
 *
 * Start-up is O(1), and the storage is never assumed zeroed: slots are reached by
 * a bump index; below it every word and bitmap bit is valid, above it nothing is
 * ever trusted (get() of a handle whose index is at or above the bump index is
 * stale without reading the slot). Removed slots go on a LIFO free list, which
 * insert takes from first.
 *
 * clear() is O(1) (check level 2 adds poisoning, O(live items)): it resets the bump
 * index and empties the free list, which makes every handle stale at once, since
 * get() only reads slots below the bump index. The slots' words are kept: when the
 * bump index passes a slot used before the clear again, the slot goes on from the
 * generation it had, one past the live one's (or the one a free slot was waiting
 * to hand out), so a handle from before the clear never matches an item made after
 * it. A high-water mark (`reached`) tells slots used before from never-used ones,
 * whose words are garbage; never-used slots start at generation 1.
 *
 * Generations: each slot's first is 1, each reuse gives the next; 0 is never
 * issued, so STOW_HANDLE_NULL and zeroed handles are always stale. After
 * STOW_HANDLE_MAX_GENERATION (65535 with the default 16 index bits):
 *   STOW_GEN_WRAP (default)  the next is 1 again. A handle kept through exactly
 *                            MAX_GENERATION reuses of its slot would match again.
 *   STOW_GEN_RETIRE          the slot is retired: never handed out again. Retired
 *                            slots are counted by stow_genpool_retired(); they take
 *                            no part in count() / stats().used, and
 *                            capacity() - retired() is how many items the pool
 *                            can still hold at most. stats().capacity stays the
 *                            slot count. check() verifies the retired count.
 *                            A slot that was live at clear() with the last
 *                            generation is retired when the pool reaches it again.
 *                            Retired slots cost nothing per clear(): inserts after
 *                            it step over a run of them in one step (see alloc).
 *
 * Failures: a full pool makes insert/alloc return STOW_HANDLE_NULL / NULL and
 * count a fail in stats(). A stale, null or forged handle (index beyond the
 * capacity, generation never issued, slot never used) makes get/contains/remove
 * return NULL / false; that is an ordinary answer, not a refused request, so it is
 * not counted in fails. Removing twice is such a stale remove. Everything listed
 * under "contract violation" is a caller bug: it goes to the port's assert hook
 * (STOW_CHECK_LEVEL >= 1) and, if the hook returns, the call returns its error
 * value and the pool is unchanged. The hook's text names the function and the
 * misuse, e.g. "stow_genpool_insert: item pointer is NULL" (STOW_ASSERT_TEXT 0
 * leaves it empty).
 *
 * Check level 2 also fills removed (and cleared) items with 0xDD and, when a slot
 * is handed out again, reports through the assert hook any byte written in between
 * (a write through a pointer that outlived its item); the insert then proceeds,
 * since refusing it would not undo the damage. In an AddressSanitizer build
 * removed and cleared items are poisoned too, at every level, and an access
 * through a pointer that outlived its item is reported at once (see config.h).
 *
 * Costs, in instructions on a Cortex-M4 (-O2, check level 0, `make bench`): get 13,
 * contains 11, insert of an 8-byte item 39 (of a 16-byte one 37: 8- and 16-byte
 * items are copied in one step; of a 32-byte one 69: other sizes a word at a time,
 * 4 instructions a word), alloc 41, remove 39,
 * handle_of 19, next 26 per live item (28 with 5 live items among 100 slots),
 * iterate 26 per live item, STOW_GENPOOL_FOREACH 6 per live item plus 11 to 13
 * per 32-slot word with a live slot (6.4 over a full pool, 6.7 with every other slot
 * live), clear 20.
 * Level 1 adds 1 to 15 (FOREACH: nothing). No division
 * anywhere: handle_of() turns a pointer into an index with a shift and a multiply
 * by a precomputed inverse (Cortex-M0 has no divide instruction).
 *
 * Shared use (interrupts, threads, cores): stow_genpool_insert_isr(),
 * _get_isr(), _read_isr() and _remove_isr() run the plain call under the pool's
 * own lock, stow_port_lock() on a word inside the pool (stow/port.h): interrupt
 * masking on the Cortex-M and RISC-V ports, a lock on that word alone on the
 * host, so threads on two pools never wait for each other. Every call that
 * changes a shared pool must then go through them or run between
 * stow_genpool_lock() and stow_genpool_unlock(). check() writes to the bitmap
 * while it runs (and restores it): run it under the lock.
 *
 * A pointer from get_isr() is checked under the lock but used after it: items
 * never move, so it stays the item h named until h is removed, and then the
 * slot may hold another item (the memory stays the pool's: no fault, but a
 * silent mix-up). Use it only when no other context can remove h, for example
 * when the context that holds h is the only one that removes it. Otherwise
 * read_isr() copies the item out under the lock (a whole item as of one moment,
 * or false when h is stale), or take lock(), get(), use, unlock().
 *
 * Per call, from a thread / an interrupt handler / another core while other
 * contexts use the same pool ("port" = with a port whose lock spans cores:
 * host, Zephyr SMP, or your own):
 *   insert_isr, read_isr, remove_isr,   safe / safe / port
 *   lock/unlock
 *   get_isr                             safe / safe / port, and its pointer
 *                                       as long as no one else removes h
 *   capacity                            safe / safe / safe (set by init only)
 *   alloc, insert, get, contains,       not safe: only between lock() and
 *   remove, handle_of, clear, count,    unlock(), or in a context that has the
 *   retired, first/next, iterate,       pool to itself
 *   stats, check
 *   init                                not safe: before any sharing starts
 *
 * The fields of stow_genpool_t are private; they are in the header only so that
 * STOW_GENPOOL_DEFINE can build the object with a constant initializer.
 */
#ifndef STOW_GENPOOL_H
#define STOW_GENPOOL_H

#include "config.h"
#include "handle.h"
#include "stats.h"
#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct stow_genpool stow_genpool_t;
struct stow_genpool {
    unsigned char *items;   /* slot i's item is at items + i * stride */
    void *words;            /* uint32_t[capacity]: each slot's handle, free link or retired mark */
    void *bits;             /* uint32_t[(capacity + 31) / 32]: occupancy, valid below bump */
    uint32_t stride;        /* bytes from one item to the next: item_size rounded up to its alignment */
    uint32_t bump;          /* slots [0, bump) are live, free or retired; the rest untouched */
    uint32_t bump_limit;    /* capacity, or 0 while bump < reached: insert's one test for
                               "the bump index has a never-used slot to give" */
    uint32_t free_head;     /* top of the free list (meaningless when free_count is 0) */
    uint32_t free_count;    /* slots on the free list */
    uint32_t retired_below; /* retired slots below bump: live items = bump - free_count - this */
    uint32_t capacity;
    uint32_t reached;       /* bump's high-water mark as of the last clear(): slots below
                               max(bump, reached) have trustworthy words */
    uint32_t item_size;     /* bytes insert copies and alloc zeroes */
    uint32_t copy_words;    /* item_size / 4 when items are aligned to 4 or more and a whole
                               number of words long (copied a word at a time), else 0 */
    uint32_t shift;         /* stride == odd << shift ... */
    uint32_t inverse;       /* ... and odd * inverse == 1 (mod 2^32): handle_of's index */
    uint32_t retired;       /* slots retired for good (STOW_GEN_RETIRE), all of them */
    uint32_t peak;          /* high-water mark of live items, as of the last remove or clear */
    uint32_t fails;
    const char *const *config; /* the options its DEFINE saw (config.h), or NULL after init */
    uint32_t lock;             /* the port's lock word for the _isr calls and lock(): 0 when free */
    uint32_t index_mask;       /* this pool's handles: the slot index in the low bits (2^index bits
                                  - 1: STOW_HANDLE_INDEX_MASK, or a DEFINE_TYPED_BITS pool's own) */
};

/* Bytes of buffer stow_genpool_init() needs for capacity items of item_size bytes
 * aligned to item_align (0: STOW_DEFAULT_ALIGN), and the alignment that buffer
 * needs. Constant expressions when the arguments are. */
#define STOW_GENPOOL_BYTES(item_size, item_align, capacity) \
    (STOW__GENPOOL_BITS_OFFSET(item_size, item_align, capacity) + \
     sizeof(uint32_t) * ((STOW__CAST(size_t, capacity) + 31u) / 32u))
#define STOW_GENPOOL_BUF_ALIGN(item_align)                                            \
    (STOW__GENPOOL_ALIGN(item_align) > STOW_ALIGNOF(uint32_t) ? STOW__GENPOOL_ALIGN(item_align) \
                                                              : STOW_ALIGNOF(uint32_t))

/* STOW_GENPOOL_DEFINE(name, T, capacity): defines, at file or namespace scope, a
 * ready pool `name` of `capacity` items of type T (capacity: a constant from 1 to
 * STOW_HANDLE_MAX_CAPACITY, capacity * sizeof(T) below 4 GiB and the whole
 * storage within size_t, all checked at compile time) and its storage, aligned
 * for T and placed in the section .bss.stow.genpool.<name> (see linker/stow.ld).
 * No init call; the storage need not be zeroed. STOW_GENPOOL_DEFINE_STATIC makes
 * `name` file-local. The pool is a constant initializer in C and C++ alike: no
 * code runs before it is ready, so it may be used from any constructor of another
 * file; in C++20 the DEFINE declares it `constinit`, which makes the compiler
 * prove it. Inside a C++ class a DEFINE is a compile error (the message names
 * stow_DEFINE_belongs_at_namespace_scope__inside_a_class_use_stow_hpp): a class
 * gets its containers from the C++ layer (stow/stow.hpp),
 * whose containers hold their storage inside the object. */
#define STOW_GENPOOL_DEFINE(name, T, capacity) \
    STOW__GENPOOL_DEFINE(STOW__CONSTINIT, name, T, capacity)
#define STOW_GENPOOL_DEFINE_STATIC(name, T, capacity) \
    STOW__GENPOOL_DEFINE(static STOW__CONSTINIT, name, T, capacity)
/* The same, counted in subsystem sub (stow/report.h: subsystems and budgets). */
#define STOW_GENPOOL_DEFINE_IN(sub, name, T, capacity) \
    STOW__GENPOOL_DEFINE_IN(STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, T, capacity)
#define STOW_GENPOOL_DEFINE_STATIC_IN(sub, name, T, capacity) \
    STOW__GENPOOL_DEFINE_IN(static STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, T, capacity)

/* Makes *g an empty pool of capacity items of item_size bytes, each aligned to
 * item_align (0: STOW_DEFAULT_ALIGN; items are item_size rounded up to item_align
 * apart), over buf[0, buf_size). Statistics start at zero. O(1): nothing in buf is
 * written or read.
 * Returns false, changing nothing, if buf is NULL, not aligned to
 * STOW_GENPOOL_BUF_ALIGN(item_align) or smaller than STOW_GENPOOL_BYTES(item_size,
 * item_align, capacity); if item_size (stow/stow.h: size 0) or capacity is 0,
 * capacity is above STOW_HANDLE_MAX_CAPACITY, or the items would take 4 GiB or
 * more.
 * Contract violation: g is NULL; item_align is neither 0 nor a power of two. */
bool stow_genpool_init(stow_genpool_t *g, void *buf, size_t buf_size, size_t item_size,
                       size_t item_align, uint32_t capacity) STOW__GUARDED(stow_genpool_init);

/* Takes a free slot and returns its item, zeroed, aligned as the pool's items are;
 * its handle goes to *out unless out is NULL (handle_of() can give it later).
 * Returns NULL (and *out = STOW_HANDLE_NULL), counting a fail, when the pool is
 * full. O(1) plus O(item_size) to zero. After clear() in STOW_GEN_RETIRE mode,
 * a run of retired slots costs one step however long it is, and a slot whose
 * last generation died in the clear retires here, once in the pool's life: O(1)
 * amortised over those retirements, however many clears there are.
 * Contract violation: g is NULL. */
void *stow_genpool_alloc(stow_genpool_t *g, stow_handle_t *out);

/* Takes a free slot, copies item_size bytes from item into it and returns the
 * handle. item points to an item: aligned as the pool's items are (item_align, or
 * alignof(T) for a DEFINE'd pool), since items whose size is a multiple of 4 and
 * whose alignment is 4 or more are copied a word at a time. Returns
 * STOW_HANDLE_NULL, counting a fail, when the pool is full. O(1) plus O(item_size)
 * to copy (after clear() in STOW_GEN_RETIRE mode: O(1) amortised, as alloc).
 * Contract violation: g or item is NULL; item not aligned to 4 when the pool copies
 * by words (a misalignment that would not fault is not detected). */
stow_handle_t stow_genpool_insert(stow_genpool_t *g, const void *item);

/* The item h names, or NULL if h is stale, null or forged. O(1).
 * Contract violation: g is NULL. */
void *stow_genpool_get(const stow_genpool_t *g, stow_handle_t h);

/* True when h names a live item: get(g, h) != NULL. O(1).
 * Contract violation: g is NULL (returns false). */
bool stow_genpool_contains(const stow_genpool_t *g, stow_handle_t h);

/* Removes the item h names: its slot's generation moves on, so h and every copy of
 * it go stale, and the slot goes on the free list (or is retired, see above).
 * Returns false, doing nothing, when h is stale, null or forged (so removing twice
 * is harmless: the second call returns false). O(1) (plus poisoning at level 2).
 * Contract violation: g is NULL. */
bool stow_genpool_remove(stow_genpool_t *g, stow_handle_t h);

/* Gives back the slot of an item that was just made (alloc or insert) and whose
 * handle no one has kept: as remove, except that the slot's generation is not
 * spent, so the next alloc or insert gets the slot and h again, as if the first
 * had never happened. For an item whose set-up fails after alloc (a C++
 * constructor that throws: stow.hpp's emplace). Returns false, doing nothing,
 * when h is stale or null. O(1) (plus poisoning at level 2).
 * Misuse (not detectable): cancelling an item whose handle was kept somewhere;
 * that copy would name the slot's next item. Use remove for those.
 * Contract violation: g is NULL. */
bool stow_genpool_cancel(stow_genpool_t *g, stow_handle_t h);

/* insert, get and remove under the pool's lock (see "Shared use" above):
 * ISR-safe and thread-safe, and they nest (inside lock()/unlock() or the
 * caller's own critical section). Same results and violations, the same text
 * for them. get_isr's pointer outlives the lock: valid while no other context
 * removes h. Safe from a thread and from an interrupt handler; from another
 * core only with a port whose lock spans cores. */
stow_handle_t stow_genpool_insert_isr(stow_genpool_t *g, const void *item);
void *stow_genpool_get_isr(stow_genpool_t *g, stow_handle_t h);
bool stow_genpool_remove_isr(stow_genpool_t *g, stow_handle_t h);

/* Copies the item h names (item_size bytes) to out under the pool's lock and
 * returns true, or returns false, writing nothing, when h is stale, null or
 * forged. out may have any alignment. O(item_size) under the lock: the safe way
 * to read an item that another context may remove. Safe from a thread and from
 * an interrupt handler; from another core only with a port whose lock spans
 * cores. Contract violation: g or out is NULL (returns false). */
bool stow_genpool_read_isr(stow_genpool_t *g, stow_handle_t h, void *out);

/* Takes and releases the pool's lock: between them the plain calls run as one
 * step against every _isr call elsewhere (get and use an item in place, clear,
 * iterate, check). lock() returns the state unlock() needs. Pairs nest. O(1).
 * Hold it briefly: on Cortex-M it masks interrupts. Safe from a thread and
 * from an interrupt handler; from another core only with a port whose lock
 * spans cores. Contract violation: g is NULL (lock returns 0, unlock does
 * nothing). */
uint32_t stow_genpool_lock(stow_genpool_t *g);
void stow_genpool_unlock(stow_genpool_t *g, uint32_t state);

/* The live handle of the item at item (a pointer get() or alloc() gave), or
 * STOW_HANDLE_NULL when that slot holds no live item (removed, cleared, or never
 * used). O(1): a subtraction, a shift and a multiply by a precomputed inverse of the
 * stride's odd part (exact for any capacity the pool can have); no division.
 * Contract violation: g is NULL; item is NULL, outside the pool's items, or not
 * the first byte of an item (interior or misaligned). At level 0 such a pointer
 * gives an unspecified handle (never a read outside the pool). */
stow_handle_t stow_genpool_handle_of(const stow_genpool_t *g, const void *item);

/* Removes every item: every handle issued so far goes stale, including those of
 * items removed earlier, and the next inserts reuse the slots from index 0 with
 * generations that none of those handles has. Statistics (peak, fails, retired)
 * are kept. O(1); level 2 adds O(slots in use) to poison the items.
 * Contract violation: g is NULL. */
void stow_genpool_clear(stow_genpool_t *g);

/* Live items. O(1). Contract violation: g is NULL (returns 0). */
uint32_t stow_genpool_count(const stow_genpool_t *g);

/* Slots, as given to DEFINE or init. O(1). Contract violation: g is NULL (returns 0). */
uint32_t stow_genpool_capacity(const stow_genpool_t *g);

/* Slots retired for good after their last generation (STOW_GEN_RETIRE; always 0
 * with STOW_GEN_WRAP). Never goes down, not even with clear(). O(1).
 * Contract violation: g is NULL (returns 0). */
uint32_t stow_genpool_retired(const stow_genpool_t *g);

/* Iteration over live items in slot order:
 *     for (stow_handle_t h = stow_genpool_first(g); !stow_handle_is_null(h);
 *          h = stow_genpool_next(g, h)) { void *item = stow_genpool_get(g, h); ... }
 * first() gives the live item with the lowest index, next() the live item with
 * the lowest index above h's, or STOW_HANDLE_NULL at the end. Each live item is
 * visited once. Removing h (or any item) inside the loop is fine: next() only uses
 * h's index. An item inserted during the loop is visited if its slot lies above
 * the current one. Cost: the occupancy bitmap is scanned a 32-bit word at a time,
 * so a whole pass is O(live items + slots in use / 32), not O(capacity): 500 live
 * items among 10,000 used slots take 500 steps and about 313 word reads.
 * Contract violation: g is NULL; (next) h is null or its index is not below the
 * capacity. */
stow_handle_t stow_genpool_first(const stow_genpool_t *g);
stow_handle_t stow_genpool_next(const stow_genpool_t *g, stow_handle_t h);

/* The same walk without handles, for the per-frame loop over every item:
 *     uint32_t cursor = 0;
 *     for (struct enemy *e; (e = stow_genpool_iterate(g, &cursor)) != NULL;) { ... }
 * Returns the live item in the lowest slot at or above *cursor and moves *cursor
 * one past that slot; NULL at the end. The same guarantees as first()/next()
 * (each live item once, removing the current one is fine), with no get() per
 * item: 26 instructions per item on a Cortex-M4 where next() and get() take 37.
 * (STOW_GENPOOL_FOREACH, below, is faster still.)
 * Contract violation: g or cursor is NULL (returns NULL). */
void *stow_genpool_iterate(const stow_genpool_t *g, uint32_t *cursor);

/* ---------------------------------------------------------------- the fast walk
 *
 * The fastest way over every live item, for the per-frame loop: a bitmap walk in
 * line, with no call per item. Each live slot's bit is found with a count of
 * zeros and its item's address with one multiply-add, whatever its neighbours.
 * Cortex-M4, -O2, per live item, plus the body, at every check level but 2: 6,
 * plus 11 to 13 for each 32-slot word that has a live slot (6.4 over a full pool,
 * 6.7 with every other slot live); an empty 32-slot word costs one step, about 9.
 *
 *     STOW_GENPOOL_FOREACH(&enemies, struct enemy, e) {
 *         e->x += e->dx;                         // e: struct enemy *, never NULL
 *     }
 *
 * or, written out (the same walk and, once inlined, the same instructions):
 *
 *     stow_genpool_walk_t w = stow_genpool_walk_begin(&enemies);
 *     while (stow_genpool_walk_next(&w)) {
 *         struct enemy *e = w.item;              // the only public field
 *         ...
 *     }
 *
 * Items come in slot order, each live item once; `break` and `continue` work as in
 * any loop, and walks nest (with different pointer names). The body may remove
 * the item it is on (stow_genpool_remove with its handle from handle_of()); items
 * inserted during the walk may or may not be visited. Removing any other item,
 * or clearing the pool, during the walk is a contract violation: the walk read
 * each 32-slot word of the bitmap once, so it may still visit such an item (its
 * memory is still the pool's). Check level 2 re-reads the word per item: it
 * reports a removed item through the assert hook ("stow_genpool_walk_next: item
 * removed during the walk") and skips it. first()/next() and iterate() allow
 * any removal, at about 25 instructions an item. The walk reads the pool only;
 * the bump index is read once, at begin.
 * Contract violation: g is NULL (level >= 1: the walk is then empty). */
typedef struct {
    void *item;                /* after walk_next() returned true: the item it found */
    const uint32_t *bits;      /* the next bitmap word to read */
    const uint32_t *end;       /* one past the last bitmap word below the bump index */
    unsigned char *base;       /* the item of the current word's first slot (walk 0: of the
                                  slot that bit 0 of left stands for) */
    unsigned char *next_base;  /* the item of the first slot of the word at bits */
    size_t block;              /* bytes of 32 items */
    size_t stride;
    uint32_t left;             /* the current word's live slots not visited yet: a bit each,
                                  in the order stow__genpool_bit_order() gives them (walk 0:
                                  shifted down to base's slot) */
    uint32_t tail;             /* the bits of the last word's slots below the bump index */
    uint32_t bit;              /* walk 0: base's slot in the current word */
    bool in_body;              /* STOW_GENPOOL_FOREACH: true while the body runs (a break leaves it so) */
} stow_genpool_walk_t;

/* Field by field, not with an initializer, which a compiler may turn into a call
 * of memset (which a firmware need not have). */
static inline stow_genpool_walk_t stow_genpool_walk_begin(const stow_genpool_t *g)
{
    stow_genpool_walk_t w;
    uint32_t bump = 0u;
#if STOW_CHECK_LEVEL >= 1
    if (g == STOW__NULL) {
        stow_port_assert_failed(STOW_CHECK_TEXT("stow_genpool_walk_begin: pool pointer is NULL"),
                                STOW__FILE, __LINE__);
        w.bits = STOW__NULL;
        w.next_base = STOW__NULL;
        w.stride = 0u;
    } else
#endif
    {
        bump = g->bump;
        w.bits = STOW__CAST(const uint32_t *, g->bits);
        w.next_base = g->items;
        w.stride = g->stride;
    }
    w.item = STOW__NULL;
    w.end = w.bits + ((bump + 31u) >> 5); /* w.bits: an empty walk */
    w.base = STOW__NULL;
    w.block = 32u * w.stride;
    w.left = 0u;
    w.bit = 0u;
    /* the bits of slots bump and up in the last word are garbage */
    w.tail = UINT32_MAX >> ((0u - bump) & 31u);
    w.in_body = false;
    return w;
}

/* Index of the lowest set bit of x (x != 0). ARMv6-M has no CLZ, and GCC would
 * call libgcc's __ctzsi2 there: halve the search instead. */
static inline uint32_t stow__genpool_lowest_bit(uint32_t x)
{
#if defined(__GNUC__) && (!defined(__arm__) || defined(__ARM_FEATURE_CLZ))
    return STOW__CAST(uint32_t, __builtin_ctz(x));
#else
    uint32_t n = 0u;
    if ((x & 0xFFFFu) == 0u) {
        n += 16u;
        x >>= 16;
    }
    if ((x & 0xFFu) == 0u) {
        n += 8u;
        x >>= 8;
    }
    if ((x & 0xFu) == 0u) {
        n += 4u;
        x >>= 4;
    }
    if ((x & 0x3u) == 0u) {
        n += 2u;
        x >>= 2;
    }
    return n + ((x & 1u) ^ 1u);
#endif
}

/* How a word's live slots are taken, lowest first, by core:
 * 2: Thumb-2 cores (Cortex-M3/M4/M7/M33) reverse the word once (RBIT), so that the
 *    lowest slot is the leading bit; per item, CLZ finds it, the item's address is
 *    one multiply-add from the word's first item, and a BIC drops the bit.
 * 1: other cores with a count of trailing zeros: the same with CTZ, and
 *    x & (x - 1) drops the bit.
 * 0: cores without either (ARMv6-M, RISC-V without Zbb, where GCC would call a
 *    libgcc helper per item): step over the free slots one at a time, the word
 *    shifted and the item pointer moved one slot per step. */
#if defined(__GNUC__) && defined(__arm__) && defined(__ARM_ARCH_ISA_THUMB) && \
    __ARM_ARCH_ISA_THUMB >= 2
#define STOW__GENPOOL_WALK 2
#elif defined(__GNUC__) && !defined(__arm__) && !(defined(__riscv) && !defined(__riscv_zbb))
#define STOW__GENPOOL_WALK 1
#else
#define STOW__GENPOOL_WALK 0
#endif

static inline uint32_t stow__genpool_bit_order(uint32_t x)
{
#if STOW__GENPOOL_WALK == 2
    uint32_t r;
    __asm__("rbit %0, %1" : "=r"(r) : "r"(x));
    return r;
#else
    return x;
#endif
}

/* The walk in two steps, one loop each in STOW_GENPOOL_FOREACH: the next bitmap
 * word with a live slot (an empty word costs one step), and the next live slot
 * in it. Each returns false when it has no more. */
static inline bool stow__genpool_walk_word(stow_genpool_walk_t *w)
{
    uint32_t left;
    unsigned char *base;
    do {
        if (w->bits == w->end) {
            return false;
        }
        left = *w->bits++;
        if (w->bits == w->end) {
            left &= w->tail;
        }
        base = w->next_base;
        w->next_base = base + w->block;
    } while (left == 0u);
#if defined(__GNUC__)
    /* Keeps base a pointer, so that each item's address is one multiply-add
     * from it (GCC would otherwise recompute it from the pool's items per item). */
    __asm__("" : "+r"(base));
#endif
    w->base = base;
    w->bit = 0u;
    w->left = stow__genpool_bit_order(left);
#if defined(__GNUC__)
    if (w->left == 0u) {
        __builtin_unreachable(); /* a reordering of a word that is not 0 */
    }
#endif
    return true;
}

/* Level 2: whether the item of the current word's slot bit was removed during
 * the walk (reported through the assert hook; the walk skips it). */
static inline bool stow__genpool_walk_removed(const stow_genpool_walk_t *w, uint32_t bit)
{
#if STOW_CHECK_LEVEL >= 2
    if (((w->bits[-1] >> bit) & 1u) == 0u) {
        stow_port_assert_failed(
            STOW_CHECK_TEXT("stow_genpool_walk_next: item removed during the walk"), STOW__FILE,
            __LINE__);
        return true;
    }
#else
    (void)w;
    (void)bit;
#endif
    return false;
}

#if STOW__GENPOOL_WALK == 1
/* The next slot live is the common case, and costs one branch: the test of its
 * bit. The end of the word and free slots are dealt with out of line (x86-64: a
 * dense walk took up to twice as long, depending on where the loop fell, when
 * it also tested the word for 0 per item). */
static inline bool stow__genpool_walk_item(stow_genpool_walk_t *w)
{
    uint32_t bit;
    do {
        if (__builtin_expect((w->left & 1u) == 0u, 0) != 0) {
            if (w->left == 0u) {
                return false;
            }
            uint32_t gap = STOW__CAST(uint32_t, __builtin_ctz(w->left));
            w->left >>= gap;
            w->base += gap * w->stride;
            w->bit += gap;
        }
        bit = w->bit++;
        w->item = w->base;
        w->base += w->stride;
        w->left >>= 1;
    } while (stow__genpool_walk_removed(w, bit));
    return true;
}
#else
static inline bool stow__genpool_walk_item(stow_genpool_walk_t *w)
{
    while (w->left != 0u) {
#if STOW__GENPOOL_WALK == 0
        while ((w->left & 1u) == 0u) { /* ends: left has a bit set */
            w->left >>= 1;
            w->base += w->stride;
            w->bit++;
        }
        uint32_t bit = w->bit++;
        w->item = w->base;
        w->base += w->stride;
        w->left >>= 1;
#else
        uint32_t bit = STOW__CAST(uint32_t, __builtin_clz(w->left));
        w->item = w->base + bit * w->stride;
        w->left &= ~(UINT32_C(0x80000000) >> bit);
#endif
        if (stow__genpool_walk_removed(w, bit)) {
            continue;
        }
        return true;
    }
    return false;
}
#endif

/* Moves to the next live item, w->item, and returns true; false at the end (and
 * on every call after). */
static inline bool stow_genpool_walk_next(stow_genpool_walk_t *w)
{
    while (!stow__genpool_walk_item(w)) {
        if (!stow__genpool_walk_word(w)) {
            return false;
        }
    }
    return true;
}

/* for every live item of g (a stow_genpool_t *): T *ptr = the item; then the
 * statement or block that follows. See above. A loop per step of the walk; the
 * inner one sets in_body as it enters the body and clears it as it ends, so
 * that after a `break` the outer loop ends too. */
#define STOW_GENPOOL_FOREACH(g, T, ptr)                                                    \
    for (stow_genpool_walk_t stow__walk_##ptr = stow_genpool_walk_begin(g);               \
         !stow__walk_##ptr.in_body && stow__genpool_walk_word(&stow__walk_##ptr);)          \
        for (T *ptr; (stow__walk_##ptr.in_body = stow__genpool_walk_item(&stow__walk_##ptr)) && \
                     (ptr = STOW__CAST(T *, stow__walk_##ptr.item), true);)

/* Fills *out: capacity (slots), used (live items), peak (high-water mark of used)
 * and fails (refused inserts and allocs). O(1).
 * Contract violation: g or out is NULL. */
void stow_genpool_stats(const stow_genpool_t *g, stow_stats_t *out);

/* Walks every slot in use and returns false if any invariant is broken: counts
 * that disagree (live, free, retired), a bitmap bit that disagrees with its slot,
 * a free list with a cycle, a link out of range or a live or retired slot on it,
 * a live word with generation 0, a retired word in STOW_GEN_WRAP mode, fields out
 * of range, a stride and inverse that disagree, and at level 2 a released item
 * whose poison was overwritten. Marks the free-list slots in the bitmap while it
 * walks them (to find cycles without memory of its own) and clears the marks
 * before it returns. For tests and debug builds. O(slots in use), plus
 * O(item bytes) at check level 2. Contract violation: g is NULL (returns false). */
bool stow_genpool_check(const stow_genpool_t *g);

/* ---------------------------------------------------------------- typed handles
 *
 * STOW_GENPOOL_DEFINE_TYPED(name, T, capacity) is STOW_GENPOOL_DEFINE plus a handle
 * type of the pool's own, name_handle_t (STOW_HANDLE_DECLARE; the plain handle is
 * its .untyped), and static inline wrappers that work on the pool `name`:
 *
 *     name_handle_t name_insert(const T *item);      T *name_alloc(name_handle_t *out);
 *     T *name_get(name_handle_t h);                  bool name_contains(name_handle_t h);
 *     bool name_remove(name_handle_t h);             name_handle_t name_handle_of(const T *item);
 *     name_handle_t name_first(void);                name_handle_t name_next(name_handle_t h);
 *     T *name_iterate(uint32_t *cursor);             bool name_cancel(name_handle_t h);
 *     bool name_is_null(name_handle_t h);            void name_clear(void);
 *     uint32_t name_count(void);
 *     uint32_t name_index(name_handle_t h);          uint32_t name_generation(name_handle_t h);
 *
 * Their costs, results and violations are those of the functions they call.
 * Passing another pool's handle, or a plain stow_handle_t, is a compile error.
 *
 *     STOW_GENPOOL_DEFINE_TYPED(enemies, struct enemy, 64);
 *     STOW_GENPOOL_DEFINE_TYPED(missiles, struct missile, 32);
 *     enemies_handle_t target = enemies_insert(&e);
 *     missiles_get(target);                          // error: wrong handle type
 *
 * STOW_GENPOOL_DEFINE_TYPED_STATIC makes the pool file-local. To share a typed pool
 * between files, put STOW_GENPOOL_DECLARE_TYPED(name, T) in a header and
 * STOW_GENPOOL_DEFINE(name, T, capacity) (the untyped one) in one .c file that
 * includes it. The header needs T declared, not defined: the wrappers only pass
 * pointers to it, so the header does not have to include the item's definition.
 *
 *     // enemies.h
 *     #include "stow/genpool.h"
 *     struct enemy;                                  // defined in enemy.h
 *     STOW_GENPOOL_DECLARE_TYPED(enemies, struct enemy);
 *
 *     // enemies.c
 *     #include "enemies.h"
 *     #include "enemy.h"                             // the full struct enemy
 *     STOW_GENPOOL_DEFINE(enemies, struct enemy, 64);
 *
 *     // any other file: enemies_handle_t, enemies_insert(), enemies_get()...
 *
 * Index bits of its own: STOW_GENPOOL_DEFINE_TYPED_BITS(name, T, capacity,
 * index_bits) is STOW_GENPOOL_DEFINE_TYPED with a handle split of the pool's own:
 * index_bits (1 to 30) low bits for the slot index, the other 32 - index_bits for
 * the generation, whatever STOW_HANDLE_INDEX_BITS says (a 4096-slot pool of
 * particles takes 12 and keeps 20 bits of generation; a pool beyond 2^16 slots
 * takes more than the default 16). capacity must be 1 to 2^index_bits (a compile
 * error says so). Only with typed handles, so that its handles never meet code
 * that reads them with the global split: name_index() and name_generation() read
 * them with the pool's own, where stow_handle_index() and
 * stow_handle_generation() would not. Every function of this header works on such
 * a pool (each pool keeps its split); the cost is that of any pool (the split is
 * a field every call reads, as with the default). _BITS_STATIC makes it
 * file-local; STOW_GENPOOL_DECLARE_TYPED_BITS(name, T, index_bits) declares it in
 * a header, with STOW_GENPOOL_DEFINE_BITS(name, T, capacity, index_bits) in one
 * .c file. */
#define STOW_GENPOOL_DEFINE_TYPED(name, T, capacity) \
    STOW_HANDLE_DECLARE(name##_handle_t);            \
    STOW_GENPOOL_DEFINE(name, T, capacity);          \
    STOW__GENPOOL_WRAPPERS(name, T, STOW_HANDLE_INDEX_BITS)
#define STOW_GENPOOL_DEFINE_TYPED_STATIC(name, T, capacity) \
    STOW_HANDLE_DECLARE(name##_handle_t);                   \
    STOW_GENPOOL_DEFINE_STATIC(name, T, capacity);          \
    STOW__GENPOOL_WRAPPERS(name, T, STOW_HANDLE_INDEX_BITS)
/* The same, counted in subsystem sub (stow/report.h). */
#define STOW_GENPOOL_DEFINE_TYPED_IN(sub, name, T, capacity) \
    STOW_HANDLE_DECLARE(name##_handle_t);                     \
    STOW_GENPOOL_DEFINE_IN(sub, name, T, capacity);           \
    STOW__GENPOOL_WRAPPERS(name, T, STOW_HANDLE_INDEX_BITS)
#define STOW_GENPOOL_DEFINE_TYPED_STATIC_IN(sub, name, T, capacity) \
    STOW_HANDLE_DECLARE(name##_handle_t);                            \
    STOW_GENPOOL_DEFINE_STATIC_IN(sub, name, T, capacity);           \
    STOW__GENPOOL_WRAPPERS(name, T, STOW_HANDLE_INDEX_BITS)
#define STOW_GENPOOL_DECLARE_TYPED(name, T)   \
    STOW_HANDLE_DECLARE(name##_handle_t);     \
    extern stow_genpool_t name;               \
    STOW__GENPOOL_WRAPPERS(name, T, STOW_HANDLE_INDEX_BITS)
#define STOW_GENPOOL_DEFINE_TYPED_BITS(name, T, capacity, index_bits) \
    STOW_HANDLE_DECLARE(name##_handle_t);                              \
    STOW_GENPOOL_DEFINE_BITS(name, T, capacity, index_bits);           \
    STOW__GENPOOL_WRAPPERS(name, T, index_bits)
#define STOW_GENPOOL_DEFINE_TYPED_BITS_STATIC(name, T, capacity, index_bits)                    \
    STOW_HANDLE_DECLARE(name##_handle_t);                                                      \
    STOW__GENPOOL_DEFINE_BITS_IN(static STOW__CONSTINIT, STOW__NO_SUBSYSTEM, name, T, capacity, \
                                 index_bits);                                                  \
    STOW__GENPOOL_WRAPPERS(name, T, index_bits)
#define STOW_GENPOOL_DECLARE_TYPED_BITS(name, T, index_bits) \
    STOW_HANDLE_DECLARE(name##_handle_t);                    \
    extern stow_genpool_t name;                              \
    STOW__GENPOOL_WRAPPERS(name, T, index_bits)
/* The untyped pool of a DECLARE_TYPED_BITS, for its one .c file. */
#define STOW_GENPOOL_DEFINE_BITS(name, T, capacity, index_bits) \
    STOW__GENPOOL_DEFINE_BITS_IN(STOW__CONSTINIT, STOW__NO_SUBSYSTEM, name, T, capacity, index_bits)

/* ---------------------------------------------------------------- private parts */

#define STOW__GENPOOL_ALIGN(item_align)                                                \
    (STOW__CAST(size_t, item_align) != 0u ? STOW__CAST(size_t, item_align)         \
                                             : STOW__CAST(size_t, STOW_DEFAULT_ALIGN))
#define STOW__GENPOOL_STRIDE(item_size, item_align)                                     \
    ((STOW__CAST(size_t, item_size) + STOW__GENPOOL_ALIGN(item_align) - 1u) &        \
     ~(STOW__GENPOOL_ALIGN(item_align) - 1u))
#define STOW__GENPOOL_WORDS_OFFSET(item_size, item_align, capacity)                     \
    ((STOW__GENPOOL_STRIDE(item_size, item_align) * STOW__CAST(size_t, capacity) +   \
      sizeof(uint32_t) - 1u) & ~(sizeof(uint32_t) - 1u))
#define STOW__GENPOOL_BITS_OFFSET(item_size, item_align, capacity)   \
    (STOW__GENPOOL_WORDS_OFFSET(item_size, item_align, capacity) + \
     sizeof(uint32_t) * STOW__CAST(size_t, capacity))

/* Items a whole number of words long and aligned to 4 or more (then so are the
 * stride, the buffer and, by insert's contract, its source): copied and zeroed a
 * word at a time. */
#define STOW__GENPOOL_COPY_WORDS(item_size, item_align)                                 \
    STOW__CAST(uint32_t, (STOW__CAST(size_t, item_size) & 3u) == 0u &&            \
                                    STOW__CAST(size_t, item_align) >= 4u             \
                                ? STOW__CAST(size_t, item_size) / 4u                 \
                                : 0u)

/* The first declaration, STOW__FILE_SCOPE_ONLY, makes a DEFINE inside a C++ class
 * a compile error (config.h). Every initializer is a constant expression without
 * a pointer conversion, so that C++20 can check it (STOW__CONSTINIT, config.h).
 * sizeof(T) is a multiple of alignof(T), so the stride of a DEFINE'd pool is
 * sizeof(T). */
#define STOW__GENPOOL_DEFINE(linkage, name, T, capacity)                                       \
    STOW__GENPOOL_DEFINE_IN(linkage, STOW__NO_SUBSYSTEM, name, T, capacity)
#define STOW__GENPOOL_DEFINE_IN(linkage, sub, name, T, capacity)                               \
    STOW__FILE_SCOPE_ONLY;                                                                     \
    STOW_STATIC_ASSERT((capacity) >= 1 && STOW__CAST(uint64_t, capacity) <=                 \
                                              STOW__CAST(uint64_t, STOW_HANDLE_MAX_CAPACITY), \
                       "genpool capacity must be 1 to STOW_HANDLE_MAX_CAPACITY, which is "     \
                       STOW__HANDLE_LIMIT_TEXT ": for more slots define STOW_HANDLE_INDEX_BITS " \
                       "higher (at most 30; the generation of every handle gets a bit less), or "   \
                       "give this pool index bits of its own (STOW_GENPOOL_DEFINE_TYPED_BITS)"); \
    STOW__GENPOOL_DEFINE_BODY(linkage, sub, name, T, capacity, STOW_HANDLE_INDEX_BITS)
#define STOW__GENPOOL_DEFINE_BITS_IN(linkage, sub, name, T, capacity, index_bits)               \
    STOW__FILE_SCOPE_ONLY;                                                                     \
    STOW_STATIC_ASSERT((index_bits) >= 1 && (index_bits) <= 30,                                \
                       "STOW_GENPOOL_DEFINE_TYPED_BITS: index_bits must be 1 to 30 (the "      \
                       "generation needs 2 bits or more)");                                    \
    STOW_STATIC_ASSERT((capacity) >= 1 && STOW__CAST(uint64_t, capacity) <=                 \
                                              (UINT64_C(1) << (index_bits)),                   \
                       "STOW_GENPOOL_DEFINE_TYPED_BITS: the capacity must be 1 to 2^index_bits " \
                       "(its last argument): raise index_bits (at most 30) for more slots");   \
    STOW__GENPOOL_DEFINE_BODY(linkage, sub, name, T, capacity, index_bits)
#define STOW__GENPOOL_DEFINE_BODY(linkage, prefix, subname, name, T, capacity, index_bits)                  \
    STOW_STATIC_ASSERT(STOW__CAST(uint64_t, sizeof(T)) * STOW__CAST(uint64_t, capacity) <= \
                           UINT32_MAX,                                                         \
                       "genpool items must take less than 4 GiB");                             \
    /* items rounded up to 4 bytes, a word per slot, a bit per slot in whole words */          \
    STOW_STATIC_ASSERT(                                                                        \
        STOW__FITS_SIZE(capacity, STOW__GENPOOL_STRIDE(sizeof(T), STOW_ALIGNOF(T)) + 5u, 7u),  \
        "genpool storage does not fit in size_t");                                             \
    STOW_ALIGNAS(STOW_GENPOOL_BUF_ALIGN(STOW_ALIGNOF(T))) STOW__SECTION_IN(prefix, subname, genpool, name) \
    static unsigned char                                                                       \
        stow__genpool_buf_##name[STOW_GENPOOL_BYTES(sizeof(T), STOW_ALIGNOF(T), capacity)];    \
    linkage stow_genpool_t name = {                                                            \
        stow__genpool_buf_##name,                                                              \
        stow__genpool_buf_##name + STOW__GENPOOL_WORDS_OFFSET(sizeof(T), STOW_ALIGNOF(T), capacity), \
        stow__genpool_buf_##name + STOW__GENPOOL_BITS_OFFSET(sizeof(T), STOW_ALIGNOF(T), capacity),  \
        STOW__CAST(uint32_t, sizeof(T)),                                                    \
        0u,                                                                                    \
        STOW__CAST(uint32_t, capacity),                                                     \
        0u,                                                                                    \
        0u,                                                                                    \
        0u,                                                                                    \
        STOW__CAST(uint32_t, capacity),                                                     \
        0u,                                                                                    \
        STOW__CAST(uint32_t, sizeof(T)),                                                    \
        STOW__GENPOOL_COPY_WORDS(sizeof(T), STOW_ALIGNOF(T)),                                  \
        STOW__SHIFT_OF(sizeof(T)),                                                             \
        STOW__CAST(uint32_t, STOW__ODD_INVERSE(STOW__ODD_OF(sizeof(T)))),                   \
        0u,                                                                                    \
        0u,                                                                                    \
        0u,                                                                                    \
        STOW__CONFIG_GUARD,                                                                    \
        0u,                                                                                    \
        STOW__HANDLE_MASK_OF(index_bits)};                                                     \
    STOW__REGISTER(prefix, subname, genpool, name, stow__genpool_buf_##name)

#if defined(__GNUC__)
#define STOW__GENPOOL_UNUSED __attribute__((unused))
#else
#define STOW__GENPOOL_UNUSED
#endif

#define STOW__GENPOOL_WRAPPERS(name, T, index_bits)                                         \
    static inline STOW__GENPOOL_UNUSED name##_handle_t name##_insert(const T *item)         \
    {                                                                                       \
        name##_handle_t h;                                                                  \
        h.untyped = stow_genpool_insert(&(name), item);                                     \
        return h;                                                                           \
    }                                                                                       \
    static inline STOW__GENPOOL_UNUSED T *name##_alloc(name##_handle_t *out)                \
    {                                                                                       \
        stow_handle_t *untyped = out != STOW__NULL ? &out->untyped : STOW__NULL;            \
        return STOW__CAST(T *, stow_genpool_alloc(&(name), untyped));                       \
    }                                                                                       \
    static inline STOW__GENPOOL_UNUSED T *name##_get(name##_handle_t h)                     \
    {                                                                                       \
        return STOW__CAST(T *, stow_genpool_get(&(name), h.untyped));                                   \
    }                                                                                       \
    static inline STOW__GENPOOL_UNUSED bool name##_contains(name##_handle_t h)              \
    {                                                                                       \
        return stow_genpool_contains(&(name), h.untyped);                                   \
    }                                                                                       \
    static inline STOW__GENPOOL_UNUSED bool name##_remove(name##_handle_t h)                \
    {                                                                                       \
        return stow_genpool_remove(&(name), h.untyped);                                     \
    }                                                                                       \
    static inline STOW__GENPOOL_UNUSED name##_handle_t name##_handle_of(const T *item)      \
    {                                                                                       \
        name##_handle_t h;                                                                  \
        h.untyped = stow_genpool_handle_of(&(name), item);                                  \
        return h;                                                                           \
    }                                                                                       \
    static inline STOW__GENPOOL_UNUSED name##_handle_t name##_first(void)                   \
    {                                                                                       \
        name##_handle_t h;                                                                  \
        h.untyped = stow_genpool_first(&(name));                                            \
        return h;                                                                           \
    }                                                                                       \
    static inline STOW__GENPOOL_UNUSED name##_handle_t name##_next(name##_handle_t h)       \
    {                                                                                       \
        name##_handle_t n;                                                                  \
        n.untyped = stow_genpool_next(&(name), h.untyped);                                  \
        return n;                                                                           \
    }                                                                                       \
    static inline STOW__GENPOOL_UNUSED T *name##_iterate(uint32_t *cursor)                  \
    {                                                                                       \
        return STOW__CAST(T *, stow_genpool_iterate(&(name), cursor));                                  \
    }                                                                                       \
    static inline STOW__GENPOOL_UNUSED bool name##_cancel(name##_handle_t h)                \
    {                                                                                       \
        return stow_genpool_cancel(&(name), h.untyped);                                     \
    }                                                                                       \
    static inline STOW__GENPOOL_UNUSED bool name##_is_null(name##_handle_t h)               \
    {                                                                                       \
        return h.untyped.bits <= STOW__HANDLE_MASK_OF(index_bits); /* generation 0 */       \
    }                                                                                       \
    static inline STOW__GENPOOL_UNUSED uint32_t name##_index(name##_handle_t h)             \
    {                                                                                       \
        return h.untyped.bits & STOW__HANDLE_MASK_OF(index_bits);                           \
    }                                                                                       \
    static inline STOW__GENPOOL_UNUSED uint32_t name##_generation(name##_handle_t h)        \
    {                                                                                       \
        return h.untyped.bits >> (index_bits);                                              \
    }                                                                                       \
    static inline STOW__GENPOOL_UNUSED void name##_clear(void) { stow_genpool_clear(&(name)); } \
    static inline STOW__GENPOOL_UNUSED uint32_t name##_count(void)                          \
    {                                                                                       \
        return stow_genpool_count(&(name));                                                 \
    }                                                                                       \
    typedef int stow__genpool_wrappers_##name /* swallows the caller's semicolon */

#ifdef __cplusplus
}
#endif

#endif /* STOW_GENPOOL_H */
