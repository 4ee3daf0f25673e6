/* SPDX-License-Identifier: MIT */
/* proof/drivers/pool.c - every sequence of pool calls a program can make.
 *
 * For each geometry below and each buffer size around the one it needs, the
 * driver makes any number of calls, each chosen freely among the public
 * functions with any argument the contract allows, and writes any bytes into
 * the blocks it holds. The analyser follows all of them at once, and for the
 * loop computes a state that holds before every call, whatever came before.
 * At check levels 1 and 2 it also makes the misuses those levels catch, and
 * checks that each one is reported and changes nothing.
 *
 * The state stays exact because the driver keeps its own model of the pool
 * (the blocks handed out since init or reset, and the free list, in order) and
 * the analysis keeps one state per value of that model (`split shape`); each
 * choice of a call is split too until the model is, so that no two different
 * pools are ever merged. The pool's answers are checked against the model:
 * alloc returns the block the model expects, used() and check() agree; a
 * difference would show as an assertion the analyser cannot prove.
 */
#include "stow/pool.h"
#include "proof.h"

#define CAP_MAX 4u
/* The geometry whose free list the analysis walks deepest: 3 blocks (each more
 * multiplies the states the analysis keeps). */
#define CAP_DEEP 3u
#define BUF_MAX 512u

struct geometry {
    size_t size, align;
    uint32_t capacity;
};

/* Strides with odd factors 1, 3 and 13 (the division by the inverse at work),
 * alignments 1 to 64 and the default, capacity 1 (full at once) to CAP_MAX. */
static const struct geometry geometries[] = {
    {1u, 1u, 1u}, {12u, 4u, CAP_DEEP}, {20u, 4u, 2u}, {3u, 16u, 2u},
};
#define GEOMETRIES ((uint32_t)(sizeof geometries / sizeof geometries[0]))

/* The model: blocks [0, bump) handed out since init or reset; free_stack[0 ..
 * nfree) the free list, its head last. */
static uint32_t bump, nfree, free_stack[CAP_MAX];
#if STOW_CHECK_LEVEL >= 2
static uint32_t poisoned; /* blocks a reset has poisoned: the pool's poison_end */
#endif

/* The calls the driver makes: a function, and its argument where it takes one.
 * QUERY makes every call that changes nothing, one after the other. */
enum { ALLOC, ALLOC_CHECKED, ALLOC_ISR, FREE, FREE_ISR, WRITE, RESET, LOCKED, QUERY, MISUSE };
static const uint8_t call_op[] = {ALLOC, ALLOC_CHECKED, ALLOC_ISR, FREE, FREE, FREE, FREE,
                                  FREE_ISR, WRITE, RESET, LOCKED, QUERY, MISUSE};
static const uint8_t call_arg[] = {0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0};
#define CALLS ((uint32_t)sizeof call_op)

static bool model_is_free(uint32_t j)
{
    for (uint32_t i = 0u; i < nfree; i++) {
        if (free_stack[i] == j) {
            return true;
        }
    }
    return false;
}

static uint32_t model_shape(void)
{
    uint32_t shape = bump;
    for (uint32_t i = 0u; i < nfree; i++) {
        shape = shape * 8u + free_stack[i] + 1u;
    }
#if STOW_CHECK_LEVEL >= 2
    shape = shape * 8u + poisoned;
#endif
    return shape;
}

/* The first block the program holds (bump: none). */
static uint32_t model_first_held(void)
{
    uint32_t j = 0u;
    while (j < bump && model_is_free(j)) {
        j++;
    }
    return j;
}

static void write_held(unsigned char *base, size_t stride, size_t size)
{
    for (uint32_t j = 0u; j < bump; j++) {
        if (!model_is_free(j)) {
            Frama_C_make_unknown((char *)base + (size_t)j * stride, size);
        }
    }
}

/* The block alloc must return (NULL: none), and the model after the call. */
static unsigned char *model_alloc(unsigned char *base, size_t stride, uint32_t capacity)
{
    if (nfree > 0u) {
        nfree--;
        return base + (size_t)free_stack[nfree] * stride;
    }
    if (bump == capacity) {
        return NULL;
    }
    bump++;
    return base + (size_t)(bump - 1u) * stride;
}

