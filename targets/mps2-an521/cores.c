/* SPDX-License-Identifier: MIT */
/* targets/mps2-an521/cores.c - starts the second Cortex-M33 of the SSE-200 (MPS2
 * AN521) for the multi-core test and benchmark images.
 *
 * At reset only core 0 runs: the SSE-200's CPUWAIT register (system control
 * block, Secure 0x50021118) holds core 1 (its reset value sets bit 1), and
 * clearing the bit powers core 1 up at the vector table INITSVTOR1 (0x50021114)
 * names. QEMU 7.2 models exactly that (hw/arm/armsse.c: cpuwait_rst 2 for the
 * SSE-200; hw/misc/iotkit-sysctl.c: a write that clears a CPUWAIT bit calls
 * arm_set_cpu_on_and_reset() for that core).
 *
 * stow_an521_start_core1(fn) gives core 1 a vector table of its own in RAM: a
 * copy of core 0's (the same handlers: each reads its core number where it must
 * know it), with its own stack (core1_stack, below) and its own reset entry,
 * which turns on the fault traps that startup.c turns on for core 0 (they are
 * per core), sets MSPLIM to the bottom of its stack (ARMv8-M mainline), and
 * calls fn with interrupts enabled. When fn returns, core 1 masks interrupts and
 * sleeps for ever.
 *
 * The core's number: CPU_IDENTITY (0x4001F000) reads 0 on core 0 and 1 on core
 * 1, which port/cortex-m/smp.c reads when built with
 * -DSTOW_PORT_CORE_REG=0x4001F000.
 */
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))
#define SYSCTL_INITSVTOR1 REG32(0x50021114u)
#define SYSCTL_CPUWAIT REG32(0x50021118u)
#define CPUWAIT_CORE1 2u
#define SCB_VTOR REG32(0xE000ED08u)
#define SCB_CCR REG32(0xE000ED14u)
#define SCB_SHCSR REG32(0xE000ED24u)

/* As targets/cortex-m/startup.c: 16 exceptions, 96 interrupts on the mainline
 * (its table for ARMv6-M code has 32). */
#if defined(__ARM_ARCH_8M_MAIN__)
#define VECTORS (16u + 96u)
#define MAINLINE 1
#else
#define VECTORS (16u + 32u)
#define MAINLINE 0
#endif

#ifndef STOW_AN521_CORE1_STACK
#define STOW_AN521_CORE1_STACK 8192u
#endif

void stow_an521_start_core1(void (*fn)(void));

/* VTOR takes a table aligned to its size rounded up to a power of two. */
static uint32_t core1_vectors[VECTORS] __attribute__((aligned(512)));
static uint64_t core1_stack[STOW_AN521_CORE1_STACK / 8u];
static void (*volatile core1_fn)(void);

static void core1_reset(void)
{
#if MAINLINE
    SCB_CCR = SCB_CCR | (1u << 3) | (1u << 4);                          /* UNALIGN_TRP, DIV_0_TRP */
    SCB_SHCSR = SCB_SHCSR | (1u << 16) | (1u << 17) | (1u << 18) | (1u << 19); /* Mem, Bus, Usage, Secure */
    __asm__ volatile("dsb\n\tisb\n\tmsr msplim, %0" : : "r"(core1_stack) : "memory");
#endif
    __asm__ volatile("cpsie i" : : : "memory");
    core1_fn();
    __asm__ volatile("cpsid i" : : : "memory");
    for (;;) {
        __asm__ volatile("wfi" : : : "memory");
    }
}

void stow_an521_start_core1(void (*fn)(void))
{
    const uint32_t *table = (const uint32_t *)(uintptr_t)SCB_VTOR;
    for (uint32_t i = 0u; i < VECTORS; i++) {
        core1_vectors[i] = table[i];
    }
    core1_vectors[0] = (uint32_t)(uintptr_t)&core1_stack[STOW_AN521_CORE1_STACK / 8u];
    core1_vectors[1] = (uint32_t)(uintptr_t)core1_reset; /* a Thumb address: bit 0 set */
    core1_fn = fn;
    __asm__ volatile("dsb" : : : "memory");
    SYSCTL_INITSVTOR1 = (uint32_t)(uintptr_t)core1_vectors;
    SYSCTL_CPUWAIT = SYSCTL_CPUWAIT & ~CPUWAIT_CORE1;
}
