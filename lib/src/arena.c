/* arena.c - linear allocator over a chain of static blocks. See stow/arena.h.
 *
 * Representation: every block of a chain records only its own bounds
 * [base, limit). The arena at the head of the chain also holds the cursor: the
 * current block `cur` and, copied out of it so that the fast path reads one
 * struct, the free room [ptr, end) of that block. Blocks before cur are full,
 * blocks after it are empty, so no other block needs a position of its own: a
 * mark is (block, ptr), and used is the sum of the blocks before cur plus
 * ptr - cur->base.
 *
 * Invariants (stow_arena_check tests each one):
 *   - every block of the chain has head == the arena at its start, and no cycle;
 *   - base <= limit in every block; cur is in the chain;
 *   - cur->base <= ptr <= end == cur->limit;
 *   - level 2: in every block, the bytes from its free position (limit before
 *     cur, ptr in cur, base after cur) up to poison_end hold 0xDD.
 * peak is brought up to date only when used is about to fall (rewind, reset):
 * used only grows in between, so stats() can take max(peak, used) and the
 * allocation fast path never touches it.
 */
#include "stow/arena.h"
#include "internal.h"

bool stow_arena_init(stow_arena_t *a, void *buf, size_t size)
{
    STOW__REQUIRE(a != NULL, false);
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
    a->fails = 0u;
    a->config = NULL;
#if STOW_CHECK_LEVEL >= 2
    a->poison_end = b;
#endif
    return true;
}

#if STOW_CHECK_LEVEL >= 2
/* Where block b's free room starts. */
static unsigned char *free_start(const stow_arena_t *a, const stow_arena_t *b)
{
    if (b == a->cur) {
        return a->ptr;
    }
    for (const stow_arena_t *x = a; x != a->cur; x = x->next) {
        if (x == b) {
            return b->limit; /* before the current block: full */
        }
    }
    return b->base; /* after it: empty */
}
#endif

#if STOW_CHECK_LEVEL >= 2
/* Reports bytes in [from, to) of block b that lost their poison since they were
 * given back, and moves poison_end past to. */
static void take_poisoned(stow_arena_t *b, const unsigned char *from, unsigned char *to)
{
    const unsigned char *stop = to < b->poison_end ? to : b->poison_end;
    if (stop > from && !stow__poison_intact(from, (size_t)(stop - from))) {
        stow_port_assert_failed(STOW_CHECK_TEXT("arena bytes written after rewind or reset"),
                                __FILE__, __LINE__);
    }
    if (b->poison_end < to) {
        b->poison_end = to;
    }
}
#endif

/* Whether size bytes at alignment mask + 1 fit in [from, end), and if so the
 * padding before them and the bytes taken in all (padding and size). Worked on as addresses, start rounded up and stop = start +
 * size, because that needs two registers fewer than padding arithmetic (15
 * instructions per alloc on Cortex-M4 instead of 16). Neither sum can wrap
 * unseen: the carries are tested. (A start that wraps could not fit anyway: an
 * aligned from leaves room for mask below the top of the address space, so only
 * an unaligned one wraps, and its aligned start lies beyond the top.) */
static inline bool fits(const unsigned char *from, const unsigned char *end, size_t size,
                        size_t mask, size_t *pad, size_t *taken)
{
    uintptr_t start = (uintptr_t)from + mask;
    if (start < mask) {
        return false;
    }
    start &= ~(uintptr_t)mask;
    uintptr_t stop = start + size;
    if (stop < start || stop > (uintptr_t)end) {
        return false;
    }
    *pad = (size_t)(start - (uintptr_t)from);
    *taken = (size_t)(stop - (uintptr_t)from);
    return true;
}

/* Hands out the size bytes after pad bytes of padding at ptr, the current
 * block's free position, where fits() said they fit (taken: pad + size). */
static inline void *take(stow_arena_t *a, unsigned char *ptr, size_t pad, size_t taken,
                         size_t size)
{
    unsigned char *p = ptr + pad;
#if STOW_CHECK_LEVEL >= 2
    take_poisoned(a->cur, ptr, ptr + taken);
#endif
    a->ptr = ptr + taken;
    stow__acquire(p, size); /* the padding stays released */
    return p;
}

/* Makes b, a block after the current one, the current block; the blocks passed
 * over count as full. */
static void move_to(stow_arena_t *a, stow_arena_t *b)
{
#if STOW_CHECK_LEVEL >= 2
    for (stow_arena_t *x = a->cur; x != b; x = x->next) {
        x->poison_end = x->limit; /* full blocks have nothing poisoned */
    }
#endif
    a->cur = b;
    a->ptr = b->base;
    a->end = b->limit;
}

/* The request does not fit the current block: find the first later block that
 * has room. Out of line, so that the fast path stays small. */
static STOW__NOINLINE void *alloc_slow(stow_arena_t *a, size_t size, size_t mask)
{
    for (stow_arena_t *b = a->cur->next; b != NULL; b = b->next) {
        size_t pad;
        size_t taken;
        if (fits(b->base, b->limit, size, mask, &pad, &taken)) {
            move_to(a, b);
            return take(a, b->base, pad, taken, size);
        }
    }
    a->fails++;
    return NULL;
}

