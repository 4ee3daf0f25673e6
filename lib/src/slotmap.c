/* SPDX-License-Identifier: MIT */
/* slotmap.c - packed items behind generational handles. See stow/slotmap.h.
 *
 * Representation (all indices 32-bit; "index" is a handle's slot index, "position"
 * a place in the packed item array):
 *   dense[p]   for p < count: the index of the item at position p, bit 31 its dead
 *              mark; for count <= p < top: a free index, parked at p (no mark).
 *   sparse[i]  for i < bump: generation << INDEX_BITS | (i ^ position of i), where
 *              a free index's generation is the one its next item will get; or,
 *              for a retired index, the word i ^ INDEX_MASK (generation 0).
 * So dense[0, top) and the non-retired indices below bump are two views of one
 * bijection, and a handle h resolves to sparse[index(h)] ^ h.bits: the position
 * when the generations match, at least 2^INDEX_BITS when they do not. Positions of
 * free indices are >= count, and a retired word gives INDEX_MASK, which is >= count
 * whenever anything is retired; so "< count" is the whole validity test.
 * INDEX_BITS and INDEX_MASK are the map's own (index_mask, 2^INDEX_BITS - 1: the
 * global STOW_HANDLE_INDEX_BITS, or what a DEFINE_TYPED_BITS or stow.hpp chose).
 * A handle of the item at position p is sparse[dense[p] without its mark] ^ p,
 * whatever the split: stow.hpp's items() reads it so, in line.
 *
 * Invariants (stow_slotmap_check tests each one):
 *   count <= top <= bump <= capacity; top <= peak <= capacity; dead <= count;
 *   for p < top: i = dense[p] without its mark is < bump, sparse[i] has a non-zero
 *   generation and names position p; marks only below count, dead of them;
 *   for i < bump: sparse[i] is the retired word, or names a position below top
 *   whose dense word is i; bump - top indices are retired (0 with WRAP);
 *   level 2: item positions [count, peak) hold 0xDD in every byte.
 * peak only moves when a new index is taken: reusing a free one needs count < top,
 * and top never exceeds peak.
 */
#include "stow/slotmap.h"
#include "internal.h"

#define DEAD STOW__SLOTMAP_DEAD

static inline uint32_t retired_word(const stow_slotmap_t *m, uint32_t index) { return index ^ m->index_mask; }

static inline unsigned char *item_at(const stow_slotmap_t *m, uint32_t pos)
{
    return m->items + (size_t)pos * m->stride;
}

/* The tables, which the struct holds as void * (slotmap.h says why). */
static inline uint32_t *dense_table(const stow_slotmap_t *m) { return (uint32_t *)m->dense; }
static inline uint32_t *sparse_table(const stow_slotmap_t *m) { return (uint32_t *)m->sparse; }

/* Item copies: not memcpy (no libc). By words when the size and the source
 * allow it (the destination is always an item of the map, 4-aligned whenever the
 * size is a multiple of 4); sizes are never 0. Odd sizes go a byte at a time, out
 * of line so that they cost the word path no registers. */
static STOW__NOINLINE void copy_bytes(unsigned char *dst, const unsigned char *src, size_t n)
{
    stow__copy(dst, src, n);
}

/* Copies the item_size bytes at src, which may have any alignment. */
static inline void copy_in(unsigned char *dst, const unsigned char *src, size_t n)
{
    if (((n | (uintptr_t)src) & 3u) == 0u) {
        stow__copy_words(dst, src, n);
    } else {
        copy_bytes(dst, src, n);
    }
}

/* Items of 20, 24, 28 or 32 bytes (a particle, two vectors) go as two 16-byte
 * blocks, the first and the last 16 bytes, which overlap below 32: no loop, and
 * one LDM/STM or vector move per block. */
static inline bool is_two_blocks(size_t n) { return ((n - 20u) & ~(size_t)12u) == 0u; }

/* Moves one item to another position: both 4-aligned when the stride is. A
 * 16-byte stride is tested first, then two blocks: each test is its alignment
 * test too. */
