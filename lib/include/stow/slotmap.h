/* SPDX-License-Identifier: MIT */
/* stow/slotmap.h - packed items behind generational handles, with deferred destruction.
 *
 * A slot map keeps its items packed in one array, [0, count), so that updating
 * all of them is a plain loop with no holes and no flags to test. Removing an
 * item moves the last one into its place (swap-and-pop), so items move; the rest
 * of the program therefore holds handles, not pointers. A handle is an index
 * into a sparse table that follows each item wherever it moves, plus a
 * generation that goes stale when the item is removed (versioned handles).
 * On top of that, deferred destruction: mark items dead while the frame runs
 * (they stay readable and in place), then refresh() once destroys them all in
 * one pass (a flush) and closes the gaps, keeping the survivors in order.
 *
 *     STOW_SLOTMAP_DEFINE(enemies, struct enemy, 64);       // file scope, no init call
 *     stow_handle_t h = stow_slotmap_insert(&enemies, &e);  // copied in; NULL handle if full
 *     struct enemy *p = stow_slotmap_get(&enemies, h);      // NULL once h is stale
 *     struct enemy *all = stow_slotmap_data(&enemies);      // for (i < count) update(&all[i]);
 *     stow_slotmap_mark_dead(&enemies, h);  stow_slotmap_refresh(&enemies, NULL, NULL);
 *
 * Typed handles: STOW_SLOTMAP_DEFINE_TYPED(enemies, struct enemy, 64) also
 * declares enemies_handle_t and inline wrappers enemies_insert(), enemies_get(),
 * enemies_remove()... (listed at the end of this file); a handle of another
 * container passed to them does not compile.
 *
 * Options (config.h): STOW_HANDLE_INDEX_BITS bounds the capacity (at most
 * 2^INDEX_BITS items) and leaves 32 - INDEX_BITS bits of generation.
 * STOW_GENERATION_OVERFLOW: with STOW_GEN_WRAP a slot's generation goes from
 * STOW_HANDLE_MAX_GENERATION back to 1, so a handle kept across that many reuses
 * of one slot would resolve again; with STOW_GEN_RETIRE that slot is retired
 * instead, never reused, and counted by stow_slotmap_retired(): the map then
 * holds at most capacity - retired items, which is what stats().capacity says.
 * Freed handle slots are reused last-freed first, with one exception: a
 * retirement (STOW_GEN_RETIRE) moves the free slot that was next-to-last in line
 * to the front (that keeps retiring O(1)), so the slot freed longest ago is
 * reused next.
 *
 * Memory: the items, at a stride of item_size rounded up to item_align, then two
 * 32-bit words per slot. Overhead: 8 bytes per slot (item padding aside), the
 * dead mark and the free list included, plus the 64-byte stow_slotmap_t (on a
 * 32-bit target):
 *   - dense[p]: the handle index of the item at position p, and in bit 31 its
 *     dead mark (indices use at most 30 bits, so the mark costs nothing).
 *     Positions [count, top) list the handle indices that are free for reuse:
 *     the free list is the tail of this array, and needs no links.
 *   - sparse[i]: generation << INDEX_BITS | (i ^ position of i in dense). A
 *     lookup is then sparse[i] ^ handle: it equals the position when the
 *     generation matches and is at least 2^INDEX_BITS when not, so a single
 *     comparison with count refuses stale handles, free slots (their position
 *     is >= count) and retired slots (generation 0, position field all ones).
 * Handle indices [bump, capacity) have never been used since start-up: their
 * words are whatever the RAM held, so nothing reads them, and any handle naming
 * them is refused by comparing its index with bump before the table is touched.
 * That is what lets the storage start out unzeroed (start-up is O(1)), and why
 * clear() does not lower bump: it bumps the generation of each live item's index
 * instead, so that every handle it issued goes stale for good.
 *
 * Errors: a full map makes alloc/insert return NULL / STOW_HANDLE_NULL and count
 * a fail (the only thing counted in stats().fails). A stale, null or forged
 * handle is an ordinary runtime answer: NULL or false, not counted. A contract
 * violation (NULL map or out pointer, an index beyond count, a non-power-of-two
 * alignment) goes to the port's assert hook at STOW_CHECK_LEVEL >= 1; if the hook
 * returns, the call returns NULL / false / STOW_HANDLE_NULL / 0 and the map is
 * exactly as it was. At level 0 it is undefined. The hook's text names the
 * function and the misuse, e.g. "stow_slotmap_handle_at: index is not below
 * count" (STOW_ASSERT_TEXT 0 leaves it empty).
 *
 * Check level 2: the memory an item leaves behind (the last position, after a
 * remove, refresh or clear) is filled with 0xDD; when that position is handed out
 * again, a byte that changed in between (a write through a pointer kept past a
 * remove) is reported through the assert hook, and the insertion then proceeds,
 * since refusing it would not undo the damage. In an AddressSanitizer build the
 * released positions (at and beyond count) are poisoned too, at every level, and
 * an access through a pointer kept past a remove is reported at once (see
 * config.h).
 *
 * Pointers from get/alloc/data are valid until the next remove, refresh or clear
 * (insert and alloc never move items: they append).
 *
 * Shared use (interrupts, threads, cores): stow_slotmap_insert_isr(),
 * _get_isr(), _read_isr() and _remove_isr() run the plain call under the map's
 * own lock, stow_port_lock() on a word inside the map (stow/port.h): interrupt
 * masking on the Cortex-M and RISC-V ports, a lock on that word alone on the
 * host, so threads on two maps never wait for each other. Every call that
 * changes a shared map must then go through them or run between
 * stow_slotmap_lock() and stow_slotmap_unlock() (mark_dead, refresh, clear, a
 * loop over data()).
 *
 * A pointer from get_isr() is checked under the lock but used after it, and a
 * remove of ANY item elsewhere may move another item into that place (swap and
 * pop): the pointer is safe only while no other context removes, refreshes or
 * clears. Otherwise read_isr() copies the item out under the lock, or take
 * lock(), get(), use, unlock().
 *
 * Per call, from a thread / an interrupt handler / another core while other
 * contexts use the same map ("port" = with a port whose lock spans cores:
 * host, Zephyr SMP, or your own):
 *   insert_isr, read_isr, remove_isr,   safe / safe / port
 *   lock/unlock
 *   get_isr                             safe / safe / port, and its pointer
 *                                       while no other context removes
 *   capacity                            safe / safe / safe (set by init only)
 *   alloc, insert, get, contains,       not safe: only between lock() and
 *   remove, data, count, handle_at,     unlock(), or in a context that has the
 *   clear, mark_dead, is_dead,          map to itself
 *   dead_count, refresh, retired,
 *   stats, check
 *   init                                not safe: before any sharing starts
 *
 * The fields of stow_slotmap_t are private; they are in the header only so that
 * STOW_SLOTMAP_DEFINE can build the object with a constant initializer.
 */
