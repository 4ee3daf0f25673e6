/* SPDX-License-Identifier: MIT */
/* adapters/libc/test/main.c - a firmware whose every allocation, the C
 * library's own included, is served by adapters/libc/stow_malloc.c. One source
 * for newlib-nano (and the full newlib) and picolibc, run under QEMU on Cortex-M0 (micro:bit) and
 * Cortex-M4 (mps2-an386) with the project's harness (tests/harness.h).
 *
 * What runs on the heap: stdio's own buffers (newlib's stdout, a FILE that
 * setvbuf() gives a buffer, a host file opened through semihosting),
 * printf/snprintf/strtod of floats (newlib's big numbers), strdup, strndup,
 * asprintf, open_memstream (newlib) or fmemopen (picolibc), regcomp
 * (picolibc), qsort over heap arrays; the C and POSIX corner cases of each
 * entry point; contract violations reaching the port's assert hook; an
 * interrupt handler allocating while the main loop does. The heap's figures
 * (stow_malloc_stats, stow_malloc_counts) show that the allocations happened
 * on it, and stow_malloc_check() passes at the end.
 *
 * Build options: STOW_LIBC_TEST_FILE (a host path for the semihosting file),
 * STOW_LIBC_TEST_SMALL (the micro:bit's sizes), STOW_MALLOC_COUNT (checks on
 * the call counts only when 1).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* asprintf */
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#if defined(__PICOLIBC__)
#include <regex.h>
#define LIBC_NAME "picolibc"
#define NEWLIB 0
#else
#include <reent.h>
#if defined(_NANO_FORMATTED_IO)
#define LIBC_NAME "newlib-nano"
#else
#define LIBC_NAME "newlib"
#endif
#define NEWLIB 1
#endif

#include "harness.h"
#include "stow_malloc.h"

#ifndef STOW_LIBC_TEST_FILE
#define STOW_LIBC_TEST_FILE "stow-libc-test.txt"
#endif

#ifdef STOW_LIBC_TEST_SMALL
#define SORT_COUNT 64u
#define STRESS_SLOTS 10u
#define STRESS_MAX 120u
#define ISR_MAX 64u
#else
#define SORT_COUNT 400u
#define STRESS_SLOTS 24u
#define STRESS_MAX 600u
#define ISR_MAX 200u
#endif

#define HUGE_REQUEST ((size_t)STOW_MALLOC_HEAP_BYTES * 2u)

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* ---- helpers ------------------------------------------------------------------------ */

static stow_stats_t stats(void)
{
    stow_stats_t s;
    stow_malloc_stats(&s);
    return s;
}

static stow_malloc_counts_t counts(void)
{
    stow_malloc_counts_t c;
    stow_malloc_counts(&c);
    return c;
}

/* Checks on call counts: only where the adapter counts. */
#if STOW_MALLOC_COUNT
#define CHECK_COUNT(cond) CHECK(cond)
#else
#define CHECK_COUNT(cond) ((void)0)
#endif

static bool same(const char *a, const char *b) { return strcmp(a, b) == 0; }

/* The calls that misuse the allocator on purpose (a stack address to free, a
 * size that overflows, a pointer used after a failed realloc) go through these,
 * so that the compiler, which knows what free and realloc mean, lets them be. */
static void (*volatile const free_call)(void *) = free;
static void *(*volatile const realloc_call)(void *, size_t) = realloc;
static void *(*volatile const calloc_call)(size_t, size_t) = calloc;
static void *(*volatile const reallocarray_call)(void *, size_t, size_t) = reallocarray;

