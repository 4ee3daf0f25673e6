/* SPDX-License-Identifier: MIT */
/* harness.c - see harness.h. Also the test images' stow_port_assert_failed(): it
 * records the call and returns, so violation tests run on every target without
 * setjmp, and each one can check that the container did not change. */
#include "harness.h"
#include "xorshift.h"

static struct {
    uint32_t passed, failed;
    const char *case_name;
    bool case_failed;
    bool expecting;          /* inside EXPECT_VIOLATION */
    uint32_t expected_seen;  /* violations while expecting */
    uint32_t violations;     /* all violations of the run */
    uint32_t rand_state;
    const char *last_violation; /* the hook's expr, last call */
} run = {0u, 0u, NULL, false, false, 0u, 0u, 2463534242u, ""};

void stow_test_print(const char *text) { stow_print(text); }

void stow_test_print_u(uintmax_t value) { stow_print_u((uint64_t)value, 0u); }

static void print_location(const char *file, int line)
{
    stow_test_print("  ");
    stow_test_print(file);
    stow_test_print(":");
    stow_test_print_u((uintmax_t)line);
    stow_test_print(": ");
}

static void fail_case(void)
{
    if (!run.case_failed) {
        run.case_failed = true;
        stow_test_print("FAIL ");
        stow_test_print(run.case_name != NULL ? run.case_name : "(outside a case)");
        stow_test_print("\n");
    }
}

bool stow_test_check(bool ok, const char *file, int line, const char *text)
{
    if (!ok) {
        fail_case();
        print_location(file, line);
        stow_test_print(text);
        stow_test_print("\n");
    }
    return ok;
}

bool stow_test_check_values(bool ok, const char *file, int line, const char *text,
                            uintmax_t lhs, uintmax_t rhs)
{
    if (!ok) {
        fail_case();
        print_location(file, line);
        stow_test_print(text);
        stow_test_print(" (");
        stow_test_print_u(lhs);
        stow_test_print(" vs ");
        stow_test_print_u(rhs);
        stow_test_print(")\n");
    }
    return ok;
}

bool stow_test_case_failed(void) { return run.case_failed; }

void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    run.violations++;
    run.last_violation = expr != NULL ? expr : "(NULL)";
    if (run.expecting) {
        run.expected_seen++;
        return;
    }
    fail_case();
    print_location(file, line);
    stow_test_print("unexpected contract violation: ");
    stow_test_print(expr);
    stow_test_print("\n");
}

void stow_test_expect_violation(void)
{
    run.expecting = true;
    run.expected_seen = 0u;
}

bool stow_test_saw_violation(const char *file, int line, const char *text)
{
    run.expecting = false;
    return stow_test_check_values(run.expected_seen == 1u, file, line, text,
                                  run.expected_seen, 1u);
}

uint32_t stow_test_violations(void) { return run.violations; }

const char *stow_test_last_violation(void) { return run.last_violation; }

bool stow_test_same_text(const char *a, const char *b)
{
    size_t i = 0u;
    while (a[i] != '\0' && a[i] == b[i]) {
        i++;
    }
    return a[i] == b[i];
}

void stow_test_run(const char *name, void (*fn)(void))
{
    run.case_name = name;
    run.case_failed = false;
    run.expecting = false;
    fn();
    if (run.case_failed) {
        run.failed++;
    } else {
        run.passed++;
        stow_test_print("ok   ");
        stow_test_print(name);
        stow_test_print("\n");
    }
    run.case_name = NULL;
}

/* The byte helpers may touch memory a container poisoned (ASan builds): the
 * sanitizer does not check them, and they access memory through volatile
 * pointers in those builds, so that no compiler turns a loop into a memset or memcpy call, which
 * the sanitizer would intercept and check. */
#if STOW_TEST_ASAN
#define NO_ASAN __attribute__((no_sanitize_address))
typedef volatile unsigned char byte_t;
#else
#define NO_ASAN
typedef unsigned char byte_t;
#endif

NO_ASAN size_t stow_test_first_difference(const void *a, const void *b, size_t n)
{
    const byte_t *x = (const byte_t *)a;
    const byte_t *y = (const byte_t *)b;
    for (size_t i = 0u; i < n; i++) {
        if (x[i] != y[i]) {
            return i;
        }
    }
    return n;
}

NO_ASAN void stow_test_copy(void *dst, const void *src, size_t n)
{
    byte_t *d = (byte_t *)dst;
    const byte_t *s = (const byte_t *)src;
    for (size_t i = 0u; i < n; i++) {
        d[i] = s[i];
    }
}

NO_ASAN void stow_test_fill(void *dst, unsigned char value, size_t n)
{
    byte_t *d = (byte_t *)dst;
    for (size_t i = 0u; i < n; i++) {
        d[i] = value;
    }
}

NO_ASAN unsigned char stow_test_peek(const void *p) { return *(const volatile unsigned char *)p; }

NO_ASAN void stow_test_poke(void *p, unsigned char value) { *(volatile unsigned char *)p = value; }

void stow_test_seed(uint32_t seed) { run.rand_state = seed != 0u ? seed : 2463534242u; }

uint32_t stow_test_rand(void) { return stow_test_xorshift(&run.rand_state); }

uint32_t stow_test_rand_below(uint32_t n)
{
    return (uint32_t)(((uint64_t)stow_test_rand() * n) >> 32);
}

int stow_test_finish(void)
{
    stow_test_print_u(run.passed);
    stow_test_print(" passed, ");
    stow_test_print_u(run.failed);
    stow_test_print(" failed\n");
    return run.failed == 0u ? 0 : 1;
}
