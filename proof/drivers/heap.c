/* SPDX-License-Identifier: MIT */
/* proof/drivers/heap.c - every sequence of up to STEPS heap calls from six
 * starting heaps (not any number of calls: see below).
 *
 * For each geometry below (region 0 with no room for a page of slots, where
 * every request takes a block; region 0 with room for two pages and a few
 * blocks; the bounded policy), before the starts, a heap as DEFINE leaves it
 * (laid out by its first call), then init's refusals; the starts are the heap
 * as init leaves it and one built by a fixed sequence (build()). From each,
 * up to STEPS calls, each chosen freely: alloc, alloc_isr, lock/alloc/unlock,
 * realloc of NULL, alloc_aligned (0, less than the granule, twice and four
 * times it), calloc (1 x n, n x 1), realloc and realloc_isr of a held block,
 * free and free_isr of one, add_region (a second region, once), with sizes 0,
 * a slot's largest, a block's smallest and SIZE_MAX; the program writes a tag
 * into every byte it may use. Or the calls that change nothing (queries():
 * usable_size of every held block, stats, largest_free and an alloc of that
 * much, which must succeed, freed again; set_failed_hook, lock/unlock,
 * add_region and requests that must be refused; check). At levels 1 and 2
 * also the misuses those levels catch (misuses(): every call with no heap; a
 * pointer outside the heap, before its first block, misaligned, inside a
 * block, freed already, given to free, realloc and usable_size; an alignment
 * that is not a power of two), at level 2 a write past the requested bytes,
 * reported by free and realloc, and a write into a freed slot, reported by the
 * alloc that hands it out again. Each misuse must be reported once, leave the
 * heap as it was (check() passes, every held block keeps its tag), and nothing
 * else may be reported.
 *
 * The driver keeps a model of the program's side: the blocks it holds (up to
 * HELD of them, each with its requested size, alignment, usable size and a
 * tag in every usable byte), the bytes of heap each takes (stats().used's
 * increase when it was handed out), whether the second region was added and
 * the hooks' calls. Every answer is checked against it: a block handed out is
 * aligned, inside a region, disjoint from every held block, with a usable
 * size at least the request (at level 2 exactly); a refused request calls the
 * failed hook once; every call traces one line; realloc keeps the contents
 * up to the smaller size (the tag); used is the sum of what the held blocks
 * took; check() passes; the tags of every held block and the fence bytes
 * around the regions are intact after every call.
 *
 * Why a bounded number of calls: with a loop over calls and a split on the
 * model, Eva joins heaps the model calls the same, which differ in the order
 * of a class's list or of a page's free slots or in what two calls giving the
 * same block left behind; the joined heaps gave alarms of imprecision. So no
 * state is ever joined (the run's slevel for main is above the number of
 * paths), and the sequences are as long as the time budget allows.
 *
 * The heap object, its regions and the fence between them lie at fixed
 * addresses (MEM, a range proof/proof.mk tells the analysis is memory),
 * because the heap tests addresses for alignment and orders pointers into
 * different regions (the overlap test, the lookup of a pointer's region), which
 * the analyser follows only for addresses it knows. Those bytes are first made
 * uninitialised (copied from a local array that holds no value), so a read of
 * storage the heap never wrote is reported as it would be in an ordinary
 * array. The runs set STOW_HEAP_TRACE (proof/proof.mk), and the heap's trace
 * hook calls stow_heap_trace_write, writing through the port, on every call.
 */
#include <string.h>

#include "stow/heap.h"
#include "proof.h"

#define WORD sizeof(void *)
#define ALIGN STOW_HEAP_ALIGN
#define PAGE (64u * ALIGN)
#define MIN_BLOCK STOW_HEAP_MIN_BLOCK
#define SMALL_MAX STOW_HEAP_SMALL_MAX

#define MEM 0x1000u
#define HEAP_AT MEM                /* the heap object: at most 0x600 bytes */
#define R0_AT (MEM + 0x600u)       /* region 0: at most R0_ROOM bytes, then the fence */
#define R0_ROOM (2u * 0x400u + 0x200u)
#define R1_AT (R0_AT + R0_ROOM + 0x40u) /* region 1, when added: R1 bytes, then the fence */
#define MEM_END (R1_AT + 0x100u)   /* the range ends here */
#define FENCE 0xA5u
#define TAG 0x70u                  /* held block i holds TAG + i in every requested byte */

