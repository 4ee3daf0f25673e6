/* SPDX-License-Identifier: MIT */
/* genpool.c - generational arena. See stow/genpool.h.
 *
 * Representation: items[capacity] at a fixed stride, words[capacity] (one uint32_t
 * per slot) and bits[] (one occupancy bit per slot). With IB index bits and the
 * index mask M (the pool's index_mask: 2^IB - 1, its own split), slot i's word w is
 *     live:     w == gen << IB | i            (gen >= 1: w is the item's handle)
 *     free:     w == gen << IB | link, link != i   (gen >= 1: the generation the slot
 *                                           hands out next; link: next free slot)
 *     retired:  w <= M, w != i                (generation 0: never handed out again)
 * so "live" is (w & M) == i, get() is one comparison of the handle with the word,
 * and a null handle (0) matches no word: a live word has gen >= 1 and a free or
 * retired word has low bits other than its index.
 *
 * Retired slots (STOW_GEN_RETIRE) form runs of consecutive slots, and the two end
 * slots of a run of n hold i ^ min(n, M): after a clear(), the bump index steps
 * over a whole run in one step, however long it is, where a slot-by-slot walk
 * would cost every clear + insert O(retired slots). A slot that retires joins the
 * runs that end just below it and start just above it (their end words give
 * their lengths): O(1). Words inside a run are never read again. The bump index
 * is never left at a retired slot, except 0 right after a clear: after handing
 * out slot i it steps over a run that starts at i + 1. So a run never holds both
 * bump - 1 and bump, and a slot below bump that retires never joins a run above
 * it. Only a run of all 2^IB slots has a length that does not fit its words (it
 * is cut at M): the step over it stops at the capacity.
 *
 * Regions, with top = max(bump, reached):
 *   [0, bump)      current: live, free (on the free list) or retired; bits valid.
 *   [bump, top)    used before the last clear(), not reached again since: the words
 *                  are valid (a live-looking word is an item that clear() killed),
 *                  the bits are not.
 *   [top, cap)     never used: nothing is read (the first slot of a bitmap word writes it whole).
 * The bottom node of the free list has an arbitrary link (anything but its own
 * index); free_count, not a sentinel, says where the list ends, so every index fits
 * the index bits even when capacity == 2^IB.
 *
 * Invariants (stow_genpool_check tests each one):
 *   - bump <= capacity, reached <= capacity;
 *   - below bump, bit i is 1 exactly for live slots, and live slots number
 *     bump - free_count - retired_below (there is no count field to disagree);
 *   - the free list has free_count distinct nodes, all free slots below bump, and
 *     every free slot below bump is on it;
 *   - the retired words below top number `retired`, those below bump
 *     `retired_below`, and none exist in WRAP mode; a retired slot's bit is 0,
 *     above bump too; both end words of each run hold its length; slot bump is
 *     not retired unless bump is 0;
 *   - bump_limit is 0 while bump < reached, else capacity;
 *   - copy_words is 0 or item_size / 4 (then the stride is a multiple of 4 too);
 *   - stride == odd << shift with odd * inverse == 1 (mod 2^32), item_size <= stride;
 *   - level 2: every slot below top that is not live holds 0xDD in its item bytes.
 */
#include "stow/genpool.h"
#include "internal.h"


static inline uint32_t *words_of(const stow_genpool_t *g) { return (uint32_t *)g->words; }
static inline uint32_t *bits_of(const stow_genpool_t *g) { return (uint32_t *)g->bits; }

static inline unsigned char *item_at(const stow_genpool_t *g, uint32_t i)
{
    return g->items + (size_t)i * g->stride;
}

static inline void set_bit(uint32_t *bits, uint32_t i) { bits[i >> 5] |= UINT32_C(1) << (i & 31u); }
static inline void clear_bit(uint32_t *bits, uint32_t i) { bits[i >> 5] &= ~(UINT32_C(1) << (i & 31u)); }
static inline bool bit_of(const uint32_t *bits, uint32_t i) { return ((bits[i >> 5] >> (i & 31u)) & 1u) != 0u; }

static inline stow_handle_t handle_from(uint32_t bits)
{
    stow_handle_t h;
    h.bits = bits;
    return h;
}

