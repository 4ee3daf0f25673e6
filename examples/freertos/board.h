/* SPDX-License-Identifier: MIT */
/* board.h - the little of the QEMU boards that the FreeRTOS demo and test use
 * (examples/freertos/board.c): what a vendor's HAL would give.
 *
 *   mps2-an385, mps2-an386   the vector table copied to RAM so that interrupt
 *                            handlers can be installed at run time; the FPU
 *                            switched on (Cortex-M4F); CMSDK timer 0 (IRQ 8) as
 *                            the periodic interrupt; any interrupt pended by
 *                            software through the NVIC.
 *   riscv-virt               mtvec pointed at the kernel's trap handler; the
 *                            periodic interrupt is the tick hook (the machine
 *                            timer's interrupt, every board_periodic's period).
 */
#ifndef STOW_EXAMPLES_FREERTOS_BOARD_H
#define STOW_EXAMPLES_FREERTOS_BOARD_H

#include <stdbool.h>
#include <stdint.h>

/* "mps2-an386 (Cortex-M4F, ARM_CM4F port)" and so on. */
extern const char board_name[];

/* First thing in main(), before any kernel call. */
void board_init(void);

/* Calls handler from an interrupt every period_us microseconds (rounded to
 * whole ticks on riscv-virt), at a priority that may call FromISR functions and
 * stow's _isr calls; handler NULL stops it. */
void board_periodic(void (*handler)(void), uint32_t period_us);

#if defined(__arm__) || defined(__thumb__)
/* Installs handler for external interrupt irq (0..31) at NVIC priority prio
 * (8-bit form: lower is more urgent) and enables it. */
void board_irq_install(unsigned irq, void (*handler)(void), uint8_t prio);
/* Sets irq pending, as a device would; it runs as soon as the masks allow. */
void board_irq_pend(unsigned irq);
/* BASEPRI (0 on Cortex-M0, which has none) and PRIMASK, as they are now. */
uint32_t board_basepri(void);
uint32_t board_primask(void);
#endif

#if defined(__riscv)
/* mstatus.MIE: whether machine interrupts are enabled now. */
bool board_interrupts_on(void);
#endif

#endif
