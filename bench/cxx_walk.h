/* SPDX-License-Identifier: MIT */
/* cxx_walk.h - what bench/cxx_walk.c (the C walks) and bench/cxx_walk.cpp (the
 * C++ walks and the driver) share: the item, the capacity, and the C walks,
 * each of which sums every live item's target (and, with handles, its handle's
 * bits) and returns the sum. See bench/cxx_walk.sh. */
#ifndef STOW_BENCH_CXX_WALK_H
#define STOW_BENCH_CXX_WALK_H

#include "stow/stow.h"

#ifdef __cplusplus
extern "C" {
#endif

struct walk_item {
    int32_t damage;
    uint32_t target;
};

#ifndef WALK_CAPACITY
#define WALK_CAPACITY 1024u /* 256 on the micro:bit (16 KiB of RAM) */
#endif

uint32_t c_slotmap_walk(const stow_slotmap_t *m);
uint32_t c_slotmap_walk_handles(const stow_slotmap_t *m);
uint32_t c_genpool_foreach(const stow_genpool_t *g);
uint32_t c_genpool_foreach_handles(const stow_genpool_t *g);
uint32_t c_genpool_first_next(const stow_genpool_t *g);

#ifdef __cplusplus
}
#endif

#endif
