/* SPDX-License-Identifier: MIT */
/* heap.c - a variable-size heap over static storage, in bounded time. See stow/heap.h.
 *
 * Regions. Each region's storage holds a row of blocks [first, limit) that tile
 * it with no gap, then a word at limit that ends them (it reads as a live block
 * of size 0, so no walk and no merge needs a bounds test; in region 0 of a
 * default heap, as the empty top when the top is used up), then, in region 0
 * only, the pages of slots up to top, and at check levels 1 and 2 the region's
 * live-start bit map from top on. A region added later keeps its description
 * (stow_heap_region_t) at its start, before its row; region 0's is in the heap
 * object. Regions are a list (region 0 first); nothing at level 0 looks a
 * region up, because a block's neighbours are found from its own words, and a
 * row's first block and its end word stop every merge at the region's edge.
 *
 * Blocks. Every block size is a multiple of ALIGN (STOW_HEAP_ALIGN) and at least
 * MIN_BLOCK; block starts are ALIGN - WORD past an ALIGN boundary, so every
 * payload (block + one word) is aligned to ALIGN.
 *   word 0: the size | USED | PREV_FREE | ALIGNED. PREV_FREE says that the block
 *     before is free, and so that the word before this block is that free
 *     block's size (its footer). In a free block, whose predecessor is never
 *     free, the same bit is IS_TOP: set on the top alone.
 *   live block: payload from word 1; when ALIGNED is set (it was allocated with
 *     more than ALIGN), its last word is that alignment, for realloc; at level
 *     2 the word before (or the last) holds the requested size, and the bytes
 *     between the request and it 0xDD (the canary).
 *   free block: word 1 the next block of its class, word 2 the address of the
 *     word that points to this block (the class's head, or word 1 of the block
 *     before it in the class: an "hlist", which unlinks without knowing its
 *     class and needs one word per class head), its last word its size again
 *     (the footer; the top keeps none: no block after it is ever freed). Word
 *     0 is the size alone (and IS_TOP): the block before a free block is never
 *     free, and a free block is not USED.
 *   the top: region 0's last block, when it is free, is not in a class (h->top,
 *     its header IS_TOP): what no class can serve is carved from its low end,
 *     pages come from its high end and go back to it, and frees next to it grow
 *     it, with no class bit to touch (dlmalloc's "top chunk"). A default heap
 *     always has one: when it is used up (a carve or a page takes all of it),
 *     the top is empty, h->top is region 0's end word and that word reads as a
 *     free block of size 0 marked IS_TOP, so that a block freed next to it
 *     joins it as it would join any top (and writes the end word back). The
 *     top's free neighbour test is its header's flag (no load of h->top). A
 *     bounded heap has no top: its last free block is in its class like any
 *     other, as its policy needs.
 *
 * Size classes. Below 4 ALIGN one class per size (a multiple of ALIGN); above,
 * four per power of two: class_of(size) = 4 s + (size >> s) - CLASS0 +
 * FIRST_CLASS, s = max(log2(size), 2 + ALIGN_SHIFT) - 2, the size's top three
 * bits giving the class in its power of two (94 classes on 32-bit targets, 138
 * on 64-bit ones). A class is numbered by the word of the heap object that
 * holds its head (heads[c - FIRST_CLASS]), and on 32-bit targets with an
 * ALIGN of 8 (Cortex-M) the object's words before heads[] are as many as
 * CLASS0 (14), so class_of() is 4 s + (size >> s) exactly; the word that
 * points to a class's first block names the class. A bit per class in four
 * words (classes[], the object's first words: class c's is classes[c / BITS])
 * says which classes have a block, from each word's top bit down where the
 * core counts leading zeros (else from bit 0 up): the smallest non-empty class
 * at or above c is one shift and one count away (up to three word tests more
 * when it is in a later word: the first word holds the classes below 512
 * bytes on Cortex-M, the second those below 128 KiB, the fourth only blocks
 * of 32 MiB and more), and a class that fills or empties changes one word,
 * its bit a rotate of c. TLSF
 * keeps two levels of bits (a word of powers of two, a word of classes per
 * power) so that any number of classes fits; four words are enough here,
 * and a block's class change costs one read-modify-write instead of two.
 * Eight classes per power of two (TLSF's usual count) gave the same smallest
 * heap on the lua and openssl traces and 0.8% less on python's (1411 KiB
 * against 1422 KiB, Cortex-M4): slots and the top, not the class width,
 * decide the RAM here.
 *
 * Slots. A request of up to SMALL_MAX bytes (default policy) takes a slot of 1-7
 * or 9 granules (ALIGN bytes; the sizes with 63, 31, 21, 15, 12, 10, 9 and 7 to
 * a page: none wasted at the page's end but for 5 and 6 granules) from a page of
 * PAGE = 64 ALIGN bytes that holds slots of one size after a header of one
 * granule: offset of the first free slot (0: full), slots in use, the slot
 * size in bytes (SPARE, no multiple of ALIGN: an empty page), and the page's
 * next and previous in its list, by number (page n at top - n PAGE). The size,
 * not the class: alloc and free need the size on every call (one load, no
 * table), the class only when a page fills, empties or is taken.
 * A free slot's first two bytes hold the offset of the next free one, or VIRGIN
 * (1, odd: no offset) when it and every slot after it were never handed out: a
 * new page is ready with two stores and no loop. Pages are taken at region 0's
 * top, from the top block's high end, one at a time, so the pages are one run
 * [zone_lo, top) and a pointer is a slot exactly when it is in that run (one
 * unsigned compare with zone_len, top - zone_lo). A page with a free slot is
 * in its class's list (avail[k]: k is a request's granules less one, at most
 * 7, which the fast path computes with one saturating instruction where the
 * core has one, and a table gives elsewhere; a full page is in none). An
 * empty page goes back to the top when it is the lowest
 * (zone_lo), together with the run of empty pages just above it; else it joins
 * the empty pages next to it in a run (kept whole like a free block: its lowest
 * page on the spare list, and it and the highest page say how many pages the
 * run has), from which the next page is taken before the top is cut. So empty
 * pages never wait at the bottom, and all of them go back in O(1) as the pages
 * below them empty.
 *
 * Default policy (good fit). Slots for small requests, while a page has one
 * or one can be had; else a block. A block for need bytes (the request, the
 * header, at level 2 the size word, rounded to ALIGN): the first block of need's
 * own class if it is large enough ("exact class first"), else the first block
 * of the smallest non-empty class above (all of whose blocks fit), else the
 * top; the rest of the block stays free when it can stand as a block. Free
 * merges a block with free neighbours at once. A free block, whole, merged or
 * the rest of a split, goes first in its class (a class is a stack). realloc
 * shrinks in place, grows in place into a free next block (or the top), else
 * moves. This is TLSF's good fit (Masmano et al., "TLSF: a new dynamic memory
 * allocator for real-time systems", 2004) with exact-class-first, plus
 * segregated slots for small sizes. It has no useful proven bound: TLSF's is
 * best fit's, about M (n - 2) for M bytes live and blocks of 1 to n units
 * (Robson, "Worst case fragmentation of first fit and best fit storage
 * allocation strategies", Computer Journal 20(3), 1977; o1heap cites it as
 * 1975), and one live slot keeps a whole page.
 *
 * Bounded policy (half fit). No slots and no top. A request takes a block of
 * pow = need rounded up to a power of two, from the smallest non-empty class
 * at or above pow's (every block there holds pow: a power of two starts a
 * class), carved from its start; only when no class has one is the first block
 * of the highest class tried for need exactly. realloc keeps the block when
 * the new size takes the same pow; else it moves (allocates, copies, frees),
 * and only when that allocation fails does a shrink stay in place or a grow
 * fail. This is the half fit of o1heap (Kirienko; after Ogasawara, "An
 * algorithm with constant execution time for dynamic storage allocation",
 * 1995), refined only in which block of the smallest non-empty power of two
 * is taken (one of its smallest quarter).
 *
 * The bound. o1heap documents for half fit H = 2 M (1 + ceil(log2 n)) bytes,
 * after J. M. Robson's analyses of allocators whose blocks are powers of two
 * ("Bounds for some functions concerning dynamic storage allocation", J. ACM
 * 21(3), 1974; and the first-fit and best-fit paper above), M the most
 * requested bytes live and n the ratio of the largest request to the smallest;
 * the 2 is the rounding of a request up to its power of two. Counted in block
 * bytes, as here: blocks of M (1 + log2(n / m)) bytes, M the most block bytes
 * live at once, n the largest block and m the smallest, are never exhausted.
 * Why a logarithm and not n / m: a request of 2^k bytes fails only when every
 * free block is smaller than 2^k, and since free blocks never touch, each lies
 * between live blocks. Because a request takes the smallest class that fits,
 * small requests refill small holes before they split larger ones, so an
 * adversary that wants every hole too small for 2^k must build those holes out
 * of blocks of each smaller power in turn, and each layer of holes costs it
 * about M of live memory that it must free again to build the next: log2(n /
 * m) layers, plus the live blocks themselves. (Robson showed that the best
 * possible strategy for powers of two needs M (1 + (1/2) log2 n) and that no
 * strategy can do with less; the policy here is not that strategy, and the
 * figure it is sized by is the larger one.) That is the idea of the argument,
 * not a proof written out for this exact policy; what stands behind the figure
 * here is the literature and the tests: tests/test_heap.c runs adversaries
 * that use the addresses they get (Robson's ladder, with the pins shrunk or
 * freed; random splitting; the shrink-pin workload) against bounded heaps of
 * STOW_HEAP_BYTES_FOR_MIN's size for fourteen sets of limits at every check
 * level, and none of them gets NULL, while each of them does get NULL from a
 * heap a third to a tenth of that size (the figures print with the test).
 * The argument holds for the pure policy: the exact fallback, and a shrink that
 * stays because its move failed, happen only where the pure policy would have
 * failed, which within the limits it does not. A shrink in place used to break
 * it: it let the caller, not the policy, choose where a small block sits (the
 * shrink-pin workload); so a bounded heap moves it, and the limits count a
 * moving realloc's old and new size together. stow/heap.h turns requested
 * bytes into block bytes (the most block bytes a requested byte can cost:
 * BLOCK(m) / m for the smallest request m, or at the first request whose block
 * doubles; m is BLOCK(min_request), the smallest block such requests take) and
 * adds the heap's own words. With several regions, blocks never span two, and
 * the figure is claimed for one region only.
 *
 * Invariants (stow_heap_check tests each one):
 *   - each region is laid out where its storage says; its blocks tile [first,
 *     limit) exactly, each size a multiple of ALIGN, at least MIN_BLOCK; its
 *     end word is USED with size 0 and PREV_FREE exactly when its last block
 *     is free (or is the empty top, below); region 0's limit is one word below
 *     zone_lo, and [zone_lo, top) is whole pages, zone_len bytes;
 *   - no two free blocks are neighbours; PREV_FREE is set exactly on the live
 *     blocks that follow a free block; a free block's footer equals its size
 *     (but the top's);
 *   - every free block but the top is in the class of its size, once, linked
 *     both ways; class bits are set exactly for the non-empty classes (none
 *     past the last class); IS_TOP is set on the top's header alone; a default
 *     heap has a top, a bounded one none: region 0's last block, free, or
 *     empty: region 0's end word, reading IS_TOP alone, after a live block;
 *   - a page is either in use (its slot size one of the eight, its free slots
 *     each once on its class's grid, the never handed out ones from the VIRGIN
 *     mark to the end, its count of live slots right and not 0) or the lowest
 *     of a run of empty pages (its count and the highest page's agree, no
 *     empty page next to the run, not at the bottom); the pages with a free
 *     slot are exactly those in their class's list, the runs exactly those in
 *     the spare list;
 *   - used is the sum of the live slots' and blocks' sizes (peak may lag behind
 *     it: it catches up when used next falls, see lower_used());
 *   - a live block marked ALIGNED keeps in its last word a power of two above
 *     ALIGN that its payload meets;
 *   - level >= 1: a region's bit i is set exactly when a live slot or block's
 *     payload is at first + WORD + i * ALIGN;
 *   - level 2: free blocks hold 0xDD but for their four words, free slots but
 *     for their two link bytes, empty pages but for their header; canaries of
 *     live slots and blocks are intact.
 *
 * Level 2 poison is kept without walking: a freed block or slot is filled
 * whole, and when blocks merge, the words that stop being metadata (the next
 * block's first three words, the previous block's footer) are filled too.
 * Taking a block checks only the bytes it takes; splitting writes new metadata
 * over poison, which the next check knows not to look at.
 */
#include "stow/heap.h"
#include "internal.h"

