/* SPDX-License-Identifier: MIT */
/* fuzz_slotmap.c - stow_slotmap_* against a model of its documented behaviour:
 * the packed positions (handle index and dead mark of each), and per handle
 * index a state and a generation. See fuzz.h.
 *
 * Which free index an insert reuses: "last-freed first". The model keeps the free
 * indices in groups, one per call that freed some (a remove frees one, refresh and
 * clear free several at once, in no documented order), and an insert must take
 * an index of the newest group. A retirement (STOW_GEN_RETIRE) may reorder the
 * free indices (see slotmap.h), so it merges all groups into one. Built with
 * STOW_HANDLE_INDEX_BITS=28 (15 generations), so that overflow is frequent. */
#include "fuzz.h"

#define MAX_CAP 72u
#define BUF_BYTES 4096u
#define MARGIN 128u
#define ISSUED_MAX 64u

static _Alignas(128) unsigned char space[MARGIN + BUF_BYTES + 2u * MARGIN];
static _Alignas(16) unsigned char source[64 + 16];
static stow_slotmap_t map;

enum { NEVER, LIVE, FREE, RETIRED };

static struct {
    unsigned char *items;
    size_t size, stride;
    uint32_t cap, count, bump, retired, peak, fails;
    uint32_t pidx[MAX_CAP]; /* per position: the handle index */
    bool pdead[MAX_CAP];
    uint32_t ptag[MAX_CAP];
    uint8_t state[MAX_CAP]; /* per handle index */
    uint32_t gen[MAX_CAP];  /* LIVE: its generation; FREE: the next one */
    uint32_t pos[MAX_CAP];  /* LIVE: its position */
    uint32_t group[MAX_CAP]; /* FREE: which call freed it */
    uint32_t groups;
    uint32_t next_tag;
    stow_handle_t issued[ISSUED_MAX];
    uint32_t nissued;
} m;

static unsigned char *item(uint32_t pos) { return m.items + (size_t)pos * m.stride; }

static stow_handle_t handle_of_index(uint32_t i) { return stow_handle_make(i, m.gen[i]); }

static uint32_t dead_count(void)
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < m.count; p++) {
        n += m.pdead[p] ? 1u : 0u;
    }
    return n;
}

static void verify(void)
{
    FZ_QUIET(FZ_CHECK(stow_slotmap_check(&map)));
    uint32_t n = 0;
    FZ_QUIET(n = stow_slotmap_count(&map));
    FZ_EQ(n, m.count);
    FZ_QUIET(n = stow_slotmap_dead_count(&map));
    FZ_EQ(n, dead_count());
    FZ_QUIET(n = stow_slotmap_retired(&map));
    FZ_EQ(n, m.retired);
    void *data = NULL;
    FZ_QUIET(data = stow_slotmap_data(&map));
    FZ_PTR_EQ(data, m.items);
    for (uint32_t p = 0; p < m.count; p++) {
        FZ_EQ(m.pos[m.pidx[p]], p);
        FZ_CHECK(fz_stamped(item(p), m.ptag[p], m.size));
    }
}

/* The index at position p is gone: free with the next generation, or retired. */
static void release_index(uint32_t i)
{
    if (m.gen[i] == FZ_MAX_GEN && FZ_RETIRE) {
        m.state[i] = RETIRED;
        m.retired++;
        for (uint32_t k = 0; k < m.bump; k++) { /* the free order is loose now */
            m.group[k] = m.groups;
        }
        return;
    }
    m.gen[i] = m.gen[i] == FZ_MAX_GEN ? 1u : m.gen[i] + 1u;
    m.state[i] = FREE;
    m.group[i] = m.groups;
}

static void note_issued(stow_handle_t h)
{
    if (m.nissued < ISSUED_MAX) {
        m.issued[m.nissued++] = h;
    } else {
        m.issued[h.bits % ISSUED_MAX] = h;
    }
}

/* An alloc or insert returned (p, h): checks the index it chose and updates the
 * model. tag: what the item must hold (0: zeroed). */
