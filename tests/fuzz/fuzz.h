/* SPDX-License-Identifier: MIT */
/* fuzz.h - what the libFuzzer targets in tests/fuzz/ share.
 *
 * Each target (fuzz_<module>.c) decodes its input into a sequence of calls,
 * wrong ones included (foreign, interior and misaligned pointers, double frees,
 * stale, null and forged handles, out-of-range indexes, bad alignments and
 * sizes, NULL objects), runs each against stow and against a plain model of the
 * documented behaviour, and compares every result. After every call it runs
 * stow_<module>_check(). Anything unexpected is a finding: the target prints it
 * and aborts, and libFuzzer keeps the input.
 *
 * Contract violations go to the recording hook below (the library's
 * stow_port_assert_failed). Every call says whether the model predicts one
 * (FZ_CALL): a violation the model did not predict, or a predicted one that did
 * not happen, is a finding; so is a predicted violation that changed any byte of
 * the watched memory (the container structs and their storage, registered with
 * fz_watch). Built at check levels 1 and 2 only: at level 0 a violation is
 * undefined behaviour.
 *
 * The targets are host programs: they use libc. They read storage a container
 * has released, which AddressSanitizer poisons, only through fz_copy and
 * fz_same, which the sanitizer does not check.
 */
#ifndef STOW_FUZZ_H
#define STOW_FUZZ_H

#include <stdio.h>
#include <stdlib.h>

#include "stow/stow.h"

#if STOW_CHECK_LEVEL < 1
#error "the fuzz targets feed contract violations: build them at check level 1 or 2"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_NO_ASAN __attribute__((no_sanitize("address")))
#define FZ_MAX_GEN STOW_HANDLE_MAX_GENERATION
#define FZ_RETIRE (STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE)

/* ---- the input ---------------------------------------------------------------- */

static const uint8_t *fz_data;
static size_t fz_left;
static unsigned fz_step; /* the call being made, for the report */

static inline void fz_begin(const uint8_t *data, size_t size)
{
    fz_data = data;
    fz_left = size;
    fz_step = 0u;
}

static inline bool fz_more(void) { return fz_left > 0u; }

/* The next input byte; 0 once the input is used up. */
static inline uint8_t fz_u8(void)
{
    if (fz_left == 0u) {
        return 0u;
    }
    fz_left--;
    return *fz_data++;
}

static inline uint32_t fz_u16(void)
{
    uint32_t lo = fz_u8();
    return lo | (uint32_t)fz_u8() << 8;
}

static inline uint32_t fz_u32(void) { return fz_u16() | fz_u16() << 16; }

/* 0 .. n-1 (n > 0). */
static inline uint32_t fz_below(uint32_t n) { return (n <= 256u ? fz_u8() : fz_u16()) % n; }

/* A size_t near the top of its range, or a small one: sizes that overflow. */
static inline size_t fz_size(size_t small_limit)
{
    uint8_t k = fz_u8();
    if (k < 16u) {
        return SIZE_MAX - k;
    }
    if (k < 24u) {
        return SIZE_MAX / (size_t)(k - 14u) + 1u;
    }
    return fz_below((uint32_t)small_limit);
}

/* An alignment: 0 (the default), a power of two up to 128, or not a power of two. */
static inline size_t fz_align(void)
{
    static const size_t aligns[] = {0, 1, 2, 4, 8, 16, 32, 64, 128, 0, 4, 8,
                                    3, 6, 12, 24, 48, 5, 100, SIZE_MAX};
    return aligns[fz_below(sizeof aligns / sizeof aligns[0])];
}

static inline bool fz_align_ok(size_t align) { return (align & (align - 1u)) == 0u; }

/* ---- findings ----------------------------------------------------------------- */

#define FZ_FAIL(...)                                                                   \
    do {                                                                               \
        fprintf(stderr, "FINDING at %s:%d, call %u: ", __FILE__, __LINE__, fz_step);   \
        fprintf(stderr, __VA_ARGS__);                                                  \
        fprintf(stderr, "\n");                                                         \
        abort();                                                                       \
    } while (0)

