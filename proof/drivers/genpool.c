/* SPDX-License-Identifier: MIT */
/* proof/drivers/genpool.c - every sequence of genpool calls a program can make.
 *
 * For each geometry below and a buffer one byte short, exact or one byte long
 * (and one at an address the pool refuses), any number of calls, each chosen
 * freely: insert (from an aligned item, and from an unaligned one where the
 * pool copies bytes), alloc (with and without its out pointer), remove, cancel
 * and remove_isr of any live item, insert_isr, lock/alloc/unlock, clear; the
 * program writes any bytes into every item it gets. Between two such calls,
 * every call that changes nothing, with every argument: get, contains,
 * get_isr, read_isr (to an aligned and an unaligned place), remove, cancel and
 * remove_isr with EVERY handle that names no live item, and next with every
 * handle it accepts (the runs use 30 index bits, which leave 3 generations, so
 * that the analysis follows each slot's generation exactly and generations
 * wrap all the time; the handles tried are every index up to the capacity with
 * every generation), handle_of with every item's address (and at level 0, where
 * the header promises a handle and no read outside the pool, with addresses
 * that are not an item's), first/next over the pool, iterate from every cursor,
 * the fast walk (stow_genpool_walk_*), count, capacity, retired, stats, check
 * and the registry's view. At levels 1 and 2 also the misuses those levels
 * catch (every NULL argument, an unaligned item where the pool copies words, a
 * pointer that is not an item, a null handle or an index past the capacity
 * given to next()); at level 2 also a write through a stale pointer, reported
 * when its slot is handed out again, and an item removed during a walk, which
 * the walk reports and skips. Each misuse must be reported once, and nothing
 * else may be.
 *
 * The driver keeps a model of the pool (per slot: live or not, and its
 * generation; the bump index, the high-water mark `reached`, the free list in
 * order) and checks every answer against it; the analysis keeps one state per
 * value of the model (`split shape`), so no two different pools are merged.
 *
 * The memory lies at fixed addresses, the buffer first holding no value, and
 * the bytes after the storage are a fence (proof/handles.h).
 */
#include "stow/genpool.h"
#include "stow/report.h"
#include "handles.h"

struct geometry {
    size_t size, align;
    uint32_t capacity;
};

/* Strides 3, 12 = 3 << 2, 16 and 24 = 3 << 3 (handle_of's shift and inverse);
 * copies by bytes (3), by words in a loop (12, 24: on 64 bits the 8-byte loop
 * for 24) and the 16-byte copy; alignments 1, 4, 8 and the default;
 * capacity 1 (full at once) and 2 (a free list two deep). */
static const struct geometry geometries[] = {
    {3u, 1u, 1u}, {12u, 4u, 2u}, {16u, 0u, 1u}, {24u, 8u, 1u},
};
#define GEOMETRIES ((uint32_t)(sizeof geometries / sizeof geometries[0]))

static stow_genpool_t g;
static unsigned char *base; /* the pool's items */
static size_t stride, size, need; /* need: the bytes of storage the geometry takes */
static uint32_t capacity;
static bool copies_words;

/* The model: slots [0, bump) handed out since init or the last clear, the
 * high-water mark of bump as of the last clear, live[i] and gen[i] (the
 * generation of slot i's live item, or the one it hands out next),
 * free_stack[0 .. nfree) the free list, its head last; and for a slot in
 * [bump, reached), whether its item was live at the clear (its word and bit
 * still say so) or not. */
static uint32_t bump, reached, nfree, free_stack[CAP_MAX], gen[CAP_MAX];
static bool live[CAP_MAX], cleared_live[CAP_MAX];

enum { TAKE, REMOVE, CANCEL, CLEAR, QUERY, MISUSE, STALE_WRITE, OPS };

static unsigned char *item(uint32_t i) { return base + (size_t)i * stride; }

static uint32_t model_live_count(void)
{
    uint32_t n = 0u;
    //@ loop unroll 3;
    for (uint32_t i = 0u; i < capacity; i++) {
        n += live[i] ? 1u : 0u;
    }
    return n;
}

/* The handle insert or alloc must return (0: full), and the model after it. */
static uint32_t model_take(uint32_t *slot)
{
    uint32_t s;
    if (nfree > 0u) {
        nfree--;
        s = free_stack[nfree];
    } else if (bump < capacity) {
        s = bump;
        bump++;
    } else {
        return 0u;
    }
    live[s] = true;
    cleared_live[s] = false;
    *slot = s;
    return HANDLE(gen[s], s);
}

