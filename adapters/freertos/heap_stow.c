/* SPDX-License-Identifier: MIT */
/* heap_stow.c - FreeRTOS's heap on a stow heap: build it instead of heap_4.c.
 *
 *     # the one line in the build: instead of portable/MemMang/heap_4.c
 *     SRC += stow/adapters/freertos/heap_stow.c $(wildcard stow/lib/src/[a-z]*.c) stow/port/freertos/port.c
 *
 * (with stow/lib/include and stow/adapters/freertos on the include path, beside
 * the kernel's). Every call the kernel and your code make of FreeRTOS's heap
 * keeps its meaning:
 *
 *   pvPortMalloc(n)     n bytes aligned to portBYTE_ALIGNMENT, or NULL. Bounded
 *                       time: stow's allocation has no loop over blocks (heap_4
 *                       walks its free list). As heap_4: 0 bytes gives NULL (and
 *                       the hook); on NULL, vApplicationMallocFailedHook() runs
 *                       once the heap is unlocked, when configUSE_MALLOC_FAILED_HOOK
 *                       is 1; traceMALLOC(p, usable bytes) as the call ends.
 *   vPortFree(p)        NULL is ignored. A pointer that is not a live block of
 *                       the heap (freed twice, from elsewhere, inside a block) is
 *                       a contract violation at stow's check level 1 and above:
 *                       port/freertos sends it to configASSERT, and the heap is
 *                       left as it was. traceFREE(p, usable bytes). With
 *                       configHEAP_CLEAR_MEMORY_ON_FREE 1 the block's usable
 *                       bytes are zeroed first, as heap_4 does.
 *   pvPortCalloc(n, s)  n * s zeroed bytes (zeroed outside the lock); NULL when
 *                       n * s overflows (with no hook call, as heap_4) or when
 *                       pvPortMalloc gives NULL.
 *   xPortGetFreeHeapSize()             bytes of free blocks, headers included,
 *                       as heap_4 counts them: capacity less the bytes of live
 *                       blocks. Not what one request can get (vPortGetHeapStats'
 *                       largest block is).
 *   xPortGetMinimumEverFreeHeapSize()  the least that has ever been, since the
 *                       heap was laid out or since the last
 *   xPortResetHeapMinimumEverFreeHeapSize(), which makes it the current value.
 *                       These three read a few words under the port's critical
 *                       section: as heap_4's (which read a variable), they may
 *                       be called from tasks, from interrupt handlers at or
 *                       below configMAX_SYSCALL_INTERRUPT_PRIORITY and before
 *                       the scheduler starts. Before the first allocation they
 *                       lay the heap out and report it empty (heap_4 says 0).
 *   vPortGetHeapStats(&s)   every field, in O(1) (see below).
 *   vPortInitialiseBlocks()  nothing, as in heap_4 (the heap lays itself out
 *                       at its first use).
 *   vPortHeapResetState()   forgets the heap and its counters, for a firmware
 *                       that restarts the scheduler: the next call lays it out
 *                       empty again (in region mode: after vPortDefineHeapRegions).
 *
 * Locking. By default as heap_4: pvPortMalloc, vPortFree and vPortGetHeapStats
 * suspend the scheduler (vTaskSuspendAll / xTaskResumeAll), so tasks may call
 * them and interrupt handlers may not. With STOW_FREERTOS_HEAP_CRITICAL 1 they
 * hold the heap's lock instead (stow_heap_lock: with port/freertos the kernel's
 * critical section), which costs about half the instructions of a call and lets
 * interrupt handlers at or below configMAX_SYSCALL_INTERRUPT_PRIORITY allocate
 * and free too; interrupts at or below that priority then wait for the call (O(1)
 * at check levels 0 and 1; at level 2 the poison and canary checks are O(block)).
 *
 * Storage, as heap_4 and heap_5 take it:
 *   configTOTAL_HEAP_SIZE bytes in ucHeap, defined here; or, with
 *   configAPPLICATION_ALLOCATED_HEAP 1, your own
 *       uint8_t ucHeap[configTOTAL_HEAP_SIZE];
 *   (placed where your linker script says); or, with STOW_FREERTOS_HEAP_REGIONS
 *   1, no ucHeap at all: call vPortDefineHeapRegions(regions) before anything
 *   allocates, as with heap_5: the first region lays the heap out, each
 *   later one is added to it (stow_heap_add_region: a block never spans two
 *   regions; small requests' slots come from the first). A region that is too
 *   small (STOW_HEAP_MIN_REGION_BYTES) or overlaps another is refused
 *   (configASSERT), as is a second call. A start that is not
 *   aligned to STOW_HEAP_ALIGN is rounded up, the bytes skipped counting against
 *   the size. The heap appears in stow_report() as "freertos heap".
 *   The options are read from FreeRTOSConfig.h (or -D); see stow_freertos.h.
 *
 * Alignment: stow's payloads are aligned to STOW_HEAP_ALIGN (8 on Cortex-M, 16
 * on RV32 and 64-bit hosts), which the Arm and RISC-V ports' portBYTE_ALIGNMENT
 * divides; a port that wants more gets it from stow_heap_alloc_aligned(),
 * chosen at compile time. Builds with configASSERT check each pointer against
 * portBYTE_ALIGNMENT_MASK, as heap_4 does.
 *
 * vPortGetHeapStats fills:
 *   xAvailableHeapSpaceInBytes       xPortGetFreeHeapSize()
 *   xSizeOfLargestFreeBlockInBytes   stow_heap_largest_free(): the largest
 *                                    pvPortMalloc() sure to succeed now (a
 *                                    request size, where heap_4 gives a block's
 *                                    size, header included)
 *   xSizeOfSmallestFreeBlockInBytes  0, and
 *   xNumberOfFreeBlocks              0: not known. stow's heap keeps no count of
 *                                    its free blocks and has no call that walks
 *                                    them yet (heap_4 walks its free list for
 *                                    these two); a test checks that they read 0
 *   xMinimumEverFreeBytesRemaining   xPortGetMinimumEverFreeHeapSize()
 *   xNumberOfSuccessfulAllocations   pvPortMalloc() calls that returned a block
 *   xNumberOfSuccessfulFrees         vPortFree() calls with a pointer other than
 *                                    NULL (a contract violation stops at
 *                                    configASSERT; if that returns, the call
 *                                    still counts)
 * stow_heap_stats() and stow_heap_check() on stow_freertos_heap() give the rest:
 * peak, refused requests, and a full check of the heap's invariants.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"

#include "stow/heap.h"
#include "stow/port.h"
#include "stow/report.h"
#include "stow_freertos.h"

#if configSUPPORT_DYNAMIC_ALLOCATION == 0
#error "heap_stow.c: configSUPPORT_DYNAMIC_ALLOCATION is 0, so FreeRTOS has no heap to replace"
#endif

#ifndef configHEAP_CLEAR_MEMORY_ON_FREE
#define configHEAP_CLEAR_MEMORY_ON_FREE 0
#endif

static const char heap_name[] = "freertos heap";

#if STOW_FREERTOS_HEAP_REGIONS == 0
#if configAPPLICATION_ALLOCATED_HEAP == 1
extern uint8_t ucHeap[configTOTAL_HEAP_SIZE];
#else
PRIVILEGED_DATA static STOW_ALIGNAS(STOW_HEAP_ALIGN) uint8_t ucHeap[configTOTAL_HEAP_SIZE];
#endif
STOW_STATIC_ASSERT((uint64_t)configTOTAL_HEAP_SIZE >= STOW_HEAP_MIN_BYTES + STOW_HEAP_ALIGN,
                   "heap_stow.c: configTOTAL_HEAP_SIZE is below the smallest stow heap");
#endif

PRIVILEGED_DATA static stow_heap_t heap;
PRIVILEGED_DATA static bool laid_out;       /* heap is initialised over its storage */
PRIVILEGED_DATA static size_t allocations;  /* successful pvPortMalloc calls */
PRIVILEGED_DATA static size_t frees;        /* vPortFree calls with a block */
PRIVILEGED_DATA static bool low_reset;      /* xPortResetHeapMinimumEverFreeHeapSize was called */
PRIVILEGED_DATA static size_t used_high;    /* the most bytes live since that reset */

