/* SPDX-License-Identifier: MIT */
/* packed.c - packed array with swap-and-pop. See stow/packed.h.
 *
 * Invariants (stow_packed_check tests them): items is set; count <= capacity and
 * peak <= capacity; at level 2 every byte of positions [count, peak) holds 0xDD.
 * peak is brought up to date only where count is about to fall (remove_at,
 * clear): count only grows in between, so stats() takes max(peak, count) and
 * push never touches it. That is also all level 2 needs: a position below peak
 * and at or above count was released, one at or above peak was never used.
 */
#include "stow/packed.h"
#include "internal.h"

/* Moves an item: not memcpy (no libc). By words when the stride and the
 * storage allow it (n is never 0); odd sizes go a byte at a time, out of line so
 * that they cost the word path no registers. */
static STOW__NOINLINE void move_bytes(unsigned char *dst, const unsigned char *src, size_t n)
{
    stow__copy(dst, src, n);
}

static inline void move_item(unsigned char *dst, const unsigned char *src, size_t n,
                             const unsigned char *items)
{
    if ((((uintptr_t)items | n) & 3u) == 0u) {
        stow__copy_words(dst, src, n);
    } else {
        move_bytes(dst, src, n);
    }
}

static inline void zero_item(unsigned char *dst, size_t n, const unsigned char *items)
{
    if ((((uintptr_t)items | n) & 3u) == 0u) {
        stow__zero_words(dst, n);
    } else {
        stow__fill(dst, 0u, n);
    }
}

bool stow_packed_init(stow_packed_t *a, void *buf, size_t buf_size, size_t item_size,
                      size_t item_align, uint32_t capacity)
{
    STOW__CHECK(a != NULL, "stow_packed_init: array is NULL", false);
    STOW__CHECK(item_align == 0u || stow__is_pow2(item_align),
                "stow_packed_init: alignment is not a power of two", false);
    size_t align = item_align != 0u ? item_align : (size_t)STOW_DEFAULT_ALIGN;
    if (buf == NULL || item_size == 0u || capacity == 0u || !stow__is_aligned(buf, align)) {
        return false;
    }
    size_t stride = stow__round_up(item_size, align); /* 0 when it overflows */
    size_t bytes = stow__checked_product(capacity, stride);
    if (stride == 0u || bytes == 0u || buf_size < bytes) {
        return false;
    }
    a->count = 0u;
    a->capacity = capacity;
    a->items = (unsigned char *)buf;
    a->stride = stride;
    a->peak = 0u;
    a->fails = 0u;
    a->config = NULL;
    return true;
}

void *stow_packed_push(stow_packed_t *a)
{
    STOW__CHECK(a != NULL, "stow_packed_push: array is NULL", NULL);
    uint32_t pos = a->count;
    if (pos >= a->capacity) {
        a->fails++;
        return NULL;
    }
    size_t stride = a->stride;
    unsigned char *item = a->items + (size_t)pos * stride;
#if STOW_CHECK_LEVEL >= 2
    if (pos < a->peak && !stow__poison_intact(item, stride)) {
        STOW__REPORT("stow_packed_push: the position was written after its item left");
    }
#endif
    a->count = pos + 1u;
    stow__acquire(item, stride);
    zero_item(item, stride, a->items);
    return item;
}

void stow_packed_remove_at(stow_packed_t *a, uint32_t index)
{
    STOW__CHECK_VOID(a != NULL, "stow_packed_remove_at: array is NULL");
    STOW__CHECK_VOID(index < a->count, "stow_packed_remove_at: index is not below the count");
    uint32_t count = a->count;
    if (count > a->peak) {
        a->peak = count;
    }
    uint32_t last = count - 1u;
    size_t stride = a->stride;
    unsigned char *items = a->items;
    unsigned char *tail = items + (size_t)last * stride;
    move_item(items + (size_t)index * stride, tail, stride, items);
    stow__release(tail, stride);
    a->count = last;
}

void *stow_packed_at(const stow_packed_t *a, uint32_t index)
{
    STOW__CHECK(a != NULL, "stow_packed_at: array is NULL", NULL);
    STOW__CHECK(index < a->count, "stow_packed_at: index is not below the count", NULL);
    return a->items + (size_t)index * a->stride;
}

void *stow_packed_data(const stow_packed_t *a)
{
    STOW__CHECK(a != NULL, "stow_packed_data: array is NULL", NULL);
    return a->items;
}

uint32_t stow_packed_count(const stow_packed_t *a)
{
    STOW__CHECK(a != NULL, "stow_packed_count: array is NULL", 0u);
    return a->count;
}

uint32_t stow_packed_capacity(const stow_packed_t *a)
{
    STOW__CHECK(a != NULL, "stow_packed_capacity: array is NULL", 0u);
    return a->capacity;
}

void stow_packed_clear(stow_packed_t *a)
{
    STOW__CHECK_VOID(a != NULL, "stow_packed_clear: array is NULL");
    if (a->count > a->peak) {
        a->peak = a->count;
    }
    stow__release(a->items, (size_t)a->count * a->stride);
    a->count = 0u;
}

void stow_packed_stats(const stow_packed_t *a, stow_stats_t *out)
{
    STOW__CHECK_VOID(a != NULL, "stow_packed_stats: array is NULL");
    STOW__CHECK_VOID(out != NULL, "stow_packed_stats: out is NULL");
    out->capacity = a->capacity;
    out->used = a->count;
    out->peak = a->count > a->peak ? a->count : a->peak;
    out->fails = a->fails;
}

bool stow_packed_check(const stow_packed_t *a)
{
    STOW__CHECK(a != NULL, "stow_packed_check: array is NULL", false);
    if (a->items == NULL || a->stride == 0u || a->capacity == 0u || a->count > a->capacity ||
        a->peak > a->capacity) {
        return false;
    }
#if STOW_CHECK_LEVEL >= 2
    for (uint32_t pos = a->count; pos < a->peak; pos++) {
        if (!stow__poison_intact(a->items + (size_t)pos * a->stride, a->stride)) {
            return false;
        }
    }
#endif
    return true;
}

/* The report's view of a packed (stow/report.h). */
STOW__REGISTRY_KIND(packed, stow_packed_t, false);
