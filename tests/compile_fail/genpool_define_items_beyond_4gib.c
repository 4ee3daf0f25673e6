/* SPDX-License-Identifier: MIT */
/* A genpool whose items would take 4 GiB or more is refused when it is defined
 * (init refuses it at run time, returning false). */
#include "stow/genpool.h"

struct cf_genpool_item {
    unsigned char bytes[STOW_COMPILE_FAIL ? 65540u : 8u]; /* x 2^16 > 2^32 */
};
STOW_GENPOOL_DEFINE(cf_genpool_huge, struct cf_genpool_item, STOW_HANDLE_MAX_CAPACITY);