/* Makes the size bytes at start (rounded up to STOW_HEAP_ALIGN) storage of the
 * heap: the heap itself when it has none yet. */
static bool add_region(uint8_t *start, size_t size)
{
    size_t skip = (STOW_HEAP_ALIGN - (size_t)((uintptr_t)start % STOW_HEAP_ALIGN)) % STOW_HEAP_ALIGN;
    if (start == NULL || size <= skip) {
        return false;
    }
    if (!laid_out) {
        static stow_registry_entry_t entry;
#if STOW_FREERTOS_HEAP_BOUNDED == 1
        laid_out = stow_heap_init_bounded(&heap, start + skip, size - skip);
#else
        laid_out = stow_heap_init(&heap, start + skip, size - skip);
#endif
        if (laid_out) {
            stow_registry_add(&entry, &stow_registry_kind_heap, &heap, heap_name, NULL, size - skip);
        }
        return laid_out;
    }
    /* Every later region joins the same heap; a block never spans two. */
    return stow_heap_add_region(&heap, start + skip, size - skip);
}

/* The heap, laid out at its first use (inside the port's whole-core section,
 * since the getters below may be the first to look, from a handler); NULL in
 * region mode before vPortDefineHeapRegions(). */
static stow_heap_t *ready(void)
{
#if STOW_FREERTOS_HEAP_REGIONS == 0
    if (!laid_out) {
        uint32_t state = stow_port_critical_enter();
        if (!laid_out) {
            (void)add_region(ucHeap, configTOTAL_HEAP_SIZE);
        }
        stow_port_critical_exit(state);
    }
#endif
    return laid_out ? &heap : NULL;
}

