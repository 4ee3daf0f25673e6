/* SPDX-License-Identifier: MIT */
/* harness.h - stow's own test harness: freestanding, no setjmp, no libc.
 *
 * The same test sources run on the host and on every QEMU board. A test file
 * defines cases and one suite function that runs them:
 *
 *     TEST(arena_alloc_aligns) {
 *         void *p = stow_arena_alloc(&a, 3, 16);
 *         CHECK_NOT_NULL(p);
 *         CHECK_EQ((uintptr_t)p % 16, 0);
 *     }
 *     void stow_test_suite_arena(void) { RUN(arena_alloc_aligns); }
 *
 * tests/main.c calls every suite_<name>() for which a tests/test_<name>.c exists
 * (the Makefile generates the list). A failed CHECK prints file:line, the
 * expression and the values, and returns from the case. The last line of the run
 * is "N passed, N failed" (cases, not checks) and main's status is non-zero when
 * anything failed.
 *
 * Contract violations: this harness is the port's assert hook. EXPECT_VIOLATION(x)
 * evaluates x and checks that it reported exactly one violation; any violation
 * outside EXPECT_VIOLATION fails the running case.
 */
#ifndef STOW_TEST_HARNESS_H
#define STOW_TEST_HARNESS_H

#include "stow/stow.h"

/* Scale of the long randomised tests: the host runs them in full, the boards
 * (slower, and as small as 16 KiB of RAM) a fraction. */
#ifndef STOW_TEST_SCALE
#define STOW_TEST_SCALE 100
#endif
#define STOW_TEST_SCALED(n) ((uint32_t)(((uint64_t)(n) * STOW_TEST_SCALE) / 100u > 0u \
                                            ? ((uint64_t)(n) * STOW_TEST_SCALE) / 100u : 1u))

#define TEST(name) static void name(void)
#define RUN(name) stow_test_run(#name, name)

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (!stow_test_check((cond), __FILE__, __LINE__, #cond)) {                    \
            return;                                                                   \
        }                                                                             \
    } while (0)