static void took(void *p, stow_handle_t h, uint32_t tag)
{
    uint32_t newest = 0;
    bool any_free = false;
    for (uint32_t i = 0; i < m.bump; i++) {
        if (m.state[i] == FREE) {
            newest = !any_free || m.group[i] > newest ? m.group[i] : newest;
            any_free = true;
        }
    }
    uint32_t i = stow_handle_index(h);
    if (!any_free && m.bump == m.cap) {
        FZ_CHECK(p == NULL);
        FZ_EQ(h.bits, 0u);
        m.fails++;
        return;
    }
    if (any_free) {
        FZ_CHECK(i < m.bump && m.state[i] == FREE && m.group[i] == newest);
    } else {
        FZ_EQ(i, m.bump);
        m.bump++;
        m.gen[i] = 1u;
    }
    FZ_EQ(stow_handle_generation(h), m.gen[i]);
    FZ_PTR_EQ(p, item(m.count));
    if (tag == 0u) {
        FZ_CHECK(fz_zero(p, m.stride));
    } else {
        FZ_CHECK(fz_stamped(p, tag, m.size));
    }
    m.state[i] = LIVE;
    m.pos[i] = m.count;
    m.pidx[m.count] = i;
    m.pdead[m.count] = false;
    m.ptag[m.count] = ++m.next_tag;
    fz_stamp(p, m.next_tag, m.size);
    m.count++;
    m.peak = m.count > m.peak ? m.count : m.peak;
    note_issued(h);
}

static void do_alloc(void)
{
    bool null_out = fz_u8() < 8u;
    stow_handle_t h = stow_handle_make(1, 1);
    void *p = &p;
    FZ_CALL(null_out, p = stow_slotmap_alloc(&map, null_out ? NULL : &h));
    if (null_out) {
        FZ_CHECK(p == NULL);
        return;
    }
    took(p, h, 0u);
}

static void do_insert(void)
{
    uint32_t offset = fz_below(8);
    bool null_item = fz_u8() < 8u;
    const unsigned char *src = null_item ? NULL : source + offset;
    uint32_t tag = m.next_tag + 1000003u;
    if (src != NULL) {
        fz_stamp(source + offset, tag, m.size);
    }
    stow_handle_t h = stow_handle_make(1, 1);
    FZ_CALL(null_item, h = stow_slotmap_insert(&map, src));
    if (null_item) {
        FZ_EQ(h.bits, 0u);
        return;
    }
    void *p = NULL;
    if (!stow_handle_is_null(h)) {
        FZ_QUIET(p = stow_slotmap_get(&map, h));
    }
    took(p, h, tag);
}

static stow_handle_t some_handle(void)
{
    uint8_t kind = fz_u8() % 9u;
    uint32_t n = fz_u16();
    switch (kind) {
    case 0:
    case 1: /* a live one, if any */
        return m.count > 0u ? handle_of_index(m.pidx[n % m.count]) : STOW_HANDLE_NULL;
    case 8: /* a free index with the generation it hands out next: not issued yet */
        for (uint32_t k = 0; k < m.bump; k++) {
            uint32_t i = (n + k) % m.bump;
            if (m.state[i] == FREE) {
                return handle_of_index(i);
            }
        }
        return STOW_HANDLE_NULL;
    case 2:
    case 3: /* one issued before */
        return m.nissued > 0u ? m.issued[n % m.nissued] : STOW_HANDLE_NULL;
    case 4:
        return STOW_HANDLE_NULL;
    case 5:
        return stow_handle_make(n % m.cap, fz_below(FZ_MAX_GEN + 1u));
    case 6:
        return stow_handle_make(m.cap + (n & 7u), 1u + fz_below(FZ_MAX_GEN));
    default: {
        stow_handle_t h;
        h.bits = fz_u32();
        return h;
    }
    }
}

/* The position of the item h names, or m.count when h is not live. */
static uint32_t live_pos(stow_handle_t h)
{
    uint32_t i = stow_handle_index(h);
    if (i < m.cap && m.state[i] == LIVE && stow_handle_generation(h) == m.gen[i]) {
        return m.pos[i];
    }
    return m.count;
}

static void do_lookup(void)
{
    stow_handle_t h = some_handle();
    uint32_t p = live_pos(h);
    bool live = p < m.count;
    void *q = &q;
    bool b = !live;
    FZ_QUIET(q = stow_slotmap_get(&map, h));
    FZ_PTR_EQ(q, live ? item(p) : NULL);
    FZ_QUIET(b = stow_slotmap_contains(&map, h));
    FZ_EQ(b, live);
    FZ_QUIET(b = stow_slotmap_is_dead(&map, h));
    FZ_EQ(b, live && m.pdead[p]);
}

static void remove_handle(stow_handle_t h)
{
    uint32_t p = live_pos(h);
    bool live = p < m.count;
    bool b = !live;
    FZ_QUIET(b = stow_slotmap_remove(&map, h));
    FZ_EQ(b, live);
    if (!live) {
        return;
    }
    uint32_t gone = m.pidx[p];
    uint32_t last = --m.count;
    m.pidx[p] = m.pidx[last];
    m.pdead[p] = m.pdead[last];
    m.ptag[p] = m.ptag[last];
    m.pos[m.pidx[p]] = p;
    m.groups++;
    release_index(gone);
}

