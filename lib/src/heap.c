/* SPDX-License-Identifier: MIT */
/* heap.c - a variable-size heap over static storage, in bounded time. See stow/heap.h.
 *
 * Representation. The storage holds a row of blocks [first, limit) that tile it
 * with no gap, then a header word at limit that marks the end (it reads as a
 * live block of size 0, so no walk and no merge needs a bounds test), and at
 * check levels 1 and 2 the live-start bit map. Every block size is a multiple
 * of ALIGN (STOW_HEAP_ALIGN) and at least MIN_BLOCK; block starts are
 * ALIGN - HEADER past an ALIGN boundary, so every payload (block + HEADER) is
 * aligned to ALIGN.
 *
 *   word 0 of every block: its size | USED | PREV_FREE | ALIGNED. PREV_FREE says
 *     that the block before it is free, and so that the word before this block
 *     is that free block's size (its footer).
 *   live block:  when ALIGNED is set (it was allocated with more than ALIGN),
 *     word 1 is that alignment, for realloc; payload from word 2; at level 2 its last word is the requested size and
 *     the bytes between the request and that word hold 0xDD (the canary).
 *   free block:  words 1-2 its node in its size class's circular list (next,
 *     prev), its last word its size again (the footer). At level 2 every other
 *     byte holds 0xDD. A free block's word 0 is its size alone: the block
 *     before a free block is never free, and a free block is not USED.
 *
 * Invariants (stow_heap_check tests each one):
 *   - the blocks tile [first, limit) exactly; each size is a multiple of ALIGN,
 *     at least MIN_BLOCK; the end word is USED with size 0;
 *   - no two free blocks are neighbours (free merges at once); PREV_FREE is set
 *     exactly on the blocks (and end word) that follow a free block; a free
 *     block's footer equals its size;
 *   - a free block of size s is in class clz(s) (its leading zeros: see "size
 *     classes" below), whose list is a proper circle; bit c of classes_used is
 *     set exactly when class c is not empty;
 *     every listed node is a free block of the heap, and every free block is
 *     listed once;
 *   - used is the sum of the live blocks' sizes (peak may lag behind it: it
 *     catches up when used next falls, see lower_used());
 *   - a live block marked ALIGNED keeps in word 1 a power of two above ALIGN
 *     that its payload meets;
 *   - level >= 1: bit i of the map is set exactly when a live block starts at
 *     first + i * ALIGN;
 *   - level 2: free blocks hold 0xDD but for their four words; live blocks'
 *     canaries are intact.
 *
 * Allocation. A request of s bytes needs a block of at least s + HEADER (+ the
 * size word at level 2), and is given a power-of-two block of that, 2^k bytes.
 * Every free block of 2^k bytes or more fits, so the smallest non-empty class
 * of such blocks (one shift and one count-leading-zeros of classes_used) holds
 * a block that fits, and its first block is taken: no search. The rest of that block, if it is at least MIN_BLOCK, becomes a free
 * block of its own (its neighbours are a live block, the one just carved, and
 * whatever followed the taken block, which was live since free blocks do not
 * touch); a smaller rest stays with the block. Only when no class at or above k
 * has a block does the heap look further, once: the first block of the class
 * just below (blocks of 2^(k-1) to 2^k - 1 bytes) may still be large enough for the request's exact size (rounded to ALIGN),
 * and is then split to that size. That is what makes the whole of an empty heap
 * available in one request, and makes largest_free exact: the answer is the
 * first block of the highest non-empty class, since every block of that class
 * serves any request up to 2^class and the fallback serves the rest up to the
 * first block's size.
 *
 * Free merges the block with the next one if that is free (its word 0, USED
 * clear) and with the previous one if PREV_FREE is set (the footer gives its
 * start), unlinking them from their classes (a circular list unlinks without
 * knowing its head: the class is needed only when it becomes empty, to clear its
 * bit), and links the result into its class. Two unlinks, one link, no loop.
 *
 * Bit scans. floor(log2 x) and count-trailing-zeros come from the compiler's
 * builtins where the core has an instruction for them (CLZ on Armv7-M and
 * later; x86; RISC-V with Zbb). Elsewhere (Armv6-M: Cortex-M0/M0+, Armv8-M
 * baseline, rv32 without Zbb) they are branch-free: smear the bits below the
 * top one, or isolate the lowest one, and look the result up by a de Bruijn
 * multiply (the one multiply is 1 cycle, or 32 on a Cortex-M0 built with the
 * small multiplier: constant either way).
 *
 * The bound. The policy is a "half-fit" over power-of-two blocks, the one o1heap
 * uses, and STOW_HEAP_BYTES_FOR takes the bound o1heap documents for it, after
 * J. M. Robson's analysis of allocators whose blocks are powers of two: blocks of
 * M (1 + log2(n / m)) bytes, M the most block bytes live at once, n the largest
 * block and m the smallest, are never exhausted. Why a logarithm and not n / m:
 * a request of 2^k bytes fails only when every free block is smaller than 2^k,
 * and since free blocks never touch, each lies between live blocks. Because a
 * request takes the smallest class that fits, small requests refill small holes
 * before they split larger ones, so an adversary that wants every hole too small
 * for 2^k must build those holes out of blocks of each smaller class in turn,
 * and each layer of holes costs it about M of live memory that it must free
 * again to build the next: log2(n / m) layers, plus the live blocks themselves.
 * That is the idea of Robson's argument, not a proof written out for this exact
 * policy; what stands behind the figure here is that and the tests:
 * tests/test_heap.c runs adversaries that use the addresses they get (freeing
 * the blocks that split the heap most, level by level, and at random) against
 * heaps sized by STOW_HEAP_BYTES_FOR, and none of them gets NULL, while the same
 * adversaries do get NULL from heaps a quarter that size. stow/heap.h turns
 * requested bytes into block bytes (at worst a whole minimum block for one byte,
 * or twice the request plus the header) and adds the heap's own words.
 *
 * Level 2 poison is kept without walking: a freed block is filled whole, and
 * when it merges, the words that stop being metadata (the next block's first
 * three words, the previous block's footer) are filled too. Taking a block
 * checks only the bytes it takes; splitting writes new metadata over poison,
 * which the next check knows not to look at.
 */