static void print_stats(const char *what)
{
    stow_stats_t s = stats();
    stow_malloc_counts_t c = counts();
    stow_test_print(what);
    stow_test_print(": capacity ");
    stow_test_print_u(s.capacity);
    stow_test_print(", used ");
    stow_test_print_u(s.used);
    stow_test_print(", peak ");
    stow_test_print_u(s.peak);
    stow_test_print(", fails ");
    stow_test_print_u(s.fails);
#if STOW_MALLOC_COUNT
    stow_test_print("; calls: ");
    stow_test_print_u(c.allocs);
    stow_test_print(" allocs, ");
    stow_test_print_u(c.frees);
    stow_test_print(" frees, ");
    stow_test_print_u(c.reallocs);
    stow_test_print(" reallocs");
#else
    (void)c;
#endif
    stow_test_print("\n");
}

/* ---- the C library's own allocations ---------------------------------------------- */

/* The first stdio call of the run (the harness writes through stow_port_write):
 * newlib gives stdout a buffer from malloc, and keeps it. */
TEST(printf_floats_to_stdout)
{
    stow_stats_t before = stats();
    stow_malloc_counts_t c0 = counts();
    stow_stats_t after;
    stow_malloc_counts_t c1;
    int n = printf("printf: %.3f %e %g\n", 3.14159, -1.5e-7, 0.1);
    CHECK_EQ(fflush(stdout), 0);
    after = stats();
    c1 = counts();
    CHECK_EQ(n, (int)strlen("printf: 3.142 -1.500000e-07 0.1\n"));
#if NEWLIB
    CHECK_LT(before.used + BUFSIZ, after.used + 1u); /* stdout's buffer, BUFSIZ bytes, stays */
    CHECK_COUNT(c1.allocs > c0.allocs);
#else
    /* picolibc's printf takes no memory: nothing for the heap to serve. */
    CHECK_EQ(after.used, before.used);
    CHECK_COUNT(c1.allocs == c0.allocs);
#endif
    (void)c0;
    (void)c1;
}

TEST(snprintf_and_strtod_of_floats)
{
    char buf[64];
    stow_malloc_counts_t c0 = counts();
    stow_malloc_counts_t c1;
    double d;
    CHECK_EQ(snprintf(buf, sizeof buf, "%.3f|%g|%.6e|%.1f", 3.14159, 0.1, 12345.678, 1e15),
             (int)strlen("3.142|0.1|1.234568e+04|1000000000000000.0"));
    CHECK(same(buf, "3.142|0.1|1.234568e+04|1000000000000000.0"));
    d = strtod("2.718281828459045235360287e-10", NULL);
    CHECK(d > 2.7182818284e-10 && d < 2.7182818286e-10);
    c1 = counts();
#if NEWLIB
    /* newlib's dtoa and strtod work on big numbers it callocs (and caches). */
    CHECK_COUNT(c1.allocs > c0.allocs);
#else
    CHECK_COUNT(c1.allocs == c0.allocs); /* picolibc's need no memory */
#endif
    (void)c0;
    (void)c1;
}

TEST(strdup_and_strndup)
{
    stow_stats_t before = stats();
    char *a = strdup("stow serves strdup");
    char *b = strndup("abcdef", 3u);
    CHECK_NOT_NULL(a);
    CHECK_NOT_NULL(b);
    CHECK(same(a, "stow serves strdup"));
    CHECK(same(b, "abc"));
    CHECK_LE(19u, malloc_usable_size(a));
    CHECK_LT(before.used, stats().used);
    free(a);
    free(b);
    CHECK_EQ(stats().used, before.used);
}

static char *format(const char *what, int n, double x)
{
    char *s = NULL;
    if (asprintf(&s, "%s-%d-%.2f-%0200d", what, n, x, n) < 0) {
        return NULL;
    }
    return s;
}

