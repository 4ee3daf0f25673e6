/* SPDX-License-Identifier: MIT */
/* fuzz_pool.c - stow_pool_* against a model: which blocks are live, a LIFO stack
 * of freed ones and a bump index. See fuzz.h.
 *
 * Frees come from every kind of pointer: live blocks, NULL, free blocks (a double
 * free: a violation at level 2; at level 1 it is undefined, documented as "breaks
 * the free list", so the level-1 target does not make it), blocks never handed
 * out, interior and misaligned pointers, pointers around and beyond the pool,
 * another pool's blocks, the stack. */
#include "fuzz.h"

#define MAX_CAP 80u
#define BUF_BYTES 4096u
#define MARGIN 256u
#define PTR (sizeof(void *))

static _Alignas(128) unsigned char space[MARGIN + BUF_BYTES + MARGIN];
static _Alignas(128) unsigned char other_space[512];
static stow_pool_t pool, other;

static struct {
    unsigned char *base;
    size_t block_size;  /* as declared */
    size_t block_align; /* as declared, 0 resolved */
    size_t stride, usable;
    uint32_t cap, bump, peak, fails;
    uint32_t free_stack[MAX_CAP];
    uint32_t nfree;
    bool live[MAX_CAP];
    uint32_t tag[MAX_CAP];
    uint32_t next_tag;
} m;

static void *other_blocks[2];

static uint32_t used(void) { return m.bump - m.nfree; }

static unsigned char *block(uint32_t i) { return m.base + (size_t)i * m.stride; }

static void verify(void)
{
    FZ_QUIET(FZ_CHECK(stow_pool_check(&pool)));
    FZ_QUIET(FZ_CHECK(stow_pool_check(&other)));
    uint32_t n = 0;
    FZ_QUIET(n = stow_pool_used(&pool));
    FZ_EQ(n, used());
    for (uint32_t i = 0; i < m.bump; i++) {
        if (m.live[i]) {
            FZ_CHECK(fz_stamped(block(i), m.tag[i], m.usable));
        }
    }
}

static void took(uint32_t i, unsigned char *p)
{
    FZ_PTR_EQ(p, block(i));
    m.live[i] = true;
    m.tag[i] = ++m.next_tag;
    fz_stamp(p, m.tag[i], m.usable);
    m.peak = used() > m.peak ? used() : m.peak;
}

/* One alloc through one of the three entry points; checked: the size and
 * alignment asked for (alloc_checked). */
static void do_alloc(void)
{
    unsigned char *p = (unsigned char *)&p;
    uint32_t how = fz_below(3);
    bool violation = false;
    if (how == 2u) {
        size_t size = fz_u8() < 200u ? fz_below((uint32_t)m.block_size + 2u) : fz_size(64);
        size_t align = fz_align();
        size_t resolved = align != 0u ? align : STOW_DEFAULT_ALIGN;
        violation = size > m.block_size || !fz_align_ok(align) || resolved > m.block_align;
        FZ_CALL(violation, p = (unsigned char *)stow_pool_alloc_checked(&pool, size, align));
    } else if (how == 1u) {
        FZ_QUIET(p = (unsigned char *)stow_pool_alloc_isr(&pool));
    } else {
        FZ_QUIET(p = (unsigned char *)stow_pool_alloc(&pool));
    }
    if (violation) {
        FZ_CHECK(p == NULL);
    } else if (m.nfree > 0u) {
        took(m.free_stack[--m.nfree], p);
    } else if (m.bump < m.cap) {
        took(m.bump++, p);
    } else {
        FZ_CHECK(p == NULL);
        m.fails++;
    }
}

/* A pointer of some kind, for free() and owns(). */
static unsigned char *some_pointer(void)
{
    static int on_stack_marker;
    uint8_t kind = fz_u8() % 11u;
    uint32_t n = fz_u8();
    switch (kind) {
    case 0:
    case 1: /* a live block, if any */
        for (uint32_t k = 0; k < m.bump; k++) {
            uint32_t i = (n + k) % m.bump;
            if (m.live[i]) {
                return block(i);
            }
        }
        return NULL;
    case 2: /* a free block below bump: a double free */
        return m.nfree > 0u ? block(m.free_stack[n % m.nfree]) : NULL;
    case 3: /* a block never handed out since init or reset */
        return block(m.bump + (m.cap > m.bump ? n % (m.cap - m.bump + 1u) : 0u));
    case 4: /* interior */
        return block(n % m.cap) + 1u + fz_below((uint32_t)m.stride - 1u);
    case 5: /* below the pool */
        return m.base - 1u - (n % MARGIN);
    case 6: /* at and beyond the end */
        return block(m.cap) + (n % (MARGIN / 2u));
    case 7: /* another pool's block */
        return (unsigned char *)other_blocks[n & 1u];
    case 8: /* not a pool at all */
        return n & 1u ? (unsigned char *)&on_stack_marker : (unsigned char *)&pool;
    case 9:
        return NULL;
    default: /* anywhere in the space around the pool */
        return space + fz_below((uint32_t)sizeof space);
    }
}

