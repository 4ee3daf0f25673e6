/* SPDX-License-Identifier: MIT */
/* fuzz_pool_atomic.c - the pool's fuzz target (fuzz_pool.c, its model and its
 * inputs) with every alloc and free going through stow_pool_alloc_atomic() and
 * stow_pool_free_atomic(): one call at a time they must do exactly what the
 * plain calls do, report the same violations and change nothing when they do.
 * alloc_checked keeps its checks: a request the checks refuse goes to the
 * library's stow_pool_alloc_checked (which reports it and takes nothing), any
 * other to the atomic alloc. Concurrency is tests/stress/. */
#include "fuzz.h"

static void *fz_atomic_checked(stow_pool_t *p, size_t size, size_t align)
{
    size_t resolved = align != 0u ? align : (size_t)STOW_DEFAULT_ALIGN;
    if (p == NULL || size > p->block_size || (align & (align - 1u)) != 0u || resolved > p->block_align) {
        return (stow_pool_alloc_checked)(p, size, align);
    }
    return stow_pool_alloc_atomic(p);
}

#define stow_pool_alloc(p) stow_pool_alloc_atomic(p)
#define stow_pool_alloc_isr(p) stow_pool_alloc_atomic(p)
#define stow_pool_alloc_checked(p, size, align) fz_atomic_checked((p), (size), (align))
#define stow_pool_free(p, b) stow_pool_free_atomic((p), (b))
#define stow_pool_free_isr(p, b) stow_pool_free_atomic((p), (b))

#include "fuzz_pool.c"