/* Retired slots (STOW_GEN_RETIRE) lie in runs of consecutive slots; both end slots of a run hold
 * its length, n, in the word x ^ min(n, M) (generation 0; never x itself, so
 * never live). Interior words are anything with generation 0 other than their
 * index, and are never read. */
static inline uint32_t run_word(uint32_t x, uint32_t n, uint32_t mask) { return x ^ (n < mask ? n : mask); }

static inline bool is_retired(uint32_t w, uint32_t x, uint32_t mask) { return (w & ~mask) == 0u && w != x; }

#if STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE
/* The length of the run that starts at x (word w), cut at top: only a run of all
 * 2^IB slots has a length that does not fit its words, and it ends at top. */
static inline uint32_t run_from(uint32_t w, uint32_t x, uint32_t top)
{
    uint32_t n = w ^ x;
    return n < top - x ? n : top - x;
}
#endif

/* Live items: every slot below bump is live, free or retired. No field of its own,
 * so that insert and remove need not keep one up to date. */
static inline uint32_t live_count(const stow_genpool_t *g)
{
#if STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE
    return g->bump - g->free_count - g->retired_below;
#else
    return g->bump - g->free_count; /* retired_below stays 0 */
#endif
}

/* peak follows the live count only when the count is about to fall (remove,
 * clear): it only grows in between, so stats() reports max(peak, live) and insert
 * never touches peak. */
static inline void note_peak(stow_genpool_t *g)
{
    uint32_t live = live_count(g);
    if (live > g->peak) {
        g->peak = live;
    }
}

bool stow_genpool_init(stow_genpool_t *g, void *buf, size_t buf_size, size_t item_size,
                       size_t item_align, uint32_t capacity)
{
    STOW__CHECK(g != NULL, "stow_genpool_init: pool pointer is NULL", false);
    STOW__CHECK((item_align & (item_align - 1u)) == 0u,
                "stow_genpool_init: item_align is neither 0 nor a power of two", false);
    size_t align = item_align != 0u ? item_align : (size_t)STOW_DEFAULT_ALIGN;
    size_t stride = stow__round_up(item_size, align); /* 0 for no item, or on overflow */
    /* In 64 bits, with the stride below 4 GiB, none of these sums can wrap. */
    /* cppcheck-suppress compareValueOutOfTypeRangeError ; always true with a 32-bit size_t only */
    uint64_t items_bytes = (uint64_t)(stride <= UINT32_MAX ? stride : 0u) * capacity;
    uint64_t words_offset = (items_bytes + 3u) & ~(uint64_t)3u;
    uint64_t bits_offset = words_offset + 4u * (uint64_t)capacity;
    uint64_t need = bits_offset + 4u * (((uint64_t)capacity + 31u) >> 5);
    if (buf == NULL || items_bytes == 0u || items_bytes > UINT32_MAX ||
        capacity > STOW_HANDLE_MAX_CAPACITY || need > (uint64_t)buf_size ||
        !stow__is_aligned(buf, align > 4u ? align : 4u)) {
        return false;
    }
    unsigned char *b = (unsigned char *)buf;
    uint32_t shift;
    uint32_t inverse = (uint32_t)stow__odd_inverse(stride, &shift); /* modulo 2^32 */
    g->items = b;
    g->words = b + (size_t)words_offset;
    g->bits = b + (size_t)bits_offset;
    g->stride = (uint32_t)stride;
    g->bump = 0u;
    g->bump_limit = capacity;
    g->free_head = 0u;
    g->free_count = 0u;
    g->retired_below = 0u;
    g->capacity = capacity;
    g->reached = 0u;
    g->item_size = (uint32_t)item_size;
    g->copy_words = STOW__GENPOOL_COPY_WORDS(item_size, align);
    g->shift = shift;
    g->inverse = inverse;
    g->retired = 0u;
    g->peak = 0u;
    g->fails = 0u;
    g->config = NULL;
    g->lock = 0u;
    g->index_mask = STOW_HANDLE_INDEX_MASK;
    /* ASan builds: the words and bits may lie where an older container released
     * memory. (The items are unpoisoned one by one as they are handed out.) */
    stow__unpoison(g->words, (size_t)(need - words_offset));
    return true;
}

