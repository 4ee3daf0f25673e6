/* SPDX-License-Identifier: MIT */
/* FreeRTOSConfig.h - the configuration FreeRTOS's heap_4.c is built with for the
 * trace replay's comparison column (bench/replay.mk): heap_4 alone, no kernel.
 * Only what heap_4.c and the headers it includes require; the rest is left to
 * FreeRTOS.h's defaults. The storage is the replay's own buffer (ucHeap, defined
 * by bench/replay.c: configAPPLICATION_ALLOCATED_HEAP), REPLAY_HEAP_BYTES long;
 * bench/heap4/heap4.c makes a smaller heap out of it for each trial. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#define configUSE_PREEMPTION 1
#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 0
#define configMAX_PRIORITIES 2
/* the port's inline BASEPRI helpers name it; never run here */
#define configMAX_SYSCALL_INTERRUPT_PRIORITY (5 << 4)
#define configMINIMAL_STACK_SIZE 128
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_32_BITS
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configSUPPORT_STATIC_ALLOCATION 0
#define configAPPLICATION_ALLOCATED_HEAP 1
#define configTOTAL_HEAP_SIZE ((size_t)REPLAY_HEAP_BYTES)
#define configUSE_MALLOC_FAILED_HOOK 0
/* heap_4's defaults: no clearing on free, no pointer protection, no asserts
 * (as a release build of a FreeRTOS application has them). */
#define configHEAP_CLEAR_MEMORY_ON_FREE 0
#define configENABLE_HEAP_PROTECTOR 0

#endif
