/* SPDX-License-Identifier: MIT */
/* misra/lp64.h - the same as ilp32.h for the 64-bit host (x86-64 or AArch64
 * Linux with gcc and glibc). */
#define CHAR_BIT 8
#define UINT_MAX 0xffffffffU
#define ULONG_MAX 0xffffffffffffffffUL
#define SIZE_MAX 0xffffffffffffffffUL
#define UINTPTR_MAX 0xffffffffffffffffUL
#define UINT32_MAX 0xffffffffU
#define UINT32_C(c) c##U
#define UINT64_C(c) c##UL
