/* SPDX-License-Identifier: MIT */
/* heap4.h - FreeRTOS's heap_4 (portable/MemMang/heap_4.c of FREERTOS_KERNEL_PATH,
 * built as it is) behind the calls the trace replay makes of stow's heap, for
 * make bench's comparison column on Cortex-M4 (bench/replay.mk). The functions
 * take a stow_heap_t * they ignore, so that the replay's step and the empty twin
 * it is timed against stay the same code for both heaps.
 *
 * heap_4 has no realloc and no aligned allocation: heap4_realloc() does what a
 * FreeRTOS program does instead (allocate, copy, free: both blocks live during
 * the copy), heap4_alloc_aligned() asks for size + align - 8 bytes (what a
 * program that aligns inside its block needs). heap_4 refuses a 0-byte request;
 * heap4_alloc() asks for 1 byte instead, as the other heaps give a block. */
#ifndef STOW_BENCH_HEAP4_H
#define STOW_BENCH_HEAP4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stow/heap.h"

/* heap_4's storage (configAPPLICATION_ALLOCATED_HEAP): bench/replay.c defines
 * it, configTOTAL_HEAP_SIZE (REPLAY_HEAP_BYTES) long. */
extern unsigned char ucHeap[];

/* Makes heap_4 an empty heap of configTOTAL_HEAP_SIZE = bytes, at the start of
 * ucHeap (see heap4.c); false when bytes is too small or too large. */
bool heap4_reset(size_t bytes);

void *heap4_alloc(stow_heap_t *unused, size_t size);
void *heap4_calloc(stow_heap_t *unused, size_t n, size_t size);
void *heap4_alloc_aligned(stow_heap_t *unused, size_t size, size_t align);
void *heap4_realloc(stow_heap_t *unused, void *p, size_t size);
void heap4_free(stow_heap_t *unused, void *p);

/* What heap4_realloc() copies: the smaller of this and the new size. The
 * replay sets it to the old block's requested bytes before each realloc. */
extern size_t heap4_copy_bytes;

/* The end of the block heap_4 gave for a request of size bytes at p, less the
 * start of ucHeap (the heap's footprint), and whether every byte is free again
 * (after the replay freed every block). */
size_t heap4_block_end(const void *p, size_t size);
bool heap4_all_free(void);

#endif
