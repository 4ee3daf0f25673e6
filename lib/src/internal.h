/* SPDX-License-Identifier: MIT */
/* internal.h - helpers shared by the files in lib/src; not part of the public API.
 *
 * Contract checks follow the rule every header states for a contract violation:
 * a violated check reports to the port's assert hook and, should the hook
 * return, makes the public function return its error value before it has
 * changed anything. So every check sits at the top of a function, ahead of the
 * first store.
 */
#ifndef STOW_INTERNAL_H
#define STOW_INTERNAL_H

#include "stow/config.h"

/* STOW__CHECK(cond, what, retval): a contract check at the top of a public
 * function. When cond is false it reports `what` to the port's assert hook and
 * returns retval. `what` is the text a user reads: the public function's name
 * and the misuse in plain words, "stow_pool_free: double free". Level 0 compiles
 * the checks out, with the helpers that only they use. */
#if STOW_CHECK_LEVEL >= 1
#define STOW__CHECK(cond, what, retval)                                       \
    do {                                                                      \
        if (!(cond)) {                                                        \
            stow_port_assert_failed(STOW_CHECK_TEXT(what), STOW__FILE, __LINE__); \
            return retval;                                                    \
        }                                                                     \
    } while (0)
#define STOW__CHECK_VOID(cond, what)                                          \
    do {                                                                      \
        if (!(cond)) {                                                        \
            stow_port_assert_failed(STOW_CHECK_TEXT(what), STOW__FILE, __LINE__); \
            return;                                                           \
        }                                                                     \
    } while (0)
/* The same for a misuse found past the top, by a helper: report only. */
#define STOW__REPORT(what) stow_port_assert_failed(STOW_CHECK_TEXT(what), STOW__FILE, __LINE__)
#else
#define STOW__CHECK(cond, what, retval) ((void)0)
#define STOW__CHECK_VOID(cond, what) ((void)0)
#define STOW__REPORT(what) ((void)0)
#endif

/* The library's half of the configuration check (config.h): it defines the
 * symbols for the options it is built with. Every module defines them, weakly,
 * so that whichever modules a program links, the symbols are there once. */
#if STOW__HAVE_GUARD
__attribute__((weak)) const char STOW__GUARD_SYMBOL(STOW__GUARD_LEVEL) = 1;
__attribute__((weak)) const char STOW__GUARD_SYMBOL(STOW__GUARD_INDEX) = 1;
__attribute__((weak)) const char STOW__GUARD_SYMBOL(STOW__GUARD_OVERFLOW) = 1;
#endif

/* ... and what it was built with, for the link error's reader. A program built
 * with other options refers to a symbol the library does not define
 * (stow_config_STOW_CHECK_LEVEL_2, stow_pool_init__STOW_CHECK_LEVEL_2__...): the
 * undefined reference names the program's value. For every such symbol that
 * differs from the library's in one option, the library carries a section
 * .gnu.warning.<symbol>, whose text GNU ld prints where the program refers to it:
 *     user.o: warning: stow: this file was built with STOW_CHECK_LEVEL_2, the
 *     library with STOW_CHECK_LEVEL_1; build both with the same options
 *     user.o: undefined reference to `stow_config_STOW_CHECK_LEVEL_2'
 * The sections are not allocated (no byte of the image), and a link without a
 * mismatch never prints them. Each module carries the notes of the per-option
 * symbols (a DEFINE's references) and of its own init function (an init call's),
 * found by the module header its .c file includes before this one. gold and lld
 * ignore the notes: with them only the program's value is named. ELF only. */
#if STOW__HAVE_GUARD && defined(__ELF__)
#define STOW__NOTE(symbol, mine, lib)                                                         \
    ".ifnc " mine "," lib "\n"                                                               \
    ".pushsection .gnu.warning." symbol ",\"\",%progbits\n"                                  \
    ".ascii \"stow: this file was built with " mine ", the library with " lib                \
    "; build both with the same options\"\n"                                                 \
    ".popsection\n"                                                                          \
    ".endif\n"
#define STOW__LIB_LEVEL STOW__STR(STOW__GUARD_LEVEL)
#define STOW__LIB_INDEX STOW__STR(STOW__GUARD_INDEX)
#define STOW__LIB_OVERFLOW STOW__STR(STOW__GUARD_OVERFLOW)
/* Every value of each option, as its guard symbol spells it: X(arg, "value"). */
#define STOW__LEVELS(X, a) X(a, "STOW_CHECK_LEVEL_0") X(a, "STOW_CHECK_LEVEL_1") X(a, "STOW_CHECK_LEVEL_2")
#define STOW__OVERFLOWS(X, a)                                                                 \
    X(a, "STOW_GENERATION_OVERFLOW_WRAP") X(a, "STOW_GENERATION_OVERFLOW_RETIRE")
