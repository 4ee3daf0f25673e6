/* SPDX-License-Identifier: MIT */
/* test_preload.c - libstow_malloc.so's calls as a program sees them; run with
 * LD_PRELOAD=libstow_malloc.so STOW_HEAP_MB=64 (adapters/preload/check_api.sh).
 *
 *     test_preload            the checks below; ends "N passed, N failed"
 *     test_preload double     frees a block twice (must abort with the heap's message)
 *     test_preload foreign    frees a pointer the heap did not give (ignored, counted)
 *
 * Checks: the calls resolve to the library; each call's C / POSIX / glibc result
 * (sizes 0, alignment, zeroing, contents kept, overflow and refusals with their
 * errno); a request larger than the heap fails; four threads allocating,
 * resizing and freeing at once with their contents intact; a fork whose child
 * allocates. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned passed;
static unsigned failed;

static void expect(bool ok, const char *what)
{
    printf("%s %s\n", ok ? "ok" : "FAIL", what);
    fflush(stdout);
    if (ok) {
        passed++;
    } else {
        failed++;
    }
}

static bool aligned(const void *p, size_t a) { return ((uintptr_t)p & (a - 1u)) == 0u; }

/* Calls through volatile pointers: the compiler may not fold or drop them. */
static void *(*volatile do_malloc)(size_t) = malloc;
static void (*volatile do_free)(void *) = free;
static void *(*volatile do_calloc)(size_t, size_t) = calloc;
static void *(*volatile do_realloc)(void *, size_t) = realloc;
static void *(*volatile do_reallocarray)(void *, size_t, size_t) = reallocarray;

static void interposed(void)
{
    Dl_info info;
    bool ok = dladdr((void *)(uintptr_t)do_malloc, &info) != 0 && info.dli_fname != NULL &&
              strstr(info.dli_fname, "libstow_malloc") != NULL;
    expect(ok, "malloc resolves to libstow_malloc.so");
}

static void basics(void)
{
    void *a = do_malloc(0), *b = do_malloc(0);
    expect(a != NULL && b != NULL && a != b, "malloc(0): unique pointers");
    do_free(a);
    do_free(b);
    do_free(NULL);
    bool ok = true;
    for (size_t n = 1; n < 5000u; n = n * 2u + 1u) {
        unsigned char *p = do_malloc(n);
        ok = ok && p != NULL && aligned(p, 16u) && malloc_usable_size(p) >= n;
        if (p != NULL) {
            memset(p, 0xab, n);
        }
        do_free(p);
    }
    expect(ok, "malloc: 16-byte alignment, malloc_usable_size at least the request");
    expect(malloc_usable_size(NULL) == 0u, "malloc_usable_size(NULL) is 0");

    unsigned char *z = do_calloc(1000u, 3u);
    ok = z != NULL;
    for (size_t i = 0; ok && i < 3000u; i++) {
        ok = z[i] == 0u;
    }
    do_free(z);
    errno = 0;
    expect(ok && do_calloc(SIZE_MAX / 2u, 3u) == NULL && errno == ENOMEM, "calloc zeroes; overflow is ENOMEM");

    char *s = do_realloc(NULL, 10u);
    strcpy(s, "stow heap");
    s = do_realloc(s, 100000u);
    ok = s != NULL && strcmp(s, "stow heap") == 0;
    s = do_realloc(s, 4u);
    ok = ok && s != NULL && memcmp(s, "stow", 4u) == 0;
    errno = 0;
    ok = ok && do_realloc(s, 0u) == NULL;
    expect(ok, "realloc: from NULL, grow, shrink keep the contents; realloc(p, 0) frees and returns NULL");
    errno = 0;
    void *r = do_reallocarray(NULL, SIZE_MAX / 4u, 8u);
    expect(r == NULL && errno == ENOMEM, "reallocarray: overflow is ENOMEM");
    r = do_reallocarray(NULL, 10u, 10u);
    expect(r != NULL && malloc_usable_size(r) >= 100u, "reallocarray: n * size bytes");
    free(r);
}

