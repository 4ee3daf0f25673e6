/* SPDX-License-Identifier: MIT */
/* fuzz_heap.c - stow_heap_* against a model of its documented behaviour: the
 * live slots and blocks, each with its requested size, the alignment it was
 * asked with, its usable size, what stats() counts for it (its slot, or its
 * block, read from the heap's own words as lib/src/heap.c lays them out) and a
 * tag whose pattern fills its usable bytes; the fails, the peak and the
 * largest free size of the empty heap. See fuzz.h.
 *
 * Where a slot or block goes is not predicted; what is checked of every one
 * handed out: not NULL when the model says the request must succeed, aligned
 * as asked, inside one of the heap's regions, clear of every other live one,
 * usable_size >= size (== at level 2), calloc's bytes zero, and its contents
 * read back before every free and realloc and after every call. Whether a
 * request succeeds is predicted from stow_heap_largest_free() taken just
 * before it, as the header documents:
 *   - alloc, calloc, realloc(NULL, n) and aligned alloc at the default
 *     alignment: the sizes up to largest_free succeed; a larger one fails,
 *     but in a default heap one of up to STOW_HEAP_SMALL_MAX bytes may still
 *     find a free slot (none when largest_free is 0 in a bounded heap);
 *   - aligned alloc above STOW_HEAP_ALIGN: refused when size > largest_free or
 *     the alignment exceeds the heap; sure to succeed when twice what it needs
 *     with the worst front gap fits the largest free block; in between either
 *     answer is allowed;
 *   - realloc: a size beyond the empty heap's largest_free is refused; a size
 *     up to the usable size never fails (it stays or moves: a bounded heap
 *     moves a block to another power of two, a default heap a slot to another
 *     slot size); a larger one stays, moves (keeping the alignment and
 *     min(usable size, new size) bytes) or, when no room is sure, is refused
 *     with the block untouched.
 * Every NULL counts one fail; contract violations count none and change nothing.
 *
 * Pointers given to free, realloc and usable_size come from everywhere: live
 * slots and blocks, NULL, freed ones (stale; live again if the heap reused the
 * address), interior and misaligned ones, headers, below and above the storage,
 * the bit map, another heap's blocks, the heap object, the stack. The model
 * calls a pointer a violation exactly when it is not live in this heap (NULL is
 * one only for usable_size): level 1 promises to catch all of them, double
 * frees included.
 *
 * The heap under test is made by init or init_bounded over a buffer the input
 * places and sizes (spoilt ones too: NULL, misaligned, short, below
 * STOW_HEAP_MIN_BYTES, which init must refuse changing nothing), or is a
 * DEFINE'd heap (default or bounded) set back to its constant initializer with
 * junk in its storage, which lays itself out on first use; the input may add a
 * second region to it. Every input ends by freeing what is live, after which
 * largest_free must be the empty heap's again. */
#include "fuzz.h"

#define BUF_BYTES 8192u
#define MARGIN 128u
#define DEFINED_BYTES 4096u
#define REGION_BYTES 2048u
#define MAX_LIVE ((BUF_BYTES + REGION_BYTES) / STOW_HEAP_ALIGN + 1u)
#define PAGE (64u * STOW_HEAP_ALIGN) /* a page of slots, as lib/src/heap.c lays it out */
#define NSTALE 8u
#define HA STOW_HEAP_ALIGN
#define HDR STOW_HEAP_OVERHEAD
#if STOW_CHECK_LEVEL >= 2
#define TAIL sizeof(void *) /* level 2: the requested size in each block's last word */
#else
#define TAIL ((size_t)0)
#endif

static _Alignas(128) unsigned char space[MARGIN + BUF_BYTES + MARGIN];
static _Alignas(128) unsigned char region_space[REGION_BYTES];
static _Alignas(128) unsigned char other_space[512];
static stow_heap_t heap, other;
STOW_HEAP_DEFINE_STATIC(defined_heap, DEFINED_BYTES);
STOW_HEAP_DEFINE_BOUNDED_STATIC(defined_bounded, DEFINED_BYTES);
static stow_heap_t pristine, pristine_bounded; /* the DEFINE'd heaps as their DEFINE made them */
static bool have_pristine;
static void *other_blocks[2];