TEST(asprintf_grows_its_string)
{
    stow_stats_t before;
    stow_malloc_counts_t c0;
    stow_malloc_counts_t c1;
    char *s = format("warm", 1, 1.0); /* once, so that libc caches are in place */
    CHECK_NOT_NULL(s);
    free(s);
    before = stats();
    c0 = counts();
    s = format("asprintf", 42, 2.5);
    c1 = counts();
    CHECK_NOT_NULL(s);
    CHECK_EQ(strlen(s), strlen("asprintf-42-2.50-") + 200u);
    CHECK(strncmp(s, "asprintf-42-2.50-000", 20u) == 0);
    CHECK(same(s + strlen(s) - 3u, "042"));
    CHECK_COUNT(c1.allocs + c1.reallocs > c0.allocs + c0.reallocs);
    free(s);
    CHECK_EQ(stats().used, before.used);
    (void)c0;
    (void)c1;
}

/* A host file (semihosting) written through a buffer setvbuf() asks stdio to
 * allocate, then read back. */
static bool write_file(unsigned lines)
{
    FILE *f = fopen(STOW_LIBC_TEST_FILE, "w");
    bool ok = f != NULL;
    if (ok) {
        ok = setvbuf(f, NULL, _IOFBF, 256u) == 0;
        for (unsigned i = 0u; ok && i < lines; i++) {
            ok = fprintf(f, "line %u %.2f\n", i, (double)i * 0.25) > 0;
        }
        ok = fclose(f) == 0 && ok;
    }
    return ok;
}

TEST(buffered_file_stream)
{
    stow_stats_t before;
    stow_malloc_counts_t c0;
    stow_malloc_counts_t c1;
    char text[32];
    char want[32];
    unsigned i = 0u;
    FILE *f;
    CHECK(write_file(4u)); /* first FILE: the library's own tables may grow */
    before = stats();
    c0 = counts();
    CHECK(write_file(40u)); /* 40 lines: several flushes of the 256-byte buffer */
    c1 = counts();
    CHECK_COUNT(c1.allocs >= c0.allocs + 1u); /* the buffer (picolibc: and the FILE) */
    CHECK_COUNT(c1.frees > c0.frees);
    CHECK_EQ(stats().used, before.used); /* fclose gave it all back */
    CHECK_LT(before.used, stats().peak);
    f = fopen(STOW_LIBC_TEST_FILE, "r");
    CHECK_NOT_NULL(f);
    while (fgets(text, (int)sizeof text, f) != NULL) {
        (void)snprintf(want, sizeof want, "line %u %.2f\n", i, (double)i * 0.25);
        if (!same(text, want)) {
            break;
        }
        i++;
    }
    CHECK_EQ(fclose(f), 0);
    CHECK_EQ(i, 40u);
    CHECK_EQ(stats().used, before.used);
    (void)c0;
    (void)c1;
}

#if NEWLIB
TEST(open_memstream_grows)
{
    stow_stats_t before = stats();
    char *buf = NULL;
    size_t len = 0u;
    FILE *f = open_memstream(&buf, &len);
    CHECK_NOT_NULL(f);
    for (unsigned i = 0u; i < 60u; i++) {
        CHECK(fprintf(f, "%u,", i) > 0);
    }
    CHECK_EQ(fclose(f), 0);
    CHECK_NOT_NULL(buf);
    CHECK_EQ(len, 10u * 2u + 50u * 3u);
    CHECK(strncmp(buf, "0,1,2,", 6u) == 0);
    CHECK(same(buf + len - 3u, "59,"));
    CHECK_LT(before.used, stats().used); /* the text is the caller's now */
    free(buf);
    CHECK_EQ(stats().used, before.used);
}
#else
TEST(fmemopen_own_buffer)
{
    stow_stats_t before = stats();
    char text[16];
    FILE *f = fmemopen(NULL, 128u, "w+"); /* picolibc allocates the buffer and the FILE */
    CHECK_NOT_NULL(f);
    CHECK_LT(before.used + 128u, stats().used + 1u);
    CHECK(fprintf(f, "%d %s\n", 7, "seven") > 0);
    rewind(f);
    CHECK_NOT_NULL(fgets(text, (int)sizeof text, f));
    CHECK(same(text, "7 seven\n"));
    CHECK_EQ(fclose(f), 0);
    CHECK_EQ(stats().used, before.used);
}

