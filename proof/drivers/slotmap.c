/* SPDX-License-Identifier: MIT */
/* proof/drivers/slotmap.c - every sequence of slot map calls a program can make.
 *
 * For each geometry below and a buffer one byte short, exact or one byte long
 * (and one at an address the map refuses), any number of calls, each chosen
 * freely: insert (from an aligned and from an unaligned item), insert_isr,
 * alloc, lock/alloc/unlock; remove and remove_isr of the item at any position
 * (swap-and-pop); cancel of the last item; mark_dead of any item; refresh with
 * and without an on_destroy callback; clear; the program writes any bytes into
 * every item it gets. Between two such calls, every call that changes nothing,
 * with every argument: get, contains and is_dead with EVERY handle whose index
 * is at most the capacity (the runs use 30 index bits, which leave 3
 * generations, so that the analysis follows each index's generation exactly and
 * generations wrap all the time), remove, cancel and mark_dead with every handle
 * that names no live item (and cancel with every item but the last, mark_dead
 * with every item already dead), get_isr and read_isr (to an aligned and an
 * unaligned place), handle_at at every position below the count, data, count,
 * capacity, dead_count, retired, stats, check and the registry's view. At
 * levels 1 and 2 also the misuses those levels catch (every NULL argument, an
 * index at the count given to handle_at); at level 2 also a write through a
 * stale pointer into the position the next insert takes, which that insert
 * reports. Each misuse must be reported once, and nothing else may be.
 *
 * The driver keeps a model of the map (the handle index at each position, its
 * dead mark, each index's generation, the count and the indices used) and
 * checks every answer against it: where every item is, which handle names it,
 * the order refresh keeps, the items on_destroy is called for; the analysis
 * keeps one state per value of the model (`split shape`).
 *
 * The memory lies at fixed addresses, the buffer first holding no value, and
 * the bytes after the storage are a fence (proof/handles.h).
 */
#include "stow/slotmap.h"
#include "stow/report.h"
#include "handles.h"

struct geometry {
    size_t size, align;
    uint32_t capacity;
};

/* Item moves and zero fills of every kind: bytes (3), words (12, 8), the
 * 16-byte block (16) and two overlapping 16-byte blocks (20); a copy in by
 * bytes of an item whose stride is whole words (5, stride 8); alignments 1, 4
 * and the default; capacity 1 and 2 (two items swap places). */
static const struct geometry geometries[] = {
    {3u, 1u, 1u}, {12u, 4u, 2u}, {16u, 0u, 1u}, {20u, 4u, 1u}, {5u, 4u, 1u},
};
#define GEOMETRIES ((uint32_t)(sizeof geometries / sizeof geometries[0]))

static stow_slotmap_t m;
static unsigned char *base; /* the map's items */
static size_t stride, size, need; /* need: the bytes of storage the geometry takes */
static uint32_t capacity;

/* The model: indices [0, bump) used so far (in STOW_GEN_WRAP mode every one is
 * parked at a position below bump: top == bump); dense[p] the index at position
 * p; items at positions [0, count), dead[p] their dead marks; gen[i] the
 * generation of index i's item, or the one it gives next when free. */
static uint32_t bump, count, dense[CAP_MAX], gen[CAP_MAX];
static bool dead[CAP_MAX];

/* What on_destroy was called with during one refresh: the positions, and the
 * handle index of the item there. */
static uint32_t destroyed, expect_destroyed[CAP_MAX], expect_index[CAP_MAX];
static int destroy_ctx;

enum { TAKE, REMOVE, CANCEL, MARK, REFRESH, CLEAR, QUERY, MISUSE, STALE_WRITE, OPS };

static unsigned char *item(uint32_t p) { return base + (size_t)p * stride; }

/* The handle of the item at position p. */
static uint32_t model_handle_at(uint32_t p) { return HANDLE(gen[dense[p]], dense[p]); }

/* The position of the item handle h names, or CAP_MAX. */
static uint32_t model_find(uint32_t h)
{
    //@ loop unroll 3;
    for (uint32_t p = 0u; p < count; p++) {
        if (h == model_handle_at(p)) {
            return p;
        }
    }
    return CAP_MAX;
}

static uint32_t model_dead_count(void)
{
    uint32_t n = 0u;
    //@ loop unroll 3;
    for (uint32_t p = 0u; p < count; p++) {
        n += dead[p] ? 1u : 0u;
    }
    return n;
}

/* The handle the next insert or alloc must return (0: full), and the model
 * after it: the index parked at position count, or a new one. */
static uint32_t model_take(void)
{
    if (count == bump) {
        if (bump == capacity) {
            return 0u;
        }
        dense[bump] = bump;
        bump++;
    }
    dead[count] = false;
    count++;
    return model_handle_at(count - 1u);
}