/* What free(p) must do: 0 free block i, 1 ignore (NULL), 2 violation,
 * 3 double free (level 2: violation; level 1: undefined). */
static int free_kind(const unsigned char *p, uint32_t *index)
{
    if (p == NULL) {
        return 1;
    }
    uintptr_t off = (uintptr_t)p - (uintptr_t)m.base;
    if ((uintptr_t)p < (uintptr_t)m.base || off >= (uintptr_t)m.cap * m.stride || off % m.stride != 0u) {
        return 2;
    }
    uint32_t i = (uint32_t)(off / m.stride);
    if (i >= m.bump) {
        return 2;
    }
    *index = i;
    return m.live[i] ? 0 : 3;
}

static void do_free(void)
{
    unsigned char *p = some_pointer();
    uint32_t i = 0;
    int kind = free_kind(p, &i);
    if (kind == 3 && STOW_CHECK_LEVEL < 2) {
        return; /* undefined at level 1 */
    }
    bool violation = kind >= 2;
    if (fz_u8() & 1u) {
        FZ_CALL(violation, stow_pool_free_isr(&pool, p));
    } else {
        FZ_CALL(violation, stow_pool_free(&pool, p));
    }
    if (kind == 0) {
        m.live[i] = false;
        m.free_stack[m.nfree++] = i;
    }
}

static void do_owns(void)
{
    unsigned char *p = some_pointer();
    bool r = false;
    FZ_QUIET(r = stow_pool_owns(&pool, p));
    bool inside = (uintptr_t)p >= (uintptr_t)m.base &&
                  (uintptr_t)p - (uintptr_t)m.base < (uintptr_t)m.cap * m.stride;
    FZ_EQ(r, inside);
}

/* Runs init with decoded arguments; see fuzz_packed.c's do_init. */
static void do_init(bool first)
{
    static stow_pool_t scratch;
    size_t size = fz_below(48);
    size_t align = fz_align();
    uint32_t cap = fz_below(MAX_CAP + 1u);
    size_t offset = fz_below(MARGIN / 2u);
    uint8_t how = first ? 0u : fz_u8() % 16u;
    if (first) {
        align = (size_t)1 << fz_below(7);
        cap = cap == 0u ? 1u : cap;
        offset &= ~(align - 1u) & ~(PTR - 1u);
    }
    bool pretend = how == 2u;
    if (pretend) {
        size = fz_size(64);
        cap = fz_u8() < 128u ? cap : fz_u32();
    }
    bool violation = !fz_align_ok(align);
    size_t declared = align != 0u ? align : STOW_DEFAULT_ALIGN;
    size_t balign = declared > PTR ? declared : PTR;
    size_t stride = violation ? 0u : fz_round_up(size > PTR ? size : PTR, balign);
    bool fits = stride != 0u && cap <= SIZE_MAX / stride;
    size_t map = STOW_CHECK_LEVEL >= 2 ? (((size_t)cap + 31u) >> 5) * 4u : 0u;
    if (!pretend && fits && cap * stride + map > BUF_BYTES) {
        cap = (uint32_t)(BUF_BYTES / (stride + 1u));
        map = STOW_CHECK_LEVEL >= 2 ? (((size_t)cap + 31u) >> 5) * 4u : 0u;
    }
    size_t bytes = fits ? cap * stride : 0u;
    size_t need = bytes + map;
    if (need < bytes) {
        fits = false;
    }
    unsigned char *buf = space + MARGIN + offset;
    size_t buf_size = pretend ? SIZE_MAX : need;
    fz_spoil_buffer(how, &buf, &buf_size);
    bool ok = !violation && fits && buf != NULL && cap != 0u &&
              ((uintptr_t)buf & (balign - 1u)) == 0u && buf_size >= need;
    if (how == 6u) {
        bool r = true;
        FZ_CALL(true, r = stow_pool_init(NULL, buf, buf_size, size, align, cap));
        FZ_CHECK(!r);
        return;
    }
    if (first) {
        FZ_CHECK(ok);
    }
    if (ok && pretend && STOW_CHECK_LEVEL >= 2 &&
        (uintptr_t)need > (uintptr_t)(space + sizeof space) - (uintptr_t)buf) {
        /* An ASan build's init makes the level-2 bitmap addressable, which lies
         * beyond a buffer that only pretends: not a call to make for real. */
        return;
    }
    stow_pool_t *target = ok && pretend ? &scratch : &pool;
    FZ_INIT(violation, ok, stow_pool_init(target, buf, buf_size, size, align, cap));
    if (ok && pretend) {
        FZ_QUIET(FZ_CHECK(stow_pool_check(&scratch)));
    }
    if (ok && !pretend) {
        m.base = buf;
        m.block_size = size;
        m.block_align = declared;
        m.stride = stride;
        m.usable = size != 0u ? size : PTR;
        m.cap = cap;
        m.bump = m.nfree = m.peak = m.fails = 0u;
        fz_fill(space, 0xA5u, sizeof space); /* never assumed zeroed */
    }
}

