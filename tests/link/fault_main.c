/* SPDX-License-Identifier: MIT */
/* tests/link/fault_main.c - a firmware that faults on purpose: it turns the
 * UsageFault handler off, so that the undefined instruction escalates to
 * HardFault, and executes one. The fault reporter must print
 * "stow: fault: HardFault" and end the run with status 2; the startup's
 * Default_Handler would print "unexpected exception 3" instead. */
#include <stdint.h>

#define SCB_SHCSR (*(volatile uint32_t *)(uintptr_t)0xE000ED24u)
#define SHCSR_USGFAULTENA (1u << 18)

int main(void);

int main(void)
{
    SCB_SHCSR = SCB_SHCSR & ~SHCSR_USGFAULTENA;
    __asm__ volatile("dsb\n\tisb\n\tudf #0" : : : "memory");
    return 0;
}
