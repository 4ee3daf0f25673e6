/* SPDX-License-Identifier: MIT */
/* adapters/libc/stow_malloc.c - the C library's allocator, served by one stow
 * heap, for firmware built with newlib (newlib-nano included) or picolibc.
 *
 * Add this file to the firmware, set STOW_MALLOC_HEAP_BYTES
 * (stow_malloc_config.h or -D), and every malloc in the program, the C
 * library's own included (stdio buffers, strdup, asprintf, newlib's big numbers
 * for printf and strtod of floats...), comes from a STOW_HEAP_DEFINE'd heap in
 * static storage: the libc's own allocator and its sbrk are not linked.
 *
 * Defined here:
 *   both libcs   malloc free calloc realloc aligned_alloc memalign posix_memalign
 *                valloc pvalloc malloc_usable_size cfree mallinfo malloc_stats
 *                mallopt malloc_trim
 *   newlib       the reentrant forms the library calls internally: _malloc_r
 *                _free_r _calloc_r _realloc_r _memalign_r _valloc_r _pvalloc_r
 *                _malloc_usable_size_r _mallinfo_r _malloc_stats_r _mallopt_r
 *                _malloc_trim_r, and mstats/_mstats_r (which share an object
 *                with mallinfo in libc_nano.a, so they must come from here too).
 *                newlib's __malloc_lock/__malloc_unlock are neither called nor
 *                needed: the port's critical section does their job.
 *   picolibc     nothing more: its library calls the plain names.
 *
 * Semantics (where C, POSIX and the two libcs leave a choice):
 *   malloc(0)            a unique minimum block (not NULL), to be freed.
 *   realloc(NULL, n)     malloc(n).
 *   realloc(p, 0)        frees p and returns NULL, as newlib's and picolibc's
 *                        own allocators do (p != NULL).
 *   realloc(p, n)        keeps p's alignment; shrinking never fails, nor moves
 *                        unless STOW_MALLOC_BOUNDED; on failure p is untouched.
 *   aligned_alloc(a, n), memalign(a, n)
 *                        a must be a power of two (else NULL, errno EINVAL);
 *                        any n, 0 included.
 *   posix_memalign       a must be a power of two and a multiple of
 *                        sizeof(void *), else EINVAL; ENOMEM when there is no
 *                        room; *memptr is set only on success; errno untouched.
 *   valloc, pvalloc      aligned to STOW_MALLOC_PAGE_SIZE; pvalloc rounds the
 *                        size up to it (0 to one page).
 *   malloc_usable_size   what stow_heap_usable_size() says; 0 for NULL.
 *   mallinfo             arena: the heap's capacity; uordblks: bytes in live
 *                        blocks (headers included); fordblks: arena - uordblks;
 *                        usmblks: the peak of uordblks; the other fields 0.
 *   malloc_stats         writes the heap's figures to stderr.
 *   mallopt, malloc_trim nothing to tune or give back: return 0.
 * Any failure to allocate returns NULL with errno (newlib: r->_errno) ENOMEM
 * and counts in the heap's fails.
 *
 * Interrupts: each call runs inside stow_port_critical_enter()/exit() (the
 * _isr calls of stow/heap.h, or a section of its own), so interrupt handlers
 * and the main program may allocate from the same heap; on one core this also
 * makes it safe between RTOS threads. calloc zeroes its block after the
 * critical section; a realloc that moves copies inside it. An allocation that
 * fails inside an interrupt sets errno there, like any C call would.
 *
 * Contract violations (free or realloc of a pointer that is not a live block of
 * the heap: a double free, a pointer into the middle of a block, a stack
 * address) go to stow_port_assert_failed() at STOW_CHECK_LEVEL 1 and 2, and are
 * undefined at level 0 (see stow/heap.h).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1 /* posix_memalign, valloc, the BSD and SVID extensions */
#endif

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>

#include "stow/port.h"
#include "stow_malloc.h"

#if defined(__PICOLIBC__)
#define STOW_MALLOC_NEWLIB 0
#elif defined(_NEWLIB_VERSION)
#define STOW_MALLOC_NEWLIB 1
#include <reent.h>
#else
#error "adapters/libc/stow_malloc.c is for newlib and picolibc; on a host, use an interposer instead"
#endif

#if (STOW_MALLOC_PAGE_SIZE) == 0 || ((STOW_MALLOC_PAGE_SIZE) & ((STOW_MALLOC_PAGE_SIZE) - 1)) != 0
#error "STOW_MALLOC_PAGE_SIZE must be a power of two"
#endif

#define PAGE ((size_t)(STOW_MALLOC_PAGE_SIZE))

#if STOW_MALLOC_BOUNDED
STOW_HEAP_DEFINE_BOUNDED_STATIC(malloc_heap, STOW_MALLOC_HEAP_BYTES);
#else
STOW_HEAP_DEFINE_STATIC(malloc_heap, STOW_MALLOC_HEAP_BYTES);
#endif

stow_heap_t *stow_malloc_heap(void) { return &malloc_heap; }

