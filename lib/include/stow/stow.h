/* SPDX-License-Identifier: MIT */
/* stow.h - everything in stow, in one include.
 *
 * stow is a freestanding C11 allocator kit for firmware and game engines: static,
 * compile-time-sized containers that live in linker-placed sections, with no
 * malloc and no libc. Each module has its own header; this one includes them all.
 *
 *   arena.h    linear (bump) allocator: marks, rewind, reset, a chain of blocks
 *   pool.h     fixed-size blocks, intrusive free list, O(1) alloc/free, ISR variants
 *   genpool.h  generational arena: items that stay put, handles that go stale
 *   slotmap.h  packed items behind generational handles; deferred destruction
 *   packed.h   packed array: contiguous items, swap-and-pop removal
 *   heap.h     variable-size blocks in bounded time: alloc, aligned, realloc
 *
 *   config.h   every option and its default      port.h    what a platform supplies
 *   version.h  STOW_VERSION_STRING and friends
 *   handle.h   generational handles              stats.h   the statistics struct
 *   report.h   the registry of every container, subsystems and their budgets, and
 *              stow_report(): one memory report for the whole firmware
 *
 * Size 0, one rule for every container and call: a size of 0 bytes that asks
 * for memory is never refused and never answered with NULL for being 0; it gets
 * the smallest unit the container hands out, at an address of its own, aligned
 * as asked.
 *   arena      alloc, alloc_zeroed, alloc_array and the NEW macros with a size or
 *              a count of 0: one byte, at most one alignment step (arena.h).
 *   pool       init with block_size 0: blocks of one pointer (the smallest block
 *              a pool has: a free block holds the free-list link).
 * genpool, slotmap and packed hold items of a C type, whose size is never 0:
 * their init refuses item_size 0 like any impossible layout (returns false,
 * changing nothing), and their DEFINEs take sizeof(T).
 */
#ifndef STOW_H
#define STOW_H

#include "version.h"
#include "config.h"
#include "port.h"
#include "handle.h"
#include "stats.h"
#include "arena.h"
#include "pool.h"
#include "genpool.h"
#include "slotmap.h"
#include "packed.h"
#include "heap.h"
#include "report.h"

#endif /* STOW_H */