typedef struct {
    unsigned char *p;
    size_t size, align, usable;
    size_t cost; /* what stats().used counts for it */
    uint32_t tag;
} block_t;

static struct {
    stow_heap_t *h;       /* the heap under test: &heap, &defined_heap or &defined_bounded */
    unsigned char *buf;   /* its storage */
    size_t bytes;
    bool region;          /* region_space is its second region */
    size_t lf0, capacity; /* largest_free and capacity of the empty heap */
    size_t peak, last_peak;
    uint32_t fails;
    uint32_t n;
    block_t b[MAX_LIVE];
    unsigned char *stale[NSTALE];
    uint32_t nstale;
    uint32_t next_tag;
} m;

/* ---- the model ------------------------------------------------------------------ */

static int find(const unsigned char *p)
{
    for (uint32_t i = 0; i < m.n; i++) {
        if (m.b[i].p == p) {
            return (int)i;
        }
    }
    return -1;
}

/* Bytes in live slots and blocks as stats() counts them. */
static size_t model_used(void)
{
    size_t used = 0;
    for (uint32_t i = 0; i < m.n; i++) {
        used += m.b[i].cost;
    }
    return used;
}

/* A payload in a page of slots (region 0's top) rather than in a block. */
static bool in_slot(const unsigned char *p)
{
    return (uintptr_t)p >= (uintptr_t)m.h->zone_lo && (uintptr_t)p < (uintptr_t)m.h->region.top;
}

static size_t word_of(const unsigned char *p)
{
    size_t w;
    fz_copy(&w, p, sizeof w);
    return w;
}

/* What stats().used counts for p: its slot (the slot size in its page's
 * header), or its block (the size in its header). */
static size_t cost_of(const unsigned char *p)
{
    if (in_slot(p)) {
        const unsigned char *page = p - (((uintptr_t)p - (uintptr_t)m.h->region.top) & (PAGE - 1u));
        unsigned char bytes;
        fz_copy(&bytes, page + 3u, 1u);
        FZ_CHECK(bytes % HA == 0u && bytes != 0u && bytes <= 9u * HA && bytes != 8u * HA);
        return bytes;
    }
    return word_of(p - HDR) & ~(size_t)7u;
}

/* Where p's slot or block starts. */
static uintptr_t start_of(const unsigned char *p) { return (uintptr_t)p - (in_slot(p) ? 0u : HDR); }

static size_t largest_free(void)
{
    size_t lf = 0;
    FZ_QUIET(lf = stow_heap_largest_free(m.h));
    return lf;
}

static size_t usable_of(const void *p)
{
    size_t u = 0;
    FZ_QUIET(u = stow_heap_usable_size(m.h, p));
    return u;
}

/* The alignment a request for align gets: 0 and anything below STOW_HEAP_ALIGN
 * give STOW_HEAP_ALIGN. */
static size_t resolved(size_t align) { return align > HA ? align : HA; }

/* Whether a request of size bytes at alignment align (resolved) may be refused,
 * lf being largest_free() just before; and whether it must be. */
static bool fits(size_t size, size_t lf) { return lf > 0u && size <= lf; } /* 0: not even size 0 */

static bool may_refuse(size_t size, size_t align, size_t lf)
{
    if (!fits(size, lf)) {
        return true;
    }
    if (align <= HA) {
        return false; /* largest_free says what is sure to succeed */
    }
    if (align > lf) {
        return true;
    }
    /* sure: twice the block with the worst front gap fits the largest free one */
    size_t need = size + sizeof(void *) + align + HA + HDR + TAIL + STOW_HEAP_MIN_BLOCK;
    return 2u * need > lf + HDR + TAIL;
}

/* A larger request than largest_free can succeed in a default heap only as a
 * slot, from a page that has one free. */