/* Region 0: 12 granules (no page of slots: every request takes a block), or
 * two pages and 16 granules (slots of two classes, a spare page, and blocks
 * from the top beside them). Region 1: the smallest an added region may be,
 * and two smallest blocks more. */
#define R0_SMALL (12u * ALIGN)
#define R0_PAGES (2u * PAGE + 16u * ALIGN)
#define R1 ((size_t)STOW_HEAP_MIN_REGION_BYTES + 2u * MIN_BLOCK)

/* What a request asks for: 0 (the smallest slot or block), the largest
 * slot, the smallest block beyond the slots, and SIZE_MAX (more than any
 * region: refused). */
static const size_t sizes[] = {0u, SMALL_MAX, SMALL_MAX + 1u, SIZE_MAX};
#define SIZES ((uint32_t)(sizeof sizes / sizeof sizes[0]))

#define HELD 3u
/* The model: entry i holds block held[i] (NULL: none) of sizes[held_size[i]]
 * requested bytes, aligned to held_align[i] (realloc keeps it), which took
 * took[i] bytes of the heap (stats().used's increase when it was handed out,
 * or resized); region 1 added or not. */
static unsigned char *held[HELD];
static uint32_t held_size[HELD];
static size_t held_align[HELD], held_usable[HELD], took[HELD];
static bool added;
static size_t r0; /* region 0's size */
/* Calls of the hooks, and misuses made, during one call of the loop. */
static uint32_t failed_calls, traced_calls, misuse;

static stow_heap_t *const h = (stow_heap_t *)HEAP_AT;
static const void *table[8];
static stow_heap_tracer_t tracer = STOW_HEAP_TRACER(table);

static unsigned char *at(uintptr_t address) { return (unsigned char *)address; }

/* The failed hook: counts, and checks it is told about this heap. */
static void failed(stow_heap_t *heap, size_t size)
{
    //@ assert failed_hook_heap: heap == h;
    (void)size;
    failed_calls++;
}

/* The trace hook: counts, then writes the line through the port
 * (stow_heap_trace_write with the tracer's write function NULL). */
static void traced(void *ctx, char op, const void *block, size_t size, const void *old, size_t arg)
{
    traced_calls++;
    stow_heap_trace_write(ctx, op, block, size, old, arg);
}

/* The first entry of the model with no block, or HELD. */
static uint32_t model_free_entry(void)
{
    uint32_t i = 0u;
    //@ loop unroll HELD;
    while (i < HELD && held[i] != NULL) {
        i++;
    }
    return i;
}

/* The first entry with a block, or HELD. */
static uint32_t model_held_entry(void)
{
    uint32_t i = 0u;
    //@ loop unroll HELD;
    while (i < HELD && held[i] == NULL) {
        i++;
    }
    return i;
}

static size_t model_used(void)
{
    size_t used = 0u;
    //@ loop unroll HELD;
    for (uint32_t i = 0u; i < HELD; i++) {
        used += held[i] != NULL ? took[i] : 0u;
    }
    return used;
}

/* Whether [p, p + n) lies in a region of the heap. */
static bool in_region(const unsigned char *p, size_t n)
{
    uintptr_t a = (uintptr_t)p;
    return (a >= R0_AT && n <= r0 && a - R0_AT <= r0 - n) ||
           (added && a >= R1_AT && n <= R1 && a - R1_AT <= R1 - n);
}

static size_t heap_used(void)
{
    stow_stats_t s;
    stow_heap_stats(h, &s);
    return s.used;
}

/* Block p, just handed out for sizes[s] bytes at alignment align and taking
 * `grew` bytes of the heap, becomes entry i: aligned, inside a region,
 * disjoint from every other held block, usable for at least the request; the
 * program writes its tag into every byte it may use (a header the heap wrote
 * into another held block would show as a changed tag). */