static inline void move_item(unsigned char *dst, const unsigned char *src, size_t stride)
{
    if (stride == 16u) {
        stow__copy_words(dst, src, 16u);
    } else if (is_two_blocks(stride)) {
        stow__copy_words(dst, src, 16u);
        stow__copy_words(dst + stride - 16u, src + stride - 16u, 16u);
    } else if ((stride & 3u) == 0u) {
        stow__copy_words(dst, src, stride);
    } else {
        copy_bytes(dst, src, stride);
    }
}

/* Zeroes the 16 bytes at dst, which is 4-aligned. */
static inline void zero_16(unsigned char *dst)
{
    stow__word_t *d = (stow__word_t *)(void *)dst;
    d[0] = 0u;
    d[1] = 0u;
    d[2] = 0u;
    d[3] = 0u;
}

static inline void zero_item(unsigned char *dst, size_t n)
{
    if (n == 16u) {
        zero_16(dst);
    } else if (is_two_blocks(n)) {
        zero_16(dst);
        zero_16(dst + n - 16u);
    } else if ((n & 3u) == 0u) {
        stow__zero_words(dst, n);
    } else {
        stow__fill(dst, 0u, n);
    }
}

#if STOW_CHECK_LEVEL >= 2
static void take_poisoned(const unsigned char *item, size_t n)
{
    if (!stow__poison_intact(item, n)) {
        STOW__REPORT("stow_slotmap_insert, stow_slotmap_alloc: the item's memory was written "
                     "after its item was removed, refreshed away or cleared (through a stale pointer)");
    }
}
#endif

bool stow_slotmap_init(stow_slotmap_t *m, void *buf, size_t buf_size, size_t item_size,
                       size_t item_align, uint32_t capacity)
{
    STOW__CHECK(m != NULL, "stow_slotmap_init: map pointer is NULL", false);
    STOW__CHECK(item_align == 0u || stow__is_pow2(item_align),
                "stow_slotmap_init: item_align is neither 0 nor a power of two", false);
    size_t align = item_align != 0u ? item_align : (size_t)STOW_DEFAULT_ALIGN;
    size_t buf_align = align > STOW_ALIGNOF(uint32_t) ? align : STOW_ALIGNOF(uint32_t);
    if (buf == NULL || item_size == 0u || capacity == 0u || capacity > STOW_HANDLE_MAX_CAPACITY ||
        !stow__is_aligned(buf, buf_align)) {
        return false;
    }
    size_t stride = stow__round_up(item_size, align); /* 0 when it overflows */
    size_t item_bytes = stow__checked_product(capacity, stride);
    size_t tables = stow__round_up(item_bytes, STOW_ALIGNOF(uint32_t));
    if (stride == 0u || item_bytes == 0u || tables == 0u || buf_size < tables ||
        (buf_size - tables) / (2u * sizeof(uint32_t)) < capacity) {
        return false;
    }
    unsigned char *b = (unsigned char *)buf;
    uint32_t *dense = (uint32_t *)(void *)(b + tables);
    m->dense = dense;
    m->sparse = dense + capacity;
    m->items = b;
    m->stride = stride;
    m->item_size = item_size;
    m->bump = 0u;
    m->count = 0u;
    m->top = 0u;
    m->dead = 0u;
    m->capacity = capacity;
    m->peak = 0u;
    m->fails = 0u;
    m->config = NULL;
    m->lock = 0u;
    m->index_mask = STOW_HANDLE_INDEX_MASK;
    /* ASan builds: the tables may lie where an older container released memory.
     * (The items are unpoisoned one by one as they are handed out.) */
    stow__unpoison(dense, 2u * sizeof(uint32_t) * (size_t)capacity);
    return true;
}

/* The map has no free index parked at position pos (== count == top): take a
 * never-used index, if any is left, for position pos, as if a remove had parked
 * it there. Returns the handle's bits, 0 (counting a fail) when the map is full.
 * In line: a first use costs the common path a dozen instructions, not a call. */