static void null_object(void)
{
    stow_stats_t s;
    void *p = &p;
    uint32_t n = 1u;
    bool b = true;
    switch (fz_below(12)) {
    case 0: FZ_CALL(true, p = stow_pool_alloc(NULL)); FZ_CHECK(p == NULL); break;
    case 1: FZ_CALL(true, p = stow_pool_alloc_isr(NULL)); FZ_CHECK(p == NULL); break;
    case 2: FZ_CALL(true, p = stow_pool_alloc_checked(NULL, 1, 1)); FZ_CHECK(p == NULL); break;
    case 3: FZ_CALL(true, stow_pool_free(NULL, some_pointer())); break;
    case 4: FZ_CALL(true, stow_pool_free_isr(NULL, some_pointer())); break;
    case 5: FZ_CALL(true, b = stow_pool_owns(NULL, some_pointer())); FZ_CHECK(!b); break;
    case 6: FZ_CALL(true, stow_pool_reset(NULL)); break;
    case 7: FZ_CALL(true, n = stow_pool_capacity(NULL)); FZ_EQ(n, 0); break;
    case 8: FZ_CALL(true, n = stow_pool_used(NULL)); FZ_EQ(n, 0); break;
    case 9: {
        uint32_t which = fz_below(3);
        FZ_CALL(true, stow_pool_stats(which == 1u ? &pool : NULL, which == 0u ? &s : NULL));
        break;
    }
    default: FZ_CALL(true, b = stow_pool_check(NULL)); FZ_CHECK(!b); break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_begin(data, size);
    fz_watch_none();
    fz_watch(&pool, sizeof pool);
    fz_watch(space, sizeof space);
    fz_watch(&other, sizeof other);
    fz_watch(other_space, sizeof other_space);
    do_init(true);
    FZ_CHECK(stow_pool_init(&other, other_space, sizeof other_space, 24, 8, 8));
    other_blocks[0] = stow_pool_alloc(&other);
    other_blocks[1] = stow_pool_alloc(&other);
    while (fz_more()) {
        fz_step++;
        switch (fz_below(10)) {
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
            do_owns();
            break;
        case 6:
            if (fz_u8() < 48u) {
                FZ_QUIET(stow_pool_reset(&pool));
                for (uint32_t i = 0; i < m.bump; i++) {
                    m.live[i] = false;
                }
                m.bump = m.nfree = 0u;
            }
            break;
        case 7: {
            stow_stats_t s;
            uint32_t cap = 0;
            FZ_QUIET(stow_pool_stats(&pool, &s));
            FZ_QUIET(cap = stow_pool_capacity(&pool));
            FZ_EQ(cap, m.cap);
            FZ_STATS_EQ(s, m.cap, used(), m.peak, m.fails);
            break;
        }
        case 8:
            null_object();
            break;
        default:
            if (fz_u8() < 32u) {
                do_init(false);
            }
            break;
        }
        verify();
    }
    return 0;
}