#include "stow/heap.h"
#include "internal.h"

#define WORD sizeof(size_t)
#define HEADER STOW_HEAP_OVERHEAD
#define ALIGN STOW_HEAP_ALIGN
#define MIN_BLOCK STOW_HEAP_MIN_BLOCK
#define TAIL STOW__HEAP_TAIL
#define BITS (sizeof(size_t) * CHAR_BIT)
#define USED ((size_t)1u)
#define PREV_FREE ((size_t)2u)
#define ALIGNED ((size_t)4u)
#define FLAGS (USED | PREV_FREE | ALIGNED)
#define ALIGN_SHIFT STOW__SHIFT_OF(STOW_HEAP_ALIGN)

STOW_STATIC_ASSERT(sizeof(size_t) == sizeof(void *), "the heap keeps sizes and links in the same words");
STOW_STATIC_ASSERT(STOW_HEAP_MIN_BLOCK <= 2u * STOW_HEAP_ALIGN, "a front gap of one granule must be avoidable");

/* Every function here reads and writes the heap's own words inside free blocks,
 * which an ASan build poisons: the sanitizer must not check the library's own
 * accesses (the user's are checked). All of them carry the attribute, so that
 * they inline into one another. */
#define FN STOW__NO_ASAN

typedef stow_heap_node_t node_t;

/* ---- words ------------------------------------------------------------------------ */

static FN inline size_t *word_at(unsigned char *p) { return (size_t *)(void *)p; }
static FN inline size_t head_of(unsigned char *b) { return *word_at(b); }
static FN inline void set_head(unsigned char *b, size_t w) { *word_at(b) = w; }
static FN inline size_t size_of(size_t head) { return head & ~FLAGS; }
static FN inline node_t *node_of(unsigned char *b) { return (node_t *)(void *)(b + WORD); }
static FN inline unsigned char *block_of(node_t *n) { return (unsigned char *)n - WORD; }
static FN inline void set_footer(unsigned char *b, size_t size) { *word_at(b + size - WORD) = size; }
/* The alignment a live block was allocated with: ALIGN, or word 1 when the
 * ALIGNED flag says it was more. */
static FN inline size_t align_of(unsigned char *b)
{
    return (head_of(b) & ALIGNED) != 0u ? word_at(b)[1] : ALIGN;
}

/* ---- bit scans (see "Bit scans" above) --------------------------------------------- */

#if defined(__GNUC__) && (!defined(__arm__) || defined(__ARM_FEATURE_CLZ)) && \
    (!defined(__riscv) || defined(__riscv_zbb))
#if SIZE_MAX == UINT_MAX
#define CLZ(x) ((size_t)__builtin_clz(x))
#define CTZ(x) ((size_t)__builtin_ctz(x))
#elif SIZE_MAX == ULONG_MAX
#define CLZ(x) ((size_t)__builtin_clzl(x))
#define CTZ(x) ((size_t)__builtin_ctzl(x))
#else
#define CLZ(x) ((size_t)__builtin_clzll(x))
#define CTZ(x) ((size_t)__builtin_ctzll(x))
#endif
/* Leading zeros of x != 0, and the position of its lowest set bit. */
static FN inline size_t clz_of(size_t x) { return CLZ(x); }
static FN inline size_t lowest_bit(size_t x) { return CTZ(x); }
#else
static const unsigned char debruijn_floor[32] = {0,  9,  1,  10, 13, 21, 2,  29, 11, 14, 16,
                                                 18, 22, 25, 3,  30, 8,  12, 20, 28, 15, 17,
                                                 24, 7,  19, 27, 23, 6,  26, 5,  4,  31};
static const unsigned char debruijn_low[32] = {0,  1,  28, 2,  29, 14, 24, 3,  30, 22, 20,
                                               15, 25, 17, 4,  8,  31, 27, 13, 23, 21, 19,
                                               16, 7,  26, 12, 18, 6,  11, 5,  10, 9};
