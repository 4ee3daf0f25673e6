/* SPDX-License-Identifier: MIT */
/* port/freertos/port.c - the stow port for FreeRTOS firmware (see stow/port.h).
 *
 * Link it instead of port/cortex-m/port.c (or port/riscv/port.c) in a firmware
 * that runs FreeRTOS; it needs the kernel's headers and your FreeRTOSConfig.h
 * on the include path, as the kernel's own files do.
 *
 *   lock, critical   the kernel's own critical sections, so that stow masks
 *                    exactly what the kernel masks. From a task:
 *                    taskENTER_CRITICAL() / taskEXIT_CRITICAL(); the kernel
 *                    counts the nesting. From an interrupt handler:
 *                    taskENTER_CRITICAL_FROM_ISR() / taskEXIT_CRITICAL_FROM_ISR()
 *                    (portSET_INTERRUPT_MASK_FROM_ISR() and
 *                    portCLEAR_INTERRUPT_MASK_FROM_ISR() on one core), which
 *                    return and restore the previous mask, so pairs nest there
 *                    too. On Cortex-M3, M4, M7 and M33 both set BASEPRI to
 *                    configMAX_SYSCALL_INTERRUPT_PRIORITY: an interrupt of a
 *                    higher priority (a lower number) still runs while stow holds
 *                    a lock, as it does while the kernel holds its own. On
 *                    Cortex-M0 (no BASEPRI) both mask every interrupt (PRIMASK),
 *                    as the kernel does there. The container's lock word is not
 *                    used: masking is all the exclusion one core needs, and on
 *                    FreeRTOS SMP taskENTER_CRITICAL() also takes the kernel's
 *                    locks, which the other cores respect.
 *                    The kernel's rule for its FromISR calls is stow's rule for
 *                    its _isr calls and its containers' lock(): an interrupt above
 *                    configMAX_SYSCALL_INTERRUPT_PRIORITY must make none of them
 *                    (nothing masks it, so nothing keeps it out of a container
 *                    that a task holds).
 *                    Task or handler: xPortIsInsideInterrupt() on Arm (IPSR). On
 *                    RISC-V, where the kernel never nests interrupts, a handler
 *                    runs with mstatus.MIE clear, and so does a task inside a
 *                    critical section: with MIE clear nothing can interrupt, and
 *                    the FromISR mask (which does nothing on that port) is what
 *                    runs; with MIE set, taskENTER_CRITICAL(). For another
 *                    architecture define STOW_FREERTOS_IN_ISR() (an expression,
 *                    non-zero in a handler) in FreeRTOSConfig.h.
 *                    Before vTaskStartScheduler() the kernel's critical sections
 *                    leave interrupts masked on exit (it counts from a non-zero
 *                    start until the scheduler runs); so do stow's, as any kernel
 *                    call there does.
 *   assert           writes "stow: contract violation: <what> at <file>:<line>"
 *                    through stow_port_write(), then configASSERT(pdFALSE): your
 *                    configASSERT handler runs (it sees this file and line; the
 *                    line written before it names the library's). If your
 *                    configASSERT returns, so does the hook, and the stow call
 *                    returns its error value with its container unchanged. With
 *                    no configASSERT defined it masks interrupts and stops
 *                    (taskDISABLE_INTERRUPTS(), then waits forever), as a
 *                    production port must rather than carry on.
 *   write            weak default that discards the text: define your own
 *                    stow_port_write() (UART, RTT...) for the report and the
 *                    assert line.
 *   exit             weak default that masks interrupts and waits forever (only
 *                    tests, benchmarks and demos call it): define your own to
 *                    reset.
 *   cycles           not defined: only stow's benchmarks call it.
 */
#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"

#include "stow/port.h"
#include "stow/report.h"

#if defined(STOW_FREERTOS_IN_ISR)
/* the firmware's own test, from FreeRTOSConfig.h */
#elif defined(__arm__) || defined(__thumb__)
#define STOW_FREERTOS_IN_ISR() (xPortIsInsideInterrupt() != pdFALSE)
#elif defined(__riscv)
static inline uint32_t stow_freertos_mstatus(void)
{
    uint32_t mstatus;
    __asm__ volatile("csrr %0, mstatus" : "=r"(mstatus));
    return mstatus;
}
#define STOW_FREERTOS_MSTATUS_MIE 0x8u
#define STOW_FREERTOS_IN_ISR() ((stow_freertos_mstatus() & STOW_FREERTOS_MSTATUS_MIE) == 0u)
#else
#error "port/freertos: define STOW_FREERTOS_IN_ISR() in FreeRTOSConfig.h: non-zero inside an interrupt handler"
#endif

/* The state a task's section hands back: taskEXIT_CRITICAL() needs none, so
 * it is a value no mask is (an interrupt's state is the mask that
 * taskENTER_CRITICAL_FROM_ISR() returned: BASEPRI on Cortex-M3/M4/M33, PRIMASK
 * on M0, 0 on RISC-V). The state says which section to leave: on RISC-V the
 * test that chose it reads differently inside the section. */
#define TASK_SECTION UINT32_MAX

uint32_t stow_port_critical_enter(void)
{
    if (STOW_FREERTOS_IN_ISR()) {
        UBaseType_t mask = taskENTER_CRITICAL_FROM_ISR();
        configASSERT((uint32_t)mask != TASK_SECTION);
        return (uint32_t)mask;
    }
    taskENTER_CRITICAL();
    return TASK_SECTION;
}

void stow_port_critical_exit(uint32_t state)
{
    if (state == TASK_SECTION) {
        taskEXIT_CRITICAL();
    } else {
        taskEXIT_CRITICAL_FROM_ISR((UBaseType_t)state);
    }
}

uint32_t stow_port_lock(uint32_t *word)
{
    (void)word;
    return stow_port_critical_enter();
}

void stow_port_unlock(uint32_t *word, uint32_t state)
{
    (void)word;
    stow_port_critical_exit(state);
}

void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    stow_print("stow: contract violation: ");
    stow_print(expr != NULL ? expr : "?");
    stow_print(" at ");
    stow_print(file != NULL ? file : "?");
    stow_print(":");
    stow_print_u((uint64_t)(line > 0 ? line : 0), 0u);
    stow_print("\n");
#if configASSERT_DEFINED == 1
    configASSERT(pdFALSE);
#else
    taskDISABLE_INTERRUPTS();
    for (;;) {
        __asm__ volatile("" : : : "memory");
    }
#endif
}

__attribute__((weak)) void stow_port_write(const char *text, size_t len)
{
    (void)text;
    (void)len;
}

/* The last status passed to the default stow_port_exit(), for a debugger. */
volatile int stow__freertos_exit_status;

__attribute__((weak)) void stow_port_exit(int status)
{
    taskDISABLE_INTERRUPTS();
    stow__freertos_exit_status = status;
    for (;;) {
        __asm__ volatile("" : : : "memory");
    }
}