TEST(regcomp_allocates)
{
    stow_stats_t before = stats();
    regex_t re;
    CHECK_EQ(regcomp(&re, "^a[0-9]+(b|c)$", REG_EXTENDED | REG_NOSUB), 0);
    CHECK_LT(before.used, stats().used);
    CHECK_EQ(regexec(&re, "a123c", 0u, NULL, 0), 0);
    CHECK_NE(regexec(&re, "a12x", 0u, NULL, 0), 0);
    regfree(&re);
    CHECK_EQ(stats().used, before.used);
}
#endif

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a;
    double y = *(const double *)b;
    return (x > y) - (x < y);
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

TEST(qsort_heap_arrays)
{
    stow_stats_t before = stats();
    double *values = malloc(SORT_COUNT * sizeof *values);
    char **words = calloc(SORT_COUNT, sizeof *words);
    unsigned i;
    CHECK_NOT_NULL(values);
    CHECK_NOT_NULL(words);
    stow_test_seed(99u);
    for (i = 0u; i < SORT_COUNT; i++) {
        char text[16];
        values[i] = (double)stow_test_rand_below(100000u) / 7.0;
        (void)snprintf(text, sizeof text, "w%05u", (unsigned)stow_test_rand_below(100000u));
        words[i] = strdup(text);
        CHECK_NOT_NULL(words[i]);
    }
    qsort(values, SORT_COUNT, sizeof *values, by_value);
    qsort(words, SORT_COUNT, sizeof *words, by_text);
    for (i = 1u; i < SORT_COUNT; i++) {
        CHECK(values[i - 1u] <= values[i]);
        CHECK(strcmp(words[i - 1u], words[i]) <= 0);
    }
    for (i = 0u; i < SORT_COUNT; i++) {
        free(words[i]);
    }
    free(words);
    free(values);
    CHECK_EQ(stats().used, before.used);
}

/* ---- the entry points' contracts ------------------------------------------------- */

TEST(malloc_free_calloc)
{
    stow_stats_t before = stats();
    unsigned char *p = malloc(0u);
    unsigned char *q = malloc(0u);
    unsigned char *z;
    uint32_t fails;
    CHECK_NOT_NULL(p);
    CHECK_NOT_NULL(q);
    CHECK(p != q);
    CHECK_EQ((uintptr_t)p % 8u, 0u);
    free(p);
    free(q);
    free(NULL);
    CHECK_EQ(stats().used, before.used);

    /* calloc zeroes memory that was dirty */
    p = malloc(100u);
    CHECK_NOT_NULL(p);
    memset(p, 0xAB, 100u);
    free(p);
    z = calloc(25u, 4u);
    CHECK_NOT_NULL(z);
    for (unsigned i = 0u; i < 100u; i++) {
        CHECK_EQ(z[i], 0u);
    }
    free(z);

    fails = stats().fails;
    errno = 0;
    CHECK_NULL(malloc(HUGE_REQUEST));
    CHECK_EQ(errno, ENOMEM);
    errno = 0;
    CHECK_NULL(calloc_call(SIZE_MAX / 2u, 3u)); /* n * size overflows */
    CHECK_EQ(errno, ENOMEM);
    errno = 0;
    CHECK_NULL(calloc(HUGE_REQUEST, 1u));
    CHECK_EQ(errno, ENOMEM);
    CHECK_EQ(stats().fails, fails + 3u);
    CHECK_EQ(malloc_usable_size(NULL), 0u);
    CHECK_EQ(stats().used, before.used);
}