static inline uint32_t take_new_index(stow_slotmap_t *m, uint32_t pos)
{
    uint32_t index = m->bump;
    if (index >= m->capacity) {
        m->fails++;
        return 0u;
    }
    uint32_t gen_one = m->index_mask + 1u;
    sparse_table(m)[index] = gen_one | (index ^ pos);
    dense_table(m)[pos] = index;
    m->bump = index + 1u;
    m->top = pos + 1u;
#if STOW_CHECK_LEVEL >= 2
    if (pos < m->peak) { /* a retirement lowered top: the position was used before */
        take_poisoned(item_at(m, pos), m->stride);
    }
#endif
    if (pos >= m->peak) {
        m->peak = pos + 1u;
    }
    return gen_one | index;
}

/* The handle of the free index parked at position pos (< top), whose word is
 * already right: the tables are only read. */
static inline uint32_t reuse_index(const stow_slotmap_t *m, uint32_t pos)
{
#if STOW_CHECK_LEVEL >= 2
    take_poisoned(item_at(m, pos), m->stride);
#endif
    return sparse_table(m)[dense_table(m)[pos]] ^ pos;
}

/* Position pos (== count) goes to the new item: the map's new last item. */
static inline unsigned char *hand_out(stow_slotmap_t *m, uint32_t pos)
{
    m->count = pos + 1u;
    unsigned char *item = item_at(m, pos);
    stow__acquire(item, m->stride);
    return item;
}

/* Both append at position count: the free index parked there, or else a
 * never-used one, taken in line. */
void *stow_slotmap_alloc(stow_slotmap_t *m, stow_handle_t *out)
{
    STOW__CHECK(m != NULL, "stow_slotmap_alloc: map pointer is NULL", NULL);
    STOW__CHECK(out != NULL, "stow_slotmap_alloc: out pointer is NULL", NULL);
    uint32_t pos = m->count;
    if (pos < m->top) {
        out->bits = reuse_index(m, pos);
    } else {
        out->bits = take_new_index(m, pos);
        if (out->bits == 0u) {
            return NULL;
        }
    }
    unsigned char *item = hand_out(m, pos);
    zero_item(item, m->stride);
    return item;
}

stow_handle_t stow_slotmap_insert(stow_slotmap_t *m, const void *item)
{
    stow_handle_t h = STOW_HANDLE_NULL;
    STOW__CHECK(m != NULL, "stow_slotmap_insert: map pointer is NULL", h);
    STOW__CHECK(item != NULL, "stow_slotmap_insert: item pointer is NULL", h);
    uint32_t pos = m->count;
    if (pos < m->top) {
        h.bits = reuse_index(m, pos);
    } else {
        h.bits = take_new_index(m, pos);
        if (h.bits == 0u) {
            return h;
        }
    }
    copy_in(hand_out(m, pos), (const unsigned char *)item, m->item_size);
    return h;
}

void *stow_slotmap_get(const stow_slotmap_t *m, stow_handle_t h)
{
    STOW__CHECK(m != NULL, "stow_slotmap_get: map pointer is NULL", NULL);
    uint32_t index = h.bits & m->index_mask;
    if (index >= m->bump) {
        return NULL;
    }
    uint32_t pos = sparse_table(m)[index] ^ h.bits;
    if (pos >= m->count) {
        return NULL;
    }
    return item_at(m, pos);
}

/* The position of the item h names, or a value >= count. */
static inline uint32_t position_of(const stow_slotmap_t *m, stow_handle_t h)
{
    uint32_t index = h.bits & m->index_mask;
    return index < m->bump ? sparse_table(m)[index] ^ h.bits : UINT32_MAX;
}

bool stow_slotmap_contains(const stow_slotmap_t *m, stow_handle_t h)
{
    STOW__CHECK(m != NULL, "stow_slotmap_contains: map pointer is NULL", false);
    return position_of(m, h) < m->count;
}

#if STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE
/* Takes index (whose generation has run out) out of circulation: it is parked at
 * position pos >= count; the last free index takes its place. */