#define WORD sizeof(size_t)
#define HEADER STOW_HEAP_OVERHEAD
#define ALIGN STOW_HEAP_ALIGN
#define ALIGN_SHIFT STOW__HEAP_ALIGN_SHIFT
#define MIN_BLOCK STOW_HEAP_MIN_BLOCK
#define TAIL STOW__HEAP_TAIL
#define BITS (sizeof(size_t) * (size_t)CHAR_BIT)
#define USED ((size_t)1u)
#define PREV_FREE ((size_t)2u)
#define ALIGNED ((size_t)4u)
#define FLAGS (USED | PREV_FREE | ALIGNED)
#define IS_TOP PREV_FREE              /* in a free block's header: it is the top (no other free block has the flag) */
#define SL_BITS 2u                    /* four classes per power of two */
/* Classes are numbered by the word of the heap object that holds their head:
 * MIN_BLOCK's class is FIRST_CLASS (14 on Cortex-M). CLASS0 is what the
 * formula (s << SL_BITS) + (size >> s) gives for MIN_BLOCK (also 14 there). */
#define FIRST_CLASS (offsetof(stow_heap_t, heads) / WORD)
#define CLASS0 ((ALIGN_SHIFT << SL_BITS) + MIN_BLOCK / ALIGN)
#define CLASSES STOW__HEAP_CLASSES
#define END_CLASS (FIRST_CLASS + CLASSES)
#define NO_CLASS (~(size_t)0)         /* search_from()'s answer when no class has a block */
#define BLOCK_LIMIT ((size_t)1u << STOW__HEAP_LOG2_LIMIT) /* every block is smaller */
#define PAGE (64u * ALIGN)
#define PAGE_SHIFT (6u + ALIGN_SHIFT)
#define META ALIGN                    /* a page's header */
#define SMALL_MAX STOW_HEAP_SMALL_MAX
#define VIRGIN 1u                     /* a free slot whose successors were never handed out (odd: no offset) */
#define SPARE 0xFFu                   /* the class of an empty page */
#define MAX_PAGES 0xFFFFu
/* alloc's fast paths, inline; not in a build for size (-Os) nor at level 2. */
#if STOW_CHECK_LEVEL < 2 && !defined(__OPTIMIZE_SIZE__)
#define FAST_PATHS 1
#else
#define FAST_PATHS 0
#endif

/* A branch the compiler should lay out of line (GCC and clang). */
#if defined(__GNUC__)
#define UNLIKELY(x) __builtin_expect((x), 0)
#else
#define UNLIKELY(x) (x)
#endif

/* In line wherever it is called, for the fast paths. */
#if FAST_PATHS && defined(__GNUC__)
#define HOT inline __attribute__((always_inline))
#elif FAST_PATHS
#define HOT inline
#else
#define HOT /* the compiler's choice, for size */
#endif

/* In line in the fast paths, out of line in a build for size. */
#if FAST_PATHS
#define HOT_OR_APART HOT
#else
#define HOT_OR_APART STOW__NOINLINE
#endif

/* Out of line in a build for size, in line otherwise. */
#if defined(__OPTIMIZE_SIZE__)
#define SIZE_NOINLINE STOW__NOINLINE
#else
#define SIZE_NOINLINE inline
#endif

/* The library's half of STOW_HEAP_TRACE's link-time check (stow/heap.h). */
#if STOW__HAVE_GUARD
__attribute__((weak)) const char STOW__GUARD_SYMBOL(STOW__HEAP_GUARD_TRACE) = 1;
#endif

STOW_STATIC_ASSERT(sizeof(size_t) == sizeof(void *), "the heap keeps sizes and links in the same words");
STOW_STATIC_ASSERT(HEADER == WORD, "a block's header is one word");
STOW_STATIC_ASSERT(((size_t)1u << ALIGN_SHIFT) == ALIGN, "STOW_HEAP_ALIGN must be 8 or 16");
STOW_STATIC_ASSERT(MIN_BLOCK <= 2u * ALIGN, "a front gap of one granule must be avoidable");
STOW_STATIC_ASSERT(STOW__HEAP_CLASS_WORDS == 4u && END_CLASS < 4u * BITS,
                   "the class bits fit four words, with one to spare (search_from)");
STOW_STATIC_ASSERT((size_t)offsetof(stow_heap_t, heads) % WORD == 0u && (size_t)offsetof(stow_heap_t, classes) == 0u,
                   "the class heads and bits are words of the heap object, the bits first");

/* Every function here reads and writes the heap's own words inside free blocks,
 * which an ASan build poisons: the sanitizer must not check the library's own
 * accesses (the user's are checked). All of them carry the attribute, so that
 * they inline into one another. */
#define FN STOW__NO_ASAN

typedef size_t STOW__MAY_ALIAS word_t;
typedef uint16_t STOW__MAY_ALIAS half_t;
typedef struct {
    uint16_t free; /* the offset of the first free slot, or 0 when the page is full */
    uint8_t used;  /* slots handed out */
    uint8_t slot;  /* the slot size in bytes, or SPARE (no slot size: not a multiple of ALIGN) */
    uint16_t next; /* the next page of its list (by number), or 0 */
    uint16_t prev; /* the previous one, or 0 when the page heads its list */
} STOW__MAY_ALIAS page_t;
typedef stow_heap_region_t region_t;

STOW_STATIC_ASSERT(sizeof(page_t) <= META, "a page's header fits its first granule");
STOW_STATIC_ASSERT(SPARE % ALIGN != 0u, "SPARE is no slot size");
STOW_STATIC_ASSERT((size_t)offsetof(stow_heap_t, classes) < (size_t)offsetof(stow_heap_t, heads) &&
                       (size_t)offsetof(stow_heap_t, avail) < (size_t)offsetof(stow_heap_t, heads) &&
                       (size_t)offsetof(stow_heap_t, bounded) < (size_t)offsetof(stow_heap_t, heads) &&
                       (size_t)offsetof(stow_heap_t, fast_max) < (size_t)offsetof(stow_heap_t, heads) &&
                       (size_t)offsetof(stow_heap_t, heads) ==
                           sizeof(((stow_heap_t *)0)->classes) + sizeof(((stow_heap_t *)0)->avail) + 2u * WORD,
                   "lay_out clears the words before heads[] and heads[] as one run (bounded kept)");
STOW_STATIC_ASSERT(sizeof(void *) == WORD && sizeof(unsigned char *) == WORD,
                   "the lists lay_out clears are of words");

/* ---- words ------------------------------------------------------------------------ */

static FN inline word_t *W(unsigned char *p) { return (word_t *)(void *)p; }
static FN inline size_t head_of(unsigned char *b) { return *W(b); }
static FN inline void set_head(unsigned char *b, size_t w) { *W(b) = w; }
static FN inline size_t size_of(size_t head) { return head & ~FLAGS; }
static FN inline page_t *P(unsigned char *page) { return (page_t *)(void *)page; }
static FN inline half_t *H(unsigned char *p) { return (half_t *)(void *)p; }

/* Two neighbouring words at base + at (used and peak, top and zone_lo,
 * zone_lo and zone_len in the heap object; the next and previous links of a
 * free block), read into w0 and w1 or written together: on Thumb-2 with one
 * LDRD or STRD (GCC does not merge two accesses on Cortex-M); elsewhere one
 * by one. at is a constant. */
#if defined(__arm__) && defined(__thumb2__) && defined(__GNUC__)
#define LOAD_PAIR(base, at, w0, w1)                                                           \
    __asm__("ldrd %0, %1, [%2, %3]"                                                           \
            : "=r"(w0), "=r"(w1)                                                              \
            : "r"(base), "I"(at),                                                             \
              "m"(*(const size_t(*)[2])(const void *)((const unsigned char *)(base) + (at))))
#define SET_PAIR(base, at, w0, w1)                                                            \
    __asm__("strd %1, %2, [%3, %4]"                                                           \
            : "=m"(*(size_t(*)[2])(void *)((unsigned char *)(base) + (at)))                   \
            : "r"(w0), "r"(w1), "r"(base), "I"(at))
/* zone_lo and zone_len into r2 and r3: free's slot path then runs in r0-r3
 * and r12 (GCC's own choice needs one more register, pushed). */
#define LOAD_ZONE(h, lo, len)                                                                 \
    do {                                                                                      \
        register size_t lo_ __asm__("r2");                                                    \
        register size_t len_ __asm__("r3");                                                   \
        LOAD_PAIR(h, offsetof(stow_heap_t, zone_lo), lo_, len_);                              \
        (lo) = lo_;                                                                           \
        (len) = len_;                                                                         \
    } while (0)
#else
#define LOAD_PAIR(base, at, w0, w1)                                                           \
    do {                                                                                      \
        (w0) = W((unsigned char *)(base) + (at))[0];                                          \
        (w1) = W((unsigned char *)(base) + (at))[1];                                          \
    } while (0)
#define SET_PAIR(base, at, w0, w1)                                                            \
    do {                                                                                      \
        W((unsigned char *)(base) + (at))[0] = (w0);                                          \
        W((unsigned char *)(base) + (at))[1] = (w1);                                          \
    } while (0)
#define LOAD_ZONE(h, lo, len) LOAD_PAIR(h, offsetof(stow_heap_t, zone_lo), lo, len)
#endif
STOW_STATIC_ASSERT((size_t)offsetof(stow_heap_t, peak) == (size_t)offsetof(stow_heap_t, used) + WORD &&
                       (size_t)offsetof(stow_heap_t, zone_lo) == (size_t)offsetof(stow_heap_t, top) + WORD &&
                       (size_t)offsetof(stow_heap_t, zone_len) == (size_t)offsetof(stow_heap_t, zone_lo) + WORD,
                   "used and peak, top, zone_lo and zone_len are neighbours (LOAD_PAIR)");


/* ---- bit scans ---------------------------------------------------------------------- *
 *
 * floor(log2 x) and count-trailing-zeros come from the compiler's builtins where
 * the core has an instruction for them (CLZ on Armv7-M and later; x86; RISC-V
 * with Zbb). Elsewhere (Armv6-M: Cortex-M0/M0+, Armv8-M baseline, rv32 without
 * Zbb) they are branch-free: smear the bits below the top one, or isolate the
 * lowest one, and look the result up by a de Bruijn multiply. */
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
static FN inline size_t log2_of(size_t x) { return BITS - 1u - CLZ(x); }
static FN inline size_t lowest_bit(size_t x) { return CTZ(x); }
/* With a count-leading-zeros instruction, the class bits run from the top of
 * each word down (see "Size classes"). */
#define BITS_DOWN 1
#else
#define BITS_DOWN 0
static FN inline uint32_t log2_floor32(uint32_t x)
{
    static const unsigned char debruijn_floor[32] = {0,  9,  1,  10, 13, 21, 2,  29, 11, 14, 16,
                                                     18, 22, 25, 3,  30, 8,  12, 20, 28, 15, 17,
                                                     24, 7,  19, 27, 23, 6,  26, 5,  4,  31};
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    return debruijn_floor[(uint32_t)(x * 0x07C4ACDDu) >> 27];
}
static FN inline uint32_t lowest_bit32(uint32_t x)
{
    static const unsigned char debruijn_low[32] = {0,  1,  28, 2,  29, 14, 24, 3,  30, 22, 20,
                                                   15, 25, 17, 4,  8,  31, 27, 13, 23, 21, 19,
                                                   16, 7,  26, 12, 18, 6,  11, 5,  10, 9};
    return debruijn_low[(uint32_t)((x & (0u - x)) * 0x077CB531u) >> 27];
}
#if SIZE_MAX <= UINT32_MAX
static FN inline size_t log2_of(size_t x) { return log2_floor32((uint32_t)x); }
static FN inline size_t lowest_bit(size_t x) { return lowest_bit32((uint32_t)x); }
#else
static FN inline size_t log2_of(size_t x)
{
    uint32_t high = (uint32_t)(x >> 32);
    return high != 0u ? 32u + log2_floor32(high) : log2_floor32((uint32_t)x);
}
static FN inline size_t lowest_bit(size_t x)
{
    uint32_t low = (uint32_t)x;
    return low != 0u ? lowest_bit32(low) : 32u + lowest_bit32((uint32_t)(x >> 32));
}
#endif
#endif

/* ---- sizes ------------------------------------------------------------------------- */

/* The block a request of size bytes needs (size <= max_size, so this cannot
 * overflow): size, the header and at level 2 the size word, rounded up to
 * ALIGN, and at least MIN_BLOCK. */
static FN inline size_t exact_block(size_t size)
{
    size_t exact = (size + HEADER + TAIL + ALIGN - 1u) & ~(ALIGN - 1u);
    return exact < MIN_BLOCK ? MIN_BLOCK : exact;
}

/* Slots: class k holds slots of units[k] * ALIGN bytes, 63 / units of them
 * to a page (63, 31, 21, 15, 12, 10, 9, 7: each size the largest with that
 * many in the 63 granules after the page header). A request of u granules
 * (size + TAIL rounded up; 0 counts as 1) takes class unit_class[u]. A
 * class's slot size in bytes (at most 9 ALIGN: a byte) is one load from a
 * table of its own. */
#define SLOT_SIZE(units) ((units) * ALIGN)
STOW_STATIC_ASSERT(SLOT_SIZE(9u) <= 0xFFu, "a slot size fits a byte");