#if STOW_CHECK_LEVEL >= 2
/* A released slot is handed out again: report bytes written since its release. */
static void take_poisoned(const stow_genpool_t *g, uint32_t i)
{
    if (!stow__poison_intact(item_at(g, i), g->item_size)) {
        STOW__REPORT("stow_genpool_insert, stow_genpool_alloc: the item's memory was written "
                     "after the item was removed or cleared (through a stale pointer)");
    }
}
#endif

/* Slot i (at bump) becomes live with word w; a word's first slot writes it whole. */
static inline uint32_t make_live(stow_genpool_t *g, uint32_t i, uint32_t w)
{
    words_of(g)[i] = w;
    bits_of(g)[i >> 5] = ((i & 31u) != 0u ? bits_of(g)[i >> 5] : 0u) | (UINT32_C(1) << (i & 31u));
    stow__acquire(item_at(g, i), g->item_size);
    return w;
}

#if STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE
/* Slot i, neither retired nor beyond top, retires: it joins the runs of retired
 * slots that end at i - 1 and start at i + 1, whose end words give their lengths,
 * and the joined run's end words get its length. O(1). Returns the run's last slot. */
static uint32_t retire_slot(stow_genpool_t *g, uint32_t i, uint32_t top)
{
    uint32_t *words = words_of(g);
    uint32_t mask = g->index_mask;
    uint32_t first = i, last = i;
    if (i > 0u && is_retired(words[i - 1u], i - 1u, mask)) {
        first = i - (words[i - 1u] ^ (i - 1u));
    }
    if (i + 1u < top && is_retired(words[i + 1u], i + 1u, mask)) {
        last = i + (words[i + 1u] ^ (i + 1u));
    }
    uint32_t n = last - first + 1u;
    words[i] = run_word(i, n, mask); /* an interior word, unless i is an end */
    words[first] = run_word(first, n, mask);
    words[last] = run_word(last, n, mask);
    clear_bit(bits_of(g), i);
    g->retired++;
    return last;
}

/* Moves the bump index over the run of retired slots that starts there, if one
 * does: slot bump is then never retired (unless bump is 0), which is what lets a
 * retiring slot below bump join the runs beside it without looking at bump. */
static inline void step_over_run(stow_genpool_t *g)
{
    uint32_t i = g->bump;
    if (i < g->reached) {
        uint32_t w = words_of(g)[i];
        if (is_retired(w, i, g->index_mask)) {
            uint32_t n = run_from(w, i, g->reached);
            g->bump = i + n;
            g->retired_below += n;
        }
    }
}
#endif

/* The bump index is below `reached` (the slot it names was used before the last
 * clear()) or at the capacity (full). A used-before slot goes on with the
 * generation its word says: one past a live (cleared) one, or the one a free slot
 * was waiting to hand out. In STOW_GEN_RETIRE mode, a run of retired slots is
 * stepped over in one step (its first word gives its length), and a slot whose
 * last generation died in the clear retires here, joining its neighbours' runs.
 * So the loop turns once per slot that retires now, plus at most once more
 * (the run at slot 0, right after a clear): O(1), amortised over retirements,
 * which happen once per slot in the pool's life, whatever the number of clears.
 * Returns the new live word, or 0, counting a fail, when the pool is full. */
static inline uint32_t take_used_before(stow_genpool_t *g)
{
    uint32_t *words = words_of(g);
    const uint32_t mask = g->index_mask;
    uint32_t w = 0u;
    while (g->bump < g->capacity) { /* cppcheck-suppress misra-c2012-15.4 ; MISRA D15 */
        uint32_t i = g->bump;
        if (i >= g->reached) {
            g->bump = i + 1u;
            w = make_live(g, i, (mask + 1u) | i); /* past every slot used before */
            break;
        }
        uint32_t old = words[i];
        uint32_t next;
        if ((old & mask) == i) { /* live when cleared: its next generation */
            next = (old | mask) + 1u;
#if STOW_GENERATION_OVERFLOW == STOW_GEN_WRAP
            /* cppcheck-suppress knownConditionTrueFalse ; 0 when the addition carries out of 32 bits */
            next = next != 0u ? next : mask + 1u;
#endif
        } else {
            next = old & ~mask; /* free: the generation it kept; retired: 0 */
        }
        if (next != 0u) {
            g->bump = i + 1u;
#if STOW_CHECK_LEVEL >= 2
            take_poisoned(g, i);
#endif
            w = make_live(g, i, next | i);
#if STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE
            step_over_run(g);
#endif
            break;
        }
#if STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE
        /* Retired already (a run starting at i), or its last generation died in
         * the clear: either way a run of retired slots starts at i. */
        uint32_t last = (old & mask) == i ? retire_slot(g, i, g->reached)
                                          : i + run_from(old, i, g->reached) - 1u;
        g->retired_below += last - i + 1u;
        g->bump = last + 1u;
#else
        g->bump = i + 1u; /* not reached: WRAP mode has no generation 0 */
#endif
    }
    g->bump_limit = g->bump < g->reached ? 0u : g->capacity;
    if (w == 0u) {
        g->fails++;
    }
    return w;
}

