/* SPDX-License-Identifier: MIT */
/* arena.c - linear allocator over a chain of static blocks. See stow/arena.h.
 *
 * Representation: every block of a chain records only its own bounds
 * [base, limit). The arena at the head of the chain also holds the cursor: the
 * current block `cur` and, copied out of it so that the fast path reads one
 * struct, the free room [ptr, end) of that block. Blocks before cur are full,
 * blocks after it are empty, so no other block needs a position of its own: a
 * mark is (block, ptr), and used is the sum of the blocks before cur plus
 * ptr - cur->base. The head keeps that sum, done, so that used and reset need
 * no walk: alloc adds the blocks it passes over, rewind sums those before the
 * mark's block.
 *
 * Invariants (stow_arena_check tests each one):
 *   - every block of the chain has head == the arena at its start, and no cycle;
 *   - base <= limit in every block; cur is in the chain;
 *   - cur->base <= ptr <= end == cur->limit;
 *   - done is the sum of limit - base over the blocks before cur;
 *   - level 2: in every block, the bytes from its free position (limit before
 *     cur, ptr in cur, base after cur) up to poison_end hold 0xDD.
 * peak is brought up to date only when used is about to fall (rewind, reset):
 * used only grows in between, so stats() can take max(peak, used) and the
 * allocation fast path never touches it.
 *
 * Who is the head. A call is made on the head of a chain exactly when the
 * current block of the object it is given names that object as its head:
 * cur->head == a. One test covers both ways of getting it wrong. A block
 * chained into another arena still has cur == itself (chain() accepts only a
 * block with nothing in use, whose cursor is at its own start) and head == the
 * other arena. A head whose current block was initialised again (init cannot
 * know that the block it is given is chained: the object may hold anything
 * before init, so init reads nothing from it) finds cur->head == cur. The
 * calls that concern the whole chain (rewind, reset, used, capacity, stats,
 * chain, and alloc when it moves to a later block) also test the head of every
 * block they pass, so a re-initialised block anywhere in the chain is reported
 * by the head's next such call, before the head hands out or gives back any of
 * that block's bytes... except the bytes it already handed out before the
 * re-initialisation, which the block now hands out again: the report is all
 * that can be done about those.
 *
 * Size 0. The fast path sends a request of 0 bytes to the slow path with one
 * test of its own (cbz on Cortex-M4), which lets the sum start + size be checked
 * by its carry alone; the slow path serves it as a request of one byte, so that
 * its pointer is distinct from every other live allocation and costs at most one
 * alignment step.
 */
#include "stow/arena.h"
#include "internal.h"

/* The check every call on an arena makes after the NULL check: a is the head
 * of its chain (see "Who is the head" above). fn is the public function's name.
 * CHECK_CHAIN does the same for the calls that walk the chain anyway, and also
 * tests the blocks up to stop (NULL: all of them). */
#if STOW_CHECK_LEVEL >= 1
enum { HEAD_OK, HEAD_CHAINED, HEAD_INIT_AGAIN };
#define HEAD_REPORT(state, fn)                                                         \
    STOW__REPORT((state) == HEAD_CHAINED ? fn ": called on a block chained into another arena" \
                                         : fn ": a block of its chain was initialised again")
#define CHECK_HEAD(a, fn, retval)                                                      \
    do {                                                                               \
        if ((a)->cur->head != (a)) {                                                   \
            HEAD_REPORT((a)->head != (a) ? HEAD_CHAINED : HEAD_INIT_AGAIN, fn);        \
            return retval;                                                             \
        }                                                                              \
    } while (0)
#define CHECK_CHAIN(a, stop, fn, retval)                                               \
    do {                                                                               \
        int state_ = head_state((a), (stop));                                          \
        if (state_ != HEAD_OK) {                                                       \
            HEAD_REPORT(state_, fn);                                                   \
            return retval;                                                             \
        }                                                                              \
    } while (0)
/* The text alloc_slow reports when it meets a block that no longer names the
 * arena as its head. */
#define SLOW_TEXT(fn) STOW_CHECK_TEXT(fn ": a block of its chain was initialised again")

/* HEAD_OK when a is the head of its chain and every block after it, up to and
 * including stop (NULL: to the end), names a as its head. O(blocks walked). */