static FN inline size_t slot_bytes(size_t k)
{
    static const unsigned char slot_size[STOW__HEAP_SLOT_CLASSES] = {
        SLOT_SIZE(1u), SLOT_SIZE(2u), SLOT_SIZE(3u), SLOT_SIZE(4u),
        SLOT_SIZE(5u), SLOT_SIZE(6u), SLOT_SIZE(7u), SLOT_SIZE(9u)};
    return slot_size[k];
}
static FN inline size_t slot_class(size_t size)
{
    static const unsigned char unit_class[10u] = {0u, 0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 7u};
    return unit_class[(size + TAIL + ALIGN - 1u) >> ALIGN_SHIFT];
}
#if FAST_PATHS
/* The class of a request of size bytes (at most SMALL_MAX), for the fast
 * path: where the core saturates in one instruction (USAT), computed rather
 * than looked up, the request's granules less one, at most 7 (the last class
 * serves 8 and 9 granules): size 0 gives -1, which saturates to class 0.
 * GCC and clang shift a negative value arithmetically (C11 leaves it to the
 * implementation). */
static FN inline size_t slot_class_fast(size_t size)
{
#if defined(__GNUC__) && defined(__ARM_FEATURE_SAT)
    ptrdiff_t k = ((ptrdiff_t)(size + TAIL) - 1) >> ALIGN_SHIFT;
    k = k < 0 ? 0 : k > (ptrdiff_t)STOW__HEAP_SLOT_CLASSES - 1 ? (ptrdiff_t)STOW__HEAP_SLOT_CLASSES - 1 : k;
    return (size_t)k;
#else
    return slot_class(size);
#endif
}
#endif

/* ---- size classes --------------------------------------------------------------------- *
 *
 * Free blocks are kept in classes: below 4 ALIGN one per size (a multiple of
 * ALIGN), above that four per power of two. With s = max(log2(size), 2 +
 * ALIGN_SHIFT) - 2, the top three bits of the size, size >> s, give the class
 * within its power of two; a class is numbered by the word of the heap object
 * that holds its head, (s << 2) + (size >> s) - CLASS0 + FIRST_CLASS, so that
 * the head of class c is the object's word c (heads[c - FIRST_CLASS]) and the
 * word that points to the first block of a class (word 2 of that block) names
 * its class. A bit per class, in the four words of classes[], says which
 * classes have a block: class c's is in classes[c / BITS], counted from the
 * word's top bit down where the core counts leading zeros in one instruction
 * (else from bit 0 up), so that the smallest non-empty class at or above c is
 * one shift and one count away, or up to three word tests more when it is in
 * a later word. There is no second level to keep: a class that fills or
 * empties touches one word. classes[] is the object's first words, so class
 * c's word of bits is the object's word c / BITS, and its bit c % BITS from
 * the top (one rotate). On Cortex-M FIRST_CLASS and CLASS0 are both 14, and
 * class_of() adds nothing to 4 s + (size >> s). */
static FN inline word_t *head_at(stow_heap_t *h, size_t c) { return &W((unsigned char *)h)[c]; }

static FN inline size_t class_shift(size_t size) { return log2_of(size | (ALIGN << SL_BITS)) - SL_BITS; }
static FN inline size_t class_at(size_t size, size_t s)
{
    return ((s << SL_BITS) + (size >> s) + FIRST_CLASS) - CLASS0; /* 0 is added on Cortex-M */
}
static FN inline size_t class_of(size_t size) { return class_at(size, class_shift(size)); }

/* The word of class bits that holds class c's. */
static FN inline word_t *bits_at(stow_heap_t *h, size_t c) { return (word_t *)&h->classes[c / BITS]; }

/* Class c's bit in its word. */
static FN inline size_t bit_of(size_t c)
{
#if BITS_DOWN
    /* the top bit rotated right by c % BITS: one rotate of a constant (on ARM,
     * whose rotate takes the amount modulo 32, written out: GCC would mask it
     * first) */
    const size_t top = (size_t)1u << (BITS - 1u);
#if defined(__arm__) && defined(__thumb2__)
    size_t bit;
    (void)c; /* read by the asm statement (which a static analyser may not read) */
    __asm__("ror %0, %1, %2" : "=r"(bit) : "r"(top), "r"(c));
    return bit;
#else
    return (top >> (c % BITS)) | (top << ((0u - c) % BITS));
#endif
#else
    return (size_t)1u << (c % BITS);
#endif
}

/* The first class whose bit is set in x, a word of class bits shifted so that
 * class c's bit comes first, counting from c; x is not 0. */
static FN inline size_t first_from(size_t c, size_t x)
{
#if BITS_DOWN
    return c + CLZ(x);
#else
    return c + lowest_bit(x);
#endif
}

/* The word of class bits x with the bits of the classes below c (in its
 * word) taken out, shifted so that class c's comes first. */
static FN inline size_t bits_from(size_t x, size_t c)
{
#if BITS_DOWN
    return x << (c % BITS);
#else
    return x >> (c % BITS);
#endif
}

/* The highest class whose bit is set in x, class bits word w (not 0). */
static FN inline size_t last_in(size_t w, size_t x)
{
#if BITS_DOWN
    return w * BITS + (BITS - 1u - lowest_bit(x));
#else
    return w * BITS + log2_of(x);
#endif
}

/* The first class with a block in the words of bits after c's, or NO_CLASS. */
static FN inline size_t search_after(const stow_heap_t *h, size_t c)
{
    size_t w = c / BITS;
    if (w < 1u && h->classes[1] != 0u) {
        return first_from(BITS, h->classes[1]);
    }
    if (w < 2u && h->classes[2] != 0u) {
        return first_from(2u * BITS, h->classes[2]);
    }
    if (w < 3u && h->classes[3] != 0u) {
        return first_from(3u * BITS, h->classes[3]);
    }
    return NO_CLASS;
}

/* The smallest non-empty class at or above c (at most END_CLASS), or NO_CLASS. */
static FN inline size_t search_from(stow_heap_t *h, size_t c)
{
    size_t here = bits_from(*bits_at(h, c), c);
    return here != 0u ? first_from(c, here) : search_after(h, c);
}

/* The highest non-empty class, or NO_CLASS. */
static FN inline size_t highest_class(const stow_heap_t *h)
{
    size_t w = 0u;
    if (h->classes[3] != 0u) {
        w = 3u;
    } else if (h->classes[2] != 0u) {
        w = 2u;
    } else if (h->classes[1] != 0u) {
        w = 1u;
    } else {
        /* the first word, or none */
    }
    return h->classes[w] != 0u ? last_in(w, h->classes[w]) : NO_CLASS;
}

/* Class c gained its first block, or lost its last: its bit. */
static FN inline void class_filled(stow_heap_t *h, size_t c) { *bits_at(h, c) |= bit_of(c); }
static FN inline void class_emptied(stow_heap_t *h, size_t c) { *bits_at(h, c) &= ~bit_of(c); }


/* Free block b (its size and footer written) goes first in class c. Its words:
 * 0 its size (no flag: a free block is not used, and the block before it is
 * not free), 1 the next block of the class, 2 the word that points to b (the
 * class's head or word 1 of the block before it in the class), and its last
 * word its size again (the footer, for a free of the block after it). */
static FN HOT void link_node(stow_heap_t *h, unsigned char *b, size_t c)
{
    word_t *head = head_at(h, c);
    size_t first = *head;
    SET_PAIR(b, WORD, first, (size_t)(uintptr_t)head);
    if (first != 0u) {
        W((unsigned char *)(uintptr_t)first)[2] = (size_t)(uintptr_t)&W(b)[1];
    } else {
        class_filled(h, c);
    }
    *head = (size_t)(uintptr_t)b;
}

/* Writes free block b's size in its first and last words. */
static FN HOT void set_free(unsigned char *b, size_t size)
{
    set_head(b, size);
    *W(b + size - WORD) = size;
}

/* Free block b of size bytes is the top: its header says so. It keeps no
 * footer: no block after it is ever freed (the end word follows it). */
static FN HOT void set_top(stow_heap_t *h, unsigned char *b, size_t size)
{
    h->top = b;
    set_head(b, size | IS_TOP);
}

/* The top is used up: it is empty now, its header region 0's end word
 * (limit), of size 0. */
static FN inline void empty_top(stow_heap_t *h, unsigned char *limit)
{
    h->top = limit;
    set_head(limit, IS_TOP);
}

/* Free block b of size bytes joins the top (next, of next_size bytes, maybe
 * empty): it is the top now, and the word after it region 0's end word. */
static FN HOT void grow_top(stow_heap_t *h, unsigned char *b, size_t size, unsigned char *next, size_t next_size)
{
    set_top(h, b, size + next_size);
    set_head(next + next_size, USED | PREV_FREE);
#if STOW_CHECK_LEVEL >= 2
    if (next_size != 0u) {
        stow__fill(next, STOW__POISON, 3u * WORD);
    }
#else
    (void)next;
#endif
}

static FN HOT void link_free(stow_heap_t *h, unsigned char *b, size_t size)
{
    set_free(b, size);
    link_node(h, b, class_of(size));
}

/* Takes free block b out of its class. When b was alone in it, the word that
 * pointed to b is the class's head, whose place in the heap object names the
 * class (a block's word is outside the object: one unsigned compare, or one
 * saturation). */
static FN HOT void unlink_free(stow_heap_t *h, unsigned char *b)
{
    size_t next;
    size_t link;
    (void)b; /* read by LOAD_PAIR's asm statement on Thumb-2 (which a static analyser may not read) */
    LOAD_PAIR(b, WORD, next, link);
    word_t *pprev = (word_t *)(uintptr_t)link;
    *pprev = next;
#if defined(__GNUC__) && defined(__ARM_FEATURE_SAT)
    /* A class that empties is the path laid out in line (the other marked
     * unlikely): 1 instruction off the longest free, 0.6 off the workload's
     * mean. Its class has no branch where the core saturates in one
     * instruction (USAT): a block's word, outside the object, gives class 0
     * or the last bit of classes[], neither of which is ever set; 4
     * instructions off the longest free, 5 onto a free that takes the last
     * block of a longer class. (GCC and clang shift a negative value
     * arithmetically.) */
    if (UNLIKELY(next != 0u)) {
        W((unsigned char *)(uintptr_t)next)[2] = (size_t)(uintptr_t)pprev;
        return;
    }
    ptrdiff_t c = (ptrdiff_t)((uintptr_t)pprev - (uintptr_t)h) >> (WORD == 8u ? 3 : 2);
    c = c < 0 ? 0 : c > (ptrdiff_t)(4u * BITS - 1u) ? (ptrdiff_t)(4u * BITS - 1u) : c;
    class_emptied(h, (size_t)c);
#else
    if (next != 0u) {
        W((unsigned char *)(uintptr_t)next)[2] = (size_t)(uintptr_t)pprev;
        return;
    }
    size_t at = (size_t)((uintptr_t)pprev - (uintptr_t)h);
    if (at < END_CLASS * WORD) {
        class_emptied(h, at / WORD);
    }
#endif
}

/* ---- regions and the live-start bits (level >= 1) ------------------------------------------ */

#if STOW_CHECK_LEVEL >= 1
/* The region that p's granule belongs to, or NULL. */
static FN inline const region_t *region_of(const stow_heap_t *h, const void *p)
{
    uintptr_t a = (uintptr_t)(const unsigned char *)p;
    for (const region_t *r = &h->region; r != NULL; r = r->next) {
        if (a >= (uintptr_t)r->first + WORD && a < (uintptr_t)r->top) {
            return r;
        }
    }
    return NULL;
}
static FN inline size_t granule_in(const region_t *r, const void *p)
{
    return (size_t)((const unsigned char *)p - (r->first + WORD)) >> ALIGN_SHIFT;
}
static FN inline void set_live(const stow_heap_t *h, const void *p, bool live)
{
    const region_t *r = region_of(h, p);
    if (r == NULL) {
        return; /* not reached: p is a slot or block of h (what a static analyser cannot know) */
    }
    size_t i = granule_in(r, p);
    uint32_t bit = (uint32_t)1u << (i & 31u);
    if (live) {
        r->starts[i >> 5] |= bit;
    } else {
        r->starts[i >> 5] &= ~bit;
    }
}
static FN inline bool bit_at(const region_t *r, const void *p)
{
    size_t i = granule_in(r, p);
    return ((r->starts[i >> 5] >> (i & 31u)) & 1u) != 0u;
}
/* True when p is a live slot or block of h. A heap not laid out yet has none. */
static FN inline bool is_live(const stow_heap_t *h, const void *p)
{
    if (h->region.first == NULL || !stow__is_aligned(p, ALIGN)) {
        return false;
    }
    const region_t *r = region_of(h, p);
    return r != NULL && bit_at(r, p);
}
#define MARK_LIVE(h, p) set_live((h), (p), true)
#define MARK_GONE(h, p) set_live((h), (p), false)
#else
#define MARK_LIVE(h, p) ((void)0)
#define MARK_GONE(h, p) ((void)0)
#endif

/* ---- level 2: poison and canary ------------------------------------------------------------ */

#if STOW_CHECK_LEVEL >= 2
/* The poison bytes [from, to) of a free block at b of fsize bytes should hold,
 * skipping its four words of metadata. */