#define FZ_CHECK(cond)                                                                 \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            FZ_FAIL("%s", #cond);                                                      \
        }                                                                              \
    } while (0)

#define FZ_EQ(a, b)                                                                    \
    do {                                                                               \
        unsigned long long fz_a_ = (unsigned long long)(a);                            \
        unsigned long long fz_b_ = (unsigned long long)(b);                            \
        if (fz_a_ != fz_b_) {                                                          \
            FZ_FAIL("%s == %s (%llu vs %llu)", #a, #b, fz_a_, fz_b_);                  \
        }                                                                              \
    } while (0)

#define FZ_PTR_EQ(a, b) FZ_EQ((uintptr_t)(const void *)(a), (uintptr_t)(const void *)(b))

/* ---- contract violations -------------------------------------------------------- */

static unsigned fz_violations;
static const char *fz_last_violation = "";

void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    (void)file;
    (void)line;
    fz_violations++;
    fz_last_violation = expr;
}

/* Watched memory: copied before a call the model says is a violation, and
 * compared after it. */
#define FZ_WATCH_MAX 8
#define FZ_SNAP_BYTES 65536
static struct {
    const void *p;
    size_t n;
} fz_watched[FZ_WATCH_MAX];
static unsigned fz_nwatched;
static unsigned char fz_snap[FZ_SNAP_BYTES];

static inline FZ_NO_ASAN void fz_copy(void *dst, const void *src, size_t n)
{
    volatile unsigned char *d = (volatile unsigned char *)dst;
    const volatile unsigned char *s = (const volatile unsigned char *)src;
    for (size_t i = 0; i < n; i++) {
        d[i] = s[i];
    }
}

static inline FZ_NO_ASAN bool fz_same(const void *a, const void *b, size_t n)
{
    const volatile unsigned char *x = (const volatile unsigned char *)a;
    const volatile unsigned char *y = (const volatile unsigned char *)b;
    for (size_t i = 0; i < n; i++) {
        if (x[i] != y[i]) {
            return false;
        }
    }
    return true;
}

static inline FZ_NO_ASAN void fz_fill(void *dst, unsigned char value, size_t n)
{
    volatile unsigned char *d = (volatile unsigned char *)dst;
    for (size_t i = 0; i < n; i++) {
        d[i] = value;
    }
}

static inline void fz_watch_none(void) { fz_nwatched = 0u; }

static inline void fz_watch(const void *p, size_t n)
{
    size_t total = n;
    for (unsigned i = 0; i < fz_nwatched; i++) {
        total += fz_watched[i].n;
    }
    if (fz_nwatched == FZ_WATCH_MAX || total > FZ_SNAP_BYTES) {
        FZ_FAIL("fz_watch: too much to watch");
    }
    fz_watched[fz_nwatched].p = p;
    fz_watched[fz_nwatched].n = n;
    fz_nwatched++;
}

static inline void fz_snapshot(void)
{
    size_t at = 0u;
    for (unsigned i = 0; i < fz_nwatched; i++) {
        fz_copy(fz_snap + at, fz_watched[i].p, fz_watched[i].n);
        at += fz_watched[i].n;
    }
}

static inline bool fz_unchanged(void)
{
    size_t at = 0u;
    for (unsigned i = 0; i < fz_nwatched; i++) {
        if (!fz_same(fz_snap + at, fz_watched[i].p, fz_watched[i].n)) {
            return false;
        }
        at += fz_watched[i].n;
    }
    return true;
}

/* Makes one call. expect: the model predicts a contract violation; then exactly
 * one must be reported and the watched memory must not change. Otherwise none
 * may be reported. */