/* ---- the heap calls, each inside the port's critical section ------------------- */

#if STOW_MALLOC_COUNT
static stow_malloc_counts_t counts;
#define COUNT(what) (counts.what++)
#else
#define COUNT(what) ((void)0)
#endif

static void *heap_alloc(size_t size)
{
#if STOW_MALLOC_COUNT
    uint32_t state = stow_port_critical_enter();
    void *p = stow_heap_alloc(&malloc_heap, size);
    COUNT(allocs);
    stow_port_critical_exit(state);
    return p;
#else
    return stow_heap_alloc_isr(&malloc_heap, size);
#endif
}

/* align: a power of two (callers check). */
static void *heap_alloc_aligned(size_t size, size_t align)
{
    uint32_t state = stow_port_critical_enter();
    void *p = stow_heap_alloc_aligned(&malloc_heap, size, align);
    COUNT(allocs);
    stow_port_critical_exit(state);
    return p;
}

static void *heap_calloc(size_t n, size_t size)
{
    void *p;
    if (size != 0u && n > SIZE_MAX / size) {
        /* The heap refuses it in O(1) and counts the fail. */
        uint32_t state = stow_port_critical_enter();
        p = stow_heap_calloc(&malloc_heap, n, size);
        COUNT(allocs);
        stow_port_critical_exit(state);
        return p;
    }
    /* Zeroed outside the critical section: interrupts wait O(1), not O(size). */
    p = heap_alloc(n * size);
    if (p != NULL) {
        memset(p, 0, n * size);
    }
    return p;
}

static void heap_free(void *p)
{
    if (p == NULL) {
        return;
    }
#if STOW_MALLOC_COUNT
    {
        uint32_t state = stow_port_critical_enter();
        stow_heap_free(&malloc_heap, p);
        COUNT(frees);
        stow_port_critical_exit(state);
    }
#else
    stow_heap_free_isr(&malloc_heap, p);
#endif
}

static void *heap_realloc(void *p, size_t size)
{
    if (p == NULL) {
        return heap_alloc(size);
    }
    if (size == 0u) {
        heap_free(p);
        return NULL;
    }
#if STOW_MALLOC_COUNT
    {
        uint32_t state = stow_port_critical_enter();
        void *q = stow_heap_realloc(&malloc_heap, p, size);
        COUNT(reallocs);
        stow_port_critical_exit(state);
        return q;
    }
#else
    return stow_heap_realloc_isr(&malloc_heap, p, size);
#endif
}

static size_t heap_usable_size(void *p)
{
    uint32_t state;
    size_t n;
    if (p == NULL) {
        return 0u;
    }
    state = stow_port_critical_enter();
    n = stow_heap_usable_size(&malloc_heap, p);
    stow_port_critical_exit(state);
    return n;
}

static bool is_pow2(size_t x) { return x != 0u && (x & (x - 1u)) == 0u; }

/* pvalloc's size: size rounded up to whole pages, at least one; SIZE_MAX (which
 * the heap refuses, counting the fail) when that overflows. */
static size_t whole_pages(size_t size)
{
    if (size == 0u) {
        return PAGE;
    }
    if (size > SIZE_MAX - (PAGE - 1u)) {
        return SIZE_MAX;
    }
    return (size + PAGE - 1u) & ~(PAGE - 1u);
}

static struct mallinfo heap_mallinfo(void)
{
    struct mallinfo mi;
    stow_stats_t s;
    stow_malloc_stats(&s);
    memset(&mi, 0, sizeof mi);
    mi.arena = s.capacity;
    mi.uordblks = s.used;
    mi.fordblks = s.capacity - s.used;
    mi.usmblks = s.peak;
    return mi;
}

static void heap_print_stats(FILE *out)
{
    stow_stats_t s;
    stow_malloc_stats(&s);
    fprintf(out, "stow heap: capacity %lu, used %lu, peak %lu, fails %lu\n", (unsigned long)s.capacity,
            (unsigned long)s.used, (unsigned long)s.peak, (unsigned long)s.fails);
}

void stow_malloc_stats(stow_stats_t *out)
{
    uint32_t state = stow_port_critical_enter();
    stow_heap_stats(&malloc_heap, out);
    stow_port_critical_exit(state);
}

bool stow_malloc_check(void)
{
    uint32_t state = stow_port_critical_enter();
    bool ok = stow_heap_check(&malloc_heap);
    stow_port_critical_exit(state);
    return ok;
}

void stow_malloc_counts(stow_malloc_counts_t *out)
{
#if STOW_MALLOC_COUNT
    uint32_t state = stow_port_critical_enter();
    *out = counts;
    stow_port_critical_exit(state);
#else
    memset(out, 0, sizeof *out);
#endif
}

/* ---- the C library's names ------------------------------------------------------ */

#if STOW_MALLOC_NEWLIB
/* newlib: the reentrant forms are the real entry points (the library calls
 * them with its own struct _reent); the plain names pass _REENT. */
#define FAILED(r) ((r)->_errno = ENOMEM)