static STOW__NOINLINE void retire(stow_slotmap_t *m, uint32_t index, uint32_t pos)
{
    uint32_t last = m->top - 1u;
    sparse_table(m)[index] = retired_word(m, index);
    if (pos != last) {
        uint32_t moved = dense_table(m)[last];
        dense_table(m)[pos] = moved;
        sparse_table(m)[moved] ^= pos ^ last;
    }
    m->top = last;
}
#endif

/* The next generation after the one in word; 0 when it has run out. */
static inline uint32_t next_generation(const stow_slotmap_t *m, uint32_t word)
{
    uint32_t next = (word | m->index_mask) + 1u; /* the carry out of the index bits */
#if STOW_GENERATION_OVERFLOW == STOW_GEN_WRAP
    /* cppcheck-suppress knownConditionTrueFalse ; 0 when the addition carries out of 32 bits */
    if (next == 0u) {
        next = m->index_mask + 1u;
    }
#endif
    return next;
}

/* The item at position pos (>= count now) is gone: its index becomes free, parked
 * at pos with the next generation, or is retired. */
static void free_index_at(stow_slotmap_t *m, uint32_t pos)
{
    uint32_t index = dense_table(m)[pos] & ~DEAD;
    uint32_t next = next_generation(m, sparse_table(m)[index]);
#if STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE
    if (next == 0u) {
        retire(m, index, pos);
        return;
    }
#endif
    sparse_table(m)[index] = next | (index ^ pos);
    dense_table(m)[pos] = index;
}

/* The word of the index in a dense word, whose dead mark (bit 31) the address
 * arithmetic drops: the byte offset 4 * word is taken modulo 2^32, and indices
 * stay below 2^30. Saves clearing the mark first. */
static inline uint32_t *sparse_of(uint32_t *sparse, uint32_t dense_word)
{
    return (uint32_t *)(void *)((unsigned char *)sparse + (uint32_t)(dense_word << 2));
}

/* The item at position last moves into pos (last itself: nothing to move), and
 * last's memory goes back to the map. */
static inline void move_last(const stow_slotmap_t *m, uint32_t pos, uint32_t last)
{
    size_t stride = m->stride;
    unsigned char *tail = m->items + (size_t)last * stride;
    move_item(m->items + (size_t)pos * stride, tail, stride);
    stow__release(tail, stride);
}

bool stow_slotmap_remove(stow_slotmap_t *m, stow_handle_t h)
{
    STOW__CHECK(m != NULL, "stow_slotmap_remove: map pointer is NULL", false);
    /* Read together (one LDM on Cortex-M), before the first test. */
    uint32_t bump = m->bump;
    uint32_t count = m->count;
    uint32_t *sparse = sparse_table(m);
    uint32_t gen_one = m->index_mask + 1u;
    uint32_t index = h.bits & (gen_one - 1u);
    if (index >= bump) {
        return false;
    }
    uint32_t word = sparse[index];
    uint32_t pos = word ^ h.bits;
    if (pos >= count) {
        return false;
    }
    /* Swap-and-pop: the last item (possibly this one) moves into pos, after the
     * tables (fewer values live through the copy). First index is parked at
     * last with the next generation, so that word dies early (saves registers):
     * word ^ shift has index ^ last in its low bits, and the carry out of the
     * addition is the generation running out. When pos == last, moved is index
     * and shift 0, so the later XOR leaves that word as it is. */
    uint32_t last = count - 1u;
    uint32_t shift = pos ^ last;
    uint32_t next = (word ^ shift) + gen_one;
#if STOW_GENERATION_OVERFLOW == STOW_GEN_WRAP
    if (next < gen_one) {
        next += gen_one;
    }
#endif
    sparse[index] = next;
    uint32_t *dense = dense_table(m);
    /* The dead mark is only read when some item has one: dense[pos] is a
     * random read (a cache miss in a large map), the write is not waited for. */
    if (m->dead != 0u && (dense[pos] & DEAD) != 0u) {
        m->dead--;
    }
    uint32_t moved = dense[last];
    dense[pos] = moved;
    dense[last] = index; /* last: drops the mark of a removed last item */
    *sparse_of(sparse, moved) ^= shift; /* its position goes from last to pos */
    m->count = last;
#if STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE
    if (next < gen_one) {
        retire(m, index, last);
    }
#endif
    move_last(m, pos, last);
    return true;
}