#define STOW__INDEX_BITS(X, a)                                                                \
    X(a, "STOW_HANDLE_INDEX_BITS_1") X(a, "STOW_HANDLE_INDEX_BITS_2")                         \
    X(a, "STOW_HANDLE_INDEX_BITS_3") X(a, "STOW_HANDLE_INDEX_BITS_4")                         \
    X(a, "STOW_HANDLE_INDEX_BITS_5") X(a, "STOW_HANDLE_INDEX_BITS_6")                         \
    X(a, "STOW_HANDLE_INDEX_BITS_7") X(a, "STOW_HANDLE_INDEX_BITS_8")                         \
    X(a, "STOW_HANDLE_INDEX_BITS_9") X(a, "STOW_HANDLE_INDEX_BITS_10")                        \
    X(a, "STOW_HANDLE_INDEX_BITS_11") X(a, "STOW_HANDLE_INDEX_BITS_12")                       \
    X(a, "STOW_HANDLE_INDEX_BITS_13") X(a, "STOW_HANDLE_INDEX_BITS_14")                       \
    X(a, "STOW_HANDLE_INDEX_BITS_15") X(a, "STOW_HANDLE_INDEX_BITS_16")                       \
    X(a, "STOW_HANDLE_INDEX_BITS_17") X(a, "STOW_HANDLE_INDEX_BITS_18")                       \
    X(a, "STOW_HANDLE_INDEX_BITS_19") X(a, "STOW_HANDLE_INDEX_BITS_20")                       \
    X(a, "STOW_HANDLE_INDEX_BITS_21") X(a, "STOW_HANDLE_INDEX_BITS_22")                       \
    X(a, "STOW_HANDLE_INDEX_BITS_23") X(a, "STOW_HANDLE_INDEX_BITS_24")                       \
    X(a, "STOW_HANDLE_INDEX_BITS_25") X(a, "STOW_HANDLE_INDEX_BITS_26")                       \
    X(a, "STOW_HANDLE_INDEX_BITS_27") X(a, "STOW_HANDLE_INDEX_BITS_28")                       \
    X(a, "STOW_HANDLE_INDEX_BITS_29") X(a, "STOW_HANDLE_INDEX_BITS_30")
/* A DEFINE's per-option symbols; one asm statement per note (ISO C's 4095-byte
 * bound on a string literal). */
#define STOW__NOTE_AT(symbol, v, lib) __asm__(STOW__NOTE(symbol, v, lib));
#define STOW__NOTE_LEVEL(prefix, v) STOW__NOTE_AT(prefix v, v, STOW__LIB_LEVEL)
#define STOW__NOTE_INDEX(prefix, v) STOW__NOTE_AT(prefix v, v, STOW__LIB_INDEX)
#define STOW__NOTE_OVERFLOW(prefix, v) STOW__NOTE_AT(prefix v, v, STOW__LIB_OVERFLOW)
STOW__LEVELS(STOW__NOTE_LEVEL, "stow_config_")
STOW__INDEX_BITS(STOW__NOTE_INDEX, "stow_config_")
STOW__OVERFLOWS(STOW__NOTE_OVERFLOW, "stow_config_")
/* An init function's link name (config.h, STOW__GUARDED) with one option changed.
 * The heap's init functions spell STOW_HEAP_TRACE too, after the others
 * (stow/heap.h, STOW__HEAP_GUARDED); heap.c includes no other module's header. */
#if defined(STOW_HEAP_H)
#define STOW__LIB_HEAP_TRACE STOW__STR(STOW__HEAP_GUARD_TRACE)
#define STOW__INIT_TAIL "__" STOW__LIB_HEAP_TRACE
#else
#define STOW__INIT_TAIL ""
#endif
#define STOW__NOTE_INIT_LEVEL(fn, v)                                                          \
    STOW__NOTE_AT(fn "__" v "__" STOW__LIB_INDEX "__" STOW__LIB_OVERFLOW STOW__INIT_TAIL, v,  \
                  STOW__LIB_LEVEL)
