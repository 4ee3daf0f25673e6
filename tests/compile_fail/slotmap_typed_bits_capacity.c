/* SPDX-License-Identifier: MIT */
/* A slot map of its own index bits refuses more slots than they can name.
 * expect: STOW_SLOTMAP_DEFINE_TYPED_BITS: the capacity must be 1 to 2\^index_bits \(its last argument\): raise index_bits */
#include "stow/slotmap.h"

STOW_SLOTMAP_DEFINE_TYPED_BITS(cf_bits_map, char, STOW_COMPILE_FAIL ? 4097u : 4096u, 12);