static FN inline uint32_t log2_floor32(uint32_t x)
{
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    return debruijn_floor[(uint32_t)(x * 0x07C4ACDDu) >> 27];
}
static FN inline uint32_t lowest_bit32(uint32_t x)
{
    return debruijn_low[(uint32_t)((x & (0u - x)) * 0x077CB531u) >> 27];
}
#if SIZE_MAX <= UINT32_MAX
static FN inline size_t clz_of(size_t x) { return 31u - log2_floor32((uint32_t)x); }
static FN inline size_t lowest_bit(size_t x) { return lowest_bit32((uint32_t)x); }
#else
static FN inline size_t clz_of(size_t x)
{
    uint32_t high = (uint32_t)(x >> 32);
    return high != 0u ? 31u - log2_floor32(high) : 63u - log2_floor32((uint32_t)x);
}
static FN inline size_t lowest_bit(size_t x)
{
    uint32_t low = (uint32_t)x;
    return low != 0u ? lowest_bit32(low) : 32u + lowest_bit32((uint32_t)(x >> 32));
}
#endif
#endif

/* The exact block a request of size bytes needs (size <= max_size, so this
 * cannot overflow): size, the header and at level 2 the size word, rounded up to
 * ALIGN, and at least MIN_BLOCK. */
static FN inline size_t exact_block(size_t size)
{
    size_t exact = (size + HEADER + TAIL + ALIGN - 1u) & ~(ALIGN - 1u);
    return exact < MIN_BLOCK ? MIN_BLOCK : exact;
}

/* ---- size classes -------------------------------------------------------------------- *
 *
 * A class is numbered by the leading zeros of its sizes: class c holds the free
 * blocks of 2^(BITS-1-c) to 2^(BITS-c) - 1 bytes, so one count of leading zeros
 * gives both a block's class and its bit (1 << c) in classes_used. The classes
 * that are sure to fit a block of 2^k bytes are c <= BITS-1-k: shifted left by
 * k, classes_used keeps exactly their bits, and its highest bit names the
 * smallest of them. The callers keep classes_used in a local (bits) and store it
 * once. */

/* The class of a free block of size bytes. */
static FN inline size_t class_of(size_t size) { return clz_of(size); }

/* Leading zeros of the power-of-two block a request of need bytes (>= 1) gets:
 * the block is 2^(BITS - z) bytes, at least MIN_BLOCK. */
static FN inline size_t block_zeros(size_t need) { return clz_of((need - 1u) | (MIN_BLOCK - 1u)); }

static FN inline void link_free(stow_heap_t *h, size_t *bits, unsigned char *b, size_t size)
{
    size_t c = class_of(size);
    node_t *head = &h->classes[c];
    STOW__OPAQUE(head); /* else GCC computes the head's address twice: as value and as base */
    node_t *n = node_of(b);
    node_t *next = head->next;
    set_head(b, size);
    set_footer(b, size);
    n->next = next;
    n->prev = head;
    next->prev = n;
    head->next = n;
    *bits |= (size_t)1u << c;
}

static FN inline void unlink_free(size_t *bits, unsigned char *b, size_t size)
{
    node_t *n = node_of(b);
    node_t *next = n->next;
    node_t *prev = n->prev;
    prev->next = next;
    next->prev = prev;
    /* Only the class's own head is left: the class is empty. Without a branch,
     * so that the worst case is the common one. */
    *bits &= ~((size_t)(next == prev) << class_of(size));
}

/* ---- live-start bits (level >= 1) ------------------------------------------------------- */

#if STOW_CHECK_LEVEL >= 1
static FN inline size_t granule_of(const stow_heap_t *h, const unsigned char *b)
{
    return (size_t)(b - h->first) >> ALIGN_SHIFT;
}
static FN inline void mark_live(stow_heap_t *h, unsigned char *b)
{
    size_t i = granule_of(h, b);
    h->starts[i >> 5] |= (uint32_t)1u << (i & 31u);
}
static FN inline void mark_gone(stow_heap_t *h, unsigned char *b)
{
    size_t i = granule_of(h, b);
    h->starts[i >> 5] &= ~((uint32_t)1u << (i & 31u));
}
static FN inline bool starts_live(const stow_heap_t *h, const unsigned char *b)
{
    size_t i = granule_of(h, b);
    return ((h->starts[i >> 5] >> (i & 31u)) & 1u) != 0u;
}
/* True when p is the payload of a live block of h. A heap not laid out yet has
 * no live block. */
static FN inline bool is_live(const stow_heap_t *h, const void *p)
{
    uintptr_t a = (uintptr_t)p;
    if (h->first == NULL || (a & (ALIGN - 1u)) != 0u || a < (uintptr_t)h->first + HEADER ||
        a >= (uintptr_t)h->limit) {
        return false;
    }
    return starts_live(h, (const unsigned char *)p - HEADER);
}
#else
static FN inline void mark_live(stow_heap_t *h, unsigned char *b)
{
    (void)h;
    (void)b;
}
static FN inline void mark_gone(stow_heap_t *h, unsigned char *b)
{
    (void)h;
    (void)b;
}
#endif

/* ---- level 2: poison and canary ------------------------------------------------------------ */

#if STOW_CHECK_LEVEL >= 2
/* The poison a block's bytes [from, to) should hold while free, skipping the
 * four metadata words of the free block that started at b and was fsize long. */