static void got(uint32_t i, unsigned char *p, uint32_t s, size_t align, size_t grew)
{
    size_t n = sizes[s];
    size_t usable = stow_heap_usable_size(h, p);
    //@ assert usable_covers_request: usable >= n;
    //@ assert aligned: (uintptr_t)p % align == 0;
    bool inside = in_region(p, usable);
    //@ assert inside_a_region: inside;
#if STOW_CHECK_LEVEL >= 2
    //@ assert takes_its_bytes: usable < grew;
#else
    //@ assert takes_its_bytes: usable <= grew <= usable + 2 * WORD;
#endif
    //@ loop unroll HELD;
    for (uint32_t j = 0u; j < HELD; j++) {
        if (j != i && held[j] != NULL) {
            //@ assert disjoint: p + usable <= held[j] || held[j] + held_usable[j] <= p;
        }
    }
    held[i] = p;
    held_size[i] = s;
    held_align[i] = align;
    took[i] = grew;
    held_usable[i] = usable;
    memset(p, (int)(TAG + i), usable);
}

/* A request of sizes[s] bytes into entry i: kind 0 by one of the calls that
 * give the default alignment (way: alloc, alloc_isr, lock/alloc/unlock,
 * realloc of NULL, alloc_aligned with 0 and with less than the granule,
 * calloc as 1 x n and as n x 1); kinds 1 and 2 by alloc_aligned with twice
 * and four times the granule. NULL exactly with one call of the failed hook;
 * one line traced. */
static void take(uint32_t i, uint32_t s, uint32_t kind, uint32_t way)
{
    size_t n = sizes[s], before = heap_used(), align = ALIGN;
    uint32_t fails = failed_calls, traces = traced_calls, state;
    unsigned char *p;
    if (kind != 0u) {
        align = kind == 1u ? 2u * ALIGN : 4u * ALIGN;
        p = stow_heap_alloc_aligned(h, n, align);
    } else {
        switch (way) {
        case 0u:
            p = stow_heap_alloc(h, n);
            break;
        case 1u:
            p = stow_heap_alloc_isr(h, n);
            break;
        case 2u: /* as one step under the lock */
            state = stow_heap_lock(h);
            p = stow_heap_alloc(h, n);
            stow_heap_unlock(h, state);
            break;
        case 3u:
            p = stow_heap_realloc(h, NULL, n);
            break;
        case 4u:
            p = stow_heap_alloc_aligned(h, n, 0u);
            break;
        case 5u:
            p = stow_heap_alloc_aligned(h, n, WORD);
            break;
        default:
            p = way == 6u ? stow_heap_calloc(h, 1u, n) : stow_heap_calloc(h, n, 1u);
            if (p != NULL) {
                //@ assert calloc_zeroes: \forall integer k; 0 <= k < n ==> p[k] == 0;
            }
            break;
        }
    }
    if (p == NULL) {
        //@ assert refusal_reported: failed_calls == fails + 1;
        return;
    }
    //@ assert no_refusal: failed_calls == fails;
    //@ assert traced: traced_calls == traces + 1;
    got(i, p, s, align, heap_used() - before);
}

/* Entry i resized to sizes[s] bytes by realloc or realloc_isr: the contents
 * kept up to the smaller size, the alignment kept; NULL exactly with a call
 * of the failed hook, the block still held and unchanged. */
static void resize(uint32_t i, uint32_t s, bool isr)
{
    unsigned char *old = held[i];
    size_t n = sizes[s], before = heap_used(), keep;
    uint32_t fails = failed_calls, traces = traced_calls;
    unsigned char *p = isr ? stow_heap_realloc_isr(h, old, n) : stow_heap_realloc(h, old, n);
    if (p == NULL) {
        //@ assert refusal_reported: failed_calls == fails + 1;
        return;
    }
    //@ assert no_refusal: failed_calls == fails;
    //@ assert traced: traced_calls == traces + 1;
    keep = held_usable[i] < n ? held_usable[i] : n;
    //@ assert contents_kept: \forall integer k; 0 <= k < keep ==> p[k] == TAG + i;
    held[i] = NULL;
    got(i, p, s, held_align[i], took[i] + (heap_used() - before));
}

