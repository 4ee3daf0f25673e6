/* SPDX-License-Identifier: MIT */
/* fuzz_arena.c - stow_arena_* against a model of its documented behaviour: four
 * arenas, each with its own block of storage, chained to one another as the
 * input says; per chain head a position (current block, offset), peak and fails;
 * the live allocations with their contents. See fuzz.h.
 *
 * Calls go to heads, to chained blocks (a violation), to orphans (blocks whose
 * head was initialised again, also a violation) and to NULL. Marks come from
 * mark() on any arena, or are forged: NULL, below a block, inside a block above
 * the position, in a block after the current one, in another chain. */
#include "fuzz.h"

#define NARENAS 4
#define REGION 512u
#define MARGIN 128u
#define NMARKS 8u
#define MAX_RECORDS 256u

static _Alignas(128) unsigned char space[MARGIN + NARENAS * (REGION + MARGIN)];
static stow_arena_t arenas[NARENAS];

static struct {
    struct {
        unsigned char *base;
        size_t size;
        int next, head;
        /* heads only */
        int cur;
        size_t off, peak;
        uint32_t fails;
    } o[NARENAS];
    struct {
        int owner, block;
        unsigned char *ptr;
        size_t size, end; /* end: the position after it, in its block */
        uint32_t tag;
    } rec[MAX_RECORDS];
    uint32_t nrec, next_tag;
    stow_arena_mark_t marks[NMARKS];
} m;

static unsigned char *region(int k) { return space + MARGIN + (size_t)k * (REGION + MARGIN); }

static bool is_head(int k) { return m.o[k].head == k; }

/* The blocks of k's chain, in order; returns how many. */
static int chain_of(int k, int *out)
{
    int n = 0;
    for (int b = k; b >= 0 && n < NARENAS; b = m.o[b].next) {
        out[n++] = b;
    }
    return n;
}

static int index_in_chain(int head, int block)
{
    int chain[NARENAS];
    int n = chain_of(head, chain);
    for (int i = 0; i < n; i++) {
        if (chain[i] == block) {
            return i;
        }
    }
    return -1;
}

static size_t used_of(int k)
{
    size_t used = 0;
    for (int b = k; b != m.o[k].cur; b = m.o[b].next) {
        used += m.o[b].size;
    }
    return used + m.o[k].off;
}

static size_t capacity_of(int k)
{
    size_t cap = 0;
    for (int b = k; b >= 0; b = m.o[b].next) {
        cap += m.o[b].size;
    }
    return cap;
}

/* An arena to call: mostly the first, else any, or NULL (-1). */
static int some_arena(void)
{
    uint8_t k = fz_u8();
    if (k < 128u) {
        return 0;
    }
    if (k < 248u) {
        return (int)(k % NARENAS);
    }
    return -1;
}

static stow_arena_t *obj(int k) { return k >= 0 ? &arenas[k] : NULL; }

/* Forgets the allocations of head owner, and those in block k's storage. */
static void drop_records(int owner)
{
    uint32_t w = 0;
    for (uint32_t r = 0; r < m.nrec; r++) {
        if (m.rec[r].owner != owner && m.rec[r].block != owner) {
            m.rec[w++] = m.rec[r];
        }
    }
    m.nrec = w;
}

static void verify(void)
{
    for (int k = 0; k < NARENAS; k++) {
        if (!is_head(k)) {
            continue;
        }
        FZ_QUIET(FZ_CHECK(stow_arena_check(&arenas[k])));
        size_t n = 0;
        FZ_QUIET(n = stow_arena_used(&arenas[k]));
        FZ_EQ(n, used_of(k));
    }
    for (uint32_t r = 0; r < m.nrec; r++) {
        FZ_CHECK(fz_stamped(m.rec[r].ptr, m.rec[r].tag, m.rec[r].size));
    }
}

/* Where an allocation of size at alignment mask + 1 goes in head k's chain: its
 * block and the padding; false when no block has room. */
static bool place(int k, size_t size, size_t mask, int *block, size_t *at)
{
    int b = m.o[k].cur;
    size_t off = m.o[k].off;
    for (;;) {
        unsigned char *p = m.o[b].base + off;
        size_t pad = (size_t)(-(uintptr_t)p & (uintptr_t)mask);
        size_t need = size + pad;
        if (need >= size && need <= m.o[b].size - off) {
            *block = b;
            *at = off + pad;
            return true;
        }
        b = m.o[b].next;
        off = 0;
        if (b < 0) {
            return false;
        }
    }
}

