/* SPDX-License-Identifier: MIT */
/* stow/handle.h - generational handles: a slot index and a generation in 32 bits.
 *
 * A handle names one item of one container for as long as the item lives. The low
 * STOW_HANDLE_INDEX_BITS bits hold the slot index, the rest the slot's generation
 * when the item was made. Removing the item bumps the slot's generation, so every
 * handle to it goes stale at once, even after the slot is reused:
 *
 *     stow_handle_t h = stow_genpool_insert(&enemies, &e);
 *     stow_genpool_remove(&enemies, h);
 *     stow_handle_t h2 = stow_genpool_insert(&enemies, &e);   // same index, new generation
 *     stow_genpool_get(&enemies, h) == NULL;                  // h is stale
 *
 * Generation 0 is never issued, so a zero-initialised handle (STOW_HANDLE_NULL)
 * is always invalid. Handles are plain values: copy them, store them, compare them
 * with stow_handle_eq(). They are only meaningful to the container that issued them.
 */
#ifndef STOW_HANDLE_H
#define STOW_HANDLE_H

#include "config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t bits; /* index in the low STOW_HANDLE_INDEX_BITS, generation above */
} stow_handle_t;

#ifdef __cplusplus
#define STOW_HANDLE_NULL (stow_handle_t{0})
#else
#define STOW_HANDLE_NULL ((stow_handle_t){0})
#endif

#define STOW_HANDLE_GENERATION_BITS (32 - STOW_HANDLE_INDEX_BITS)
/* Largest slot count a container may have: every index must fit the index bits. */
#define STOW_HANDLE_MAX_CAPACITY (UINT32_C(1) << STOW_HANDLE_INDEX_BITS)
#define STOW_HANDLE_INDEX_MASK (STOW_HANDLE_MAX_CAPACITY - 1u)
/* Largest generation; the first is 1. */
#define STOW_HANDLE_MAX_GENERATION (UINT32_MAX >> STOW_HANDLE_INDEX_BITS)

/* The slot index of h. O(1). */
static inline uint32_t stow_handle_index(stow_handle_t h) { return h.bits & STOW_HANDLE_INDEX_MASK; }

/* The generation of h; 0 only for a null handle. O(1). */
static inline uint32_t stow_handle_generation(stow_handle_t h) { return h.bits >> STOW_HANDLE_INDEX_BITS; }

/* True when h has generation 0: STOW_HANDLE_NULL, or a handle that was never set. */
static inline bool stow_handle_is_null(stow_handle_t h) { return stow_handle_generation(h) == 0u; }

/* True when a and b name the same slot and generation. */
static inline bool stow_handle_eq(stow_handle_t a, stow_handle_t b) { return a.bits == b.bits; }

/* Builds a handle. index must be below STOW_HANDLE_MAX_CAPACITY and generation at
 * most STOW_HANDLE_MAX_GENERATION; containers use it, users rarely need it. */
static inline stow_handle_t stow_handle_make(uint32_t index, uint32_t generation)
{
    stow_handle_t h;
    h.bits = (generation << STOW_HANDLE_INDEX_BITS) | (index & STOW_HANDLE_INDEX_MASK);
    return h;
}

/* STOW_HANDLE_DECLARE(my_handle_t) declares a handle type of its own: a struct
 * around a stow_handle_t, so that a handle of one container does not convert to
 * another's. The typed DEFINE macros of the containers (STOW_GENPOOL_DEFINE_TYPED
 * and the like) use it; .untyped is the plain handle inside. */
#define STOW_HANDLE_DECLARE(type) \
    typedef struct {              \
        stow_handle_t untyped;    \
    } type

#ifdef __cplusplus
}
#endif

#endif /* STOW_HANDLE_H */
