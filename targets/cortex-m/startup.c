/* SPDX-License-Identifier: MIT */
/* targets/cortex-m/startup.c - vector table and reset code for every Cortex-M board.
 *
 * Reset_Handler copies .data from flash, zeroes .bss, (with
 * -DSTOW_TEST_DIRTY_SECTIONS) fills the .stow region with 0xA5 so that tests
 * prove stow never relies on zeroed storage, turns on the fault traps the core
 * has, calls main() and hands its return value to stow_port_exit().
 *
 * Linker symbols used (linker/cortex-m.ld defines them): __stack_top,
 * __stack_limit, __data_start, __data_end, __data_load, __bss_start, __bss_end,
 * and with STOW_TEST_DIRTY_SECTIONS __stow_start, __stow_end (linker/stow.ld).
 *
 * Every handler is a weak alias of Default_Handler, which prints "stow:
 * unexpected interrupt <n>" (or "exception <n>") and exits with status 2.
 * port/cortex-m/fault.c defines the fault handlers and port/cortex-m/cycles.c
 * SysTick_Handler (test and benchmark images only). A weak alias does not pull
 * a member out of an archive: link fault.c as an object, or from an archive
 * with -Wl,-u,stow_cm_fault_report (cycles.o comes out of an archive anyway,
 * for stow_port_cycles, and brings its handler along).
 */
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"

#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || \
    defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
#define STOW_CM_MAINLINE 1 /* configurable fault traps, VTOR, DebugMonitor */
#else
#define STOW_CM_MAINLINE 0 /* v6-M, v8-M baseline */
#endif

#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
#define STOW_CM_V8M_MAIN 1 /* SecureFault, MSPLIM */
#else
#define STOW_CM_V8M_MAIN 0
#endif

/* External interrupt entries, all to Default_Handler. QEMU's boards model 32
 * (microbit, mps2-an385/386/500), 92 (mps2-an505) and 96 (mps3-an547); v6-M
 * has at most 32. */
#if STOW_CM_MAINLINE
#define STOW_CM_IRQ_COUNT 96
#else
#define STOW_CM_IRQ_COUNT 32
#endif

#define STOW_CM_TRAP_STATUS 2

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))
#define SCB_VTOR  REG32(0xE000ED08u)
#define SCB_CCR   REG32(0xE000ED14u)
#define SCB_SHCSR REG32(0xE000ED24u)
#define CCR_UNALIGN_TRP    (1u << 3)
#define CCR_DIV_0_TRP      (1u << 4)
#define SHCSR_MEMFAULTENA  (1u << 16)
#define SHCSR_BUSFAULTENA  (1u << 17)
#define SHCSR_USGFAULTENA  (1u << 18)
#define SHCSR_SECUREFAULTENA (1u << 19)

extern uint32_t __stack_top[];
extern uint32_t __stack_limit[];
extern uint32_t __data_start[];
extern uint32_t __data_end[];
extern const uint32_t __data_load[];
extern uint32_t __bss_start[];
extern uint32_t __bss_end[];
#ifdef STOW_TEST_DIRTY_SECTIONS
extern uint8_t __stow_start[];
extern uint8_t __stow_end[];
#endif

int main(void);

void Reset_Handler(void);
void Default_Handler(void);

#define STOW_CM_WEAK_HANDLER(name) \
    void name(void) __attribute__((weak, alias("Default_Handler")))

STOW_CM_WEAK_HANDLER(NMI_Handler);
STOW_CM_WEAK_HANDLER(HardFault_Handler);
STOW_CM_WEAK_HANDLER(MemManage_Handler);
STOW_CM_WEAK_HANDLER(BusFault_Handler);
STOW_CM_WEAK_HANDLER(UsageFault_Handler);
STOW_CM_WEAK_HANDLER(SecureFault_Handler);
STOW_CM_WEAK_HANDLER(SVC_Handler);
STOW_CM_WEAK_HANDLER(DebugMon_Handler);
STOW_CM_WEAK_HANDLER(PendSV_Handler);
STOW_CM_WEAK_HANDLER(SysTick_Handler);

typedef void (*stow_cm_handler_t)(void);

struct stow_cm_vector_table {
    const void *initial_sp;
    stow_cm_handler_t exception[15];         /* exceptions 1..15 */
    stow_cm_handler_t irq[STOW_CM_IRQ_COUNT]; /* exceptions 16.. */
};

#define STOW_CM_IRQ_DEFAULT_8 \
    Default_Handler, Default_Handler, Default_Handler, Default_Handler, \
    Default_Handler, Default_Handler, Default_Handler, Default_Handler

