/* SPDX-License-Identifier: MIT */
/* A slot map whose storage (capacity items, then 8 table bytes per slot) does not
 * fit in size_t is refused when it is defined, not wrapped into a short buffer.
 * The wrapped size would be small and nonzero, so the only error is stow's own
 * check. The capacity is the largest the handles allow by default. */
#include "stow/slotmap.h"

#if SIZE_MAX > UINT32_MAX
#define CF_BIG ((size_t)1 << 48) /* x 2^16 items = 2^64 + 2^19 */
#else
#define CF_BIG ((size_t)1 << 16) /* x 2^16 items = 2^32 + 2^19 */
#endif
struct cf_slotmap_item {
    unsigned char bytes[STOW_COMPILE_FAIL ? CF_BIG + 8u : 8u];
};
STOW_SLOTMAP_DEFINE(cf_slotmap_huge, struct cf_slotmap_item, STOW_HANDLE_MAX_CAPACITY);
