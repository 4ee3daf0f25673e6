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
#define STOW_HANDLE_MAX_CAPACITY (STOW_HANDLE_INDEX_MASK + 1u)
#define STOW_HANDLE_INDEX_MASK (UINT32_MAX >> (32 - STOW_HANDLE_INDEX_BITS))
/* Largest generation; the first is 1. */
#define STOW_HANDLE_MAX_GENERATION (UINT32_MAX >> STOW_HANDLE_INDEX_BITS)

/* STOW_HANDLE_MAX_CAPACITY and the option that sets it, as text, for the DEFINE
 * macros' compile-time messages (a message must be a string literal). */
#if STOW_HANDLE_INDEX_BITS == 1
#define STOW__HANDLE_LIMIT_TEXT "2 (2^1), with STOW_HANDLE_INDEX_BITS 1"
#elif STOW_HANDLE_INDEX_BITS == 2
#define STOW__HANDLE_LIMIT_TEXT "4 (2^2), with STOW_HANDLE_INDEX_BITS 2"
#elif STOW_HANDLE_INDEX_BITS == 3
#define STOW__HANDLE_LIMIT_TEXT "8 (2^3), with STOW_HANDLE_INDEX_BITS 3"
#elif STOW_HANDLE_INDEX_BITS == 4
#define STOW__HANDLE_LIMIT_TEXT "16 (2^4), with STOW_HANDLE_INDEX_BITS 4"
#elif STOW_HANDLE_INDEX_BITS == 5
#define STOW__HANDLE_LIMIT_TEXT "32 (2^5), with STOW_HANDLE_INDEX_BITS 5"
#elif STOW_HANDLE_INDEX_BITS == 6
#define STOW__HANDLE_LIMIT_TEXT "64 (2^6), with STOW_HANDLE_INDEX_BITS 6"
#elif STOW_HANDLE_INDEX_BITS == 7
#define STOW__HANDLE_LIMIT_TEXT "128 (2^7), with STOW_HANDLE_INDEX_BITS 7"
#elif STOW_HANDLE_INDEX_BITS == 8
#define STOW__HANDLE_LIMIT_TEXT "256 (2^8), with STOW_HANDLE_INDEX_BITS 8"
#elif STOW_HANDLE_INDEX_BITS == 9
#define STOW__HANDLE_LIMIT_TEXT "512 (2^9), with STOW_HANDLE_INDEX_BITS 9"
#elif STOW_HANDLE_INDEX_BITS == 10
#define STOW__HANDLE_LIMIT_TEXT "1024 (2^10), with STOW_HANDLE_INDEX_BITS 10"
#elif STOW_HANDLE_INDEX_BITS == 11
#define STOW__HANDLE_LIMIT_TEXT "2048 (2^11), with STOW_HANDLE_INDEX_BITS 11"
#elif STOW_HANDLE_INDEX_BITS == 12
#define STOW__HANDLE_LIMIT_TEXT "4096 (2^12), with STOW_HANDLE_INDEX_BITS 12"
#elif STOW_HANDLE_INDEX_BITS == 13
#define STOW__HANDLE_LIMIT_TEXT "8192 (2^13), with STOW_HANDLE_INDEX_BITS 13"
#elif STOW_HANDLE_INDEX_BITS == 14
#define STOW__HANDLE_LIMIT_TEXT "16384 (2^14), with STOW_HANDLE_INDEX_BITS 14"
#elif STOW_HANDLE_INDEX_BITS == 15
#define STOW__HANDLE_LIMIT_TEXT "32768 (2^15), with STOW_HANDLE_INDEX_BITS 15"
#elif STOW_HANDLE_INDEX_BITS == 16
#define STOW__HANDLE_LIMIT_TEXT "65536 (2^16), with STOW_HANDLE_INDEX_BITS 16"
#elif STOW_HANDLE_INDEX_BITS == 17
#define STOW__HANDLE_LIMIT_TEXT "131072 (2^17), with STOW_HANDLE_INDEX_BITS 17"
#elif STOW_HANDLE_INDEX_BITS == 18
#define STOW__HANDLE_LIMIT_TEXT "262144 (2^18), with STOW_HANDLE_INDEX_BITS 18"
#elif STOW_HANDLE_INDEX_BITS == 19
#define STOW__HANDLE_LIMIT_TEXT "524288 (2^19), with STOW_HANDLE_INDEX_BITS 19"
#elif STOW_HANDLE_INDEX_BITS == 20
#define STOW__HANDLE_LIMIT_TEXT "1048576 (2^20), with STOW_HANDLE_INDEX_BITS 20"
#elif STOW_HANDLE_INDEX_BITS == 21
#define STOW__HANDLE_LIMIT_TEXT "2097152 (2^21), with STOW_HANDLE_INDEX_BITS 21"
#elif STOW_HANDLE_INDEX_BITS == 22
#define STOW__HANDLE_LIMIT_TEXT "4194304 (2^22), with STOW_HANDLE_INDEX_BITS 22"
#elif STOW_HANDLE_INDEX_BITS == 23
#define STOW__HANDLE_LIMIT_TEXT "8388608 (2^23), with STOW_HANDLE_INDEX_BITS 23"
#elif STOW_HANDLE_INDEX_BITS == 24
#define STOW__HANDLE_LIMIT_TEXT "16777216 (2^24), with STOW_HANDLE_INDEX_BITS 24"
#elif STOW_HANDLE_INDEX_BITS == 25
#define STOW__HANDLE_LIMIT_TEXT "33554432 (2^25), with STOW_HANDLE_INDEX_BITS 25"
#elif STOW_HANDLE_INDEX_BITS == 26
#define STOW__HANDLE_LIMIT_TEXT "67108864 (2^26), with STOW_HANDLE_INDEX_BITS 26"
#elif STOW_HANDLE_INDEX_BITS == 27
#define STOW__HANDLE_LIMIT_TEXT "134217728 (2^27), with STOW_HANDLE_INDEX_BITS 27"
#elif STOW_HANDLE_INDEX_BITS == 28
#define STOW__HANDLE_LIMIT_TEXT "268435456 (2^28), with STOW_HANDLE_INDEX_BITS 28"
#elif STOW_HANDLE_INDEX_BITS == 29
#define STOW__HANDLE_LIMIT_TEXT "536870912 (2^29), with STOW_HANDLE_INDEX_BITS 29"
#elif STOW_HANDLE_INDEX_BITS == 30
#define STOW__HANDLE_LIMIT_TEXT "1073741824 (2^30), with STOW_HANDLE_INDEX_BITS 30"
#else
#define STOW__HANDLE_LIMIT_TEXT "2^STOW_HANDLE_INDEX_BITS"
#endif

/* A container may have a split of its own (the DEFINE_TYPED_BITS macros of genpool
 * and slotmap, and stow.hpp's IndexBits): index_bits low bits of the index, the
 * rest for the generation. STOW__HANDLE_MASK_OF(bits) is its index mask, which the
 * container keeps; the functions above assume STOW_HANDLE_INDEX_BITS. */
#define STOW__HANDLE_MASK_OF(index_bits) ((UINT32_C(1) << (index_bits)) - 1u)

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
