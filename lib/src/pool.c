/* SPDX-License-Identifier: MIT */
/* pool.c - fixed-size blocks with an intrusive free list. See stow/pool.h.
 *
 * Representation: blocks [base, end), stride bytes apart. Blocks in [base, bump)
 * have been handed out since init or the last reset; each of them is either in
 * use or on the free list, a NULL-terminated list threaded through the first
 * pointer of each free block. Blocks in [bump, end) were never handed out and
 * their bytes mean nothing. So init and reset touch no block, and alloc takes the
 * head of the free list or, when the list is empty, the block at bump.
 *
 * The pool counts the blocks on its free list, not the blocks in use: used is
 * the blocks below bump minus free_count, so taking a never-used block updates no
 * counter at all. And the bump pointer moves only when every block below it is in
 * use, so the number of blocks below it is the high-water mark of used since the
 * last reset: peak is brought up to date only by reset, and neither alloc nor
 * free touches it.
 *
 * Invariants (stow_pool_check tests each one):
 *   - stride, shift and inverse are what layout_of() derives from block_size,
 *     block_align (a power of two) and capacity; base is aligned to the block
 *     alignment; end == base + capacity * stride; peak <= capacity;
 *   - bump is a block boundary in [base, end];
 *   - every free-list node is a block start below bump, no cycle, and the list
 *     is free_count long;
 *   - level 2: bitmap bit i (at end) is set exactly for the blocks below bump that
 *     are in use (the bits of the blocks above mean nothing, and are never read:
 *     a word is written whole when the first of its blocks leaves bump); free
 *     blocks hold 0xDD after their link; blocks in [bump, poison_end) hold 0xDD
 *     in full.
 */
#include "pool_internal.h"

/* What init derives from the declared block and the capacity. check() derives it
 * again from the declaration stored in the pool and compares, so the two share
 * this code. False when the sizes overflow or capacity is 0. */
struct pool_layout {
    size_t align;      /* of every block */
    size_t stride;
    size_t blocks;     /* capacity * stride */
    uintptr_t inverse; /* of stride's odd factor */
    uint32_t shift;    /* stride's power-of-two factor */
};

static STOW__NOINLINE bool layout_of(size_t block_size, size_t declared_align, uint32_t capacity,
                                     struct pool_layout *l)
{
    size_t align = declared_align > LINK_ALIGN ? declared_align : LINK_ALIGN;
    size_t stride = stow__round_up(block_size > LINK_BYTES ? block_size : LINK_BYTES, align);
    /* 0 when capacity is 0, the stride overflowed (0) or the product does not fit */
    size_t blocks = stow__checked_product(capacity, stride);
    if (blocks == 0u) {
        return false;
    }
    l->align = align;
    l->stride = stride;
    l->blocks = blocks;
    l->inverse = stow__odd_inverse(stride, &l->shift);
    return true;
}

bool stow_pool_init(stow_pool_t *p, void *buf, size_t buf_size, size_t block_size,
                    size_t block_align, uint32_t capacity)
{
    STOW__CHECK(p != NULL, "stow_pool_init: pool is NULL", false);
    STOW__CHECK((block_align & (block_align - 1u)) == 0u, /* 0 or a power of two */
                "stow_pool_init: alignment is not a power of two", false);
    size_t declared = block_align != 0u ? block_align : (size_t)STOW_DEFAULT_ALIGN;
    struct pool_layout l;
    if (buf == NULL || !layout_of(block_size, declared, capacity, &l) ||
        !stow__is_aligned(buf, l.align)) {
        return false;
    }
    size_t need = l.blocks + STOW__POOL_MAP_BYTES(capacity);
    /* cppcheck-suppress knownConditionTrueFalse ; the bitmap (level 2 only) can make the sum wrap */
    if (need < l.blocks || need > buf_size) {
        return false;
    }
    unsigned char *b = (unsigned char *)buf;
    p->free_list = NULL;
#if STOW__POOL_HEAD_BITS != 0
    p->tagged_head = 0u;
#endif
    p->bump = b;
    p->base = b;
    p->end = b + l.blocks;
    p->stride = l.stride;
    p->inverse = l.inverse;
    p->shift = l.shift;
    p->capacity = capacity;
    p->free_count = 0u;
    p->peak = 0u;
    p->fails = 0u;
    p->config = NULL;
    p->lock = 0u;
    p->block_size = block_size;
    p->block_align = declared;
#if STOW_CHECK_LEVEL >= 2
    p->poison_end = b;
#endif
    /* ASan builds: the bitmap may lie where an older container released memory. */
    stow__unpoison(p->end, need - l.blocks);
    return true;
}