void *_malloc_r(struct _reent *r, size_t size)
{
    void *p = heap_alloc(size);
    if (p == NULL) {
        FAILED(r);
    }
    return p;
}

void _free_r(struct _reent *r, void *p)
{
    (void)r;
    heap_free(p);
}

void *_calloc_r(struct _reent *r, size_t n, size_t size)
{
    void *p = heap_calloc(n, size);
    if (p == NULL) {
        FAILED(r);
    }
    return p;
}

void *_realloc_r(struct _reent *r, void *p, size_t size)
{
    void *q = heap_realloc(p, size);
    if (q == NULL && (p == NULL || size != 0u)) {
        FAILED(r);
    }
    return q;
}

void *_memalign_r(struct _reent *r, size_t align, size_t size)
{
    void *p;
    if (!is_pow2(align)) {
        r->_errno = EINVAL;
        return NULL;
    }
    p = heap_alloc_aligned(size, align);
    if (p == NULL) {
        FAILED(r);
    }
    return p;
}

void *_valloc_r(struct _reent *r, size_t size) { return _memalign_r(r, PAGE, size); }

void *_pvalloc_r(struct _reent *r, size_t size) { return _memalign_r(r, PAGE, whole_pages(size)); }

size_t _malloc_usable_size_r(struct _reent *r, void *p)
{
    (void)r;
    return heap_usable_size(p);
}

struct mallinfo _mallinfo_r(struct _reent *r)
{
    (void)r;
    return heap_mallinfo();
}

void _malloc_stats_r(struct _reent *r) { heap_print_stats(_stderr_r(r)); }

int _mallopt_r(struct _reent *r, int param, int value)
{
    (void)r;
    (void)param;
    (void)value;
    return 0;
}

int _malloc_trim_r(struct _reent *r, size_t pad)
{
    (void)r;
    (void)pad;
    return 0;
}

void _mstats_r(struct _reent *r, char *text)
{
    fprintf(_stderr_r(r), "Memory allocation statistics %s\n", text != NULL ? text : "");
    _malloc_stats_r(r);
}

void *malloc(size_t size) { return _malloc_r(_REENT, size); }
void free(void *p) { _free_r(_REENT, p); }
void cfree(void *p) { _free_r(_REENT, p); }
void *calloc(size_t n, size_t size) { return _calloc_r(_REENT, n, size); }
void *realloc(void *p, size_t size) { return _realloc_r(_REENT, p, size); }
void *memalign(size_t align, size_t size) { return _memalign_r(_REENT, align, size); }
void *aligned_alloc(size_t align, size_t size) { return _memalign_r(_REENT, align, size); }
void *valloc(size_t size) { return _valloc_r(_REENT, size); }
void *pvalloc(size_t size) { return _pvalloc_r(_REENT, size); }
size_t malloc_usable_size(void *p) { return _malloc_usable_size_r(_REENT, p); }
struct mallinfo mallinfo(void) { return _mallinfo_r(_REENT); }
void malloc_stats(void) { _malloc_stats_r(_REENT); }
int mallopt(int param, int value) { return _mallopt_r(_REENT, param, value); }
int malloc_trim(size_t pad) { return _malloc_trim_r(_REENT, pad); }
void mstats(char *text) { _mstats_r(_REENT, text); }

#else /* picolibc */

static void *failed(void *p)
{
    if (p == NULL) {
        errno = ENOMEM;
    }
    return p;
}

static void *aligned(size_t align, size_t size)
{
    if (!is_pow2(align)) {
        errno = EINVAL;
        return NULL;
    }
    return failed(heap_alloc_aligned(size, align));
}

void *malloc(size_t size) { return failed(heap_alloc(size)); }
void free(void *p) { heap_free(p); }
void cfree(void *p) { heap_free(p); }
void *calloc(size_t n, size_t size) { return failed(heap_calloc(n, size)); }

void *realloc(void *p, size_t size)
{
    void *q = heap_realloc(p, size);
    if (q == NULL && (p == NULL || size != 0u)) {
        errno = ENOMEM;
    }
    return q;
}

void *memalign(size_t align, size_t size) { return aligned(align, size); }
void *aligned_alloc(size_t align, size_t size) { return aligned(align, size); }
void *valloc(size_t size) { return aligned(PAGE, size); }
void *pvalloc(size_t size) { return aligned(PAGE, whole_pages(size)); }
size_t malloc_usable_size(void *p) { return heap_usable_size(p); }
struct mallinfo mallinfo(void) { return heap_mallinfo(); }
void malloc_stats(void) { heap_print_stats(stderr); }

int mallopt(int param, int value)
{
    (void)param;
    (void)value;
    return 0;
}

int malloc_trim(size_t pad)
{
    (void)pad;
    return 0;
}

#endif /* picolibc */

int posix_memalign(void **memptr, size_t align, size_t size)
{
    void *p;
    if (!is_pow2(align) || align % sizeof(void *) != 0u) {
        return EINVAL;
    }
    p = heap_alloc_aligned(size, align);
    if (p == NULL) {
        return ENOMEM;
    }
    *memptr = p;
    return 0;
}