#ifndef STOW_SLOTMAP_H
#define STOW_SLOTMAP_H

#include "config.h"
#include "handle.h"
#include "stats.h"
#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct stow_slotmap stow_slotmap_t;
struct stow_slotmap {
    /* Ordered, and aligned to 8, so that the fields an operation reads together
     * sit in 8-byte-aligned pairs: GCC then loads each pair with one LDRD on
     * Cortex-M (it will not otherwise when unaligned access is disabled). */
    STOW_ALIGNAS(8) uint32_t bump; /* handle indices [0, bump) have been used at least once */
    uint32_t top;         /* positions [count, top) of dense list the free handle indices */
    uint32_t count;       /* items at positions [0, count), dead-marked ones included */
    void *sparse;         /* uint32_t per handle index: generation << INDEX_BITS | (index ^ position) */
    unsigned char *items; /* position p is at items + p * stride */
    size_t stride;        /* item_size rounded up to item_align */
    void *dense;          /* uint32_t per position: handle index | STOW__SLOTMAP_DEAD */
    size_t item_size;     /* bytes insert() copies */
    uint32_t dead;        /* items marked dead and not yet refreshed */
    uint32_t capacity;
    uint32_t peak;        /* high-water mark of count */
    uint32_t fails;       /* refused alloc/insert */
    const char *const *config; /* the options its DEFINE saw (config.h), or NULL after init */
    uint32_t lock;             /* the port's lock word for the _isr calls and lock(): 0 when free */
    uint32_t index_mask;       /* this map's handles: the index in the low bits (2^index bits - 1:
                                  STOW_HANDLE_INDEX_MASK, or a DEFINE_TYPED_BITS map's own) */
};

/* The dead mark in a dense word; handle indices use at most 30 bits. */
#define STOW__SLOTMAP_DEAD UINT32_C(0x80000000)

/* The buffer alignment stow_slotmap_init() needs: item_align (0 meaning
 * STOW_DEFAULT_ALIGN), and at least that of the 32-bit tables. */
