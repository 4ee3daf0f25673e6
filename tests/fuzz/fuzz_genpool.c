/* SPDX-License-Identifier: MIT */
/* fuzz_genpool.c - stow_genpool_* against a model of its documented behaviour:
 * per slot a state and a generation, a LIFO stack of removed slots, a bump index
 * and, after clear(), the slots used before, which the bump index reuses with
 * the generation they kept. See fuzz.h.
 *
 * Handles come from everywhere: live ones, every handle ever issued (stale, or
 * live again after a generation wrap), null, forged (random bits, an index beyond
 * the capacity, slots never used). Pointers for handle_of() are item starts,
 * interior, misaligned, outside. Built with STOW_HANDLE_INDEX_BITS=28 (15
 * generations), so that generation overflow happens all the time. */
#include "fuzz.h"

#define MAX_CAP 72u
#define BUF_BYTES 4096u
#define MARGIN 128u
#define GEN_SHIFT STOW_HANDLE_INDEX_BITS
#define ISSUED_MAX 64u

static _Alignas(128) unsigned char space[MARGIN + BUF_BYTES + 2u * MARGIN];
static _Alignas(16) unsigned char source[64 + 16];
static stow_genpool_t pool;

enum { NEVER, LIVE, FREE, PENDING, RETIRED };

static struct {
    unsigned char *items;
    size_t size, stride;
    bool word_copies;
    uint32_t cap, bump, reached, retired, peak, fails;
    uint32_t free_stack[MAX_CAP];
    uint32_t nfree;
    uint8_t state[MAX_CAP];
    /* LIVE: its generation; FREE: the one it hands out next; PENDING (at or above
     * bump, below reached): the one it goes on with, 0 when it retires instead;
     * retire_counted: a PENDING slot that is retired already */
    uint32_t gen[MAX_CAP];
    bool retire_counted[MAX_CAP];
    uint32_t tag[MAX_CAP];
    uint32_t next_tag;
    stow_handle_t issued[ISSUED_MAX];
    uint32_t nissued;
} m;

static unsigned char *item(uint32_t i) { return m.items + (size_t)i * m.stride; }

static uint32_t live_count(void)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m.cap; i++) {
        n += m.state[i] == LIVE ? 1u : 0u;
    }
    return n;
}

/* The generation after g: 0 when the slot retires instead. */
static uint32_t gen_after(uint32_t g)
{
    if (g < FZ_MAX_GEN) {
        return g + 1u;
    }
    return FZ_RETIRE ? 0u : 1u;
}

static stow_handle_t handle_of_slot(uint32_t i) { return stow_handle_make(i, m.gen[i]); }

static void verify(void)
{
    FZ_QUIET(FZ_CHECK(stow_genpool_check(&pool)));
    uint32_t n = 0;
    FZ_QUIET(n = stow_genpool_count(&pool));
    FZ_EQ(n, live_count());
    FZ_QUIET(n = stow_genpool_retired(&pool));
    FZ_EQ(n, m.retired);
    for (uint32_t i = 0; i < m.cap; i++) {
        if (m.state[i] == LIVE) {
            FZ_CHECK(fz_stamped(item(i), m.tag[i], m.size));
        }
    }
}

/* Which slot the next insert takes, or m.cap when the pool is full; retires the
 * used-up slots the bump index steps over, as the pool does. */
static uint32_t take(void)
{
    if (m.nfree > 0u) {
        uint32_t i = m.free_stack[--m.nfree];
        m.state[i] = LIVE;
        return i;
    }
    while (m.bump < m.cap) {
        uint32_t i = m.bump++;
        if (i >= m.reached) {
            m.state[i] = LIVE;
            m.gen[i] = 1u;
            return i;
        }
        if (m.gen[i] != 0u) { /* PENDING: goes on with its generation */
            m.state[i] = LIVE;
            return i;
        }
        if (!m.retire_counted[i]) {
            m.retired++;
        }
        m.state[i] = RETIRED;
    }
    return m.cap;
}