static void alignment(void)
{
    bool ok = true;
    for (size_t a = 1; a <= 65536u; a *= 2u) {
        void *p = aligned_alloc(a, 3u * a + 1u);
        void *q = memalign(a, 100u);
        void *t = NULL;
        int rc = a >= sizeof(void *) ? posix_memalign(&t, a, 77u) : 0;
        ok = ok && p != NULL && aligned(p, a) && q != NULL && aligned(q, a) && rc == 0 &&
             (a < sizeof(void *) || aligned(t, a));
        free(p);
        free(q);
        free(t);
    }
    expect(ok, "aligned_alloc, memalign, posix_memalign: every power of two up to 64 KiB");
    errno = 0;
    expect(aligned_alloc(24u, 48u) == NULL && errno == EINVAL, "aligned_alloc: alignment 24 is EINVAL");
    void *m = memalign(48u, 10u);
    expect(m != NULL && aligned(m, 64u), "memalign(48): rounded up to 64, as glibc does");
    free(m);
    void *t = &t;
    expect(posix_memalign(&t, 12u, 8u) == EINVAL && posix_memalign(&t, 4u, 8u) == EINVAL && t == &t,
           "posix_memalign: EINVAL for 12 and for 4 (not a multiple of sizeof(void *)), out untouched");
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    void *v = valloc(10u), *pv = pvalloc(1u), *pv0 = pvalloc(0u);
    expect(v != NULL && aligned(v, page) && pv != NULL && aligned(pv, page) && malloc_usable_size(pv) >= page &&
               pv0 != NULL && malloc_usable_size(pv0) >= page,
           "valloc and pvalloc: page-aligned; pvalloc rounds up to whole pages, pvalloc(0) is one page");
    free(v);
    free(pv);
    free(pv0);
}

static void limits(void)
{
    errno = 0;
    void *p = do_malloc((size_t)100u << 20); /* STOW_HEAP_MB=64 */
    expect(p == NULL && errno == ENOMEM, "a request larger than the heap: NULL, ENOMEM");
    p = do_malloc((size_t)32u << 20);
    expect(p != NULL, "half the heap in one request");
    do_free(p);
}

/* ---- threads ---- */
#define SLOTS 64u
static void *worker(void *arg)
{
    uint32_t seed = (uint32_t)(uintptr_t)arg * 2654435761u + 1u;
    unsigned char *slot[SLOTS] = {0};
    size_t len[SLOTS] = {0};
    unsigned char tag = (unsigned char)(uintptr_t)arg;
    bool ok = true;
    for (unsigned i = 0; i < 100000u && ok; i++) {
        seed = seed * 1664525u + 1013904223u;
        unsigned s = (seed >> 8) % SLOTS;
        size_t n = 1u + (seed >> 16) % 700u;
        if (slot[s] != NULL) {
            ok = slot[s][0] == tag && slot[s][len[s] - 1u] == tag;
        }
        switch (seed % 3u) {
        case 0:
            do_free(slot[s]);
            slot[s] = do_malloc(n);
            break;
        case 1: {
            unsigned char *q = do_realloc(slot[s], n);
            if (q == NULL) {
                ok = false;
            }
            slot[s] = q;
            break;
        }
        default:
            do_free(slot[s]);
            slot[s] = do_calloc(1u, n);
            ok = ok && slot[s] != NULL && slot[s][n - 1u] == 0u;
            break;
        }
        if (slot[s] != NULL) {
            memset(slot[s], tag, n);
            len[s] = n;
        }
    }
    for (unsigned s = 0; s < SLOTS; s++) {
        do_free(slot[s]);
    }
    return ok ? NULL : (void *)1;
}

static void threads(void)
{
    pthread_t t[4];
    bool ok = true;
    for (uintptr_t i = 0; i < 4u; i++) {
        ok = ok && pthread_create(&t[i], NULL, worker, (void *)(i + 1u)) == 0;
    }
    for (unsigned i = 0; i < 4u; i++) {
        void *r = (void *)1;
        ok = ok && pthread_join(t[i], &r) == 0 && r == NULL;
    }
    expect(ok, "four threads: 400000 malloc, calloc, realloc and free at once, contents intact");
}

static void forked(void)
{
    void *keep = do_malloc(1000u);
    pid_t pid = fork();
    if (pid == 0) {
        void *p = do_malloc(5000u);
        do_free(keep);
        _exit(p != NULL ? 0 : 1);
    }
    int status = 1;
    waitpid(pid, &status, 0);
    expect(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && malloc_usable_size(keep) >= 1000u,
           "fork: the child allocates and frees on its copy of the heap");
    do_free(keep);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "double") == 0) {
        void *p = do_malloc(100u);
        do_free(p);
        do_free(p); /* must not return */
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "foreign") == 0) {
        static _Alignas(16) unsigned char not_ours[64];
        do_free(not_ours + 16); /* ignored, counted as a foreign free */
        return 0;
    }
    interposed();
    basics();
    alignment();
    limits();
    threads();
    forked();
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0u ? 0 : 1;
}