/* Takes a slot from the free list or, failing that, the next never-used one, and
 * makes it live: its handle to *w, its index to *i. False when neither is there:
 * then the caller goes to take_used_before(), out of line, so that the two common
 * cases stay short. */
static inline bool take_fast(stow_genpool_t *g, uint32_t *i, uint32_t *w)
{
    uint32_t *words = words_of(g);
    uint32_t free_count = g->free_count; /* read before any store through words */
    uint32_t slot, word;
    if (free_count != 0u) {
        slot = g->free_head;
        uint32_t old = words[slot];
        uint32_t link = old & g->index_mask;
        g->free_count = free_count - 1u;
        g->free_head = link;
        word = old + (slot - link); /* the generation it kept, its own index */
        words[slot] = word;
#if STOW_CHECK_LEVEL >= 2
        take_poisoned(g, slot);
#endif
    } else {
        slot = g->bump;
        if ((slot & 31u) == 0u || slot >= g->bump_limit) { /* a new word, full, or used before */
            return false;
        }
        g->bump = slot + 1u;
        word = (g->index_mask + 1u) | slot; /* generation 1 */
        words[slot] = word;
    }
    stow__acquire(item_at(g, slot), g->item_size);
    set_bit(bits_of(g), slot);
    *i = slot;
    *w = word;
    return true;
}

/* Copies or zeroes a whole item, a word at a time when the pool's items allow it
 * (copy_words; the source is then aligned by insert's contract). */
static inline void copy_item(const stow_genpool_t *g, unsigned char *dst, const unsigned char *src)
{
    if (g->copy_words != 0u) {
        stow__copy_words(dst, src, (size_t)g->copy_words << 2);
    } else {
        stow__copy(dst, src, g->item_size);
    }
}

static inline void zero_item(const stow_genpool_t *g, unsigned char *dst)
{
    if (g->copy_words != 0u) {
        stow__zero_words(dst, (size_t)g->copy_words << 2);
    } else {
        stow__fill(dst, 0u, g->item_size);
    }
}

/* The slow half of insert (src: the item) and alloc (src NULL: zeroed): slots used
 * before a clear(), or a full pool. Returns the handle's bits, 0 when full. */
static STOW__NOINLINE uint32_t take_slow(stow_genpool_t *g, const void *src)
{
    uint32_t w = take_used_before(g);
    if (w != 0u) {
        unsigned char *item = item_at(g, w & g->index_mask);
        if (src != NULL) {
            copy_item(g, item, (const unsigned char *)src);
        } else {
            zero_item(g, item);
        }
    }
    return w;
}

void *stow_genpool_alloc(stow_genpool_t *g, stow_handle_t *out)
{
    STOW__CHECK(g != NULL, "stow_genpool_alloc: pool pointer is NULL", NULL);
    uint32_t i, w;
    if (!take_fast(g, &i, &w)) {
        w = take_slow(g, NULL);
        i = w & g->index_mask;
        if (out != NULL) {
            out->bits = w;
        }
        return w != 0u ? item_at(g, i) : NULL;
    }
    if (out != NULL) {
        out->bits = w;
    }
    unsigned char *item = item_at(g, i);
    zero_item(g, item);
    return item;
}

stow_handle_t stow_genpool_insert(stow_genpool_t *g, const void *item)
{
    STOW__CHECK(g != NULL, "stow_genpool_insert: pool pointer is NULL", STOW_HANDLE_NULL);
    STOW__CHECK(item != NULL, "stow_genpool_insert: item pointer is NULL", STOW_HANDLE_NULL);
    STOW__CHECK(g->copy_words == 0u || stow__is_aligned(item, 4u),
                "stow_genpool_insert: item is not aligned to 4 (the pool copies items by words)",
                STOW_HANDLE_NULL);
    uint32_t i, w;
    if (!take_fast(g, &i, &w)) {
        return handle_from(take_slow(g, item));
    }
    copy_item(g, item_at(g, i), (const unsigned char *)item);
    return handle_from(w);
}