static FN void check_poison(unsigned char *b, size_t fsize, unsigned char *from, unsigned char *to,
                            const char *what)
{
    unsigned char *lo = from > b + 3u * WORD ? from : b + 3u * WORD;
    unsigned char *hi = to < b + fsize - WORD ? to : b + fsize - WORD;
    if (lo < hi && !stow__poison_intact(lo, (size_t)(hi - lo))) {
        STOW__REPORT(what);
    }
}

static FN inline size_t requested_of(unsigned char *b) { return *word_at(b + size_of(head_of(b)) - WORD); }

/* The canary after size requested bytes of the live block b. */
static FN void set_canary(unsigned char *b, size_t size)
{
    size_t bsize = size_of(head_of(b));
    stow__fill(b + HEADER + size, STOW__POISON, bsize - WORD - HEADER - size);
    *word_at(b + bsize - WORD) = size;
}

static FN bool canary_intact(unsigned char *b)
{
    size_t bsize = size_of(head_of(b));
    size_t size = requested_of(b);
    return size <= bsize - WORD - HEADER &&
           stow__poison_intact(b + HEADER + size, bsize - WORD - HEADER - size);
}
#endif

/* ---- layout --------------------------------------------------------------------------------- */

/* Where the blocks of a heap over [buf, buf + size) go. False when the storage
 * cannot hold one minimum block. */
struct layout {
    unsigned char *first;
    unsigned char *limit;
    uint32_t *starts;
};

static FN bool layout_of(unsigned char *buf, size_t size, struct layout *out)
{
    size_t lead = (ALIGN - HEADER) & (ALIGN - 1u);
    if (size < lead + WORD + MIN_BLOCK) {
        return false;
    }
    size_t room = size - lead - WORD; /* blocks and, at level >= 1, the map */
#if STOW_CHECK_LEVEL >= 1
    /* The map takes a bit per granule, in 32-bit words after the end word. Start
     * at or just above the answer (blocks + blocks / (8 ALIGN) <= room) and step
     * down: at most two steps. */
    if (room < 16u + MIN_BLOCK) {
        return false;
    }
    size_t blocks = (room - room / (8u * ALIGN + 1u)) & ~(ALIGN - 1u);
    while (blocks + (((blocks >> ALIGN_SHIFT) + 31u) >> 5) * 4u > room) {
        blocks -= ALIGN;
    }
#else
    size_t blocks = room & ~(ALIGN - 1u);
#endif
    size_t largest = ~(SIZE_MAX >> 1); /* a block size must stay below the top bit */
    if (blocks >= largest) {
        blocks = largest - ALIGN;
    }
    if (blocks < MIN_BLOCK) {
        return false;
    }
    out->first = buf + lead;
    out->limit = out->first + blocks;
#if STOW_CHECK_LEVEL >= 1
    out->starts = (uint32_t *)(void *)(out->limit + WORD);
#else
    out->starts = NULL;
#endif
    return true;
}

/* Lays the storage out: one free block of everything. */
static FN STOW__NOINLINE bool lay_out(stow_heap_t *h)
{
    struct layout l;
    if (!layout_of(h->buf, h->size, &l)) {
        return false;
    }
    for (size_t c = 0; c < STOW__HEAP_CLASSES; c++) {
        h->classes[c].next = &h->classes[c];
        h->classes[c].prev = &h->classes[c];
    }
    h->classes_used = 0u;
    h->first = l.first;
    h->limit = l.limit;
    size_t blocks = (size_t)(l.limit - l.first);
#if STOW_CHECK_LEVEL >= 1
    h->starts = l.starts;
    stow__unpoison(l.starts, (((blocks >> ALIGN_SHIFT) + 31u) >> 5) * 4u);
    stow__fill(l.starts, 0u, (((blocks >> ALIGN_SHIFT) + 31u) >> 5) * 4u);
#endif
    stow__unpoison(l.first, blocks + WORD);
#if STOW_CHECK_LEVEL >= 2
    stow__fill(l.first, STOW__POISON, blocks);
#endif
    set_head(l.limit, USED | PREV_FREE);
    link_free(h, &h->classes_used, l.first, blocks);
    h->max_size = blocks - HEADER - TAIL;
    h->used = 0u;
    return true;
}

/* ---- carving ----------------------------------------------------------------------------- */

/* Makes the block b (free, unlinked, fsize bytes, its predecessor live) live
 * with size bytes, giving the rest back when it can stand as a block. align is
 * the alignment it is allocated with; above ALIGN it is kept for realloc. */
static FN inline void *carve(stow_heap_t *h, size_t *bits, unsigned char *b, size_t fsize, size_t size,
                             size_t align, size_t flags)
{
    size_t rest = fsize - size;
    if (rest >= MIN_BLOCK) {
        link_free(h, bits, b + size, rest); /* what follows it already has PREV_FREE */
    } else {
        size = fsize;
        set_head(b + fsize, head_of(b + fsize) & ~PREV_FREE);
    }
    if (align > ALIGN) {
        flags |= ALIGNED;
        word_at(b)[1] = align;
    }
    set_head(b, size | USED | flags);
    mark_live(h, b);
    h->used += size; /* peak catches up when used next falls: see lower_used() */
    stow__acquire(b + HEADER, size - HEADER);
    return b + HEADER;
}

/* ---- give back ---------------------------------------------------------------------------- */

