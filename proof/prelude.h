/* SPDX-License-Identifier: MIT */
/* proof/prelude.h - read by the analyser ahead of every file (-include).
 *
 * What Frama-C 25 (Debian 12) does not model, given the meaning the compilers
 * give it:
 *   - __builtin_mul_overflow, GCC's type-generic builtin, which lib/ calls on
 *     size_t operands only: a function with the builtin's meaning (the product
 *     modulo 2^N, and whether the exact product did not fit);
 *   - C11's _Alignof and _Alignas, which Frama-C 25 rejects: GCC's spellings,
 *     which it reads, with the same meaning;
 *   - GCC's asm statements, which the analyser takes for an assignment of any
 *     value to their outputs. lib/ has two kinds (pool_atomic.c, the lock-free
 *     path, is not analysed): STOW__OPAQUE's, an empty instruction string that
 *     keeps the compiler from turning a fill loop into a memset call and leaves
 *     its operand as it was, and the asm labels that put the options into the
 *     init functions' link names. Both mean nothing to the program's values, and
 *     the analysis reads them as nothing;
 *   - GCC's __builtin_ctz (genpool's bitmap walks on 64-bit hosts) and the
 *     heap's __builtin_clz, __builtin_clzl and __builtin_ctzl (its size
 *     classes and class bits), whose Frama-C specifications only bound the
 *     result: functions with the builtins' meaning, and an assertion that the
 *     argument is not 0 (the builtins are undefined there); __builtin_expect, which is its first
 *     argument; and __builtin_unreachable, an assertion that it is never
 *     reached (reaching it is undefined).
 */
#ifndef STOW_PROOF_PRELUDE_H
#define STOW_PROOF_PRELUDE_H
#include <stddef.h>
#include <stdint.h>
#include <limits.h>

static inline _Bool proof_mul_overflow_size(size_t a, size_t b, size_t *product)
{
    *product = a * b; /* unsigned: wraps, as the builtin stores */
    return b != 0u && a > SIZE_MAX / b;
}
#define __builtin_mul_overflow(a, b, r) proof_mul_overflow_size((a), (b), (r))

static inline int proof_ctzl(unsigned long x)
{
    int n = 0;
    //@ assert ctz_defined: x != 0;
    //@ loop unroll 64;
    while ((x & 1u) == 0u) {
        x >>= 1;
        n++;
    }
    return n;
}
static inline int proof_ctz(unsigned int x) { return proof_ctzl(x); }
#define __builtin_ctzl(x) proof_ctzl(x)
#define __builtin_ctz(x) proof_ctz(x)

static inline int proof_clzl(unsigned long x)
{
    int n = 0;
    //@ assert clz_defined: x != 0;
    //@ loop unroll 64;
    while ((x & (~0ul ^ (~0ul >> 1))) == 0u) {
        x <<= 1;
        n++;
    }
    return n;
}
/* the bits of unsigned long above an unsigned int's, less */
static inline int proof_clz(unsigned int x)
{
    return proof_clzl(x) - (int)((sizeof(unsigned long) - sizeof(unsigned int)) * CHAR_BIT);
}
#define __builtin_clzl(x) proof_clzl(x)
#define __builtin_clz(x) proof_clz(x)
#define __builtin_expect(x, c) (x)
static inline void proof_unreachable(void)
{
    //@ assert unreachable: \false;
}
#define __builtin_unreachable() proof_unreachable()
#define _Alignof __alignof__
#define _Alignas(n) __attribute__((aligned(n)))
#define __asm__(...)
#endif