TEST(realloc_contract)
{
    stow_stats_t before = stats();
    unsigned char *p = realloc(NULL, 10u);
    unsigned char *q;
    unsigned i;
    CHECK_NOT_NULL(p);
    for (i = 0u; i < 10u; i++) {
        p[i] = (unsigned char)(i + 1u);
    }
    q = realloc(p, 300u); /* grows: the bytes come along */
    CHECK_NOT_NULL(q);
    for (i = 0u; i < 10u; i++) {
        CHECK_EQ(q[i], i + 1u);
    }
    p = realloc_call(q, 5u); /* shrinking stays in place (a bounded heap moves it to its power of two) */
#if !(defined(STOW_MALLOC_BOUNDED) && STOW_MALLOC_BOUNDED)
    CHECK_PTR_EQ(p, q);
#endif
    CHECK_NOT_NULL(p);
    errno = 0;
    CHECK_NULL(realloc_call(p, HUGE_REQUEST)); /* no room: p untouched */
    CHECK_EQ(errno, ENOMEM);
    for (i = 0u; i < 5u; i++) {
        CHECK_EQ(p[i], i + 1u);
    }
    CHECK_LE(5u, malloc_usable_size(p));
    errno = 0;
    CHECK_NULL(realloc_call(p, 0u)); /* frees, as newlib's and picolibc's own do */
    CHECK_EQ(errno, 0);
    CHECK_EQ(stats().used, before.used);
    p = reallocarray(NULL, 10u, 10u);
    CHECK_NOT_NULL(p);
    CHECK_NULL(reallocarray_call(p, SIZE_MAX / 2u, 4u));
    free(p);
    CHECK_EQ(stats().used, before.used);
}

TEST(aligned_calls)
{
    stow_stats_t before = stats();
    void *p = NULL;
    void *keep;
    unsigned char *a;
    CHECK_NOT_NULL(a = aligned_alloc(64u, 100u));
    CHECK_EQ((uintptr_t)a % 64u, 0u);
    a[0] = 7u;
    a = realloc(a, 400u); /* keeps its alignment */
    CHECK_NOT_NULL(a);
    CHECK_EQ((uintptr_t)a % 64u, 0u);
    CHECK_EQ(a[0], 7u);
    free(a);
    errno = 0;
    CHECK_NULL(aligned_alloc(24u, 8u));
    CHECK_EQ(errno, EINVAL);
    errno = 0;
    CHECK_NULL(aligned_alloc(0u, 8u));
    CHECK_EQ(errno, EINVAL);
    CHECK_NOT_NULL(a = memalign(256u, 1u));
    CHECK_EQ((uintptr_t)a % 256u, 0u);
    free(a);
    errno = 0;
    CHECK_NULL(memalign((size_t)1u << 30, 1u)); /* alignment beyond the heap */
    CHECK_EQ(errno, ENOMEM);

    CHECK_EQ(posix_memalign(&p, 32u, 40u), 0);
    CHECK_NOT_NULL(p);
    CHECK_EQ((uintptr_t)p % 32u, 0u);
    keep = p;
    errno = 1234;
    CHECK_EQ(posix_memalign(&p, 2u, 8u), EINVAL); /* below sizeof(void *) */
    CHECK_EQ(posix_memalign(&p, 24u, 8u), EINVAL);
    CHECK_EQ(posix_memalign(&p, 0u, 8u), EINVAL);
    CHECK_EQ(posix_memalign(&p, 16u, HUGE_REQUEST), ENOMEM);
    CHECK_PTR_EQ(p, keep); /* untouched on failure */
    CHECK_EQ(errno, 1234); /* and errno too */
    free(p);

    CHECK_NOT_NULL(a = valloc(10u));
    CHECK_EQ((uintptr_t)a % STOW_MALLOC_PAGE_SIZE, 0u);
    free(a);
    CHECK_NOT_NULL(a = pvalloc(1u));
    CHECK_EQ((uintptr_t)a % STOW_MALLOC_PAGE_SIZE, 0u);
    CHECK_LE(STOW_MALLOC_PAGE_SIZE, malloc_usable_size(a));
    free(a);
    CHECK_EQ(stats().used, before.used);
}