static void note_issued(stow_handle_t h)
{
    if (m.nissued < ISSUED_MAX) {
        m.issued[m.nissued++] = h;
    } else {
        m.issued[h.bits % ISSUED_MAX] = h;
    }
}

static void took(uint32_t i, bool zeroed, void *p, stow_handle_t h)
{
    if (i == m.cap) {
        FZ_CHECK(p == NULL);
        FZ_EQ(h.bits, 0u);
        m.fails++;
        return;
    }
    FZ_PTR_EQ(p, item(i));
    FZ_EQ(h.bits, handle_of_slot(i).bits);
    if (zeroed) {
        FZ_CHECK(fz_zero(p, m.size));
    } else {
        FZ_CHECK(fz_stamped(p, m.tag[i], m.size));
    }
    m.tag[i] = ++m.next_tag;
    fz_stamp(p, m.tag[i], m.size);
    note_issued(h);
    uint32_t live = live_count();
    m.peak = live > m.peak ? live : m.peak;
}

static void do_alloc(void)
{
    stow_handle_t h = stow_handle_make(1, 1);
    bool want_out = fz_u8() & 1u;
    void *p = &p;
    FZ_QUIET(p = stow_genpool_alloc(&pool, want_out ? &h : NULL));
    uint32_t i = take();
    if (!want_out) {
        h = i < m.cap ? handle_of_slot(i) : STOW_HANDLE_NULL;
    }
    took(i, true, p, h);
}

static void do_insert(void)
{
    uint32_t offset = fz_below(8);
    bool null_item = fz_u8() < 8u;
    const unsigned char *src = null_item ? NULL : source + offset;
    bool violation = src == NULL || (m.word_copies && (offset & 3u) != 0u);
    uint32_t tag = m.next_tag + 1u;
    if (src != NULL) {
        fz_stamp(source + offset, tag, m.size);
    }
    stow_handle_t h = stow_handle_make(1, 1);
    FZ_CALL(violation, h = stow_genpool_insert(&pool, src));
    if (violation) {
        FZ_EQ(h.bits, 0u);
        return;
    }
    uint32_t i = take();
    void *p = i < m.cap ? item(i) : NULL;
    if (i < m.cap) {
        m.tag[i] = tag; /* took() checks the copy, then stamps a new tag */
    }
    took(i, false, p, h);
}

/* A handle of some kind. */
static stow_handle_t some_handle(void)
{
    uint8_t kind = fz_u8() % 9u;
    uint32_t n = fz_u16();
    switch (kind) {
    case 8: /* a free or pending slot with the generation it hands out next */
        for (uint32_t k = 0; k < m.cap; k++) {
            uint32_t i = (n + k) % m.cap;
            if (m.state[i] == FREE || (m.state[i] == PENDING && m.gen[i] != 0u)) {
                return handle_of_slot(i); /* never issued yet */
            }
        }
        return STOW_HANDLE_NULL;
    case 0:
    case 1: /* a live one, if any */
        for (uint32_t k = 0; k < m.cap; k++) {
            uint32_t i = (n + k) % m.cap;
            if (m.state[i] == LIVE) {
                return handle_of_slot(i);
            }
        }
        return STOW_HANDLE_NULL;
    case 2:
    case 3: /* one issued before: stale, or live */
        return m.nissued > 0u ? m.issued[n % m.nissued] : STOW_HANDLE_NULL;
    case 4:
        return STOW_HANDLE_NULL;
    case 5: /* a slot's next or previous generation, or generation 0 */
        return stow_handle_make(n % m.cap, fz_below(FZ_MAX_GEN + 1u));
    case 6: /* an index at or beyond the capacity */
        return stow_handle_make(m.cap + (n & 7u), 1u + fz_below(FZ_MAX_GEN));
    default: { /* any bits */
        stow_handle_t h;
        h.bits = fz_u32();
        return h;
    }
    }
}