/* The size bytes at b (whose predecessor is live: b is a live block's tail, or
 * a freed block already merged backwards) become free: merged with the next
 * block if that is free, linked into its class, and announced to the block
 * after them. */
static FN inline void release_forward(stow_heap_t *h, size_t *bits, unsigned char *b, size_t size)
{
    unsigned char *next = b + size;
    size_t next_head = head_of(next);
    if ((next_head & USED) != 0u) {
        set_head(next, next_head | PREV_FREE);
    } else {
        unlink_free(bits, next, next_head);
#if STOW_CHECK_LEVEL >= 2
        stow__fill(next, STOW__POISON, 3u * WORD);
#endif
        size += next_head; /* the block after next has PREV_FREE already */
    }
    link_free(h, bits, b, size);
    /* The header too: the tail a shrink gives back starts inside the caller's
     * block, and a stale pointer reaches its first words. */
    stow__poison(b, size);
}

/* Lowers used by n. peak is brought up to date here, when used is about to fall,
 * and not by every allocation: used only grows in between, so the high-water mark
 * is max(peak, used) (what stats() reports), and alloc stays shorter. */
static FN inline size_t lower_used(stow_heap_t *h, size_t n)
{
    size_t used = h->used;
    if (used > h->peak) {
        h->peak = used;
    }
    return used - n;
}

static FN inline void free_block(stow_heap_t *h, unsigned char *b)
{
    size_t head = head_of(b);
    size_t size = size_of(head);
    size_t bits = h->classes_used;
    size_t used = lower_used(h, size);
    mark_gone(h, b);
#if STOW_CHECK_LEVEL >= 2
    stow__fill(b, STOW__POISON, size);
#endif
    if ((head & PREV_FREE) != 0u) {
        size_t prev_size = *word_at(b - WORD);
        b -= prev_size;
        unlink_free(&bits, b, prev_size);
#if STOW_CHECK_LEVEL >= 2
        stow__fill(b + prev_size - WORD, STOW__POISON, WORD);
#endif
        size += prev_size;
    }
    release_forward(h, &bits, b, size);
    h->used = used;
    h->classes_used = bits;
}

/* ---- allocation -------------------------------------------------------------------------------- */

static FN STOW__NOINLINE void *refuse(stow_heap_t *h)
{
    h->fails++;
    return NULL;
}

/* The front gap before an align-aligned payload in the free block b: 0, or at
 * least MIN_BLOCK so that it can stand as a free block. */
static FN inline size_t gap_for(unsigned char *b, size_t align)
{
    size_t gap = (size_t)(0u - (uintptr_t)(b + HEADER)) & (align - 1u);
    return gap != 0u && gap < MIN_BLOCK ? gap + align : gap;
}

/* Takes a block for size bytes at alignment align (ALIGN or a larger power of
 * two): a power-of-two block from the smallest class sure to fit, or else an
 * exact one from the first block of the class below. The slow path of alloc,
 * and the whole of aligned alloc. */
static FN STOW__NOINLINE void *take(stow_heap_t *h, size_t size, size_t align)
{
    if (h->first == NULL && !lay_out(h)) {
        return refuse(h);
    }
    /* Room for the request and, when aligned beyond ALIGN, for the worst front
     * gap (ALIGN itself asks for nothing more, however small the heap). */
    size_t slack = align > ALIGN ? align + ALIGN : 0u;
    if (size > h->max_size || (slack != 0u && (align > h->max_size || h->max_size - size < slack))) {
        return refuse(h);
    }
    size_t exact = exact_block(size);
    size_t bits = h->classes_used;
    size_t z = block_zeros(exact + slack);
    size_t block = (size_t)1u << (BITS - block_zeros(exact)); /* what it gets, room allowing */
    size_t above = z > 0u ? bits << (BITS - z) : 0u;
    size_t c;
    if (above != 0u) {
        c = z - 1u - clz_of(above);
    } else {
        c = class_of(exact + slack);
        if (((bits >> c) & 1u) == 0u) {
            return refuse(h);
        }
    }
    unsigned char *b = block_of(h->classes[c].next);
    size_t fsize = head_of(b);
    size_t gap = align > ALIGN ? gap_for(b, align) : 0u;
    if (gap + exact > fsize) {
        return refuse(h);
    }
    if (gap + block > fsize) {
        block = exact;
    }
    unlink_free(&bits, b, fsize);
#if STOW_CHECK_LEVEL >= 2
    check_poison(b, fsize, b + gap, b + gap + block, "stow_heap_alloc: free memory was written after free");
#endif
    size_t flags = 0u;
    if (gap != 0u) {
        /* The gap's predecessor is live (b was free) and its successor is the
         * block carved next: it stands alone. */
        link_free(h, &bits, b, gap);
        stow__poison(b + HEADER, gap - HEADER);
        b += gap;
        fsize -= gap;
        flags = PREV_FREE;
    }
    void *p = carve(h, &bits, b, fsize, block, align, flags);
    h->classes_used = bits;
#if STOW_CHECK_LEVEL >= 2
    set_canary(b, size);
#endif
    return p;
}

