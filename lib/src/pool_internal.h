/* SPDX-License-Identifier: MIT */
/* pool_internal.h - what pool.c and pool_atomic.c share: the free-list link in
 * a free block, the block index without a division, and the level-2 bitmap.
 * Not part of the public API. See pool.c for the representation.
 */
#ifndef STOW_POOL_INTERNAL_H
#define STOW_POOL_INTERNAL_H

#include "stow/pool.h"
#include "internal.h"

#define LINK_BYTES sizeof(unsigned char *)
#define LINK_ALIGN (size_t)STOW_ALIGNOF(void *)
#define UINTPTR_BITS (sizeof(uintptr_t) * (size_t)CHAR_BIT)

/* The free-list link in a free block's first pointer bytes. A free block is
 * released memory, poisoned whole in an ASan build (so that a stale pointer to it
 * is caught even when the block is no larger than a pointer): the sanitizer must
 * not check these two accesses. */
static STOW__NO_ASAN inline unsigned char *link_of(const unsigned char *block)
{
    return *(unsigned char *const *)(const void *)block;
}

static STOW__NO_ASAN inline void set_link(unsigned char *block, unsigned char *next)
{
    *(unsigned char **)(void *)block = next;
}

/* The index of the block that starts at ptr, or a number >= capacity when ptr is
 * not a block start of this pool (below base, at or beyond end, interior or
 * misaligned). No division: Cortex-M0 has none. With N the bits of uintptr_t and
 * stride == odd << shift, f(offset) = rotate_right(offset * inverse, shift) is a
 * bijection on N-bit numbers (multiplying by an odd number modulo 2^N can be
 * undone, and so can a rotation). For i < capacity, f(i * stride) = i, because
 * i * stride * inverse = i << shift, which does not wrap (capacity * stride fits
 * size_t). Those capacity offsets take every value below capacity, so every other
 * offset, ptr - base taken modulo 2^N, lands at capacity or above. */
static inline uintptr_t index_of(const stow_pool_t *p, const void *ptr)
{
    uintptr_t x = ((uintptr_t)ptr - (uintptr_t)p->base) * p->inverse;
    return (x >> p->shift) | (x << ((0u - p->shift) & (UINTPTR_BITS - 1u)));
}

#if STOW_CHECK_LEVEL >= 2
/* The bitmap sits right after the blocks, which end on a pointer boundary. */
STOW_STATIC_ASSERT(STOW_ALIGNOF(void *) >= STOW_ALIGNOF(uint32_t),
                   "the allocation bitmap needs the blocks to end 32-bit aligned");

static inline uint32_t *map_of(const stow_pool_t *p) { return (uint32_t *)(void *)p->end; }
#endif

#if STOW__POOL_HEAD_BITS != 0
/* The tagged head word of the atomic calls (pool_atomic.c): the first block's
 * index plus one (0 for none) in the bits of tagged_mask(p), the tag above them.
 * 64 bits: the low 32 bits, the tag in the high 32. 32 bits: every bit up to
 * the capacity's top bit, so that a small pool keeps a long tag. */
#if STOW__POOL_HEAD_BITS == 64
typedef uint64_t stow__pool_head_t;
static inline stow__pool_head_t tagged_mask(const stow_pool_t *p)
{
    (void)p;
    return UINT32_MAX;
}
#else
typedef uint32_t stow__pool_head_t;
static inline stow__pool_head_t tagged_mask(const stow_pool_t *p)
{
    uint32_t m = p->capacity; /* >= 1, and index + 1 <= capacity <= m */
    m |= m >> 1;
    m |= m >> 2;
    m |= m >> 4;
    m |= m >> 8;
    m |= m >> 16;
    return m;
}
#endif

/* The block whose index plus one is i, or NULL for 0. */
static inline unsigned char *tagged_block(const stow_pool_t *p, uint32_t i)
{
    uint32_t index = i - 1u; /* wraps for 0, which is NULL */
    return i == 0u ? NULL : p->base + (size_t)index * p->stride;
}

/* The first block's index plus one, and the block, as plain reads: for reset()
 * and check(), which run while no call does. */
static inline uint32_t tagged_index(const stow_pool_t *p)
{
    return (uint32_t)(p->tagged_head & tagged_mask(p));
}

static inline unsigned char *tagged_first(const stow_pool_t *p) { return tagged_block(p, tagged_index(p)); }
#endif

#endif /* STOW_POOL_INTERNAL_H */
