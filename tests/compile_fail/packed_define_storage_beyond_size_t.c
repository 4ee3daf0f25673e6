/* SPDX-License-Identifier: MIT */
/* A packed array whose storage, capacity * sizeof(T), does not fit in size_t is
 * refused when it is defined, not wrapped into a short buffer that push writes
 * past. The wrapped product would be small and nonzero, so the only error is
 * stow's own check. */
#include "stow/packed.h"

#if SIZE_MAX > UINT32_MAX
#define CF_BIG ((size_t)1 << 40) /* x 2^24 items = 2^64 + 2^27 */
#define CF_N ((uint32_t)1 << 24)
#else
#define CF_BIG ((size_t)1 << 16) /* x 2^16 items = 2^32 + 2^19 */
#define CF_N ((uint32_t)1 << 16)
#endif
struct cf_packed_item {
    unsigned char bytes[STOW_COMPILE_FAIL ? CF_BIG + 8u : 8u];
};
STOW_PACKED_DEFINE(cf_packed_huge, struct cf_packed_item, STOW_COMPILE_FAIL ? CF_N : 4u);
