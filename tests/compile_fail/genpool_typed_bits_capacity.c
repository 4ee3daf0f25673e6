/* SPDX-License-Identifier: MIT */
/* A genpool of its own index bits refuses more slots than they can name.
 * expect: STOW_GENPOOL_DEFINE_TYPED_BITS: the capacity must be 1 to 2\^index_bits \(its last argument\): raise index_bits */
#include "stow/genpool.h"

STOW_GENPOOL_DEFINE_TYPED_BITS(cf_bits_pool, char, STOW_COMPILE_FAIL ? 4097u : 4096u, 12);