static bool must_refuse(size_t size, size_t align, size_t lf)
{
    if (align > m.capacity) {
        return true;
    }
    if (fits(size, lf)) {
        return false;
    }
    return m.h->bounded != 0u || size > STOW_HEAP_SMALL_MAX || align > HA;
}

/* A block handed out for size bytes at alignment align: where it may be, and
 * clear of the other live blocks (skip: the entry it replaces, or -1). Returns
 * its usable size. */
static size_t check_block(const unsigned char *p, size_t size, size_t align, int skip)
{
    FZ_CHECK(p != NULL);
    FZ_CHECK(((uintptr_t)p & (align - 1u)) == 0u);
    size_t usable = usable_of(p);
    FZ_CHECK(usable >= size);
    if (STOW_CHECK_LEVEL >= 2) {
        FZ_EQ(usable, size);
    }
    uintptr_t lo = start_of(p);
    uintptr_t hi = lo + cost_of(p);
    FZ_CHECK(hi >= (uintptr_t)p + usable);
    bool inside = lo >= (uintptr_t)m.buf && hi <= (uintptr_t)m.buf + m.bytes;
    inside = inside || (m.region && lo >= (uintptr_t)region_space && hi <= (uintptr_t)region_space + REGION_BYTES);
    FZ_CHECK(inside);
    for (uint32_t i = 0; i < m.n; i++) {
        if ((int)i == skip) {
            continue;
        }
        uintptr_t olo = start_of(m.b[i].p);
        uintptr_t ohi = olo + m.b[i].cost;
        if (lo < ohi && olo < hi) {
            FZ_FAIL("block %p+%zu overlaps live block %p+%zu", (const void *)p, usable,
                    (const void *)m.b[i].p, m.b[i].usable);
        }
    }
    return usable;
}

static void note_peak(size_t used)
{
    m.peak = used > m.peak ? used : m.peak;
}

static void took(unsigned char *p, size_t size, size_t align)
{
    size_t usable = check_block(p, size, align, -1);
    if (m.n == MAX_LIVE) {
        FZ_FAIL("more live blocks than the storage can hold");
    }
    block_t *b = &m.b[m.n++];
    b->p = p;
    b->size = size;
    b->align = align;
    b->usable = usable;
    b->cost = cost_of(p);
    b->tag = ++m.next_tag;
    fz_stamp(p, b->tag, usable);
    note_peak(model_used());
}

static void forget(uint32_t i)
{
    m.stale[m.nstale++ % NSTALE] = m.b[i].p;
    m.b[i] = m.b[--m.n];
}

static void verify(void)
{
    FZ_QUIET(FZ_CHECK(stow_heap_check(m.h)));
    FZ_QUIET(FZ_CHECK(stow_heap_check(&other)));
    for (uint32_t i = 0; i < m.n; i++) {
        FZ_CHECK(fz_stamped(m.b[i].p, m.b[i].tag, m.b[i].usable));
    }
    stow_stats_t s;
    FZ_QUIET(stow_heap_stats(m.h, &s));
    FZ_EQ(s.capacity, m.capacity);
    FZ_EQ(s.fails, m.fails);
    FZ_CHECK(s.peak >= s.used && s.peak >= m.last_peak && s.used <= s.capacity);
    m.last_peak = s.peak;
    FZ_EQ(s.used, model_used());
    FZ_EQ(s.peak, m.peak);
    if (m.n == 0u) {
        FZ_EQ(s.used, 0);
        FZ_EQ(largest_free(), m.lf0);
    }
}

/* ---- inputs ------------------------------------------------------------------------ */

/* A size: mostly small, else around what is free now or in the empty heap, or
 * one that overflows. */
static size_t some_size(size_t lf)
{
    uint8_t k = fz_u8();
    if (k < 140u) {
        return fz_below(160);
    }
    if (k < 180u) {
        return fz_below(1200);
    }
    if (k < 205u) {
        return lf + fz_below(3) - (lf > 0u ? 1u : 0u); /* lf - 1, lf, lf + 1 */
    }
    if (k < 215u) {
        return m.lf0 + fz_below(3) - 1u;
    }
    if (k < 240u) {
        return fz_size(64);
    }
    return fz_u32();
}