/* The item at position p is removed: the last one moves into p, and p's index
 * is parked at the last position with its next generation. */
static void model_remove(uint32_t p)
{
    uint32_t last = count - 1u, index = dense[p];
    dense[p] = dense[last];
    dead[p] = dead[last];
    dense[last] = index;
    gen[index] = next_gen(gen[index]);
    count = last;
}

/* Refresh: the survivors slide down in order, each dead item's index is parked
 * where the library's stable partition leaves it, with its next generation. */
static uint32_t model_refresh(void)
{
    uint32_t w = 0u, n = 0u;
    //@ loop unroll 3;
    for (uint32_t r = 0u; r < count; r++) {
        if (dead[r]) {
            expect_destroyed[n] = r;
            expect_index[n] = dense[r];
            n++;
            continue;
        }
        if (w != r) {
            uint32_t x = dense[r];
            dense[r] = dense[w];
            dense[w] = x;
            dead[r] = dead[w];
            dead[w] = false;
        }
        w++;
    }
    //@ loop unroll 3;
    for (uint32_t p = w; p < count; p++) {
        gen[dense[p]] = next_gen(gen[dense[p]]);
    }
    count = w;
    return n;
}

static uint32_t model_shape(void)
{
    uint32_t shape = bump * 4u + count;
    //@ loop unroll 3;
    for (uint32_t p = 0u; p < bump; p++) {
        shape = shape * 16u + dense[p] * 8u + gen[dense[p]] * 2u + (p < count && dead[p] ? 1u : 0u);
    }
    return shape;
}

/* The item a call just handed out: as the call says, then the program writes
 * any bytes into it, and the tag of its handle index into its first byte (the
 * queries check that every item is where the model says, after every move). */
#define TAG 0x70u
static void got(unsigned char *p, unsigned char value)
{
    //@ assert item_bytes: \forall integer k; 0 <= k < size ==> p[k] == value;
    Frama_C_make_unknown((char *)p, size);
    *p = (unsigned char)(TAG + dense[count - 1u]);
}

/* on_destroy: called once for each dead item, in position order, before the
 * item moves; it reads the item, as a destructor would. */
static void on_destroy(void *it, void *ctx)
{
    volatile unsigned char sum = 0u;
    //@ assert destroy_in_order: destroyed < CAP_MAX && (unsigned char *)it == base + expect_destroyed[destroyed] * stride;
    //@ assert destroy_ctx: ctx == &destroy_ctx;
    //@ assert destroy_item: *(unsigned char *)it == TAG + expect_index[destroyed];
    //@ loop unroll 32;
    for (size_t k = 0u; k < size; k++) {
        sum = (unsigned char)(sum + ((unsigned char *)it)[k]);
    }
    destroyed++;
}

/* Every call that changes nothing, with every argument. */
static void queries(void)
{
    stow_stats_t s;
    stow_handle_t h;
    unsigned char *p;
    uint32_t n, live_dead;
    bool ok;

    //@ loop unroll 3;
    for (uint32_t hi = 0u; hi <= capacity; hi++) {
        //@ loop unroll 4;
        for (uint32_t hg = 0u; hg <= GEN_MAX; hg++) {
            uint32_t bits = HANDLE(hg, hi);
            uint32_t pos = model_find(bits);
            bool names = pos < CAP_MAX;
            h = handle(bits);
            p = stow_slotmap_get(&m, h);
            //@ assert get_as_modelled: names ? p == base + pos * stride : p == \null;
            ok = stow_slotmap_contains(&m, h);
            //@ assert contains_as_modelled: ok == names;
            ok = stow_slotmap_is_dead(&m, h);
            //@ assert is_dead_as_modelled: names ? ok == dead[pos] : !ok;
            if (!names) { /* calls on what is not there: false, and nothing changes */
                ok = stow_slotmap_remove(&m, h) || stow_slotmap_cancel(&m, h) ||
                     stow_slotmap_mark_dead(&m, h);
                //@ assert refused: !ok;
            } else {
                if (pos + 1u != count) { /* cancel takes only the last item */
                    ok = stow_slotmap_cancel(&m, h);
                    //@ assert refused: !ok;
                }
                if (dead[pos]) { /* marking a dead item again changes nothing */
                    ok = stow_slotmap_mark_dead(&m, h);
                    //@ assert marked: ok;
                }
            }
        }
    }
    //@ loop unroll 3;
    for (uint32_t q = 0u; q < count; q++) {
        uint32_t bits = model_handle_at(q);
        //@ assert item_in_place: base[q * stride] == TAG + dense[q];
        h = stow_slotmap_handle_at(&m, q);
        //@ assert handle_at_as_modelled: h.bits == bits;
        p = stow_slotmap_get_isr(&m, h);
        //@ assert get_as_modelled: p == base + q * stride;
        ok = stow_slotmap_read_isr(&m, h, at(OUT));
        //@ assert read_as_modelled: ok;
        ok = stow_slotmap_read_isr(&m, h, at(OUT + 1u));
        //@ assert read_as_modelled: ok;
    }
    if (count < capacity) { /* the _isr calls with a handle that names nothing */
        h = handle(HANDLE(1u, capacity));
        p = stow_slotmap_get_isr(&m, h);
        ok = stow_slotmap_read_isr(&m, h, at(OUT)) || stow_slotmap_remove_isr(&m, h);
        //@ assert refused: p == \null && !ok;
    }
    p = stow_slotmap_data(&m);
    //@ assert data_is_items: p == base;
    n = stow_slotmap_count(&m);
    //@ assert count_as_modelled: n == count;
    n = stow_slotmap_capacity(&m);
    //@ assert capacity_as_declared: n == capacity;
    live_dead = model_dead_count();
    n = stow_slotmap_dead_count(&m);
    //@ assert dead_count_as_modelled: n == live_dead;
    n = stow_slotmap_retired(&m);
    //@ assert none_retired: n == 0;
    stow_slotmap_stats(&m, &s);
    //@ assert stats_as_modelled: s.used == count && s.capacity == capacity && s.peak == bump;
    ok = stow_slotmap_check(&m);
    //@ assert check_passes: ok;
    stow_registry_kind_slotmap.stats(&m, &s);
    ok = stow_registry_kind_slotmap.check(&m);
    //@ assert check_passes: ok;
}

