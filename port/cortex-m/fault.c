/* SPDX-License-Identifier: MIT */
/* port/cortex-m/fault.c - fault reporter of the Cortex-M port.
 *
 * HardFault (and MemManage, BusFault, UsageFault, SecureFault where the core has
 * them) print the stacked PC, LR and xPSR, on v7-M / v8-M mainline also CFSR,
 * HFSR, MMFAR and BFAR with the names of the status bits that are set, then end
 * the program with status 2 through stow_port_exit(). Output goes through
 * stow_port_write(), so it reaches whatever the image points output at (with
 * semihost.c and no debugger serving it, the report's own BKPT faults again and
 * the core locks up).
 *
 * Linking. The handlers here are strong definitions that replace the weak
 * aliases of a startup file's vector table (targets/cortex-m/startup.c, or a
 * vendor's startup_<chip>.s). As an object file that always works. From a static
 * archive it does not by itself: the vector table's reference to
 * HardFault_Handler is already satisfied by the weak alias, so the linker has no
 * reason to take fault.o out of the archive, and -u HardFault_Handler does not
 * help either once the startup object has defined it. Ask for a symbol only this
 * file defines instead:
 *
 *     -Wl,-u,stow_cm_fault_report
 *
 * LTO. The naked entry reaches stow_cm_fault_report() from assembly, where
 * link-time optimisation cannot see the reference; "used" keeps the function,
 * under its own name and externally visible, in every LTO partition.
 */
#include <stddef.h>
#include <stdint.h>

#include "stow/port.h"
#include "writer.h"

#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || \
    defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
#define STOW_CM_HAVE_CFSR 1
#else
#define STOW_CM_HAVE_CFSR 0 /* v6-M, v8-M baseline: HardFault only, no status */
#endif

#define STOW_CM_FAULT_STATUS 2

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))
#define SCB_CFSR  REG32(0xE000ED28u)
#define SCB_HFSR  REG32(0xE000ED2Cu)
#define SCB_MMFAR REG32(0xE000ED34u)
#define SCB_BFAR  REG32(0xE000ED38u)

/* The C half of the handler: frame is the exception frame, exc_return the
 * EXC_RETURN value. Also the symbol to name with -u (see above). */
void stow_cm_fault_report(const uint32_t *frame, uint32_t exc_return);

/* Entry: hands the exception frame (on MSP or PSP, as EXC_RETURN bit 2 says) and
 * EXC_RETURN to the C report. Naked, so the frame is found before anything is
 * pushed; written in Thumb-1 so that it also assembles for v6-M (where GCC
 * hands inline asm to the assembler in divided syntax unless told). */
__attribute__((naked)) void HardFault_Handler(void);
__attribute__((naked)) void HardFault_Handler(void)
{
    __asm__ volatile(
        ".syntax unified\n\t"
        "movs r0, #4\n\t"
        "mov  r1, lr\n\t"
        "tst  r0, r1\n\t"
        "bne  1f\n\t"
        "mrs  r0, msp\n\t"
        "b    2f\n"
        "1:\n\t"
        "mrs  r0, psp\n"
        "2:\n\t"
        "ldr  r2, =stow_cm_fault_report\n\t"
        "bx   r2\n\t"
        ".ltorg\n");
}

void MemManage_Handler(void) __attribute__((alias("HardFault_Handler")));
void BusFault_Handler(void) __attribute__((alias("HardFault_Handler")));
void UsageFault_Handler(void) __attribute__((alias("HardFault_Handler")));
void SecureFault_Handler(void) __attribute__((alias("HardFault_Handler")));

static void write_reg(const char *name, uint32_t value)
{
    stow__cm_write_text(name);
    stow__cm_write_hex(value);
}

static const char *exception_name(uint32_t number)
{
    switch (number) {
    case 2u: return "NMI";
    case 3u: return "HardFault";
    case 4u: return "MemManage";
    case 5u: return "BusFault";
    case 6u: return "UsageFault";
    case 7u: return "SecureFault";
    default: return "exception";
    }
}

