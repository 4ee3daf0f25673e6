/* SPDX-License-Identifier: MIT */
/* targets/riscv/mem.c - memcpy, memmove, memset and memcmp for RISC-V test,
 * benchmark and demo images, which link no C library.
 *
 * GCC expects these four of any freestanding environment, and for RV32 at -Os
 * it copies every structure or array of more than one word by calling memcpy
 * (its size-optimised move ratio is 1). lib/ itself calls none of them at any
 * optimisation level (make check-freestanding proves it at -O2 and -Os); the
 * test code and the port's argument blocks do.
 *
 * Byte loops through volatile pointers, so that GCC cannot recognise them as the
 * very functions they define and call themselves.
 */
#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    volatile unsigned char *d = (volatile unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    for (size_t i = 0u; i < n; i++) {
        d[i] = s[i];
    }
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    volatile unsigned char *d = (volatile unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    if (d < s) {
        for (size_t i = 0u; i < n; i++) {
            d[i] = s[i];
        }
    } else {
        for (size_t i = n; i > 0u; i--) {
            d[i - 1u] = s[i - 1u];
        }
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    volatile unsigned char *d = (volatile unsigned char *)dst;
    for (size_t i = 0u; i < n; i++) {
        d[i] = (unsigned char)c;
    }
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const volatile unsigned char *x = (const volatile unsigned char *)a;
    const volatile unsigned char *y = (const volatile unsigned char *)b;
    for (size_t i = 0u; i < n; i++) {
        if (x[i] != y[i]) {
            return x[i] < y[i] ? -1 : 1;
        }
    }
    return 0;
}