/* An alignment: fz_align()'s (0, powers of two up to 128, non-powers of two),
 * or a power of two up to 4096 or up to the top bit. */
static size_t some_align(void)
{
    uint8_t k = fz_u8();
    if (k < 200u) {
        return fz_align();
    }
    if (k < 240u) {
        return (size_t)1 << fz_below(13);
    }
    return (size_t)1 << fz_below((uint32_t)(sizeof(size_t) * 8u));
}

/* A pointer of some kind, for free, realloc and usable_size. */
static unsigned char *some_pointer(void)
{
    static int on_stack_marker;
    uint8_t kind = fz_u8() % 16u;
    uint32_t n = fz_u8();
    const block_t *live = m.n > 0u ? &m.b[n % m.n] : NULL;
    uintptr_t a;
    switch (kind) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
        return live != NULL ? live->p : NULL;
    case 5:
        return NULL;
    case 6: /* freed: stale, or live again */
        return m.nstale > 0u ? m.stale[n % (m.nstale < NSTALE ? m.nstale : NSTALE)] : NULL;
    case 7: /* interior, up to just past the usable bytes */
        return live != NULL ? live->p + 1u + fz_below((uint32_t)live->usable + 1u) : NULL;
    case 8: /* its header, a granule before or after, misaligned */
        if (live == NULL) {
            return NULL;
        }
        switch (fz_below(4)) {
        case 0: return live->p - HDR;
        case 1: return live->p - HA;
        case 2: return live->p + HA;
        default: return live->p + 1u + fz_below(HA - 1u);
        }
    case 9: /* below the storage */
        a = (uintptr_t)m.buf - 1u - fz_below(MARGIN);
        return (unsigned char *)a;
    case 10: /* the end word, the pages' headers, the bit map, past the storage, the region */
        if (n & 2u) {
            a = (uintptr_t)m.h->region.limit + fz_below(2u * PAGE);
        } else if (n & 4u) {
            a = (uintptr_t)region_space + fz_below(REGION_BYTES);
        } else {
            a = (uintptr_t)m.buf + m.bytes - 64u + fz_below(128);
        }
        return (unsigned char *)(a & ~(uintptr_t)(n & 1u ? HA - 1u : 0u));
    case 11: /* another heap's block */
        return (unsigned char *)other_blocks[n & 1u];
    case 12: /* not a heap at all */
        return n & 1u ? (unsigned char *)&on_stack_marker : (unsigned char *)m.h;
    case 13: /* anywhere in the storage, aligned */
        a = (uintptr_t)m.buf + fz_below((uint32_t)m.bytes);
        return (unsigned char *)(a & ~(uintptr_t)(HA - 1u));
    default: /* anywhere in the storage */
        return m.buf + fz_below((uint32_t)m.bytes);
    }
}

/* ---- calls ---------------------------------------------------------------------------- */

/* A NULL result: the model must allow it (size, align and lf say why not). */
static void refused(const void *p, bool may, size_t size, size_t align, size_t lf)
{
    FZ_CHECK(p == NULL);
    if (!may) {
        FZ_FAIL("refused %zu bytes at alignment %zu with largest_free %zu (empty heap: %zu)", size,
                align, lf, m.lf0);
    }
    m.fails++;
}