/* Entry i freed, by free or free_isr. */
static void give_back(uint32_t i, bool isr)
{
    uint32_t traces = traced_calls;
    if (isr) {
        stow_heap_free_isr(h, held[i]);
    } else {
        stow_heap_free(h, held[i]);
    }
    //@ assert free_traced: traced_calls == traces + 1;
    held[i] = NULL;
    held_size[i] = 0u;
    held_align[i] = 0u;
    held_usable[i] = 0u;
    took[i] = 0u;
}

/* The calls that change nothing (but an alloc of largest_free, freed again). */
static void queries(void)
{
    stow_stats_t s;
    size_t most, usable;
    unsigned char *p;
    uint32_t state;
    bool ok;

    //@ loop unroll HELD;
    for (uint32_t i = 0u; i < HELD; i++) {
        if (held[i] != NULL) {
            usable = stow_heap_usable_size(h, held[i]);
#if STOW_CHECK_LEVEL >= 2
            //@ assert usable_is_request: usable == sizes[held_size[i]];
#else
            //@ assert usable_covers_request: usable >= sizes[held_size[i]];
#endif
        }
    }
    stow_heap_free(h, NULL);
    stow_heap_stats(h, &s);
    usable = model_used();
    //@ assert used_as_modelled: s.used == usable;
    //@ assert used_within_capacity: s.used <= s.capacity && s.used <= s.peak;
    /* every request up to largest_free succeeds */
    most = stow_heap_largest_free(h);
    if (most != 0u) {
        p = stow_heap_alloc(h, most);
        //@ assert largest_free_succeeds: p != \null;
        stow_heap_free(h, p);
    }
    stow_heap_set_failed_hook(h, failed);
    state = stow_heap_lock(h);
    stow_heap_unlock(h, state);
    /* storage add_region must refuse, changing nothing: none, misaligned, too
     * small, wrapping around, overlapping region 0, the heap object or region 1 */
    ok = stow_heap_add_region(h, NULL, R1) || stow_heap_add_region(h, at(R1_AT + 1u), R1) ||
         stow_heap_add_region(h, at(R1_AT), (size_t)STOW_HEAP_MIN_REGION_BYTES - 1u) ||
         stow_heap_add_region(h, at(R1_AT), SIZE_MAX - R1_AT + 1u) ||
         stow_heap_add_region(h, at(R0_AT + r0 - ALIGN), R1) ||
         stow_heap_add_region(h, at(HEAP_AT), R1) ||
         (added && stow_heap_add_region(h, at(R1_AT), R1));
    //@ assert add_region_refuses: !ok;
    /* refused requests: calloc's product overflows, an alignment beyond the heap */
    p = stow_heap_calloc(h, 2u, SIZE_MAX / 2u + 1u);
    //@ assert calloc_overflow_refused: p == \null;
    p = stow_heap_alloc_aligned(h, 1u, SIZE_MAX / 2u + 1u);
    //@ assert alignment_refused: p == \null;
    ok = stow_heap_check(h);
    //@ assert check_passes: ok;
}

#if STOW_CHECK_LEVEL >= 1
/* The misuses the level catches, each reported once, changing nothing; the
 * number of them. */