#define STOW__NOTE_INIT_INDEX(fn, v)                                                          \
    STOW__NOTE_AT(fn "__" STOW__LIB_LEVEL "__" v "__" STOW__LIB_OVERFLOW STOW__INIT_TAIL, v,  \
                  STOW__LIB_INDEX)
#define STOW__NOTE_INIT_OVERFLOW(fn, v)                                                       \
    STOW__NOTE_AT(fn "__" STOW__LIB_LEVEL "__" STOW__LIB_INDEX "__" v STOW__INIT_TAIL, v,     \
                  STOW__LIB_OVERFLOW)
#define STOW__NOTES_INIT(fn)                                                                  \
    STOW__LEVELS(STOW__NOTE_INIT_LEVEL, fn)                                                   \
    STOW__INDEX_BITS(STOW__NOTE_INIT_INDEX, fn)                                               \
    STOW__OVERFLOWS(STOW__NOTE_INIT_OVERFLOW, fn)
#if defined(STOW_ARENA_H)
STOW__NOTES_INIT("stow_arena_init")
#endif
#if defined(STOW_POOL_H)
STOW__NOTES_INIT("stow_pool_init")
#endif
#if defined(STOW_GENPOOL_H)
STOW__NOTES_INIT("stow_genpool_init")
#endif
#if defined(STOW_SLOTMAP_H)
STOW__NOTES_INIT("stow_slotmap_init")
#endif
#if defined(STOW_PACKED_H)
STOW__NOTES_INIT("stow_packed_init")
#endif
#if defined(STOW_HEAP_H)
STOW__NOTES_INIT("stow_heap_init")
STOW__NOTES_INIT("stow_heap_init_bounded")
/* STOW_HEAP_TRACE: a DEFINE's symbol, and the init functions' names. */
#define STOW__HEAP_TRACES(X, a) X(a, "STOW_HEAP_TRACE_0") X(a, "STOW_HEAP_TRACE_1")
#define STOW__NOTE_HEAP_TRACE(prefix, v) STOW__NOTE_AT(prefix v, v, STOW__LIB_HEAP_TRACE)
#define STOW__NOTE_INIT_HEAP_TRACE(fn, v)                                                     \
    STOW__NOTE_AT(fn "__" STOW__LIB_LEVEL "__" STOW__LIB_INDEX "__" STOW__LIB_OVERFLOW "__" v, \
                  v, STOW__LIB_HEAP_TRACE)
STOW__HEAP_TRACES(STOW__NOTE_HEAP_TRACE, "stow_config_")
STOW__HEAP_TRACES(STOW__NOTE_INIT_HEAP_TRACE, "stow_heap_init")
STOW__HEAP_TRACES(STOW__NOTE_INIT_HEAP_TRACE, "stow_heap_init_bounded")
#endif
#endif

/* STOW__REGISTRY_KIND(kind, type, in_bytes): the module's entry for the report
 * (stow/report.h), its stats() and check() behind functions that take the
 * container as const void *. One line at the end of each module's .c file, so
 * that only the kinds a program uses (through a DEFINE's registry entry or
 * STOW_REGISTER) are linked. */
#define STOW__REGISTRY_KIND(kind, type, in_bytes)                                       \
    static void stow__##kind##_registry_stats(const void *c, stow_stats_t *out)  \
    {                                                                            \
        stow_##kind##_stats((const type *)c, out);                               \
    }                                                                            \
    static bool stow__##kind##_registry_check(const void *c)                     \
    {                                                                            \
        return stow_##kind##_check((const type *)c);                             \
    }                                                                            \
    const stow_registry_kind_t stow_registry_kind_##kind = {                     \
        #kind, stow__##kind##_registry_stats, stow__##kind##_registry_check, (in_bytes)}

/* Keeps a rare path out of its caller, so the common path stays a leaf.
 * MAY_ALIAS lets a word-sized lvalue copy an object of any type. */
#if defined(__GNUC__)
#define STOW__NOINLINE __attribute__((noinline))
#define STOW__MAY_ALIAS __attribute__((may_alias))
#else
#define STOW__NOINLINE
#define STOW__MAY_ALIAS
#endif

/* Byte written into memory that was given back, at check level 2. */
#define STOW__POISON 0xDDu

