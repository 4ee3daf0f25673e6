/* SPDX-License-Identifier: MIT */
/* stow/config.h - every compile-time option of stow, with its default.
 *
 * Set options with -D on the command line, or put them in a header of your own
 * and build everything (library and application alike) with
 *     -DSTOW_CONFIG_HEADER='"my_stow_config.h"'
 * That header is included first, so whatever it defines wins over the defaults
 * below. The library and every file that uses a STOW_*_DEFINE macro must see the
 * same options: some of them change the layout of the container structs or the
 * encoding of handles. Those three (STOW_CHECK_LEVEL, STOW_HANDLE_INDEX_BITS,
 * STOW_GENERATION_OVERFLOW) are checked when the program is linked: a file that
 * sees other values than the library was built with fails to link, with an
 * undefined reference that names the option and the value that file used, e.g.
 *     undefined reference to `stow_config_STOW_CHECK_LEVEL_2'
 * (from a STOW_*_DEFINE), or to `stow_pool_init__STOW_CHECK_LEVEL_2__...' (from an
 * init call). With GNU ld (gcc's and arm-none-eabi-gcc's linker) a note of the
 * library's comes with it and names what the library was built with:
 *     warning: stow: this file was built with STOW_CHECK_LEVEL_2, the library
 *     with STOW_CHECK_LEVEL_1; build both with the same options
 * (gold and lld print the undefined reference alone). Rebuild the library and
 * the application with the same options: the same -D flags, or the same
 * STOW_CONFIG_HEADER, for both. Only code that makes a container (a DEFINE, an
 * init call) refers to these symbols: a file that includes a header for its
 * macros alone (STOW_HEAP_BYTES_FOR in a sizing file) needs no library at all.
 * (GCC and clang; other compilers build without this check.)
 *
 *   option                    default               meaning
 *   STOW_CHECK_LEVEL          1                     0: no contract checks (smallest, fastest,
 *                                                   a contract violation is undefined).
 *                                                   1: every O(1) check on every public call.
 *                                                   2: level 1, plus O(1) double-free detection,
 *                                                   0xDD poison in freed memory and a check
 *                                                   on reuse that nobody wrote to it.
 *   STOW_HANDLE_INDEX_BITS    16                    low bits of a handle that hold the slot
 *                                                   index (1..30); the rest hold the generation.
 *   STOW_GENERATION_OVERFLOW  STOW_GEN_WRAP         STOW_GEN_WRAP: after the largest generation
 *                                                   comes 1 again. STOW_GEN_RETIRE: a slot whose
 *                                                   generation is used up is never reused.
 *   STOW_DEFAULT_ALIGN        alignof(max_align_t)  alignment used when a call passes align 0.
 *   STOW_SECTIONS             1 (0 on Mach-O)       1: STOW_*_DEFINE storage goes in the section
 *                                                   .bss.stow.<module>.<name> (_IN DEFINEs:
 *                                                   .bss.stow.in.<subsystem>.<module>.<name>);
 *                                                   0: ordinary .bss. The link's budget check
 *                                                   counts a subsystem by those sections, so
 *                                                   with 0 it cannot: a firmware that links
 *                                                   a budget fragment (stow/report.h) and an
 *                                                   _IN DEFINE built with 0 fails to link,
 *                                                   naming the subsystem and this option.
 *   STOW_REGISTRY             1                     1: every STOW_*_DEFINE registers its container
 *                                                   for the report (stow/report.h: about 30
 *                                                   bytes of flash each, and the stats() and
 *                                                   check() of each kind DEFINE'd, linked
 *                                                   even when nothing prints a report); 0:
 *                                                   nothing registered (budgets still checked
 *                                                   by the link).
 *   STOW_ASSERT_TEXT          1                     1: the assert hook gets the call and the
 *                                                   misuse as text; 0: "" instead (the file's
 *                                                   base name and the line stay). The text
 *                                                   is flash: on Cortex-M4 at -Os, 7601 bytes
 *                                                   at level 1 and 8786 at level 2 for all
 *                                                   of lib/; 1752 and 2208 for a firmware
 *                                                   that uses a pool, a heap, an arena and a
 *                                                   genpool (tests/embedding/asserts.c;
 *                                                   `make build/test/assert-paths/result`
 *                                                   prints it). Level 0 has no checks, so
 *                                                   no text.
 *   STOW_MULTICORE            0                     1: stow_pool_alloc_atomic() and
 *                                                   _free_atomic() may be called on one
 *                                                   pool from several cores (docs/
 *                                                   multicore.md): ARMv7-M and ARMv8-M take
 *                                                   the tagged head with barriers instead of
 *                                                   the one-core LDREX/STREX list, ARMv6-M
 *                                                   the port's critical section instead of
 *                                                   PRIMASK. No effect elsewhere (hosts and
 *                                                   RV32 with the A extension are built for
 *                                                   several cores already). Changes no
 *                                                   layout; only the library's own build
 *                                                   reads it.
 *   STOW_HEAP_TRACE           0                     1: each heap can name a function called
 *                                                   after every alloc, free and realloc
 *                                                   (stow_heap_set_trace, stow/heap.h);
 *                                                   0: no field, no code.
 *
 * Runtime conditions (full, no room, stale handle) are reported at every level;
 * only contract violations (caller bugs) depend on STOW_CHECK_LEVEL.
 *
 * AddressSanitizer: built with -fsanitize=address (gcc or clang), at every check
 * level, the memory a container takes back (a freed pool block, a removed or
 * cleared genpool item, slot-map and packed positions at or beyond count, arena
 * bytes given back by rewind or reset) is poisoned, and unpoisoned when it is
 * handed out again, so that a read or write through a stale pointer is reported
 * as use-after-poison where it happens. Storage never handed out is not poisoned
 * (start-up stays O(1)). ASan works in 8-byte granules: a released range that
 * does not start and end on an 8-byte boundary may leave up to 7 bytes at its
 * ends unpoisoned. Poison outlives the container: to use a buffer for something
 * else afterwards, unpoison it (__asan_unpoison_memory_region), or init a
 * container over it (init makes its own tables addressable; items become
 * addressable as they are handed out).
 */