static void do_mark_dead(void)
{
    stow_handle_t h = some_handle();
    uint32_t p = live_pos(h);
    bool b = false;
    FZ_QUIET(b = stow_slotmap_mark_dead(&map, h));
    FZ_EQ(b, p < m.count);
    if (p < m.count) {
        m.pdead[p] = true;
    }
}

static void do_handle_at(void)
{
    uint8_t k = fz_u8();
    uint32_t i = k < 200u && m.count > 0u ? fz_below(m.count)
                 : k < 240u              ? m.count + fz_below(3)
                                         : fz_u32();
    bool violation = i >= m.count;
    stow_handle_t h = stow_handle_make(1, 1);
    FZ_CALL(violation, h = stow_slotmap_handle_at(&map, i));
    FZ_EQ(h.bits, violation ? 0u : handle_of_index(m.pidx[i]).bits);
}

/* refresh()'s callback checks that it sees the dead items, in position order,
 * intact. */
static struct {
    uint32_t expect[MAX_CAP];
    uint32_t n, seen;
} destroyed;

static void on_destroy(void *it, void *ctx)
{
    FZ_CHECK(ctx == &destroyed);
    FZ_CHECK(destroyed.seen < destroyed.n);
    uint32_t p = destroyed.expect[destroyed.seen++];
    FZ_PTR_EQ(it, item(p));
    FZ_CHECK(fz_stamped(it, m.ptag[p], m.size));
}

static void do_refresh(void)
{
    bool callback = fz_u8() & 1u;
    destroyed.n = destroyed.seen = 0u;
    for (uint32_t p = 0; p < m.count; p++) {
        if (m.pdead[p]) {
            destroyed.expect[destroyed.n++] = p;
        }
    }
    uint32_t r = 0;
    FZ_QUIET(r = stow_slotmap_refresh(&map, callback ? on_destroy : NULL, &destroyed));
    FZ_EQ(r, destroyed.n);
    if (callback) {
        FZ_EQ(destroyed.seen, destroyed.n);
    }
    if (destroyed.n == 0u) {
        return;
    }
    m.groups++;
    uint32_t w = 0;
    for (uint32_t p = 0; p < m.count; p++) {
        if (m.pdead[p]) {
            release_index(m.pidx[p]);
            continue;
        }
        m.pidx[w] = m.pidx[p];
        m.ptag[w] = m.ptag[p];
        m.pdead[w] = false;
        m.pos[m.pidx[w]] = w;
        w++;
    }
    m.count = w;
}

static void do_clear(void)
{
    FZ_QUIET(stow_slotmap_clear(&map));
    if (m.count == 0u) {
        return;
    }
    m.groups++;
    for (uint32_t p = 0; p < m.count; p++) {
        release_index(m.pidx[p]);
    }
    m.count = 0u;
}