static void do_alloc(void)
{
    size_t lf = largest_free();
    unsigned char *p = (unsigned char *)&p;
    uint32_t how = fz_below(5);
    if (how == 3u) { /* calloc */
        size_t n = fz_u8() < 200u ? fz_below(40) : fz_size(8);
        size_t size = fz_u8() < 200u ? fz_below(40) : fz_size(8);
        FZ_QUIET(p = (unsigned char *)stow_heap_calloc(m.h, n, size));
        if (size != 0u && n > SIZE_MAX / size) {
            refused(p, true, SIZE_MAX, HA, lf);
            return;
        }
        size_t total = n * size;
        if (p == NULL) {
            refused(p, !fits(total, lf), total, HA, lf);
            return;
        }
        FZ_CHECK(!must_refuse(total, HA, lf));
        FZ_CHECK(fz_zero(p, total));
        took(p, total, HA);
        return;
    }
    size_t size = some_size(lf);
    size_t align = HA;
    if (how == 2u) {
        size_t asked = some_align();
        bool violation = asked != 0u && !fz_align_ok(asked);
        FZ_CALL(violation, p = (unsigned char *)stow_heap_alloc_aligned(m.h, size, asked));
        if (violation) {
            FZ_CHECK(p == NULL);
            return;
        }
        align = resolved(asked);
    } else if (how == 1u) {
        FZ_QUIET(p = (unsigned char *)stow_heap_alloc_isr(m.h, size));
    } else {
        FZ_QUIET(p = (unsigned char *)stow_heap_alloc(m.h, size));
    }
    if (p == NULL) {
        refused(p, may_refuse(size, align, lf), size, align, lf);
        return;
    }
    FZ_CHECK(!must_refuse(size, align, lf));
    took(p, size, align);
}

/* What the model says of p for free and realloc: its index when live, -1 for
 * NULL, -2 for a violation. */
static int classify(const unsigned char *p)
{
    if (p == NULL) {
        return -1;
    }
    int i = find(p);
    return i >= 0 ? i : -2;
}

static void do_free(void)
{
    unsigned char *p = some_pointer();
    int i = classify(p);
    if (i >= 0) {
        FZ_CHECK(fz_stamped(p, m.b[i].tag, m.b[i].usable));
    }
    if (fz_u8() & 1u) {
        FZ_CALL(i == -2, stow_heap_free_isr(m.h, p));
    } else {
        FZ_CALL(i == -2, stow_heap_free(m.h, p));
    }
    if (i >= 0) {
        forget((uint32_t)i);
    }
}

static void do_realloc(void)
{
    unsigned char *p = some_pointer();
    int i = classify(p);
    size_t lf = largest_free();
    size_t size;
    if (i >= 0 && fz_u8() < 96u) { /* around the block's own size */
        size_t u = m.b[i].usable;
        size = u + fz_below(3) - (u > 0u ? 1u : 0u);
        if (fz_u8() < 64u) {
            size = fz_below((uint32_t)u + 1u);
        }
    } else {
        size = some_size(lf);
    }
    bool isr = fz_u8() & 1u;
    unsigned char *q = (unsigned char *)&q;
    if (i >= 0) {
        FZ_CHECK(fz_stamped(p, m.b[i].tag, m.b[i].usable));
    }
    if (isr) {
        FZ_CALL(i == -2, q = (unsigned char *)stow_heap_realloc_isr(m.h, p, size));
    } else {
        FZ_CALL(i == -2, q = (unsigned char *)stow_heap_realloc(m.h, p, size));
    }
    if (i == -2) {
        FZ_CHECK(q == NULL);
        return;
    }
    if (i == -1) { /* realloc(NULL, size) is alloc(size) */
        if (q == NULL) {
            refused(q, !fits(size, lf), size, HA, lf);
            return;
        }
        FZ_CHECK(!must_refuse(size, HA, lf));
        took(q, size, HA);
        return;
    }
    block_t *b = &m.b[i];
    if (q == NULL) {
        /* a shrink never fails; a grow may when no room is sure */
        refused(q, size > m.lf0 || (size > b->usable && (size > lf || may_refuse(size, b->align, lf))), size,
                b->align, lf);
        return; /* p untouched: verify() reads it back */
    }
    FZ_CHECK(size <= m.lf0);
    size_t used_before = model_used();
    size_t usable = check_block(q, size, b->align, i);
    size_t kept = b->usable < size ? b->usable : size;
    FZ_CHECK(fz_stamped(q, b->tag, kept));
    if (q != p) {
        /* The new slot or block was taken while the old one was still live. */
        note_peak(used_before + cost_of(q));
        m.stale[m.nstale++ % NSTALE] = p;
    }
    b->p = q;
    b->size = size;
    b->usable = usable;
    b->cost = cost_of(q);
    b->tag = ++m.next_tag;
    fz_stamp(q, b->tag, usable);
    note_peak(model_used());
}

