/* SPDX-License-Identifier: MIT */
/* stow_mbedtls.h - mbedTLS's allocations on a stow heap.
 *
 *     #include "stow_mbedtls.h"
 *     STOW_HEAP_DEFINE(tls_heap, 64 * 1024);   // file scope
 *     stow_mbedtls_use(&tls_heap);             // the one line, before any mbedTLS call
 *
 * mbedTLS allocates through mbedtls_calloc and mbedtls_free. A build with
 * MBEDTLS_PLATFORM_C and MBEDTLS_PLATFORM_MEMORY in its configuration lets a
 * program set them at run time (mbedtls_platform_set_calloc_free), which is what
 * stow_mbedtls_use does: stow_mbedtls_calloc (n * size bytes, zeroed; NULL when
 * the product overflows or the heap has no room) and stow_mbedtls_free (NULL
 * ignored) over the heap given. It returns mbedtls_platform_set_calloc_free's
 * result (0).
 *
 * A build that fixes them at compile time instead (MBEDTLS_PLATFORM_CALLOC_MACRO
 * and MBEDTLS_PLATFORM_FREE_MACRO, no function pointer) needs functions with
 * external linkage, bound to one heap: STOW_MBEDTLS_DEFINE_HOOKS(heap) in one
 * source file defines stow_mbedtls_heap_calloc / stow_mbedtls_heap_free for it,
 * and the mbedTLS configuration names them:
 *     #define MBEDTLS_PLATFORM_CALLOC_MACRO stow_mbedtls_heap_calloc
 *     #define MBEDTLS_PLATFORM_FREE_MACRO   stow_mbedtls_heap_free
 *
 * In a build without MBEDTLS_PLATFORM_MEMORY (Debian's libmbedtls is one),
 * mbedTLS calls the C library's calloc and free, and stow_mbedtls_use is a
 * compile error that names the missing option; on a Linux host, run such a
 * program on stow's heap with libstow_malloc.so (adapters/preload) instead.
 *
 * The hooks use the heap's plain calls. mbedTLS built with MBEDTLS_THREADING_C
 * and used from several threads needs them inside the port's critical section:
 * define STOW_MBEDTLS_SHARED to 1 before including this header.
 */
#ifndef STOW_MBEDTLS_H
#define STOW_MBEDTLS_H

#include <stddef.h>

#include <mbedtls/platform.h>

#include "stow/heap.h"
#include "stow/port.h"

#ifndef STOW_MBEDTLS_SHARED
#define STOW_MBEDTLS_SHARED 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

static stow_heap_t *stow__mbedtls_heap;

static inline void *stow__mbedtls_calloc_on(stow_heap_t *h, size_t n, size_t size)
{
#if STOW_MBEDTLS_SHARED
    uint32_t state = stow_port_critical_enter();
    void *p = stow_heap_calloc(h, n, size);
    stow_port_critical_exit(state);
    return p;
#else
    return stow_heap_calloc(h, n, size);
#endif
}

static inline void stow__mbedtls_free_on(stow_heap_t *h, void *p)
{
#if STOW_MBEDTLS_SHARED
    stow_heap_free_isr(h, p);
#else
    stow_heap_free(h, p);
#endif
}

/* The hooks stow_mbedtls_use installs (usable directly too). */
static inline void *stow_mbedtls_calloc(size_t n, size_t size)
{
    return stow__mbedtls_calloc_on(stow__mbedtls_heap, n, size);
}
static inline void stow_mbedtls_free(void *p) { stow__mbedtls_free_on(stow__mbedtls_heap, p); }

/* Sets the heap the hooks use, without telling mbedTLS (for tests, and for the
 * compile-time route). */
static inline void stow_mbedtls_set_heap(stow_heap_t *h) { stow__mbedtls_heap = h; }

#if defined(MBEDTLS_PLATFORM_MEMORY) && \
    !(defined(MBEDTLS_PLATFORM_FREE_MACRO) && defined(MBEDTLS_PLATFORM_CALLOC_MACRO))
static inline int stow_mbedtls_use(stow_heap_t *h)
{
    stow__mbedtls_heap = h;
    return mbedtls_platform_set_calloc_free(stow_mbedtls_calloc, stow_mbedtls_free);
}
#else
#define stow_mbedtls_use(h) \
    stow_mbedtls_use_needs_MBEDTLS_PLATFORM_MEMORY_in_the_mbedtls_configuration(h)
#endif

/* For MBEDTLS_PLATFORM_CALLOC_MACRO / _FREE_MACRO: external hooks on one heap. */
#define STOW_MBEDTLS_DEFINE_HOOKS(heap)                                                          \
    void *stow_mbedtls_heap_calloc(size_t n, size_t size);                                       \
    void stow_mbedtls_heap_free(void *p);                                                        \
    void *stow_mbedtls_heap_calloc(size_t n, size_t size) { return stow__mbedtls_calloc_on(&(heap), n, size); } \
    void stow_mbedtls_heap_free(void *p) { stow__mbedtls_free_on(&(heap), p); }

#ifdef __cplusplus
}
#endif

#endif /* STOW_MBEDTLS_H */
