// SPDX-License-Identifier: MIT
// check.hpp - the test harness (tests/harness.h, which is C) for the C++ suite:
// the same runner, counters and assert hook, with checks written without C
// casts, so that the suite compiles under -Wold-style-cast and -Wuseless-cast.
#ifndef STOW_TEST_CXX_CHECK_HPP
#define STOW_TEST_CXX_CHECK_HPP

#include "stow/stow.hpp"

extern "C" {
#include "harness.h"
}

namespace cxx_test {

// Values as the harness prints them: unsigned integers.
inline uintmax_t u(uintmax_t v) { return v; }
template <class V> uintmax_t u(V v) { return static_cast<uintmax_t>(v); }
template <class V> uintmax_t u(V *p) { return reinterpret_cast<uintptr_t>(p); }

} // namespace cxx_test

#define CXX_CHECK(cond)                                                                 \
    do {                                                                                \
        if (!stow_test_check((cond) ? true : false, __FILE__, __LINE__, #cond)) {      \
            return;                                                                     \
        }                                                                               \
    } while (0)

#define CXX_CMP_(a, op, b)                                                              \
    do {                                                                                \
        uintmax_t lhs_ = cxx_test::u(a);                                                \
        uintmax_t rhs_ = cxx_test::u(b);                                                \
        if (!stow_test_check_values(lhs_ op rhs_, __FILE__, __LINE__, #a " " #op " " #b, lhs_, \
                                    rhs_)) {                                            \
            return;                                                                     \
        }                                                                               \
    } while (0)
#define CXX_EQ(a, b) CXX_CMP_(a, ==, b)
#define CXX_NE(a, b) CXX_CMP_(a, !=, b)
#define CXX_LT(a, b) CXX_CMP_(a, <, b)
#define CXX_NULL(p) CXX_CHECK((p) == nullptr)
#define CXX_NOT_NULL(p) CXX_CHECK((p) != nullptr)

// Runs expr, which must report exactly one contract violation (levels >= 1).
#define CXX_VIOLATION(expr)                                                             \
    do {                                                                                \
        stow_test_expect_violation();                                                   \
        expr;                                                                           \
        if (!stow_test_saw_violation(__FILE__, __LINE__, #expr)) {                      \
            return;                                                                     \
        }                                                                               \
    } while (0)

// The same, and the hook got exactly text (or "" with STOW_ASSERT_TEXT 0).
#define CXX_VIOLATION_TEXT(expr, text)                                                  \
    do {                                                                                \
        CXX_VIOLATION(expr);                                                            \
        CXX_CHECK(stow_test_same_text(stow_test_last_violation(), STOW_CHECK_TEXT(text))); \
    } while (0)

#endif
