/* SPDX-License-Identifier: MIT */
/* targets/riscv/trap_check.c - proves that a RISC-V test image fails on a
 * misaligned access, an access fault and an illegal instruction: main() makes
 * the one STOW_TRAP_CHECK names (1, 2 or 3); the Makefile expects the run to end
 * with the trap reporter's line and status 2. QEMU carries out misaligned loads
 * without trapping, so case 1 is caught by the test images' -fsanitize=alignment
 * check, which is what this proves is in force.
 */
#include <stdint.h>

#include "stow/port.h"

static uint32_t words[2] = {0x01020304u, 0x05060708u};

/* noipa: the load stays a 32-bit load of whatever address it is given. */
__attribute__((noipa)) static uint32_t load32(const void *p)
{
    return *(const volatile uint32_t *)p;
}

int main(void)
{
    uint32_t v = 0u;
    stow_port_write("trap check: ", 12);
#if STOW_TRAP_CHECK == 1
    stow_port_write("misaligned load\n", 16);
    v = load32((const unsigned char *)words + 1);
#elif STOW_TRAP_CHECK == 2
    stow_port_write("load from no memory\n", 20);
    v = load32(&words[1]); /* aligned: no trap */
    v = load32((const void *)(uintptr_t)0x70000000u); /* unmapped on virt and sifive_e */
#else
    stow_port_write("illegal instruction\n", 20);
    v = load32(&words[0]); /* aligned: no trap */
    __asm__ volatile(".word 0" : : : "memory"); /* all-zero: defined illegal */
#endif
    stow_port_write("no trap\n", 8);
    return (int)(v & 0u);
}