#define STOW_SLOTMAP_ALIGN(item_align)                                                   \
    (STOW__SLOTMAP_ALIGN0(item_align) > STOW_ALIGNOF(uint32_t)                           \
         ? STOW__SLOTMAP_ALIGN0(item_align)                                              \
         : STOW_ALIGNOF(uint32_t))
#define STOW__SLOTMAP_ALIGN0(item_align)                                                 \
    (STOW__CAST(size_t, item_align) != 0u ? STOW__CAST(size_t, item_align)         \
                                             : STOW__CAST(size_t, STOW_DEFAULT_ALIGN))
#define STOW__SLOTMAP_STRIDE(item_size, item_align)                                      \
    ((STOW__CAST(size_t, item_size) + STOW__SLOTMAP_ALIGN0(item_align) - 1u) &        \
     ~(STOW__SLOTMAP_ALIGN0(item_align) - 1u))
/* Where the tables start: after the items, rounded up to a 32-bit boundary. */
#define STOW__SLOTMAP_TABLES(item_size, item_align, capacity)                            \
    ((STOW__CAST(size_t, capacity) * STOW__SLOTMAP_STRIDE(item_size, item_align) +    \
      STOW_ALIGNOF(uint32_t) - 1u) & ~(STOW_ALIGNOF(uint32_t) - 1u))

/* Buffer bytes stow_slotmap_init() needs: the items, then 8 bytes per slot. */
#define STOW_SLOTMAP_BYTES(item_size, item_align, capacity)                              \
    (STOW__SLOTMAP_TABLES(item_size, item_align, capacity) +                             \
     2u * sizeof(uint32_t) * STOW__CAST(size_t, capacity))

/* STOW_SLOTMAP_DEFINE(name, T, capacity): defines, at file or namespace scope, a
 * ready, empty slot map `name` of `capacity` items of type T (a constant, 1 to
 * STOW_HANDLE_MAX_CAPACITY, whose storage fits in size_t; checked at compile
 * time) and its storage, placed in the section .bss.stow.slotmap.<name> (see
 * linker/stow.ld). No init call; the storage need not be zeroed.
 * STOW_SLOTMAP_DEFINE_STATIC makes `name` file-local. The map is a constant
 * initializer in C and C++ alike (which is why the struct holds its tables as
 * void *: a constant expression may convert a pointer to void *, never back): no
 * code runs before it is ready, so it may be used from any constructor of another
 * file; in C++20 the DEFINE declares it `constinit`, which makes the compiler
 * prove it. Inside a C++ class a DEFINE is a compile error (the message names
 * stow_DEFINE_belongs_at_namespace_scope__inside_a_class_use_stow_hpp): a class
 * gets its containers from the C++ layer (stow/stow.hpp),
 * whose containers hold their storage inside the object. */
#define STOW_SLOTMAP_DEFINE(name, T, capacity) \
    STOW__SLOTMAP_DEFINE(STOW__CONSTINIT, name, T, capacity)
#define STOW_SLOTMAP_DEFINE_STATIC(name, T, capacity) \
    STOW__SLOTMAP_DEFINE(static STOW__CONSTINIT, name, T, capacity)
/* The same, counted in subsystem sub (stow/report.h: subsystems and budgets). */
#define STOW_SLOTMAP_DEFINE_IN(sub, name, T, capacity) \
    STOW__SLOTMAP_DEFINE_IN(STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, T, capacity)
#define STOW_SLOTMAP_DEFINE_STATIC_IN(sub, name, T, capacity) \
    STOW__SLOTMAP_DEFINE_IN(static STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, T, capacity)

/* The first declaration, STOW__FILE_SCOPE_ONLY, makes a DEFINE inside a C++ class
 * a compile error (config.h). */
#define STOW__SLOTMAP_DEFINE(linkage, name, T, capacity)                                   \
    STOW__SLOTMAP_DEFINE_IN(linkage, STOW__NO_SUBSYSTEM, name, T, capacity)
#define STOW__SLOTMAP_DEFINE_IN(linkage, sub, name, T, capacity)                           \
    STOW__FILE_SCOPE_ONLY;                                                                 \
    STOW_STATIC_ASSERT((capacity) >= 1 && STOW__CAST(uint64_t, capacity) <=             \
                                              STOW_HANDLE_MAX_CAPACITY,                    \
                       "slot map capacity must be 1 to STOW_HANDLE_MAX_CAPACITY, which is " \
                       STOW__HANDLE_LIMIT_TEXT ": for more slots define STOW_HANDLE_INDEX_BITS " \
                       "higher (at most 30; the generation of every handle gets a bit less), or " \
                       "give this map index bits of its own (STOW_SLOTMAP_DEFINE_TYPED_BITS)"); \
    STOW__SLOTMAP_DEFINE_BODY(linkage, sub, name, T, capacity, STOW_HANDLE_INDEX_BITS)
