/* SPDX-License-Identifier: MIT */
/* FreeRTOSConfig.h - the test's (tests/freertos): the demo's configuration, with
 * the heap's storage as the build asks (adapters/freertos/rules.mk):
 *   TEST_APP_HEAP    configAPPLICATION_ALLOCATED_HEAP 1: the test defines ucHeap
 *   STOW_FREERTOS_HEAP_REGIONS 1 (set on the command line): vPortDefineHeapRegions
 *   neither          heap_stow.c's own ucHeap
 * None of these changes the kernel's objects, which are the demo's. */
#ifndef STOW_TEST_FREERTOS_CONFIG_H
#define STOW_TEST_FREERTOS_CONFIG_H

#include "../../examples/freertos/FreeRTOSConfig.h"

#ifdef TEST_APP_HEAP
#undef configAPPLICATION_ALLOCATED_HEAP
#define configAPPLICATION_ALLOCATED_HEAP 1
#endif

#endif