/* get() without the check, in line in the _isr calls too. */
static inline void *live_item(const stow_genpool_t *g, stow_handle_t h)
{
    uint32_t i = h.bits & g->index_mask;
    /* Below bump every word is valid, and only a live slot's word equals a handle. */
    if (i >= g->bump || words_of(g)[i] != h.bits) {
        return NULL;
    }
    return item_at(g, i);
}

void *stow_genpool_get(const stow_genpool_t *g, stow_handle_t h)
{
    STOW__CHECK(g != NULL, "stow_genpool_get: pool pointer is NULL", NULL);
    return live_item(g, h);
}

bool stow_genpool_contains(const stow_genpool_t *g, stow_handle_t h)
{
    STOW__CHECK(g != NULL, "stow_genpool_contains: pool pointer is NULL", false);
    uint32_t i = h.bits & g->index_mask;
    return i < g->bump && words_of(g)[i] == h.bits;
}

#if STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE
/* The last generation of slot i (below bump) was removed: retire the slot. */
static STOW__NOINLINE void remove_last_generation(stow_genpool_t *g, uint32_t i)
{
    note_peak(g);
    (void)retire_slot(g, i, g->bump > g->reached ? g->bump : g->reached);
    g->retired_below++;
    stow__release(item_at(g, i), g->item_size);
}
#endif

bool stow_genpool_remove(stow_genpool_t *g, stow_handle_t h)
{
    STOW__CHECK(g != NULL, "stow_genpool_remove: pool pointer is NULL", false);
    uint32_t mask = g->index_mask;
    uint32_t i = h.bits & mask;
    uint32_t *words = words_of(g);
    uint32_t bump = g->bump;
    if (i >= bump || words[i] != h.bits) {
        return false;
    }
    /* The next generation, index bits 0: the carry out of the index bits; 0
     * past the last. */
    uint32_t next = (h.bits | mask) + 1u;
    /* cppcheck-suppress knownConditionTrueFalse ; 0 when the addition carries out of 32 bits */
    if (next == 0u) {
#if STOW_GENERATION_OVERFLOW == STOW_GEN_WRAP
        next = mask + 1u;
#else
        remove_last_generation(g, i);
        return true;
#endif
    }
    /* Every field read before the first store through words, which the compiler
     * must assume could alias them. */
    uint32_t free_count = g->free_count;
    uint32_t link = g->free_head;
#if STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE
    uint32_t live = bump - free_count - g->retired_below;
#else
    uint32_t live = bump - free_count;
#endif
    uint32_t *bits = bits_of(g);
    if (live > g->peak) { /* the live count is about to fall: see note_peak() */
        g->peak = live;
    }
    if (link == i) { /* only when the list is empty: the bottom's link must not be i */
        link ^= 1u;
    }
    g->free_head = i;
    g->free_count = free_count + 1u;
    words[i] = next | link;
    clear_bit(bits, i);
    stow__release(item_at(g, i), g->item_size);
    return true;
}

/* remove() without the generation step: the slot goes on the free list with
 * h's own generation, which take_fast() then hands out again, with h's index. */
bool stow_genpool_cancel(stow_genpool_t *g, stow_handle_t h)
{
    STOW__CHECK(g != NULL, "stow_genpool_cancel: pool pointer is NULL", false);
    uint32_t mask = g->index_mask;
    uint32_t i = h.bits & mask;
    uint32_t *words = words_of(g);
    if (i >= g->bump || words[i] != h.bits) {
        return false;
    }
    uint32_t link = g->free_head;
    if (link == i) { /* only when the list is empty: the bottom's link must not be i */
        link ^= 1u;
    }
    g->free_head = i;
    g->free_count++;
    words[i] = (h.bits & ~mask) | link;
    clear_bit(bits_of(g), i);
    stow__release(item_at(g, i), g->item_size);
    return true;
}