static FN void check_poison(unsigned char *b, size_t fsize, unsigned char *from, unsigned char *to,
                            const char *what)
{
    unsigned char *lo = from > b + 3u * WORD ? from : b + 3u * WORD;
    unsigned char *hi = to < b + fsize - WORD ? to : b + fsize - WORD;
    if (lo < hi && !stow__poison_intact(lo, stow__span(lo, hi))) {
        STOW__REPORT(what);
    }
}

/* The canary of a slot or block whose usable bytes are [p, end): the last word
 * holds the requested size, the bytes between the request and it 0xDD. */
static FN void set_canary(unsigned char *p, unsigned char *end, size_t size)
{
    stow__fill(p + size, STOW__POISON, stow__span(p, end - WORD) - size);
    *W(end - WORD) = size;
}
static FN size_t requested_at(unsigned char *end) { return *W(end - WORD); }
static FN bool canary_intact(unsigned char *p, unsigned char *end)
{
    size_t size = requested_at(end);
    size_t room = stow__span(p, end - WORD);
    return size <= room && stow__poison_intact(p + size, room - size);
}
#endif

/* ---- layout --------------------------------------------------------------------------------- */

/* Where the blocks of a region over [start, end) go (start aligned to ALIGN):
 * the first block so that its payload is ALIGN-aligned, the word that ends the
 * blocks just below top, and at level >= 1 the bit map from top on. False when
 * there is no room for one minimum block. */
struct layout {
    unsigned char *first;
    unsigned char *top;
};

#if STOW_CHECK_LEVEL >= 1
/* The bytes of the bit map of a region whose blocks start at first and end
 * below top. */
static FN inline size_t map_bytes(const unsigned char *first, const unsigned char *top)
{
    return (((stow__span(first, top) - WORD) >> ALIGN_SHIFT) + 31u) / 32u * 4u;
}
#endif

static FN bool layout_of(unsigned char *start, const unsigned char *end, struct layout *out)
{
    unsigned char *first = start + ALIGN - WORD;
    size_t room = stow__span(start, end);
    if (room < ALIGN + MIN_BLOCK) {
        return false;
    }
    size_t blocks = (room - ALIGN) & ~(ALIGN - 1u); /* blocks and the end word, with the map */
    if (blocks >= BLOCK_LIMIT) {
        blocks = BLOCK_LIMIT - ALIGN;
    }
#if STOW_CHECK_LEVEL >= 1
    /* The map takes a bit per granule after top. Start at or just above the
     * answer (blocks + blocks / (8 ALIGN) <= room) and step down: a few steps. */
    blocks = (blocks - blocks / (8u * ALIGN + 1u)) & ~(ALIGN - 1u);
    while (blocks >= MIN_BLOCK && first + WORD + blocks + map_bytes(first, first + WORD + blocks) > end) {
        blocks -= ALIGN;
    }
#endif
    if (blocks < MIN_BLOCK) {
        return false;
    }
    out->first = first;
    out->top = first + WORD + blocks;
    return true;
}

/* Makes region r over l one free block. Its end word reads as a used block of
 * size 0, so no walk and no merge needs a bounds test. */
static FN void lay_region(stow_heap_t *h, region_t *r, const struct layout *l, unsigned char *end)
{
    size_t blocks = stow__span(l->first, l->top) - WORD;
    r->first = l->first;
    r->limit = l->top - WORD;
    r->top = l->top;
    r->end = end;
#if STOW_CHECK_LEVEL >= 1
    r->starts = (uint32_t *)(void *)l->top;
    stow__unpoison(r->starts, map_bytes(l->first, l->top));
    stow__fill(r->starts, 0u, map_bytes(l->first, l->top));
#endif
    stow__unpoison(l->first, blocks + WORD);
#if STOW_CHECK_LEVEL >= 2
    stow__fill(l->first, STOW__POISON, blocks);
#endif
    set_head(r->limit, USED | PREV_FREE);
    if (r == &h->region && h->bounded == 0u) {
        set_top(h, l->first, blocks);
    } else {
        link_free(h, l->first, blocks);
    }
    size_t most = blocks - HEADER - TAIL;
    if (most > h->max_size) {
        h->max_size = most;
        h->fast_max = h->bounded != 0u ? 0u : most;
    }
}

/* Lays region 0 out: one free block of everything, no page of slots. */
static FN STOW__NOINLINE bool lay_out(stow_heap_t *h)
{
    struct layout l;
    if (!layout_of(h->buf, h->buf + h->size, &l)) {
        return false;
    }
    /* classes[], avail[], bounded, fast_max and heads[], the object's first
     * words, cleared by a pointer loop, opaque to the compiler: not memset
     * (internal.h); bounded is kept, fast_max set again by lay_region(). */
    uint32_t bounded = h->bounded;
    word_t *w = W((unsigned char *)h->classes);
    while (w != W((unsigned char *)(h->heads + STOW__HEAP_CLASSES))) {
        *w = 0u;
        STOW__OPAQUE(w);
        w++;
    }
    h->bounded = bounded;
    h->spare = NULL;
    h->top = NULL;
    h->used = 0u;
    h->max_size = 0u;
    h->region.next = NULL;
    lay_region(h, &h->region, &l, h->buf + h->size);
    h->zone_lo = l.top;
    h->zone_len = 0u;
    return true;
}

/* ---- carving and giving back ------------------------------------------------------------------ */

/* The block b (free, unlinked, fsize bytes, its predecessor live) becomes a
 * live block of size bytes, with flags; the rest goes back when it can stand
 * as a block. */
static FN inline unsigned char *carve(stow_heap_t *h, unsigned char *b, size_t fsize, size_t size, size_t flags)
{
    size_t rest = fsize - size;
    bool top = b == h->top;
    if (rest >= MIN_BLOCK) {
        /* What follows it has PREV_FREE already. The rest of the top is the top. */
        if (top) {
            set_top(h, b + size, rest);
        } else {
            link_free(h, b + size, rest);
        }
    } else {
        size = fsize;
        if (top) {
            empty_top(h, b + fsize);
        } else {
            set_head(b + fsize, head_of(b + fsize) & ~PREV_FREE);
        }
    }
    set_head(b, size | USED | flags);
    h->used += size; /* peak catches up when used next falls: see lower_used() */
    MARK_LIVE(h, b + HEADER);
    stow__acquire(b + HEADER, size - HEADER);
    return b + HEADER;
}

#if FAST_PATHS
/* The same for b, still the first block of class c: when the rest stays in
 * class c it takes b's place there, with no class bit to touch. */
/* Block b of size bytes is handed out: its header, used, its payload. */
static FN HOT unsigned char *hand_out(stow_heap_t *h, unsigned char *b, size_t size)
{
    set_head(b, size | USED);
    h->used += size; /* peak catches up when used next falls: see lower_used() */
    MARK_LIVE(h, b + HEADER);
    stow__acquire(b + HEADER, size - HEADER);
    return b + HEADER;
}

static FN HOT unsigned char *carve_first(stow_heap_t *h, unsigned char *b, size_t c, size_t size)
{
    size_t fsize = head_of(b);
    size_t next = W(b)[1];
    size_t rest = fsize - size;
    word_t *head = head_at(h, c);
    if (rest < MIN_BLOCK) {
        *head = next;
        if (next != 0u) {
            W((unsigned char *)(uintptr_t)next)[2] = (size_t)(uintptr_t)head;
        } else {
            class_emptied(h, c);
        }
        set_head(b + fsize, head_of(b + fsize) & ~PREV_FREE);
        return hand_out(h, b, fsize);
    }
    unsigned char *r = b + size;
    size_t rc = class_of(rest);
    set_head(r, rest);
    *W(b + fsize - WORD) = rest;
    if (rc == c) {
        SET_PAIR(r, WORD, next, (size_t)(uintptr_t)head);
        *head = (size_t)(uintptr_t)r;
        if (next != 0u) {
            W((unsigned char *)(uintptr_t)next)[2] = (size_t)(uintptr_t)&W(r)[1];
        }
        return hand_out(h, b, size);
    }
    /* b leaves class c, r joins class rc */
    *head = next;
    word_t *rhead = head_at(h, rc);
    size_t first = *rhead;
    SET_PAIR(r, WORD, first, (size_t)(uintptr_t)rhead);
    *rhead = (size_t)(uintptr_t)r;
    if (first != 0u) {
        W((unsigned char *)(uintptr_t)first)[2] = (size_t)(uintptr_t)&W(r)[1];
    } else {
        class_filled(h, rc);
    }
    if (next != 0u) {
        W((unsigned char *)(uintptr_t)next)[2] = (size_t)(uintptr_t)head;
    } else {
        class_emptied(h, c);
    }
    return hand_out(h, b, size);
}

#endif

/* Lowers used by n. peak is brought up to date here, when used is about to fall,
 * and not by every allocation: used only grows in between, so the high-water mark
 * is max(peak, used) (what stats() reports), and alloc stays shorter. */
static FN HOT void lower_used(stow_heap_t *h, size_t n)
{
    size_t used;
    size_t peak;
    LOAD_PAIR(h, offsetof(stow_heap_t, used), used, peak);
    if (used > peak) {
        h->peak = used;
    }
    h->used = used - n;
}

/* Free block b of size bytes (merged from pieces, its words not written yet)
 * goes first in its class, and old, one of its pieces, leaves its own. (Taking
 * old's place when the class is the same saved a relink on one merge in six
 * on the traces and cost every other merge the test: 3 instructions on the
 * longest free, 1.7 on the workload's mean, the same smallest heaps.) */
static FN HOT void settle(stow_heap_t *h, unsigned char *b, size_t size, unsigned char *old)
{
    unlink_free(h, old);
    link_free(h, b, size);
}

/* The size bytes at b (whose predecessor is live: a live block's tail, or a
 * freed block already merged backwards) become free: merged with the next
 * block if that is free, linked into its class, and announced to the block
 * after them. */
static FN HOT void release_forward(stow_heap_t *h, unsigned char *b, size_t size)
{
    unsigned char *next = b + size;
    size_t next_head = head_of(next);
    if ((next_head & USED) != 0u) {
        set_head(next, next_head | PREV_FREE);
        link_free(h, b, size);
    } else if ((next_head & IS_TOP) != 0u) {
        next_head = size_of(next_head);
        grow_top(h, b, size, next, next_head); /* the top grows down */
        size += next_head;
    } else {
        settle(h, b, size + next_head, next); /* the block after next has PREV_FREE already */
#if STOW_CHECK_LEVEL >= 2
        stow__fill(next, STOW__POISON, 3u * WORD);
#endif
        size += next_head;
    }
    /* The header too: the tail a shrink gives back starts inside the caller's
     * block, and a stale pointer reaches its first words. */
    stow__poison(b, size);
}

/* The block b (live or about to be: head is its header) becomes free, merged
 * with free neighbours. */
static FN HOT void release_block(stow_heap_t *h, unsigned char *b, size_t head)
{
    size_t size = size_of(head);
#if STOW_CHECK_LEVEL >= 2
    stow__fill(b, STOW__POISON, size);
#endif
    if ((head & PREV_FREE) == 0u) {
        release_forward(h, b, size);
        return;
    }
    size_t prev_size = *W(b - WORD);
    unsigned char *prev = b - prev_size;
    unsigned char *next = b + size;
    size_t next_head = head_of(next);
    size += prev_size;
    if ((next_head & USED) != 0u) {
        set_head(next, next_head | PREV_FREE);
    } else {
        if ((next_head & IS_TOP) != 0u) {
            /* All three are the top now. */
            unlink_free(h, prev);
            grow_top(h, prev, size, next, size_of(next_head));
#if STOW_CHECK_LEVEL >= 2
            stow__fill(b - WORD, STOW__POISON, WORD);
#endif
            stow__poison(b, size - prev_size + size_of(next_head));
            return;
        }
        size += next_head;
        unlink_free(h, next);
#if STOW_CHECK_LEVEL >= 2
        stow__fill(next, STOW__POISON, 3u * WORD);
#endif
    }
#if STOW_CHECK_LEVEL >= 2
    stow__fill(b - WORD, STOW__POISON, WORD);
#endif
    settle(h, prev, size, prev);
    stow__poison(b, size - prev_size);
}

static FN HOT void free_block(stow_heap_t *h, unsigned char *b)
{
    size_t head = head_of(b);
    lower_used(h, size_of(head));
    MARK_GONE(h, b + HEADER);
    release_block(h, b, head);
}

/* The same, out of line where the fast paths are: the free of a slot stays a
 * leaf. */
#if FAST_PATHS
static FN STOW__NOINLINE void free_block_apart(stow_heap_t *h, unsigned char *b) { free_block(h, b); }
#else
static FN inline void free_block_apart(stow_heap_t *h, unsigned char *b) { free_block(h, b); }
#endif

/* ---- pages of slots ---------------------------------------------------------------------------- *
 *
 * Region 0's pages sit at its top, below top (page n, from 1, at top - n PAGE),
 * above the word that ends its blocks. A page holds slots of one class after
 * its header; a free slot's first two bytes hold the offset of the next free
 * one (0: none), or VIRGIN when the slots from it to the end of the page were
 * never handed out. Pages with a free slot are in their class's list
 * (avail[k]), empty ones not at the bottom in the spare list; full ones in
 * none. Lists link pages by number. */