/* Undoes the alloc or insert of the last item: its index stays parked at its
 * position, now count, with the generation its handle has, which reuse_index()
 * hands out again. */
bool stow_slotmap_cancel(stow_slotmap_t *m, stow_handle_t h)
{
    STOW__CHECK(m != NULL, "stow_slotmap_cancel: map pointer is NULL", false);
    uint32_t pos = position_of(m, h);
    if (pos >= m->count || pos != m->count - 1u) {
        return false;
    }
    uint32_t *dense = dense_table(m);
    if ((dense[pos] & DEAD) != 0u) {
        dense[pos] &= ~DEAD;
        m->dead--;
    }
    m->count = pos;
    stow__release(item_at(m, pos), m->stride);
    return true;
}

void *stow_slotmap_data(const stow_slotmap_t *m)
{
    STOW__CHECK(m != NULL, "stow_slotmap_data: map pointer is NULL", NULL);
    return m->items;
}

uint32_t stow_slotmap_count(const stow_slotmap_t *m)
{
    STOW__CHECK(m != NULL, "stow_slotmap_count: map pointer is NULL", 0u);
    return m->count;
}

uint32_t stow_slotmap_capacity(const stow_slotmap_t *m)
{
    STOW__CHECK(m != NULL, "stow_slotmap_capacity: map pointer is NULL", 0u);
    return m->capacity;
}

stow_handle_t stow_slotmap_handle_at(const stow_slotmap_t *m, uint32_t dense_index)
{
    stow_handle_t h = STOW_HANDLE_NULL;
    STOW__CHECK(m != NULL, "stow_slotmap_handle_at: map pointer is NULL", h);
    STOW__CHECK(dense_index < m->count, "stow_slotmap_handle_at: index is not below count", h);
    h.bits = sparse_table(m)[dense_table(m)[dense_index] & ~DEAD] ^ dense_index;
    return h;
}

void stow_slotmap_clear(stow_slotmap_t *m)
{
    STOW__CHECK_VOID(m != NULL, "stow_slotmap_clear: map pointer is NULL");
    uint32_t count = m->count;
    stow__release(m->items, (size_t)count * m->stride);
    m->count = 0u;
    m->dead = 0u;
    /* Downwards, so that a retirement only ever moves an index already done. */
    uint32_t pos = count;
    while (pos-- > 0u) {
        free_index_at(m, pos);
    }
}

bool stow_slotmap_mark_dead(stow_slotmap_t *m, stow_handle_t h)
{
    STOW__CHECK(m != NULL, "stow_slotmap_mark_dead: map pointer is NULL", false);
    uint32_t pos = position_of(m, h);
    if (pos >= m->count) {
        return false;
    }
    uint32_t word = dense_table(m)[pos];
    if ((word & DEAD) == 0u) {
        dense_table(m)[pos] = word | DEAD;
        m->dead++;
    }
    return true;
}

bool stow_slotmap_is_dead(const stow_slotmap_t *m, stow_handle_t h)
{
    STOW__CHECK(m != NULL, "stow_slotmap_is_dead: map pointer is NULL", false);
    uint32_t pos = position_of(m, h);
    return pos < m->count && (dense_table(m)[pos] & DEAD) != 0u;
}

uint32_t stow_slotmap_dead_count(const stow_slotmap_t *m)
{
    STOW__CHECK(m != NULL, "stow_slotmap_dead_count: map pointer is NULL", 0u);
    return m->dead;
}

/* refresh() once something is marked dead: out of line, so that the common
 * case, nothing dead, saves no registers. */
