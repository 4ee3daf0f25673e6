/* SPDX-License-Identifier: MIT */
/* proof/drivers/packed.c - every sequence of packed-array calls a program can make.
 *
 * For each geometry below (item sizes that take the word copy and the byte
 * copy, alignments 1 to 16 and the default, capacity 1 to 3) and a buffer one
 * byte short, exact or one byte long, any number of calls, each chosen freely:
 * push (the program then writes any bytes into the item), remove_at and at
 * with any index below the count, clear, and the queries. At levels 1 and 2
 * also the misuses those levels catch (an index at or past the count), which
 * must be reported and change nothing. The analysis keeps one state per count
 * and peak (split below), so that every index it follows is exact.
 *
 * The buffer lies at a fixed address (MEM, in the range proof/proof.mk tells
 * the analysis is memory), 4 KiB-aligned or one byte past: the library tests
 * the alignment of item addresses to pick a word copy, which the analyser
 * follows only for an address it knows (docs/proof.md).
 */
#include <string.h>

#include "stow/packed.h"
#include "stow/report.h"
#include "proof.h"

#define MEM 0x1000u
#define BUF_MAX 96u /* the range is MEM + 1 + BUF_MAX long */

struct geometry {
    size_t size, align;
    uint32_t capacity;
};
static const struct geometry geometries[] = {
    {1u, 1u, 3u}, {4u, 4u, 3u}, {6u, 2u, 2u}, {5u, 0u, 2u}, {3u, 16u, 1u},
};
#define GEOMETRIES ((uint32_t)(sizeof geometries / sizeof geometries[0]))

enum { PUSH, REMOVE, AT, CLEAR, QUERY, MISUSE, OPS };

int main(void)
{
    static stow_packed_t a;
    unsigned char *buf;
    unsigned char junk[1u + BUF_MAX];
    uint32_t g, k, off;
    size_t stride, need;
    bool ok;

    /* The range holds no value until the array writes it, so that a read of
     * storage never written is reported as in an ordinary array. */
    memcpy((unsigned char *)(uintptr_t)MEM, junk, sizeof junk);
    g = ANY(0u, GEOMETRIES - 1u);
    //@ split g;
    stride = STOW_PACKED_BYTES(geometries[g].size, geometries[g].align, 1u);
    need = stride * geometries[g].capacity;
    k = ANY(0u, 2u);
    //@ split k;
    off = ANY(0u, 1u);
    //@ split off;
    buf = (unsigned char *)(uintptr_t)(MEM + off);
    ok = stow_packed_init(&a, buf, need - 1u + k, geometries[g].size, geometries[g].align,
                          geometries[g].capacity);
    //@ split ok;
    if (!ok) {
        return 0;
    }
    //@ assert init_needs_room: k >= 1;
    //@ assert init_needs_alignment: off == 0 || geometries[g].align <= 1;
    //@ merge k;
    proof_assert_count = 0u;
    while (ANY_BOOL()) {
        /* every variable of one call lives in this block: none carries a value
         * from one call to the next, which would keep apart states that are
         * the same */
        uint32_t op, i, count, misuse = 0u;
        unsigned char *item;
        /* The count of refused pushes, which no decision of the library reads
         * but its own update and stats(), is taken as any value before every
         * call (a superset of what a program reaches), so that the analysis
         * does not count failures one by one. */
        a.fails = ANY(0u, UINT32_MAX);
        op = ANY(0u, OPS - 1u);
        //@ split op;
        count = a.count;
        i = ANY(0u, count != 0u ? count - 1u : 0u);
        switch (op) {
        case PUSH:
            item = stow_packed_push(&a);
            //@ assert pushed_if_room: (item != \null) == (count < geometries[g].capacity);
            if (item != NULL) {
                //@ assert pushed_at_end: item == buf + count * stride;
                Frama_C_make_unknown((char *)item, geometries[g].size);
            }
            break;
        case REMOVE:
            //@ split i;
            if (count != 0u) {
                stow_packed_remove_at(&a, i);
                //@ assert one_less: a.count == count - 1;
            }
            break;
        case AT:
            //@ split i;
            if (count != 0u) {
                item = stow_packed_at(&a, i);
                //@ assert item_at: item == buf + i * stride;
                Frama_C_make_unknown((char *)item, geometries[g].size);
            }
            break;
        case CLEAR:
            stow_packed_clear(&a);
            break;
        case QUERY: {
            stow_stats_t s;
            void *data = stow_packed_data(&a);
            uint32_t n = stow_packed_count(&a), cap = stow_packed_capacity(&a);
            //@ assert data_is_buf: data == buf;
            //@ assert count_as_kept: n == count;
            //@ assert capacity_as_declared: cap == geometries[g].capacity;
            stow_packed_stats(&a, &s);
            //@ assert stats_agree: s.used == count && s.capacity == geometries[g].capacity && count <= s.peak <= s.capacity;
            (void)stow_packed_check(&a);
            stow_registry_kind_packed.stats(&a, &s);
            (void)stow_registry_kind_packed.check(&a);
            break;
        }
        default: /* MISUSE */
#if STOW_CHECK_LEVEL >= 1
            stow_packed_remove_at(&a, count);
            misuse++;
            (void)stow_packed_at(&a, count);
            misuse++;
            //@ assert unchanged: a.count == count;
#endif
            break;
        }
        //@ assert contract_checks: proof_assert_count == misuse;
        /* one state per count and peak, as one number: two splits (on the
         * count, then on the peak) were seen to merge states they should keep
         * apart */
        count = a.count * 4u + a.peak;
        //@ split count;
        //@ merge op;
        //@ merge i;
        proof_assert_count = 0u;
    }
    return 0;
}
