/* SPDX-License-Identifier: MIT */
/* proof/drivers/arena.c - every sequence of arena calls a program can make.
 *
 * The arena works on addresses as numbers (rounding up to an alignment), which
 * the analyser cannot follow for an array whose address it does not know. So
 * the blocks lie at fixed addresses, in the range the analysis is told is
 * memory (-absolute-valid-range, proof/proof.mk): MEM, MEM_BYTES long. Block A
 * starts ONE byte past a 4 KiB boundary or on it (both are followed), block B
 * at the range's end; the bytes between them are a fence the driver fills and
 * checks after every call, so that a write by the library outside its blocks
 * shows as an assertion the analyser cannot prove (a read there would not show:
 * the range is memory to the analyser; docs/proof.md).
 *
 * Then any number of calls, each chosen freely: alloc, alloc_zeroed and
 * alloc_array with sizes and counts from 0 to SIZE_MAX and alignments from 1 to
 * 2^(N-1) and 0 (the default), a mark, an allocation and a rewind to the mark
 * (marks are not kept across calls: that would multiply the states), reset, chain B once (unused, as the
 * contract asks), and the queries. The driver writes any bytes into every
 * allocation it gets, which must lie inside one of the two blocks. At levels 1
 * and 2 it also makes the misuses those levels catch (a bad alignment, a mark
 * above the position, B chained twice, the arena chained to itself), each of
 * which must be reported. The analysis keeps one state per position of the
 * arena (its current block and free position, and at level 2 the poison
 * watermarks; split below).
 */
#include <string.h>

#include "stow/arena.h"
#include "stow/report.h"
#include "proof.h"

#define MEM 0x1000u
#define MEM_BYTES 32u
#define B_BYTES 4u
#define B_BASE (MEM + MEM_BYTES - B_BYTES)
#define FENCE 0x5Au

static unsigned char *at(uintptr_t address) { return (unsigned char *)address; }

/* Sizes and alignments: the edges of every test alloc makes. */
static const size_t sizes[] = {0u, 3u, SIZE_MAX};
static const size_t aligns[] = {0u, 4u, (SIZE_MAX >> 1) + 1u};
/* alloc_array's count and size: zeros, a fit, products that overflow or wrap to 0 */
static const size_t counts[] = {0u, 3u, 2u, (SIZE_MAX >> 1) + 1u, SIZE_MAX};
static const size_t each[] = {8u, 0u, 3u, 2u, SIZE_MAX - 2u};
#define SIZES ((uint32_t)(sizeof sizes / sizeof sizes[0]))
#define ALIGNS ((uint32_t)(sizeof aligns / sizeof aligns[0]))
#define ARRAYS ((uint32_t)(sizeof counts / sizeof counts[0]))

enum { ALLOC, ALLOC_ZEROED, ALLOC_ARRAY, SCOPE, RESET, CHAIN, QUERY, MISUSE, OPS };

static stow_arena_t a, b;
static bool chained;

/* The position as a number: which block, and the offset of the free byte. */
static uint32_t position_of(stow_arena_t *block, const unsigned char *ptr)
{
    return block == &a ? (uint32_t)(ptr - a.base) : 64u + (uint32_t)(ptr - b.base);
}

static void fence_check(const unsigned char *a_limit)
{
    //@ loop unroll 32;
    for (const unsigned char *q = a_limit; q < at(B_BASE); q++) {
        //@ assert fence_intact: *q == FENCE;
    }
}

/* The program writes any bytes into what it got: it must lie in a block. */
static void use(unsigned char *p, size_t size, size_t align)
{
    if (p == NULL) {
        return;
    }
    size_t bytes = size != 0u ? size : 1u;
    size_t resolved = align != 0u ? align : (size_t)STOW_DEFAULT_ALIGN;
    //@ assert aligned: (uintptr_t)p % resolved == 0;
    //@ assert in_a_block: (a.base <= p && bytes <= (size_t)(a.limit - p)) || (b.base <= p && bytes <= (size_t)(b.limit - p));
    if (size != 0u) {
        Frama_C_make_unknown((char *)p, size);
    }
    (void)resolved;
}

