/* SPDX-License-Identifier: MIT */
/* FreeRTOSConfig.h - the test's (tests/freertos): the demo's configuration, with
 * the heap's storage as the build asks (adapters/freertos/rules.mk):
 *   TEST_APP_HEAP    configAPPLICATION_ALLOCATED_HEAP 1: the test defines ucHeap
 *   STOW_FREERTOS_HEAP_REGIONS 1 (set on the command line): vPortDefineHeapRegions
 *   neither          heap_stow.c's own ucHeap
 * and heap_stow.c's trace calls counted. None of these changes the kernel's
 * objects (only heaps read them), which are the demo's. */
#ifndef STOW_TEST_FREERTOS_CONFIG_H
#define STOW_TEST_FREERTOS_CONFIG_H

#include <stddef.h>

#include "../../examples/freertos/FreeRTOSConfig.h"

#ifdef TEST_APP_HEAP
#undef configAPPLICATION_ALLOCATED_HEAP
#define configAPPLICATION_ALLOCATED_HEAP 1
/* and freed blocks zeroed, as heap_4 does with it */
#define configHEAP_CLEAR_MEMORY_ON_FREE 1
#else
#define configHEAP_CLEAR_MEMORY_ON_FREE 0
#endif

/* heap_stow.c's trace calls, counted by the test */
void test_trace_malloc(void *p, size_t size);
void test_trace_free(void *p, size_t size);
#define traceMALLOC(p, size) test_trace_malloc((p), (size))
#define traceFREE(p, size) test_trace_free((p), (size))

#endif
