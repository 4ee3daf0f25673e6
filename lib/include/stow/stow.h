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
 *
 *   config.h   every option and its default      port.h    what a platform supplies
 *   version.h  STOW_VERSION_STRING and friends
 *   handle.h   generational handles              stats.h   the statistics struct
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

#endif /* STOW_H */
