/* SPDX-License-Identifier: MIT */
/* FreeRTOSConfig.h - the demo's kernel configuration (examples/freertos), for
 * the QEMU boards mps2-an385 (Cortex-M3, ARM_CM3 port), mps2-an386 (Cortex-M4F,
 * ARM_CM4F port, hard float) and riscv-virt (RISC-V port). The test
 * (tests/freertos) and the benchmark (bench/freertos) include it and change a
 * few lines.
 *
 * Nothing in it is stow's: heap_stow.c reads the same configTOTAL_HEAP_SIZE,
 * configUSE_MALLOC_FAILED_HOOK and configASSERT that heap_4.c reads. Switching
 * heaps is one line in the build (heap_stow.c, the files of lib/src and
 * port/freertos/port.c instead of heap_4.c).
 */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#include <stdint.h>

#if defined(__riscv)
/* riscv-virt: QEMU's CLINT counts mtime at 10 MHz; the RISC-V port takes
 * configCPU_CLOCK_HZ as mtime's rate. */
#define configCPU_CLOCK_HZ 10000000u
#define configMTIME_BASE_ADDRESS 0x0200BFF8u
#define configMTIMECMP_BASE_ADDRESS 0x02004000u
#define configISR_STACK_SIZE_WORDS 512
/* the demo's periodic interrupt is the tick's (examples/freertos/board.c) */
#define configUSE_TICK_HOOK 1
#else
/* mps2: the core and SysTick at 25 MHz. */
#define configCPU_CLOCK_HZ 25000000u
/* Priorities in the NVIC's 8-bit form (QEMU implements all 8 bits; a chip
 * with 3 or 4 keeps the top ones). The kernel's tick and PendSV run at the
 * lowest; interrupts that call FromISR functions or stow's _isr calls must be
 * at 0x40 or below it (0x40..0xFF); 0x00..0x3F are never masked by the kernel
 * or by stow. */
#define configKERNEL_INTERRUPT_PRIORITY 0xFFu
#define configMAX_SYSCALL_INTERRUPT_PRIORITY 0x40u
/* The kernel's handlers under the vector table's names (targets/cortex-m/startup.c). */
#define vPortSVCHandler SVC_Handler
#define xPortPendSVHandler PendSV_Handler
#define xPortSysTickHandler SysTick_Handler
#define configUSE_TICK_HOOK 0
#endif

#define configTICK_RATE_HZ 1000u
#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 1
#define configMAX_PRIORITIES 8
#define configMINIMAL_STACK_SIZE 256
#define configMAX_TASK_NAME_LEN 12
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_32_BITS
#define configIDLE_SHOULD_YIELD 1
#define configUSE_TASK_NOTIFICATIONS 1
#define configUSE_MUTEXES 1
#define configUSE_COUNTING_SEMAPHORES 1
#define configQUEUE_REGISTRY_SIZE 0
#define configNUM_THREAD_LOCAL_STORAGE_POINTERS 1 /* each worker's arena */

/* Every task, queue and timer from the heap: heap_stow.c's. */
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configSUPPORT_STATIC_ALLOCATION 0
#define configTOTAL_HEAP_SIZE (40u * 1024u)
#define configAPPLICATION_ALLOCATED_HEAP 0
#define configUSE_MALLOC_FAILED_HOOK 1

#define configUSE_IDLE_HOOK 0
#define configCHECK_FOR_STACK_OVERFLOW 2
#define configUSE_TRACE_FACILITY 0
#define configGENERATE_RUN_TIME_STATS 0

#define configUSE_TIMERS 1
#define configTIMER_TASK_PRIORITY (configMAX_PRIORITIES - 1)
#define configTIMER_QUEUE_LENGTH 8
#define configTIMER_TASK_STACK_DEPTH 256

#define INCLUDE_vTaskDelete 1
#define INCLUDE_vTaskDelay 1
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_xTaskGetSchedulerState 1
#define INCLUDE_uxTaskGetStackHighWaterMark 1

/* The application's handler: prints where and stops (examples/freertos/main.c),
 * or records the call (tests/freertos). */
void freertos_assert_failed(const char *file, int line);
#define configASSERT(x)                                \
    do {                                               \
        if ((x) == 0) {                                \
            freertos_assert_failed(__FILE__, __LINE__); \
        }                                              \
    } while (0)

#endif /* FREERTOS_CONFIG_H */
