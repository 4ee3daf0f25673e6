/* SPDX-License-Identifier: MIT */
/* cxx_cost.h - what bench/cxx_cost.c (C, the C API) and bench/cxx_cost.cpp (C++,
 * stow.hpp) share: the item, and the globals each operation stores its result
 * in, so that both sides do the same work around the call. See cxx_cost.sh. */
#ifndef STOW_BENCH_CXX_COST_H
#define STOW_BENCH_CXX_COST_H

#include "stow/stow.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cost_item {
    int32_t damage;
    uint32_t target;
};

#define COST_CAPACITY 64u
#define COST_ARENA_BYTES 1024u
#define COST_HEAP_BYTES 4096u
#define COST_INDEX_BITS 12u /* the containers with index bits of their own */

extern stow_handle_t cost_handle;
extern void *cost_ptr;
extern bool cost_flag;
extern uint32_t cost_u32;

#ifdef __cplusplus
}
#endif

#endif