static void do_alloc(void)
{
    int k = some_arena();
    uint32_t how = fz_below(3);
    size_t align = fz_align();
    size_t count = 1, size;
    if (how == 2u) {
        count = fz_u8() < 224u ? fz_below(12) : fz_size(16);
        size = fz_u8() < 224u ? fz_below(24) : fz_size(16);
    } else {
        size = fz_u8() < 232u ? fz_below(96) : fz_size(96);
    }
    bool violation = k < 0 || !is_head(k) || !fz_align_ok(align);
    unsigned char *p = (unsigned char *)&p;
    if (how == 2u) {
        FZ_CALL(violation, p = (unsigned char *)stow_arena_alloc_array(obj(k), count, size, align));
    } else if (how == 1u) {
        FZ_CALL(violation, p = (unsigned char *)stow_arena_alloc_zeroed(obj(k), size, align));
    } else {
        FZ_CALL(violation, p = (unsigned char *)stow_arena_alloc(obj(k), size, align));
    }
    if (violation) {
        FZ_CHECK(p == NULL);
        return;
    }
    if (how == 2u) {
        if (size != 0u && count > SIZE_MAX / size) {
            FZ_CHECK(p == NULL);
            m.o[k].fails++;
            return;
        }
        size *= count;
    }
    size_t mask = (align != 0u ? align : STOW_DEFAULT_ALIGN) - 1u;
    size_t taken = size != 0u ? size : 1u; /* size 0 takes one byte: a unique pointer */
    int block;
    size_t at;
    if (!place(k, taken, mask, &block, &at)) {
        FZ_CHECK(p == NULL);
        m.o[k].fails++;
        return;
    }
    FZ_PTR_EQ(p, m.o[block].base + at);
    if (how != 0u) {
        FZ_CHECK(fz_zero(p, size));
    }
    m.o[k].cur = block;
    m.o[k].off = at + taken;
    size_t used = used_of(k);
    m.o[k].peak = used > m.o[k].peak ? used : m.o[k].peak;
    if (m.nrec < MAX_RECORDS && size > 0u) {
        uint32_t r = m.nrec++;
        m.rec[r].owner = k;
        m.rec[r].block = block;
        m.rec[r].ptr = p;
        m.rec[r].size = size;
        m.rec[r].end = at + size;
        m.rec[r].tag = ++m.next_tag;
        fz_stamp(p, m.rec[r].tag, size);
    }
}

static void do_mark(void)
{
    int k = some_arena();
    bool violation = k < 0 || !is_head(k);
    stow_arena_mark_t mk = {&arenas[0], space};
    FZ_CALL(violation, mk = stow_arena_mark(obj(k)));
    if (violation) {
        FZ_CHECK(mk.block == NULL && mk.ptr == NULL);
        return;
    }
    FZ_PTR_EQ(mk.block, &arenas[m.o[k].cur]);
    FZ_PTR_EQ(mk.ptr, m.o[m.o[k].cur].base + m.o[k].off);
    m.marks[fz_below(NMARKS)] = mk;
}

static stow_arena_mark_t some_mark(void)
{
    stow_arena_mark_t mk = {NULL, NULL};
    uint8_t kind = fz_u8() % 8u;
    int b = (int)fz_below(NARENAS);
    switch (kind) {
    case 0:
    case 1:
    case 2:
    case 3:
        return m.marks[fz_below(NMARKS)];
    case 4:
        return mk;
    case 5: /* anywhere in or around a block */
        mk.block = &arenas[b];
        mk.ptr = m.o[b].base - 1 + fz_below((uint32_t)m.o[b].size + 3u);
        return mk;
    case 6: /* the start of a block */
        mk.block = &arenas[b];
        mk.ptr = m.o[b].base;
        return mk;
    default: /* a block with another block's pointer */
        mk.block = &arenas[b];
        mk.ptr = m.o[(b + 1) % NARENAS].base + fz_below(8);
        return mk;
    }
}

/* rewind(k, mk) for a head k; returns whether it is valid, and the position. */
static bool mark_valid(int k, stow_arena_mark_t mk, int *block, size_t *off)
{
    if (mk.block == NULL) {
        return false;
    }
    int b = (int)(mk.block - arenas);
    int i = index_in_chain(k, b);
    int c = index_in_chain(k, m.o[k].cur);
    if (i < 0 || i > c || (uintptr_t)mk.ptr < (uintptr_t)m.o[b].base) {
        return false;
    }
    size_t o = (size_t)((uintptr_t)mk.ptr - (uintptr_t)m.o[b].base);
    if (o > (i < c ? m.o[b].size : m.o[k].off)) {
        return false;
    }
    *block = b;
    *off = o;
    return true;
}

/* Moves head k back to (block, off), dropping the allocations above it. */
static void rewind_model(int k, int block, size_t off)
{
    int mi = index_in_chain(k, block);
    uint32_t w = 0;
    for (uint32_t r = 0; r < m.nrec; r++) {
        int ri = m.rec[r].owner == k ? index_in_chain(k, m.rec[r].block) : -1;
        bool above = m.rec[r].owner == k && (ri > mi || (ri == mi && m.rec[r].end > off));
        if (!above) {
            m.rec[w++] = m.rec[r];
        }
    }
    m.nrec = w;
    m.o[k].cur = block;
    m.o[k].off = off;
}

static void do_rewind(void)
{
    int k = some_arena();
    stow_arena_mark_t mk = some_mark();
    int block = 0;
    size_t off = 0;
    bool violation = k < 0 || !is_head(k) || !mark_valid(k, mk, &block, &off);
    FZ_CALL(violation, stow_arena_rewind(obj(k), mk));
    if (!violation) {
        rewind_model(k, block, off);
    }
}

