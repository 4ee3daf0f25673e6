/* SPDX-License-Identifier: MIT */
/* stale.c - a read or a write through a stale pointer, one per run, which
 * AddressSanitizer must report (tests/asan/run.sh runs every case and expects a
 * non-zero exit and a use-after-poison report; the case "none" does the same
 * container work without the stale access and must exit 0).
 *
 *     stale <case>      e.g. stale pool-write-after-free
 *
 * Items are 16 bytes aligned to 8, so that each released item covers whole ASan
 * granules and every byte of it is poisoned. Each case first checks that the
 * container really did what the case relies on (the stale pointer is what the
 * container released), so that a report cannot come from something else. */
#include <stdio.h>
#include <string.h>

#include "stow/stow.h"

struct item {
    uint64_t a, b;
};

STOW_POOL_DEFINE_STATIC(stale_pool, struct item, 4);
STOW_GENPOOL_DEFINE_STATIC(stale_genpool, struct item, 4);
STOW_SLOTMAP_DEFINE_STATIC(stale_slotmap, struct item, 4);
STOW_PACKED_DEFINE_STATIC(stale_packed, struct item, 4);
STOW_ARENA_DEFINE_STATIC(stale_arena, 256);
STOW_HEAP_DEFINE_STATIC(stale_heap, 8192);
/* Items enough for a block (a request above STOW_HEAP_SMALL_MAX), not a slot:
 * a block shrinks in place, giving its tail back. */
#define HEAP_ITEMS (STOW_HEAP_SMALL_MAX / sizeof(struct item) + 4u)

static volatile uint64_t sink;

static void touch(struct item *p, bool write)
{
    volatile uint64_t *b = &p->b;
    if (write) {
        *b = 42u;
    } else {
        sink = *b;
    }
}

static int fail(const char *why)
{
    fprintf(stderr, "stale: setup failed: %s\n", why);
    return 3;
}

/* stale pointer to a freed pool block; after_reset: to a block reset took back */
static int pool_case(bool write, bool stale, bool after_reset, bool link)
{
    struct item *x = STOW_POOL_NEW(&stale_pool, struct item);
    struct item *y = STOW_POOL_NEW(&stale_pool, struct item);
    if (x == NULL || y == NULL) {
        return fail("pool alloc");
    }
    x->a = 1u;
    touch(x, true);
    if (after_reset) {
        stow_pool_reset(&stale_pool);
    } else {
        stow_pool_free(&stale_pool, x);
    }
    if (stow_pool_used(&stale_pool) != (after_reset ? 0u : 1u)) {
        return fail("pool free");
    }
    if (after_reset) { /* x is handed out again; y stays taken back */
        struct item *again = STOW_POOL_NEW(&stale_pool, struct item);
        if (again != x) {
            return fail("pool reset");
        }
        y = x;
        x = again + 1;
    }
    if (stale) {
        if (link) {
            *(volatile uint64_t *)&x->a = 0u; /* the bytes that hold the free-list link */
        } else {
            touch(x, write);
        }
    }
    touch(y, true); /* live: fine */
    return 0;
}

static int genpool_case(bool write, bool stale, bool after_clear)
{
    stow_handle_t h;
    struct item *x = (struct item *)stow_genpool_alloc(&stale_genpool, &h);
    struct item *y = (struct item *)stow_genpool_alloc(&stale_genpool, NULL);
    if (x == NULL || y == NULL) {
        return fail("genpool alloc");
    }
    touch(x, true);
    if (after_clear) {
        stow_genpool_clear(&stale_genpool);
        y = (struct item *)stow_genpool_alloc(&stale_genpool, NULL); /* slot 0 again */
        if (y != x) {
            return fail("genpool clear");
        }
        x = y + 1; /* slot 1, cleared and not handed out again */
    } else if (!stow_genpool_remove(&stale_genpool, h) || stow_genpool_get(&stale_genpool, h) != NULL) {
        return fail("genpool remove");
    }
    if (stale) {
        touch(x, write);
    }
    touch(y, true);
    return 0;
}

/* kind 0: remove (the last item moves into the hole: a pointer to it is stale),
 * 1: clear, 2: refresh after mark_dead */
static int slotmap_case(bool write, bool stale, int kind)
{
    struct item v = {1u, 2u};
    stow_handle_t h0 = stow_slotmap_insert(&stale_slotmap, &v);
    stow_handle_t h1 = stow_slotmap_insert(&stale_slotmap, &v);
    stow_handle_t h2 = stow_slotmap_insert(&stale_slotmap, &v);
    struct item *last = (struct item *)stow_slotmap_get(&stale_slotmap, h2);
    if (last == NULL || stow_handle_is_null(h0) || stow_handle_is_null(h1)) {
        return fail("slotmap insert");
    }
    if (kind == 0) {
        (void)stow_slotmap_remove(&stale_slotmap, h0);
    } else if (kind == 1) {
        stow_slotmap_clear(&stale_slotmap);
    } else {
        (void)stow_slotmap_mark_dead(&stale_slotmap, h1);
        (void)stow_slotmap_refresh(&stale_slotmap, NULL, NULL);
    }
    if (stow_slotmap_count(&stale_slotmap) != (kind == 1 ? 0u : 2u)) {
        return fail("slotmap remove");
    }
    if (stale) {
        touch(last, write); /* position 2: at count now */
    }
    if (kind != 1) {
        touch((struct item *)stow_slotmap_get(&stale_slotmap, h2), true); /* moved: fine */
    }
    return 0;
}