FN void *stow_heap_alloc(stow_heap_t *h, size_t size)
{
    STOW__CHECK(h != NULL, "stow_heap_alloc: heap is NULL", NULL);
#if STOW_CHECK_LEVEL < 2 && !defined(__OPTIMIZE_SIZE__)
    /* take()'s decisions for the default alignment, inline (a build for size,
     * -Os, goes to take() directly). max_size is 0 until the storage is laid
     * out, so the first call finds nothing here and goes to take(), which lays
     * it out; so does every request too large. */
    if (size <= h->max_size) {
        size_t bits = h->classes_used;
        size_t z = block_zeros(size + HEADER);
        size_t above = bits << (BITS - z);
        unsigned char *b;
        size_t block;
        if (above != 0u) {
            b = block_of(h->classes[z - 1u - clz_of(above)].next);
            block = (size_t)1u << (BITS - z);
        } else {
            /* The exact size, from the first block of class z: the sizes just
             * below the power of two (none fits when the exact size is it). */
            if (((bits >> z) & 1u) == 0u) {
                return h->first != NULL ? refuse(h) : take(h, size, ALIGN);
            }
            b = block_of(h->classes[z].next);
            /* exact_block(size) without its floor: class z is not empty, so
             * 2^(BITS - z) > MIN_BLOCK, and size + HEADER is above half that. */
            block = (size + HEADER + ALIGN - 1u) & ~(ALIGN - 1u);
            if (head_of(b) < block) {
                return refuse(h);
            }
        }
        size_t fsize = head_of(b);
        unlink_free(&bits, b, fsize);
        void *p = carve(h, &bits, b, fsize, block, ALIGN, 0u);
        h->classes_used = bits;
        return p;
    }
#endif
    return take(h, size, ALIGN);
}

FN void *stow_heap_alloc_aligned(stow_heap_t *h, size_t size, size_t align)
{
    STOW__CHECK(h != NULL, "stow_heap_alloc_aligned: heap is NULL", NULL);
    STOW__CHECK(align == 0u || stow__is_pow2(align),
                "stow_heap_alloc_aligned: alignment is not a power of two", NULL);
    return take(h, size, align > ALIGN ? align : ALIGN);
}

FN void *stow_heap_calloc(stow_heap_t *h, size_t n, size_t size)
{
    STOW__CHECK(h != NULL, "stow_heap_calloc: heap is NULL", NULL);
    size_t total;
#if defined(__GNUC__)
    if (__builtin_mul_overflow(n, size, &total)) {
        return refuse(h);
    }
#else
    if (size != 0u && n > SIZE_MAX / size) {
        return refuse(h);
    }
    total = n * size;
#endif
    unsigned char *p = (unsigned char *)take(h, total, ALIGN);
    if (p != NULL) {
        /* A word at a time (payloads are word-aligned), then the last bytes:
         * not past total, where level 2 keeps its canary. */
        size_t words = total & ~(size_t)3u;
        if (words != 0u) {
            stow__zero_words(p, words);
        }
        stow__fill(p + words, 0u, total - words);
    }
    return p;
}

/* ---- free, realloc, usable size ------------------------------------------------------------------ */

#if STOW_CHECK_LEVEL >= 2
static FN void check_canary(unsigned char *b, const char *what)
{
    if (!canary_intact(b)) {
        STOW__REPORT(what);
    }
}
#endif

FN void stow_heap_free(stow_heap_t *h, void *p)
{
    STOW__CHECK_VOID(h != NULL, "stow_heap_free: heap is NULL");
    if (p == NULL) {
        return;
    }
    STOW__CHECK_VOID(is_live(h, p), "stow_heap_free: not a live block of this heap (outside, "
                                    "interior, misaligned or freed already)");
    unsigned char *b = (unsigned char *)p - HEADER;
#if STOW_CHECK_LEVEL >= 2
    check_canary(b, "stow_heap_free: write past the end of the block");
#endif
    free_block(h, b);
}