static FN inline size_t page_number(const stow_heap_t *h, const unsigned char *page)
{
    return (size_t)(h->region.top - page) >> PAGE_SHIFT;
}
static FN inline unsigned char *page_at(const stow_heap_t *h, size_t n)
{
    return n != 0u ? h->region.top - (n << PAGE_SHIFT) : NULL;
}
/* The page holding slot p. */
static FN inline unsigned char *page_of(const stow_heap_t *h, const unsigned char *p)
{
    return (unsigned char *)(uintptr_t)p - ((size_t)(p - h->region.top) & (PAGE - 1u));
}

/* The lists of pages link them by number from top, region 0's top (read
 * once by the caller: the pages' stores could alias h->region.top). */
static FN inline size_t number_in(const unsigned char *top, const unsigned char *page)
{
    return (size_t)(top - page) >> PAGE_SHIFT;
}
static FN inline unsigned char *page_in(const unsigned char *top, size_t n)
{
    return n != 0u ? (unsigned char *)(uintptr_t)(top - (n << PAGE_SHIFT)) : NULL;
}

static FN HOT_OR_APART void list_push(unsigned char *top, unsigned char **head, unsigned char *page)
{
    unsigned char *old = *head;
    size_t n = number_in(top, page);
    P(page)->prev = 0u;
    P(page)->next = (uint16_t)(old != NULL ? number_in(top, old) : 0u);
    if (old != NULL) {
        P(old)->prev = (uint16_t)n;
    }
    *head = page;
}

static FN HOT void list_remove(unsigned char *top, unsigned char **head, unsigned char *page)
{
    size_t n = P(page)->next;
    size_t v = P(page)->prev;
    if (v != 0u) {
        P(page_in(top, v))->next = (uint16_t)n;
    } else {
        *head = page_in(top, n);
    }
    if (n != 0u) {
        P(page_in(top, n))->prev = (uint16_t)v;
    }
}

/* Page new takes old's place in the list at head. */
static FN HOT_OR_APART void list_replace(unsigned char *top, unsigned char **head, unsigned char *old, unsigned char *new_page)
{
    size_t n = number_in(top, new_page);
    size_t next = P(old)->next;
    size_t prev = P(old)->prev;
    P(new_page)->next = (uint16_t)next;
    P(new_page)->prev = (uint16_t)prev;
    if (prev != 0u) {
        P(page_in(top, prev))->next = (uint16_t)n;
    } else {
        *head = new_page;
    }
    if (next != 0u) {
        P(page_in(top, next))->prev = (uint16_t)n;
    }
}

/* Empty pages (spare) lie in runs of neighbours, kept whole like free blocks:
 * the lowest page of a run is on the spare list, and it and the highest page
 * say how many pages the run has (in their header's free field, their class
 * SPARE). The bottom page is never spare: when it empties, it goes back to the
 * blocks with the run above it, if any, in one step. */
static FN inline size_t run_pages(unsigned char *page) { return P(page)->free; }

static FN void mark_run(unsigned char *low, size_t pages)
{
    unsigned char *high = low + (pages - 1u) * PAGE;
    P(low)->slot = SPARE;
    P(low)->free = (uint16_t)pages;
    P(high)->slot = SPARE;
    P(high)->free = (uint16_t)pages;
}

#if STOW_CHECK_LEVEL >= 2
/* Level 2's poison in pages: a free slot of s bytes holds it past its link;
 * a page of slots of s bytes, after its last slot; an empty page, past its
 * header. */
static FN bool slot_poisoned(const unsigned char *slot, size_t s) { return stow__poison_intact(slot + 2u, s - 2u); }
static FN bool tail_poisoned(const unsigned char *page, size_t s)
{
    size_t count = (PAGE - META) / s;
    return stow__poison_intact(page + META + count * s, PAGE - META - count * s);
}
static FN bool empty_page_poisoned(const unsigned char *page) { return stow__poison_intact(page + META, PAGE - META); }
#endif

/* A page for slots: the highest of the first run of empty pages, or PAGE
 * bytes from the end of the top (all of it, or enough to leave a block). NULL
 * when neither. */
static FN SIZE_NOINLINE unsigned char *take_page(stow_heap_t *h)
{
    unsigned char *page = h->spare;
    if (page != NULL) {
        size_t pages = run_pages(page);
        if (pages == 1u) {
            list_remove(h->region.top, &h->spare, page);
        } else {
            P(page)->free = (uint16_t)(pages - 1u);
            page += (pages - 1u) * PAGE;
            P(page - PAGE)->slot = SPARE;
            P(page - PAGE)->free = (uint16_t)(pages - 1u);
            stow__unpoison(page, META);
        }
#if STOW_CHECK_LEVEL >= 2
        /* empty since page_emptied() poisoned it past its header */
        if (!empty_page_poisoned(page)) {
            STOW__REPORT("stow_heap_alloc: free memory was written after free");
        }
#endif
        return page;
    }
    if (h->top == NULL || (h->zone_len >> PAGE_SHIFT) >= MAX_PAGES) {
        return NULL;
    }
    unsigned char *limit = h->region.limit;
    unsigned char *t = h->top;
    size_t tsize = stow__span(t, limit);
    if (tsize != PAGE && tsize < PAGE + MIN_BLOCK) {
        return NULL;
    }
    page = limit + WORD - PAGE;
#if STOW_CHECK_LEVEL >= 2
    check_poison(t, tsize, page, limit, "stow_heap_alloc: free memory was written after free");
#endif
    limit -= PAGE;
    if (tsize != PAGE) {
        set_top(h, t, tsize - PAGE);
        set_head(limit, USED | PREV_FREE);
    } else {
        empty_top(h, limit);
    }
#if STOW_CHECK_LEVEL >= 2
    stow__fill(page, STOW__POISON, PAGE);
#endif
    h->region.limit = limit;
    h->zone_lo = page;
    h->zone_len += PAGE;
    stow__unpoison(page, META);
    return page;
}

/* The lowest pages pages, empty, go back to region 0's blocks: with the word
 * that ended them, they join the top (or are it). */
static FN void give_pages_back(stow_heap_t *h, size_t pages)
{
    unsigned char *b = h->region.limit;
    unsigned char *limit = b + pages * PAGE;
    h->zone_lo += pages * PAGE;
    h->zone_len -= pages * PAGE;
    h->region.limit = limit;
    set_head(limit, USED | PREV_FREE);
    unsigned char *t = h->top; /* b when the top was empty */
#if STOW_CHECK_LEVEL >= 2
    stow__fill(t == b ? b : b - WORD, STOW__POISON, pages * PAGE + (t == b ? 0u : WORD)); /* and the old footer */
#endif
    set_top(h, t, stow__span(t, limit));
    stow__poison(b, pages * PAGE);
}

/* Page, of slot class k, became empty: out of its class's list, and one run
 * with the empty pages on either side; back to the blocks when that run is at
 * the bottom, else on the spare list. */
static FN void page_emptied(stow_heap_t *h, unsigned char *page, size_t k)
{
    unsigned char *top = h->region.top;
#if FAST_PATHS
    /* out of its list: the list's head is looked up only when page heads it */
    size_t n = P(page)->next;
    size_t v = P(page)->prev;
    if (v != 0u) {
        P(page_in(top, v))->next = (uint16_t)n;
    } else {
        h->avail[k] = page_in(top, n);
    }
    if (n != 0u) {
        P(page_in(top, n))->prev = (uint16_t)v;
    }
#else
    list_remove(top, &h->avail[k], page);
#endif
#if STOW_CHECK_LEVEL >= 2
    /* Every slot is free now, poisoned past its link: a write into one while it
     * was free is reported here, before the fill erases it (the page's next
     * class cuts it otherwise). */
    size_t bytes = P(page)->slot;
    bool intact = tail_poisoned(page, bytes);
    for (size_t i = 0; i < (PAGE - META) / bytes; i++) {
        intact = intact && slot_poisoned(page + META + i * bytes, bytes);
    }
    if (!intact) {
        STOW__REPORT("stow_heap_free: free memory was written after free");
    }
    stow__fill(page + META, STOW__POISON, PAGE - META);
#endif
    /* A run below keeps its place on the spare list (its lowest page stays
     * its lowest); a run above gives its place to page when there is none
     * below, else leaves the list. */
    unsigned char *above = page + PAGE;
    size_t up = above != top && P(above)->slot == SPARE ? run_pages(above) : 0u;
    if (page == h->zone_lo) {
        if (up != 0u) {
            list_remove(top, &h->spare, above);
        }
        give_pages_back(h, 1u + up);
        return;
    }
    if (P(page - PAGE)->slot == SPARE) {
        size_t below = run_pages(page - PAGE);
        if (up != 0u) {
            list_remove(top, &h->spare, above);
        }
        mark_run(page - below * PAGE, 1u + up + below);
        return;
    }
    if (up != 0u) {
        list_replace(top, &h->spare, above, page);
    } else {
        list_push(top, &h->spare, page);
    }
    mark_run(page, 1u + up);
}

/* The first free slot of page, the head of class k's list. */
static FN HOT unsigned char *pop_slot(stow_heap_t *h, unsigned char *page, size_t k)
{
    size_t at = P(page)->free;
    size_t next = *H(page + at);
    size_t bytes = P(page)->slot;
    if (next == VIRGIN) {
        /* The next slot is new too, if the page has room for it. */
        next = at + bytes;
        if (next + bytes <= PAGE) {
            *H(page + next) = VIRGIN;
        } else {
            next = 0u;
        }
    }
    P(page)->free = (uint16_t)next;
    P(page)->used++;
    if (next == 0u) {
        /* Full: it leaves the list it heads. */
        unsigned char *after = page_in(h->region.top, P(page)->next);
        h->avail[k] = after;
        if (after != NULL) {
            P(after)->prev = 0u;
        }
    }
#if STOW_CHECK_LEVEL >= 2
    if (!slot_poisoned(page + at, bytes)) {
        STOW__REPORT("stow_heap_alloc: free memory was written after free");
    }
#endif
    h->used += bytes;
    MARK_LIVE(h, page + at);
    stow__acquire(page + at, bytes);
    return page + at;
}

/* A page whose slot was just freed was full (first, its first free slot
 * before, 0: every class has 7 slots or more to a page, so it is not empty
 * too), or is empty now: onto its list, or back. used is lowered by the
 * slot's size here. The fast paths have one function for each case (no test
 * again), a build for size one for both. */
static FN inline void slot_page_changed(stow_heap_t *h, unsigned char *page, size_t bytes, bool was_full)
{
    size_t k = slot_class(bytes - TAIL);
    lower_used(h, bytes);
    if (was_full) {
        list_push(h->region.top, &h->avail[k], page);
    } else {
        page_emptied(h, page, k);
    }
}
#if FAST_PATHS
static FN STOW__NOINLINE void slot_page_was_full(stow_heap_t *h, unsigned char *page, size_t bytes)
{
    slot_page_changed(h, page, bytes, true);
}
static FN STOW__NOINLINE void slot_page_emptied(stow_heap_t *h, unsigned char *page, size_t bytes)
{
    slot_page_changed(h, page, bytes, false);
}
#else
static FN STOW__NOINLINE void slot_page_apart(stow_heap_t *h, unsigned char *page)
{
    slot_page_changed(h, page, P(page)->slot, P(page)->used != 0u);
}
#endif

/* Slot p, at at bytes from the lowest page, goes back to its page. */
static FN HOT void free_slot(stow_heap_t *h, unsigned char *p, size_t at)
{
    size_t off = at & (PAGE - 1u);
    unsigned char *page = p - off;
    MARK_GONE(h, p);
#if STOW_CHECK_LEVEL >= 2
    stow__fill(p, STOW__POISON, P(page)->slot);
#endif
    size_t first = P(page)->free;
    *H(p) = (uint16_t)first;
    stow__poison(p, P(page)->slot);
    P(page)->free = (uint16_t)off;
    size_t used = (size_t)P(page)->used - 1u;
    P(page)->used = (uint8_t)used;
#if FAST_PATHS
    size_t bytes = P(page)->slot;
    if (first == 0u) {
        slot_page_was_full(h, page, bytes);
        return;
    }
    if (used == 0u) {
        slot_page_emptied(h, page, bytes);
        return;
    }
    lower_used(h, bytes);
#else
    if (first == 0u || used == 0u) {
        slot_page_apart(h, page);
        return;
    }
    lower_used(h, P(page)->slot);
#endif
}

/* Where p is from the lowest page of slots: below zone_len exactly when p is
 * in a page of slots (else it is a block's payload). */
static FN inline size_t slot_at(const stow_heap_t *h, const void *p)
{
    return (size_t)((uintptr_t)p - (uintptr_t)h->zone_lo);
}
static FN inline bool is_slot(const stow_heap_t *h, const void *p) { return slot_at(h, p) < h->zone_len; }

/* The bytes from p to the end of its slot or block (an aligned block's last
 * word, its alignment, left out): at level 2 the last of them is the canary's
 * size word. */
