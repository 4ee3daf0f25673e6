/* SPDX-License-Identifier: MIT */
/* test_freertos.c - heap_stow.c and port/freertos on the real kernel, under QEMU
 * (make test: freertos-mps2-an385, freertos-mps2-an386, freertos-riscv-virt).
 *
 * Every promise of adapters/freertos/heap_stow.c and port/freertos/port.c that a
 * test can break:
 *   - the heap API's results and counters (HeapStats_t field by field), its
 *     refusals and the failed hook (after the scheduler resumes), calloc, the
 *     minimum-ever figure and its reset, the largest request being exact, the
 *     kernel's own tasks and queues living in the heap and coming back, the
 *     storage heap_stow.c was configured with (its own ucHeap on mps2-an386,
 *     the application's on mps2-an385, a region on riscv-virt) and its lock
 *     (the scheduler's suspension, or on mps2-an386 the heap's lock, with which
 *     an interrupt handler allocates and frees);
 *   - a bad vPortFree reaching configASSERT through the port's assert hook, with
 *     the heap unchanged;
 *   - the heap under preemption: tasks of equal priority, time-sliced by the
 *     tick, allocating and freeing at random with their contents checked;
 *   - the port's locks: on Cortex-M, from a task and from a handler, that they
 *     mask the interrupts the kernel masks and let those above
 *     configMAX_SYSCALL_INTERRUPT_PRIORITY run (the PRIMASK port fails this:
 *     freertos-primask-caught), and that they nest; on RISC-V, that a task's
 *     lock masks and restores mstatus.MIE and a handler's leaves it clear;
 *   - a pool shared between a task and an interrupt, blocks stamped and checked;
 *   - the heap in the memory report.
 * The harness (tests/harness.c) prints each case and "N passed, N failed"; its
 * own assert hook is renamed away at build time, since the port's is the one
 * under test. */
#include "FreeRTOS.h"
#include "queue.h"
#include "task.h"

#include "board.h"
#include "harness.h"
#include "stow_freertos.h"
#include "xorshift.h"

/* ---- the hooks the configuration names ------------------------------------- */

static volatile uint32_t config_asserts; /* configASSERT calls that failed */
static const char *volatile assert_file;
static volatile bool expecting_assert;
static volatile uint32_t stray_asserts; /* outside a case, or not expected */
static volatile uint32_t hook_calls;
static volatile BaseType_t hook_scheduler_state;

void freertos_assert_failed(const char *file, int line)
{
    config_asserts++;
    assert_file = file;
    if (!expecting_assert) {
        stray_asserts++;
        (void)stow_test_check(false, file, line, "configASSERT failed");
    }
}

void vApplicationMallocFailedHook(void)
{
    hook_calls++;
    hook_scheduler_state = xTaskGetSchedulerState();
}

void vApplicationStackOverflowHook(TaskHandle_t task, char *name)
{
    (void)task;
    stow_test_print("stack overflow in ");
    stow_test_print(name);
    stow_test_print("\n");
    stow_port_exit(3);
}

static void *volatile traced_malloc, *volatile traced_free;
static volatile size_t traced_malloc_size, traced_free_size;

void test_trace_malloc(void *p, size_t size)
{
    traced_malloc = p;
    traced_malloc_size = size;
}

void test_trace_free(void *p, size_t size)
{
    traced_free = p;
    traced_free_size = size;
}

/* ---- the heap's storage, as this build configured it ------------------------ */

#if STOW_FREERTOS_HEAP_REGIONS == 1
#define HEAP_MODE "two regions (vPortDefineHeapRegions)"
static uint8_t region[configTOTAL_HEAP_SIZE + 5u] __attribute__((aligned(8)));
/* Three bytes in, so that heap_stow.c has the start to round up. */
#define STORAGE (region + 3u)
#define STORAGE_KNOWN 1
#define STORAGE_BYTES ((size_t)configTOTAL_HEAP_SIZE)
/* A second bank, as heap_5 users give one (DTCM, SRAM2...). */
static uint8_t region2[2048] __attribute__((aligned(8)));
#define ALL_BYTES (STORAGE_BYTES + sizeof region2)
#define REGIONS {{STORAGE, STORAGE_BYTES}, {region2, sizeof region2}, {NULL, 0u}}
#elif configAPPLICATION_ALLOCATED_HEAP == 1
#define HEAP_MODE "the application's ucHeap (configAPPLICATION_ALLOCATED_HEAP)"
uint8_t ucHeap[configTOTAL_HEAP_SIZE];
#define STORAGE ucHeap
#define STORAGE_KNOWN 1
#define STORAGE_BYTES ((size_t)configTOTAL_HEAP_SIZE)
#else
#define HEAP_MODE "heap_stow.c's ucHeap"
#define STORAGE NULL /* heap_stow.c's own, static there */
#define STORAGE_KNOWN 0
#define STORAGE_BYTES ((size_t)configTOTAL_HEAP_SIZE)
#endif