/* The slot h names if it is live, else m.cap. */
static uint32_t live_slot(stow_handle_t h)
{
    uint32_t i = stow_handle_index(h);
    if (i < m.cap && m.state[i] == LIVE && stow_handle_generation(h) == m.gen[i]) {
        return i;
    }
    return m.cap;
}

static void do_lookup(void)
{
    stow_handle_t h = some_handle();
    uint32_t i = live_slot(h);
    void *p = &p;
    bool b = false;
    FZ_QUIET(p = stow_genpool_get(&pool, h));
    FZ_PTR_EQ(p, i < m.cap ? item(i) : NULL);
    FZ_QUIET(b = stow_genpool_contains(&pool, h));
    FZ_EQ(b, i < m.cap);
}

/* remove(h), and what it does to the model. */
static void remove_handle(stow_handle_t h)
{
    uint32_t i = live_slot(h);
    bool b = false;
    FZ_QUIET(b = stow_genpool_remove(&pool, h));
    FZ_EQ(b, i < m.cap);
    if (i == m.cap) {
        return;
    }
    uint32_t live = live_count();
    m.peak = live > m.peak ? live : m.peak;
    uint32_t next = gen_after(m.gen[i]);
    if (next == 0u) {
        m.state[i] = RETIRED;
        m.retired++;
        return;
    }
    m.state[i] = FREE;
    m.gen[i] = next;
    m.free_stack[m.nfree++] = i;
}

static void do_remove(void) { remove_handle(some_handle()); }

static void do_handle_of(void)
{
    uint8_t kind = fz_u8() % 6u;
    uint32_t n = fz_u16();
    const unsigned char *p;
    switch (kind) {
    case 0:
    case 1: p = item(n % m.cap); break;                               /* an item start */
    case 2: p = item(n % m.cap) + fz_below((uint32_t)m.stride); break; /* interior */
    case 3: p = m.items - 1u - (n % MARGIN); break;                   /* below */
    case 4: p = item(m.cap) + (n % MARGIN); break;                    /* beyond */
    default: p = n & 1u ? NULL : (const unsigned char *)&pool; break;
    }
    uintptr_t off = (uintptr_t)p - (uintptr_t)m.items;
    bool violation = p == NULL || (uintptr_t)p < (uintptr_t)m.items ||
                     off >= (uintptr_t)m.cap * m.stride || off % m.stride != 0u;
    stow_handle_t h = stow_handle_make(1, 1);
    FZ_CALL(violation, h = stow_genpool_handle_of(&pool, p));
    if (violation) {
        FZ_EQ(h.bits, 0u);
        return;
    }
    uint32_t i = (uint32_t)(off / m.stride);
    FZ_EQ(h.bits, m.state[i] == LIVE ? handle_of_slot(i).bits : 0u);
}

/* A whole iteration with first()/next(), and next() of an arbitrary handle. */
static void do_iterate(void)
{
    stow_handle_t h = STOW_HANDLE_NULL;
    FZ_QUIET(h = stow_genpool_first(&pool));
    for (uint32_t i = 0; i < m.cap; i++) {
        if (m.state[i] != LIVE) {
            continue;
        }
        FZ_EQ(h.bits, handle_of_slot(i).bits);
        FZ_QUIET(h = stow_genpool_next(&pool, h));
    }
    FZ_EQ(h.bits, 0u);
    /* the walk: the same items, in the same order */
    uint32_t slot = 0u;
    STOW_GENPOOL_FOREACH(&pool, unsigned char, it) {
        while (slot < m.cap && m.state[slot] != LIVE) {
            slot++;
        }
        FZ_CHECK(slot < m.cap);
        FZ_PTR_EQ(it, item(slot));
        slot++;
    }
    while (slot < m.cap && m.state[slot] != LIVE) {
        slot++;
    }
    FZ_EQ(slot, m.cap);
    stow_handle_t from = some_handle();
    bool violation = stow_handle_is_null(from) || stow_handle_index(from) >= m.cap;
    FZ_CALL(violation, h = stow_genpool_next(&pool, from));
    uint32_t want = 0u;
    if (!violation) {
        for (uint32_t i = stow_handle_index(from) + 1u; i < m.cap; i++) {
            if (m.state[i] == LIVE) {
                want = handle_of_slot(i).bits;
                break;
            }
        }
    }
    FZ_EQ(h.bits, want);
}