#ifndef STOW_CONFIG_H
#define STOW_CONFIG_H

#ifdef STOW_CONFIG_HEADER
#include STOW_CONFIG_HEADER
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <limits.h>
#ifndef __cplusplus
#include <stdalign.h>
#endif
#include "port.h"

#ifndef STOW_CHECK_LEVEL
#define STOW_CHECK_LEVEL 1
#endif
#if STOW_CHECK_LEVEL < 0 || STOW_CHECK_LEVEL > 2
#error "STOW_CHECK_LEVEL must be 0, 1 or 2"
#endif

#ifndef STOW_HANDLE_INDEX_BITS
#define STOW_HANDLE_INDEX_BITS 16
#endif
/* At least two generation bits: with one, generation 1 would be the only one ever
 * issued, and a reused slot would hand out the very handle it handed out before. */
#if STOW_HANDLE_INDEX_BITS < 1 || STOW_HANDLE_INDEX_BITS > 30
#error "STOW_HANDLE_INDEX_BITS must be between 1 and 30 (the generation needs 2 bits or more)"
#endif

#define STOW_GEN_WRAP 1
#define STOW_GEN_RETIRE 2
#ifndef STOW_GENERATION_OVERFLOW
#define STOW_GENERATION_OVERFLOW STOW_GEN_WRAP
#endif
#if STOW_GENERATION_OVERFLOW != STOW_GEN_WRAP && STOW_GENERATION_OVERFLOW != STOW_GEN_RETIRE
#error "STOW_GENERATION_OVERFLOW must be STOW_GEN_WRAP or STOW_GEN_RETIRE"
#endif

/* alignof / alignas that read the same in C11 and C++11. */
#ifdef __cplusplus
#define STOW_ALIGNOF(type) alignof(type)
#define STOW_ALIGNAS(n) alignas(n)
#else
#define STOW_ALIGNOF(type) _Alignof(type)
#define STOW_ALIGNAS(n) _Alignas(n)
#endif