#ifndef ALL_BYTES
#define ALL_BYTES STORAGE_BYTES
#endif

static HeapStats_t heap_stats(void)
{
    HeapStats_t s;
    vPortGetHeapStats(&s);
    return s;
}

static stow_stats_t stow_stats(void)
{
    stow_stats_t s;
    vTaskSuspendAll();
    stow_heap_stats(stow_freertos_heap(), &s);
    (void)xTaskResumeAll();
    return s;
}

static bool heap_check(void)
{
    vTaskSuspendAll();
    bool ok = stow_heap_check(stow_freertos_heap());
    (void)xTaskResumeAll();
    return ok;
}

/* Waits until the idle task has freed the tasks that deleted themselves. */
static void wait_for_tasks(UBaseType_t n)
{
    while (uxTaskGetNumberOfTasks() > n) {
        vTaskDelay(1);
    }
    vTaskDelay(1); /* it counts a task gone just before freeing its stack and TCB */
}

static UBaseType_t tasks_at_start;

/* ---- heap_stow.c ------------------------------------------------------------ */

/* Before the scheduler: the heap lays itself out where it was told. */
TEST(heap_is_laid_out_in_its_storage)
{
    stow_heap_t *h = stow_freertos_heap();
    CHECK_NOT_NULL(h);
    stow_stats_t s = stow_stats();
    CHECK_EQ(xPortGetFreeHeapSize(), s.capacity - s.used);
    CHECK_EQ(xPortGetMinimumEverFreeHeapSize(), s.capacity - s.peak);
    CHECK_LE(s.capacity, ALL_BYTES);
    CHECK_LE(ALL_BYTES - s.capacity, ALL_BYTES / 16u); /* the heap's own words only */
    uint8_t *p = pvPortMalloc(1u);
    CHECK_NOT_NULL(p);
#if STORAGE_KNOWN
    CHECK((uintptr_t)p >= (uintptr_t)STORAGE && (uintptr_t)p < (uintptr_t)STORAGE + STORAGE_BYTES);
#endif
    vPortFree(p);
}

TEST(heap_malloc_and_free_keep_the_counters)
{
    HeapStats_t before = heap_stats();
    size_t free_before = xPortGetFreeHeapSize();
    uint8_t *p = pvPortMalloc(100u);
    CHECK_NOT_NULL(p);
    CHECK_EQ((uintptr_t)p & portBYTE_ALIGNMENT_MASK, 0u);
    CHECK_PTR_EQ(traced_malloc, p); /* traceMALLOC(p, usable bytes) */
    CHECK_EQ(traced_malloc_size, stow_heap_usable_size(stow_freertos_heap(), p));
    CHECK_LE(100u, stow_heap_usable_size(stow_freertos_heap(), p));
    /* the block's bytes, header and rounding included, as heap_4 counts them */
    stow_stats_t st = stow_stats();
    CHECK_EQ(xPortGetFreeHeapSize(), st.capacity - st.used);
    CHECK_LE(100u, free_before - xPortGetFreeHeapSize());
    HeapStats_t mid = heap_stats();
    CHECK_EQ(mid.xNumberOfSuccessfulAllocations, before.xNumberOfSuccessfulAllocations + 1u);
    CHECK_EQ(mid.xNumberOfSuccessfulFrees, before.xNumberOfSuccessfulFrees);
    CHECK_EQ(mid.xAvailableHeapSpaceInBytes, xPortGetFreeHeapSize());
    CHECK_LE(mid.xMinimumEverFreeBytesRemaining, mid.xAvailableHeapSpaceInBytes);
    CHECK_EQ(mid.xSizeOfSmallestFreeBlockInBytes, 0u); /* documented: not known */
    CHECK_EQ(mid.xNumberOfFreeBlocks, 0u);
    size_t usable = stow_heap_usable_size(stow_freertos_heap(), p);
    vPortFree(p);
    CHECK_PTR_EQ(traced_free, p); /* traceFREE(p, usable bytes) */
    CHECK_EQ(traced_free_size, usable);
    traced_free = NULL;
    vPortFree(NULL); /* ignored, not counted */
    CHECK_NULL(traced_free);
    HeapStats_t after = heap_stats();
    CHECK_EQ(after.xNumberOfSuccessfulFrees, before.xNumberOfSuccessfulFrees + 1u);
    CHECK_EQ(xPortGetFreeHeapSize(), free_before);
    CHECK_TRUE(heap_check());
}