static FN inline size_t room_of(const stow_heap_t *h, const void *p)
{
    unsigned char *q = (unsigned char *)(uintptr_t)p;
    if (is_slot(h, p)) {
        return P(page_of(h, q))->slot;
    }
    size_t head = head_of(q - HEADER);
    return size_of(head) - HEADER - ((head & ALIGNED) != 0u ? WORD : 0u);
}

/* A slot or block just handed out for size bytes: at level 2 its canary. */
static FN inline void *fresh(const stow_heap_t *h, void *p, size_t size)
{
#if STOW_CHECK_LEVEL >= 2
    if (p != NULL) {
        set_canary((unsigned char *)p, (unsigned char *)p + room_of(h, p), size);
    }
#else
    (void)h;
    (void)size;
#endif
    return p;
}

/* ---- allocation -------------------------------------------------------------------------------- */

/* The failed hook and the count. */
static FN STOW__NOINLINE void *refuse(stow_heap_t *h, size_t size)
{
    h->fails++;
    if (h->failed != NULL) {
        h->failed(h, size);
    }
    return NULL;
}

/* The front gap before an align-aligned payload in the free block b: 0, or at
 * least MIN_BLOCK so that it can stand as a free block. */
static FN inline size_t gap_for(unsigned char *b, size_t align)
{
    size_t gap = (size_t)(0u - (uintptr_t)(b + HEADER)) & (align - 1u);
    return gap != 0u && gap < MIN_BLOCK ? gap + align : gap;
}

/* A block for size bytes at alignment align (ALIGN or more), by the heap's
 * policy; NULL (not counted) when there is none. */
static FN STOW__NOINLINE void *take_block(stow_heap_t *h, size_t size, size_t align)
{
    size_t slack = 0u;
    size_t extra = 0u;
    if (align > ALIGN) {
        /* Room for the worst front gap, and a word for the alignment. */
        slack = align + ALIGN;
        extra = WORD;
        if (align > h->max_size || h->max_size - size < slack + extra) {
            return NULL;
        }
    }
    size_t need = exact_block(size + extra);
    size_t want = need + slack;
    size_t c;
    unsigned char *b;
    if (h->bounded != 0u && slack == 0u) {
        /* Half fit: a power-of-two block, from the smallest class sure to hold it. */
        size_t pow = (size_t)1u << (log2_of(need - 1u) + 1u);
        c = search_from(h, class_of(pow));
        if (c != NO_CLASS) {
            need = pow;
        }
    } else {
        /* Good fit: the first block of want's own class if it is large enough,
         * else any block of the smallest class above. */
        c = class_of(want);
        b = (unsigned char *)(uintptr_t)*head_at(h, c);
        if (b == NULL || head_of(b) < want) {
            c = search_from(h, c + 1u);
        }
    }
    size_t fsize;
    bool top = c == NO_CLASS && h->top != NULL;
    if (top) {
        /* The top: what no class can give. */
        b = h->top;
        fsize = stow__span(b, h->region.limit);
    } else {
        if (c == NO_CLASS) {
            /* The first block of the highest class, if it is large enough. */
            c = highest_class(h);
            if (c == NO_CLASS) {
                return NULL;
            }
        }
        b = (unsigned char *)(uintptr_t)*head_at(h, c);
        fsize = head_of(b);
    }
    size_t gap = align > ALIGN ? gap_for(b, align) : 0u;
    if (gap + need > fsize) {
        return NULL;
    }
    if (!top) {
        unlink_free(h, b);
    } else if (gap != 0u) {
        h->top = b + gap; /* the rest after the gap stays the top */
    } else {
        /* carve() cuts the top */
    }
#if STOW_CHECK_LEVEL >= 2
    check_poison(b, fsize, b + gap, b + gap + need, "stow_heap_alloc: free memory was written after free");
#endif
    size_t flags = 0u;
    if (gap != 0u) {
        /* The gap's predecessor is live (b was free) and its successor is the
         * block carved next: it stands alone. */
        link_free(h, b, gap);
        stow__poison(b + HEADER, gap - HEADER);
        b += gap;
        fsize -= gap;
        flags = PREV_FREE;
    }
    unsigned char *p = carve(h, b, fsize, need, flags);
    if (align > ALIGN) {
        /* Its alignment in its last word, for realloc. */
        set_head(b, head_of(b) | ALIGNED);
        *W(b + size_of(head_of(b)) - WORD) = align;
    }
    return p;
}

/* A slot of class k from a page taken now (its first slot; the next one is
 * marked never handed out), which heads class k's list (empty until now); NULL
 * when no page can be had. */
static FN STOW__NOINLINE void *slot_on_new_page(stow_heap_t *h, size_t k)
{
    unsigned char *page = take_page(h);
    if (page == NULL) {
        return NULL;
    }
    size_t size = slot_bytes(k);
    *P(page) = (page_t){(uint16_t)(META + size), 1u, (uint8_t)size, 0u, 0u}; /* one store or two */
    *H(page + META + size) = VIRGIN; /* every class has 7 slots or more to a page */
    h->avail[k] = page;
    h->used += size;
    MARK_LIVE(h, page + META);
    stow__acquire(page + META, size);
    return page + META;
}

/* A slot for size bytes (at most SMALL_MAX) in a default heap, or NULL (not
 * counted) when no page has one and none can be had. */
static FN inline void *take_slot(stow_heap_t *h, size_t size)
{
    size_t k = slot_class(size);
    unsigned char *page = h->avail[k];
    return page != NULL ? pop_slot(h, page, k) : slot_on_new_page(h, k);
}

/* size bytes at alignment align (ALIGN or more) by the heap's policy, laying
 * the storage out on first use; NULL (not counted) when there is no room. */
static FN STOW__NOINLINE void *take(stow_heap_t *h, size_t size, size_t align)
{
    if (h->region.first == NULL && !lay_out(h)) {
        return NULL;
    }
    if (size > h->max_size) {
        return NULL;
    }
    void *p = NULL;
    if (size <= SMALL_MAX && align == ALIGN && h->bounded == 0u) {
        p = take_slot(h, size);
    }
    if (p == NULL) {
        p = take_block(h, size, align);
    }
    return fresh(h, p, size);
}

/* ---- the calls --------------------------------------------------------------------------------- */

#if STOW_HEAP_TRACE
#define TRACE(h, op, block, size, old, arg)                                      \
    do {                                                                         \
        if ((h)->trace != NULL) {                                                \
            (h)->trace((h)->trace_ctx, (op), (block), (size), (old), (arg));     \
        }                                                                        \
    } while (0)
#else
#define TRACE(h, op, block, size, old, arg) ((void)0)
#endif

/* What the fast paths do not serve: take() and, when it fails, refuse(). */
static FN STOW__NOINLINE void *alloc_slow(stow_heap_t *h, size_t size)
{
    void *p = take(h, size, ALIGN);
    return p != NULL ? p : refuse(h, size);
}

#if FAST_PATHS
/* A slot from a new page for a request of size bytes, whose list of pages is
 * empty; else the slow path. */
static FN STOW__NOINLINE void *alloc_new_page(stow_heap_t *h, size_t size)
{
    if (h->fast_max != 0u) {
        void *p = slot_on_new_page(h, slot_class(size));
        if (p != NULL) {
            return p;
        }
    }
    return alloc_slow(h, size);
}

/* A block of need bytes carved from the top; else the slow path. */
static FN HOT void *alloc_from_top(stow_heap_t *h, size_t size, size_t need)
{
    size_t t;
    size_t z;
    LOAD_PAIR(h, offsetof(stow_heap_t, top), t, z); /* top, zone_lo */
    unsigned char *b = (unsigned char *)t; /* a heap the fast paths serve has one */
    unsigned char *zone_lo = (unsigned char *)z; /* region 0's end word is the word below */
    /* Counted to zone_lo, a word past the top's end: span and need are
     * multiples of ALIGN, so need fits exactly when it is below span + WORD,
     * and the rest's header (rest | IS_TOP) is (span + WORD - need) - WORD +
     * IS_TOP. */
    size_t span_w = stow__span(b, zone_lo); /* the top's size + WORD */
    if (span_w <= need) {
        return alloc_slow(h, size);
    }
    size_t rest_w = span_w - need;
    if (rest_w >= MIN_BLOCK + WORD) {
        h->top = b + need;
        set_head(b + need, rest_w - (WORD - IS_TOP)); /* what follows it has PREV_FREE already */
    } else {
        need = span_w - WORD;
        empty_top(h, zone_lo - WORD);
    }
    set_head(b, need | USED);
    h->used += need; /* peak catches up when used next falls: see lower_used() */
    MARK_LIVE(h, b + HEADER);
    stow__acquire(b + HEADER, need - HEADER);
    return b + HEADER;
}
#endif

#if FAST_PATHS
/* A block by good fit for size bytes (more than SMALL_MAX), out of line: the
 * alloc of a slot stays a leaf. */
static FN STOW__NOINLINE void *alloc_block(stow_heap_t *h, size_t size)
{
    if (size > h->fast_max) {
        return alloc_slow(h, size);
    }
    size_t need = (size + HEADER + ALIGN - 1u) & ~(ALIGN - 1u);
    size_t c = class_of(need);
    unsigned char *b = (unsigned char *)(uintptr_t)*head_at(h, c);
    if (b == NULL || head_of(b) < need) {
        /* The next non-empty class (search_from, its answer tested once). */
        size_t n = c + 1u;
        size_t here = bits_from(*bits_at(h, n), n);
        if (here != 0u) {
            c = first_from(n, here);
        } else {
            c = search_after(h, n);
            if (c == NO_CLASS) {
                /* The top, when no class has a block. */
                return alloc_from_top(h, size, need);
            }
        }
        b = (unsigned char *)(uintptr_t)*head_at(h, c);
    }
    return carve_first(h, b, c, need);
}
#endif

static FN HOT void *alloc(stow_heap_t *h, size_t size)
{
#if FAST_PATHS
    /* The fast paths (a build for size, -Os, goes to take() directly): a slot
     * from a page that has one, inline, or a block by good fit. fast_max is 0
     * until the storage is laid out and for a bounded heap, whose every
     * request goes to take(). */
    if (size <= SMALL_MAX) {
        size_t k = slot_class_fast(size);
        unsigned char *page = h->avail[k];
        if (page != NULL) {
            return pop_slot(h, page, k);
        }
        return alloc_new_page(h, size);
    }
    return alloc_block(h, size);
#else
    return alloc_slow(h, size);
#endif
}

FN void *stow_heap_alloc(stow_heap_t *h, size_t size)
{
    STOW__CHECK(h != NULL, "stow_heap_alloc: heap is NULL", NULL);
    void *p = alloc(h, size);
    TRACE(h, 'm', p, size, NULL, 0u);
    return p;
}

FN void *stow_heap_alloc_aligned(stow_heap_t *h, size_t size, size_t align)
{
    STOW__CHECK(h != NULL, "stow_heap_alloc_aligned: heap is NULL", NULL);
    STOW__CHECK(align == 0u || stow__is_pow2(align),
                "stow_heap_alloc_aligned: alignment is not a power of two", NULL);
    void *p = take(h, size, align > ALIGN ? align : ALIGN);
    if (p == NULL) {
        p = refuse(h, size);
    }
    TRACE(h, 'a', p, size, NULL, align);
    return p;
}

FN void *stow_heap_calloc(stow_heap_t *h, size_t n, size_t size)
{
    STOW__CHECK(h != NULL, "stow_heap_calloc: heap is NULL", NULL);
    size_t total;
    unsigned char *p = NULL;
#if defined(__GNUC__)
    bool overflow = __builtin_mul_overflow(n, size, &total);
#else
    bool overflow = size != 0u && n > SIZE_MAX / size;
    total = n * size;
#endif
    if (overflow) {
        total = SIZE_MAX;
    } else {
        p = (unsigned char *)take(h, total, ALIGN);
    }
    if (p != NULL) {
        /* A word at a time (payloads are word-aligned), then the last bytes:
         * not past total, where level 2 keeps its canary. */
        size_t words = total & ~(size_t)3u;
        if (words != 0u) {
            stow__zero_words(p, words);
        }
        stow__fill(p + words, 0u, total - words);
    } else {
        (void)refuse(h, total);
    }
    TRACE(h, 'c', p, total, NULL, n);
    return p;
}

/* ---- free, realloc, usable size ------------------------------------------------------------------ */

#if STOW_CHECK_LEVEL >= 2
static FN void check_canary(const stow_heap_t *h, unsigned char *p, const char *what)
{
    if (!canary_intact(p, p + room_of(h, p))) {
        STOW__REPORT(what);
    }
}
#endif

/* Frees p, a live slot or block, or NULL when may_be_null. */
static FN HOT void release_or_null(stow_heap_t *h, void *p, bool may_be_null)
{
    size_t lo;
    size_t len;
    LOAD_ZONE(h, lo, len);
    size_t at = (size_t)((uintptr_t)(const unsigned char *)p - lo);
    if (at < len) {
        free_slot(h, (unsigned char *)p, at);
    } else if (!may_be_null || p != NULL) {
        free_block_apart(h, (unsigned char *)p - HEADER);
    } else {
        /* NULL, which is never a slot: the zone is storage */
    }
}

static FN HOT void release(stow_heap_t *h, void *p) { release_or_null(h, p, false); }