#ifndef STOW_DEFAULT_ALIGN
#define STOW_DEFAULT_ALIGN STOW_ALIGNOF(max_align_t)
#endif

#ifndef STOW_SECTIONS
#if defined(__APPLE__) && defined(__MACH__)
#define STOW_SECTIONS 0 /* Mach-O section names are "segment,section": no .bss.stow.* there */
#else
#define STOW_SECTIONS 1
#endif
#endif
#if STOW_SECTIONS != 0 && STOW_SECTIONS != 1
#error "STOW_SECTIONS must be 0 or 1"
#endif

#ifndef STOW_REGISTRY
#define STOW_REGISTRY 1
#endif
#if STOW_REGISTRY != 0 && STOW_REGISTRY != 1
#error "STOW_REGISTRY must be 0 or 1"
#endif

#ifndef STOW_ASSERT_TEXT
#define STOW_ASSERT_TEXT 1
#endif
#if STOW_ASSERT_TEXT != 0 && STOW_ASSERT_TEXT != 1
#error "STOW_ASSERT_TEXT must be 0 or 1"
#endif
#ifndef STOW_MULTICORE
#define STOW_MULTICORE 0
#endif
#if STOW_MULTICORE != 0 && STOW_MULTICORE != 1
#error "STOW_MULTICORE must be 0 or 1"
#endif
#ifndef STOW_HEAP_TRACE
#define STOW_HEAP_TRACE 0
#endif
#if STOW_HEAP_TRACE != 0 && STOW_HEAP_TRACE != 1
#error "STOW_HEAP_TRACE must be 0 or 1"
#endif

/* The text a contract check hands the assert hook. Without it, text is still
 * evaluated (for nothing: a literal, or a helper's parameter that then counts as
 * used), so that a helper that passes its caller's text on builds warning-free. */
#if STOW_ASSERT_TEXT
#define STOW_CHECK_TEXT(text) text
#else
#define STOW_CHECK_TEXT(text) ((void)(text), "")
#endif

#define STOW_IS_POW2(x) ((x) != 0u && (((x) & ((x) - 1u)) == 0u))

#ifdef __cplusplus
#define STOW_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define STOW_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/* STOW__CAST(T, x): x converted to T, for the macros users expand. In C a cast;
 * in C++ a constexpr function, so that the macros stay clean under
 * -Wold-style-cast and -Wuseless-cast (which a static_cast to x's own type
 * would trip) in C++11 and later, and still give constant expressions.
 * extern "C++": a user may include stow's headers inside extern "C". */
#ifdef __cplusplus
extern "C++" {
template <typename T, typename U>
constexpr T stow__cast(U value)
{
    return static_cast<T>(value);
}
}
#define STOW__CAST(T, x) (stow__cast<T>(x))
#else
#define STOW__CAST(T, x) ((T)(x))
#endif

/* STOW__NULL: the null pointer constant of the language compiling the header
 * (C++'s nullptr, which strict C++ warnings ask for in inline code). */
#ifdef __cplusplus
#define STOW__NULL nullptr
#else
#define STOW__NULL NULL
#endif

/* STOW__CONSTINIT: `constinit` where the language has it (C++20), so that the
 * compiler proves every DEFINE'd container statically initialised: usable from
 * any other translation unit's constructors, with no initialisation-order
 * question. Empty in C (where a file-scope initializer is constant anyway) and in
 * older C++. */
#ifdef __cpp_constinit
#define STOW__CONSTINIT constinit
#else
#define STOW__CONSTINIT
#endif
/* For the DEFINE macros' compile-time checks: whether n items of per_item bytes
 * and extra bytes more fit in size_t. A division, so that the test itself cannot
 * wrap the way the product it guards would (silently, into a short buffer). */
#define STOW__FITS_SIZE(n, per_item, extra)        \
    (STOW__CAST(uint64_t, n) <=                    \
     STOW__CAST(uint64_t, (SIZE_MAX - STOW__CAST(size_t, extra)) / STOW__CAST(size_t, per_item)))