#if configHEAP_CLEAR_MEMORY_ON_FREE == 1
/* Freed bytes are zeroed, but for the heap's own words at the block's ends. */
TEST(heap_clears_freed_blocks)
{
    uint8_t *p = pvPortMalloc(200u);
    CHECK_NOT_NULL(p);
    stow_test_fill(p, 0xABu, 200u);
    vPortFree(p);
    for (size_t i = 4u * sizeof(void *); i < 200u - 2u * sizeof(void *); i++) {
        CHECK_EQ(stow_test_peek(p + i), 0u);
    }
}
#endif

TEST(heap_zero_bytes_give_null_and_the_hook)
{
    uint32_t hooks = hook_calls;
    HeapStats_t before = heap_stats();
    CHECK_NULL(pvPortMalloc(0u));
    CHECK_EQ(hook_calls, hooks + 1u);
    CHECK_EQ(heap_stats().xNumberOfSuccessfulAllocations, before.xNumberOfSuccessfulAllocations);
}

TEST(heap_refusal_calls_the_hook_after_resuming)
{
    uint32_t hooks = hook_calls;
    uint32_t fails = stow_stats().fails;
    hook_scheduler_state = taskSCHEDULER_SUSPENDED;
    CHECK_NULL(pvPortMalloc(STORAGE_BYTES));
    CHECK_EQ(hook_calls, hooks + 1u);
    CHECK_EQ(hook_scheduler_state, taskSCHEDULER_RUNNING);
    CHECK_EQ(stow_stats().fails, fails + 1u);
}

TEST(heap_calloc_zeroes_and_refuses_overflow)
{
    uint8_t *p = pvPortMalloc(200u);
    CHECK_NOT_NULL(p);
    stow_test_fill(p, 0xABu, 200u);
    vPortFree(p);
    uint8_t *q = pvPortCalloc(50u, 4u);
    CHECK_NOT_NULL(q);
    for (size_t i = 0; i < 200u; i++) {
        CHECK_EQ(q[i], 0u);
    }
    vPortFree(q);
    uint32_t hooks = hook_calls;
    CHECK_NULL(pvPortCalloc(SIZE_MAX / 2u, 4u));
    CHECK_EQ(hook_calls, hooks); /* as heap_4: the overflow never reaches pvPortMalloc */
    CHECK_NULL(pvPortCalloc(0u, 4u));
    CHECK_EQ(hook_calls, hooks + 1u); /* as heap_4: pvPortMalloc(0) */
}

TEST(heap_largest_free_block_is_the_largest_request)
{
    size_t largest = heap_stats().xSizeOfLargestFreeBlockInBytes;
    CHECK_LT(0u, largest);
    uint32_t hooks = hook_calls;
    void *p = pvPortMalloc(largest);
    CHECK_NOT_NULL(p);
    vPortFree(p);
    CHECK_NULL(pvPortMalloc(largest + 1u));
    CHECK_EQ(hook_calls, hooks + 1u);
    CHECK_EQ(heap_stats().xSizeOfLargestFreeBlockInBytes, largest);
}

TEST(heap_minimum_ever_and_its_reset)
{
    size_t free0 = xPortGetFreeHeapSize();
    void *big = pvPortMalloc(4000u);
    CHECK_NOT_NULL(big);
    size_t low = xPortGetMinimumEverFreeHeapSize();
    CHECK_LE(low, xPortGetFreeHeapSize());
    vPortFree(big);
    CHECK_EQ(xPortGetMinimumEverFreeHeapSize(), low); /* freeing does not raise it */
    CHECK_LT(low, xPortGetFreeHeapSize());
    xPortResetHeapMinimumEverFreeHeapSize();
    CHECK_EQ(xPortGetMinimumEverFreeHeapSize(), free0);
    void *small = pvPortMalloc(200u);
    CHECK_NOT_NULL(small);
    size_t with_small = xPortGetFreeHeapSize();
    CHECK_EQ(xPortGetMinimumEverFreeHeapSize(), with_small);
    CHECK_EQ(heap_stats().xMinimumEverFreeBytesRemaining, with_small);
    vPortFree(small);
    CHECK_EQ(xPortGetMinimumEverFreeHeapSize(), with_small);
}

static void short_task(void *param)
{
    (void)param;
    vTaskDelete(NULL);
}

/* The kernel's objects are blocks of stow's heap: a pointer that were not
 * would be a contract violation in stow_heap_usable_size (and so a failed
 * configASSERT, which fails the case). */