/* Slot s's item is removed (next: its generation moves on) or cancelled. */
static void model_give_back(uint32_t s, bool next)
{
    live[s] = false;
    if (next) {
        gen[s] = next_gen(gen[s]);
    }
    free_stack[nfree] = s;
    nfree++;
}

/* Whether handle h names a live item. */
static bool model_names(uint32_t h)
{
    uint32_t i = h & MASK;
    return i < capacity && live[i] && h == HANDLE(gen[i], i);
}

/* The lowest live slot at or above i, or capacity. */
static uint32_t model_live_from(uint32_t i)
{
    //@ loop unroll 3;
    while (i < capacity && !live[i]) {
        i++;
    }
    return i;
}

static uint32_t model_shape(void)
{
    uint32_t shape = bump * 4u + reached;
    //@ loop unroll 3;
    for (uint32_t i = 0u; i < capacity; i++) {
        shape = shape * 16u + gen[i] * 4u + (live[i] ? 2u : 0u) + (cleared_live[i] ? 1u : 0u);
    }
    shape = shape * 4u + nfree;
    //@ loop unroll 3;
    for (uint32_t i = 0u; i < nfree; i++) {
        shape = shape * 4u + free_stack[i];
    }
    return shape;
}

/* The item a call just handed out: as the call says, then the program writes
 * any bytes into it, and its slot's tag into its first byte (the queries check
 * that no other call changes it while it lives). */
#define TAG 0x70u
static void got(unsigned char *p, unsigned char value)
{
    //@ assert item_bytes: \forall integer k; 0 <= k < size ==> p[k] == value;
    Frama_C_make_unknown((char *)p, size);
    *p = (unsigned char)(TAG + (uint32_t)((size_t)(p - base) / stride));
}

/* Every call that changes nothing, with every argument. */
static void queries(void)
{
    stow_stats_t s;
    stow_handle_t h;
    unsigned char *p;
    uint32_t i, cursor, n, live_n;
    bool ok;

    /* every handle with an index up to the capacity (one past the slots) and
     * every generation: every handle the pool can tell apart */
    //@ loop unroll 3;
    for (uint32_t hi = 0u; hi <= capacity; hi++) {
        //@ loop unroll 4;
        for (uint32_t hg = 0u; hg <= GEN_MAX; hg++) {
            uint32_t bits = HANDLE(hg, hi);
            bool names = model_names(bits);
            h = handle(bits);
            p = stow_genpool_get(&g, h);
            //@ assert get_as_modelled: names ? p == base + hi * stride : p == \null;
            ok = stow_genpool_contains(&g, h);
            //@ assert contains_as_modelled: ok == names;
            if (hg != 0u && hi < capacity) { /* next() takes every other handle */
                i = model_live_from(hi + 1u);
                h = stow_genpool_next(&g, h);
                //@ assert next_as_modelled: h.bits == (i < capacity ? HANDLE(gen[i], i) : 0);
            }
            if (!names) { /* removing what is not there: false, and nothing changes */
                ok = stow_genpool_remove(&g, handle(bits)) || stow_genpool_cancel(&g, handle(bits));
                //@ assert refused: !ok;
            }
        }
    }
    /* the _isr calls with the handle of each slot's current generation (a live
     * item's, or one that names nothing) */
    //@ loop unroll 3;
    for (i = 0u; i < capacity; i++) {
        uint32_t bits = HANDLE(gen[i], i);
        bool names = live[i];
        p = stow_genpool_get_isr(&g, handle(bits));
        //@ assert get_as_modelled: names ? p == base + i * stride : p == \null;
        ok = stow_genpool_read_isr(&g, handle(bits), at(OUT));
        //@ assert read_as_modelled: ok == names;
        ok = stow_genpool_read_isr(&g, handle(bits), at(OUT + 1u));
        //@ assert read_as_modelled: ok == names;
        if (!names) {
            ok = stow_genpool_remove_isr(&g, handle(bits));
            //@ assert refused: !ok;
        }
    }
    /* every live item holds what the program wrote */
    //@ loop unroll 3;
    for (i = 0u; i < capacity; i++) {
        if (live[i]) {
            //@ assert item_kept: base[i * stride] == TAG + i;
        }
    }
    /* handle_of: every item's address; at level 0 also addresses that are not
     * an item's, which give an unspecified handle and read nothing outside */
    //@ loop unroll 3;
    for (i = 0u; i < capacity; i++) {
        h = stow_genpool_handle_of(&g, item(i));
        //@ assert handle_of_as_modelled: h.bits == (live[i] ? HANDLE(gen[i], i) : 0);
#if STOW_CHECK_LEVEL == 0
        (void)stow_genpool_handle_of(&g, item(i) + 1);
#endif
    }
#if STOW_CHECK_LEVEL == 0
    (void)stow_genpool_handle_of(&g, base - 1);
    (void)stow_genpool_handle_of(&g, item(capacity));
#endif
    /* first/next over the whole pool */
    i = model_live_from(0u);
    h = stow_genpool_first(&g);
    //@ loop unroll 3;
    while (i < capacity) {
        //@ assert first_next_in_order: h.bits == HANDLE(gen[i], i);
        h = stow_genpool_next(&g, h);
        i = model_live_from(i + 1u);
    }
    //@ assert first_next_end: h.bits == 0;
    /* iterate from every cursor */
    //@ loop unroll 4;
    for (uint32_t c = 0u; c <= capacity + 1u; c++) {
        cursor = c <= capacity ? c : UINT32_MAX;
        i = model_live_from(c <= capacity ? c : capacity);
        p = stow_genpool_iterate(&g, &cursor);
        //@ assert iterate_as_modelled: i < capacity ? (p == base + i * stride && cursor == i + 1) : p == \null;
    }
    /* the fast walk, as STOW_GENPOOL_FOREACH makes it */
    {
        stow_genpool_walk_t w = stow_genpool_walk_begin(&g);
        i = model_live_from(0u);
        //@ loop unroll 3;
        while (stow_genpool_walk_next(&w)) {
            //@ assert walk_in_order: i < capacity && w.item == base + i * stride;
            i = model_live_from(i + 1u);
        }
        //@ assert walk_complete: i == capacity;
    }
    live_n = model_live_count();
    n = stow_genpool_count(&g);
    //@ assert count_as_modelled: n == live_n;
    n = stow_genpool_capacity(&g);
    //@ assert capacity_as_declared: n == capacity;
    n = stow_genpool_retired(&g);
    //@ assert none_retired: n == 0;
    stow_genpool_stats(&g, &s);
    //@ assert stats_as_modelled: s.used == live_n && s.capacity == capacity;
    //@ assert peak_bounds_used: s.used <= s.peak <= capacity;
    ok = stow_genpool_check(&g);
    //@ assert check_passes: ok;
    stow_registry_kind_genpool.stats(&g, &s);
    ok = stow_registry_kind_genpool.check(&g);
    //@ assert check_passes: ok;
}