/* STOW__OPAQUE(var): an empty statement after which the compiler no longer
 * knows var's value. lib/ must link without libc, and GCC (without
 * -ffreestanding) and clang recognise a loop that fills or copies memory and
 * replace it with a call to memset or memcpy. With this statement in the loop
 * body, on the pointer the loop writes through, the loop no longer writes a
 * range the compiler can name, so it stays a loop, whatever the flags. It emits
 * no instruction and clobbers no memory: the loop's code is what it was
 * (on Cortex-M, which has no vector unit, exactly; on a host it forgoes
 * vectorising these fills, which only alloc_zeroed and level 2 make long). */
#if defined(__GNUC__)
#define STOW__OPAQUE(var) __asm__("" : "+r"(var))
#else
#define STOW__OPAQUE(var) ((void)0)
#endif

/* Built with -fsanitize=address (gcc defines __SANITIZE_ADDRESS__, clang answers
 * __has_feature(address_sanitizer)): see "AddressSanitizer" below. STOW__NO_ASAN
 * marks a function whose memory accesses the sanitizer does not check. */
#if defined(__SANITIZE_ADDRESS__)
#define STOW__ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STOW__ASAN 1
#endif
#endif
#ifndef STOW__ASAN
#define STOW__ASAN 0
#endif
#if STOW__ASAN
#define STOW__NO_ASAN __attribute__((no_sanitize_address))
#else
#define STOW__NO_ASAN
#endif

/* Not memset/memcpy: lib/ must link without libc. The library's own fills are
 * not checked by AddressSanitizer (the heap fills its own headers, which it
 * keeps poisoned), and carry the attribute so that they inline into functions
 * that carry it too. */
static STOW__NO_ASAN inline void stow__fill(void *dst, unsigned char value, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    unsigned char *end = d + n;
    while (d != end) {
        *d++ = value;
        STOW__OPAQUE(d);
    }
}

static inline void stow__copy(void *dst, const void *src, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    unsigned char *end = d + n;
    while (d != end) {
        *d++ = *s++;
        STOW__OPAQUE(d);
    }
}

/* Item copies a word at a time: the containers' items are whole words long and
 * word-aligned more often than not. The words may alias whatever type the caller
 * stored. n is a multiple of 4 and not 0, and both ends are 4-aligned. A 16- or
 * 8-byte item (a vector, a particle, a pair) is copied in one step: on ARM as a
 * struct of four or two words, which GCC copies with one LDM and one STM (4
 * instructions with the test on Cortex-M4, where the loop takes 17 for 16 bytes;
 * separate loads are not merged); elsewhere as separate loads then stores, since
 * there a struct assignment may become a call of memcpy. Other sizes go through
 * the loop, 8 bytes at a time on 64-bit hosts when both ends and n allow it. */
typedef uint32_t STOW__MAY_ALIAS stow__word_t;
#if UINTPTR_MAX > UINT32_MAX
typedef uint64_t STOW__MAY_ALIAS stow__dword_t;
#endif
#if defined(__arm__)
typedef struct {
    uint32_t w[4];
} STOW__MAY_ALIAS stow__words4_t;
typedef struct {
    uint32_t w[2];
} STOW__MAY_ALIAS stow__words2_t;
#define STOW__COPY_4_WORDS(d, s) \
    (*(stow__words4_t *)(void *)(d) = *(const stow__words4_t *)(const void *)(s))
#define STOW__COPY_2_WORDS(d, s) \
    (*(stow__words2_t *)(void *)(d) = *(const stow__words2_t *)(const void *)(s))
#else
#define STOW__COPY_4_WORDS(d, s)                                                 \
    do {                                                                         \
        uint32_t w0_ = (s)[0], w1_ = (s)[1], w2_ = (s)[2], w3_ = (s)[3];         \
        (d)[0] = w0_;                                                            \
        (d)[1] = w1_;                                                            \
        (d)[2] = w2_;                                                            \
        (d)[3] = w3_;                                                            \
    } while (0)
#define STOW__COPY_2_WORDS(d, s)                                                 \
    do {                                                                         \
        uint32_t w0_ = (s)[0], w1_ = (s)[1];                                     \
        (d)[0] = w0_;                                                            \
        (d)[1] = w1_;                                                            \
    } while (0)
#endif