/* Compares as unsigned integers (pointers: cast to uintptr_t) and prints both. */
#define CHECK_EQ(a, b) CHECK_CMP_((uintmax_t)(a), ==, (uintmax_t)(b), #a " == " #b)
#define CHECK_NE(a, b) CHECK_CMP_((uintmax_t)(a), !=, (uintmax_t)(b), #a " != " #b)
#define CHECK_LE(a, b) CHECK_CMP_((uintmax_t)(a), <=, (uintmax_t)(b), #a " <= " #b)
#define CHECK_LT(a, b) CHECK_CMP_((uintmax_t)(a), <, (uintmax_t)(b), #a " < " #b)
#define CHECK_PTR_EQ(a, b) CHECK_EQ((uintptr_t)(const void *)(a), (uintptr_t)(const void *)(b))
#define CHECK_NULL(p) CHECK_PTR_EQ((p), NULL)
#define CHECK_NOT_NULL(p) CHECK((const void *)(p) != NULL)
#define CHECK_TRUE(x) CHECK(x)
#define CHECK_FALSE(x) CHECK(!(x))
#define CHECK_BYTES_EQ(a, b, n) \
    CHECK_CMP_(stow_test_first_difference((a), (b), (n)), ==, (uintmax_t)(n), "bytes equal: " #a ", " #b)
#define CHECK_CMP_(a, op, b, text)                                                    \
    do {                                                                              \
        uintmax_t lhs_ = (a), rhs_ = (b);                                             \
        if (!stow_test_check_values(lhs_ op rhs_, __FILE__, __LINE__, text, lhs_, rhs_)) { \
            return;                                                                   \
        }                                                                             \
    } while (0)

/* Runs a helper that checks things itself, and stops the case if it failed. */
#define CHECK_CALL(call)                                                              \
    do {                                                                              \
        call;                                                                         \
        if (stow_test_case_failed()) {                                                \
            return;                                                                   \
        }                                                                             \
    } while (0)

#if STOW_CHECK_LEVEL >= 1
#define EXPECT_VIOLATION(expr)                                                        \
    do {                                                                              \
        stow_test_expect_violation();                                                 \
        expr;                                                                         \
        if (!stow_test_saw_violation(__FILE__, __LINE__, #expr)) {                   \
            return;                                                                   \
        }                                                                             \
    } while (0)
/* The last violation's text was exactly text (what a user reads: "stow_pool_free:
 * double free"), or "" when built with STOW_ASSERT_TEXT 0. */
#define CHECK_LAST_VIOLATION(text)                                                    \
    do {                                                                              \
        if (!stow_test_check(stow_test_same_text(stow_test_last_violation(),          \
                                                 STOW_CHECK_TEXT(text)),              \
                             __FILE__, __LINE__, "the hook got: " text)) {            \
            stow_test_print("  it got: ");                                            \
            stow_test_print(stow_test_last_violation());                              \
            stow_test_print("\n");                                                    \
            return;                                                                   \
        }                                                                             \
    } while (0)
/* EXPECT_VIOLATION, and the hook got exactly text. (Not written with
 * EXPECT_VIOLATION: expr may expand to commas.) */
#define EXPECT_VIOLATION_TEXT(expr, text)                                             \
    do {                                                                              \
        stow_test_expect_violation();                                                 \
        expr;                                                                         \
        if (!stow_test_saw_violation(__FILE__, __LINE__, #expr)) {                   \
            return;                                                                   \
        }                                                                             \
        CHECK_LAST_VIOLATION(text);                                                   \
    } while (0)
#endif

/* AddressSanitizer builds poison the memory containers take back (see
 * lib/src/internal.h). Tests that look at released memory on purpose (the 0xDD
 * poison, storage compared byte for byte, a write through a stale pointer to see
 * level 2 catch it) go through the byte helpers below, which the sanitizer does not
 * check: stow_test_copy, stow_test_fill, stow_test_first_difference,
 * stow_test_peek and stow_test_poke. */
#if defined(__SANITIZE_ADDRESS__)
#define STOW_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STOW_TEST_ASAN 1
#endif
#endif
#ifndef STOW_TEST_ASAN
#define STOW_TEST_ASAN 0
#endif

void stow_test_run(const char *name, void (*fn)(void));
bool stow_test_check(bool ok, const char *file, int line, const char *text);
bool stow_test_check_values(bool ok, const char *file, int line, const char *text,
                            uintmax_t lhs, uintmax_t rhs);
bool stow_test_case_failed(void);
void stow_test_expect_violation(void);
bool stow_test_saw_violation(const char *file, int line, const char *text);
/* The number of contract violations reported since the run began. */
uint32_t stow_test_violations(void);
/* The text the last violation handed the hook (its expr), or "" before any. */
const char *stow_test_last_violation(void);
/* True when the two texts are equal. */
bool stow_test_same_text(const char *a, const char *b);
/* Index of the first byte where a and b differ, or n when they are equal. */
size_t stow_test_first_difference(const void *a, const void *b, size_t n);
void stow_test_copy(void *dst, const void *src, size_t n);
void stow_test_fill(void *dst, unsigned char value, size_t n);
/* One byte of memory a container may have taken back: read it, or write it (as a
 * stale pointer would), unseen by AddressSanitizer. */
unsigned char stow_test_peek(const void *p);
void stow_test_poke(void *p, unsigned char value);

/* A small seeded generator (xorshift32), the same sequence on every target. */
void stow_test_seed(uint32_t seed);
uint32_t stow_test_rand(void);
uint32_t stow_test_rand_below(uint32_t n); /* 0 .. n-1; n > 0 */

/* Output without printf. */
void stow_test_print(const char *text);
void stow_test_print_u(uintmax_t value);

/* main.c's ends: stow_test_finish() prints the totals and returns the status. */
int stow_test_finish(void);

/* One suite per tests/test_<name>.c; suites.h is generated by the Makefile. */
#define STOW_TEST_SUITE(name) void stow_test_suite_##name(void);
#include "suites.h"
#undef STOW_TEST_SUITE

#endif /* STOW_TEST_HARNESS_H */