#if STOW_CHECK_LEVEL >= 1
/* Every misuse level 1 catches, each reported once and changing nothing.
 * Returns how many it made. */
static uint32_t misuses(void)
{
    stow_stats_t s;
    stow_handle_t h = handle(HANDLE(1u, 0u));
    (void)stow_slotmap_init(&m, at(BUF), BUF_MAX, 4u, 3u, 1u); /* not a power of two */
    (void)stow_slotmap_init(NULL, at(BUF), BUF_MAX, 4u, 4u, 1u);
    (void)stow_slotmap_alloc(NULL, &h);
    (void)stow_slotmap_alloc(&m, NULL);
    (void)stow_slotmap_insert(NULL, at(SRC));
    (void)stow_slotmap_insert(&m, NULL);
    (void)stow_slotmap_get(NULL, h);
    (void)stow_slotmap_contains(NULL, h);
    (void)stow_slotmap_remove(NULL, h);
    (void)stow_slotmap_cancel(NULL, h);
    (void)stow_slotmap_data(NULL);
    (void)stow_slotmap_count(NULL);
    (void)stow_slotmap_capacity(NULL);
    (void)stow_slotmap_handle_at(NULL, 0u);
    (void)stow_slotmap_handle_at(&m, count); /* not below the count */
    stow_slotmap_clear(NULL);
    (void)stow_slotmap_mark_dead(NULL, h);
    (void)stow_slotmap_is_dead(NULL, h);
    (void)stow_slotmap_dead_count(NULL);
    (void)stow_slotmap_refresh(NULL, on_destroy, &destroy_ctx);
    (void)stow_slotmap_retired(NULL);
    stow_slotmap_stats(NULL, &s);
    stow_slotmap_stats(&m, NULL);
    (void)stow_slotmap_check(NULL);
    (void)stow_slotmap_lock(NULL);
    stow_slotmap_unlock(NULL, 0u);
    (void)stow_slotmap_insert_isr(NULL, at(SRC));
    (void)stow_slotmap_insert_isr(&m, NULL);
    (void)stow_slotmap_get_isr(NULL, h);
    (void)stow_slotmap_read_isr(NULL, h, at(OUT));
    (void)stow_slotmap_read_isr(&m, h, NULL);
    (void)stow_slotmap_remove_isr(NULL, h);
    return 32u;
}
#endif