#define FZ_CALL(expect, call)                                                          \
    do {                                                                               \
        bool fz_expect_ = (expect);                                                    \
        unsigned fz_before_ = fz_violations;                                           \
        if (fz_expect_) {                                                              \
            fz_snapshot();                                                             \
        }                                                                              \
        call;                                                                          \
        unsigned fz_seen_ = fz_violations - fz_before_;                                \
        if (fz_seen_ != (fz_expect_ ? 1u : 0u)) {                                      \
            FZ_FAIL("%s: %u violations, model says %u (last: %s)", #call, fz_seen_,     \
                    fz_expect_ ? 1u : 0u, fz_last_violation);                          \
        }                                                                              \
        if (fz_expect_ && !fz_unchanged()) {                                           \
            FZ_FAIL("%s: a violation changed the container", #call);                   \
        }                                                                              \
    } while (0)

/* A call that must report no violation (checks, queries). */
#define FZ_QUIET(call) FZ_CALL(false, call)

/* An init call (call: a bool expression) the model says succeeds (ok), is refused
 * with false (neither, which must change nothing) or is a contract violation. */
#define FZ_INIT(violation, ok, call)                                                   \
    do {                                                                               \
        bool fz_refused_ = !(violation) && !(ok);                                      \
        if (fz_refused_) {                                                             \
            fz_snapshot();                                                             \
        }                                                                              \
        bool fz_r_ = !(ok);                                                            \
        FZ_CALL(violation, fz_r_ = (call));                                            \
        FZ_EQ(fz_r_, ok);                                                              \
        if (fz_refused_) {                                                             \
            FZ_CHECK(fz_unchanged());                                                  \
        }                                                                              \
    } while (0)

/* Spoils an init buffer the way the input says (how): 3 NULL, 4 up to 8 bytes
 * short, 5 up to 63 bytes long; any other value leaves it. */
static inline void fz_spoil_buffer(uint8_t how, unsigned char **buf, size_t *buf_size)
{
    if (how == 3u) {
        *buf = NULL;
    } else if (how == 4u && *buf_size > 0u) {
        *buf_size -= 1u + fz_below((uint32_t)(*buf_size < 8u ? *buf_size : 8u));
    } else if (how == 5u) {
        *buf_size += fz_below(64);
    }
}

/* The statistics s against the model's figures. */
#define FZ_STATS_EQ(s, want_capacity, want_used, want_peak, want_fails)            \
    do {                                                                               \
        FZ_EQ((s).capacity, want_capacity);                                            \
        FZ_EQ((s).used, want_used);                                                    \
        FZ_EQ((s).peak, want_peak);                                                    \
        FZ_EQ((s).fails, want_fails);                                                  \
    } while (0)

/* ---- item contents -------------------------------------------------------------- */

/* Byte k of an item tagged tag: every live item carries its tag's pattern. */
static inline unsigned char fz_byte(uint32_t tag, size_t k)
{
    return (unsigned char)(tag * 29u + k * 7u + (tag >> 8) + 1u);
}

static inline void fz_stamp(void *item, uint32_t tag, size_t n)
{
    unsigned char *b = (unsigned char *)item;
    for (size_t k = 0; k < n; k++) {
        b[k] = fz_byte(tag, k);
    }
}

static inline bool fz_stamped(const void *item, uint32_t tag, size_t n)
{
    const unsigned char *b = (const unsigned char *)item;
    for (size_t k = 0; k < n; k++) {
        if (b[k] != fz_byte(tag, k)) {
            return false;
        }
    }
    return true;
}

static inline bool fz_zero(const void *item, size_t n)
{
    const unsigned char *b = (const unsigned char *)item;
    for (size_t k = 0; k < n; k++) {
        if (b[k] != 0u) {
            return false;
        }
    }
    return true;
}

/* A round-up that says when it overflows (0), as the containers' own does. */
static inline size_t fz_round_up(size_t n, size_t align)
{
    size_t r = (n + (align - 1u)) & ~(align - 1u);
    return r < n ? 0u : r;
}

#endif /* STOW_FUZZ_H */