#define STOW__SLOTMAP_DEFINE_BITS_IN(linkage, sub, name, T, capacity, index_bits)           \
    STOW__FILE_SCOPE_ONLY;                                                                 \
    STOW_STATIC_ASSERT((index_bits) >= 1 && (index_bits) <= 30,                            \
                       "STOW_SLOTMAP_DEFINE_TYPED_BITS: index_bits must be 1 to 30 (the "  \
                       "generation needs 2 bits or more)");                                \
    STOW_STATIC_ASSERT((capacity) >= 1 && STOW__CAST(uint64_t, capacity) <=             \
                                              (UINT64_C(1) << (index_bits)),               \
                       "STOW_SLOTMAP_DEFINE_TYPED_BITS: the capacity must be 1 to "        \
                       "2^index_bits (its last argument): raise index_bits (at most 30) "  \
                       "for more slots");                                                  \
    STOW__SLOTMAP_DEFINE_BODY(linkage, sub, name, T, capacity, index_bits)
#define STOW__SLOTMAP_DEFINE_BODY(linkage, prefix, subname, name, T, capacity, index_bits)              \
    /* items rounded up to 4 bytes (at most 3 more), then 8 table bytes per slot */        \
    STOW_STATIC_ASSERT(                                                                    \
        STOW__FITS_SIZE(capacity, STOW__SLOTMAP_STRIDE(sizeof(T), STOW_ALIGNOF(T)) + 8u, 3u), \
        "slot map storage does not fit in size_t");                                        \
    STOW_ALIGNAS(STOW_SLOTMAP_ALIGN(STOW_ALIGNOF(T))) STOW__SECTION_IN(prefix, subname, slotmap, name) \
    static unsigned char                                                                   \
        stow__slotmap_buf_##name[STOW_SLOTMAP_BYTES(sizeof(T), STOW_ALIGNOF(T), capacity)]; \
    linkage stow_slotmap_t name = {                                                        \
        0u,                                                                                \
        0u,                                                                                \
        0u,                                                                                \
        stow__slotmap_buf_##name + STOW__SLOTMAP_TABLES(sizeof(T), STOW_ALIGNOF(T), capacity) + \
            sizeof(uint32_t) * STOW__CAST(size_t, capacity),                            \
        stow__slotmap_buf_##name,                                                          \
        STOW__SLOTMAP_STRIDE(sizeof(T), STOW_ALIGNOF(T)),                                  \
        stow__slotmap_buf_##name + STOW__SLOTMAP_TABLES(sizeof(T), STOW_ALIGNOF(T), capacity), \
        sizeof(T),                                                                         \
        0u,                                                                                \
        STOW__CAST(uint32_t, capacity),                                                 \
        0u,                                                                                \
        0u,                                                                                \
        STOW__CONFIG_GUARD,                                                                \
        0u,                                                                                \
        STOW__HANDLE_MASK_OF(index_bits)};                                                 \
    STOW__REGISTER(prefix, subname, slotmap, name, stow__slotmap_buf_##name)

/* Makes *m an empty slot map of `capacity` items of item_size bytes aligned to
 * item_align (0: STOW_DEFAULT_ALIGN) in buf, with zeroed statistics. buf needs
 * STOW_SLOTMAP_BYTES(item_size, item_align, capacity) bytes aligned to
 * STOW_SLOTMAP_ALIGN(item_align); it need not be zeroed. O(1).
 * Returns false, changing nothing, if buf is NULL, misaligned or smaller than
 * that, item_size is 0 (stow/stow.h: size 0), capacity is 0 or above
 * STOW_HANDLE_MAX_CAPACITY, or the size computation overflows.
 * Contract violation: m is NULL; item_align is not 0 or a power of two. */
bool stow_slotmap_init(stow_slotmap_t *m, void *buf, size_t buf_size, size_t item_size,
                       size_t item_align, uint32_t capacity) STOW__GUARDED(stow_slotmap_init);

/* Appends a zeroed item at position count and stores its handle in *out.
 * Returns the item, or NULL (with *out = STOW_HANDLE_NULL, counting a fail) when
 * the map is full. O(item_size).
 * Contract violation: m or out is NULL. */
void *stow_slotmap_alloc(stow_slotmap_t *m, stow_handle_t *out);

/* Appends a copy of the item_size bytes at item (any alignment; word copies
 * when it allows them); returns its handle, or STOW_HANDLE_NULL (counting a
 * fail) when the map is full. O(item_size).
 * Contract violation: m or item is NULL. */
stow_handle_t stow_slotmap_insert(stow_slotmap_t *m, const void *item);

/* The item h names (dead-marked or not), or NULL when h is stale, null or was
 * not issued by this map. The pointer is valid until the next remove, refresh or
 * clear. Contract violation: m is NULL. */
void *stow_slotmap_get(const stow_slotmap_t *m, stow_handle_t h);

/* True when get() would return an item. Contract violation: m is NULL. */
bool stow_slotmap_contains(const stow_slotmap_t *m, stow_handle_t h);

/* Removes the item h names (dead-marked or not): the last item moves into its
 * position (its handle keeps working), and every handle to the removed item goes
 * stale. Returns false, changing nothing, when h is stale or null (not a fail).
 * O(item_size) for the move. Contract violation: m is NULL. */
bool stow_slotmap_remove(stow_slotmap_t *m, stow_handle_t h);

/* Takes back the last item (position count - 1), which was just made (alloc or
 * insert) and whose handle no one has kept: as remove, except that nothing
 * moves and the handle's generation is not spent, so the next alloc or insert
 * gets the same position and h again, as if the first had never happened. For
 * an item whose set-up fails after alloc (a C++ constructor that throws:
 * stow.hpp's emplace). Returns false, doing nothing, when h is stale or null or
 * names another item than the last. O(1) (plus poisoning at level 2).
 * Misuse (not detectable): cancelling an item whose handle was kept somewhere;
 * that copy would name the next item. Use remove for those.
 * Contract violation: m is NULL. */
bool stow_slotmap_cancel(stow_slotmap_t *m, stow_handle_t h);

/* insert, get and remove under the map's lock (see "Shared use" above):
 * ISR-safe and thread-safe, and they nest (inside lock()/unlock() or the
 * caller's own critical section). Same results and violations, the same text
 * for them. get_isr's pointer outlives the lock: valid while no other context
 * removes, refreshes or clears. Safe from a thread and from an interrupt
 * handler; from another core only with a port whose lock spans cores. */
stow_handle_t stow_slotmap_insert_isr(stow_slotmap_t *m, const void *item);
void *stow_slotmap_get_isr(stow_slotmap_t *m, stow_handle_t h);
bool stow_slotmap_remove_isr(stow_slotmap_t *m, stow_handle_t h);

/* Copies the item h names (item_size bytes, dead-marked or not) to out under the
 * map's lock and returns true, or returns false, writing nothing, when h is
 * stale or null. out may have any alignment. O(item_size) under the lock: the
 * safe way to read an item while other contexts remove. Safe from a thread and
 * from an interrupt handler; from another core only with a port whose lock
 * spans cores. Contract violation: m or out is NULL (returns false). */
bool stow_slotmap_read_isr(stow_slotmap_t *m, stow_handle_t h, void *out);

/* Takes and releases the map's lock: between them the plain calls run as one
 * step against every _isr call elsewhere (use an item in place, mark_dead,
 * refresh, a loop over data()). lock() returns the state unlock() needs. Pairs
 * nest. O(1). Hold it briefly: on Cortex-M it masks interrupts. Safe from a
 * thread and from an interrupt handler; from another core only with a port
 * whose lock spans cores. Contract violation: m is NULL (lock returns 0,
 * unlock does nothing). */
uint32_t stow_slotmap_lock(stow_slotmap_t *m);
void stow_slotmap_unlock(stow_slotmap_t *m, uint32_t state);

/* The items, packed at positions [0, count) with a stride of item_size rounded up
 * to item_align (sizeof(T) for a DEFINE'd map): iterate with a plain loop. Dead-
 * marked items are included until refresh. Contract violation: m is NULL. */
void *stow_slotmap_data(const stow_slotmap_t *m);

/* Items in the map, dead-marked ones included. Contract violation: m is NULL (0). */
uint32_t stow_slotmap_count(const stow_slotmap_t *m);

/* The capacity the map was made with (retired slots included; see stats()).
 * Contract violation: m is NULL (returns 0). */
uint32_t stow_slotmap_capacity(const stow_slotmap_t *m);

/* The handle of the item at position dense_index (for iterating with handles).
 * Contract violation: m is NULL; dense_index >= count (returns STOW_HANDLE_NULL). */
stow_handle_t stow_slotmap_handle_at(const stow_slotmap_t *m, uint32_t dense_index);

/* Removes every item: every handle goes stale, count becomes 0; no item is
 * destroyed through a callback (refresh first if that matters). O(count): one
 * pass bumps each item's generation (items do not move); plus O(count *
 * item_size) at check level 2 for the poison. Contract violation: m is NULL. */
void stow_slotmap_clear(stow_slotmap_t *m);

/* Deferred destruction. Marks the item h names as dead: it stays
 * readable through h, stays in [0, count) and keeps its position until the next
 * refresh(), which destroys it. Marking twice is fine (counted once). Returns
 * false when h is stale or null. Contract violation: m is NULL. */
bool stow_slotmap_mark_dead(stow_slotmap_t *m, stow_handle_t h);

/* True when h names an item marked dead and not yet refreshed away; false for an
 * unmarked item and for a stale handle (contains() tells those apart).
 * Contract violation: m is NULL. */
bool stow_slotmap_is_dead(const stow_slotmap_t *m, stow_handle_t h);

/* Items marked dead and not yet refreshed. Contract violation: m is NULL (0). */
uint32_t stow_slotmap_dead_count(const stow_slotmap_t *m);

/* Destroys every dead-marked item: calls on_destroy(item, ctx) for each (if
 * on_destroy is not NULL), in position order, while the item is still intact and
 * before its memory is reused; then makes its handles stale and closes the gaps.
 * Survivors keep their relative order (so with only insert, mark_dead and refresh
 * the packed order is insertion order) and their handles. Returns the number
 * destroyed. O(count) and O(item_size) per survivor moved; O(1) when nothing is
 * marked dead. on_destroy must not call this map's functions.
 * Contract violation: m is NULL (returns 0). */
uint32_t stow_slotmap_refresh(stow_slotmap_t *m, void (*on_destroy)(void *item, void *ctx),
                              void *ctx);

/* Handle slots retired because their generation ran out (always 0 with
 * STOW_GEN_WRAP). Each one lowers the map's room by one item for good.
 * Contract violation: m is NULL (returns 0). */
uint32_t stow_slotmap_retired(const stow_slotmap_t *m);

/* Fills *out: capacity (capacity - retired: the items it can hold), used (count,
 * dead-marked included), peak (high-water mark of used) and fails (refused
 * alloc/insert). Contract violation: m or out is NULL. */
void stow_slotmap_stats(const stow_slotmap_t *m, stow_stats_t *out);

/* Walks the whole map and returns false if any invariant is broken: counts out
 * of order, a position and its handle index that do not point at each other, a
 * handle index listed twice or not at all, a dead mark outside [0, count) or a
 * dead count that disagrees, retired slots that disagree with bump - top, and at
 * level 2 a released item position whose poison was overwritten. For tests and
 * debug builds. O(capacity), plus O(capacity * item_size) at level 2.
 * Contract violation: m is NULL (returns false). */
bool stow_slotmap_check(const stow_slotmap_t *m);

/* ------------------------------------------------------------------ typed maps
 * STOW_SLOTMAP_DEFINE_TYPED(name, T, capacity) is STOW_SLOTMAP_DEFINE plus a
 * handle type of the map's own, name_handle_t (from STOW_HANDLE_DECLARE; .untyped
 * is the plain handle), and static inline wrappers that take and return it and T:
 *     name_handle_t name_insert(const T *item);      T *name_alloc(name_handle_t *out);
 *     T *name_get(name_handle_t h);                  bool name_contains(name_handle_t h);
 *     bool name_remove(name_handle_t h);             bool name_mark_dead(name_handle_t h);
 *     bool name_is_dead(name_handle_t h);            name_handle_t name_handle_at(uint32_t i);
 *     T *name_data(void);                            uint32_t name_count(void);
 *     uint32_t name_refresh(void (*on_destroy)(void *item, void *ctx), void *ctx);
 *     void name_clear(void);                         bool name_is_null(name_handle_t h);
 *     bool name_cancel(name_handle_t h);
 *     uint32_t name_index(name_handle_t h);          uint32_t name_generation(name_handle_t h);
 * Costs and errors are those of the functions they wrap. _DEFINE_TYPED_STATIC is
 * the file-local form. To share a typed map between files, put
 * STOW_SLOTMAP_DECLARE_TYPED(name, T) in a header and STOW_SLOTMAP_DEFINE(name,
 * T, capacity) (the untyped one) in exactly one .c file that includes it. The
 * header needs T declared, not defined: the wrappers only pass pointers to it.
 *     // bullets.h
 *     #include "stow/slotmap.h"
 *     struct bullet;                                 // defined in bullet.h
 *     STOW_SLOTMAP_DECLARE_TYPED(bullets, struct bullet);
 *     // bullets.c
 *     #include "bullets.h"
 *     #include "bullet.h"                            // the full struct bullet
 *     STOW_SLOTMAP_DEFINE(bullets, struct bullet, 256);
 *     // any other file: bullets_handle_t, bullets_insert(), bullets_get()...
 *
 * Index bits of its own: STOW_SLOTMAP_DEFINE_TYPED_BITS(name, T, capacity,
 * index_bits) is STOW_SLOTMAP_DEFINE_TYPED with a handle split of the map's own:
 * index_bits (1 to 30) low bits for the index, the other 32 - index_bits for the
 * generation, whatever STOW_HANDLE_INDEX_BITS says (a 4096-slot map takes 12 and
 * keeps 20 bits of generation; a map beyond 2^16 slots takes more than the
 * default 16). capacity must be 1 to 2^index_bits (a compile error says so). Only
 * with typed handles, so that its handles never meet code that reads them with
 * the global split: name_index() and name_generation() read them with the map's
 * own, where stow_handle_index() and stow_handle_generation() would not. Every
 * function of this header works on such a map (each map keeps its split), at
 * the same cost. _BITS_STATIC makes it file-local;
 * STOW_SLOTMAP_DECLARE_TYPED_BITS(name, T, index_bits) declares it in a header,
 * with STOW_SLOTMAP_DEFINE_BITS(name, T, capacity, index_bits) in one .c file. */
#define STOW_SLOTMAP_DEFINE_TYPED(name, T, capacity) \
    STOW_SLOTMAP_DEFINE(name, T, capacity);          \
    STOW__SLOTMAP_TYPED(name, T, STOW_HANDLE_INDEX_BITS)
#define STOW_SLOTMAP_DEFINE_TYPED_STATIC(name, T, capacity) \
    STOW_SLOTMAP_DEFINE_STATIC(name, T, capacity);          \
    STOW__SLOTMAP_TYPED(name, T, STOW_HANDLE_INDEX_BITS)
/* The same, counted in subsystem sub (stow/report.h). */
#define STOW_SLOTMAP_DEFINE_TYPED_IN(sub, name, T, capacity) \
    STOW_SLOTMAP_DEFINE_IN(sub, name, T, capacity);           \
    STOW__SLOTMAP_TYPED(name, T, STOW_HANDLE_INDEX_BITS)
#define STOW_SLOTMAP_DEFINE_TYPED_STATIC_IN(sub, name, T, capacity) \
    STOW_SLOTMAP_DEFINE_STATIC_IN(sub, name, T, capacity);           \
    STOW__SLOTMAP_TYPED(name, T, STOW_HANDLE_INDEX_BITS)
#define STOW_SLOTMAP_DECLARE_TYPED(name, T) \
    extern stow_slotmap_t name;             \
    STOW__SLOTMAP_TYPED(name, T, STOW_HANDLE_INDEX_BITS)
#define STOW_SLOTMAP_DEFINE_TYPED_BITS(name, T, capacity, index_bits) \
    STOW_SLOTMAP_DEFINE_BITS(name, T, capacity, index_bits);           \
    STOW__SLOTMAP_TYPED(name, T, index_bits)
#define STOW_SLOTMAP_DEFINE_TYPED_BITS_STATIC(name, T, capacity, index_bits)                    \
    STOW__SLOTMAP_DEFINE_BITS_IN(static STOW__CONSTINIT, STOW__NO_SUBSYSTEM, name, T, capacity, \
                                 index_bits);                                                  \
    STOW__SLOTMAP_TYPED(name, T, index_bits)
#define STOW_SLOTMAP_DECLARE_TYPED_BITS(name, T, index_bits) \
    extern stow_slotmap_t name;                              \
    STOW__SLOTMAP_TYPED(name, T, index_bits)
/* The untyped map of a DECLARE_TYPED_BITS, for its one .c file. */
#define STOW_SLOTMAP_DEFINE_BITS(name, T, capacity, index_bits) \
    STOW__SLOTMAP_DEFINE_BITS_IN(STOW__CONSTINIT, STOW__NO_SUBSYSTEM, name, T, capacity, index_bits)

#if defined(__GNUC__)
#define STOW__SLOTMAP_WRAPPER __attribute__((unused)) static inline
#else
#define STOW__SLOTMAP_WRAPPER static inline
#endif

#define STOW__SLOTMAP_TYPED(name, T, index_bits)                                                  \
    STOW_HANDLE_DECLARE(name##_handle_t);                                                         \
    STOW__SLOTMAP_WRAPPER name##_handle_t stow__slotmap_wrap_##name(stow_handle_t h)              \
    {                                                                                             \
        name##_handle_t t;                                                                        \
        t.untyped = h;                                                                            \
        return t;                                                                                 \
    }                                                                                             \
    STOW__SLOTMAP_WRAPPER name##_handle_t name##_insert(const T *item)                            \
    {                                                                                             \
        return stow__slotmap_wrap_##name(stow_slotmap_insert(&(name), item));                     \
    }                                                                                             \
    STOW__SLOTMAP_WRAPPER T *name##_alloc(name##_handle_t *out)                                   \
    {                                                                                             \
        return STOW__CAST(T *, stow_slotmap_alloc(&(name), out != NULL ? &out->untyped : NULL)); \
    }                                                                                             \
    STOW__SLOTMAP_WRAPPER T *name##_get(name##_handle_t h)                                        \
    {                                                                                             \
        return STOW__CAST(T *, stow_slotmap_get(&(name), h.untyped));                          \
    }                                                                                             \
    STOW__SLOTMAP_WRAPPER bool name##_contains(name##_handle_t h)                                 \
    {                                                                                             \
        return stow_slotmap_contains(&(name), h.untyped);                                         \
    }                                                                                             \
    STOW__SLOTMAP_WRAPPER bool name##_remove(name##_handle_t h)                                   \
    {                                                                                             \
        return stow_slotmap_remove(&(name), h.untyped);                                           \
    }                                                                                             \
    STOW__SLOTMAP_WRAPPER bool name##_mark_dead(name##_handle_t h)                                \
    {                                                                                             \
        return stow_slotmap_mark_dead(&(name), h.untyped);                                        \
    }                                                                                             \
    STOW__SLOTMAP_WRAPPER bool name##_is_dead(name##_handle_t h)                                  \
    {                                                                                             \
        return stow_slotmap_is_dead(&(name), h.untyped);                                          \
    }                                                                                             \
    STOW__SLOTMAP_WRAPPER name##_handle_t name##_handle_at(uint32_t dense_index)                  \
    {                                                                                             \
        return stow__slotmap_wrap_##name(stow_slotmap_handle_at(&(name), dense_index));           \
    }                                                                                             \
    STOW__SLOTMAP_WRAPPER T *name##_data(void)                                                    \
    {                                                                                             \
        return STOW__CAST(T *, stow_slotmap_data(&(name)));                                    \
    }                                                                                             \
    STOW__SLOTMAP_WRAPPER uint32_t name##_count(void) { return stow_slotmap_count(&(name)); }     \
    STOW__SLOTMAP_WRAPPER uint32_t name##_refresh(void (*on_destroy)(void *item, void *ctx),      \
                                                  void *ctx)                                      \
    {                                                                                             \
        return stow_slotmap_refresh(&(name), on_destroy, ctx);                                    \
    }                                                                                             \
    STOW__SLOTMAP_WRAPPER void name##_clear(void) { stow_slotmap_clear(&(name)); }                \
    STOW__SLOTMAP_WRAPPER bool name##_cancel(name##_handle_t h)                                   \
    {                                                                                             \
        return stow_slotmap_cancel(&(name), h.untyped);                                           \
    }                                                                                             \
    STOW__SLOTMAP_WRAPPER bool name##_is_null(name##_handle_t h)                                  \
    {                                                                                             \
        return h.untyped.bits <= STOW__HANDLE_MASK_OF(index_bits); /* generation 0 */             \
    }                                                                                             \
    STOW__SLOTMAP_WRAPPER uint32_t name##_index(name##_handle_t h)                                \
    {                                                                                             \
        return h.untyped.bits & STOW__HANDLE_MASK_OF(index_bits);                                 \
    }                                                                                             \
    STOW__SLOTMAP_WRAPPER uint32_t name##_generation(name##_handle_t h)                           \
    {                                                                                             \
        return h.untyped.bits >> (index_bits);                                                    \
    }                                                                                             \
    typedef int stow__slotmap_typed_##name##_end_

#ifdef __cplusplus
}
#endif

#endif /* STOW_SLOTMAP_H */