int main(void)
{
    uint32_t gi, k, off;
    size_t align;
    bool inited;

    memory_at_start();

    /* init refuses what it must, changing nothing */
    inited = stow_slotmap_init(&m, at(BUF), BUF_MAX, 0u, 1u, 1u) ||        /* no item */
             stow_slotmap_init(&m, at(BUF), BUF_MAX, 4u, 4u, 0u) ||        /* no slot */
             stow_slotmap_init(&m, at(BUF), BUF_MAX, 1u, 1u, MASK + 2u) || /* past the handles */
             stow_slotmap_init(&m, NULL, BUF_MAX, 4u, 4u, 1u) ||
             stow_slotmap_init(&m, at(BUF + 2u), BUF_MAX, 4u, 4u, 1u) ||   /* misaligned */
             stow_slotmap_init(&m, at(BUF), SIZE_MAX, SIZE_MAX - 2u, 4u, 1u) || /* the stride wraps */
             stow_slotmap_init(&m, at(BUF), SIZE_MAX, SIZE_MAX / 2u + 1u, 1u, 2u) || /* the product */
             stow_slotmap_init(&m, at(BUF), BUF_MAX, 60u, 4u, 2u); /* no room for the tables */
    //@ assert init_refuses: !inited && m.items == \null && proof_assert_count == 0;

    gi = ANY(0u, GEOMETRIES - 1u);
    //@ split gi;
    size = geometries[gi].size;
    align = geometries[gi].align;
    capacity = geometries[gi].capacity;
    stride = STOW__SLOTMAP_STRIDE(size, align);
    need = STOW_SLOTMAP_BYTES(size, align, capacity);
    k = ANY(0u, 2u);
    //@ split k;
    off = ANY(0u, 1u); /* at the aligned buffer, or one byte past it */
    //@ split off;
    inited = stow_slotmap_init(&m, at(BUF + off), need - 1u + k, size, align, capacity);
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
        uint32_t op, j, way, misuse = 0u, shape, expect;
        stow_handle_t h;
        unsigned char *p;
        bool ok;
        /* The count of refused calls, which no decision of the library reads
         * but its own update and stats(), is taken as any value before every
         * call (a superset of what a program reaches), so that the analysis
         * does not count failures one by one. */
        m.fails = ANY(0u, UINT32_MAX);
        op = ANY(0u, OPS - 1u);
        //@ split op;
        j = ANY(0u, CAP_MAX - 1u); /* a position */
        switch (op) {
        case TAKE: /* an item is appended, in one of five ways that leave the same map */
            expect = model_take();
            way = ANY(0u, 4u);
            if (way <= 2u) { /* insert from the aligned item, from an unaligned one, insert_isr */
                h = way == 0u ? stow_slotmap_insert(&m, at(SRC))
                    : way == 1u ? stow_slotmap_insert(&m, at(SRC + 1u))
                                : stow_slotmap_insert_isr(&m, at(SRC));
                //@ assert take_as_modelled: h.bits == expect;
                if (expect != 0u) {
                    got(item(count - 1u), PATTERN);
                }
            } else {
                if (way == 3u) {
                    p = stow_slotmap_alloc(&m, &h);
                } else { /* alloc as one step under the lock */
                    uint32_t state = stow_slotmap_lock(&m);
                    p = stow_slotmap_alloc(&m, &h);
                    stow_slotmap_unlock(&m, state);
                }
                //@ assert take_as_modelled: h.bits == expect;
                //@ assert alloc_as_modelled: expect != 0 ? p == base + (count - 1) * stride : p == \null;
                if (p != NULL) {
                    got(p, 0u);
                }
            }
            break;
        case REMOVE: /* the item at position j: the last one moves into its place */
            //@ split j;
            if (j < count) {
                h = handle(model_handle_at(j));
                ok = ANY_BOOL() ? stow_slotmap_remove(&m, h) : stow_slotmap_remove_isr(&m, h);
                //@ assert remove_as_modelled: ok;
                model_remove(j);
                ok = stow_slotmap_contains(&m, h);
                //@ assert removed_is_stale: !ok;
            }
            break;
        case CANCEL: /* the last item */
            if (count > 0u) {
                ok = stow_slotmap_cancel(&m, handle(model_handle_at(count - 1u)));
                //@ assert cancel_as_modelled: ok;
                count--;
            }
            break;
        case MARK: /* the item at position j, if alive */
            //@ split j;
            if (j < count && !dead[j]) {
                ok = stow_slotmap_mark_dead(&m, handle(model_handle_at(j)));
                //@ assert mark_as_modelled: ok;
                dead[j] = true;
            }
            break;
        case REFRESH: { /* with and without on_destroy */
            uint32_t n;
            destroyed = 0u;
            n = model_refresh();
            if (ANY_BOOL()) {
                expect = stow_slotmap_refresh(&m, on_destroy, &destroy_ctx);
                //@ assert refresh_destroys_each: destroyed == n;
            } else {
                expect = stow_slotmap_refresh(&m, NULL, NULL);
            }
            //@ assert refresh_as_modelled: expect == n;
            destroyed = 0u;
            break;
        }
        case CLEAR:
            stow_slotmap_clear(&m);
            //@ loop unroll 3;
            for (uint32_t q = 0u; q < count; q++) {
                gen[dense[q]] = next_gen(gen[dense[q]]);
            }
            count = 0u;
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
            /* a pointer kept past its item's removal writes into the position
             * the next insert takes (a released one); the insert reports */
            if (count < bump) {
                item(count)[0] = 0x00u;
                expect = model_take();
                h = stow_slotmap_insert(&m, at(SRC));
                //@ assert take_as_modelled: h.bits == expect;
                got(item(count - 1u), PATTERN);
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
