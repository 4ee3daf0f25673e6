/* SPDX-License-Identifier: MIT */
/* fuzz_packed.c - stow_packed_* against a plain array of tags. See fuzz.h. */
#include "fuzz.h"

#define MAX_CAP 96u
#define BUF_BYTES 4096u
#define MARGIN 128u

static _Alignas(128) unsigned char space[BUF_BYTES + 2u * MARGIN];
static stow_packed_t arr;

static struct {
    unsigned char *items;
    size_t size, stride;
    uint32_t cap, count, peak, fails;
    uint32_t tag[MAX_CAP];
    uint32_t next_tag;
} m;

static void verify(void)
{
    FZ_QUIET(FZ_CHECK(stow_packed_check(&arr)));
    uint32_t count = 0;
    FZ_QUIET(count = stow_packed_count(&arr));
    FZ_EQ(count, m.count);
    void *data = NULL;
    FZ_QUIET(data = stow_packed_data(&arr));
    FZ_PTR_EQ(data, m.items);
    for (uint32_t i = 0; i < m.count; i++) {
        FZ_CHECK(fz_stamped(m.items + (size_t)i * m.stride, m.tag[i], m.size));
    }
}

/* Runs init with decoded arguments, the model deciding what it must do. first:
 * the opening init, whose arguments are made valid. Arguments that only pretend
 * (a huge item, a buffer that claims SIZE_MAX bytes: init computes, it touches
 * nothing) go to a scratch object, whose result is checked and then dropped. */
static void do_init(bool first)
{
    static stow_packed_t scratch;
    size_t size = 1u + fz_below(40);
    size_t align = fz_align();
    uint32_t cap = fz_below(MAX_CAP + 1u);
    size_t offset = fz_below(MARGIN);
    uint8_t how = first ? 0u : fz_u8() % 16u;
    if (first) {
        align = (size_t)1 << fz_below(7);
        cap = cap == 0u ? 1u : cap;
        offset &= ~(align - 1u);
    }
    bool pretend = how == 2u;
    if (how == 1u) {
        size = 0; /* refused */
    } else if (pretend) {
        size = fz_size(64); /* the rounding or the product may overflow */
        cap = fz_u8() < 128u ? cap : fz_u32();
    }
    bool violation = !fz_align_ok(align);
    size_t resolved = align != 0u ? align : STOW_DEFAULT_ALIGN;
    size_t stride = violation ? 0u : fz_round_up(size, resolved);
    bool fits = stride != 0u && cap <= SIZE_MAX / stride;
    if (!pretend && fits && cap * stride > BUF_BYTES) {
        cap = (uint32_t)(BUF_BYTES / stride); /* keep it in the buffer: fewer items */
    }
    size_t bytes = fits ? cap * stride : 0u;
    unsigned char *buf = space + MARGIN + offset;
    size_t buf_size = pretend ? SIZE_MAX : bytes;
    fz_spoil_buffer(how, &buf, &buf_size);
    bool ok = !violation && buf != NULL && size != 0u && cap != 0u && stride != 0u &&
              bytes != 0u && ((uintptr_t)buf & (resolved - 1u)) == 0u && buf_size >= bytes;
    if (how == 6u) { /* a NULL object */
        bool r = true;
        FZ_CALL(true, r = stow_packed_init(NULL, buf, buf_size, size, align, cap));
        FZ_CHECK(!r);
        return;
    }
    if (first) {
        FZ_CHECK(ok);
    }
    stow_packed_t *target = ok && pretend ? &scratch : &arr;
    FZ_INIT(violation, ok, stow_packed_init(target, buf, buf_size, size, align, cap));
    if (ok && !pretend) {
        m.items = buf;
        m.size = size;
        m.stride = stride;
        m.cap = cap;
        m.count = m.peak = m.fails = 0u;
        fz_fill(space, 0xA5u, sizeof space); /* storage is never assumed zeroed */
    }
}