TEST(mallinfo_is_the_heap)
{
    stow_stats_t s;
    struct mallinfo mi;
    void *p = malloc(50u);
    CHECK_NOT_NULL(p);
    mi = mallinfo();
    s = stats();
    CHECK_EQ(mi.arena, s.capacity);
    CHECK_EQ(mi.uordblks, s.used);
    CHECK_EQ(mi.fordblks, s.capacity - s.used);
    CHECK_EQ(mi.usmblks, s.peak);
    malloc_stats(); /* "stow heap: capacity ..., used ..." on stderr */
    (void)fflush(stderr);
    CHECK_EQ(mallopt(M_TOP_PAD, 0), 0);
    CHECK_EQ(malloc_trim(0u), 0);
    free(p);
    CHECK_LE(STOW_MALLOC_HEAP_BYTES / 2u, s.capacity);
    CHECK_LE(s.capacity, STOW_MALLOC_HEAP_BYTES);
}

#if NEWLIB
/* The reentrant forms newlib's own code calls, and the plain ones, set the
 * struct _reent's errno. */
TEST(newlib_reentrant_forms)
{
    struct _reent *r = _REENT;
    stow_stats_t before = stats();
    void *p = _malloc_r(r, 20u);
    void *q;
    CHECK_NOT_NULL(p);
    CHECK_LE(20u, _malloc_usable_size_r(r, p));
    q = _realloc_r(r, p, 200u);
    CHECK_NOT_NULL(q);
    _free_r(r, q);
    CHECK_NOT_NULL(p = _calloc_r(r, 4u, 4u));
    _free_r(r, p);
    CHECK_NOT_NULL(p = _memalign_r(r, 128u, 4u));
    CHECK_EQ((uintptr_t)p % 128u, 0u);
    _free_r(r, p);
    r->_errno = 0;
    CHECK_NULL(_malloc_r(r, HUGE_REQUEST));
    CHECK_EQ(r->_errno, ENOMEM);
    r->_errno = 0;
    CHECK_NULL(_calloc_r(r, SIZE_MAX / 2u, 3u)); /* not known to the compiler as calloc */
    CHECK_EQ(r->_errno, ENOMEM);
    r->_errno = 0;
    CHECK_NULL(_memalign_r(r, 3u, 8u));
    CHECK_EQ(r->_errno, EINVAL);
    CHECK_EQ(stats().used, before.used);
}
#endif

#if STOW_CHECK_LEVEL >= 1
/* A free that is a caller bug reaches stow_port_assert_failed (here the
 * harness, which records it and returns; a firmware's hook halts or resets). */
TEST(bad_free_reaches_the_assert_hook)
{
    stow_stats_t before = stats();
    int local = 0;
    void *r;
    char *p = malloc(16u);
    CHECK_NOT_NULL(p);
    EXPECT_VIOLATION_TEXT(free_call(&local), "stow_heap_free: not a live block of this heap (outside, "
                                             "interior, misaligned or freed already)");
    EXPECT_VIOLATION(free_call(p + 8));
    free_call(p);
    EXPECT_VIOLATION(free_call(p)); /* double free */
    EXPECT_VIOLATION(r = realloc_call(&local, 8u));
    CHECK_NULL(r);
    CHECK_EQ(stats().used, before.used);
    CHECK(stow_malloc_check());
}
#endif

#if STOW_CHECK_LEVEL >= 2
TEST(overrun_reaches_the_assert_hook)
{
    char *p = malloc(10u);
    CHECK_NOT_NULL(p);
    CHECK_EQ(malloc_usable_size(p), 10u); /* level 2: exactly what was asked */
    stow_test_poke(p + 10, 'x');
    EXPECT_VIOLATION_TEXT(free_call(p), "stow_heap_free: write past the end of the block");
    CHECK(stow_malloc_check());
}
#endif