__attribute__((section(".vectors"), used))
const struct stow_cm_vector_table stow__cm_vectors = {
    __stack_top,
    {
        Reset_Handler,       /*  1 */
        NMI_Handler,         /*  2 */
        HardFault_Handler,   /*  3 */
#if STOW_CM_MAINLINE
        MemManage_Handler,   /*  4 */
        BusFault_Handler,    /*  5 */
        UsageFault_Handler,  /*  6 */
#else
        0, 0, 0,
#endif
#if STOW_CM_V8M_MAIN
        SecureFault_Handler, /*  7 */
#else
        0,
#endif
        0, 0, 0,             /*  8..10 reserved */
        SVC_Handler,         /* 11 */
#if STOW_CM_MAINLINE
        DebugMon_Handler,    /* 12 */
#else
        0,
#endif
        0,                   /* 13 reserved */
        PendSV_Handler,      /* 14 */
        SysTick_Handler,     /* 15 */
    },
    {
        STOW_CM_IRQ_DEFAULT_8, STOW_CM_IRQ_DEFAULT_8, STOW_CM_IRQ_DEFAULT_8,
        STOW_CM_IRQ_DEFAULT_8,
#if STOW_CM_IRQ_COUNT > 32
        STOW_CM_IRQ_DEFAULT_8, STOW_CM_IRQ_DEFAULT_8, STOW_CM_IRQ_DEFAULT_8,
        STOW_CM_IRQ_DEFAULT_8, STOW_CM_IRQ_DEFAULT_8, STOW_CM_IRQ_DEFAULT_8,
        STOW_CM_IRQ_DEFAULT_8, STOW_CM_IRQ_DEFAULT_8,
#endif
    },
};

void Reset_Handler(void)
{
    /* volatile: keeps GCC from turning these loops into memcpy/memset calls,
     * which a -nostdlib image does not have. */
    volatile uint32_t *dst;
    const volatile uint32_t *src;
    int status;

    for (dst = __data_start, src = __data_load; dst < __data_end; dst++, src++) {
        *dst = *src;
    }
    for (dst = __bss_start; dst < __bss_end; dst++) {
        *dst = 0u;
    }
#ifdef STOW_TEST_DIRTY_SECTIONS
    {
        volatile uint8_t *p;
        for (p = __stow_start; p < __stow_end; p++) {
            *p = 0xA5u;
        }
    }
#endif

#if STOW_CM_MAINLINE
    SCB_VTOR = (uint32_t)(uintptr_t)&stow__cm_vectors;
    /* Trap unaligned LDR/STR and integer division by zero instead of letting
     * them pass; v6-M and v8-M baseline always trap unaligned accesses and
     * have a read-only CCR. */
    SCB_CCR = SCB_CCR | CCR_UNALIGN_TRP | CCR_DIV_0_TRP;
    /* Route MemManage, BusFault and UsageFault to their own vectors (they all
     * print the fault) instead of escalating to HardFault. */
    SCB_SHCSR = SCB_SHCSR | SHCSR_MEMFAULTENA | SHCSR_BUSFAULTENA | SHCSR_USGFAULTENA
#if STOW_CM_V8M_MAIN
                | SHCSR_SECUREFAULTENA
#endif
        ;
    __asm__ volatile("dsb\n\tisb" : : : "memory");
#endif
#if STOW_CM_V8M_MAIN
    /* The stack may grow down to the end of the last RAM section; one word
     * further is a UsageFault (STKOF) instead of a silently corrupted .stow. */
    __asm__ volatile("msr msplim, %0" : : "r"(__stack_limit) : "memory");
#endif

    status = main();
    stow_port_exit(status);
    for (;;) {
    }
}

static void write_dec(uint32_t value)
{
    char buf[10];
    size_t pos = sizeof buf;
    do {
        buf[--pos] = (char)('0' + (char)(value % 10u));
        value /= 10u;
    } while (value != 0u);
    stow_port_write(&buf[pos], sizeof buf - pos);
}

void Default_Handler(void)
{
    static const char irq[] = "\nstow: unexpected interrupt ";
    static const char exc[] = "\nstow: unexpected exception ";
    uint32_t ipsr;
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    ipsr &= 0x1FFu;
    if (ipsr >= 16u) {
        stow_port_write(irq, sizeof irq - 1u);
        write_dec(ipsr - 16u);
    } else {
        stow_port_write(exc, sizeof exc - 1u);
        write_dec(ipsr);
    }
    stow_port_write("\n", 1u);
    stow_port_exit(STOW_CM_TRAP_STATUS);
    for (;;) {
    }
}
