/* SPDX-License-Identifier: MIT */
/* heap_trace.c - stow_heap_trace_write: a heap's calls as lines of the trace
 * format that adapters/preload writes and bench/replay.c replays. See
 * stow/heap.h.
 *
 * Ids. The preload tracer numbers blocks in allocation order and keeps each
 * live block's number in a side table as large as the heap. A firmware has no
 * room for that, so the writer numbers a block by where it sits in a small
 * table of the live blocks (open addressing on the block's address, linear
 * probing): a block's id is its entry's place plus one, unique while the block
 * is live and free for another block once it is freed. A freed entry becomes a
 * tombstone (its place is used again by a later block, but probing goes on past
 * it, so that a block stored beyond it is still found); the table holds its
 * own live blocks and tombstones, never more than capacity, and a probe gives
 * up after capacity entries. replay.c keeps one block per id and frees it
 * before the id comes back, which is all such a trace needs.
 *
 * A debug path: O(capacity) at worst per call, a division-free decimal print,
 * and nothing kept between calls but the table.
 */
#include "stow/heap.h"
#include "internal.h"

/* The entry of a freed block: no block is ever at this address. */
static const unsigned char tombstone;
#define TOMB ((const void *)&tombstone)

static size_t home_of(const stow_heap_tracer_t *t, const void *block)
{
    uintptr_t a = (uintptr_t)block / STOW_HEAP_ALIGN;
    a ^= a >> 7;
    return (size_t)(a * (uintptr_t)0x9E3779B1u) & (t->capacity - 1u);
}

/* The id of block (its entry's place + 1), or 0 when it is not in the table. */
static size_t id_of(const stow_heap_tracer_t *t, const void *block)
{
    size_t i = home_of(t, block);
    for (size_t n = 0; n < t->capacity && t->blocks[i] != NULL; n++) {
        if (t->blocks[i] == block) {
            return i + 1u;
        }
        i = (i + 1u) & (t->capacity - 1u);
    }
    return 0u;
}

/* A new entry for block: the first free or freed place from its home; its id,
 * or 0 (counted in dropped) when the table is full. */
static size_t enter(stow_heap_tracer_t *t, const void *block)
{
    size_t i = home_of(t, block);
    for (size_t n = 0; n < t->capacity; n++) {
        if (t->blocks[i] == NULL || t->blocks[i] == TOMB) {
            t->blocks[i] = block;
            return i + 1u;
        }
        i = (i + 1u) & (t->capacity - 1u);
    }
    t->dropped++;
    return 0u;
}

/* Takes block out; its id, or 0 when it was not in the table. */
static size_t leave(stow_heap_tracer_t *t, const void *block)
{
    size_t id = id_of(t, block);
    if (id != 0u) {
        t->blocks[id - 1u] = TOMB;
    }
    return id;
}

/* Appends v in decimal to line at *len (a 64-bit value has at most 20 digits). */
static void put_u64(char *line, size_t *len, uint64_t v)
{
    char digits[20];
    size_t n = 0;
    do {
        uint64_t q = v / 10u;
        digits[n++] = (char)('0' + (v - q * 10u));
        v = q;
    } while (v != 0u);
    while (n > 0u) {
        line[(*len)++] = digits[--n];
    }
}

static void emit(const stow_heap_tracer_t *t, const char *text, size_t len)
{
    if (t->write != NULL) {
        t->write(t->write_ctx, text, len);
    } else {
        stow_port_write(text, len);
    }
}

void stow_heap_trace_write(void *ctx, char op, const void *block, size_t size, const void *old, size_t arg)
{
    stow_heap_tracer_t *t = (stow_heap_tracer_t *)ctx;
    if (t == NULL || t->blocks == NULL || t->capacity == 0u || !stow__is_pow2(t->capacity)) {
        return;
    }
    if (!t->started) {
        static const char head[] = "# stow trace 1: op id size arg\n";
        emit(t, head, sizeof head - 1u);
        t->started = true;
    }
    size_t id = 0u;
    if (op == 'f') {
        id = leave(t, block);
    } else if (op == 'r') {
        /* arg is the old block's id; a refused realloc keeps it live. */
        size_t old_id = id_of(t, old);
        if (block != NULL) {
            (void)leave(t, old);
            id = enter(t, block);
        }
        arg = old_id;
    } else if (block != NULL) {
        id = enter(t, block);
    } else {
        /* a refused allocation: no block, no id */
    }
    char line[4u + 3u * 21u + 2u];
    size_t len = 0;
    line[len++] = op;
    line[len++] = ' ';
    put_u64(line, &len, id);
    line[len++] = ' ';
    put_u64(line, &len, op == 'f' ? 0u : size);
    line[len++] = ' ';
    put_u64(line, &len, op == 'f' ? 0u : arg);
    line[len++] = '\n';
    emit(t, line, len);
}