static void do_reset(void)
{
    int k = some_arena();
    bool violation = k < 0 || !is_head(k);
    FZ_CALL(violation, stow_arena_reset(obj(k)));
    if (!violation) {
        rewind_model(k, k, 0);
    }
}

static void do_chain(void)
{
    int a = some_arena();
    int n = fz_u8() < 16u ? -1 : (int)fz_below(NARENAS);
    bool violation = a < 0 || n < 0 || !is_head(a) || !is_head(n) || a == n || used_of(n) != 0u;
    FZ_CALL(violation, stow_arena_chain(obj(a), obj(n)));
    if (violation) {
        return;
    }
    int chain[NARENAS];
    int len = chain_of(a, chain);
    m.o[chain[len - 1]].next = n;
    len = chain_of(n, chain);
    for (int i = 0; i < len; i++) {
        m.o[chain[i]].head = a;
    }
    drop_records(n); /* none with bytes: n had nothing in use */
}

static void do_query(void)
{
    int k = some_arena();
    bool violation = k < 0 || !is_head(k);
    size_t n = 1;
    stow_stats_t s;
    switch (fz_below(4)) {
    case 0:
        FZ_CALL(violation, n = stow_arena_used(obj(k)));
        FZ_EQ(n, violation ? 0u : used_of(k));
        break;
    case 1:
        FZ_CALL(violation, n = stow_arena_capacity(obj(k)));
        FZ_EQ(n, violation ? 0u : capacity_of(k));
        break;
    case 2: {
        bool null_out = fz_u8() < 16u;
        FZ_CALL(violation || null_out, stow_arena_stats(obj(k), null_out ? NULL : &s));
        if (!violation && !null_out) {
            FZ_STATS_EQ(s, capacity_of(k), used_of(k), m.o[k].peak, m.o[k].fails);
        }
        break;
    }
    default: {
        bool b = true;
        if (k < 0) {
            FZ_CALL(true, b = stow_arena_check(NULL));
            FZ_CHECK(!b);
        } else if (!is_head(k)) {
            FZ_QUIET(b = stow_arena_check(obj(k)));
            FZ_CHECK(!b); /* a chained block or an orphan is not a sound arena */
        }
        break;
    }
    }
}

/* True when block k sits in its head's chain (an orphan does not). */
static bool in_a_chain(int k) { return !is_head(k) && index_in_chain(m.o[k].head, k) >= 0; }

static void do_init(int k, bool first)
{
    static stow_arena_t scratch;
    size_t size = 1u + fz_below(REGION - 8u);
    size_t offset = fz_below(8);
    uint8_t how = first ? 0u : fz_u8() % 8u;
    unsigned char *buf = region(k) + offset;
    if (how == 1u) {
        buf = NULL;
    } else if (how == 2u) {
        size = 0;
    }
    bool ok = buf != NULL && size != 0u;
    if (how == 3u) {
        bool r = true;
        FZ_CALL(true, r = stow_arena_init(NULL, buf, size));
        FZ_CHECK(!r);
        return;
    }
    if (how == 4u) { /* a size that only pretends: init computes, touches nothing */
        bool r = false;
        FZ_QUIET(r = stow_arena_init(&scratch, buf, SIZE_MAX - (uintptr_t)buf));
        FZ_CHECK(r);
        FZ_QUIET(FZ_CHECK(stow_arena_check(&scratch)));
        return;
    }
    if (!first && in_a_chain(k)) {
        /* A contract violation that init cannot see (arena.h); the head reports
         * it later (test_arena.c covers that). Not modelled. */
        return;
    }
    FZ_INIT(false, ok, stow_arena_init(&arenas[k], buf, size));
    if (!ok) {
        return;
    }
    drop_records(k);
    m.o[k].base = buf;
    m.o[k].size = size;
    m.o[k].next = -1;
    m.o[k].head = k;
    m.o[k].cur = k;
    m.o[k].off = 0;
    m.o[k].peak = 0;
    m.o[k].fails = 0;
    fz_fill(region(k), 0xA5u, REGION); /* never assumed zeroed */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_begin(data, size);
    fz_watch_none();
    fz_watch(arenas, sizeof arenas);
    fz_watch(space, sizeof space);
    m.nrec = 0;
    for (int k = 0; k < NARENAS; k++) {
        do_init(k, true);
    }
    for (uint32_t i = 0; i < NMARKS; i++) {
        m.marks[i] = stow_arena_mark(&arenas[i % NARENAS]);
    }
    while (fz_more()) {
        fz_step++;
        switch (fz_below(10)) {
        case 0:
        case 1:
        case 2:
            do_alloc();
            break;
        case 3:
            do_mark();
            break;
        case 4:
        case 5:
            do_rewind();
            break;
        case 6:
            if (fz_u8() < 64u) {
                do_reset();
            }
            break;
        case 7:
            do_chain();
            break;
        case 8:
            do_query();
            break;
        default:
            if (fz_u8() < 32u) {
                do_init((int)fz_below(NARENAS), false);
            }
            break;
        }
        verify();
    }
    return 0;
}