#if STOW_CHECK_LEVEL >= 2
static inline bool in_use(const stow_pool_t *p, uintptr_t i)
{
    return ((map_of(p)[i >> 5] >> (i & 31u)) & 1u) != 0u;
}

static inline void mark(stow_pool_t *p, uintptr_t i, bool used)
{
    uint32_t bit = UINT32_C(1) << (i & 31u);
    uint32_t *word = &map_of(p)[i >> 5];
    *word = used ? *word | bit : *word & ~bit;
}

/* True when q may become the head of the free list: a block start below bump
 * whose bit says free. */
static bool is_free_block(const stow_pool_t *p, const unsigned char *q)
{
    uintptr_t i = index_of(p, q);
    return i < p->capacity && q < p->bump && !in_use(p, i);
}

/* Level 2 half of taking block b off the free list: its poison is checked, its bit
 * set, and its link checked before anyone follows it. Returns the new head.
 * The list's end is known without looking at the link: free_count says how
 * many blocks the list holds, so b's link must be NULL exactly when b is the
 * last one. A NULL link while more blocks remain (a stale `node->next = NULL`
 * through a pointer to a freed block) is corruption like any other bad link. */
static STOW__NOINLINE unsigned char *take_free(stow_pool_t *p, unsigned char *b)
{
    if (!stow__poison_intact(b + LINK_BYTES, p->stride - LINK_BYTES)) {
        STOW__REPORT("stow_pool_alloc: a free block was written after it was freed");
    }
    mark(p, index_of(p, b), true); /* first, so that a link back to b is refused */
    unsigned char *next = link_of(b);
    bool last = p->free_count == 1u;
    if (next == NULL ? !last : last || !is_free_block(p, next)) {
        STOW__REPORT("stow_pool_alloc: the free list was corrupted (a free block's link "
                     "was overwritten)");
        p->free_count = 0u; /* the dropped blocks count as in use until reset */
        return NULL;
    }
    p->free_count--;
    return next;
}

/* Level 2 half of handing out the never-used block b. Blocks leave bump in order,
 * so the first of every 32 starts its bitmap word: that word is written whole
 * (the bits of the blocks above bump 0), never read before it was written (init
 * leaves the bitmap as it finds it, to stay O(1)). */
static STOW__NOINLINE void take_fresh(stow_pool_t *p, unsigned char *b)
{
    if (b < p->poison_end && !stow__poison_intact(b, p->stride)) {
        STOW__REPORT("stow_pool_alloc: a block was written after the pool was reset");
    }
    uintptr_t i = index_of(p, b);
    if ((i & 31u) == 0u) {
        map_of(p)[i >> 5] = 1u;
    } else {
        mark(p, i, true);
    }
}
#endif

void *stow_pool_alloc(stow_pool_t *p)
{
    STOW__CHECK(p != NULL, "stow_pool_alloc: pool is NULL", NULL);
    unsigned char *b = p->free_list;
    if (b != NULL) {
#if STOW_CHECK_LEVEL >= 2
        p->free_list = take_free(p, b);
#else
        p->free_list = link_of(b);
        p->free_count--;
#endif
        stow__acquire(b, p->stride);
        return b;
    }
    b = p->bump;
    if (b == p->end) {
        p->fails++;
        return NULL;
    }
#if STOW_CHECK_LEVEL >= 2
    take_fresh(p, b);
#endif
    p->bump = b + p->stride;
    stow__acquire(b, p->stride);
    return b;
}