static uint32_t misuses(void)
{
    uint32_t n = 0u, i = model_held_entry();
    unsigned char *p, *q;
    stow_stats_t s;

    /* every call with no heap */
    (void)stow_heap_init(NULL, at(R0_AT), r0);
    (void)stow_heap_init_bounded(NULL, at(R0_AT), r0);
    (void)stow_heap_add_region(NULL, at(R1_AT), R1);
    (void)stow_heap_alloc(NULL, 1u);
    (void)stow_heap_alloc_aligned(NULL, 1u, 0u);
    (void)stow_heap_calloc(NULL, 1u, 1u);
    (void)stow_heap_realloc(NULL, NULL, 1u);
    stow_heap_free(NULL, NULL);
    (void)stow_heap_alloc_isr(NULL, 1u);
    stow_heap_free_isr(NULL, NULL);
    (void)stow_heap_realloc_isr(NULL, NULL, 1u);
    (void)stow_heap_lock(NULL);
    stow_heap_unlock(NULL, 0u);
    (void)stow_heap_usable_size(NULL, NULL);
    stow_heap_stats(NULL, &s);
    stow_heap_stats(h, NULL);
    (void)stow_heap_largest_free(NULL);
    stow_heap_set_failed_hook(NULL, failed);
    stow_heap_set_trace(NULL, traced, &tracer);
    (void)stow_heap_check(NULL);
    n += 20u;
    /* an alignment that is not a power of two */
    p = stow_heap_alloc_aligned(h, 1u, 3u * ALIGN);
    //@ assert refused: p == \null;
    n++;
    /* pointers that are not a live slot or block: outside the heap (its
     * object, region 0's first granule, the fence), NULL to usable_size */
    stow_heap_free(h, at(HEAP_AT));
    p = stow_heap_realloc(h, at(R0_AT), 1u);
    //@ assert refused: p == \null;
    (void)stow_heap_usable_size(h, at(R0_AT + r0));
    (void)stow_heap_usable_size(h, NULL);
    n += 4u;
    if (i < HELD) {
        /* misaligned, and inside a held block */
        stow_heap_free_isr(h, held[i] + 1u);
        n++;
        if (sizes[held_size[i]] > ALIGN) {
            q = stow_heap_realloc_isr(h, held[i] + ALIGN, 1u);
            //@ assert refused: q == \null;
            n++;
        }
    }
    /* freed already: a block taken and given back (the heap keeps its model's
     * blocks), then freed, resized and asked about again */
    p = stow_heap_alloc(h, 1u);
    if (p != NULL) {
        stow_heap_free(h, p);
        stow_heap_free(h, p);
        q = stow_heap_realloc(h, p, 2u);
        //@ assert refused: q == \null;
        (void)stow_heap_usable_size(h, p);
        n += 3u;
    }
    return n;
}
#endif

#if STOW_CHECK_LEVEL >= 2
/* A write past the requested bytes of entry i (into its canary), reported by
 * the free or realloc that follows (which then frees or resizes it anyway). */
static void write_past(uint32_t i, bool by_realloc)
{
    held[i][sizes[held_size[i]]] = 0x00u;
    if (by_realloc) {
        resize(i, held_size[i], false);
    } else {
        give_back(i, false);
    }
    misuse++;
}

/* A write into a slot after it was freed (its bytes past the link), reported
 * by the alloc that hands it out again (which hands it out anyway, and it is
 * freed again). Slots only, and in a page that another live slot keeps in
 * use: a freed slot is then the next one of its size handed out (the driver
 * tells a slot by the run of pages at region 0's top, which it reads from the
 * heap object). A freed block merges with its neighbours, and which block the
 * next request takes depends on them; a page that empties is not checked
 * when it is taken again (see docs/proof.md). */
static void write_after_free(void)
{
    unsigned char *keep = stow_heap_alloc(h, 0u), *p = stow_heap_alloc(h, 0u), *q;
    uintptr_t top = (uintptr_t)h->region.top;
    bool slots = keep != NULL && p != NULL && (uintptr_t)p >= (uintptr_t)h->zone_lo && (uintptr_t)p < top &&
                 (uintptr_t)keep < top && (top - (uintptr_t)p - 1u) / PAGE == (top - (uintptr_t)keep - 1u) / PAGE;
    if (p != NULL) {
        stow_heap_free(h, p);
    }
    if (slots) {
        p[2] = 0x00u;
        q = stow_heap_alloc(h, 0u);
        //@ assert stale_handed_out_again: q == p;
        stow_heap_free(h, q);
        misuse++;
    }
    if (keep != NULL) {
        stow_heap_free(h, keep);
    }
}
#endif

enum { TAKE, RESIZE, FREE, ADD_REGION, QUERY, MISUSE, WRITE_PAST, WRITE_AFTER_FREE, OPS };

/* The calls made from each start: up to STEPS of them, any choice each. 1 in
 * make prove (its time budget); -DPROOF_HEAP_STEPS=2u makes every sequence of
 * two, in runs about six times longer (docs/proof.md has their results). */