stow_handle_t stow_genpool_handle_of(const stow_genpool_t *g, const void *item)
{
    STOW__CHECK(g != NULL, "stow_genpool_handle_of: pool pointer is NULL", STOW_HANDLE_NULL);
    uintptr_t n = (uintptr_t)item - (uintptr_t)g->items;
    STOW__CHECK(item != NULL, "stow_genpool_handle_of: item pointer is NULL", STOW_HANDLE_NULL);
    STOW__CHECK(n < (uintptr_t)g->capacity * g->stride,
                "stow_genpool_handle_of: pointer is outside the pool's items", STOW_HANDLE_NULL);
    STOW__CHECK((n & ((UINT32_C(1) << g->shift) - 1u)) == 0u,
                "stow_genpool_handle_of: pointer is not the start of an item", STOW_HANDLE_NULL);
    /* n = i * stride exactly iff (n >> shift) * inverse < capacity: a product of a
     * non-multiple of the odd part lands above (2^32 - 1) / odd >= capacity. */
    uint32_t i = (uint32_t)(n >> g->shift) * g->inverse;
    STOW__CHECK(i < g->capacity,
                "stow_genpool_handle_of: pointer is not the start of an item", STOW_HANDLE_NULL);
    if (i >= g->bump) {
        return STOW_HANDLE_NULL; /* never handed out since the last clear */
    }
    uint32_t w = words_of(g)[i];
    return handle_from((w & g->index_mask) == i ? w : 0u);
}

void stow_genpool_clear(stow_genpool_t *g)
{
    STOW__CHECK_VOID(g != NULL, "stow_genpool_clear: pool pointer is NULL");
#if STOW_CHECK_LEVEL >= 2 || STOW__ASAN
    const uint32_t *words = words_of(g);
    for (uint32_t i = 0u; i < g->bump; i++) {
        if ((words[i] & g->index_mask) == i) {
            stow__release(item_at(g, i), g->item_size);
        }
    }
#endif
    note_peak(g);
    if (g->bump > g->reached) {
        g->reached = g->bump;
    }
    g->bump = 0u;
    g->bump_limit = g->reached != 0u ? 0u : g->capacity;
    g->free_count = 0u;
    g->retired_below = 0u;
}

uint32_t stow_genpool_count(const stow_genpool_t *g)
{
    STOW__CHECK(g != NULL, "stow_genpool_count: pool pointer is NULL", 0u);
    return live_count(g);
}

uint32_t stow_genpool_capacity(const stow_genpool_t *g)
{
    STOW__CHECK(g != NULL, "stow_genpool_capacity: pool pointer is NULL", 0u);
    return g->capacity;
}

uint32_t stow_genpool_retired(const stow_genpool_t *g)
{
    STOW__CHECK(g != NULL, "stow_genpool_retired: pool pointer is NULL", 0u);
    return g->retired;
}

/* The handle of the first live slot at or above i, or 0. Bits at or above bump in
 * the last bitmap word are garbage: a hit there is the end. */
#define NO_SLOT UINT32_MAX

/* The lowest live slot at or above i, or NO_SLOT. */
static inline uint32_t live_slot_from(const stow_genpool_t *g, uint32_t i)
{
    uint32_t bump = g->bump;
    if (i >= bump) {
        return NO_SLOT;
    }
    const uint32_t *bits = bits_of(g);
    uint32_t k = i >> 5;
    uint32_t last = (bump - 1u) >> 5;
    uint32_t m = bits[k] & (UINT32_MAX << (i & 31u));
    while (m == 0u) {
        if (k == last) {
            return NO_SLOT;
        }
        m = bits[++k];
    }
    i = (k << 5) + stow__genpool_lowest_bit(m);
    return i < bump ? i : NO_SLOT; /* bits above bump in the last word are garbage */
}

/* The handle bits of the lowest live slot at or above i, or 0. */
static inline uint32_t live_from(const stow_genpool_t *g, uint32_t i)
{
    uint32_t slot = live_slot_from(g, i);
    return slot != NO_SLOT ? words_of(g)[slot] : 0u;
}

stow_handle_t stow_genpool_first(const stow_genpool_t *g)
{
    STOW__CHECK(g != NULL, "stow_genpool_first: pool pointer is NULL", STOW_HANDLE_NULL);
    return handle_from(live_from(g, 0u));
}