/* The lock around every call that changes the heap (see "Locking" above). */
#if STOW_FREERTOS_HEAP_CRITICAL == 1
typedef uint32_t held_t;
static held_t hold(void) { return stow_heap_lock(&heap); }
static void release(held_t state) { stow_heap_unlock(&heap, state); }
#else
typedef int held_t;
static held_t hold(void)
{
    vTaskSuspendAll();
    return 0;
}
static void release(held_t state)
{
    (void)state;
    (void)xTaskResumeAll();
}
#endif

/* One request, aligned to what the port wants (a constant test: the compiler
 * keeps one branch). */
static void *take(stow_heap_t *h, size_t size)
{
    if (STOW_HEAP_ALIGN % portBYTE_ALIGNMENT == 0u) {
        return stow_heap_alloc(h, size);
    }
    return stow_heap_alloc_aligned(h, size, portBYTE_ALIGNMENT);
}

static size_t used_now(const stow_heap_t *h)
{
    stow_stats_t s;
    stow_heap_stats(h, &s);
    return s.used;
}

void *pvPortMalloc(size_t xWantedSize)
{
    void *p = NULL;
    stow_heap_t *h = ready(); /* before the heap's lock: laying out sets its word */
    configASSERT(h != NULL);  /* region mode: vPortDefineHeapRegions() first */
    held_t held = hold();
    {
        if (h != NULL && xWantedSize > 0u) {
            p = take(h, xWantedSize);
            if (p != NULL) {
                allocations++;
                if (low_reset) {
                    size_t used = used_now(h);
                    used_high = used > used_high ? used : used_high;
                }
            }
        }
        traceMALLOC(p, p != NULL ? stow_heap_usable_size(h, p) : 0u);
    }
    release(held);
#if configUSE_MALLOC_FAILED_HOOK == 1
    if (p == NULL) {
        vApplicationMallocFailedHook();
    }
#endif
    configASSERT(((size_t)(uintptr_t)p & (size_t)portBYTE_ALIGNMENT_MASK) == 0u);
    return p;
}

/* The block's usable bytes, for traceFREE and configHEAP_CLEAR_MEMORY_ON_FREE;
 * 0 (reported to the assert hook) when pv is not a live block, and then the
 * free is not made, so that one bad pointer is reported once. */
PRIVILEGED_DATA static bool refused_free;