#ifdef PROOF_HEAP_STEPS
#define STEPS PROOF_HEAP_STEPS
#else
#define STEPS 1u
#endif

/* The heaps the steps start from: the heap as init leaves it, and one built
 * by a fixed sequence (checked as any call is) that sets up the paths the
 * steps reach only after more calls: in the small geometries, region 1
 * added and three blocks taken from its class, the first and the last freed
 * (the middle one's free merges both sides; a request of the smallest block
 * takes the class's first block exactly); with room for pages, a slot of the
 * smallest class and one of the largest (two pages, the first taken the
 * highest), and a block from the top, the smallest slot freed (its page, not
 * the lowest, becomes a spare run: the next slot of another class takes it;
 * freeing the largest slot then gives both pages back to the top). */
static void build(uint32_t geometry)
{
    if (geometry != 1u) {
        bool ok = stow_heap_add_region(h, at(R1_AT), R1);
        //@ assert add_region_accepts: ok;
        added = true;
        take(0u, 0u, 0u, 0u);
        take(1u, 0u, 0u, 0u);
        take(2u, 0u, 0u, 0u);
        give_back(0u, false);
        give_back(2u, false);
    } else {
        take(0u, 0u, 0u, 0u);
        take(1u, 1u, 0u, 0u);
        take(2u, 2u, 0u, 0u);
        give_back(0u, false);
    }
    //@ assert built: proof_assert_count == 0;
}

