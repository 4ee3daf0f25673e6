/* SPDX-License-Identifier: MIT */
/* FreeRTOSConfig.h - the benchmark's (bench/freertos): the demo's configuration
 * as a release build has it (no configASSERT, no stack checks), with what makes
 * the workload's allocations the same sequence on every heap and at every heap
 * size: a 100 Hz tick and no time slicing, so that only blocking decides who
 * runs (the workload's tasks have priorities of their own). Both heaps take
 * their storage from the benchmark's ucHeap: heap_4 with
 * configAPPLICATION_ALLOCATED_HEAP, heap_stow.c as one region. */
#ifndef STOW_BENCH_FREERTOS_CONFIG_H
#define STOW_BENCH_FREERTOS_CONFIG_H

#include "../../examples/freertos/FreeRTOSConfig.h"

#undef configASSERT
#undef configCHECK_FOR_STACK_OVERFLOW
#define configCHECK_FOR_STACK_OVERFLOW 0
#undef configTICK_RATE_HZ
#define configTICK_RATE_HZ 100u
#undef configUSE_TIME_SLICING
#define configUSE_TIME_SLICING 0
#undef configTOTAL_HEAP_SIZE
#define configTOTAL_HEAP_SIZE (64u * 1024u)
#undef configAPPLICATION_ALLOCATED_HEAP
#define configAPPLICATION_ALLOCATED_HEAP 1
#define STOW_FREERTOS_HEAP_REGIONS 1
#undef configUSE_TICK_HOOK
#define configUSE_TICK_HOOK 0

/* Counts context switches, so that a timed call that one happened in is left
 * out (bench/freertos/workload.c). */
extern volatile uint32_t bench_switches;
#define traceTASK_SWITCHED_IN() (bench_switches++)

#endif