#if STOW_CHECK_LEVEL >= 1
/* Every misuse level 1 catches, each reported once and changing nothing.
 * Returns how many it made. */
static uint32_t misuses(void)
{
    stow_stats_t s;
    stow_genpool_walk_t w;
    stow_handle_t h = handle(HANDLE(1u, 0u));
    uint32_t cursor = 0u, n = 35u;
    bool ok;
    (void)stow_genpool_init(&g, at(BUF), BUF_MAX, 4u, 3u, 1u); /* not a power of two */
    (void)stow_genpool_init(NULL, at(BUF), BUF_MAX, 4u, 4u, 1u);
    (void)stow_genpool_alloc(NULL, &h);
    (void)stow_genpool_insert(NULL, at(SRC));
    (void)stow_genpool_insert(&g, NULL);
    (void)stow_genpool_get(NULL, h);
    (void)stow_genpool_contains(NULL, h);
    (void)stow_genpool_remove(NULL, h);
    (void)stow_genpool_cancel(NULL, h);
    (void)stow_genpool_handle_of(NULL, base);
    (void)stow_genpool_handle_of(&g, NULL);
    (void)stow_genpool_handle_of(&g, base - 1);       /* before the items */
    (void)stow_genpool_handle_of(&g, item(capacity)); /* just past them */
    (void)stow_genpool_handle_of(&g, base + 1);       /* inside the first (strides are > 1) */
    stow_genpool_clear(NULL);
    (void)stow_genpool_count(NULL);
    (void)stow_genpool_capacity(NULL);
    (void)stow_genpool_retired(NULL);
    (void)stow_genpool_first(NULL);
    (void)stow_genpool_next(NULL, h);
    (void)stow_genpool_next(&g, STOW_HANDLE_NULL);
    (void)stow_genpool_next(&g, handle(HANDLE(1u, capacity))); /* index past the capacity */
    (void)stow_genpool_iterate(NULL, &cursor);
    (void)stow_genpool_iterate(&g, NULL);
    stow_genpool_stats(NULL, &s);
    stow_genpool_stats(&g, NULL);
    (void)stow_genpool_check(NULL);
    (void)stow_genpool_lock(NULL);
    stow_genpool_unlock(NULL, 0u);
    (void)stow_genpool_insert_isr(NULL, at(SRC));
    (void)stow_genpool_insert_isr(&g, NULL);
    (void)stow_genpool_get_isr(NULL, h);
    (void)stow_genpool_read_isr(NULL, h, at(OUT));
    (void)stow_genpool_read_isr(&g, h, NULL);
    (void)stow_genpool_remove_isr(NULL, h);
    w = stow_genpool_walk_begin(NULL);
    ok = stow_genpool_walk_next(&w);
    //@ assert empty_walk: !ok;
    n++; /* walk_begin */
    if (copies_words) { /* items not aligned to 4 */
        (void)stow_genpool_insert(&g, at(SRC + 2u));
        (void)stow_genpool_insert_isr(&g, at(SRC + 1u));
        n += 2u;
    }
    return n;
}
#endif

