/* SPDX-License-Identifier: MIT */
/* Index bits of its own are 1 to 30: the generation needs 2 bits or more.
 * expect: index_bits must be 1 to 30 */
#include "stow/slotmap.h"

STOW_SLOTMAP_DEFINE_TYPED_BITS(cf_bits_range, char, 4u, STOW_COMPILE_FAIL ? 31 : 30);