static void do_clear(void)
{
    FZ_QUIET(stow_genpool_clear(&pool));
    uint32_t live = live_count();
    m.peak = live > m.peak ? live : m.peak;
    for (uint32_t i = 0; i < m.bump; i++) {
        if (m.state[i] == LIVE) {
            m.gen[i] = gen_after(m.gen[i]);
            m.retire_counted[i] = false; /* retired when the bump index gets there */
        } else if (m.state[i] == RETIRED) {
            m.gen[i] = 0u;
            m.retire_counted[i] = true;
        }
        m.state[i] = PENDING;
    }
    m.reached = m.bump > m.reached ? m.bump : m.reached;
    m.bump = 0u;
    m.nfree = 0u;
}

static void do_init(bool first)
{
    static stow_genpool_t scratch;
    size_t size = 1u + fz_below(40);
    size_t align = fz_align();
    uint32_t cap = fz_below(MAX_CAP + 1u);
    size_t offset = fz_below(MARGIN);
    uint8_t how = first ? 0u : fz_u8() % 16u;
    if (first) {
        align = (size_t)1 << fz_below(7);
        cap = cap == 0u ? 1u : cap;
        offset &= ~(align - 1u) & ~(size_t)3u;
    }
    bool pretend = how == 2u;
    if (how == 1u) {
        size = 0;
    } else if (pretend) {
        size = fz_size(64);
        cap = fz_u8() < 128u ? cap : fz_u32();
    }
    bool violation = !fz_align_ok(align);
    size_t resolved = align != 0u ? align : STOW_DEFAULT_ALIGN;
    size_t stride = violation ? 0u : fz_round_up(size, resolved);
    uint64_t items_bytes = stride <= UINT32_MAX ? (uint64_t)stride * cap : 0u;
    if (!pretend && items_bytes + 5u * (uint64_t)cap + 8u > BUF_BYTES && stride != 0u) {
        cap = (uint32_t)(BUF_BYTES / (stride + 6u));
        items_bytes = (uint64_t)stride * cap;
    }
    uint64_t words_offset = (items_bytes + 3u) & ~(uint64_t)3u;
    uint64_t need = words_offset + 4u * (uint64_t)cap + 4u * (((uint64_t)cap + 31u) >> 5);
    unsigned char *buf = space + MARGIN + offset;
    size_t buf_size = pretend ? SIZE_MAX : (size_t)need;
    fz_spoil_buffer(how, &buf, &buf_size);
    size_t buf_align = resolved > 4u ? resolved : 4u;
    bool ok = !violation && buf != NULL && items_bytes != 0u && items_bytes <= UINT32_MAX &&
              cap <= STOW_HANDLE_MAX_CAPACITY && need <= (uint64_t)buf_size &&
              ((uintptr_t)buf & (buf_align - 1u)) == 0u;
    if (how == 6u) {
        bool r = true;
        FZ_CALL(true, r = stow_genpool_init(NULL, buf, buf_size, size, align, cap));
        FZ_CHECK(!r);
        return;
    }
    if (first) {
        FZ_CHECK(ok);
    }
    if (ok && pretend && need > (uint64_t)((uintptr_t)(space + sizeof space) - (uintptr_t)buf)) {
        return; /* an ASan build's init makes the words and bits addressable: not beyond the space */
    }
    stow_genpool_t *target = ok && pretend ? &scratch : &pool;
    FZ_INIT(violation, ok, stow_genpool_init(target, buf, buf_size, size, align, cap));
    if (ok && pretend) {
        FZ_QUIET(FZ_CHECK(stow_genpool_check(&scratch)));
    }
    if (ok && !pretend) {
        m.items = buf;
        m.size = size;
        m.stride = stride;
        m.word_copies = (size & 3u) == 0u && resolved >= 4u;
        m.cap = cap;
        m.bump = m.reached = m.retired = m.peak = m.fails = m.nfree = m.nissued = 0u;
        for (uint32_t i = 0; i < MAX_CAP; i++) {
            m.state[i] = NEVER;
        }
        fz_fill(space, 0xA5u, sizeof space); /* never assumed zeroed */
    }
}