int main(void)
{
    uint32_t gi, k, off;
    size_t align;
    bool inited;

    memory_at_start();

    /* init refuses what it must, changing nothing */
    inited = stow_genpool_init(&g, at(BUF), BUF_MAX, 0u, 1u, 1u) ||        /* no item */
         stow_genpool_init(&g, at(BUF), BUF_MAX, 4u, 4u, 0u) ||        /* no slot */
         stow_genpool_init(&g, at(BUF), BUF_MAX, 1u, 1u, MASK + 2u) || /* past the handles */
         stow_genpool_init(&g, NULL, BUF_MAX, 4u, 4u, 1u) ||
         stow_genpool_init(&g, at(BUF), SIZE_MAX, SIZE_MAX, 1u, 2u) || /* 4 GiB of items or more */
         stow_genpool_init(&g, at(BUF), SIZE_MAX, SIZE_MAX - 2u, 4u, 1u) || /* the stride wraps */
         stow_genpool_init(&g, at(BUF), SIZE_MAX, (size_t)1u << 31, 1u, 2u);
    //@ assert init_refuses: !inited && g.items == \null && proof_assert_count == 0;

    gi = ANY(0u, GEOMETRIES - 1u);
    //@ split gi;
    size = geometries[gi].size;
    align = geometries[gi].align;
    capacity = geometries[gi].capacity;
    stride = STOW__GENPOOL_STRIDE(size, align);
    copies_words = (size & 3u) == 0u && STOW__GENPOOL_ALIGN(align) >= 4u;
    need = STOW_GENPOOL_BYTES(size, align, capacity);
    k = ANY(0u, 2u);
    //@ split k;
    off = ANY(0u, 1u); /* at the aligned buffer, or one byte past it */
    //@ split off;
    inited = stow_genpool_init(&g, at(BUF + off), need - 1u + k, size, align, capacity);
    //@ split inited;
    if (!inited) {
        //@ assert refused_for_a_cause: k == 0 || off != 0;
        return 0;
    }
    //@ assert init_needs_room_and_alignment: k >= 1 && off == 0;
    fence_after(need);
    //@ merge k;
    base = at(BUF);
    gen[0] = 1u;
    gen[1] = 1u;
    proof_assert_count = 0u;
    while (ANY_BOOL()) {
        /* every variable of one call lives in this block: none carries a value
         * from one call to the next, which would keep apart states that the
         * model says are the same */
        uint32_t op, j, way, misuse = 0u, shape, expect, slot;
        stow_handle_t h;
        unsigned char *p;
        bool ok;
        /* Fields that histories leave different but that no decision of the
         * library reads, except to update them, are taken as any value they can
         * hold before every call (a superset of what a program reaches), so that
         * the analysis does not keep such histories apart: the statistics fails
         * and peak, and the head of an empty free list (0 after init, else the
         * link of the last slot taken from it: the other slot, or 1 in a pool of
         * one slot), which only becomes the next removed slot's link, itself
         * never followed. */
        g.fails = ANY(0u, UINT32_MAX);
        g.peak = ANY(0u, capacity);
        if (g.free_count == 0u) {
            g.free_head = ANY(0u, 1u);
        }
        op = ANY(0u, OPS - 1u);
        //@ split op;
        j = ANY(0u, 1u); /* a slot, or one of two ways of making the call */
        switch (op) {
        case TAKE: /* a slot is taken, in one of five ways that leave the same pool */
            expect = model_take(&slot);
            way = ANY(0u, 4u);
            if (way <= 1u) { /* insert (from the aligned item or, where the pool copies
                              * bytes, from an unaligned one), insert_isr */
                h = way == 0u ? stow_genpool_insert(&g, at(SRC + (copies_words ? 0u : j)))
                              : stow_genpool_insert_isr(&g, at(SRC));
                //@ assert take_as_modelled: h.bits == expect;
                if (expect != 0u) {
                    got(item(slot), PATTERN);
                }
            } else {
                if (way == 2u) { /* alloc, without its out pointer */
                    p = stow_genpool_alloc(&g, NULL);
                    h.bits = expect;
                } else if (way == 3u) {
                    p = stow_genpool_alloc(&g, &h);
                } else { /* alloc as one step under the lock */
                    uint32_t state = stow_genpool_lock(&g);
                    p = stow_genpool_alloc(&g, &h);
                    stow_genpool_unlock(&g, state);
                }
                //@ assert take_as_modelled: h.bits == expect;
                //@ assert alloc_as_modelled: expect != 0 ? p == base + slot * stride : p == \null;
                if (p != NULL) {
                    got(p, 0u);
                }
            }
            break;
        case REMOVE: /* the item in slot j, if live; remove or remove_isr */
            //@ split j;
            if (j < capacity && live[j]) {
                ok = ANY_BOOL() ? stow_genpool_remove(&g, handle(HANDLE(gen[j], j)))
                                : stow_genpool_remove_isr(&g, handle(HANDLE(gen[j], j)));
                //@ assert remove_as_modelled: ok;
                model_give_back(j, true);
            }
            break;
        case CANCEL: /* the item in slot j, if live: it goes back with its generation */
            //@ split j;
            if (j < capacity && live[j]) {
                ok = stow_genpool_cancel(&g, handle(HANDLE(gen[j], j)));
                //@ assert cancel_as_modelled: ok;
                model_give_back(j, false);
            }
            break;
        case CLEAR:
            stow_genpool_clear(&g);
            //@ loop unroll 3;
            for (uint32_t i = 0u; i < bump; i++) {
                cleared_live[i] = live[i];
                if (live[i]) {
                    live[i] = false;
                    gen[i] = next_gen(gen[i]);
                }
            }
            reached = bump > reached ? bump : reached;
            bump = 0u;
            nfree = 0u;
            break;
        case QUERY:
            queries();
            break;
        case MISUSE: /* what the level catches is reported, and changes nothing */
#if STOW_CHECK_LEVEL >= 1
            misuse = misuses();
#endif
            break;
        default: /* STALE_WRITE, at level 2 */
#if STOW_CHECK_LEVEL >= 2
            //@ split j;
            if (j == 0u) {
                /* a pointer kept past its item's removal writes into the slot the
                 * next insert takes (if it was used before); the insert reports */
                uint32_t s0 = nfree > 0u ? free_stack[nfree - 1u] : bump;
                if (s0 < (bump > reached ? bump : reached)) {
                    item(s0)[0] = 0x00u;
                    expect = model_take(&slot);
                    h = stow_genpool_insert(&g, at(SRC));
                    //@ assert insert_as_modelled: h.bits == expect && slot == s0;
                    got(item(slot), PATTERN);
                    misuse++;
                }
            } else if (capacity == 2u && live[0] && live[1]) {
                /* an item other than the current one removed during a walk */
                stow_genpool_walk_t w = stow_genpool_walk_begin(&g);
                ok = stow_genpool_walk_next(&w);
                //@ assert walk_in_order: ok && w.item == base;
                ok = stow_genpool_remove(&g, handle(HANDLE(gen[1], 1u)));
                model_give_back(1u, true);
                ok = stow_genpool_walk_next(&w);
                //@ assert walk_skips_removed: !ok;
                misuse++;
            }
#endif
            break;
        }
        //@ assert contract_checks: proof_assert_count == misuse;
        //@ assert fence_intact: \forall integer q; need <= q < BUF_MAX ==> ((unsigned char *)BUF)[q] == FENCE;
        shape = model_shape();
        //@ split shape;
        //@ merge op;
        //@ merge j;
        proof_assert_count = 0u;
    }
    return 0;
}