static inline void stow__copy_words(void *dst, const void *src, size_t n)
{
    stow__word_t *d = (stow__word_t *)dst;
    const stow__word_t *s = (const stow__word_t *)src;
    if (n == 16u) {
        STOW__COPY_4_WORDS(d, s);
        return;
    }
    if (n == 8u) {
        STOW__COPY_2_WORDS(d, s);
        return;
    }
    const void *stop = (const unsigned char *)src + n;
#if UINTPTR_MAX > UINT32_MAX
    if ((((uintptr_t)d | (uintptr_t)s | n) & 7u) == 0u) {
        stow__dword_t *dd = (stow__dword_t *)dst;
        const stow__dword_t *ds = (const stow__dword_t *)src;
        do {
            *dd++ = *ds++;
            STOW__OPAQUE(dd);
        } while (ds != (const stow__dword_t *)stop);
        return;
    }
#endif
    do {
        *d++ = *s++;
        STOW__OPAQUE(d);
    } while (s != (const stow__word_t *)stop);
}

/* Zeroes n bytes at dst a word at a time: n a multiple of 4 and not 0, dst 4-aligned.
 * 8 bytes at a time on 64-bit hosts when dst and n allow it, as copy_words. */
static inline void stow__zero_words(void *dst, size_t n)
{
    stow__word_t *d = (stow__word_t *)dst;
    stow__word_t *end = (stow__word_t *)(void *)((unsigned char *)dst + n);
#if UINTPTR_MAX > UINT32_MAX
    if ((((uintptr_t)d | n) & 7u) == 0u) {
        stow__dword_t *dd = (stow__dword_t *)dst;
        do {
            *dd++ = 0u;
            STOW__OPAQUE(dd);
        } while (dd != (stow__dword_t *)(void *)end);
        return;
    }
#endif
    do {
        *d++ = 0u;
        STOW__OPAQUE(d);
    } while (d != end);
}

/* count * size, or 0 when it does not fit a size_t. With a compiler that has the
 * overflow builtin, on every core with a 32x32->64 multiply (UMULL: all but the
 * Thumb-1-only cores, v6-M and v8-M baseline), that builtin. On those cores, or
 * on 32-bit targets without it, neither a division nor a 64-bit multiply
 * (either would come from libgcc): in 16-bit halves, at most one of which can be
 * non-zero in each factor's top. */