/* For the DEFINE macros of the containers that divide by a stride s without a
 * division (pool, genpool): as constant expressions, s's lowest set bit, that
 * bit's position (the shift), s's odd part, and the odd part's inverse modulo
 * 2^64 by five Newton steps (x' = x (2 - d x) doubles the correct low bits; d
 * itself has 3: 3, 6, 12, 24, 48, 96). Truncated, the inverse is the one modulo
 * 2^32. lib/src/internal.h (stow__odd_inverse) computes the same at run time. */
#define STOW__LOWBIT(s) (STOW__CAST(uint64_t, s) & (0u - STOW__CAST(uint64_t, s)))
#define STOW__BITPOS(b)                                                              \
    ((((b) & UINT64_C(0xAAAAAAAAAAAAAAAA)) != 0u ? 1u : 0u) |                        \
     (((b) & UINT64_C(0xCCCCCCCCCCCCCCCC)) != 0u ? 2u : 0u) |                        \
     (((b) & UINT64_C(0xF0F0F0F0F0F0F0F0)) != 0u ? 4u : 0u) |                        \
     (((b) & UINT64_C(0xFF00FF00FF00FF00)) != 0u ? 8u : 0u) |                        \
     (((b) & UINT64_C(0xFFFF0000FFFF0000)) != 0u ? 16u : 0u) |                       \
     (((b) & UINT64_C(0xFFFFFFFF00000000)) != 0u ? 32u : 0u))
#define STOW__SHIFT_OF(s) STOW__CAST(uint32_t, STOW__BITPOS(STOW__LOWBIT(s)))
#define STOW__ODD_OF(s) (STOW__CAST(uint64_t, s) / STOW__LOWBIT(s))
#define STOW__NEWTON(d, x) ((x) * (UINT64_C(2) - (d) * (x)))
#define STOW__ODD_INVERSE(d) \
    STOW__NEWTON(d, STOW__NEWTON(d, STOW__NEWTON(d, STOW__NEWTON(d, STOW__NEWTON(d, (d))))))

/* The preprocessor cannot evaluate alignof, so this one is checked by the compiler. */
STOW_STATIC_ASSERT(STOW_IS_POW2(STOW_DEFAULT_ALIGN), "STOW_DEFAULT_ALIGN must be a power of two");

/* STOW__FILE: the file a check sits in, as the assert hook gets it: its name
 * without a directory ("pool.c"), so that no build path ends up in flash.
 * __FILE_NAME__ is GCC's (12 and later) and clang's (9 and later); an older
 * compiler gets __FILE__, which is the path the build named the file by
 * (-fmacro-prefix-map=<dir>/= shortens it). */
#ifdef __FILE_NAME__
#define STOW__FILE __FILE_NAME__
#else
#define STOW__FILE __FILE__
#endif

/* STOW_ASSERT(cond): a contract check. At level 0 it vanishes; at levels 1 and 2
 * a false cond calls stow_port_assert_failed(). It does not stop the caller: the
 * library's own checks (internal.h) also return the function's error value. */