TEST(heap_holds_the_kernels_tasks_and_queues)
{
    stow_heap_t *h = stow_freertos_heap();
    size_t free0 = xPortGetFreeHeapSize();
    QueueHandle_t q = xQueueCreate(10u, 16u);
    CHECK_NOT_NULL(q);
    CHECK_LE(160u, stow_heap_usable_size(h, q)); /* the queue and its storage: one block */
    TaskHandle_t t = NULL;
    CHECK_EQ(xTaskCreate(short_task, "short", 300u, NULL, tskIDLE_PRIORITY + 1u, &t), pdPASS);
    CHECK_NOT_NULL(t);
    /* its TCB and its stack (300 words): two blocks more */
    CHECK_LE(free0 - xPortGetFreeHeapSize(), STORAGE_BYTES);
    CHECK_LE(160u + 1200u, free0 - xPortGetFreeHeapSize());
    vQueueDelete(q);
    wait_for_tasks(tasks_at_start); /* it ran, deleted itself, the idle task freed it */
    CHECK_EQ(xPortGetFreeHeapSize(), free0);
    CHECK_TRUE(heap_check());
}

#if STOW_CHECK_LEVEL >= 1
TEST(heap_bad_free_reaches_configASSERT)
{
    static uint32_t not_from_the_heap[4];
    size_t free0 = xPortGetFreeHeapSize();
    uint32_t asserts = config_asserts;
    expecting_assert = true;
    vPortFree(not_from_the_heap);
    expecting_assert = false;
    CHECK_EQ(config_asserts, asserts + 1u);
    CHECK_NOT_NULL(assert_file);
    CHECK_TRUE(stow_test_same_text(assert_file, "port/freertos/port.c"));
    CHECK_EQ(xPortGetFreeHeapSize(), free0);

    void *p = pvPortMalloc(64u);
    CHECK_NOT_NULL(p);
    vPortFree(p);
    expecting_assert = true;
    vPortFree(p); /* twice */
    expecting_assert = false;
    CHECK_EQ(config_asserts, asserts + 2u);
    CHECK_EQ(xPortGetFreeHeapSize(), free0);
    CHECK_TRUE(heap_check());
}
#endif

#if STOW_FREERTOS_HEAP_REGIONS == 1
TEST(heap_regions_are_defined_once)
{
    static uint8_t more[1024] __attribute__((aligned(8)));
    const HeapRegion_t again[] = {{more, sizeof more}, {NULL, 0u}};
    size_t free0 = xPortGetFreeHeapSize();
    uint32_t asserts = config_asserts;
    expecting_assert = true;
    vPortDefineHeapRegions(again); /* after use: refused, and more is not added */
    expecting_assert = false;
    CHECK_EQ(config_asserts, asserts + 1u);
    CHECK_EQ(xPortGetFreeHeapSize(), free0);
}

/* Both regions serve requests: blocks of 100 bytes are taken until none is left
 * (the kernel's objects may hold parts of either region); some of them lie in
 * the second region, each lies wholly in one region, and after all go back the
 * free size is what it was. */
TEST(heap_regions_both_serve)
{
    static uint8_t *held[ALL_BYTES / 100u + 1u];
    size_t n = 0u, in_second = 0u, free0 = xPortGetFreeHeapSize();
    while (n < sizeof held / sizeof held[0]) {
        uint8_t *p = pvPortMalloc(100u);
        if (p == NULL) {
            break;
        }
        held[n++] = p;
        bool second = (uintptr_t)p >= (uintptr_t)region2 && (uintptr_t)p + 100u <= (uintptr_t)region2 + sizeof region2;
        CHECK(second || ((uintptr_t)p >= (uintptr_t)STORAGE && (uintptr_t)p + 100u <= (uintptr_t)STORAGE + STORAGE_BYTES));
        in_second += second ? 1u : 0u;
    }
    CHECK_LT(n, sizeof held / sizeof held[0]); /* the heap ran out first */
    CHECK_LT(0u, in_second);
    while (n > 0u) {
        vPortFree(held[--n]);
    }
    CHECK_EQ(xPortGetFreeHeapSize(), free0);
    CHECK_TRUE(heap_check());
}
#endif

/* Tasks of one priority, time-sliced by the tick, allocate and free at random;
 * each block holds its owner's pattern, checked before it is freed. */
#define CHURN_TASKS 3u
#define CHURN_SLOTS 12u
#define CHURN_ROUNDS 1500u
static volatile uint32_t churn_errors, churn_done, churn_refused;