static void do_init(bool first)
{
    static stow_slotmap_t scratch;
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
    bool fits = stride != 0u && cap != 0u && stride <= SIZE_MAX / cap;
    if (!pretend && fits && cap * stride + 8u * cap + 4u > BUF_BYTES) {
        cap = (uint32_t)(BUF_BYTES / (stride + 9u));
        fits = cap != 0u;
    }
    size_t item_bytes = fits ? cap * stride : 0u;
    size_t tables = fz_round_up(item_bytes, 4u);
    unsigned char *buf = space + MARGIN + offset;
    size_t need = tables + 8u * (size_t)cap;
    size_t buf_size = pretend ? SIZE_MAX : need;
    fz_spoil_buffer(how, &buf, &buf_size);
    size_t buf_align = resolved > 4u ? resolved : 4u;
    bool ok = !violation && buf != NULL && size != 0u && cap != 0u &&
              cap <= STOW_HANDLE_MAX_CAPACITY && ((uintptr_t)buf & (buf_align - 1u)) == 0u &&
              item_bytes != 0u && tables != 0u && buf_size >= tables &&
              (buf_size - tables) / 8u >= cap;
    if (how == 6u) {
        bool r = true;
        FZ_CALL(true, r = stow_slotmap_init(NULL, buf, buf_size, size, align, cap));
        FZ_CHECK(!r);
        return;
    }
    if (first) {
        FZ_CHECK(ok);
    }
    if (ok && pretend && (need < tables || need > (size_t)((uintptr_t)(space + sizeof space) - (uintptr_t)buf))) {
        return; /* an ASan build's init makes the tables addressable: not beyond the space */
    }
    stow_slotmap_t *target = ok && pretend ? &scratch : &map;
    FZ_INIT(violation, ok, stow_slotmap_init(target, buf, buf_size, size, align, cap));
    if (ok && pretend) {
        FZ_QUIET(FZ_CHECK(stow_slotmap_check(&scratch)));
    }
    if (ok && !pretend) {
        m.items = buf;
        m.size = size;
        m.stride = stride;
        m.cap = cap;
        m.count = m.bump = m.retired = m.peak = m.fails = m.groups = m.nissued = 0u;
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
    switch (fz_below(17)) {
    case 0: FZ_CALL(true, p = stow_slotmap_alloc(NULL, &h)); FZ_CHECK(p == NULL); break;
    case 1: FZ_CALL(true, h = stow_slotmap_insert(NULL, source)); FZ_EQ(h.bits, 0); break;
    case 2: FZ_CALL(true, p = stow_slotmap_get(NULL, some_handle())); FZ_CHECK(p == NULL); break;
    case 3: FZ_CALL(true, b = stow_slotmap_contains(NULL, some_handle())); FZ_CHECK(!b); break;
    case 4: FZ_CALL(true, b = stow_slotmap_remove(NULL, some_handle())); FZ_CHECK(!b); break;
    case 5: FZ_CALL(true, p = stow_slotmap_data(NULL)); FZ_CHECK(p == NULL); break;
    case 6: FZ_CALL(true, n = stow_slotmap_count(NULL)); FZ_EQ(n, 0); break;
    case 7: FZ_CALL(true, n = stow_slotmap_capacity(NULL)); FZ_EQ(n, 0); break;
    case 8: FZ_CALL(true, h = stow_slotmap_handle_at(NULL, 0)); FZ_EQ(h.bits, 0); break;
    case 9: FZ_CALL(true, stow_slotmap_clear(NULL)); break;
    case 10: FZ_CALL(true, b = stow_slotmap_mark_dead(NULL, some_handle())); FZ_CHECK(!b); break;
    case 11: FZ_CALL(true, b = stow_slotmap_is_dead(NULL, some_handle())); FZ_CHECK(!b); break;
    case 12: FZ_CALL(true, n = stow_slotmap_dead_count(NULL)); FZ_EQ(n, 0); break;
    case 13: FZ_CALL(true, n = stow_slotmap_refresh(NULL, on_destroy, &destroyed)); FZ_EQ(n, 0); break;
    case 14: FZ_CALL(true, n = stow_slotmap_retired(NULL)); FZ_EQ(n, 0); break;
    case 15: {
        uint32_t which = fz_below(3);
        FZ_CALL(true, stow_slotmap_stats(which == 1u ? &map : NULL, which == 0u ? &s : NULL));
        break;
    }
    default: FZ_CALL(true, b = stow_slotmap_check(NULL)); FZ_CHECK(!b); break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_begin(data, size);
    fz_watch_none();
    fz_watch(&map, sizeof map);
    fz_watch(space, sizeof space);
    do_init(true);
    while (fz_more()) {
        fz_step++;
        switch (fz_below(14)) {
        case 0:
        case 1:
            do_insert();
            break;
        case 2:
            do_alloc();
            break;
        case 3:
        case 4:
            remove_handle(some_handle());
            break;
        case 5:
            do_lookup();
            break;
        case 6:
            do_mark_dead();
            break;
        case 7:
            do_refresh();
            break;
        case 8:
            do_handle_at();
            break;
        case 9:
            if (fz_u8() < 64u) {
                do_clear();
            }
            break;
        case 10: {
            stow_stats_t s;
            uint32_t cap = 0;
            FZ_QUIET(stow_slotmap_stats(&map, &s));
            FZ_QUIET(cap = stow_slotmap_capacity(&map));
            FZ_EQ(cap, m.cap);
            FZ_STATS_EQ(s, m.cap - m.retired, m.count, m.peak, m.fails);
            break;
        }
        case 11:
            null_object();
            break;
        case 12:
            if (fz_u8() < 32u) {
                do_init(false);
            }
            break;
        default: /* remove the newest handle and insert: one index through many generations */
            if (m.nissued > 0u) {
                remove_handle(m.issued[m.nissued - 1u]);
                do_insert();
            }
            break;
        }
        verify();
    }
    return 0;
}