static void do_usable(void)
{
    unsigned char *p = some_pointer();
    int i = classify(p);
    size_t u = 1u;
    FZ_CALL(i < 0, u = stow_heap_usable_size(m.h, p));
    FZ_EQ(u, i >= 0 ? m.b[i].usable : 0u);
}

static void null_object(void)
{
    stow_stats_t s;
    void *p = &p;
    size_t n = 1u;
    bool b = true;
    switch (fz_below(12)) {
    case 0: FZ_CALL(true, p = stow_heap_alloc(NULL, 8)); FZ_CHECK(p == NULL); break;
    case 1: FZ_CALL(true, p = stow_heap_alloc_isr(NULL, 8)); FZ_CHECK(p == NULL); break;
    case 2: FZ_CALL(true, p = stow_heap_alloc_aligned(NULL, 8, 64)); FZ_CHECK(p == NULL); break;
    case 3: FZ_CALL(true, p = stow_heap_calloc(NULL, 2, 8)); FZ_CHECK(p == NULL); break;
    case 4: FZ_CALL(true, p = stow_heap_realloc(NULL, some_pointer(), 8)); FZ_CHECK(p == NULL); break;
    case 5: FZ_CALL(true, p = stow_heap_realloc_isr(NULL, some_pointer(), 8)); FZ_CHECK(p == NULL); break;
    case 6: FZ_CALL(true, stow_heap_free(NULL, some_pointer())); break;
    case 7: FZ_CALL(true, stow_heap_free_isr(NULL, some_pointer())); break;
    case 8: FZ_CALL(true, n = stow_heap_usable_size(NULL, some_pointer())); FZ_EQ(n, 0); break;
    case 9: FZ_CALL(true, n = stow_heap_largest_free(NULL)); FZ_EQ(n, 0); break;
    case 10: { /* the object, the output or both NULL */
        uint32_t which = fz_below(3);
        FZ_CALL(true, stow_heap_stats(which == 1u ? m.h : NULL, which == 0u ? &s : NULL));
        break;
    }
    default: FZ_CALL(true, b = stow_heap_check(NULL)); FZ_CHECK(!b); break;
    }
}

/* What a violation must not change (fz_watch): the heap objects, the storage of
 * the heap under test and MARGIN / 2 bytes around it (or all of space), the
 * other heap's storage. Watching less than everything keeps the copies and
 * compares of each violating call short. */
static void watch(bool whole_space)
{
    fz_watch_none();
    fz_watch(&heap, sizeof heap);
    fz_watch(&other, sizeof other);
    fz_watch(other_space, sizeof other_space);
    if (whole_space) {
        fz_watch(space, sizeof space);
    } else if (m.h == &heap) {
        unsigned char *lo = m.buf - (MARGIN / 2u);
        unsigned char *hi = m.buf + m.bytes + MARGIN / 2u;
        hi = hi < space + sizeof space ? hi : space + sizeof space;
        fz_watch(lo, (size_t)(hi - lo));
    }
    if (m.h == &defined_heap) {
        fz_watch(&defined_heap, sizeof defined_heap);
        fz_watch(stow__heap_buf_defined_heap, DEFINED_BYTES);
    }
    if (m.h == &defined_bounded) {
        fz_watch(&defined_bounded, sizeof defined_bounded);
        fz_watch(stow__heap_buf_defined_bounded, DEFINED_BYTES);
    }
    if (m.region) {
        fz_watch(region_space, REGION_BYTES);
    }
}

