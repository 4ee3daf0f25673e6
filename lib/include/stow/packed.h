/* SPDX-License-Identifier: MIT */
/* stow/packed.h - a packed array: items always contiguous, removal by swap-and-pop.
 *
 * The items live at positions [0, count) with no holes, so the update loop is a
 * plain loop with no flags to test and nothing to skip. Pushing
 * appends; removing position i moves the last item into i, so removal is O(1) but
 * reorders, and a pointer or index kept across a removal may name another item.
 * When something outside must keep referring to one item, use a slot map
 * (slotmap.h), which adds handles that follow the items.
 *
 *     STOW_PACKED_DEFINE(particles, struct particle, 256);   // file scope, no init call
 *     struct particle *p = stow_packed_push(&particles);     // zeroed, or NULL when full
 *     for (uint32_t i = 0; i < stow_packed_count(&particles); i++)
 *         if (update(STOW_PACKED_AT(&particles, struct particle, i)) == DIED)
 *             stow_packed_remove_at(&particles, i--);         // the last one moved into i
 *
 * Memory: count * stride bytes of items and nothing else; stride is item_size
 * rounded up to item_align (sizeof(T) for a DEFINE'd array). No per-item overhead.
 *
 * Errors: a full array makes push return NULL and count a fail (stats().fails).
 * Contract violations (a NULL array, an index at or beyond count, an alignment
 * that is not a power of two) go to the port's assert hook at STOW_CHECK_LEVEL >=
 * 1, with the call's name and the misuse ("stow_packed_at: index is not below the
 * count"); if the hook returns, the call returns NULL / does nothing and the array is
 * exactly as it was. At level 0 they are undefined.
 *
 * Check level 2: the memory an item leaves (the last position, after remove_at
 * or clear) is filled with 0xDD; when push hands it out again, a byte that was
 * written in between (through a pointer kept past the removal) is reported
 * through the assert hook, and the push then proceeds, since refusing it would
 * not undo the damage. In an AddressSanitizer build the positions at and beyond
 * count that were released are poisoned too, at every level, and an access
 * through a pointer kept past the removal is reported at once (see config.h).
 *
 * Pointers into the array stay valid across push (items never move then) and
 * until the next remove_at or clear. Not ISR- or thread-safe.
 *
 * The fields of stow_packed_t are private; they are in the header only so that
 * STOW_PACKED_DEFINE can build the object with a constant initializer.
 */
#ifndef STOW_PACKED_H
#define STOW_PACKED_H

#include "config.h"
#include "stats.h"
#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct stow_packed stow_packed_t;
struct stow_packed {
    /* Aligned to 8 so that GCC reads the pairs with LDRD on Cortex-M. */
    STOW_ALIGNAS(8) uint32_t count; /* items at positions [0, count) */
    uint32_t capacity;
    unsigned char *items; /* position i is at items + i * stride */
    size_t stride;        /* item_size rounded up to item_align */
    uint32_t peak;        /* high-water mark of count, as of the last decrease */
    uint32_t fails;       /* refused pushes */
    const char *const *config; /* the options its DEFINE saw (config.h), or NULL after init */
};

#define STOW__PACKED_ALIGN0(item_align)                                                  \
    STOW__CAST(size_t, (item_align) != 0u ? STOW__CAST(size_t, item_align)                \
                                          : STOW__CAST(size_t, STOW_DEFAULT_ALIGN))
#define STOW__PACKED_STRIDE(item_size, item_align)                                       \
    ((STOW__CAST(size_t, item_size) + STOW__PACKED_ALIGN0(item_align) - 1u) &            \
     ~(STOW__PACKED_ALIGN0(item_align) - 1u))

/* The alignment STOW_PACKED_DEFINE gives its storage: item_align, and at least 4
 * so that items whose size allows it are moved a word at a time. */
#define STOW_PACKED_ALIGN(item_align) \
    (STOW__PACKED_ALIGN0(item_align) > 4u ? STOW__PACKED_ALIGN0(item_align) : sizeof(char) * 4u)

/* Buffer bytes stow_packed_init() needs: capacity strides, nothing else. */
#define STOW_PACKED_BYTES(item_size, item_align, capacity) \
    (STOW__CAST(size_t, capacity) * STOW__PACKED_STRIDE(item_size, item_align))

/* STOW_PACKED_DEFINE(name, T, capacity): defines, at file or namespace scope, a
 * ready, empty packed array `name` of up to `capacity` items of type T (a
 * constant, 1 to UINT32_MAX, whose storage fits in size_t; checked at compile
 * time) and its storage, aligned to STOW_PACKED_ALIGN(alignof(T)) and placed in
 * the NOBITS section .bss.stow.packed.<name>. No init call; the storage need not
 * be zeroed. STOW_PACKED_DEFINE_STATIC makes `name` file-local. Inside a C++
 * class a DEFINE is a compile error whose text points to the C++ layer
 * (stow/stow.hpp), whose containers hold their storage inside
 * the object. */