stow_handle_t stow_genpool_next(const stow_genpool_t *g, stow_handle_t h)
{
    STOW__CHECK(g != NULL, "stow_genpool_next: pool pointer is NULL", STOW_HANDLE_NULL);
    STOW__CHECK((h.bits & ~g->index_mask) != 0u, "stow_genpool_next: handle is null", STOW_HANDLE_NULL);
    STOW__CHECK((h.bits & g->index_mask) < g->capacity,
                "stow_genpool_next: handle's index is not below the capacity", STOW_HANDLE_NULL);
    return handle_from(live_from(g, (h.bits & g->index_mask) + 1u));
}

void *stow_genpool_iterate(const stow_genpool_t *g, uint32_t *cursor)
{
    STOW__CHECK(g != NULL, "stow_genpool_iterate: pool pointer is NULL", NULL);
    STOW__CHECK(cursor != NULL, "stow_genpool_iterate: cursor pointer is NULL", NULL);
    uint32_t slot = live_slot_from(g, *cursor);
    if (slot == NO_SLOT) {
        return NULL;
    }
    *cursor = slot + 1u;
    return item_at(g, slot);
}

void stow_genpool_stats(const stow_genpool_t *g, stow_stats_t *out)
{
    STOW__CHECK_VOID(g != NULL, "stow_genpool_stats: pool pointer is NULL");
    STOW__CHECK_VOID(out != NULL, "stow_genpool_stats: out pointer is NULL");
    uint32_t live = live_count(g);
    out->capacity = g->capacity;
    out->used = live;
    out->peak = live > g->peak ? live : g->peak;
    out->fails = g->fails;
}

/* Walks the first n nodes of the free list. With mark, checks each node (a free
 * slot below bump whose bit is clear: a set bit is a live slot or a node seen
 * before, a cycle) and sets its bit, and returns how many it marked before
 * finding a bad one; without, clears the bits of n nodes marked before. */
static uint32_t walk_free_list(const stow_genpool_t *g, uint32_t n, bool mark)
{
    const uint32_t *words = words_of(g);
    uint32_t *bits = bits_of(g);
    uint32_t mask = g->index_mask;
    uint32_t x = g->free_head;
    uint32_t k;
    for (k = 0u; k < n; k++) {
        if (mark) {
            uint32_t w = x < g->bump ? words[x] : x; /* out of range: looks live */
            if ((w & mask) == x || (w & ~mask) == 0u || bit_of(bits, x)) {
                break; /* live, retired or seen */
            }
            set_bit(bits, x);
        } else {
            clear_bit(bits, x);
        }
        x = words[x] & mask;
    }
    return k;
}

bool stow_genpool_check(const stow_genpool_t *g)
{
    STOW__CHECK(g != NULL, "stow_genpool_check: pool pointer is NULL", false);
    uint32_t cap = g->capacity, bump = g->bump, shift = g->shift, mask = g->index_mask;
    uint32_t top = bump > g->reached ? bump : g->reached;
    if (g->items == NULL || g->words == NULL || g->bits == NULL || mask == 0u ||
        mask > STOW__HANDLE_MASK_OF(30) || (mask & (mask + 1u)) != 0u || cap - 1u > mask ||
        top > cap || shift > 31u || ((g->stride >> shift) << shift) != g->stride ||
        (g->stride >> shift) * g->inverse != 1u || g->item_size - 1u >= g->stride ||
        (uint64_t)g->stride * cap > UINT32_MAX || g->bump_limit != (bump < g->reached ? 0u : cap) ||
        (g->copy_words != 0u && (g->copy_words * 4u != g->item_size || (g->stride & 3u) != 0u))) {
        return false;
    }
    const uint32_t *words = words_of(g);
    const uint32_t *bits = bits_of(g);
    if (bump != 0u && bump < g->reached && is_retired(words[bump], bump, mask)) {
        return false; /* the bump index inside or at a run of retired slots */
    }
    uint32_t live = 0u, retired = 0u, retired_below = 0u;
    uint32_t run = 0u; /* retired slots in a row, up to i */
    for (uint32_t i = 0u; i < top; i++) {
        uint32_t w = words[i];
        bool is_live = (w & mask) == i;
        bool retired_here = is_retired(w, i, mask);
        if (is_live && w == i) {
            return false; /* generation 0 live */
        }
        run = retired_here ? run + 1u : 0u;
        if (retired_here) {
            /* its bit stays clear even above bump, and a run's end words hold its length */
            if (bit_of(bits, i) ||
                ((i + 1u == top || !is_retired(words[i + 1u], i + 1u, mask)) &&
                 (w != run_word(i, run, mask) || words[i + 1u - run] != run_word(i + 1u - run, run, mask)))) {
                return false;
            }
        }
        retired += retired_here ? 1u : 0u;
        if (i < bump) {
            if (bit_of(bits, i) != is_live) {
                return false;
            }
            live += is_live ? 1u : 0u;
            retired_below += retired_here ? 1u : 0u;
        }
#if STOW_CHECK_LEVEL >= 2
        if ((i >= bump || !is_live) && !stow__poison_intact(item_at(g, i), g->item_size)) {
            return false;
        }
#endif
    }
    /* With live and retired slots right, the free slots below bump number free_count. */
    if (live != live_count(g) || retired != g->retired || retired_below != g->retired_below ||
        (STOW_GENERATION_OVERFLOW == STOW_GEN_WRAP && retired != 0u)) {
        return false;
    }
    /* free_count distinct free slots on the list, and as many free slots as that:
     * the list holds exactly the free slots. */
    uint32_t marked = walk_free_list(g, g->free_count, true);
    (void)walk_free_list(g, marked, false);
    return marked == g->free_count;
}

