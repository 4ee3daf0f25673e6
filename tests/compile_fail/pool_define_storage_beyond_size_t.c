/* SPDX-License-Identifier: MIT */
/* A pool whose storage, capacity * stride, does not fit in size_t is refused when
 * it is defined: the product would wrap into a short buffer that alloc walks off.
 * The block size is chosen so that the wrapped product is small and nonzero, so
 * the only error is stow's own check. */
#include "stow/pool.h"

#if SIZE_MAX > UINT32_MAX
#define CF_BIG ((size_t)1 << 40) /* x 2^24 blocks = 2^64 + 2^27 */
#define CF_N ((uint32_t)1 << 24)
#else
#define CF_BIG ((size_t)1 << 16) /* x 2^16 blocks = 2^32 + 2^19 */
#define CF_N ((uint32_t)1 << 16)
#endif
struct cf_pool_block {
    unsigned char bytes[STOW_COMPILE_FAIL ? CF_BIG + 8u : 8u];
};
STOW_POOL_DEFINE(cf_pool_huge, struct cf_pool_block, STOW_COMPILE_FAIL ? CF_N : 4u);
