/* SPDX-License-Identifier: MIT */
/* stow_freertos.h - what heap_stow.c adds to FreeRTOS's heap API (portable.h
 * declares the rest: pvPortMalloc, vPortFree, vPortGetHeapStats...).
 *
 * heap_stow.c reads these from FreeRTOSConfig.h (or the compiler's -D):
 *
 *   STOW_FREERTOS_HEAP_REGIONS   0 (default): the heap is configTOTAL_HEAP_SIZE
 *                                bytes of ucHeap, as heap_4's (defined by
 *                                heap_stow.c, or by you with
 *                                configAPPLICATION_ALLOCATED_HEAP 1).
 *                                1: no ucHeap; vPortDefineHeapRegions() gives the
 *                                storage, as with heap_5 (any number of regions).
 *   STOW_FREERTOS_HEAP_CRITICAL  0 (default): pvPortMalloc and vPortFree suspend
 *                                the scheduler around the heap, as heap_4 does.
 *                                1: they hold the heap's lock instead (with
 *                                port/freertos, the kernel's critical section),
 *                                about half the instructions of a call, and
 *                                callable from interrupt handlers at or below
 *                                configMAX_SYSCALL_INTERRUPT_PRIORITY; interrupts
 *                                at or below it wait for the call: O(1), tens
 *                                of instructions, at check levels 0 and 1;
 *                                O(block) at level 2 (poison and canary).
 *   STOW_FREERTOS_HEAP_BOUNDED   0 (default): stow's default heap (slots for
 *                                small requests, good fit for the rest: about
 *                                heap_4's RAM; size it from a trace, make
 *                                heap-size). 1: a bounded heap (power-of-two
 *                                blocks), on which STOW_HEAP_BYTES_FOR(max_live,
 *                                max_request) as configTOTAL_HEAP_SIZE never
 *                                refuses a request within those limits
 *                                (docs/heap-sizing.md); the bound is for one
 *                                region.
 *
 * and the kernel's own configUSE_MALLOC_FAILED_HOOK,
 * configHEAP_CLEAR_MEMORY_ON_FREE and configASSERT, as heap_4 does.
 */
#ifndef STOW_FREERTOS_H
#define STOW_FREERTOS_H

#include "stow/heap.h"

#ifndef STOW_FREERTOS_HEAP_REGIONS
#define STOW_FREERTOS_HEAP_REGIONS 0
#endif
#ifndef STOW_FREERTOS_HEAP_CRITICAL
#define STOW_FREERTOS_HEAP_CRITICAL 0
#endif
#ifndef STOW_FREERTOS_HEAP_BOUNDED
#define STOW_FREERTOS_HEAP_BOUNDED 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The stow heap behind pvPortMalloc (laid out if it was not yet), or NULL in
 * region mode before vPortDefineHeapRegions(). For stow_heap_stats() (peak and
 * refused requests, which HeapStats_t lacks) and stow_heap_check(): call them
 * with the scheduler suspended (vTaskSuspendAll() ... xTaskResumeAll()), as
 * pvPortMalloc runs, or before the scheduler starts. Do not allocate from it
 * directly: pvPortMalloc's counters would not see those blocks. O(1). */
stow_heap_t *stow_freertos_heap(void);

#ifdef __cplusplus
}
#endif

#endif /* STOW_FREERTOS_H */
