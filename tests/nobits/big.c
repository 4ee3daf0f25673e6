/* SPDX-License-Identifier: MIT */
/* big.c - a program with one large DEFINE'd container of each kind, built by
 * tests/nobits.sh as C and as C++, for the host and for bare metal. Their
 * storage (3 x BIG_KIB KiB, and about 1 MiB more) must take no room in the
 * executable or the flash image: NOBITS, with or without a linker script that
 * knows stow's sections. The bare-metal builds link tests/stub_port.c with it. */
#include "stow/stow.h"

#ifndef BIG_KIB
#define BIG_KIB 16384u
#endif
#define BIG_BYTES (BIG_KIB * 1024u)
/* Within the default 16 index bits of a handle. */
#define BIG_HANDLED 32768u

STOW_ARENA_DEFINE(big_arena, BIG_BYTES);
STOW_POOL_DEFINE(big_pool, uint64_t, BIG_BYTES / 8u);
STOW_GENPOOL_DEFINE(big_genpool, uint64_t, BIG_HANDLED);
STOW_SLOTMAP_DEFINE(big_slotmap, uint64_t, BIG_HANDLED);
STOW_PACKED_DEFINE(big_packed, uint64_t, BIG_BYTES / 8u);

int main(void);
int main(void)
{
    uint64_t item = 1u;
    int bad = 0;
    bad += stow_arena_alloc(&big_arena, 64u, 0u) != NULL ? 0 : 1;
    bad += stow_pool_alloc(&big_pool) != NULL ? 0 : 1;
    bad += stow_handle_is_null(stow_genpool_insert(&big_genpool, &item)) ? 1 : 0;
    bad += stow_handle_is_null(stow_slotmap_insert(&big_slotmap, &item)) ? 1 : 0;
    bad += stow_packed_push(&big_packed) != NULL ? 0 : 1;
    return bad;
}
