/* SPDX-License-Identifier: MIT */
/* board.c - see board.h. */
#include "board.h"

#include <stddef.h>

#include "FreeRTOS.h"
#include "task.h"

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

static void (*periodic)(void);

#if defined(__arm__) || defined(__thumb__)

#if defined(__ARM_FP)
const char board_name[] = "mps2-an386 (Cortex-M4F, ARM_CM4F port, hard float)";
#else
const char board_name[] = "mps2-an385 (Cortex-M3, ARM_CM3 port)";
#endif

#define SCB_VTOR REG32(0xE000ED08u)
#define SCB_CPACR REG32(0xE000ED88u)
#define NVIC_ISER REG32(0xE000E100u)
#define NVIC_ISPR REG32(0xE000E200u)
#define NVIC_IPR(n) (*(volatile uint8_t *)(uintptr_t)(0xE000E400u + (n)))

/* CMSDK APB timer 0 (QEMU's mps2 boards: 25 MHz, IRQ 8). */
#define TIMER0_CTRL REG32(0x40000000u)
#define TIMER0_RELOAD REG32(0x40000008u)
#define TIMER0_VALUE REG32(0x40000004u)
#define TIMER0_INTCLEAR REG32(0x4000000Cu)
#define TIMER0_IRQ 8u
#define TIMER_CTRL_ENABLE 1u
#define TIMER_CTRL_IRQ 8u
#define TIMER_HZ 25000000u
/* Below the kernel's configMAX_SYSCALL_INTERRUPT_PRIORITY (0x40): it may call
 * FromISR functions and stow's _isr calls. */
#define TIMER0_PRIO 0x80u

/* The 16 exceptions and 48 external interrupts (QEMU's mps2 boards have 32),
 * aligned as VTOR requires for 64 entries. */
#define VECTORS 64u
static void (*ram_vectors[VECTORS])(void) __attribute__((aligned(256)));

static void timer0_handler(void)
{
    TIMER0_INTCLEAR = 1u;
    if (periodic != NULL) {
        periodic();
    }
}

void board_init(void)
{
#if defined(__ARM_FP)
    /* CP10 and CP11 full access, before any floating-point instruction. */
    SCB_CPACR = SCB_CPACR | (0xFu << 20);
#endif
    void (*const *rom)(void) = (void (*const *)(void))(uintptr_t)SCB_VTOR;
    for (unsigned i = 0u; i < VECTORS; i++) {
        ram_vectors[i] = rom[i];
    }
    __asm__ volatile("dsb" : : : "memory");
    SCB_VTOR = (uint32_t)(uintptr_t)ram_vectors;
    __asm__ volatile("dsb\n\tisb" : : : "memory");
}

void board_irq_install(unsigned irq, void (*handler)(void), uint8_t prio)
{
    ram_vectors[16u + irq] = handler;
    NVIC_IPR(irq) = prio;
    __asm__ volatile("dsb" : : : "memory");
    NVIC_ISER = 1u << irq;
    __asm__ volatile("dsb\n\tisb" : : : "memory");
}

void board_irq_pend(unsigned irq)
{
    NVIC_ISPR = 1u << irq;
    __asm__ volatile("dsb\n\tisb" : : : "memory");
}

uint32_t board_basepri(void)
{
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_8M_MAIN__)
    uint32_t v;
    __asm__ volatile("mrs %0, basepri" : "=r"(v));
    return v;
#else
    return 0u;
#endif
}

uint32_t board_primask(void)
{
    uint32_t v;
    __asm__ volatile("mrs %0, primask" : "=r"(v));
    return v;
}

void board_periodic(void (*handler)(void), uint32_t period_us)
{
    TIMER0_CTRL = 0u;
    periodic = handler;
    if (handler == NULL) {
        return;
    }
    board_irq_install(TIMER0_IRQ, timer0_handler, TIMER0_PRIO);
    TIMER0_RELOAD = TIMER_HZ / 1000000u * period_us - 1u;
    TIMER0_VALUE = TIMER_HZ / 1000000u * period_us - 1u;
    TIMER0_CTRL = TIMER_CTRL_ENABLE | TIMER_CTRL_IRQ;
}

#elif defined(__riscv)

const char board_name[] = "riscv-virt (RV32IMAC, RISC-V port)";

void freertos_risc_v_trap_handler(void);

static uint32_t periodic_ticks; /* the tick hook calls periodic every this many ticks */
static uint32_t tick_count;

void board_init(void)
{
    __asm__ volatile("csrw mtvec, %0" : : "r"(freertos_risc_v_trap_handler) : "memory");
}

void board_periodic(void (*handler)(void), uint32_t period_us)
{
    taskENTER_CRITICAL();
    uint32_t ticks = (uint32_t)((uint64_t)period_us * configTICK_RATE_HZ / 1000000u);
    periodic_ticks = ticks != 0u ? ticks : 1u;
    tick_count = 0u;
    periodic = handler;
    taskEXIT_CRITICAL();
}

void vApplicationTickHook(void);
void vApplicationTickHook(void)
{
    if (periodic != NULL && ++tick_count >= periodic_ticks) {
        tick_count = 0u;
        periodic();
    }
}

bool board_interrupts_on(void)
{
    uint32_t mstatus;
    __asm__ volatile("csrr %0, mstatus" : "=r"(mstatus));
    return (mstatus & 0x8u) != 0u;
}

#else
#error "examples/freertos/board.c: mps2 (Arm) or riscv-virt only"
#endif