static void churn_task(void *param)
{
    uint32_t id = (uint32_t)(uintptr_t)param;
    uint32_t state = 0x9E3779B9u * (id + 1u);
    uint8_t *slot[CHURN_SLOTS] = {NULL};
    size_t len[CHURN_SLOTS] = {0u};
    for (uint32_t round = 0; round < CHURN_ROUNDS + CHURN_SLOTS; round++) {
        uint32_t i = round < CHURN_ROUNDS ? stow_test_xorshift(&state) % CHURN_SLOTS : round - CHURN_ROUNDS;
        if (slot[i] != NULL) {
            for (size_t k = 0; k < len[i]; k++) {
                if (slot[i][k] != (uint8_t)(id * 64u + i + k)) {
                    churn_errors++;
                    break;
                }
            }
            vPortFree(slot[i]);
            slot[i] = NULL;
        } else if (round < CHURN_ROUNDS) {
            len[i] = 1u + stow_test_xorshift(&state) % 600u;
            slot[i] = pvPortMalloc(len[i]);
            if (slot[i] == NULL) {
                churn_refused++;
                continue;
            }
            for (size_t k = 0; k < len[i]; k++) {
                slot[i][k] = (uint8_t)(id * 64u + i + k);
            }
        }
    }
    taskENTER_CRITICAL();
    churn_done++;
    taskEXIT_CRITICAL();
    vTaskDelete(NULL);
}

TEST(heap_under_preemption)
{
    size_t free0 = xPortGetFreeHeapSize();
    HeapStats_t before = heap_stats();
    churn_errors = 0u;
    churn_done = 0u;
    churn_refused = 0u;
    for (uint32_t i = 0; i < CHURN_TASKS; i++) {
        /* below this task: they run while it waits, sliced between each other */
        CHECK_EQ(xTaskCreate(churn_task, "churn", 256u, (void *)(uintptr_t)i, tskIDLE_PRIORITY + 1u, NULL),
                 pdPASS);
    }
    while (churn_done < CHURN_TASKS) {
        vTaskDelay(2);
    }
    wait_for_tasks(tasks_at_start);
    CHECK_EQ(churn_errors, 0u);
    CHECK_EQ(churn_refused, 0u);
    CHECK_EQ(xPortGetFreeHeapSize(), free0);
    HeapStats_t after = heap_stats();
    CHECK_EQ(after.xNumberOfSuccessfulAllocations - before.xNumberOfSuccessfulAllocations,
             after.xNumberOfSuccessfulFrees - before.xNumberOfSuccessfulFrees);
    /* each task at least its TCB and stack, and most rounds one block */
    CHECK_LE(CHURN_TASKS * CHURN_ROUNDS / 3u, after.xNumberOfSuccessfulAllocations - before.xNumberOfSuccessfulAllocations);
    CHECK_TRUE(heap_check());
}

/* ---- port/freertos: the locks ------------------------------------------------ */

/* A pool block: stamped at both ends by whoever took it. */
struct stamp {
    uint32_t head, body[2], tail;
};
STOW_POOL_DEFINE_STATIC(shared, struct stamp, 16);

#if defined(__arm__) || defined(__thumb__)
/* Interrupts pended by software: one above configMAX_SYSCALL_INTERRUPT_PRIORITY
 * (0x40), two the kernel (and so stow) masks, one more urgent than the other. */
#define IRQ_URGENT 28u
#define IRQ_KERNEL 29u
#define IRQ_HANDLER 30u
#define PRIO_URGENT 0x20u
#define PRIO_KERNEL 0x60u
#define PRIO_HANDLER 0x80u
static volatile uint32_t urgent_runs, kernel_runs, handler_runs;
static volatile uint32_t seen_urgent, seen_kernel, seen_basepri, seen_after_unlock;
static volatile size_t seen_free, seen_low;

static void urgent_isr(void) { urgent_runs++; }
static void kernel_isr(void) { kernel_runs++; }

/* A handler that the kernel may interrupt with neither of the two above
 * masked, taking the pool's lock the way an _isr call does. */
static void handler_isr(void)
{
    uint32_t state = stow_pool_lock(&shared);
    seen_basepri = board_basepri();
    board_irq_pend(IRQ_URGENT);
    board_irq_pend(IRQ_KERNEL);
    seen_urgent = urgent_runs;
    seen_kernel = kernel_runs;
    stow_pool_unlock(&shared, state);
    seen_after_unlock = kernel_runs;
    seen_free = xPortGetFreeHeapSize(); /* the getters, from a handler */
    seen_low = xPortGetMinimumEverFreeHeapSize();
    handler_runs++;
}