/* ---- shared use: the pool's lock word (stow/port.h) ------------------------------ */
/* Each _isr call is the plain call under the lock; the NULL check comes first
 * because the word is inside *g, and reports under the plain call's name. */

uint32_t stow_genpool_lock(stow_genpool_t *g)
{
    STOW__CHECK(g != NULL, "stow_genpool_lock: pool pointer is NULL", 0u);
    return stow_port_lock(&g->lock);
}

void stow_genpool_unlock(stow_genpool_t *g, uint32_t state)
{
    STOW__CHECK_VOID(g != NULL, "stow_genpool_unlock: pool pointer is NULL");
    stow_port_unlock(&g->lock, state);
}

stow_handle_t stow_genpool_insert_isr(stow_genpool_t *g, const void *item)
{
    STOW__CHECK(g != NULL, "stow_genpool_insert: pool pointer is NULL", STOW_HANDLE_NULL);
    uint32_t state = stow_port_lock(&g->lock);
    stow_handle_t h = stow_genpool_insert(g, item);
    stow_port_unlock(&g->lock, state);
    return h;
}

void *stow_genpool_get_isr(stow_genpool_t *g, stow_handle_t h)
{
    STOW__CHECK(g != NULL, "stow_genpool_get: pool pointer is NULL", NULL);
    uint32_t state = stow_port_lock(&g->lock);
    void *item = live_item(g, h);
    stow_port_unlock(&g->lock, state);
    return item;
}

/* The copy is made under the lock, so it is a whole item as of one moment: no
 * remove and re-insert of the slot can interleave with it. By words when the
 * pool copies by words and out allows it, else by bytes (out may have any
 * alignment). */
bool stow_genpool_read_isr(stow_genpool_t *g, stow_handle_t h, void *out)
{
    STOW__CHECK(g != NULL, "stow_genpool_read_isr: pool pointer is NULL", false);
    STOW__CHECK(out != NULL, "stow_genpool_read_isr: out pointer is NULL", false);
    uint32_t state = stow_port_lock(&g->lock);
    const unsigned char *item = (const unsigned char *)live_item(g, h);
    if (item != NULL) {
        if (g->copy_words != 0u && stow__is_aligned(out, 4u)) {
            stow__copy_words(out, item, (size_t)g->copy_words << 2);
        } else {
            stow__copy(out, item, g->item_size);
        }
    }
    stow_port_unlock(&g->lock, state);
    return item != NULL;
}

bool stow_genpool_remove_isr(stow_genpool_t *g, stow_handle_t h)
{
    STOW__CHECK(g != NULL, "stow_genpool_remove: pool pointer is NULL", false);
    uint32_t state = stow_port_lock(&g->lock);
    bool removed = stow_genpool_remove(g, h);
    stow_port_unlock(&g->lock, state);
    return removed;
}

/* The report's view of a genpool (stow/report.h). */
STOW__REGISTRY_KIND(genpool, stow_genpool_t, false);