#if STOW_CHECK_LEVEL >= 1
#define STOW_ASSERT(cond) \
    ((cond) ? (void)0 : stow_port_assert_failed(STOW_CHECK_TEXT(#cond), STOW__FILE, __LINE__))
#else
#define STOW_ASSERT(cond) ((void)0)
#endif

/* Section placement for STOW_*_DEFINE storage. Write it after STOW_ALIGNAS and
 * before `static`: the one order that C11 and C++11 both accept. The name starts
 * with ".bss." because that is what makes GCC and clang emit the section as
 * NOBITS: the storage never takes room in an executable or a flash image, whether
 * or not the link places it with linker/stow.ld (without the fragment it simply
 * joins .bss). */
#if STOW_SECTIONS
#define STOW_SECTION(module, name) __attribute__((section(".bss.stow." #module "." #name)))
#else
#define STOW_SECTION(module, name)
#endif

/* The first declaration of every STOW_*_DEFINE. At file or namespace scope it
 * declares nothing that matters; inside a C++ class it is an error ("storage
 * class specified for ...") whose text names the fix: a DEFINE makes one static
 * container, which a class member cannot be; give a class its containers with
 * the C++ layer (stow/stow.hpp), whose containers hold their
 * storage inside the object (or DEFINE the container at namespace scope, e.g.
 * STOW_*_DEFINE_STATIC in the class's .cpp file, and give the class a pointer or
 * a reference to it). */
#define STOW__FILE_SCOPE_ONLY \
    extern int stow_DEFINE_belongs_at_namespace_scope__inside_a_class_use_stow_hpp

/* ---- the link-time configuration check ----------------------------------------
 *
 * One symbol per value of each option that changes a struct layout or a handle
 * encoding. The library defines the symbols for the values it was built with
 * (lib/src/internal.h); every STOW_*_DEFINE'd container holds the addresses of
 * the ones its own file sees (stow__config_guard, below), and every init function
 * is declared with a link name that spells its file's values (STOW__GUARDED). A
 * file built with other values than the library therefore refers to a symbol
 * that nothing defines, and the link fails naming the option. The values are
 * spelled by #if rather than pasted, so that `-DSTOW_CHECK_LEVEL=(2)` and
 * `-DSTOW_CHECK_LEVEL=2` agree. */
#if STOW_CHECK_LEVEL == 0
#define STOW__GUARD_LEVEL STOW_CHECK_LEVEL_0
#elif STOW_CHECK_LEVEL == 1
#define STOW__GUARD_LEVEL STOW_CHECK_LEVEL_1
#else
#define STOW__GUARD_LEVEL STOW_CHECK_LEVEL_2
#endif

#if STOW_GENERATION_OVERFLOW == STOW_GEN_WRAP
#define STOW__GUARD_OVERFLOW STOW_GENERATION_OVERFLOW_WRAP
#else
#define STOW__GUARD_OVERFLOW STOW_GENERATION_OVERFLOW_RETIRE
#endif

#if STOW_HANDLE_INDEX_BITS == 1
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_1
#elif STOW_HANDLE_INDEX_BITS == 2
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_2
#elif STOW_HANDLE_INDEX_BITS == 3
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_3
#elif STOW_HANDLE_INDEX_BITS == 4
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_4
#elif STOW_HANDLE_INDEX_BITS == 5
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_5
#elif STOW_HANDLE_INDEX_BITS == 6
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_6
#elif STOW_HANDLE_INDEX_BITS == 7
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_7
#elif STOW_HANDLE_INDEX_BITS == 8
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_8
#elif STOW_HANDLE_INDEX_BITS == 9
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_9
#elif STOW_HANDLE_INDEX_BITS == 10
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_10
#elif STOW_HANDLE_INDEX_BITS == 11
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_11
#elif STOW_HANDLE_INDEX_BITS == 12
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_12
#elif STOW_HANDLE_INDEX_BITS == 13
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_13
#elif STOW_HANDLE_INDEX_BITS == 14
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_14
#elif STOW_HANDLE_INDEX_BITS == 15
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_15
#elif STOW_HANDLE_INDEX_BITS == 16
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_16
#elif STOW_HANDLE_INDEX_BITS == 17
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_17
#elif STOW_HANDLE_INDEX_BITS == 18
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_18
#elif STOW_HANDLE_INDEX_BITS == 19
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_19
#elif STOW_HANDLE_INDEX_BITS == 20
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_20
#elif STOW_HANDLE_INDEX_BITS == 21
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_21
#elif STOW_HANDLE_INDEX_BITS == 22
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_22
#elif STOW_HANDLE_INDEX_BITS == 23
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_23
#elif STOW_HANDLE_INDEX_BITS == 24
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_24
#elif STOW_HANDLE_INDEX_BITS == 25
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_25
#elif STOW_HANDLE_INDEX_BITS == 26
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_26
#elif STOW_HANDLE_INDEX_BITS == 27
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_27
#elif STOW_HANDLE_INDEX_BITS == 28
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_28
#elif STOW_HANDLE_INDEX_BITS == 29
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_29
#else
#define STOW__GUARD_INDEX STOW_HANDLE_INDEX_BITS_30
#endif

#define STOW__PASTE2(a, b) a##b
#define STOW__PASTE(a, b) STOW__PASTE2(a, b)
#define STOW__STR2(x) #x
#define STOW__STR(x) STOW__STR2(x)
/* The symbol for one option's value: stow_config_STOW_CHECK_LEVEL_1 and the like. */
#define STOW__GUARD_SYMBOL(value) STOW__PASTE(stow_config_, value)

#if defined(__GNUC__)
#define STOW__HAVE_GUARD 1
#else
#define STOW__HAVE_GUARD 0
#endif

#if STOW__HAVE_GUARD
#ifdef __cplusplus
extern "C" {
#endif
extern const char STOW__GUARD_SYMBOL(STOW__GUARD_LEVEL);
extern const char STOW__GUARD_SYMBOL(STOW__GUARD_INDEX);
extern const char STOW__GUARD_SYMBOL(STOW__GUARD_OVERFLOW);
#ifdef __cplusplus
}
#endif
/* What a DEFINE'd container's `config` field points at: the addresses of this
 * file's three symbols, in an array that exists only where a DEFINE names it, so
 * that a file which includes a header for its macros alone (a sizing file) refers
 * to nothing in the library, at any optimisation level (a static array here would
 * be emitted at -O0 and pull the library into every program that includes a
 * header). In C a compound literal (at file scope: static storage), one per
 * DEFINE (3 pointers of flash each); in C++ a template's static member, one per
 * set of options in the whole program. */
#ifdef __cplusplus
extern "C++" {
template <long Level, long IndexBits, long Overflow> struct stow__config_guard_of {
    static const char *const symbols[3];
};
template <long Level, long IndexBits, long Overflow>
const char *const stow__config_guard_of<Level, IndexBits, Overflow>::symbols[3] = {
    &STOW__GUARD_SYMBOL(STOW__GUARD_LEVEL), &STOW__GUARD_SYMBOL(STOW__GUARD_INDEX),
    &STOW__GUARD_SYMBOL(STOW__GUARD_OVERFLOW)};
}
#define STOW__CONFIG_GUARD                                                                \
    (stow__config_guard_of<STOW_CHECK_LEVEL, STOW_HANDLE_INDEX_BITS,                      \
                           STOW_GENERATION_OVERFLOW>::symbols)
#else
#define STOW__CONFIG_GUARD                                                                \
    ((const char *const[3]){&STOW__GUARD_SYMBOL(STOW__GUARD_LEVEL),                      \
                            &STOW__GUARD_SYMBOL(STOW__GUARD_INDEX),                      \
                            &STOW__GUARD_SYMBOL(STOW__GUARD_OVERFLOW)})
#endif
/* After an init function's prototype: its link name carries the options, e.g.
 * stow_pool_init__STOW_CHECK_LEVEL_1__STOW_HANDLE_INDEX_BITS_16__STOW_GENERATION_OVERFLOW_WRAP. */
#define STOW__GUARDED(fn)                                                                    \
    __asm__(STOW__STR(__USER_LABEL_PREFIX__) #fn "__" STOW__STR(STOW__GUARD_LEVEL) "__"      \
            STOW__STR(STOW__GUARD_INDEX) "__" STOW__STR(STOW__GUARD_OVERFLOW))
/* Whether a container's config field holds this file's three symbols (for tests:
 * each DEFINE has an array of its own). */
#define STOW__CONFIG_GUARD_IS_HERE(config)                                                   \
    ((config) != STOW__NULL && (config)[0] == &STOW__GUARD_SYMBOL(STOW__GUARD_LEVEL) &&      \
     (config)[1] == &STOW__GUARD_SYMBOL(STOW__GUARD_INDEX) &&                               \
     (config)[2] == &STOW__GUARD_SYMBOL(STOW__GUARD_OVERFLOW))
#else
#define STOW__CONFIG_GUARD NULL
#define STOW__CONFIG_GUARD_IS_HERE(config) ((config) == NULL)
#define STOW__GUARDED(fn)
#endif

#endif /* STOW_CONFIG_H */
