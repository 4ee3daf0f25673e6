/* SPDX-License-Identifier: MIT */
/* mem.c - memset and memcpy for the C++ suite's board images, which link no C
 * library (-nostdlib). GCC requires them of a freestanding environment: it
 * calls them for code the program asks for (value-initialising, copying or
 * zeroing a large object, an array of handles), whatever the library does.
 * stow's own code needs neither (lib/ by `make check-freestanding`, stow.hpp
 * by the cxx-freestanding check); a firmware has them from its C library.
 * The loops go through an empty asm on the pointer, so that GCC does not turn
 * them back into calls to themselves. */
#include <stddef.h>

void *memset(void *dst, int value, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);

void *memset(void *dst, int value, size_t n)
{
    unsigned char *d = dst;
    for (size_t i = 0; i < n; i++) {
        d[i] = (unsigned char)value;
        __asm__("" : "+r"(d));
    }
    return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = 0; i < n; i++) {
        d[i] = s[i];
        __asm__("" : "+r"(d));
    }
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d < s) {
        return memcpy(dst, src, n);
    }
    while (n > 0u) {
        n--;
        d[n] = s[n];
        __asm__("" : "+r"(d));
    }
    return dst;
}