static STOW__NOINLINE uint32_t destroy_dead(stow_slotmap_t *m,
                                            void (*on_destroy)(void *item, void *ctx), void *ctx)
{
    uint32_t count = m->count;
    uint32_t *dense = dense_table(m);
    uint32_t *sparse = sparse_table(m);
    size_t stride = m->stride;
    unsigned char *items = m->items;
    /* A stable partition: survivors slide down to w in order; each one's old
     * place takes the destroyed index that sat at w, so that dense[w, r] holds
     * only destroyed indices. A dead item is always met before anything is
     * written over it (writes go below r). */
    uint32_t w = 0u;
    for (uint32_t r = 0u; r < count; r++) {
        uint32_t word = dense[r];
        unsigned char *item = items + (size_t)r * stride;
        if ((word & DEAD) != 0u) {
            if (on_destroy != NULL) {
                on_destroy(item, ctx);
            }
            continue;
        }
        if (w != r) {
            move_item(items + (size_t)w * stride, item, stride);
            dense[r] = dense[w];
            dense[w] = word;
            sparse[word] ^= r ^ w;
        }
        w++;
    }
    m->count = w;
    m->dead = 0u;
    stow__release(items + (size_t)w * stride, ((size_t)count - w) * stride);
    uint32_t pos = count;
    while (pos-- > w) {
        free_index_at(m, pos);
    }
    return count - w;
}

uint32_t stow_slotmap_refresh(stow_slotmap_t *m, void (*on_destroy)(void *item, void *ctx),
                              void *ctx)
{
    STOW__CHECK(m != NULL, "stow_slotmap_refresh: map pointer is NULL", 0u);
    if (m->dead == 0u) {
        return 0u;
    }
    return destroy_dead(m, on_destroy, ctx);
}

uint32_t stow_slotmap_retired(const stow_slotmap_t *m)
{
    STOW__CHECK(m != NULL, "stow_slotmap_retired: map pointer is NULL", 0u);
    return m->bump - m->top;
}

void stow_slotmap_stats(const stow_slotmap_t *m, stow_stats_t *out)
{
    STOW__CHECK_VOID(m != NULL, "stow_slotmap_stats: map pointer is NULL");
    STOW__CHECK_VOID(out != NULL, "stow_slotmap_stats: out pointer is NULL");
    out->capacity = m->capacity - (m->bump - m->top);
    out->used = m->count;
    out->peak = m->peak;
    out->fails = m->fails;
}

static bool counts_are_sound(const stow_slotmap_t *m)
{
    uint32_t mask = m->index_mask;
    return m->items != NULL && m->dense != NULL && m->sparse != NULL && m->capacity != 0u &&
           mask != 0u && mask <= STOW__HANDLE_MASK_OF(30) && (mask & (mask + 1u)) == 0u &&
           m->capacity - 1u <= mask && m->item_size != 0u &&
           m->item_size <= m->stride &&
           m->count <= m->top && m->top <= m->bump && m->bump <= m->capacity &&
           m->top <= m->peak && m->peak <= m->capacity && m->dead <= m->count;
}

/* Every position below top and its index point at each other; marks agree. */
static bool positions_are_sound(const stow_slotmap_t *m)
{
    uint32_t marked = 0u;
    for (uint32_t pos = 0u; pos < m->top; pos++) {
        uint32_t word = dense_table(m)[pos];
        if ((word & DEAD) != 0u) {
            if (pos >= m->count) {
                return false;
            }
            marked++;
        }
        uint32_t index = word & ~DEAD;
        if (index >= m->bump) {
            return false;
        }
        uint32_t entry = sparse_table(m)[index];
        if ((entry & ~m->index_mask) == 0u || ((entry ^ index) & m->index_mask) != pos) {
            return false;
        }
    }
    return marked == m->dead;
}

/* Every used index is listed at a position below top, or retired. Together with
 * positions_are_sound: the two tables are inverse bijections. */