int main(void)
{
    unsigned char junk[MEM_END - MEM];
    uint32_t geometry, start;
    size_t lazy_most;
    bool ok;

    /* The heap's object and storage hold no value until the heap writes them. */
    memcpy(at(MEM), junk, sizeof junk);

    geometry = ANY(0u, 2u); /* region 0 small, with room for pages, small and bounded */
    //@ split geometry;
    r0 = geometry == 1u ? R0_PAGES : R0_SMALL;
    /* the bytes around region 0 and region 1 are a fence, checked after every
     * call: a write there shows (a read there would not: the range is memory to
     * the analyser) */
    memset(at(R0_AT + r0), FENCE, R1_AT - (R0_AT + r0));
    memset(at(R1_AT + R1), FENCE, MEM_END - (R1_AT + R1));
    memset(at(R0_AT - ALIGN), FENCE, ALIGN);

    /* init refuses what it must, changing nothing */
    ok = stow_heap_init(h, NULL, r0) || stow_heap_init(h, at(R0_AT + WORD), r0) ||
         stow_heap_init(h, at(R0_AT), (size_t)STOW_HEAP_MIN_BYTES - 1u) ||
         stow_heap_init_bounded(h, at(R0_AT + 1u), r0);
    //@ assert init_refuses: !ok && proof_assert_count == 0;

    /* A heap as DEFINE leaves it is laid out by its first call: before that,
     * the calls that only look (stats, largest_free, check), then alloc, or
     * add_region, lays it out. */
    if (geometry != 2u) {
        stow_stats_t st;
        unsigned char *p;
        *h = (stow_heap_t)STOW__HEAP_INITIALIZER(at(R0_AT), r0, NULL, 0u);
        stow_heap_stats(h, &st);
        //@ assert lazy_stats: st.used == 0 && st.capacity > 0 && st.fails == 0;
        lazy_most = stow_heap_largest_free(h);
        ok = stow_heap_check(h);
        //@ assert lazy_check: ok && lazy_most > SMALL_MAX;
        if (geometry == 0u) {
            p = stow_heap_alloc(h, 1u);
            //@ assert lazy_alloc: p != \null && (uintptr_t)p % ALIGN == 0;
        } else {
            ok = stow_heap_add_region(h, at(R1_AT), R1);
            //@ assert lazy_add_region: ok;
        }
        ok = stow_heap_check(h);
        //@ assert check_passes: ok;
    }
    /* then a heap by init, or by init_bounded */
    ok = geometry == 2u ? stow_heap_init_bounded(h, at(R0_AT), r0) : stow_heap_init(h, at(R0_AT), r0);
    //@ assert init_accepts: ok;
    stow_heap_set_failed_hook(h, failed);
    stow_heap_set_trace(h, traced, &tracer);
    proof_assert_count = 0u;
    start = ANY(0u, 1u);
    //@ split start;
    if (start != 0u) {
        build(geometry);
    }
    /* Every sequence of up to STEPS calls, each state kept apart (the run's
     * slevel for main is above the number of paths): no two heaps are ever
     * joined. */
    //@ loop unroll STEPS;
    for (uint32_t step = 0u; step < STEPS; step++) {
        uint32_t op, i, s, kind;
        bool isr, fine = true;
        if (!ANY_BOOL()) {
            break;
        }
        /* The heap's statistics that no decision of the library reads but
         * their own updates and stats() (the count of refusals, the high-water
         * mark), taken as any value before every call. */
        h->fails = ANY(0u, UINT32_MAX);
        h->peak = ANY(0u, MEM_END);
        failed_calls = 0u;
        traced_calls = 0u;
        misuse = 0u;
        op = ANY(0u, OPS - 1u);
        //@ split op;
        i = ANY(0u, HELD - 1u); /* an entry of the model */
        s = ANY(0u, SIZES - 1u); /* a size */
        /* the _isr forms, and the calls that give the default alignment, by
         * turns: each is made on some path, and the paths do not multiply */
        isr = ((step + i + start) & 1u) != 0u;
        switch (op) {
        case TAKE: /* into the first entry with no block */
            i = model_free_entry();
            if (i < HELD) {
                /* every size by the default alignment; the aligned kinds
                 * with one size each (a slot's size: a block all the same;
                 * a block's) */
                kind = ANY(0u, 2u);
                //@ split kind;
                s = kind == 0u ? s : kind == 1u ? 0u : 2u;
                //@ split s;
                take(i, s, kind, (s + 3u * step + 5u * geometry + start) % 8u);
            }
            break;
        case RESIZE:
            //@ split i;
            if (held[i] != NULL) {
                //@ split s;
                resize(i, s, isr);
            }
            break;
        case FREE:
            //@ split i;
            if (held[i] != NULL) {
                give_back(i, isr);
            }
            break;
        case ADD_REGION:
            if (!added) {
                ok = stow_heap_add_region(h, at(R1_AT), R1);
                //@ assert add_region_accepts: ok;
                added = true;
            }
            break;
        case QUERY:
            queries();
            break;
        case MISUSE:
#if STOW_CHECK_LEVEL >= 1
            misuse = misuses();
            /* check() after the misuses of the first step (a second step,
             * any call, follows them; check() is the costliest call of the
             * run, and the last step's misuses are checked by the tags) */
            if (step == 0u) {
                fine = stow_heap_check(h);
                //@ assert check_passes: fine;
            }
#endif
            break;
        case WRITE_PAST:
#if STOW_CHECK_LEVEL >= 2
            //@ split i;
            if (held[i] != NULL) {
                write_past(i, isr);
            }
#endif
            break;
        default: /* WRITE_AFTER_FREE */
#if STOW_CHECK_LEVEL >= 2
            write_after_free();
#endif
            break;
        }
        //@ assert contract_checks: proof_assert_count == misuse;
        //@ assert tag_0: held[0] == \null || \forall integer k; 0 <= k < held_usable[0] ==> held[0][k] == TAG + 0;
        //@ assert tag_1: held[1] == \null || \forall integer k; 0 <= k < held_usable[1] ==> held[1][k] == TAG + 1;
        //@ assert tag_2: held[2] == \null || \forall integer k; 0 <= k < held_usable[2] ==> held[2][k] == TAG + 2;
        //@ assert fence_0: \forall integer k; R0_AT + r0 <= k < R1_AT ==> ((unsigned char *)MEM)[k - MEM] == FENCE;
        //@ assert fence_1: \forall integer k; R1_AT + R1 <= k < MEM_END ==> ((unsigned char *)MEM)[k - MEM] == FENCE;
        //@ assert fence_below: \forall integer k; R0_AT - ALIGN <= k < R0_AT ==> ((unsigned char *)MEM)[k - MEM] == FENCE;
        proof_assert_count = 0u;
        (void)fine;
    }
    return 0;
}
