/* SPDX-License-Identifier: MIT */
/* stow_lwip.h - lwIP's heap (mem_malloc, mem_calloc, mem_free) on a stow heap.
 *
 * In lwipopts.h, the one line:
 *     #include "stow_lwip.h"
 * and in one C11 source file of the firmware, the heap and the three functions:
 *     #include "stow/heap.h"
 *     #include "stow/port.h"
 *     #include "stow_lwip.h"
 *     STOW_LWIP_HEAP_DEFINE(lwip_heap, 32 * 1024);
 *
 * Included from lwipopts.h, this header maps lwIP's heap onto stow_lwip_malloc,
 * stow_lwip_calloc and stow_lwip_free:
 *   - lwIP 2.2 and later: MEM_CUSTOM_ALLOCATOR 1, with MEM_CUSTOM_MALLOC,
 *     MEM_CUSTOM_CALLOC and MEM_CUSTOM_FREE naming them, and MEM_LIBC_MALLOC 0;
 *   - lwIP 2.1 and before (no MEM_CUSTOM_ALLOCATOR), with STOW_LWIP_2_1 defined
 *     to 1 before the include: MEM_LIBC_MALLOC 1, and the mem_clib_malloc,
 *     mem_clib_calloc and mem_clib_free overrides that its mem.c reads.
 * (lwipopts.h is read before lwIP's version macros exist, hence the switch.)
 * lwIP's own heap (MEM_SIZE, ram_heap) is then not built. To route the memp
 * pools (pbufs, PCBs, timeouts) through the heap too, add MEMP_MEM_MALLOC 1 (not
 * set here: fixed pools are lwIP's usual choice, and their sizes the firmware's).
 * STOW_LWIP_NO_MAPPING, defined before the include, leaves the options alone and
 * only declares the functions.
 *
 * Contexts: lwIP calls mem_free from whatever context frees a pbuf (with
 * LWIP_ALLOW_MEM_FREE_FROM_OTHER_CONTEXT, an interrupt handler), and with
 * NO_SYS=1 an Ethernet driver may allocate in its receive interrupt. So the
 * functions use the heap's ISR-safe calls (the port's critical section) unless
 * STOW_LWIP_SHARED is defined to 0. mem_calloc zeroes inside the critical
 * section: O(size) with interrupts masked (lwIP callocs only small objects).
 *
 * Alignment: STOW_HEAP_ALIGN (8 on Cortex-M, 16 on 64-bit hosts) is at least
 * what MEM_ALIGNMENT asks for on those targets (4 or 8).
 */
#ifndef STOW_LWIP_H
#define STOW_LWIP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void *stow_lwip_malloc(size_t size);
void *stow_lwip_calloc(size_t n, size_t size);
void stow_lwip_free(void *p);

#ifdef __cplusplus
}
#endif

#ifndef STOW_LWIP_NO_MAPPING
#ifndef STOW_LWIP_2_1
#define STOW_LWIP_2_1 0
#endif
#undef MEM_LIBC_MALLOC
#if STOW_LWIP_2_1
#define MEM_LIBC_MALLOC 1 /* lwIP 2.1: mem.c maps mem_malloc onto mem_clib_* */
#else
#define MEM_LIBC_MALLOC 0
#endif
#define MEM_CUSTOM_ALLOCATOR 1 /* lwIP 2.2 and later */
#define MEM_CUSTOM_MALLOC stow_lwip_malloc
#define MEM_CUSTOM_CALLOC stow_lwip_calloc
#define MEM_CUSTOM_FREE stow_lwip_free
#define mem_clib_malloc stow_lwip_malloc /* lwIP 2.1 and before */
#define mem_clib_calloc stow_lwip_calloc
#define mem_clib_free stow_lwip_free
#endif

#ifndef STOW_LWIP_SHARED
#define STOW_LWIP_SHARED 1
#endif

/* STOW_LWIP_HEAP_DEFINE(name, bytes): at file scope in one source file, the heap
 * (STOW_HEAP_DEFINE_STATIC) and the three functions over it. */
#if STOW_LWIP_SHARED
#define STOW__LWIP_ALLOC(h, size) stow_heap_alloc_isr(h, size)
#define STOW__LWIP_FREE(h, p) stow_heap_free_isr(h, p)
#define STOW__LWIP_CALLOC(h, n, size)                       \
    do {                                                    \
        uint32_t stow__state = stow_port_critical_enter();  \
        stow__p = stow_heap_calloc(h, n, size);             \
        stow_port_critical_exit(stow__state);               \
    } while (0)
#else
#define STOW__LWIP_ALLOC(h, size) stow_heap_alloc(h, size)
#define STOW__LWIP_FREE(h, p) stow_heap_free(h, p)
#define STOW__LWIP_CALLOC(h, n, size) (stow__p = stow_heap_calloc(h, n, size))
#endif
#define STOW_LWIP_HEAP_DEFINE(name, bytes)                                            \
    STOW_HEAP_DEFINE_STATIC(name, bytes);                                             \
    void *stow_lwip_malloc(size_t size) { return STOW__LWIP_ALLOC(&(name), size); }   \
    void *stow_lwip_calloc(size_t n, size_t size)                                     \
    {                                                                                 \
        void *stow__p;                                                                \
        STOW__LWIP_CALLOC(&(name), n, size);                                          \
        return stow__p;                                                               \
    }                                                                                 \
    void stow_lwip_free(void *p) { STOW__LWIP_FREE(&(name), p); }                     \
    STOW_STATIC_ASSERT(1, "STOW_LWIP_HEAP_DEFINE")

#endif /* STOW_LWIP_H */