void *stow_pool_alloc_checked(stow_pool_t *p, size_t size, size_t align)
{
    STOW__CHECK(p != NULL, "stow_pool_alloc_checked: pool is NULL", NULL);
    STOW__CHECK(size <= p->block_size,
                "stow_pool_alloc_checked: the object is larger than the pool's blocks", NULL);
    STOW__CHECK((align & (align - 1u)) == 0u, /* 0 or a power of two */
                "stow_pool_alloc_checked: alignment is not a power of two", NULL);
    STOW__CHECK((align != 0u ? align : (size_t)STOW_DEFAULT_ALIGN) <= p->block_align,
                "stow_pool_alloc_checked: the object is more strictly aligned than the "
                "pool's blocks", NULL);
    (void)size;
    (void)align;
    return stow_pool_alloc(p);
}

void stow_pool_free(stow_pool_t *p, void *block)
{
    STOW__CHECK_VOID(p != NULL, "stow_pool_free: pool is NULL");
    if (block == NULL) {
        return;
    }
    unsigned char *b = (unsigned char *)block;
    STOW__CHECK_VOID(index_of(p, b) < p->capacity,
                     "stow_pool_free: pointer is not a block of this pool");
    STOW__CHECK_VOID(b < p->bump,
                     "stow_pool_free: block was not handed out since init or the last reset");
#if STOW_CHECK_LEVEL >= 2
    uintptr_t i = index_of(p, b);
    STOW__CHECK_VOID(in_use(p, i), "stow_pool_free: double free");
    mark(p, i, false);
#endif
    stow__release(b + LINK_BYTES, p->stride - LINK_BYTES); /* the link is not poison */
    stow__poison(b, LINK_BYTES);                           /* but stale all the same */
    set_link(b, p->free_list);
    p->free_list = b;
    p->free_count++;
}

/* The _isr calls: the plain call under the pool's own lock word (stow/port.h).
 * The NULL check comes first because the word is inside *p; it reports under
 * the plain call's name, as the plain call would. */
uint32_t stow_pool_lock(stow_pool_t *p)
{
    STOW__CHECK(p != NULL, "stow_pool_lock: pool is NULL", 0u);
    return stow_port_lock(&p->lock);
}

void stow_pool_unlock(stow_pool_t *p, uint32_t state)
{
    STOW__CHECK_VOID(p != NULL, "stow_pool_unlock: pool is NULL");
    stow_port_unlock(&p->lock, state);
}

void *stow_pool_alloc_isr(stow_pool_t *p)
{
    STOW__CHECK(p != NULL, "stow_pool_alloc: pool is NULL", NULL);
    uint32_t state = stow_port_lock(&p->lock);
    void *b = stow_pool_alloc(p);
    stow_port_unlock(&p->lock, state);
    return b;
}

void stow_pool_free_isr(stow_pool_t *p, void *block)
{
    STOW__CHECK_VOID(p != NULL, "stow_pool_free: pool is NULL");
    uint32_t state = stow_port_lock(&p->lock);
    stow_pool_free(p, block);
    stow_port_unlock(&p->lock, state);
}

bool stow_pool_owns(const stow_pool_t *p, const void *ptr)
{
    STOW__CHECK(p != NULL, "stow_pool_owns: pool is NULL", false);
    return (uintptr_t)(const unsigned char *)ptr - (uintptr_t)p->base < stow__span(p->base, p->end);
}

/* Blocks the bump pointer has passed: the high-water mark since the last reset. */
static inline uint32_t bumped(const stow_pool_t *p) { return (uint32_t)index_of(p, p->bump); }

void stow_pool_reset(stow_pool_t *p)
{
    STOW__CHECK_VOID(p != NULL, "stow_pool_reset: pool is NULL");
    uint32_t n = bumped(p);
    if (n > p->peak) {
        p->peak = n;
    }
    stow__release(p->base, stow__span(p->base, p->bump)); /* nothing at levels 0, 1 without ASan */
#if STOW_CHECK_LEVEL >= 2
    if (p->poison_end < p->bump) {
        p->poison_end = p->bump;
    }
#endif
    p->free_list = NULL;
#if STOW__POOL_HEAD_BITS != 0
    p->tagged_head = 0u;
#endif
    p->bump = p->base;
    p->free_count = 0u;
}