FN void *stow_heap_realloc(stow_heap_t *h, void *p, size_t size)
{
    STOW__CHECK(h != NULL, "stow_heap_realloc: heap is NULL", NULL);
    if (p == NULL) {
        return stow_heap_alloc(h, size);
    }
    STOW__CHECK(is_live(h, p), "stow_heap_realloc: not a live block of this heap (outside, "
                               "interior, misaligned or freed already)",
                NULL);
    unsigned char *b = (unsigned char *)p - HEADER;
#if STOW_CHECK_LEVEL >= 2
    check_canary(b, "stow_heap_realloc: write past the end of the block");
#endif
    if (size > h->max_size) {
        return refuse(h);
    }
    size_t head = head_of(b);
    size_t cur = size_of(head);
    size_t exact = exact_block(size);
    size_t block = (size_t)1u << (BITS - block_zeros(exact));
    size_t bits = h->classes_used;
    if (exact <= cur) {
        /* Shrink (or stay): keep the power of two if it fits, give back the rest. */
        size_t keep = block <= cur ? block : exact;
        if (cur - keep >= MIN_BLOCK) {
            set_head(b, keep | (head & FLAGS));
            h->used = lower_used(h, cur - keep);
#if STOW_CHECK_LEVEL >= 2
            stow__fill(b + keep, STOW__POISON, cur - keep);
#endif
            release_forward(h, &bits, b + keep, cur - keep);
            h->classes_used = bits;
        }
#if STOW_CHECK_LEVEL >= 2
        set_canary(b, size);
#endif
        return p;
    }
    unsigned char *next = b + cur;
    size_t next_head = head_of(next);
    if ((next_head & USED) == 0u && cur + next_head >= exact) {
        /* Grow into the next block. */
        size_t total = cur + next_head;
        size_t keep = block <= total ? block : exact;
        unlink_free(&bits, next, next_head);
#if STOW_CHECK_LEVEL >= 2
        check_poison(next, next_head, next, b + keep, "stow_heap_realloc: free memory was written after free");
        stow__fill(next, STOW__POISON, 3u * WORD);
#endif
        /* b and next are now one free-standing block whose predecessor is
         * whatever b's was: carve it like a block taken from a class. */
        h->used = lower_used(h, cur);
        (void)carve(h, &bits, b, total, keep, align_of(b), head & PREV_FREE);
        h->classes_used = bits;
#if STOW_CHECK_LEVEL >= 2
        set_canary(b, size);
#endif
        return p;
    }
    /* Move. */
#if STOW_CHECK_LEVEL >= 2
    size_t keep_bytes = requested_of(b);
#else
    size_t keep_bytes = cur - HEADER;
#endif
    unsigned char *q = (unsigned char *)take(h, size, align_of(b));
    if (q == NULL) {
        return NULL;
    }
    size_t n = keep_bytes < size ? keep_bytes : size;
    size_t words = n & ~(size_t)3u; /* both payloads are word-aligned */
    if (words != 0u) {
        stow__copy_words(q, p, words);
    }
    stow__copy(q + words, (unsigned char *)p + words, n - words);
    free_block(h, b);
    return q;
}

FN size_t stow_heap_usable_size(const stow_heap_t *h, const void *p)
{
    STOW__CHECK(h != NULL, "stow_heap_usable_size: heap is NULL", 0u);
    STOW__CHECK(is_live(h, p), "stow_heap_usable_size: not a live block of this heap (outside, "
                               "interior, misaligned or freed already)",
                0u);
    (void)h;
    unsigned char *b = (unsigned char *)(uintptr_t)p - HEADER;
#if STOW_CHECK_LEVEL >= 2
    return requested_of(b);
#else
    return size_of(head_of(b)) - HEADER;
#endif
}

/* The _isr calls: the plain call under the heap's own lock word (stow/port.h).
 * The NULL check comes first because the word is inside *h; it reports under
 * the plain call's name, as the plain call would. */
uint32_t stow_heap_lock(stow_heap_t *h)
{
    STOW__CHECK(h != NULL, "stow_heap_lock: heap is NULL", 0u);
    return stow_port_lock(&h->lock);
}

void stow_heap_unlock(stow_heap_t *h, uint32_t state)
{
    STOW__CHECK_VOID(h != NULL, "stow_heap_unlock: heap is NULL");
    stow_port_unlock(&h->lock, state);
}

void *stow_heap_alloc_isr(stow_heap_t *h, size_t size)
{
    STOW__CHECK(h != NULL, "stow_heap_alloc: heap is NULL", NULL);
    uint32_t state = stow_port_lock(&h->lock);
    void *p = stow_heap_alloc(h, size);
    stow_port_unlock(&h->lock, state);
    return p;
}

void stow_heap_free_isr(stow_heap_t *h, void *p)
{
    STOW__CHECK_VOID(h != NULL, "stow_heap_free: heap is NULL");
    uint32_t state = stow_port_lock(&h->lock);
    stow_heap_free(h, p);
    stow_port_unlock(&h->lock, state);
}

void *stow_heap_realloc_isr(stow_heap_t *h, void *p, size_t size)
{
    STOW__CHECK(h != NULL, "stow_heap_realloc: heap is NULL", NULL);
    uint32_t state = stow_port_lock(&h->lock);
    void *q = stow_heap_realloc(h, p, size);
    stow_port_unlock(&h->lock, state);
    return q;
}

/* ---- init, stats, check ------------------------------------------------------------------------ */

FN bool stow_heap_init(stow_heap_t *h, void *buf, size_t size)
{
    STOW__CHECK(h != NULL, "stow_heap_init: heap is NULL", false);
    struct layout l;
    /* Below STOW_HEAP_MIN_BYTES is refused as documented, even where one
     * minimum block would still fit. */
    if (buf == NULL || !stow__is_aligned(buf, ALIGN) || (uint64_t)size < STOW_HEAP_MIN_BYTES ||
        !layout_of((unsigned char *)buf, size, &l)) {
        return false;
    }
    h->buf = (unsigned char *)buf;
    h->size = size;
    h->config = NULL;
    h->lock = 0u;
    h->fails = 0u;
    h->peak = 0u;
    (void)lay_out(h); /* cannot fail: layout_of() just succeeded */
    return true;
}

FN void stow_heap_stats(const stow_heap_t *h, stow_stats_t *out)
{
    STOW__CHECK_VOID(h != NULL && out != NULL, "stow_heap_stats: heap or out is NULL");
    size_t capacity = 0u;
    if (h->first != NULL) {
        capacity = (size_t)(h->limit - h->first);
    } else {
        struct layout l;
        if (layout_of(h->buf, h->size, &l)) {
            capacity = (size_t)(l.limit - l.first);
        }
    }
    out->capacity = capacity;
    out->used = h->used;
    out->peak = h->used > h->peak ? h->used : h->peak;
    out->fails = h->fails;
}

