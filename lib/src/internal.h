/* internal.h - helpers shared by the files in lib/src; not part of the public API.
 *
 * Contract checks follow one rule (DESIGN section 3): a violated check reports to
 * the port's assert hook and, should the hook return, makes the public function
 * return its error value before it has changed anything. So every check sits at
 * the top of a function, ahead of the first store.
 */
#ifndef STOW_INTERNAL_H
#define STOW_INTERNAL_H

#include "stow/config.h"

#if STOW_CHECK_LEVEL >= 1
/* Bail out of the calling function with retval when cond is false. */
#define STOW__REQUIRE(cond, retval)                                    \
    do {                                                               \
        if (!(cond)) {                                                 \
            stow_port_assert_failed(#cond, __FILE__, __LINE__);        \
            return retval;                                             \
        }                                                              \
    } while (0)
#define STOW__REQUIRE_VOID(cond)                                       \
    do {                                                               \
        if (!(cond)) {                                                 \
            stow_port_assert_failed(#cond, __FILE__, __LINE__);        \
            return;                                                    \
        }                                                              \
    } while (0)
#else
/* Level 0: no checks; helpers only checks use are compiled out with them. */
#define STOW__REQUIRE(cond, retval) ((void)0)
#define STOW__REQUIRE_VOID(cond) ((void)0)
#endif

/* Keeps a rare path out of its caller, so the common path stays a leaf. */
#if defined(__GNUC__)
#define STOW__NOINLINE __attribute__((noinline))
#else
#define STOW__NOINLINE
#endif

/* Byte written into memory that was given back, at check level 2. */
#define STOW__POISON 0xDDu

/* Not memset/memcpy: lib/ must link without libc. */
static inline void stow__fill(void *dst, unsigned char value, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    for (size_t i = 0; i < n; i++) {
        d[i] = value;
    }
}

static inline void stow__copy(void *dst, const void *src, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    for (size_t i = 0; i < n; i++) {
        d[i] = s[i];
    }
}

/* True when every one of the n bytes at p equals value. */
static inline bool stow__all_bytes(const void *p, unsigned char value, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++) {
        if (b[i] != value) {
            return false;
        }
    }
    return true;
}

/* Memory a container takes back (free, remove, rewind, reset, clear). At check
 * level 2 it is filled with 0xDD, so that a write through a stale pointer shows
 * when the memory is handed out again (see stow__poison_intact). Every module
 * gives memory back through here, so that what happens to it is decided in one
 * place. */
static inline void stow__release(void *p, size_t n)
{
#if STOW_CHECK_LEVEL >= 2
    stow__fill(p, STOW__POISON, n);
#else
    (void)p;
    (void)n;
#endif
}

/* True when the n bytes at p, released earlier, still hold their poison. */
static inline bool stow__poison_intact(const void *p, size_t n)
{
    return stow__all_bytes(p, STOW__POISON, n);
}

static inline bool stow__is_pow2(size_t x) { return x != 0u && (x & (x - 1u)) == 0u; }

static inline bool stow__is_aligned(const void *p, size_t align)
{
    return ((uintptr_t)p & (uintptr_t)(align - 1u)) == 0u;
}

/* Rounds n up to a multiple of align (a power of two); 0 if that overflows. */
static inline size_t stow__round_up(size_t n, size_t align)
{
    size_t r = (n + (align - 1u)) & ~(align - 1u);
    return r < n ? 0u : r;
}

#endif /* STOW_INTERNAL_H */