static STOW__NOINLINE int head_state(const stow_arena_t *a, const stow_arena_t *stop)
{
    if (a->cur->head != a) {
        return a->head != a ? HEAD_CHAINED : HEAD_INIT_AGAIN;
    }
    const stow_arena_t *b = a;
    while (b != stop) {
        b = b->next;
        if (b == NULL) {
            break;
        }
        if (b->head != a) {
            return HEAD_INIT_AGAIN;
        }
    }
    return HEAD_OK;
}
#else
#define CHECK_HEAD(a, fn, retval) ((void)0)
#define CHECK_CHAIN(a, stop, fn, retval) ((void)0)
#define SLOW_TEXT(fn) NULL
#endif

bool stow_arena_init(stow_arena_t *a, void *buf, size_t size)
{
    STOW__CHECK(a != NULL, "stow_arena_init: arena is NULL", false);
    if (buf == NULL || size == 0u) {
        return false;
    }
    unsigned char *b = (unsigned char *)buf;
    a->ptr = b;
    a->end = b + size;
    a->base = b;
    a->limit = b + size;
    a->next = NULL;
    a->head = a;
    a->cur = a;
    a->peak = 0u;
    a->done = 0u;
    a->fails = 0u;
    a->config = NULL;
#if STOW_CHECK_LEVEL >= 2
    a->poison_end = b;
#endif
    return true;
}

#if STOW_CHECK_LEVEL >= 2
/* Reports bytes in [from, to) of block b that lost their poison since they were
 * given back, and moves poison_end past to. */
static void take_poisoned(stow_arena_t *b, const unsigned char *from, unsigned char *to)
{
    const unsigned char *stop = to < b->poison_end ? to : b->poison_end;
    if (stop > from && !stow__poison_intact(from, stow__span(from, stop))) {
        STOW__REPORT("stow_arena_alloc: arena memory was written after rewind or reset");
    }
    if (b->poison_end < to) {
        b->poison_end = to;
    }
}
#endif

/* Where size bytes (size > 0) at alignment mask + 1, placed at the first such
 * address from `from` on, end, if they end at or before `end`; 0 if they do not
 * fit. Worked on as addresses (start rounded up, stop = start + size), and the
 * allocation's address is then stop - size, because that needs fewer registers
 * than padding arithmetic. Neither sum can wrap unseen: each is caught by its
 * carry. (A start that wraps could not fit anyway: an aligned from leaves room
 * for mask below the top of the address space, so only an unaligned one wraps,
 * and its aligned start lies beyond the top.) alloc_checked() has the same
 * tests in line. */
static inline uintptr_t fit_end(const unsigned char *from, const unsigned char *end, size_t size,
                                size_t mask)
{
    uintptr_t start = (uintptr_t)from + mask;
    if (start < mask) {
        return 0u;
    }
    uintptr_t stop = (start & ~(uintptr_t)mask) + size;
    if (stop < size || stop > (uintptr_t)end) {
        return 0u;
    }
    return stop;
}

/* Hands out the size bytes that end at stop, where fit_end() placed them after
 * ptr, the current block's free position (the bytes between stay padding). */
static inline void *take(stow_arena_t *a, unsigned char *ptr, uintptr_t stop, size_t size)
{
    unsigned char *next = ptr + (stop - (uintptr_t)ptr);
#if STOW_CHECK_LEVEL >= 2
    take_poisoned(a->cur, ptr, next);
#endif
    a->ptr = next;
    unsigned char *p = next - size;
    stow__acquire(p, size); /* the padding stays released */
    return p;
}

/* Makes b, the current block or one after it, the current block; the blocks
 * passed over count as full, and done is the bytes of the blocks before b. */
static void move_to(stow_arena_t *a, stow_arena_t *b, size_t done)
{
#if STOW_CHECK_LEVEL >= 2
    for (stow_arena_t *x = a->cur; x != b; x = x->next) {
        x->poison_end = x->limit; /* full blocks have nothing poisoned */
    }
#endif
    a->cur = b;
    a->ptr = b->base;
    a->end = b->limit;
    a->done = done;
}