static void install_irqs(void)
{
    board_irq_install(IRQ_URGENT, urgent_isr, PRIO_URGENT);
    board_irq_install(IRQ_KERNEL, kernel_isr, PRIO_KERNEL);
    board_irq_install(IRQ_HANDLER, handler_isr, PRIO_HANDLER);
}

/* The one stow's PRIMASK port fails: an urgent interrupt runs while a task
 * holds a stow lock; one at the kernel's level waits for the unlock. */
TEST(port_lock_lets_urgent_interrupts_run)
{
    urgent_runs = 0u;
    kernel_runs = 0u;
    uint32_t state = stow_pool_lock(&shared);
    uint32_t basepri = board_basepri();
    board_irq_pend(IRQ_URGENT);
    board_irq_pend(IRQ_KERNEL);
    uint32_t urgent = urgent_runs;
    uint32_t kernel = kernel_runs;
    stow_pool_unlock(&shared, state);
    CHECK_EQ(basepri, configMAX_SYSCALL_INTERRUPT_PRIORITY);
    CHECK_EQ(board_primask(), 0u);
    CHECK_EQ(urgent, 1u);  /* served inside the lock */
    CHECK_EQ(kernel, 0u);  /* held off by it */
    CHECK_EQ(kernel_runs, 1u); /* and served at the unlock */
    CHECK_EQ(board_basepri(), 0u);
}

TEST(port_lock_in_a_handler_masks_at_the_kernels_level)
{
    urgent_runs = 0u;
    kernel_runs = 0u;
    handler_runs = 0u;
    board_irq_pend(IRQ_HANDLER);
    CHECK_EQ(handler_runs, 1u);
    CHECK_EQ(seen_basepri, configMAX_SYSCALL_INTERRUPT_PRIORITY);
    CHECK_EQ(seen_urgent, 1u);
    CHECK_EQ(seen_kernel, 0u);   /* more urgent than the handler, still held off */
    CHECK_EQ(seen_after_unlock, 1u);
    CHECK_EQ(board_basepri(), 0u);
    CHECK_EQ(seen_free, xPortGetFreeHeapSize());
    CHECK_EQ(seen_low, xPortGetMinimumEverFreeHeapSize());
}

#if STOW_FREERTOS_HEAP_CRITICAL == 1
/* With the heap's lock instead of the scheduler's suspension, an interrupt
 * handler may allocate and free. */
#define IRQ_HEAP 27u
static void *volatile from_isr;
static volatile uint32_t heap_isr_runs;

static void heap_isr(void)
{
    if (from_isr == NULL) {
        from_isr = pvPortMalloc(48u);
    } else {
        vPortFree(from_isr);
        from_isr = NULL;
    }
    heap_isr_runs++;
}

TEST(heap_malloc_and_free_from_an_interrupt)
{
    size_t free0 = xPortGetFreeHeapSize();
    HeapStats_t before = heap_stats();
    board_irq_install(IRQ_HEAP, heap_isr, PRIO_HANDLER);
    board_irq_pend(IRQ_HEAP);
    CHECK_EQ(heap_isr_runs, 1u);
    CHECK_NOT_NULL(from_isr);
    CHECK_LE(48u, stow_heap_usable_size(stow_freertos_heap(), from_isr));
    CHECK_LE(48u, free0 - xPortGetFreeHeapSize());
    board_irq_pend(IRQ_HEAP);
    CHECK_EQ(heap_isr_runs, 2u);
    CHECK_NULL(from_isr);
    CHECK_EQ(xPortGetFreeHeapSize(), free0);
    HeapStats_t after = heap_stats();
    CHECK_EQ(after.xNumberOfSuccessfulAllocations, before.xNumberOfSuccessfulAllocations + 1u);
    CHECK_EQ(after.xNumberOfSuccessfulFrees, before.xNumberOfSuccessfulFrees + 1u);
}
#endif

TEST(port_locks_and_critical_sections_nest)
{
    kernel_runs = 0u;
    uint32_t outer = stow_pool_lock(&shared);
    uint32_t inner = stow_port_critical_enter();
    uint32_t innermost = stow_heap_lock(stow_freertos_heap());
    stow_heap_unlock(stow_freertos_heap(), innermost);
    stow_port_critical_exit(inner);
    board_irq_pend(IRQ_KERNEL);
    uint32_t kernel = kernel_runs;
    uint32_t basepri = board_basepri();
    stow_pool_unlock(&shared, outer);
    CHECK_EQ(kernel, 0u); /* the outer lock still held it off */
    CHECK_EQ(basepri, configMAX_SYSCALL_INTERRUPT_PRIORITY);
    CHECK_EQ(kernel_runs, 1u);
    CHECK_EQ(board_basepri(), 0u);
}
#endif