/* The model of an empty heap h over [buf, buf + bytes). */
static void start(stow_heap_t *h, unsigned char *buf, size_t bytes)
{
    m.h = h;
    m.buf = buf;
    m.bytes = bytes;
    m.region = false;
    m.n = m.nstale = 0u;
    m.fails = 0u;
    m.peak = m.last_peak = 0u;
    watch(false);
    m.lf0 = largest_free();
    stow_stats_t s;
    FZ_QUIET(stow_heap_stats(h, &s));
    FZ_STATS_EQ(s, s.capacity, 0, 0, 0);
    m.capacity = s.capacity;
    /* The blocks take all of the storage but the first payload's alignment, the
     * end word and, at levels 1 and 2, the bit map (one bit per granule) and its
     * rounding. */
    size_t map = STOW_CHECK_LEVEL >= 1 ? ((bytes / HA + 31u) / 32u + 1u) * 4u + HA : 0u;
    FZ_EQ(m.capacity, m.lf0 + HDR + TAIL);
    FZ_CHECK(m.capacity <= bytes && m.capacity + 2u * HA + sizeof(void *) + map >= bytes);
    FZ_CHECK(m.capacity % HA == 0u && m.capacity >= STOW_HEAP_MIN_BLOCK);
}

/* Adds region_space to the heap under test (not twice), or a spoilt region,
 * which add_region must refuse changing nothing. */
static void do_region(void)
{
    uint8_t how = fz_u8() % 8u;
    unsigned char *buf = region_space;
    size_t bytes = REGION_BYTES - fz_below(64) * HA;
    bool ok = !m.region;
    if (how == 1u) {
        buf = space; /* overlapping region 0's storage or the space around it */
        ok = false;
    } else if (how == 2u) {
        buf = region_space + 1u; /* misaligned */
        bytes -= 1u;
        ok = false;
    } else if (how == 3u) {
        bytes = STOW_HEAP_MIN_REGION_BYTES - 1u - fz_below(16);
        ok = false;
    } else if (how == 4u) {
        buf = NULL;
        ok = false;
    }
    if (how == 1u && m.h != &heap) {
        return; /* space is no region of a DEFINE'd heap (the model has one second region: region_space) */
    }
    if (how == 5u) {
        buf = (unsigned char *)m.h; /* the heap object */
        bytes = sizeof *m.h;
        ok = false;
    }
    watch(true);
    fz_watch(region_space, REGION_BYTES);
    bool r = !ok;
    fz_snapshot();
    FZ_QUIET(r = stow_heap_add_region(m.h, buf, bytes));
    FZ_EQ(r, ok);
    if (!r) {
        FZ_CHECK(fz_unchanged());
    } else {
        m.region = true;
        stow_stats_t s;
        FZ_QUIET(stow_heap_stats(m.h, &s));
        FZ_CHECK(s.capacity > m.capacity);
        m.capacity = s.capacity;
        if (m.n == 0u) {
            m.lf0 = largest_free();
        } else {
            size_t lf = largest_free();
            m.lf0 = lf > m.lf0 ? lf : m.lf0;
        }
    }
    watch(false);
}

/* Makes the heap under test: init over a buffer the input places and sizes
 * (refused ones included), or the DEFINE'd heap as it was at start-up with junk
 * in its storage. first: the opening call, which must give a heap. */