void *stow_arena_alloc(stow_arena_t *a, size_t size, size_t align)
{
    STOW__REQUIRE(a != NULL, NULL);
    STOW__REQUIRE(a->head == a, NULL);
    STOW__REQUIRE((align & (align - 1u)) == 0u, NULL); /* 0 or a power of two */
    size_t mask = (align != 0u ? align : (size_t)STOW_DEFAULT_ALIGN) - 1u;
    unsigned char *ptr = a->ptr;
    size_t pad;
    size_t taken;
    if (fits(ptr, a->end, size, mask, &pad, &taken)) {
        return take(a, ptr, pad, taken, size);
    }
    return alloc_slow(a, size, mask);
}

void *stow_arena_alloc_zeroed(stow_arena_t *a, size_t size, size_t align)
{
    void *p = stow_arena_alloc(a, size, align);
    if (p != NULL) {
        stow__fill(p, 0u, size);
    }
    return p;
}

void *stow_arena_alloc_array(stow_arena_t *a, size_t count, size_t size, size_t align)
{
    STOW__REQUIRE(a != NULL, NULL);
    STOW__REQUIRE(a->head == a, NULL);
    STOW__REQUIRE((align & (align - 1u)) == 0u, NULL); /* 0 or a power of two */
    if (size != 0u && count > SIZE_MAX / size) {
        a->fails++;
        return NULL;
    }
    return stow_arena_alloc_zeroed(a, count * size, align);
}

stow_arena_mark_t stow_arena_mark(const stow_arena_t *a)
{
    stow_arena_mark_t m = {NULL, NULL};
    STOW__REQUIRE(a != NULL, m);
    STOW__REQUIRE(a->head == a, m);
    m.block = a->cur;
    m.ptr = a->ptr;
    return m;
}

static size_t used_of(const stow_arena_t *a)
{
    size_t used = 0u;
    for (const stow_arena_t *b = a; b != a->cur; b = b->next) {
        used += (size_t)(b->limit - b->base);
    }
    return used + (size_t)(a->ptr - a->cur->base);
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
    for (stow_arena_t *b = mark.block;; b = b->next) {
        unsigned char *to = b == a->cur ? a->ptr : b->limit;
        stow__release(from, (size_t)(to - from));
#if STOW_CHECK_LEVEL >= 2
        if (b->poison_end < to) {
            b->poison_end = to;
        }
#endif
        if (b == a->cur) {
            return;
        }
        from = b->next->base;
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
    a->cur = mark.block;
    a->ptr = mark.ptr;
    a->end = mark.block->limit;
}

void stow_arena_rewind(stow_arena_t *a, stow_arena_mark_t mark)
{
    STOW__REQUIRE_VOID(a != NULL);
    STOW__REQUIRE_VOID(a->head == a);
    STOW__REQUIRE_VOID(mark_is_valid(a, mark));
    move_back(a, mark);
}

void stow_arena_reset(stow_arena_t *a)
{
    STOW__REQUIRE_VOID(a != NULL);
    STOW__REQUIRE_VOID(a->head == a);
    stow_arena_mark_t start = {a, a->base};
    move_back(a, start);
}

void stow_arena_chain(stow_arena_t *a, stow_arena_t *next)
{
    STOW__REQUIRE_VOID(a != NULL && next != NULL);
    STOW__REQUIRE_VOID(a->head == a);
    STOW__REQUIRE_VOID(next->head == next);
    STOW__REQUIRE_VOID(next != a);
    STOW__REQUIRE_VOID(used_of(next) == 0u);
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
    STOW__REQUIRE(a != NULL, 0u);
    STOW__REQUIRE(a->head == a, 0u);
    return used_of(a);
}

size_t stow_arena_capacity(const stow_arena_t *a)
{
    STOW__REQUIRE(a != NULL, 0u);
    STOW__REQUIRE(a->head == a, 0u);
    size_t capacity = 0u;
    for (const stow_arena_t *b = a; b != NULL; b = b->next) {
        capacity += (size_t)(b->limit - b->base);
    }
    return capacity;
}

void stow_arena_stats(const stow_arena_t *a, stow_stats_t *out)
{
    STOW__REQUIRE_VOID(a != NULL && out != NULL);
    STOW__REQUIRE_VOID(a->head == a);
    size_t used = used_of(a);
    out->capacity = stow_arena_capacity(a);
    out->used = used;
    out->peak = used > a->peak ? used : a->peak;
    out->fails = a->fails;
}

static bool block_is_sound(const stow_arena_t *a, const stow_arena_t *b)
{
    if (b->head != a || b->base == NULL || b->base > b->limit) {
        return false;
    }
#if STOW_CHECK_LEVEL >= 2
    const unsigned char *from = free_start(a, b);
    if (b->poison_end < from || b->poison_end > b->limit ||
        !stow__poison_intact(from, (size_t)(b->poison_end - from))) {
        return false;
    }
#endif
    return true;
}

bool stow_arena_check(const stow_arena_t *a)
{
    STOW__REQUIRE(a != NULL, false);
    /* Floyd's two pointers find a cycle before the walks below could loop forever. */
    const stow_arena_t *slow = a;
    const stow_arena_t *fast = a;
    while (fast != NULL && fast->next != NULL) {
        slow = slow->next;
        fast = fast->next->next;
        if (slow == fast) {
            return false;
        }
    }
    bool cur_found = false;
    for (const stow_arena_t *b = a; b != NULL; b = b->next) {
        cur_found = cur_found || b == a->cur;
    }
    if (!cur_found || a->ptr < a->cur->base || a->ptr > a->end || a->end != a->cur->limit) {
        return false;
    }
    for (const stow_arena_t *b = a; b != NULL; b = b->next) {
        if (!block_is_sound(a, b)) {
            return false;
        }
    }
    return true;
}