#if defined(__riscv)
static volatile uint32_t tick_checks;
static volatile bool tick_mie_seen;
static volatile size_t tick_free;

static void tick_handler(void)
{
    uint32_t state = stow_pool_lock(&shared);
    tick_mie_seen = tick_mie_seen || board_interrupts_on();
    stow_pool_unlock(&shared, state);
    tick_mie_seen = tick_mie_seen || board_interrupts_on();
    tick_free = xPortGetFreeHeapSize(); /* a getter, from a handler */
    tick_mie_seen = tick_mie_seen || board_interrupts_on();
    tick_checks++;
}

TEST(port_lock_masks_and_restores_mie)
{
    CHECK_TRUE(board_interrupts_on());
    uint32_t outer = stow_pool_lock(&shared);
    CHECK_FALSE(board_interrupts_on());
    uint32_t inner = stow_port_critical_enter();
    stow_port_critical_exit(inner);
    bool still_off = !board_interrupts_on();
    stow_pool_unlock(&shared, outer);
    CHECK_TRUE(still_off);
    CHECK_TRUE(board_interrupts_on());
}

TEST(port_lock_in_a_handler_leaves_mie_clear)
{
    tick_checks = 0u;
    tick_mie_seen = false;
    board_periodic(tick_handler, 1000u);
    while (tick_checks < 5u) {
        vTaskDelay(1);
    }
    board_periodic(NULL, 0u);
    CHECK_FALSE(tick_mie_seen);
    CHECK_EQ(tick_free, xPortGetFreeHeapSize());
}
#endif

/* The interrupt takes and gives back pool blocks (stow_pool_alloc_isr and
 * stow_pool_free_isr) while this task does the same, as fast as it can; each
 * block is stamped by its taker and checked before it goes back. */
#define SHARE_ROUNDS 20000u
static volatile uint32_t isr_takes, isr_errors, isr_empty;
static struct stamp *isr_held[4];

static void pool_isr(void)
{
    uint32_t k = isr_takes % 4u;
    struct stamp *b = isr_held[k];
    if (b != NULL) {
        if (b->head != 0xABCD0000u + k || b->tail != ~(0xABCD0000u + k)) {
            isr_errors++;
        }
        stow_pool_free_isr(&shared, b);
    }
    b = stow_pool_alloc_isr(&shared);
    if (b != NULL) {
        b->head = 0xABCD0000u + k;
        b->tail = ~(0xABCD0000u + k);
    } else {
        isr_empty++;
    }
    isr_held[k] = b;
    isr_takes++;
}

TEST(pool_shared_with_an_interrupt)
{
    struct stamp *mine[8] = {NULL};
    uint32_t errors = 0u;
    isr_takes = 0u;
    isr_errors = 0u;
    board_periodic(pool_isr, 50u);
    for (uint32_t round = 0; round < SHARE_ROUNDS || isr_takes < 20u; round++) {
        uint32_t k = round % 8u;
        if (mine[k] != NULL) {
            if (mine[k]->head != round - 8u || mine[k]->tail != ~(round - 8u)) {
                errors++;
            }
            stow_pool_free_isr(&shared, mine[k]);
        }
        mine[k] = stow_pool_alloc_isr(&shared);
        if (mine[k] != NULL) {
            mine[k]->head = round;
            mine[k]->tail = ~round;
        }
    }
    board_periodic(NULL, 0u);
    for (uint32_t k = 0; k < 8u; k++) {
        stow_pool_free_isr(&shared, mine[k]);
    }
    for (uint32_t k = 0; k < 4u; k++) {
        stow_pool_free_isr(&shared, isr_held[k]);
        isr_held[k] = NULL;
    }
    CHECK_EQ(errors, 0u);
    CHECK_EQ(isr_errors, 0u);
    CHECK_LE(20u, isr_takes);
    CHECK_EQ(stow_pool_used(&shared), 0u);
    uint32_t state = stow_pool_lock(&shared);
    bool ok = stow_pool_check(&shared);
    stow_pool_unlock(&shared, state);
    CHECK_TRUE(ok);
}

/* ---- the report ---------------------------------------------------------------- */

static char report_text[2048];
static size_t report_len;

static void capture(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    for (size_t i = 0; i < len && report_len + 1u < sizeof report_text; i++) {
        report_text[report_len++] = text[i];
    }
    report_text[report_len] = '\0';
}

static bool report_has(const char *line_start)
{
    for (size_t i = 0; i < report_len; i++) {
        if (i == 0u || report_text[i - 1u] == '\n') {
            size_t k = 0u;
            while (line_start[k] != '\0' && report_text[i + k] == line_start[k]) {
                k++;
            }
            if (line_start[k] == '\0') {
                return true;
            }
        }
    }
    return false;
}