FN void stow_heap_free(stow_heap_t *h, void *p)
{
    STOW__CHECK_VOID(h != NULL, "stow_heap_free: heap is NULL");
#if FAST_PATHS && STOW_CHECK_LEVEL == 0 && !STOW_HEAP_TRACE
    /* NULL is tested on the way to a block alone: a slot's free is shorter. */
    release_or_null(h, p, true);
#else
    if (p == NULL) {
        return;
    }
    STOW__CHECK_VOID(is_live(h, p), "stow_heap_free: not a live block of this heap (outside, "
                                    "interior, misaligned or freed already)");
#if STOW_CHECK_LEVEL >= 2
    check_canary(h, (unsigned char *)p, "stow_heap_free: write past the end of the block");
#endif
    release(h, p);
    TRACE(h, 'f', p, 0u, NULL, 0u);
#endif
}

/* The bytes of p's slot or block the caller may have written: its usable size
 * (at level 2 the requested size). */
static FN inline size_t written_of(const stow_heap_t *h, void *p)
{
#if STOW_CHECK_LEVEL >= 2
    return requested_at((unsigned char *)p + room_of(h, p));
#else
    return room_of(h, p);
#endif
}

/* p's contents, up to size bytes, go to q (a new slot or block), and p is
 * freed. */
static FN void *relocate(stow_heap_t *h, void *p, unsigned char *q, size_t size)
{
    size_t keep = written_of(h, p);
    size_t n = keep < size ? keep : size;
    unsigned char *d = q;
    const unsigned char *s = (const unsigned char *)p;
    /* Both payloads are word-aligned: four words at a time (one LDM and one
     * STM on ARM; not in a build for size, where the word loop does it all
     * for 36 bytes less), then the last words, then the last bytes. */
    size_t words = n & ~(size_t)3u;
#if !defined(__OPTIMIZE_SIZE__)
    for (; words >= 16u; words -= 16u) {
        STOW__COPY_4_WORDS((stow__word_t *)(void *)d, (const stow__word_t *)(const void *)s);
        d += 16;
        s += 16;
        STOW__OPAQUE(d);
    }
#endif
    if (words != 0u) {
        stow__copy_words(d, s, words);
    }
    stow__copy(d + words, s + words, n & 3u);
    release(h, p);
    return q;
}

/* Moves p to a new slot or block for size bytes at alignment align; NULL (not
 * counted) when there is no room, p untouched. */
static FN void *move(stow_heap_t *h, void *p, size_t size, size_t align)
{
    unsigned char *q = (unsigned char *)take(h, size, align);
    return q != NULL ? relocate(h, p, q, size) : NULL;
}

/* Block b of cur bytes keeps keep bytes (ALIGN multiple, at least MIN_BLOCK):
 * the rest goes back as a free block when it can stand as one. */
static FN void shrink_block(stow_heap_t *h, unsigned char *b, size_t head, size_t keep)
{
    size_t cur = size_of(head);
    if (cur - keep >= MIN_BLOCK) {
        set_head(b, keep | (head & FLAGS));
        lower_used(h, cur - keep);
#if STOW_CHECK_LEVEL >= 2
        stow__fill(b + keep, STOW__POISON, cur - keep);
#endif
        release_forward(h, b + keep, cur - keep);
    }
}

static FN void *resize(stow_heap_t *h, void *p, size_t size)
{
    if (size > h->max_size) {
        return NULL;
    }
    unsigned char *q = (unsigned char *)p;
    if (is_slot(h, p)) {
        /* A slot stays while the size fits it, else moves. */
        if (size + TAIL <= P(page_of(h, q))->slot) {
            return p;
        }
        return move(h, p, size, ALIGN);
    }
    unsigned char *b = q - HEADER;
    size_t head = head_of(b);
    size_t cur = size_of(head);
    if ((head & ALIGNED) != 0u) {
        /* An aligned block stays while it is large enough, else moves. */
        size_t align = *W(b + cur - WORD);
        if (size + TAIL <= cur - HEADER - WORD) {
            return p;
        }
        return move(h, p, size, align);
    }
    size_t exact = exact_block(size);
    if (h->bounded != 0u) {
        /* The block stays when size takes the same power of two; else it
         * moves (a shrink stays when it cannot). */
        size_t pow = (size_t)1u << (log2_of(exact - 1u) + 1u);
        if (pow == cur) {
            return p;
        }
        void *moved = move(h, p, size, ALIGN);
        if (moved != NULL || exact > cur) {
            return moved;
        }
        shrink_block(h, b, head, exact);
        return p;
    }
    if (exact <= cur) {
        shrink_block(h, b, head, exact);
        return p;
    }
    unsigned char *next = b + cur;
    size_t next_head = head_of(next);
    size_t next_size = size_of(next_head);
    if ((next_head & USED) == 0u && cur + next_size >= exact) {
        /* Grow into the next block: b and next are one free-standing block
         * whose predecessor is whatever b's was (the top, when next was). */
        if ((next_head & IS_TOP) != 0u) {
            h->top = b;
        } else {
            unlink_free(h, next);
        }
#if STOW_CHECK_LEVEL >= 2
        check_poison(next, next_size, next, b + exact, "stow_heap_realloc: free memory was written after free");
        stow__fill(next, STOW__POISON, 3u * WORD);
#endif
        lower_used(h, cur);
        MARK_GONE(h, q);
        (void)carve(h, b, cur + next_size, exact, head & PREV_FREE);
        return p;
    }
    return move(h, p, size, ALIGN);
}

FN void *stow_heap_realloc(stow_heap_t *h, void *p, size_t size)
{
    STOW__CHECK(h != NULL, "stow_heap_realloc: heap is NULL", NULL);
    if (p == NULL) {
        void *q = alloc(h, size);
        TRACE(h, 'm', q, size, NULL, 0u);
        return q;
    }
    STOW__CHECK(is_live(h, p), "stow_heap_realloc: not a live block of this heap (outside, "
                               "interior, misaligned or freed already)",
                NULL);
#if STOW_CHECK_LEVEL >= 2
    check_canary(h, (unsigned char *)p, "stow_heap_realloc: write past the end of the block");
#endif
    void *q = resize(h, p, size);
    if (q == NULL) {
        q = refuse(h, size);
    } else if (q == p) {
        (void)fresh(h, q, size);
    } else {
        /* moved: the new block came from take(), fresh already */
    }
    TRACE(h, 'r', q, size, p, 0u);
    return q;
}