/* ---- an interrupt handler shares the heap ------------------------------------------ */

#define SYST_CSR REG32(0xE000E010u)
#define SYST_RVR REG32(0xE000E014u)
#define SYST_CVR REG32(0xE000E018u)
#define SYST_ENABLE_TICKINT_CPUCLK 7u

#define ISR_SLOTS 4u
#define ISR_TICKS 300u

static volatile bool isr_on;
static volatile uint32_t isr_ticks;
static volatile uint32_t isr_bad;
static volatile uint32_t isr_refused;
static unsigned char *isr_slot[ISR_SLOTS];
static size_t isr_size[ISR_SLOTS];
static uint32_t isr_rand = 0x2545F491u;

static uint32_t isr_next(void)
{
    isr_rand ^= isr_rand << 13;
    isr_rand ^= isr_rand >> 17;
    isr_rand ^= isr_rand << 5;
    return isr_rand;
}

static bool filled(const unsigned char *p, size_t n, unsigned char v)
{
    for (size_t i = 0u; i < n; i++) {
        if (p[i] != v) {
            return false;
        }
    }
    return true;
}

static unsigned char tag(const void *p) { return (unsigned char)(((uintptr_t)p >> 3) | 1u); }

/* Each tick replaces one slot: checks and frees the old block, then mallocs,
 * callocs or reallocs a new one and fills it. */
static void tick(void)
{
    uint32_t i;
    uint32_t r;
    size_t n;
    unsigned char *p;
    if (!isr_on) {
        return;
    }
    i = isr_ticks % ISR_SLOTS;
    r = isr_next();
    n = 1u + r % ISR_MAX;
    p = isr_slot[i];
    if (p != NULL && !filled(p, isr_size[i], tag(p))) {
        isr_bad = isr_bad + 1u;
    }
    if (p != NULL && (r >> 16) % 3u == 0u) {
        unsigned char *q = realloc(p, n);
        if (q != NULL) {
            p = q;
        } else {
            free(p);
            p = NULL;
        }
    } else {
        free(p);
        p = (r >> 16) % 3u == 1u ? calloc(1u, n) : malloc(n);
        if (p != NULL && (r >> 16) % 3u == 1u && !filled(p, n, 0u)) {
            isr_bad = isr_bad + 1u;
        }
    }
    if (p == NULL) {
        isr_refused = isr_refused + 1u;
        n = 0u;
    } else {
        memset(p, tag(p), n);
    }
    isr_slot[i] = p;
    isr_size[i] = n;
    isr_ticks = isr_ticks + 1u;
}

#if NEWLIB
void SysTick_Handler(void);
void SysTick_Handler(void) { tick(); }
#else
void arm_systick_isr(void);
void arm_systick_isr(void) { tick(); }
#endif