int main(void)
{
    unsigned char junk[MEM_BYTES];
    uint32_t off, a_bytes;
    unsigned char *a_base;
    bool ok;

    /* The range holds no value until the arena or the driver writes it, so
     * that a read of a block's bytes before they were written is reported as
     * in an ordinary array. */
    memcpy(at(MEM), junk, sizeof junk);
    off = ANY(0u, 1u); /* A: 9 bytes from an odd address, or 1 byte from an aligned one */
    //@ split off;
    a_bytes = off != 0u ? 9u : 1u;
    a_base = at(MEM + off);
    //@ loop unroll 32;
    for (unsigned char *q = a_base + a_bytes; q < at(B_BASE); q++) {
        *q = FENCE;
    }
    ok = stow_arena_init(&a, a_base, a_bytes) && stow_arena_init(&b, at(B_BASE), B_BYTES);
    //@ assert init_ok: ok;
    ok = stow_arena_init(&b, NULL, 4u) || stow_arena_init(&b, at(B_BASE), 0u);
    //@ assert init_refuses: !ok;
    proof_assert_count = 0u;
    while (ANY_BOOL()) {
        /* every variable of one call lives in this block: none carries a value
         * from one call to the next, which would keep apart states that are
         * the same */
        uint32_t op, si, ai, ci, misuse = 0u, shape;
        size_t size, align;
        /* The statistics, which no decision of the library reads but their
         * own updates and stats(), are taken as any value they can hold before
         * every call (a superset of what a program reaches), so that the
         * analysis does not keep apart histories that differ only there. */
        a.fails = ANY(0u, UINT32_MAX);
        a.peak = Frama_C_size_t_interval(0u, a_bytes + B_BYTES);
        op = ANY(0u, OPS - 1u);
        //@ split op;
        si = ANY(0u, SIZES - 1u);
        ai = ANY(0u, ALIGNS - 1u);
        ci = ANY(0u, ARRAYS - 1u);
        switch (op) {
        case ALLOC:
            //@ split si;
            //@ split ai;
            size = sizes[si];
            align = aligns[ai];
            use(stow_arena_alloc(&a, size, align), size, align);
            break;
        case ALLOC_ZEROED: {
            //@ split si;
            //@ split ai;
            size = sizes[si];
            align = aligns[ai];
            unsigned char *p = stow_arena_alloc_zeroed(&a, size, align);
            if (p != NULL && size != 0u) {
                //@ assert zeroed: \forall integer i; 0 <= i < size ==> p[i] == 0;
            }
            use(p, size, align);
            break;
        }
        case ALLOC_ARRAY: {
            //@ split ci;
            //@ split ai;
            size = each[ci];
            align = aligns[ai];
            size_t count = counts[ci];
            unsigned char *p = stow_arena_alloc_array(&a, count, size, align);
            if (p != NULL) {
                //@ assert array_fits: size == 0 || count <= SIZE_MAX / size;
                use(p, count * size, align);
            }
            break;
        }
        case SCOPE: { /* mark, one allocation (which may move to B), rewind to the mark */
            stow_arena_mark_t m = stow_arena_mark(&a);
            //@ split si;
            size = sizes[si];
            use(stow_arena_alloc(&a, size, 1u), size, 1u);
            stow_arena_rewind(&a, m);
            break;
        }
        case RESET:
            stow_arena_reset(&a);
            break;
        case CHAIN: /* B, once, unused as the contract asks */
            if (!chained && stow_arena_used(&b) == 0u) {
                stow_arena_chain(&a, &b);
                chained = true;
            }
            break;
        case QUERY: {
            stow_stats_t s;
            size_t used = stow_arena_used(&a), cap = stow_arena_capacity(&a);
            stow_arena_stats(&a, &s);
            //@ assert capacity_as_chained: cap == a_bytes + (chained ? B_BYTES : 0);
            //@ assert used_in_capacity: used <= cap && s.used == used && s.capacity == cap;
            //@ assert peak_bounds_used: used <= s.peak;
            ok = stow_arena_check(&a);
            //@ assert check_passes: ok;
            stow_registry_kind_arena.stats(&b, &s);
            (void)stow_registry_kind_arena.check(&b);
            break;
        }
        default: /* MISUSE: what the level catches is reported, and changes nothing */
#if STOW_CHECK_LEVEL >= 1
            (void)stow_arena_alloc(&a, 1u, 3u);
            misuse++;
            (void)stow_arena_alloc_zeroed(&a, 1u, 6u);
            misuse++;
            (void)stow_arena_alloc_array(&a, 1u, 1u, 12u);
            misuse++;
            stow_arena_chain(&a, &a);
            misuse++;
            if (chained) {
                stow_arena_chain(&a, &b); /* chained already */
                misuse++;
                (void)stow_arena_alloc(&b, 1u, 1u); /* a call on a chained block */
                misuse++;
            }
            if (stow_arena_used(&a) == 0u) {
                stow_arena_mark_t m;
                (void)stow_arena_alloc(&a, 1u, 1u);
                m = stow_arena_mark(&a);
                stow_arena_reset(&a);
                if (m.ptr != a.ptr) {
                    stow_arena_rewind(&a, m); /* above the position */
                    misuse++;
                }
            }
#endif
            break;
        }
        //@ assert contract_checks: proof_assert_count == misuse;
        fence_check(a_base + a_bytes);
        /* one state per position of the arena (its current block and free
         * position), whether B is chained, and at level 2 the poison watermark
         * of each block (below it the bytes hold 0xDD), as one number: two
         * splits were seen to merge states they should keep apart */
        shape = position_of(a.cur, a.ptr) * 2u + (chained ? 1u : 0u);
#if STOW_CHECK_LEVEL >= 2
        shape = (shape * 16u + (uint32_t)(a.poison_end - a.base)) * 8u +
                (uint32_t)(b.poison_end - b.base);
#endif
        //@ split shape;
        //@ merge op;
        //@ merge si;
        //@ merge ai;
        //@ merge ci;
        proof_assert_count = 0u;
    }
    return 0;
}