static int packed_case(bool write, bool stale, bool clear)
{
    struct item *first = STOW_PACKED_PUSH(&stale_packed, struct item);
    struct item *last = STOW_PACKED_PUSH(&stale_packed, struct item);
    if (first == NULL || last != first + 1) {
        return fail("packed push");
    }
    if (clear) {
        stow_packed_clear(&stale_packed);
    } else {
        stow_packed_remove_at(&stale_packed, 0);
    }
    if (stale) {
        touch(last, write);
    }
    if (!clear) {
        touch(first, true); /* the last item moved here: fine */
    }
    return 0;
}

static int arena_case(bool write, bool stale, bool reset)
{
    struct item *keep = STOW_ARENA_NEW(&stale_arena, struct item);
    stow_arena_mark_t m = stow_arena_mark(&stale_arena);
    struct item *x = STOW_ARENA_NEW(&stale_arena, struct item);
    if (keep == NULL || x == NULL) {
        return fail("arena alloc");
    }
    touch(x, true);
    if (reset) {
        stow_arena_reset(&stale_arena);
        x = keep;
    } else {
        stow_arena_rewind(&stale_arena, m);
        touch(keep, true); /* below the mark: fine */
    }
    if (stale) {
        touch(x, write);
    }
    return 0;
}

/* kind 0: free; 1: a realloc that moved the block (the old pointer is stale);
 * 2: a realloc that shrank it in place (the bytes it gave back are stale) */
static int heap_case(bool write, bool stale, int kind)
{
    struct item *x = (struct item *)stow_heap_alloc(&stale_heap, HEAP_ITEMS * sizeof(struct item));
    struct item *y = (struct item *)stow_heap_alloc(&stale_heap, HEAP_ITEMS * sizeof(struct item)); /* x's neighbour */
    if (x == NULL || y == NULL) {
        return fail("heap alloc");
    }
    touch(x, true);
    touch(&x[3], true);
    struct item *stale_at = x;
    if (kind == 0) {
        stow_heap_free(&stale_heap, x);
    } else if (kind == 1) {
        struct item *moved = (struct item *)stow_heap_realloc(&stale_heap, x, 4u * HEAP_ITEMS * sizeof(struct item));
        if (moved == NULL || moved == x) {
            return fail("heap realloc did not move");
        }
        touch(moved, true); /* the new block: fine */
    } else {
        if (stow_heap_realloc(&stale_heap, x, sizeof(struct item)) != x ||
            stow_heap_usable_size(&stale_heap, x) >= 3u * sizeof(struct item)) {
            return fail("heap realloc did not shrink in place");
        }
        touch(x, true); /* what it kept: fine */
        stale_at = &x[3];
    }
    if (!stow_heap_check(&stale_heap)) {
        return fail("heap check");
    }
    if (stale) {
        touch(stale_at, write);
    }
    touch(y, true);
    return 0;
}

static void heap_reset(void)
{
    stow_heap_t *h = &stale_heap;
    (void)stow_heap_init(h, h->buf, h->size);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: stale <case>\n");
        return 2;
    }
    const char *c = argv[1];
    bool none = strcmp(c, "none") == 0;
    bool stale = !none;
    if (none) { /* every case's container work, no stale access */
        int r = 0;
        r |= pool_case(true, false, false, false);
        stow_pool_reset(&stale_pool);
        r |= pool_case(true, false, true, false);
        r |= genpool_case(true, false, false);
        stow_genpool_clear(&stale_genpool);
        r |= genpool_case(true, false, true);
        for (int kind = 0; kind < 3; kind++) {
            stow_slotmap_clear(&stale_slotmap);
            r |= slotmap_case(true, false, kind);
        }
        r |= packed_case(true, false, false);
        stow_packed_clear(&stale_packed);
        r |= packed_case(true, false, true);
        r |= arena_case(true, false, false);
        r |= arena_case(true, false, true);
        for (int kind = 0; kind < 3; kind++) {
            heap_reset();
            r |= heap_case(true, false, kind);
        }
        if (r == 0) {
            printf("stale: no stale access, no report\n");
        }
        return r;
    }
    bool write = strstr(c, "-write-") != NULL;
    if (strncmp(c, "pool-link-", 10) == 0) {
        return pool_case(true, stale, false, true);
    }
    if (strncmp(c, "pool-", 5) == 0) {
        return pool_case(write, stale, strstr(c, "reset") != NULL, false);
    }
    if (strncmp(c, "genpool-", 8) == 0) {
        return genpool_case(write, stale, strstr(c, "clear") != NULL);
    }
    if (strncmp(c, "slotmap-", 8) == 0) {
        int kind = strstr(c, "clear") != NULL ? 1 : strstr(c, "refresh") != NULL ? 2 : 0;
        return slotmap_case(write, stale, kind);
    }
    if (strncmp(c, "packed-", 7) == 0) {
        return packed_case(write, stale, strstr(c, "clear") != NULL);
    }
    if (strncmp(c, "arena-", 6) == 0) {
        return arena_case(write, stale, strstr(c, "reset") != NULL);
    }
    if (strncmp(c, "heap-", 5) == 0) {
        int kind = strstr(c, "move") != NULL ? 1 : strstr(c, "shrink") != NULL ? 2 : 0;
        return heap_case(write, stale, kind);
    }
    fprintf(stderr, "stale: unknown case %s\n", c);
    return 2;
}