static bool indices_are_sound(const stow_slotmap_t *m)
{
    uint32_t listed = 0u;
    uint32_t retired = 0u;
    for (uint32_t index = 0u; index < m->bump; index++) {
        uint32_t entry = sparse_table(m)[index];
        if (entry == retired_word(m, index)) {
            retired++;
            continue;
        }
        uint32_t pos = (entry ^ index) & m->index_mask;
        if ((entry & ~m->index_mask) == 0u || pos >= m->top || (dense_table(m)[pos] & ~DEAD) != index) {
            return false;
        }
        listed++;
    }
#if STOW_GENERATION_OVERFLOW == STOW_GEN_WRAP
    if (retired != 0u) {
        return false;
    }
#endif
    return listed == m->top && retired == m->bump - m->top;
}

bool stow_slotmap_check(const stow_slotmap_t *m)
{
    STOW__CHECK(m != NULL, "stow_slotmap_check: map pointer is NULL", false);
    if (!counts_are_sound(m) || !positions_are_sound(m) || !indices_are_sound(m)) {
        return false;
    }
#if STOW_CHECK_LEVEL >= 2
    for (uint32_t pos = m->count; pos < m->peak; pos++) {
        if (!stow__poison_intact(item_at(m, pos), m->stride)) {
            return false;
        }
    }
#endif
    return true;
}

/* ---- shared use: the map's lock word (stow/port.h) ------------------------------- */
/* Each _isr call is the plain call under the lock; the NULL check comes first
 * because the word is inside *m, and reports under the plain call's name. */

uint32_t stow_slotmap_lock(stow_slotmap_t *m)
{
    STOW__CHECK(m != NULL, "stow_slotmap_lock: map pointer is NULL", 0u);
    return stow_port_lock(&m->lock);
}

void stow_slotmap_unlock(stow_slotmap_t *m, uint32_t state)
{
    STOW__CHECK_VOID(m != NULL, "stow_slotmap_unlock: map pointer is NULL");
    stow_port_unlock(&m->lock, state);
}

stow_handle_t stow_slotmap_insert_isr(stow_slotmap_t *m, const void *item)
{
    STOW__CHECK(m != NULL, "stow_slotmap_insert: map pointer is NULL", STOW_HANDLE_NULL);
    uint32_t state = stow_port_lock(&m->lock);
    stow_handle_t h = stow_slotmap_insert(m, item);
    stow_port_unlock(&m->lock, state);
    return h;
}

void *stow_slotmap_get_isr(stow_slotmap_t *m, stow_handle_t h)
{
    STOW__CHECK(m != NULL, "stow_slotmap_get: map pointer is NULL", NULL);
    uint32_t state = stow_port_lock(&m->lock);
    void *item = stow_slotmap_get(m, h);
    stow_port_unlock(&m->lock, state);
    return item;
}

/* The copy is made under the lock: the item cannot move (a remove elsewhere
 * swaps the last item into the gap) while it is read. out may have any
 * alignment: copy_in takes words only when the size and the source allow. */
bool stow_slotmap_read_isr(stow_slotmap_t *m, stow_handle_t h, void *out)
{
    STOW__CHECK(m != NULL, "stow_slotmap_read_isr: map pointer is NULL", false);
    STOW__CHECK(out != NULL, "stow_slotmap_read_isr: out pointer is NULL", false);
    uint32_t state = stow_port_lock(&m->lock);
    const unsigned char *item = (const unsigned char *)stow_slotmap_get(m, h);
    if (item != NULL) {
        if (((m->item_size | (uintptr_t)(unsigned char *)out) & 3u) == 0u) {
            stow__copy_words(out, item, m->item_size);
        } else {
            copy_bytes((unsigned char *)out, item, m->item_size);
        }
    }
    stow_port_unlock(&m->lock, state);
    return item != NULL;
}

bool stow_slotmap_remove_isr(stow_slotmap_t *m, stow_handle_t h)
{
    STOW__CHECK(m != NULL, "stow_slotmap_remove: map pointer is NULL", false);
    uint32_t state = stow_port_lock(&m->lock);
    bool removed = stow_slotmap_remove(m, h);
    stow_port_unlock(&m->lock, state);
    return removed;
}

/* The report's view of a slotmap (stow/report.h). */
STOW__REGISTRY_KIND(slotmap, stow_slotmap_t, false);