int main(void)
{
    static stow_pool_t p;
    unsigned char buf[BUF_MAX] __attribute__((aligned(64)));
    uint32_t g, capacity, k;
    size_t size, align, resolved, stride, need, buf_size;
    bool ok;

    g = ANY(0u, GEOMETRIES - 1u);
    //@ split g;
    size = geometries[g].size;
    align = geometries[g].align;
    capacity = geometries[g].capacity;
    resolved = align != 0u ? align : (size_t)STOW_DEFAULT_ALIGN;
    stride = STOW_POOL_STRIDE(size, align);
    need = STOW_POOL_BYTES(size, align, capacity);
    k = ANY(0u, 2u);
    //@ split k;
    buf_size = need - 1u + k; /* one byte short, exact, one to spare */
    ok = stow_pool_init(&p, buf, buf_size, size, align, capacity);
    //@ split ok;
    if (!ok) {
        return 0;
    }
    //@ assert init_needs_room: buf_size >= need;
    //@ merge k;
    bump = 0u;
    nfree = 0u;
    proof_assert_count = 0u;
    while (ANY_BOOL()) {
        /* every variable of one call lives in this block: none carries a value
         * from one call to the next, which would keep apart states that the
         * model says are the same */
        uint32_t shape, c, op, j, misuse = 0u;
        unsigned char *expect;
        void *got;
        /* The pool's statistics, which no decision of the library reads but
         * their own updates, stats() and check()'s bound on peak, are taken as
         * any value they can hold before every call (a superset of what a
         * program reaches), so that the analysis does not keep apart histories
         * that differ only there (it would count failures one by one). */
        p.fails = ANY(0u, UINT32_MAX);
        p.peak = ANY(0u, capacity);
        /* One call: c picks the function and its argument (j, a block index). */
        c = ANY(0u, CALLS - 1u);
        //@ split c;
        op = call_op[c];
        j = call_arg[c];
        switch (op) {
        case ALLOC:
            expect = model_alloc(buf, stride, capacity);
            got = stow_pool_alloc(&p);
            //@ assert alloc_as_modelled: got == expect;
            break;
        case ALLOC_CHECKED: /* the largest object the blocks take, and the smallest */
            expect = model_alloc(buf, stride, capacity);
            got = stow_pool_alloc_checked(&p, size, resolved);
            //@ assert alloc_as_modelled: got == expect;
            if (got != NULL) {
                stow_pool_free(&p, got);
                got = stow_pool_alloc_checked(&p, 0u, 1u);
                //@ assert alloc_as_modelled: got == expect;
            }
            break;
        case ALLOC_ISR:
            expect = model_alloc(buf, stride, capacity);
            got = stow_pool_alloc_isr(&p);
            //@ assert alloc_as_modelled: got == expect;
            break;
        case FREE: /* block j, if the program holds it */
            if (j < bump && !model_is_free(j)) {
                stow_pool_free(&p, buf + (size_t)j * stride);
                free_stack[nfree] = j;
                nfree++;
            }
            break;
        case FREE_ISR: /* the first block the program holds */
            j = model_first_held();
            if (j < bump) {
                stow_pool_free_isr(&p, buf + (size_t)j * stride);
                free_stack[nfree] = j;
                nfree++;
            }
            break;
        case WRITE: /* the program writes any bytes into every block it holds */
            write_held(buf, stride, size);
            break;
        case RESET:
            stow_pool_reset(&p);
#if STOW_CHECK_LEVEL >= 2
            poisoned = bump > poisoned ? bump : poisoned;
#endif
            bump = 0u;
            nfree = 0u;
            break;
        case LOCKED: { /* calls made as one step under the lock */
            uint32_t state = stow_pool_lock(&p);
            expect = model_alloc(buf, stride, capacity);
            got = stow_pool_alloc(&p);
            //@ assert alloc_as_modelled: got == expect;
            stow_pool_unlock(&p, state);
            break;
        }
        case QUERY: {
            stow_stats_t s;
            uint32_t used, cap;
            bool owned;
            stow_pool_free(&p, NULL);
            /* owns: first and last byte of the blocks, just past them, the buffer's end */
            owned = stow_pool_owns(&p, buf);
            //@ assert owns_first: owned;
            owned = stow_pool_owns(&p, buf + capacity * stride - 1u);
            //@ assert owns_last: owned;
            owned = stow_pool_owns(&p, buf + capacity * stride);
            //@ assert owns_not_past: !owned;
            owned = stow_pool_owns(&p, buf + sizeof buf);
            //@ assert owns_not_end: !owned;
            stow_pool_stats(&p, &s);
            used = stow_pool_used(&p);
            cap = stow_pool_capacity(&p);
            //@ assert used_as_modelled: used == bump - nfree && s.used == used;
            //@ assert capacity_as_declared: cap == capacity && s.capacity == capacity;
            //@ assert peak_bounds_used: s.used <= s.peak <= capacity;
            /* the analyser cannot tell whether the buffer is aligned, so check()'s verdict
             * is not checked here (the tests check it after every call) */
            (void)stow_pool_check(&p);
            break;
        }
        default: /* MISUSE: what the level catches is reported, and changes nothing */
#if STOW_CHECK_LEVEL >= 1
            stow_pool_free(&p, buf + (size_t)bump * stride + 1u); /* not a block start */
            misuse++;
            if (bump < capacity) {
                stow_pool_free(&p, buf + (size_t)bump * stride); /* never handed out */
                misuse++;
            }
#if STOW_CHECK_LEVEL >= 2
            if (nfree > 0u) {
                stow_pool_free(&p, buf + (size_t)free_stack[0] * stride); /* double free */
                misuse++;
            }
#endif
            (void)stow_pool_alloc_checked(&p, size + 1u, 0u); /* larger than a block */
            misuse++;
            (void)stow_pool_alloc_checked(&p, 0u, 3u); /* not a power of two */
            misuse++;
#endif
            break;
        }
        //@ assert contract_checks: proof_assert_count == misuse;
        shape = model_shape();
        //@ split shape;
        //@ merge c;
        proof_assert_count = 0u;
    }
    return 0;
}