FN size_t stow_heap_largest_free(const stow_heap_t *h)
{
    STOW__CHECK(h != NULL, "stow_heap_largest_free: heap is NULL", 0u);
    if (h->first == NULL) {
        struct layout l;
        return layout_of(h->buf, h->size, &l) ? (size_t)(l.limit - l.first) - HEADER - TAIL : 0u;
    }
    if (h->classes_used == 0u) {
        return 0u;
    }
    node_t *n = h->classes[lowest_bit(h->classes_used)].next;
    return head_of(block_of(n)) - HEADER - TAIL;
}

/* One size class's list: a proper circle of free blocks of that class inside
 * the heap, each linked both ways. Counts them into *count. */
static FN bool class_ok(const stow_heap_t *h, size_t c, size_t *count)
{
    const node_t *head = &h->classes[c];
    const node_t *prev = head;
    size_t n = 0;
    size_t most = (size_t)(h->limit - h->first) / MIN_BLOCK;
    /* A link is followed only once it is known to point into the heap: each node
     * is tested before it is read, and its prev must be the node before it. */
    for (const node_t *x = head->next; x != head; prev = x, x = x->next) {
        uintptr_t at = (uintptr_t)x; /* no pointer arithmetic on a link not yet known good */
        if (at < (uintptr_t)h->first + WORD || at >= (uintptr_t)h->limit + WORD ||
            ((at - WORD + HEADER) & (ALIGN - 1u)) != 0u || x->prev != prev || n++ > most) {
            return false;
        }
        unsigned char *b = block_of((node_t *)(uintptr_t)x);
        size_t head_word = head_of(b);
        if ((head_word & FLAGS) != 0u || head_word < MIN_BLOCK || class_of(head_word) != c) {
            return false;
        }
    }
    if ((n != 0u) != (((h->classes_used >> c) & 1u) != 0u) || head->prev != prev) {
        return false;
    }
    *count += n;
    return true;
}

FN bool stow_heap_check(const stow_heap_t *h)
{
    STOW__CHECK(h != NULL, "stow_heap_check: heap is NULL", false);
    if (h->first == NULL) {
        return h->used == 0u && h->classes_used == 0u;
    }
    struct layout l;
    if (!layout_of(h->buf, h->size, &l) || l.first != h->first || l.limit != h->limit ||
        h->max_size != (size_t)(h->limit - h->first) - HEADER - TAIL) {
        return false;
    }
    size_t listed = 0;
    for (size_t c = 0; c < STOW__HEAP_CLASSES; c++) {
        if (!class_ok(h, c, &listed)) {
            return false;
        }
    }
    size_t free_blocks = 0;
    size_t live_blocks = 0;
    size_t used = 0;
    bool prev_free = false;
    unsigned char *b = h->first;
    while (b < h->limit) {
        size_t head = head_of(b);
        size_t size = size_of(head);
        bool is_free = (head & USED) == 0u;
        if (size < MIN_BLOCK || (size & (ALIGN - 1u)) != 0u || size > (size_t)(h->limit - b) ||
            ((head & PREV_FREE) != 0u) != prev_free || (is_free && prev_free)) {
            return false;
        }
#if STOW_CHECK_LEVEL >= 1
        if (starts_live(h, b) == is_free) {
            return false;
        }
#endif
        if (is_free) {
            free_blocks++;
            if (*word_at(b + size - WORD) != size) {
                return false;
            }
#if STOW_CHECK_LEVEL >= 2
            if (size > 4u * WORD && !stow__poison_intact(b + 3u * WORD, size - 4u * WORD)) {
                return false;
            }
#endif
        } else {
            live_blocks++;
            used += size;
            /* A block allocated with more than ALIGN keeps that alignment in word
             * 1 (for realloc): a power of two its payload meets. */
            size_t align = word_at(b)[1];
            if ((head & ALIGNED) != 0u &&
                (align <= ALIGN || !stow__is_pow2(align) || !stow__is_aligned(b + HEADER, align))) {
                return false;
            }
#if STOW_CHECK_LEVEL >= 2
            if (!canary_intact(b)) {
                return false;
            }
#endif
        }
        prev_free = is_free;
        b += size;
    }
    size_t end = head_of(h->limit);
    if (b != h->limit || size_of(end) != 0u || (end & USED) == 0u || ((end & PREV_FREE) != 0u) != prev_free ||
        free_blocks != listed || used != h->used) {
        return false;
    }
#if STOW_CHECK_LEVEL >= 1
    /* Every live start has its bit (the walk saw to that); no other bit is set,
     * in the granules between starts or in the last word's spare bits. */
    size_t words = ((((size_t)(h->limit - h->first)) >> ALIGN_SHIFT) + 31u) >> 5;
    size_t bits = 0;
    for (size_t w = 0; w < words; w++) {
        for (uint32_t x = h->starts[w]; x != 0u; x &= x - 1u) {
            bits++;
        }
    }
    if (bits != live_blocks) {
        return false;
    }
#else
    (void)live_blocks;
#endif
    return true;
}

/* The report's view of a heap (stow/report.h). */
STOW__REGISTRY_KIND(heap, stow_heap_t, true);