__attribute__((unused)) static size_t block_bytes(void *pv)
{
    size_t n = stow_heap_usable_size(&heap, pv);
    refused_free = n == 0u; /* pvPortMalloc makes no 0-byte block */
    return n;
}

void vPortFree(void *pv)
{
    if (pv == NULL) {
        return;
    }
    held_t held = hold();
    {
        configASSERT(laid_out); /* a block, but no heap to give it back to */
        if (laid_out) {
            refused_free = false;
#if configHEAP_CLEAR_MEMORY_ON_FREE == 1
            size_t n = block_bytes(pv);
            (void)memset(pv, 0, n);
            traceFREE(pv, n);
#else
            /* block_bytes() runs only if the trace macro reads the size */
            traceFREE(pv, block_bytes(pv));
#endif
            if (!refused_free) {
                stow_heap_free(&heap, pv);
            }
            frees++;
        }
    }
    release(held);
}

void *pvPortCalloc(size_t xNum, size_t xSize)
{
    if (xNum != 0u && xSize > SIZE_MAX / xNum) {
        return NULL;
    }
    void *p = pvPortMalloc(xNum * xSize);
    if (p != NULL) {
        (void)memset(p, 0, xNum * xSize);
    }
    return p;
}

/* Free bytes now, and the least there has been. */
static size_t free_now(const stow_heap_t *h, size_t *low)
{
    stow_stats_t s;
    stow_heap_stats(h, &s);
    *low = s.capacity - (low_reset ? used_high : s.peak);
    return s.capacity - s.used;
}

/* These three read a few words under the port's whole-core section: like
 * heap_4's, which read one variable, they may be called from a task, from an
 * interrupt handler (at or below configMAX_SYSCALL_INTERRUPT_PRIORITY) and
 * before the scheduler starts. */
size_t xPortGetFreeHeapSize(void)
{
    size_t low;
    size_t n = 0u;
    stow_heap_t *h = ready();
    uint32_t state = stow_port_critical_enter();
    if (h != NULL) {
        n = free_now(h, &low);
    }
    stow_port_critical_exit(state);
    return n;
}

size_t xPortGetMinimumEverFreeHeapSize(void)
{
    size_t low = 0u;
    stow_heap_t *h = ready();
    uint32_t state = stow_port_critical_enter();
    if (h != NULL) {
        (void)free_now(h, &low);
    }
    stow_port_critical_exit(state);
    return low;
}

void xPortResetHeapMinimumEverFreeHeapSize(void)
{
    stow_heap_t *h = ready();
    uint32_t state = stow_port_critical_enter();
    low_reset = true;
    used_high = h != NULL ? used_now(h) : 0u;
    stow_port_critical_exit(state);
}

void vPortGetHeapStats(HeapStats_t *pxHeapStats)
{
    HeapStats_t s = {0u, 0u, 0u, 0u, 0u, 0u, 0u};
    stow_heap_t *h = ready();
    held_t held = hold();
    {
        if (h != NULL) {
            s.xAvailableHeapSpaceInBytes = free_now(h, &s.xMinimumEverFreeBytesRemaining);
            s.xSizeOfLargestFreeBlockInBytes = stow_heap_largest_free(h);
        }
        s.xNumberOfSuccessfulAllocations = allocations;
        s.xNumberOfSuccessfulFrees = frees;
    }
    release(held);
    *pxHeapStats = s;
}

void vPortInitialiseBlocks(void)
{
}

void vPortHeapResetState(void)
{
    laid_out = false;
    allocations = 0u;
    frees = 0u;
    low_reset = false;
    used_high = 0u;
}

stow_heap_t *stow_freertos_heap(void) { return ready(); }

#if STOW_FREERTOS_HEAP_REGIONS == 1
void vPortDefineHeapRegions(const HeapRegion_t *const pxHeapRegions)
{
    configASSERT(!laid_out); /* once, before anything allocates (as heap_5) */
    if (laid_out) {
        return;
    }
    for (const HeapRegion_t *r = pxHeapRegions; r != NULL && r->xSizeInBytes > 0u; r++) {
        bool added = add_region(r->pucStartAddress, r->xSizeInBytes);
        configASSERT(added);
        (void)added;
    }
}
#endif