uint32_t stow_pool_capacity(const stow_pool_t *p)
{
    STOW__CHECK(p != NULL, "stow_pool_capacity: pool is NULL", 0u);
    return p->capacity;
}

uint32_t stow_pool_used(const stow_pool_t *p)
{
    STOW__CHECK(p != NULL, "stow_pool_used: pool is NULL", 0u);
    return bumped(p) - p->free_count;
}

void stow_pool_stats(const stow_pool_t *p, stow_stats_t *out)
{
    STOW__CHECK_VOID(p != NULL, "stow_pool_stats: pool is NULL");
    STOW__CHECK_VOID(out != NULL, "stow_pool_stats: out is NULL");
    uint32_t n = bumped(p);
    out->capacity = p->capacity;
    out->used = n - p->free_count;
    out->peak = n > p->peak ? n : p->peak;
    out->fails = p->fails;
}

static bool geometry_is_sound(const stow_pool_t *p)
{
    struct pool_layout l;
    return p->base != NULL && stow__is_pow2(p->block_align) &&
           layout_of(p->block_size, p->block_align, p->capacity, &l) && l.stride == p->stride &&
           l.inverse == p->inverse && l.shift == p->shift && stow__is_aligned(p->base, l.align) &&
           (uintptr_t)p->end - (uintptr_t)p->base == l.blocks &&
           (p->bump == p->end || index_of(p, p->bump) < p->capacity) &&
           p->peak <= p->capacity;
}

/* Walks the free list from first, adding its length to *count; false when a node
 * is out of range, or *count would pass the blocks below bump (a cycle). */
static bool list_is_sound(const stow_pool_t *p, const unsigned char *first, uint32_t *count)
{
    uint32_t below_bump = bumped(p);
    for (const unsigned char *q = first; q != NULL; q = link_of(q)) {
        /* A node out of range is not followed; more nodes than blocks is a cycle. */
        if (index_of(p, q) >= p->capacity || q >= p->bump || *count == below_bump) {
            return false;
        }
#if STOW_CHECK_LEVEL >= 2
        if (in_use(p, index_of(p, q)) ||
            !stow__poison_intact(q + LINK_BYTES, p->stride - LINK_BYTES)) {
            return false;
        }
#endif
        ++*count;
    }
    return true;
}

bool stow_pool_check(const stow_pool_t *p)
{
    STOW__CHECK(p != NULL, "stow_pool_check: pool is NULL", false);
    if (!geometry_is_sound(p)) {
        return false;
    }
    uint32_t free_blocks = 0u;
    if (!list_is_sound(p, p->free_list, &free_blocks)) {
        return false;
    }
#if STOW__POOL_HEAD_BITS != 0
    /* The atomic calls' list, where they keep one of their own (pool_atomic.c). */
    if (tagged_index(p) > p->capacity ||
        !list_is_sound(p, tagged_first(p), &free_blocks)) {
        return false;
    }
#endif
    if (free_blocks != p->free_count) {
        return false;
    }
#if STOW_CHECK_LEVEL >= 2
    /* The listed blocks are distinct and clear; as many more as are in use must be
     * set, so the bitmap and the list agree block for block. */
    uint32_t below_bump = bumped(p);
    uint32_t set = 0u;
    for (uint32_t i = 0u; i < below_bump; i++) {
        set += in_use(p, i) ? 1u : 0u;
    }
    if (set != below_bump - free_blocks || p->poison_end < p->base || p->poison_end > p->end) {
        return false;
    }
    if (p->poison_end > p->bump &&
        !stow__poison_intact(p->bump, stow__span(p->bump, p->poison_end))) {
        return false;
    }
#endif
    return true;
}

/* The report's view of a pool (stow/report.h). */
STOW__REGISTRY_KIND(pool, stow_pool_t, false);
