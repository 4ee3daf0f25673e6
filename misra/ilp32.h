/* SPDX-License-Identifier: MIT */
/* misra/ilp32.h - what cppcheck reads ahead of every file for the 32-bit
 * targets (Cortex-M with arm-none-eabi-gcc and newlib, RV32 with
 * riscv64-unknown-elf-gcc): the values of the freestanding headers' macros that
 * lib/ and the ports test with #if or use, as those toolchains define them.
 * cppcheck does not read the compiler's own headers; without these it would take
 * UINTPTR_MAX and the like as undefined (0) and check the wrong branch. */
#define CHAR_BIT 8
#define UINT_MAX 0xffffffffU
#define ULONG_MAX 0xffffffffUL
#define SIZE_MAX 0xffffffffU
#define UINTPTR_MAX 0xffffffffU
#define UINT32_MAX 0xffffffffUL
#define UINT32_C(c) c##UL
#define UINT64_C(c) c##ULL