TEST(interrupts_share_the_heap)
{
    stow_stats_t before = stats();
    stow_malloc_counts_t c0 = counts();
    unsigned char *slot[STRESS_SLOTS] = {NULL};
    size_t size[STRESS_SLOTS] = {0u};
    uint32_t refused = 0u;
    uint32_t bad = 0u;
    uint32_t rounds = 0u;
    unsigned i;

    stow_test_seed(2024u);
    isr_on = true;
    SYST_RVR = 3000u - 1u;
    SYST_CVR = 0u;
    SYST_CSR = SYST_ENABLE_TICKINT_CPUCLK;
    while (isr_ticks < ISR_TICKS && rounds < 3000000u) {
        uint32_t k = stow_test_rand_below(STRESS_SLOTS);
        uint32_t op = stow_test_rand_below(4u);
        size_t n = 1u + stow_test_rand_below(STRESS_MAX);
        unsigned char *p = slot[k];
        rounds++;
        if (p != NULL && !filled(p, size[k], tag(p))) {
            bad++;
        }
        if (p == NULL || op == 0u) {
            free(p);
            p = op == 1u ? calloc(n, 1u) : malloc(n);
        } else if (op == 1u) {
            unsigned char *q = realloc(p, n);
            if (q == NULL) {
                free(p); /* keep going with an empty slot */
            }
            p = q;
        } else {
            free(p);
            p = NULL;
            n = 0u;
        }
        if (p == NULL) {
            refused += n != 0u ? 1u : 0u;
            n = 0u;
        } else {
            memset(p, tag(p), n);
        }
        slot[k] = p;
        size[k] = n;
    }
    SYST_CSR = 0u;
    isr_on = false;
    for (i = 0u; i < STRESS_SLOTS; i++) {
        if (slot[i] != NULL && !filled(slot[i], size[i], tag(slot[i]))) {
            bad++;
        }
        free(slot[i]);
    }
    for (i = 0u; i < ISR_SLOTS; i++) {
        free(isr_slot[i]);
        isr_slot[i] = NULL;
    }
    stow_test_print("interrupts: ");
    stow_test_print_u(isr_ticks);
    stow_test_print(" ticks (");
    stow_test_print_u(isr_refused);
    stow_test_print(" refused) against ");
    stow_test_print_u(rounds);
    stow_test_print(" main-loop calls (");
    stow_test_print_u(refused);
    stow_test_print(" refused)\n");
    CHECK_LE(ISR_TICKS, isr_ticks);
    CHECK_EQ(bad, 0u);
    CHECK_EQ(isr_bad, 0u);
    CHECK_LT(isr_refused + refused, (isr_ticks + rounds) / 4u);
    CHECK_COUNT(counts().allocs > c0.allocs + isr_ticks);
    CHECK_EQ(stats().used, before.used);
    CHECK(stow_malloc_check());
    (void)c0;
}

/* ---- the end ---------------------------------------------------------------------- */

TEST(heap_is_sound_at_the_end)
{
    stow_stats_t s = stats();
    CHECK(stow_malloc_check());
    CHECK_LT(0u, s.peak);
    CHECK_LT(0u, s.fails);
#if NEWLIB
    CHECK_LT(0u, s.used); /* stdout's buffer and the big-number cache stay */
#endif
}

int main(void)
{
#if NEWLIB && (defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__))
    /* targets/cortex-m/startup.c makes unaligned accesses trap, to catch stow's
     * own; newlib's v7-M build makes some on purpose (the architecture allows
     * them), so this image lets them be. */
    REG32(0xE000ED14u) &= ~(1u << 3); /* SCB->CCR.UNALIGN_TRP */
#endif
    stow_test_print("stow libc adapter: " LIBC_NAME ", check level ");
    stow_test_print_u(STOW_CHECK_LEVEL);
    stow_test_print(", heap ");
    stow_test_print_u(STOW_MALLOC_HEAP_BYTES);
    stow_test_print(" bytes\n");
    RUN(printf_floats_to_stdout);
    RUN(snprintf_and_strtod_of_floats);
    RUN(strdup_and_strndup);
    RUN(asprintf_grows_its_string);
    RUN(buffered_file_stream);
#if NEWLIB
    RUN(open_memstream_grows);
    RUN(newlib_reentrant_forms);
#else
    RUN(fmemopen_own_buffer);
    RUN(regcomp_allocates);
#endif
    RUN(qsort_heap_arrays);
    RUN(malloc_free_calloc);
    RUN(realloc_contract);
    RUN(aligned_calls);
    RUN(mallinfo_is_the_heap);
#if STOW_CHECK_LEVEL >= 1
    RUN(bad_free_reaches_the_assert_hook);
#endif
#if STOW_CHECK_LEVEL >= 2
    RUN(overrun_reaches_the_assert_hook);
#endif
    RUN(interrupts_share_the_heap);
    RUN(heap_is_sound_at_the_end);
    (void)fflush(stdout);
    print_stats("heap at the end");
    return stow_test_finish();
}