/* The request does not fit the current block, or is of size 0: serve size 0 as
 * size 1, then find the first block from the current one on that has room (the
 * current block is tried again for any size: one fit test in the loop costs
 * less code than a second one for size 0). Out of line, so that the fast path
 * stays small. what: the report for a block that no longer names a as its head. */
static STOW__NOINLINE void *alloc_slow(stow_arena_t *a, size_t size, size_t mask,
                                       const char *what)
{
    stow_arena_t *b = a->cur;
    unsigned char *from = a->ptr;
    size_t done = a->done;
    if (size == 0u) {
        size = 1u;
    }
    for (;;) {
        uintptr_t stop = fit_end(from, b->limit, size, mask);
        if (stop != 0u) {
            move_to(a, b, done);
            return take(a, from, stop, size);
        }
        done += stow__span(b->base, b->limit);
        b = b->next;
        if (b == NULL) {
            break;
        }
#if STOW_CHECK_LEVEL >= 1
        if (b->head != a) {
            stow_port_assert_failed(what, STOW__FILE, __LINE__);
            return NULL;
        }
#endif
        from = b->base;
    }
    (void)what;
    a->fails++;
    return NULL;
}

/* The allocation itself, once the caller's checks have passed. */
static inline void *alloc_checked(stow_arena_t *a, size_t size, size_t align, const char *what)
{
    size_t mask = (align != 0u ? align : (size_t)STOW_DEFAULT_ALIGN) - 1u;
    /* fit_end() spelled out as a test per failure, the end read last: every
     * value then stays in a scratch register (Cortex-M4: 15 instructions with
     * the return, no stack). */
    if (size == 0u) {
        return alloc_slow(a, size, mask, what); /* served as one byte there */
    }
    unsigned char *ptr = a->ptr;
    uintptr_t start = (uintptr_t)ptr + mask;
    if (start < mask) {
        return alloc_slow(a, size, mask, what);
    }
    uintptr_t stop = (start & ~(uintptr_t)mask) + size;
    if (stop < size) {
        return alloc_slow(a, size, mask, what);
    }
    if (stop > (uintptr_t)a->end) {
        return alloc_slow(a, size, mask, what);
    }
    return take(a, ptr, stop, size);
}

/* The same, out of line, for the calls that zero what they hand out. */
static STOW__NOINLINE void *alloc_then_zero(stow_arena_t *a, size_t size, size_t align,
                                            const char *what)
{
    void *p = alloc_checked(a, size, align, what);
    if (p != NULL) {
        stow__fill(p, 0u, size);
    }
    return p;
}

void *stow_arena_alloc(stow_arena_t *a, size_t size, size_t align)
{
    STOW__CHECK(a != NULL, "stow_arena_alloc: arena is NULL", NULL);
    CHECK_HEAD(a, "stow_arena_alloc", NULL);
    STOW__CHECK((align & (align - 1u)) == 0u, /* 0 or a power of two */
                "stow_arena_alloc: alignment is not a power of two", NULL);
    return alloc_checked(a, size, align, SLOW_TEXT("stow_arena_alloc"));
}

void *stow_arena_alloc_zeroed(stow_arena_t *a, size_t size, size_t align)
{
    STOW__CHECK(a != NULL, "stow_arena_alloc_zeroed: arena is NULL", NULL);
    CHECK_HEAD(a, "stow_arena_alloc_zeroed", NULL);
    STOW__CHECK((align & (align - 1u)) == 0u,
                "stow_arena_alloc_zeroed: alignment is not a power of two", NULL);
    return alloc_then_zero(a, size, align, SLOW_TEXT("stow_arena_alloc_zeroed"));
}

void *stow_arena_alloc_array(stow_arena_t *a, size_t count, size_t size, size_t align)
{
    STOW__CHECK(a != NULL, "stow_arena_alloc_array: arena is NULL", NULL);
    CHECK_HEAD(a, "stow_arena_alloc_array", NULL);
    STOW__CHECK((align & (align - 1u)) == 0u,
                "stow_arena_alloc_array: alignment is not a power of two", NULL);
    if (size != 0u && count > SIZE_MAX / size) {
        a->fails++;
        return NULL;
    }
    return alloc_then_zero(a, count * size, align, SLOW_TEXT("stow_arena_alloc_array"));
}