static void null_object(void)
{
    stow_stats_t s;
    void *p = &p;
    uint32_t n = 1u;
    bool b = true;
    switch (fz_below(9)) {
    case 0: FZ_CALL(true, p = stow_packed_push(NULL)); FZ_CHECK(p == NULL); break;
    case 1: FZ_CALL(true, stow_packed_remove_at(NULL, 0)); break;
    case 2: FZ_CALL(true, p = stow_packed_at(NULL, 0)); FZ_CHECK(p == NULL); break;
    case 3: FZ_CALL(true, p = stow_packed_data(NULL)); FZ_CHECK(p == NULL); break;
    case 4: FZ_CALL(true, n = stow_packed_count(NULL)); FZ_EQ(n, 0); break;
    case 5: FZ_CALL(true, n = stow_packed_capacity(NULL)); FZ_EQ(n, 0); break;
    case 6: FZ_CALL(true, stow_packed_clear(NULL)); break;
    case 7: { /* the object, the output or both NULL */
        uint32_t which = fz_below(3);
        FZ_CALL(true, stow_packed_stats(which == 1u ? &arr : NULL, which == 0u ? &s : NULL));
        break;
    }
    default: FZ_CALL(true, b = stow_packed_check(NULL)); FZ_CHECK(!b); break;
    }
}

/* An index: mostly in range, sometimes at or far beyond count. */
static uint32_t some_index(void)
{
    uint8_t k = fz_u8();
    if (k < 200u && m.count > 0u) {
        return fz_below(m.count);
    }
    if (k < 230u) {
        return m.count + fz_below(4);
    }
    return fz_u32();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_begin(data, size);
    fz_watch_none();
    fz_watch(&arr, sizeof arr);
    fz_watch(space, sizeof space);
    do_init(true);
    while (fz_more()) {
        fz_step++;
        switch (fz_below(10)) {
        case 0:
        case 1: { /* push */
            unsigned char *p = NULL;
            FZ_QUIET(p = (unsigned char *)stow_packed_push(&arr));
            if (m.count == m.cap) {
                FZ_CHECK(p == NULL);
                m.fails++;
                break;
            }
            FZ_PTR_EQ(p, m.items + (size_t)m.count * m.stride);
            FZ_CHECK(fz_zero(p, m.stride));
            m.tag[m.count] = ++m.next_tag;
            fz_stamp(p, m.next_tag, m.size);
            m.count++;
            m.peak = m.count > m.peak ? m.count : m.peak;
            break;
        }
        case 2:
        case 3: { /* remove_at */
            uint32_t i = some_index();
            bool bad = i >= m.count;
            FZ_CALL(bad, stow_packed_remove_at(&arr, i));
            if (!bad) {
                m.count--;
                m.tag[i] = m.tag[m.count];
            }
            break;
        }
        case 4: { /* at */
            uint32_t i = some_index();
            bool bad = i >= m.count;
            void *p = &p;
            FZ_CALL(bad, p = stow_packed_at(&arr, i));
            FZ_PTR_EQ(p, bad ? NULL : m.items + (size_t)i * m.stride);
            break;
        }
        case 5: /* clear */
            if (fz_u8() < 64u) {
                FZ_QUIET(stow_packed_clear(&arr));
                m.count = 0u;
            }
            break;
        case 6: { /* stats */
            stow_stats_t s;
            uint32_t cap = 0;
            FZ_QUIET(stow_packed_stats(&arr, &s));
            FZ_QUIET(cap = stow_packed_capacity(&arr));
            FZ_EQ(cap, m.cap);
            FZ_STATS_EQ(s, m.cap, m.count, m.peak, m.fails);
            break;
        }
        case 7:
            null_object();
            break;
        case 8:
            if (fz_u8() < 32u) {
                do_init(false);
            }
            break;
        default: /* restamp an item */
            if (m.count > 0u) {
                uint32_t i = fz_below(m.count);
                m.tag[i] = ++m.next_tag;
                fz_stamp(m.items + (size_t)i * m.stride, m.tag[i], m.size);
            }
            break;
        }
        verify();
    }
    return 0;
}