#define STOW_PACKED_DEFINE(name, T, capacity) STOW__PACKED_DEFINE(STOW__CONSTINIT, name, T, capacity)
#define STOW_PACKED_DEFINE_STATIC(name, T, capacity) STOW__PACKED_DEFINE(static STOW__CONSTINIT, name, T, capacity)
/* The same, counted in subsystem sub (stow/report.h: subsystems and budgets). */
#define STOW_PACKED_DEFINE_IN(sub, name, T, capacity) \
    STOW__PACKED_DEFINE_IN(STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, T, capacity)
#define STOW_PACKED_DEFINE_STATIC_IN(sub, name, T, capacity) \
    STOW__PACKED_DEFINE_IN(static STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, T, capacity)

#define STOW__PACKED_DEFINE(linkage, name, T, capacity)                                       \
    STOW__PACKED_DEFINE_IN(linkage, STOW__NO_SUBSYSTEM, name, T, capacity)
#define STOW__PACKED_DEFINE_IN(linkage, sub, name, T, capacity)                               \
    STOW__FILE_SCOPE_ONLY;                                                                    \
    STOW_STATIC_ASSERT((capacity) >= 1 && STOW__CAST(uint64_t, capacity) <= UINT32_MAX,       \
                       "packed array capacity must be 1 to UINT32_MAX");                      \
    STOW_STATIC_ASSERT(STOW__FITS_SIZE(capacity, sizeof(T), 0u),                              \
                       "packed array storage does not fit in size_t");                        \
    STOW_ALIGNAS(STOW_PACKED_ALIGN(STOW_ALIGNOF(T))) STOW__SECTION_IN(sub, packed, name)      \
    static unsigned char stow__packed_buf_##name[STOW__CAST(size_t, capacity) * sizeof(T)];   \
    linkage stow_packed_t name = {0u, STOW__CAST(uint32_t, capacity), stow__packed_buf_##name,  \
                                  sizeof(T),                                                  \
                                  0u, 0u, STOW__CONFIG_GUARD};                                \
    STOW__REGISTER(sub, packed, name, stow__packed_buf_##name)

/* Makes *a an empty packed array of up to `capacity` items of item_size bytes
 * aligned to item_align (0: STOW_DEFAULT_ALIGN) in buf, with zeroed statistics.
 * buf needs STOW_PACKED_BYTES(item_size, item_align, capacity) bytes aligned to
 * item_align; it need not be zeroed. O(1).
 * Returns false, changing nothing, if buf is NULL, misaligned or too small,
 * item_size (stow/stow.h: size 0) or capacity is 0, or the size computation
 * overflows.
 * Contract violation: a is NULL; item_align is not 0 or a power of two. */
bool stow_packed_init(stow_packed_t *a, void *buf, size_t buf_size, size_t item_size,
                      size_t item_align, uint32_t capacity) STOW__GUARDED(stow_packed_init);

/* Appends a zeroed item at position count and returns it, or NULL (counting a
 * fail) when the array is full. O(item_size).
 * Contract violation: a is NULL. */
void *stow_packed_push(stow_packed_t *a);

/* Removes the item at position index: the last item moves into index (when
 * index is not the last), count drops by one. O(item_size).
 * Contract violation: a is NULL; index >= count (nothing changes). */
void stow_packed_remove_at(stow_packed_t *a, uint32_t index);

/* The item at position index. Contract violation: a is NULL; index >= count
 * (returns NULL). */
void *stow_packed_at(const stow_packed_t *a, uint32_t index);

/* The items, positions [0, count) at a stride of item_size rounded up to
 * item_align. Contract violation: a is NULL. */
void *stow_packed_data(const stow_packed_t *a);

/* Items in the array. Contract violation: a is NULL (returns 0). */
uint32_t stow_packed_count(const stow_packed_t *a);

/* Items the array can hold. Contract violation: a is NULL (returns 0). */
uint32_t stow_packed_capacity(const stow_packed_t *a);

/* Removes every item. O(1), plus O(count * item_size) at check level 2 (poison).
 * Statistics are kept. Contract violation: a is NULL. */
void stow_packed_clear(stow_packed_t *a);

/* Fills *out: capacity, used (count), peak (high-water mark of count) and fails
 * (refused pushes). Contract violation: a or out is NULL. */
void stow_packed_stats(const stow_packed_t *a, stow_stats_t *out);

/* Returns false if an invariant is broken (counts out of order, no storage, and
 * at level 2 a released position whose poison was overwritten). For tests and
 * debug builds. O(1), plus O(capacity * item_size) at check level 2.
 * Contract violation: a is NULL (returns false). */
bool stow_packed_check(const stow_packed_t *a);

/* Typed access: the item at index as a T*, a zeroed new T*, all items as T*. */
#define STOW_PACKED_AT(a, T, index) STOW__CAST(T *, stow_packed_at((a), (index)))
#define STOW_PACKED_PUSH(a, T) STOW__CAST(T *, stow_packed_push(a))
#define STOW_PACKED_DATA(a, T) STOW__CAST(T *, stow_packed_data(a))

#ifdef __cplusplus
}
#endif

#endif /* STOW_PACKED_H */