stow_arena_mark_t stow_arena_mark(const stow_arena_t *a)
{
    stow_arena_mark_t m = {NULL, NULL};
    STOW__CHECK(a != NULL, "stow_arena_mark: arena is NULL", m);
    CHECK_HEAD(a, "stow_arena_mark", m);
    m.block = a->cur;
    m.ptr = a->ptr;
    return m;
}

static size_t used_of(const stow_arena_t *a) { return a->done + stow__span(a->cur->base, a->ptr); }

/* The bytes of the blocks of a's chain before block. */
static size_t bytes_before(const stow_arena_t *a, const stow_arena_t *block)
{
    size_t bytes = 0u;
    for (const stow_arena_t *b = a; b != block; b = b->next) {
        bytes += stow__span(b->base, b->limit);
    }
    return bytes;
}

#if STOW_CHECK_LEVEL >= 1
/* True when mark names a position at or below the current one in a's chain. */
static bool mark_is_valid(const stow_arena_t *a, stow_arena_mark_t mark)
{
    for (const stow_arena_t *b = a; b != a->cur; b = b->next) {
        if (b == mark.block) {
            return mark.ptr >= b->base && mark.ptr <= b->limit;
        }
    }
    return mark.block == a->cur && mark.ptr >= a->cur->base && mark.ptr <= a->ptr;
}
#endif

#if STOW_CHECK_LEVEL >= 2 || STOW__ASAN
/* Releases what the rewind gives back: [mark.ptr, ...) of the mark's block and
 * every block after it up to the current one. Runs before the cursor moves. */
static void poison_given_back(const stow_arena_t *a, stow_arena_mark_t mark)
{
    unsigned char *from = mark.ptr;
    stow_arena_t *b = mark.block;
    for (;;) {
        unsigned char *to = b == a->cur ? a->ptr : b->limit;
        stow__release(from, stow__span(from, to));
#if STOW_CHECK_LEVEL >= 2
        if (b->poison_end < to) {
            b->poison_end = to;
        }
#endif
        if (b == a->cur) {
            return;
        }
        b = b->next;
        from = b->base;
    }
}
#endif

/* Moves the cursor back to mark (a valid one), giving back what lay above it. */
static void move_back(stow_arena_t *a, stow_arena_mark_t mark)
{
    size_t used = used_of(a);
    if (used > a->peak) {
        a->peak = used;
    }
#if STOW_CHECK_LEVEL >= 2 || STOW__ASAN
    poison_given_back(a, mark);
#endif
    a->done = bytes_before(a, mark.block);
    a->cur = mark.block;
    a->ptr = mark.ptr;
    a->end = mark.block->limit;
}

void stow_arena_rewind(stow_arena_t *a, stow_arena_mark_t mark)
{
    STOW__CHECK_VOID(a != NULL, "stow_arena_rewind: arena is NULL");
    CHECK_CHAIN(a, a->cur, "stow_arena_rewind", );
    STOW__CHECK_VOID(mark_is_valid(a, mark),
                     "stow_arena_rewind: mark is not from this arena or lies above the "
                     "current position");
    move_back(a, mark);
}

void stow_arena_reset(stow_arena_t *a)
{
    STOW__CHECK_VOID(a != NULL, "stow_arena_reset: arena is NULL");
    CHECK_CHAIN(a, a->cur, "stow_arena_reset", );
    stow_arena_mark_t start = {a, a->base};
    move_back(a, start);
}

void stow_arena_chain(stow_arena_t *a, stow_arena_t *next)
{
    STOW__CHECK_VOID(a != NULL, "stow_arena_chain: arena is NULL");
    STOW__CHECK_VOID(next != NULL, "stow_arena_chain: next is NULL");
    CHECK_CHAIN(a, NULL, "stow_arena_chain", );
    STOW__CHECK_VOID(next != a, "stow_arena_chain: next is the arena itself");
    STOW__CHECK_VOID(head_state(next, NULL) == HEAD_OK,
                     "stow_arena_chain: next is chained already, or a block of its chain was "
                     "initialised again");
    STOW__CHECK_VOID(used_of(next) == 0u, "stow_arena_chain: next has memory in use");
    stow_arena_t *tail = a;
    while (tail->next != NULL) {
        tail = tail->next;
    }
    tail->next = next;
    for (stow_arena_t *b = next; b != NULL; b = b->next) {
        b->head = a;
    }
}