#if STOW_CM_HAVE_CFSR
struct fault_bit {
    uint8_t bit;
    char name[13];
};

/* cppcheck-suppress misra-c2012-8.9 ; MISRA D12 */
static const struct fault_bit cfsr_bits[] = {
    {0u, "IACCVIOL"},    {1u, "DACCVIOL"},    {3u, "MUNSTKERR"},  {4u, "MSTKERR"},
    {5u, "MLSPERR"},     {7u, "MMARVALID"},   {8u, "IBUSERR"},    {9u, "PRECISERR"},
    {10u, "IMPRECISERR"}, {11u, "UNSTKERR"},  {12u, "STKERR"},    {13u, "LSPERR"},
    {15u, "BFARVALID"},  {16u, "UNDEFINSTR"}, {17u, "INVSTATE"},  {18u, "INVPC"},
    {19u, "NOCP"},       {20u, "STKOF"},      {24u, "UNALIGNED"}, {25u, "DIVBYZERO"},
};

/* cppcheck-suppress misra-c2012-8.9 ; MISRA D12 */
static const struct fault_bit hfsr_bits[] = {
    {1u, "VECTTBL"}, {30u, "FORCED"}, {31u, "DEBUGEVT"},
};

/* Names the set bits; returns how many it named. */
static size_t write_bits(uint32_t value, const struct fault_bit *bits, size_t count)
{
    size_t i;
    size_t named = 0u;
    for (i = 0u; i < count; i++) {
        if ((value & (1u << bits[i].bit)) != 0u) {
            stow__cm_write_text("  ");
            stow__cm_write_text(bits[i].name);
            named++;
        }
    }
    return named;
}
#endif

__attribute__((used)) void stow_cm_fault_report(const uint32_t *frame, uint32_t exc_return)
{
    uint32_t ipsr;
    int stacked = 1;
#if STOW_CM_HAVE_CFSR
    uint32_t cfsr = SCB_CFSR;
    uint32_t hfsr = SCB_HFSR;
    uint32_t mmfar = SCB_MMFAR;
    uint32_t bfar = SCB_BFAR;
    /* A failed push left no frame to read (reading it could fault again). */
    if ((cfsr & ((UINT32_C(1) << 4) | (UINT32_C(1) << 12))) != 0u) {
        stacked = 0;
    }
#endif
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    ipsr &= 0x1FFu;

    stow__cm_write_text("\nstow: fault: ");
    stow__cm_write_text(exception_name(ipsr));
    stow__cm_write_text(" (exception ");
    stow__cm_write_dec(ipsr);
    stow__cm_write_text(")\n");
    if (stacked != 0) {
        write_reg("  pc ", frame[6]);
        write_reg("  lr ", frame[5]);
        write_reg("  xpsr ", frame[7]);
        stow__cm_write_text("\n");
    } else {
        stow__cm_write_text("  (no exception frame: the stack push failed)\n");
    }
    write_reg("  sp ", (uint32_t)(uintptr_t)frame);
    write_reg("  exc_return ", exc_return);
    stow__cm_write_text("\n");
#if STOW_CM_HAVE_CFSR
    write_reg("  cfsr ", cfsr);
    write_reg("  hfsr ", hfsr);
    write_reg("  mmfar ", mmfar);
    write_reg("  bfar ", bfar);
    stow__cm_write_text("\n");
    {
        size_t named = write_bits(cfsr, cfsr_bits, sizeof cfsr_bits / sizeof cfsr_bits[0]);
        named += write_bits(hfsr, hfsr_bits, sizeof hfsr_bits / sizeof hfsr_bits[0]);
        if (named != 0u) {
            stow__cm_write_text("\n");
        }
    }
#endif
    stow_port_exit(STOW_CM_FAULT_STATUS);
}