static void do_init(bool first)
{
    uint8_t how = first ? fz_u8() % 3u : fz_u8() % 16u;
    if (how == 7u || (first && how == 1u)) { /* the DEFINE'd heap */
        defined_heap = pristine;
        fz_fill(stow__heap_buf_defined_heap, (unsigned char)(0x5Au + how), DEFINED_BYTES);
        start(&defined_heap, stow__heap_buf_defined_heap, DEFINED_BYTES);
        return;
    }
    if (how == 8u || (first && how == 2u)) { /* the DEFINE'd bounded heap */
        defined_bounded = pristine_bounded;
        fz_fill(stow__heap_buf_defined_bounded, (unsigned char)(0x5Au + how), DEFINED_BYTES);
        start(&defined_bounded, stow__heap_buf_defined_bounded, DEFINED_BYTES);
        return;
    }
    bool bounded = (fz_u8() & 1u) != 0u;
    size_t lo = STOW_HEAP_MIN_BYTES - 8u;
    size_t bytes = lo + fz_below(BUF_BYTES - (uint32_t)lo + 1u);
    size_t offset = fz_below(MARGIN);
    if (first || fz_u8() < 160u) {
        offset &= ~(HA - 1u);
    }
    if (first && bytes < STOW_HEAP_MIN_BYTES) {
        bytes = STOW_HEAP_MIN_BYTES;
    }
    unsigned char *buf = space + MARGIN + offset;
    fz_spoil_buffer(how, &buf, &bytes);
    if (buf != NULL && bytes > (size_t)(space + sizeof space - buf)) {
        bytes = (size_t)(space + sizeof space - buf);
    }
    bool ok = buf != NULL && ((uintptr_t)buf & (HA - 1u)) == 0u && bytes >= STOW_HEAP_MIN_BYTES;
    if (how == 6u) {
        bool r = true;
        FZ_CALL(true, r = bounded ? stow_heap_init_bounded(NULL, buf, bytes) : stow_heap_init(NULL, buf, bytes));
        FZ_CHECK(!r);
        return;
    }
    if (first) {
        FZ_CHECK(ok);
    }
    if (ok) {
        fz_fill(buf, (unsigned char)fz_u8(), bytes); /* storage is never assumed zeroed */
    }
    watch(true);
    FZ_INIT(false, ok, bounded ? stow_heap_init_bounded(&heap, buf, bytes) : stow_heap_init(&heap, buf, bytes));
    if (ok) {
        start(&heap, buf, bytes);
    } else {
        watch(false);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!have_pristine) {
        pristine = defined_heap;
        pristine_bounded = defined_bounded;
        have_pristine = true;
    }
    fz_begin(data, size);
    m.h = NULL;
    watch(true);
    FZ_CHECK(stow_heap_init(&other, other_space, sizeof other_space));
    other_blocks[0] = stow_heap_alloc(&other, 24);
    other_blocks[1] = stow_heap_alloc_aligned(&other, 40, 64);
    FZ_CHECK(other_blocks[0] != NULL && other_blocks[1] != NULL);
    do_init(true);
    verify();
    while (fz_more()) {
        fz_step++;
        switch (fz_below(12)) {
        case 0:
        case 1:
        case 2:
            do_alloc();
            break;
        case 3:
        case 4:
            do_free();
            break;
        case 5:
        case 6:
            do_realloc();
            break;
        case 7:
            do_usable();
            break;
        case 8:
            null_object();
            break;
        case 9: /* restamp a block */
            if (m.n > 0u) {
                block_t *b = &m.b[fz_below(m.n)];
                b->tag = ++m.next_tag;
                fz_stamp(b->p, b->tag, b->usable);
            }
            break;
        case 10: /* free the most recent blocks, as a frame would */
            for (uint32_t k = fz_below(8); k > 0u && m.n > 0u; k--) {
                block_t *b = &m.b[m.n - 1u];
                FZ_CHECK(fz_stamped(b->p, b->tag, b->usable));
                FZ_QUIET(stow_heap_free(m.h, b->p));
                forget(m.n - 1u);
                verify();
            }
            break;
        default:
            if (fz_u8() < 32u) {
                do_init(false);
            } else if (fz_u8() < 64u) {
                do_region();
            }
            break;
        }
        verify();
    }
    /* Everything freed, in an order of the input's: the heap is whole again. */
    fz_step++;
    for (uint32_t k = 0; m.n > 0u; k++) {
        uint32_t i = (k * 7u + (uint32_t)m.next_tag) % m.n;
        FZ_CHECK(fz_stamped(m.b[i].p, m.b[i].tag, m.b[i].usable));
        FZ_QUIET(stow_heap_free(m.h, m.b[i].p));
        forget(i);
        verify();
    }
    FZ_EQ(largest_free(), m.lf0);
    return 0;
}