size_t stow_arena_used(const stow_arena_t *a)
{
    STOW__CHECK(a != NULL, "stow_arena_used: arena is NULL", 0u);
    CHECK_CHAIN(a, a->cur, "stow_arena_used", 0u);
    return used_of(a);
}

static size_t capacity_of(const stow_arena_t *a)
{
    size_t capacity = 0u;
    for (const stow_arena_t *b = a; b != NULL; b = b->next) {
        capacity += stow__span(b->base, b->limit);
    }
    return capacity;
}

size_t stow_arena_capacity(const stow_arena_t *a)
{
    STOW__CHECK(a != NULL, "stow_arena_capacity: arena is NULL", 0u);
    CHECK_CHAIN(a, NULL, "stow_arena_capacity", 0u);
    return capacity_of(a);
}

void stow_arena_stats(const stow_arena_t *a, stow_stats_t *out)
{
    STOW__CHECK_VOID(a != NULL, "stow_arena_stats: arena is NULL");
    STOW__CHECK_VOID(out != NULL, "stow_arena_stats: out is NULL");
    CHECK_CHAIN(a, NULL, "stow_arena_stats", );
    size_t used = used_of(a);
    out->capacity = capacity_of(a);
    out->used = used;
    out->peak = used > a->peak ? used : a->peak;
    out->fails = a->fails;
}

/* Block b of a's chain is sound; from: where its free room starts (its limit
 * before the current block, a->ptr in it, its base after it). */
static bool block_is_sound(const stow_arena_t *a, const stow_arena_t *b, const unsigned char *from)
{
    if (b->head != a || b->base == NULL || b->base > b->limit) {
        return false;
    }
#if STOW_CHECK_LEVEL >= 2
    if (from < b->base || from > b->limit || b->poison_end < from ||
        b->poison_end > b->limit ||
        !stow__poison_intact(from, stow__span(from, b->poison_end))) {
        return false;
    }
#else
    (void)from;
#endif
    return true;
}

bool stow_arena_check(const stow_arena_t *a)
{
    STOW__CHECK(a != NULL, "stow_arena_check: arena is NULL", false);
    /* Floyd's two pointers find a cycle before the walk below could loop forever. */
    const stow_arena_t *slow = a;
    const stow_arena_t *fast = a;
    while (fast != NULL && fast->next != NULL) {
        slow = slow->next;
        fast = fast->next->next;
        if (slow == fast) {
            return false;
        }
    }
    /* One walk: each block knows from its place before, at or after the current
     * block where its free room starts, so the level-2 poison test of a block
     * costs no walk of its own. */
    bool after_cur = false;
    size_t before = 0u; /* bytes of the blocks before the current one */
    for (const stow_arena_t *b = a; b != NULL; b = b->next) {
        const unsigned char *from = b->limit;
        if (b == a->cur) {
            if (a->ptr < b->base || a->ptr > a->end || a->end != b->limit || a->done != before) {
                return false;
            }
            from = a->ptr;
        } else if (after_cur) {
            from = b->base;
        } else {
            before += stow__span(b->base, b->limit);
        }
        if (!block_is_sound(a, b, from)) {
            return false;
        }
        after_cur = after_cur || b == a->cur;
    }
    return after_cur; /* the current block is in the chain */
}

/* The report's view of an arena (stow/report.h). A block chained into another
 * arena answers no call of its own (its use shows in its head's stats), so the
 * report shows it with its own bytes as capacity, nothing used, and its head's
 * check(). */
static void registry_arena_stats(const void *c, stow_stats_t *out)
{
    const stow_arena_t *a = (const stow_arena_t *)c;
    if (a->head != a && a->head != NULL) {
        out->capacity = stow__span(a->base, a->limit);
        out->used = 0u;
        out->peak = 0u;
        out->fails = 0u;
        return;
    }
    stow_arena_stats(a, out);
}

static bool registry_arena_check(const void *c)
{
    const stow_arena_t *a = (const stow_arena_t *)c;
    return stow_arena_check(a->head != NULL ? a->head : a);
}

const stow_registry_kind_t stow_registry_kind_arena = {"arena", registry_arena_stats,
                                                       registry_arena_check, true};