FN size_t stow_heap_usable_size(const stow_heap_t *h, const void *p)
{
    STOW__CHECK(h != NULL, "stow_heap_usable_size: heap is NULL", 0u);
    STOW__CHECK(is_live(h, p), "stow_heap_usable_size: not a live block of this heap (outside, "
                               "interior, misaligned or freed already)",
                0u);
    size_t room = room_of(h, p);
#if STOW_CHECK_LEVEL >= 2
    size_t asked = requested_at((unsigned char *)(uintptr_t)p + room);
    return asked <= room - WORD ? asked : room - WORD;
#else
    return room;
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

/* ---- init, regions, hooks ------------------------------------------------------------------------ */

static FN bool init(stow_heap_t *h, void *buf, size_t size, uint32_t bounded)
{
    struct layout l;
    /* Below STOW_HEAP_MIN_BYTES is refused as documented, even where one
     * minimum block would still fit. */
    if (buf == NULL || !stow__is_aligned(buf, ALIGN) || (uint64_t)size < STOW_HEAP_MIN_BYTES ||
        !layout_of((unsigned char *)buf, (unsigned char *)buf + size, &l)) {
        return false;
    }
    h->buf = (unsigned char *)buf;
    h->size = size;
    h->config = NULL;
    h->bounded = bounded;
    h->lock = 0u;
    h->fails = 0u;
    h->peak = 0u;
    h->failed = NULL;
#if STOW_HEAP_TRACE
    h->trace = NULL;
    h->trace_ctx = NULL;
#endif
    (void)lay_out(h); /* cannot fail: layout_of() just succeeded */
    return true;
}

FN bool stow_heap_init(stow_heap_t *h, void *buf, size_t size)
{
    STOW__CHECK(h != NULL, "stow_heap_init: heap is NULL", false);
    return init(h, buf, size, 0u);
}

FN bool stow_heap_init_bounded(stow_heap_t *h, void *buf, size_t size)
{
    STOW__CHECK(h != NULL, "stow_heap_init_bounded: heap is NULL", false);
    return init(h, buf, size, 1u);
}

static bool overlaps(uintptr_t lo, uintptr_t hi, const void *start, const void *end)
{
    return lo < (uintptr_t)(const unsigned char *)end && (uintptr_t)(const unsigned char *)start < hi;
}

FN bool stow_heap_add_region(stow_heap_t *h, void *buf, size_t size)
{
    STOW__CHECK(h != NULL, "stow_heap_add_region: heap is NULL", false);
    unsigned char *start = (unsigned char *)buf;
    struct layout l;
    size_t lead = (sizeof(region_t) + WORD + ALIGN - 1u) & ~(ALIGN - 1u); /* the first payload */
    if (start == NULL || !stow__is_aligned(buf, ALIGN) || (uint64_t)size < STOW_HEAP_MIN_REGION_BYTES ||
        (uintptr_t)start + size < (uintptr_t)start || !layout_of(start + lead - ALIGN, start + size, &l)) {
        return false;
    }
    uintptr_t lo = (uintptr_t)start;
    uintptr_t hi = lo + size;
    if (overlaps(lo, hi, h, h + 1) || overlaps(lo, hi, h->buf, h->buf + h->size)) {
        return false;
    }
    for (const region_t *r = h->region.first != NULL ? h->region.next : NULL; r != NULL; r = r->next) {
        if (overlaps(lo, hi, r, r->end)) {
            return false;
        }
    }
    if (h->region.first == NULL && !lay_out(h)) {
        return false;
    }
    region_t *r = (region_t *)(void *)start;
    stow__unpoison(r, sizeof *r);
    lay_region(h, r, &l, start + size);
    r->next = h->region.next;
    h->region.next = r;
    return true;
}

FN void stow_heap_set_failed_hook(stow_heap_t *h, stow_heap_failed_fn *fn)
{
    STOW__CHECK_VOID(h != NULL, "stow_heap_set_failed_hook: heap is NULL");
    h->failed = fn;
}

#if STOW_HEAP_TRACE
FN void stow_heap_set_trace(stow_heap_t *h, stow_heap_trace_fn *fn, void *ctx)
{
    STOW__CHECK_VOID(h != NULL, "stow_heap_set_trace: heap is NULL");
    h->trace = fn;
    h->trace_ctx = ctx;
}
#endif

/* ---- stats, largest free, check -------------------------------------------------------------------- */

/* A region's capacity: its blocks and pages, less the word that ends them. */
static FN size_t capacity_of(const region_t *r) { return stow__span(r->first, r->top) - WORD; }

FN void stow_heap_stats(const stow_heap_t *h, stow_stats_t *out)
{
    STOW__CHECK_VOID(h != NULL && out != NULL, "stow_heap_stats: heap or out is NULL");
    size_t capacity = 0u;
    if (h->region.first != NULL) {
        for (const region_t *r = &h->region; r != NULL; r = r->next) {
            capacity += capacity_of(r);
        }
    } else {
        struct layout l;
        if (layout_of(h->buf, h->buf + h->size, &l)) {
            capacity = stow__span(l.first, l.top) - WORD;
        }
    }
    out->capacity = capacity;
    out->used = h->used;
    out->peak = h->used > h->peak ? h->used : h->peak;
    out->fails = h->fails;
}

/* The size of the first block of the highest non-empty class, or 0. */
static FN size_t largest_block(const stow_heap_t *h)
{
    size_t c = highest_class(h);
    if (c == NO_CLASS) {
        return 0u;
    }
    stow_heap_t *m = (stow_heap_t *)(uintptr_t)h; /* read only: the helpers take a mutable heap */
    return head_of((unsigned char *)(uintptr_t)*head_at(m, c));
}

/* The size of the top, or of the last block of region 0 when that is free. */
static FN size_t top_size(const stow_heap_t *h)
{
    return h->top != NULL ? stow__span(h->top, h->region.limit) : 0u;
}

/* Whether a page for slots can be had now. */
static FN bool page_available(const stow_heap_t *h)
{
    size_t t = top_size(h);
    return h->spare != NULL ||
           (page_number(h, h->zone_lo) < MAX_PAGES && (t == PAGE || t >= PAGE + MIN_BLOCK));
}

FN size_t stow_heap_largest_free(const stow_heap_t *h)
{
    STOW__CHECK(h != NULL, "stow_heap_largest_free: heap is NULL", 0u);
    if (h->region.first == NULL) {
        struct layout l;
        return layout_of(h->buf, h->buf + h->size, &l) ? stow__span(l.first, l.top) - WORD - HEADER - TAIL : 0u;
    }
    size_t block = largest_block(h);
    size_t t = h->top != NULL ? top_size(h) : 0u;
    block = t > block ? t : block;
    size_t most = block != 0u ? block - HEADER - TAIL : 0u;
    if (h->bounded == 0u && most < SMALL_MAX && page_available(h)) {
        most = SMALL_MAX;
    }
    return most;
}

/* What check() counts while it walks. */
struct tally {
    size_t free_blocks; /* met in the walk */
    size_t listed;      /* met in the class lists */
    size_t used;        /* bytes of live slots and blocks */
    size_t live;        /* live slots and blocks */
    size_t avail[STOW__HEAP_SLOT_CLASSES + 1u]; /* pages with a free slot, per class; then spare pages */
};

/* True when b (a link not yet known good) is the start of a block in one of
 * h's rows. No pointer arithmetic on it until then. */
static FN bool in_rows(const stow_heap_t *h, uintptr_t b)
{
    if (((b + WORD) & (ALIGN - 1u)) != 0u) {
        return false;
    }
    for (const region_t *r = &h->region; r != NULL; r = r->next) {
        if (b >= (uintptr_t)r->first && b < (uintptr_t)r->limit) {
            return true;
        }
    }
    return false;
}

/* One class's list: free blocks of that class in h's rows, each linked back to
 * the word that points to it; its bit goes into bits when it is not empty. */
static FN bool class_ok(const stow_heap_t *h, size_t c, size_t most, struct tally *t, size_t *bits)
{
    stow_heap_t *m = (stow_heap_t *)(uintptr_t)h; /* read only */
    word_t *pprev = head_at(m, c);
    size_t n = 0;
    for (uintptr_t x = *pprev; x != 0u; x = W((unsigned char *)x)[1]) {
        if (!in_rows(h, x) || n++ > most) {
            return false;
        }
        unsigned char *b = (unsigned char *)x;
        size_t head = head_of(b);
        if ((head & FLAGS) != 0u || head < MIN_BLOCK || class_of(head) != c || W(b)[2] != (uintptr_t)pprev) {
            return false;
        }
        pprev = &W(b)[1];
    }
    if (n != 0u) {
        bits[c / BITS] |= bit_of(c);
    }
    t->listed += n;
    return true;
}

#if STOW_CHECK_LEVEL >= 1
static FN size_t bits_in(const region_t *r)
{
    size_t words = map_bytes(r->first, r->top) / 4u;
    size_t n = 0;
    for (size_t w = 0; w < words; w++) {
        for (uint32_t x = r->starts[w]; x != 0u; x &= x - 1u) {
            n++;
        }
    }
    return n;
}
#endif

/* The blocks of region r tile [first, limit), end with the end word, and
 * agree with their neighbours; counts into t. */
static FN bool row_ok(const stow_heap_t *h, const region_t *r, struct tally *t)
{
    bool prev_free = false;
    unsigned char *b = r->first;
    while (b < r->limit) {
        size_t head = head_of(b);
        size_t size = size_of(head);
        bool is_free = (head & USED) == 0u;
        /* PREV_FREE on a free block is IS_TOP: set on the top alone */
        bool flag = (head & PREV_FREE) != 0u;
        if (size < MIN_BLOCK || (size & (ALIGN - 1u)) != 0u || size > (size_t)(r->limit - b) ||
            (is_free ? prev_free || flag != (b == h->top) || (head & ALIGNED) != 0u : flag != prev_free)) {
            return false;
        }
#if STOW_CHECK_LEVEL >= 1
        if (bit_at(r, b + HEADER) == is_free) {
            return false;
        }
#endif
        if (is_free) {
            t->free_blocks++;
            if (b != h->top && *W(b + size - WORD) != size) {
                return false;
            }
#if STOW_CHECK_LEVEL >= 2
            if (size > 4u * WORD && !stow__poison_intact(b + 3u * WORD, size - 4u * WORD)) {
                return false;
            }
#endif
        } else {
            t->live++;
            t->used += size;
            /* A block allocated with more than ALIGN keeps that alignment in
             * its last word: a power of two its payload meets. (Only such a
             * block's last word is read: in any other it is the caller's,
             * who may never have written it.) */
            if ((head & ALIGNED) != 0u) {
                size_t align = *W(b + size - WORD);
                if (align <= ALIGN || !stow__is_pow2(align) || !stow__is_aligned(b + HEADER, align)) {
                    return false;
                }
            }
#if STOW_CHECK_LEVEL >= 2
            if (!canary_intact(b + HEADER, b + HEADER + room_of(h, b + HEADER))) {
                return false;
            }
#else
            (void)h;
#endif
        }
        prev_free = is_free;
        b += size;
    }
    size_t end = head_of(r->limit);
    if (r->limit == h->top) {
        /* an empty top: region 0's end word, free, of size 0 */
        return b == r->limit && end == IS_TOP && !prev_free;
    }
    return b == r->limit && size_of(end) == 0u && (end & (USED | ALIGNED)) == USED &&
           ((end & PREV_FREE) != 0u) == prev_free;
}

/* One page of slots: its header, its free slots (each once, on its class's
 * grid, the never-handed-out ones from the VIRGIN mark to the end), its count
 * of live ones; the live bits and, at level 2, poison and canaries. */
static FN bool page_ok(const stow_heap_t *h, unsigned char *page, size_t *pages, struct tally *t)
{
    page_t *m = P(page);
    *pages = 1u;
    if (m->slot == SPARE) {
        /* The lowest page of a run of empty ones: the highest says the same
         * count; all of them poison past their header at level 2. */
        size_t n = m->free;
        unsigned char *high = page + (n - 1u) * PAGE;
        if (n == 0u || page == h->zone_lo || n > (size_t)(h->region.top - page) / PAGE || P(high)->slot != SPARE ||
            P(high)->free != n || (high + PAGE != h->region.top && P(high + PAGE)->slot == SPARE)) {
            return false;
        }
#if STOW_CHECK_LEVEL >= 2
        for (size_t i = 0; i < n; i++) {
            if (!empty_page_poisoned(page + i * PAGE)) {
                return false;
            }
        }
#endif
        t->avail[STOW__HEAP_SLOT_CLASSES]++;
        *pages = n;
        return true;
    }
    size_t s = m->slot;
    if (s < ALIGN || s > SLOT_SIZE(9u) || slot_bytes(slot_class(s - TAIL)) != s) {
        return false;
    }
    size_t k = slot_class(s - TAIL);
    size_t count = (PAGE - META) / s;
    uint64_t is_free = 0u;
    size_t free_slots = 0;
    size_t at = m->free;
    while (at != 0u) {
        if (at == VIRGIN) {
            return false;
        }
        size_t i = (at - META) / s;
        if (at < META || (at - META) % s != 0u || i >= count || ((is_free >> i) & 1u) != 0u) {
            return false;
        }
        is_free |= (uint64_t)1u << i;
        free_slots++;
        size_t next = *H(page + at);
        if (next == VIRGIN) {
            for (size_t j = i + 1u; j < count; j++) {
                is_free |= (uint64_t)1u << j;
                free_slots++;
            }
            next = 0u;
        }
        at = next;
    }
    if (m->used != count - free_slots || m->used == 0u) {
        return false;
    }
    if (free_slots != 0u) {
        t->avail[k]++;
    }
    for (size_t i = 0; i < count; i++) {
        unsigned char *p = page + META + i * s;
        bool live = ((is_free >> i) & 1u) == 0u;
        (void)p;
#if STOW_CHECK_LEVEL >= 1
        if (bit_at(&h->region, p) != live) {
            return false;
        }
#endif
        if (live) {
            t->live++;
            t->used += s;
#if STOW_CHECK_LEVEL >= 2
            if (!canary_intact(p, p + s)) {
                return false;
            }
        } else {
            /* A free slot: poison past its link; one after a VIRGIN mark, all
             * of it but that mark. */
            if (!slot_poisoned(p, s)) {
                return false;
            }
#endif
        }
    }
#if STOW_CHECK_LEVEL >= 2
    if (!tail_poisoned(page, s)) {
        return false;
    }
#endif
    (void)h;
    return true;
}

/* A list of pages (a class's, or the spare one): every page on it of class k,
 * not full, linked both ways, and as many as the walk of the pages met. */
static FN bool list_ok(const stow_heap_t *h, unsigned char *head, size_t k, size_t expected)
{
    size_t n = 0;
    size_t pages = page_number(h, h->zone_lo);
    size_t prev = 0;
    for (unsigned char *page = head; page != NULL; page = page_at(h, P(page)->next)) {
        size_t number = page_number(h, page);
        if (n++ >= pages || number == 0u || number > pages ||
            ((size_t)(h->region.top - page) & (PAGE - 1u)) != 0u || P(page)->prev != prev ||
            (k == SPARE ? P(page)->slot != SPARE : (P(page)->slot != slot_bytes(k) || P(page)->free == 0u)) ||
            P(page)->next > pages) {
            return false;
        }
        /* a run's lowest page: nothing spare just below, its count at its highest */
        if (k == SPARE && (page == h->zone_lo || P(page - PAGE)->slot == SPARE || P(page)->free == 0u ||
                           P(page)->free > number || P(page + (P(page)->free - 1u) * PAGE)->free != P(page)->free)) {
            return false;
        }
        prev = number;
    }
    return n == expected;
}

FN bool stow_heap_check(const stow_heap_t *h)
{
    STOW__CHECK(h != NULL, "stow_heap_check: heap is NULL", false);
    if (h->region.first == NULL) {
        return h->used == 0u;
    }
    /* The regions are where their storage says. */
    struct layout l;
    size_t most = 0;
    size_t blocks = 0; /* the most free blocks the rows can hold */
    for (const region_t *r = &h->region; r != NULL; r = r->next) {
        unsigned char *start = r == &h->region ? h->buf : (unsigned char *)(uintptr_t)r;
        size_t lead = r == &h->region ? ALIGN : (sizeof(region_t) + WORD + ALIGN - 1u) & ~(ALIGN - 1u);
        if (!layout_of(start + lead - ALIGN, r->end, &l) || l.first != r->first || l.top != r->top ||
            (r != &h->region && r->limit != r->top - WORD)) {
            return false;
        }
        size_t room = capacity_of(r) - HEADER - TAIL;
        most = room > most ? room : most;
        blocks += capacity_of(r) / MIN_BLOCK;
    }
    if (h->region.end != h->buf + h->size || h->max_size != most ||
        h->fast_max != (h->bounded != 0u ? 0u : most) || h->zone_lo != h->region.limit + WORD ||
        h->zone_len != stow__span(h->zone_lo, h->region.top) ||
        h->zone_lo > h->region.top || ((size_t)(h->region.top - h->zone_lo) & (PAGE - 1u)) != 0u ||
        (h->bounded != 0u && h->zone_lo != h->region.top)) {
        return false;
    }
    struct tally t; /* not = {0}: that may become a call of memset */
    t.free_blocks = 0u;
    t.listed = 0u;
    t.used = 0u;
    t.live = 0u;
    stow__fill(t.avail, 0u, sizeof t.avail);
    /* The class bits: set exactly for the non-empty classes (none past the last). */
    size_t bits[STOW__HEAP_CLASS_WORDS]; /* not = {0}: see t */
    stow__fill(bits, 0u, sizeof bits);
    for (size_t c = FIRST_CLASS; c < END_CLASS; c++) {
        if (!class_ok(h, c, blocks, &t, bits)) {
            return false;
        }
    }
    for (size_t w = 0; w < STOW__HEAP_CLASS_WORDS; w++) {
        if (h->classes[w] != bits[w]) {
            return false;
        }
    }
    size_t live_bits = 0;
    for (const region_t *r = &h->region; r != NULL; r = r->next) {
        if (!row_ok(h, r, &t)) {
            return false;
        }
#if STOW_CHECK_LEVEL >= 1
        live_bits += bits_in(r);
#endif
    }
    unsigned char *page = h->zone_lo;
    while (page < h->region.top) {
        size_t pages;
        if (!page_ok(h, page, &pages, &t)) {
            return false;
        }
        page += pages * PAGE;
    }
    for (size_t k = 0; k < STOW__HEAP_SLOT_CLASSES; k++) {
        if (!list_ok(h, h->avail[k], k, t.avail[k])) {
            return false;
        }
    }
#if STOW_CHECK_LEVEL >= 1
    if (live_bits != t.live) {
        return false;
    }
#else
    (void)live_bits;
#endif
    /* A bounded heap has no top; a default one has one: region 0's last
     * block, free, in no class, or empty (region 0's end word). */
    if ((h->top == NULL) != (h->bounded != 0u)) {
        return false;
    }
    if (h->top != NULL && h->top != h->region.limit &&
        ((uintptr_t)h->top < (uintptr_t)h->region.first || (uintptr_t)h->top >= (uintptr_t)h->region.limit ||
         (head_of(h->region.limit) & PREV_FREE) == 0u ||
         head_of(h->top) != (stow__span(h->top, h->region.limit) | IS_TOP))) {
        return false;
    }
    return list_ok(h, h->spare, SPARE, t.avail[STOW__HEAP_SLOT_CLASSES]) &&
           t.free_blocks == t.listed + (h->top != NULL && h->top != h->region.limit ? 1u : 0u) &&
           t.used == h->used;
}

/* The report's view of a heap (stow/report.h). */
STOW__REGISTRY_KIND(heap, stow_heap_t, true);