TEST(report_lists_the_freertos_heap)
{
    report_len = 0u;
    vTaskSuspendAll();
    bool ok = stow_report_to(true, capture, NULL);
    (void)xTaskResumeAll();
    CHECK_TRUE(ok);
    CHECK_TRUE(report_has("container,freertos heap,heap,,"));
    CHECK_TRUE(report_has("container,shared,pool,,16,0,"));
}

/* ---- running them ---------------------------------------------------------------- */

TEST(no_stray_configASSERT) { CHECK_EQ(stray_asserts, 0u); }

static void test_task(void *param)
{
    (void)param;
    tasks_at_start = uxTaskGetNumberOfTasks();
    RUN(heap_malloc_and_free_keep_the_counters);
#if configHEAP_CLEAR_MEMORY_ON_FREE == 1
    RUN(heap_clears_freed_blocks);
#endif
    RUN(heap_zero_bytes_give_null_and_the_hook);
    RUN(heap_refusal_calls_the_hook_after_resuming);
    RUN(heap_calloc_zeroes_and_refuses_overflow);
    RUN(heap_largest_free_block_is_the_largest_request);
    RUN(heap_minimum_ever_and_its_reset);
    RUN(heap_holds_the_kernels_tasks_and_queues);
    RUN(heap_under_preemption);
#if defined(__arm__) || defined(__thumb__)
    install_irqs();
    RUN(port_lock_lets_urgent_interrupts_run);
    RUN(port_lock_in_a_handler_masks_at_the_kernels_level);
    RUN(port_locks_and_critical_sections_nest);
#if STOW_FREERTOS_HEAP_CRITICAL == 1
    RUN(heap_malloc_and_free_from_an_interrupt);
#endif
#endif
#if defined(__riscv)
    RUN(port_lock_masks_and_restores_mie);
    RUN(port_lock_in_a_handler_leaves_mie_clear);
#endif
    RUN(pool_shared_with_an_interrupt);
    RUN(report_lists_the_freertos_heap);
#if STOW_FREERTOS_HEAP_REGIONS == 1
    RUN(heap_regions_are_defined_once);
    RUN(heap_regions_both_serve);
#endif
#if STOW_CHECK_LEVEL >= 1
    RUN(heap_bad_free_reaches_configASSERT);
#endif
    RUN(no_stray_configASSERT);
    stow_port_exit(stow_test_finish());
}

/* Before the scheduler: vPortHeapResetState() forgets every block and count. */
TEST(heap_reset_state_forgets_everything)
{
    size_t empty = xPortGetFreeHeapSize();
    CHECK_NOT_NULL(pvPortMalloc(300u));
    CHECK_LT(xPortGetFreeHeapSize(), empty);
    vPortHeapResetState();
#if STOW_FREERTOS_HEAP_REGIONS == 1
    const HeapRegion_t regions[] = REGIONS;
    vPortDefineHeapRegions(regions);
#endif
    CHECK_EQ(xPortGetFreeHeapSize(), empty);
    CHECK_EQ(xPortGetMinimumEverFreeHeapSize(), empty);
    HeapStats_t s = heap_stats();
    CHECK_EQ(s.xNumberOfSuccessfulAllocations, 0u);
    CHECK_EQ(s.xNumberOfSuccessfulFrees, 0u);
    CHECK_TRUE(heap_check());
}

int main(void)
{
    board_init();
    stow_test_print("stow FreeRTOS tests on ");
    stow_test_print(board_name);
    stow_test_print(", check level ");
    stow_test_print_u(STOW_CHECK_LEVEL);
    stow_test_print(", heap in " HEAP_MODE);
    stow_test_print(STOW_FREERTOS_HEAP_BOUNDED == 1 ? ", bounded" : ", default policy");
    stow_test_print(STOW_FREERTOS_HEAP_CRITICAL == 1 ? ", locked by a critical section\n"
                                                     : ", locked by suspending the scheduler\n");
#if STOW_FREERTOS_HEAP_REGIONS == 1
    const HeapRegion_t regions[] = REGIONS;
    vPortDefineHeapRegions(regions);
#endif
    RUN(heap_is_laid_out_in_its_storage);
    RUN(heap_reset_state_forgets_everything);
    if (xTaskCreate(test_task, "test", 1024u, NULL, tskIDLE_PRIORITY + 2u, NULL) != pdPASS) {
        stow_test_print("no room for the test task\n");
        return 1;
    }
    vTaskStartScheduler();
    return 1;
}
