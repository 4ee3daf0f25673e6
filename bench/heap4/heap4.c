/* SPDX-License-Identifier: MIT */
/* heap4.c - FreeRTOS's heap_4 behind the replay's calls (see heap4.h), and what
 * heap_4.c needs from a kernel that is not there.
 *
 * A heap of any size in one image. heap_4's size is configTOTAL_HEAP_SIZE, a
 * constant (it sizes the ucHeap array), so the smallest-heap search cannot
 * make it smaller at run time. It makes an equivalent heap instead: heap_4
 * lays its storage out as one free block from the start of ucHeap to an end
 * marker, takes the lowest free block that fits (first fit, address order),
 * splits off the rest above it and never merges a block with the end marker.
 * heap4_reset(bytes) restarts heap_4 on the whole of ucHeap, allocates a block
 * L exactly as large as the first free block of a heap of `bytes` would be,
 * then a block H with all the rest, and frees L. The free list is then that
 * heap's: one block of the same size at the same address, its free bytes the
 * same, and above it a block (H) that is never freed, so never merged with,
 * where the smaller heap has its end marker, never merged with either. Every
 * later call then walks, splits and merges exactly as on a heap built with
 * configTOTAL_HEAP_SIZE = bytes. heap4_reset() checks the layout this rests on
 * (addresses and free bytes) and stops the image if heap_4 does otherwise. */
#include "heap4.h"

#include <string.h>

#include "FreeRTOS.h"
#include "task.h"
#include "stow/port.h"

/* heap_4's block header (xHeapStructSize): a BlockLink_t, two words on a
 * 32-bit port, rounded up to portBYTE_ALIGNMENT. */
#define HEADER ((sizeof(void *) + sizeof(size_t) + portBYTE_ALIGNMENT - 1u) & ~(size_t)portBYTE_ALIGNMENT_MASK)

size_t heap4_copy_bytes;
static size_t heap_bytes; /* the configTOTAL_HEAP_SIZE being played */

/* The size of the one free block prvHeapInit() makes of total bytes at an
 * aligned ucHeap: all of it but the end marker, rounded down to the alignment. */
static size_t first_block(size_t total) { return (total - HEADER) & ~(size_t)portBYTE_ALIGNMENT_MASK; }

#define STOP(why)                                \
    do {                                         \
        static const char text_[] = why;         \
        stow_port_write(text_, sizeof text_ - 1u); \
        stow_port_exit(1);                       \
    } while (0)

bool heap4_reset(size_t bytes)
{
    const size_t total = configTOTAL_HEAP_SIZE;
    /* room for a block of each part, and a rest above L that heap_4 splits off */
    if (bytes < 4u * HEADER || (bytes != total && bytes > total - 8u * HEADER)) {
        return false;
    }
    vPortHeapResetState();
    heap_bytes = bytes;
    if (bytes == total) {
        return true;
    }
    unsigned char *low = pvPortMalloc(first_block(bytes) - HEADER);
    unsigned char *high = pvPortMalloc(first_block(total) - first_block(bytes) - HEADER);
    if (low != ucHeap + HEADER || high != ucHeap + first_block(bytes) + HEADER || xPortGetFreeHeapSize() != 0u) {
        STOP("heap4: heap_4 did not lay its blocks out as heap4.c expects\n");
    }
    vPortFree(low);
    if (xPortGetFreeHeapSize() != first_block(bytes)) {
        STOP("heap4: heap_4's free bytes are not those of a heap of that size\n");
    }
    return true;
}

void *heap4_alloc(stow_heap_t *unused, size_t size)
{
    (void)unused;
    return pvPortMalloc(size != 0u ? size : 1u);
}

void *heap4_calloc(stow_heap_t *unused, size_t n, size_t size)
{
    (void)unused;
    return n != 0u && size != 0u ? pvPortCalloc(n, size) : pvPortMalloc(1u);
}

void *heap4_alloc_aligned(stow_heap_t *unused, size_t size, size_t align)
{
    (void)unused;
    return pvPortMalloc(size + (align > portBYTE_ALIGNMENT ? align - portBYTE_ALIGNMENT : 0u));
}

void *heap4_realloc(stow_heap_t *unused, void *p, size_t size)
{
    (void)unused;
    uint32_t *to = pvPortMalloc(size != 0u ? size : 1u);
    if (to == NULL) {
        return NULL; /* p stays */
    }
    /* a word at a time: heap_4's blocks are 8-byte aligned, and their sizes
     * rounded up to 8, so the last word is inside both */
    const uint32_t *from = p;
    size_t n = heap4_copy_bytes < size ? heap4_copy_bytes : size;
    for (size_t i = 0; i < (n + 3u) / 4u; i++) {
        to[i] = from[i];
        __asm__ volatile("" : : : "memory"); /* a loop, not a call of memcpy */
    }
    vPortFree(p);
    return to;
}

void heap4_free(stow_heap_t *unused, void *p)
{
    (void)unused;
    vPortFree(p);
}

size_t heap4_block_end(const void *p, size_t size)
{
    /* heap_4 rounds header + size up to the alignment */
    size_t block = (size + HEADER + portBYTE_ALIGNMENT_MASK) & ~(size_t)portBYTE_ALIGNMENT_MASK;
    return (size_t)((const unsigned char *)p - ucHeap) - HEADER + block;
}

bool heap4_all_free(void) { return xPortGetFreeHeapSize() == first_block(heap_bytes); }

/* ---- what heap_4.c calls of the kernel and the C library ---------------------------------- */
/* Weak: an image with the real kernel and a C library (bench/freertos) has its own. */

/* The scheduler lock around each call: there is no scheduler. */
__attribute__((weak)) void vTaskSuspendAll(void) {}
__attribute__((weak)) BaseType_t xTaskResumeAll(void) { return pdFALSE; }

/* pvPortCalloc's memset: the images have no C library. The barrier keeps GCC
 * from making this loop a call of memset. */
__attribute__((weak)) void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    for (size_t i = 0; i < n; i++) {
        d[i] = (unsigned char)c;
        __asm__ volatile("" : : : "memory");
    }
    return dst;
}