static void null_object(void)
{
    stow_stats_t s;
    void *p = &p;
    uint32_t n = 1u;
    bool b = true;
    stow_handle_t h = stow_handle_make(1, 1);
    switch (fz_below(14)) {
    case 0: FZ_CALL(true, p = stow_genpool_alloc(NULL, &h)); FZ_CHECK(p == NULL); break;
    case 1: FZ_CALL(true, h = stow_genpool_insert(NULL, source)); FZ_EQ(h.bits, 0); break;
    case 2: FZ_CALL(true, p = stow_genpool_get(NULL, some_handle())); FZ_CHECK(p == NULL); break;
    case 3: FZ_CALL(true, b = stow_genpool_contains(NULL, some_handle())); FZ_CHECK(!b); break;
    case 4: FZ_CALL(true, b = stow_genpool_remove(NULL, some_handle())); FZ_CHECK(!b); break;
    case 5: FZ_CALL(true, h = stow_genpool_handle_of(NULL, m.items)); FZ_EQ(h.bits, 0); break;
    case 6: FZ_CALL(true, stow_genpool_clear(NULL)); break;
    case 7: FZ_CALL(true, n = stow_genpool_count(NULL)); FZ_EQ(n, 0); break;
    case 8: FZ_CALL(true, n = stow_genpool_capacity(NULL)); FZ_EQ(n, 0); break;
    case 9: FZ_CALL(true, n = stow_genpool_retired(NULL)); FZ_EQ(n, 0); break;
    case 10: FZ_CALL(true, h = stow_genpool_first(NULL)); FZ_EQ(h.bits, 0); break;
    case 11: FZ_CALL(true, h = stow_genpool_next(NULL, some_handle())); FZ_EQ(h.bits, 0); break;
    case 12: {
        uint32_t which = fz_below(3);
        FZ_CALL(true, stow_genpool_stats(which == 1u ? &pool : NULL, which == 0u ? &s : NULL));
        break;
    }
    default: FZ_CALL(true, b = stow_genpool_check(NULL)); FZ_CHECK(!b); break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_begin(data, size);
    fz_watch_none();
    fz_watch(&pool, sizeof pool);
    fz_watch(space, sizeof space);
    do_init(true);
    while (fz_more()) {
        fz_step++;
        switch (fz_below(13)) {
        case 0:
        case 1:
            do_insert();
            break;
        case 2:
            do_alloc();
            break;
        case 3:
        case 4:
            do_remove();
            break;
        case 5:
            do_lookup();
            break;
        case 6:
            do_handle_of();
            break;
        case 7:
            do_iterate();
            break;
        case 8:
            if (fz_u8() < 64u) {
                do_clear();
            }
            break;
        case 9: {
            stow_stats_t s;
            uint32_t cap = 0;
            FZ_QUIET(stow_genpool_stats(&pool, &s));
            FZ_QUIET(cap = stow_genpool_capacity(&pool));
            FZ_EQ(cap, m.cap);
            FZ_STATS_EQ(s, m.cap, live_count(), m.peak, m.fails);
            break;
        }
        case 10:
            null_object();
            break;
        case 11:
            if (fz_u8() < 32u) {
                do_init(false);
            }
            break;
        default: /* a remove and an insert: one slot through many generations */
            if (m.nissued > 0u) {
                remove_handle(m.issued[m.nissued - 1u]);
                do_alloc();
            }
            break;
        }
        verify();
    }
    return 0;
}