static inline size_t stow__checked_product(uint32_t count, size_t size)
{
#if defined(__GNUC__) && \
    !(defined(__ARM_ARCH_ISA_THUMB) && __ARM_ARCH_ISA_THUMB == 1 && !defined(__ARM_ARCH_ISA_ARM))
    size_t product;
    return __builtin_mul_overflow((size_t)count, size, &product) ? 0u : product;
#elif SIZE_MAX <= UINT32_MAX
    uint32_t a = count, b = (uint32_t)size;
    if ((a >> 16) != 0u && (b >> 16) != 0u) {
        return 0u;
    }
    uint32_t cross = (a >> 16) * (b & 0xFFFFu) + (b >> 16) * (a & 0xFFFFu); /* one is 0 */
    uint32_t low = (a & 0xFFFFu) * (b & 0xFFFFu);
    uint32_t product = low + (cross << 16);
    return (cross >> 16) != 0u || product < low ? 0u : (size_t)product;
#else
    return count != 0u && size > SIZE_MAX / count ? 0u : (size_t)count * size;
#endif
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

/* ---- AddressSanitizer ---------------------------------------------------------
 *
 * Built with -fsanitize=address (gcc defines __SANITIZE_ADDRESS__, clang answers
 * __has_feature(address_sanitizer)), every container poisons the memory it takes
 * back (stow__release) with the sanitizer's manual poisoning interface, and
 * unpoisons it when it hands it out again (stow__acquire): a read or write through
 * a stale pointer is then reported at once as use-after-poison, at every check
 * level. The interface is declared here rather than taken from
 * <sanitizer/asan_interface.h>, because lib/ includes only freestanding headers;
 * the sanitizer's runtime defines both functions. Without the sanitizer all of this
 * compiles to nothing.
 *
 * ASan tracks memory in 8-byte granules and can only mark a granule's tail as
 * poisoned, so memory is poisoned exactly when the released range starts and ends
 * on 8-byte boundaries; otherwise up to 7 bytes at its ends stay addressable. The
 * other way round never happens: memory in use is never reported.
 *
 * The library itself reads released memory in two places: the level-2 poison
 * checks (stow__poison_intact) and a pool's free-list links. Those reads go
 * through functions marked STOW__NO_ASAN, which the sanitizer does not check.
 * Storage never handed out is not poisoned (start-up stays O(1)), and init
 * unpoisons the container's own tables (genpool words and bits, slot-map tables,
 * the pool's level-2 bitmap) in case an older container released memory there. */
/* STOW__ASAN (whether this is an AddressSanitizer build) and STOW__NO_ASAN are
 * defined near the top of this file, before the fills that use them. */

#if STOW__ASAN
/* NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): the sanitizer's names */
void __asan_poison_memory_region(void const volatile *addr, size_t size);
/* NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): the sanitizer's names */
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#endif

/* Marks n bytes at p unaddressable (ASan builds only), and addressable again. */
static inline void stow__poison(const void *p, size_t n)
{
#if STOW__ASAN
    __asan_poison_memory_region(p, n);
#else
    (void)p;
    (void)n;
#endif
}

static inline void stow__unpoison(const void *p, size_t n)
{
#if STOW__ASAN
    __asan_unpoison_memory_region(p, n);
#else
    (void)p;
    (void)n;
#endif
}

/* Memory a container takes back (free, remove, rewind, reset, clear). At check
 * level 2 it is filled with 0xDD, so that a write through a stale pointer shows
 * when the memory is handed out again (see stow__poison_intact); in an ASan build
 * it is poisoned too, so that the sanitizer reports such an access when it
 * happens. Every module gives memory back through here, so that what happens to
 * it is decided in one place. At levels 0 and 1 without ASan it is nothing. */
static inline void stow__release(void *p, size_t n)
{
#if STOW_CHECK_LEVEL >= 2
    stow__unpoison(p, n); /* parts of it may be released already (padding, free blocks) */
    stow__fill(p, STOW__POISON, n);
#endif
    stow__poison(p, n);
}

/* Memory a container hands out (again): addressable for the caller. Every module
 * hands memory out through here, and calls it before the memory is written. */
static inline void stow__acquire(void *p, size_t n) { stow__unpoison(p, n); }

/* True when the n bytes at p, released earlier, still hold their poison. Reads
 * released memory, so the sanitizer must not check it (in an ASan build the loop
 * reads through a volatile pointer, so that no compiler turns it into a call to a
 * libc function the sanitizer intercepts). */
static STOW__NO_ASAN inline bool stow__poison_intact(const void *p, size_t n)
{
#if STOW__ASAN
    const volatile unsigned char *b = (const volatile unsigned char *)p;
    for (size_t i = 0; i < n; i++) {
        if (b[i] != STOW__POISON) {
            return false;
        }
    }
    return true;
#else
    return stow__all_bytes(p, STOW__POISON, n);
#endif
}

static inline bool stow__is_pow2(size_t x) { return x != 0u && (x & (x - 1u)) == 0u; }

static inline bool stow__is_aligned(const void *p, size_t align)
{
    return ((uintptr_t)(const unsigned char *)p & (uintptr_t)(align - 1u)) == 0u;
}

/* The bytes from `from` up to `to`, two pointers into one object, from <= to. */
static inline size_t stow__span(const unsigned char *from, const unsigned char *to)
{
    ptrdiff_t n = to - from;
    return (size_t)n;
}

/* Rounds n up to a multiple of align (a power of two); 0 if that overflows. */
static inline size_t stow__round_up(size_t n, size_t align)
{
    size_t r = (n + (align - 1u)) & ~(align - 1u);
    return r < n ? 0u : r;
}

/* For dividing exact multiples of a stride without a division (Cortex-M0 has
 * none): splits stride (not 0) into odd << *shift and returns the inverse of odd
 * modulo 2^(bits of uintptr_t), so that (i * stride >> shift) * inverse == i. By
 * Newton's iteration: x' = x (2 - odd x) doubles the correct low bits, and odd
 * itself has 3 (odd * odd == 1 modulo 8), so five steps give 96 >= 64. The
 * DEFINE macros compute the same as constant expressions (config.h,
 * STOW__ODD_INVERSE); truncated to fewer bits it is the inverse modulo those. */
static inline uintptr_t stow__odd_inverse(size_t stride, uint32_t *shift)
{
    uint32_t s = 0u;
    while (((stride >> s) & 1u) == 0u) {
        s++;
    }
    uintptr_t odd = (uintptr_t)(stride >> s);
    uintptr_t inverse = odd;
    for (int step = 0; step < 5; step++) {
        inverse *= (uintptr_t)2u - odd * inverse;
    }
    *shift = s;
    return inverse;
}

#endif /* STOW_INTERNAL_H */
