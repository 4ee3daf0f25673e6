/* SPDX-License-Identifier: MIT */
/* freertos - stow under FreeRTOS, on the real kernel (make demo-freertos).
 *
 * The kernel's heap is stow's: adapters/freertos/heap_stow.c is built instead of
 * heap_4.c, so the stack and TCB of every task below, every queue and every
 * timer come from a stow heap (bounded time, checked, listed in the memory
 * report). The application's own containers are shared between tasks and an
 * interrupt through port/freertos, whose locks are the kernel's critical
 * sections (BASEPRI on Cortex-M3/M4: interrupts above
 * configMAX_SYSCALL_INTERRUPT_PRIORITY are never held up by stow).
 *
 *   sensor interrupt  every 500 us (CMSDK timer 0 on mps2, the tick on
 *                     riscv-virt) takes a sample message from a pool
 *                     (stow_pool_alloc_isr), fills it and posts it with
 *                     xQueueSendFromISR; when the pool is empty, the sample is
 *                     dropped and counted.
 *   workers (3)       take samples from that queue, each into a batch of 8; each
 *                     has an arena of its own, which the code that formats a
 *                     batch finds through the task's thread-local storage
 *                     pointer: a sorted copy and the text of a line live there
 *                     until the batch is done. The line goes to the logger in a
 *                     block from pvPortMalloc, as long as it needs to be; the
 *                     samples go back to the pool (stow_pool_free_isr, against the
 *                     interrupt) and the arena is reset.
 *   logger            prints the lines and frees them (vPortFree).
 *   control           runs two phases: creates the workers, a queue and a
 *                     one-shot timer that ends the phase, starts the sensor, and
 *                     when the timer fires stops it and tells the workers to
 *                     finish; they delete themselves, and the idle task gives
 *                     their stacks and TCBs back to the heap. After each phase the
 *                     heap must have exactly the free bytes it had before.
 *
 * At the end: the memory report (stow_report()), the heap's figures from
 * vPortGetHeapStats, and status 0 when every check passed.
 */
#include "FreeRTOS.h"
#include "queue.h"
#include "task.h"
#include "timers.h"

#include "board.h"
#include "stow/stow.h"
#include "stow_freertos.h"

#define WORKERS 3u
#define BATCH 8u
#define PHASES 2u
#define PHASE_MS 40u
#define SAMPLE_PERIOD_US 500u
#define LINE_BYTES 96u
#define TASKS_LEFT 3u /* control, idle and the timer task */

struct sample {
    uint32_t seq;
    uint16_t value;
};

/* Samples in flight between the interrupt and the workers. */
STOW_POOL_DEFINE_IN(sensor, samples, struct sample, 24);
/* Each worker's scratch: a batch's sorted copy and its line. */
STOW_ARENA_DEFINE_IN(workers, scratch_0, 160);
STOW_ARENA_DEFINE_IN(workers, scratch_1, 160);
STOW_ARENA_DEFINE_IN(workers, scratch_2, 160);
static stow_arena_t *const scratch[WORKERS] = {&scratch_0, &scratch_1, &scratch_2};

static QueueHandle_t sample_queue; /* struct sample *, NULL: finish */
static QueueHandle_t log_queue;    /* char * from pvPortMalloc, NULL: finish */
static TaskHandle_t control;

/* Written by the interrupt, read by the control task once it has stopped. */
static volatile uint32_t sensor_seq, sensor_sent, sensor_dropped;
static volatile uint32_t handled, malloc_failures;

/* ---- the interrupt ---------------------------------------------------------- */

/* A deterministic stand-in for an ADC: a slow wave plus noise. */
static uint16_t read_sensor(uint32_t seq)
{
    uint32_t noise = (seq * 2654435761u) >> 24;
    return (uint16_t)(2048u + (seq % 64u) * 16u + noise);
}

static void sensor_isr(void)
{
    BaseType_t woken = pdFALSE;
    uint32_t seq = sensor_seq++;
    struct sample *s = stow_pool_alloc_isr(&samples);
    if (s == NULL) {
        sensor_dropped = sensor_dropped + 1u;
        return;
    }
    s->seq = seq;
    s->value = read_sensor(seq);
    if (xQueueSendFromISR(sample_queue, &s, &woken) != pdPASS) {
        stow_pool_free_isr(&samples, s);
        sensor_dropped = sensor_dropped + 1u;
        return;
    }
    sensor_sent = sensor_sent + 1u;
    portYIELD_FROM_ISR(woken);
}

/* ---- the workers ------------------------------------------------------------- */

/* Appends text to the line at *end (room is checked by the caller's size). */
static void append(char **end, const char *text)
{
    while (*text != '\0') {
        *(*end)++ = *text++;
    }
}

static void append_u(char **end, uint32_t value)
{
    *end += stow_format_u(*end, value);
}

/* Sorts a copy of the batch and formats its line, all in the calling task's
 * arena (whoever calls this needs no arena argument), then sends the line. */
static void report_batch(uint32_t worker, struct sample *const *batch, uint32_t n)
{
    stow_arena_t *arena = pvTaskGetThreadLocalStoragePointer(NULL, 0);
    uint16_t *sorted = STOW_ARENA_NEW_ARRAY(arena, uint16_t, n);
    char *line = stow_arena_alloc(arena, LINE_BYTES, 1u);
    if (sorted == NULL || line == NULL) {
        stow_print("demo: a worker's arena is too small\n");
        stow_port_exit(1);
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = i;
        while (j > 0u && sorted[j - 1u] > batch[i]->value) {
            sorted[j] = sorted[j - 1u];
            j--;
        }
        sorted[j] = batch[i]->value;
    }
    char *end = line;
    append(&end, "    worker ");
    append_u(&end, worker);
    append(&end, ": samples ");
    append_u(&end, batch[0]->seq);
    append(&end, "..");
    append_u(&end, batch[n - 1u]->seq);
    append(&end, "  min ");
    append_u(&end, sorted[0]);
    append(&end, " median ");
    append_u(&end, sorted[n / 2u]);
    append(&end, " max ");
    append_u(&end, sorted[n - 1u]);
    append(&end, "  (arena ");
    append_u(&end, (uint32_t)stow_arena_used(arena));
    append(&end, " bytes)\n");
    size_t len = (size_t)(end - line);

    char *msg = pvPortMalloc(len + 1u); /* exactly as long as the line */
    if (msg != NULL) {
        for (size_t i = 0; i < len; i++) {
            msg[i] = line[i];
        }
        msg[len] = '\0';
        (void)xQueueSend(log_queue, &msg, portMAX_DELAY);
    }
    stow_arena_reset(arena);
}

static void worker_task(void *param)
{
    uint32_t id = (uint32_t)(uintptr_t)param;
    struct sample *batch[BATCH];
    uint32_t n = 0u;
    vTaskSetThreadLocalStoragePointer(NULL, 0, scratch[id]);
    for (;;) {
        struct sample *s;
        (void)xQueueReceive(sample_queue, &s, portMAX_DELAY);
        if (s != NULL) {
            batch[n++] = s;
        }
        if (n == BATCH || (s == NULL && n > 0u)) {
            report_batch(id, batch, n);
            for (uint32_t i = 0; i < n; i++) {
                stow_pool_free_isr(&samples, batch[i]); /* the interrupt allocates meanwhile */
            }
            taskENTER_CRITICAL();
            handled += n;
            taskEXIT_CRITICAL();
            n = 0u;
        }
        if (s == NULL) {
            break;
        }
    }
    xTaskNotifyGive(control);
    vTaskDelete(NULL); /* the idle task frees this stack and TCB */
}

/* ---- the logger ------------------------------------------------------------- */

static void logger_task(void *param)
{
    (void)param;
    for (;;) {
        char *line;
        (void)xQueueReceive(log_queue, &line, portMAX_DELAY);
        if (line == NULL) {
            break;
        }
        stow_print(line);
        vPortFree(line);
    }
    xTaskNotifyGive(control);
    vTaskDelete(NULL);
}

/* ---- control ---------------------------------------------------------------- */

static void phase_over(TimerHandle_t timer)
{
    (void)timer;
    xTaskNotifyGive(control);
}

static uint32_t failures;

static void expect(bool ok, const char *what)
{
    if (!ok) {
        stow_print("demo: FAILED: ");
        stow_print(what);
        stow_print("\n");
        failures++;
    }
}

static void print_heap_line(const char *label)
{
    stow_print(label);
    stow_print_u(xPortGetFreeHeapSize(), 0u);
    stow_print(" bytes free\n");
}

/* Waits until the idle task has freed the stacks and TCBs of the tasks that
 * deleted themselves, leaving n tasks. */
static void wait_for_tasks(UBaseType_t n)
{
    while (uxTaskGetNumberOfTasks() > n) {
        vTaskDelay(1);
    }
    vTaskDelay(1); /* it counts a task gone just before freeing its stack and TCB */
}

static void run_phase(uint32_t phase)
{
    size_t free_before = xPortGetFreeHeapSize();
    uint32_t sent_before = sensor_sent;
    uint32_t dropped_before = sensor_dropped;
    uint32_t handled_before = handled;

    sample_queue = xQueueCreate(16u, sizeof(struct sample *));
    TimerHandle_t timer = xTimerCreate("phase", pdMS_TO_TICKS(PHASE_MS), pdFALSE, NULL, phase_over);
    expect(sample_queue != NULL && timer != NULL, "the phase's queue and timer");
    for (uint32_t i = 0; i < WORKERS; i++) {
        static const char *const names[WORKERS] = {"worker0", "worker1", "worker2"};
        expect(xTaskCreate(worker_task, names[i], 384u, (void *)(uintptr_t)i, 3u, NULL) == pdPASS,
               "a worker task");
    }
    stow_print("phase ");
    stow_print_u(phase, 0u);
    print_heap_line(": 3 workers, a queue and a timer created; heap: ");

    (void)ulTaskNotifyTake(pdTRUE, 0u); /* nothing stale */
    (void)xTimerStart(timer, portMAX_DELAY);
    board_periodic(sensor_isr, SAMPLE_PERIOD_US);
    (void)ulTaskNotifyTake(pdTRUE, portMAX_DELAY); /* the timer fired */
    board_periodic(NULL, 0u);

    for (uint32_t i = 0; i < WORKERS; i++) {
        struct sample *finish = NULL;
        (void)xQueueSend(sample_queue, &finish, portMAX_DELAY);
    }
    for (uint32_t i = 0; i < WORKERS; i++) {
        (void)ulTaskNotifyTake(pdFALSE, portMAX_DELAY);
    }
    (void)xTimerDelete(timer, portMAX_DELAY);
    vQueueDelete(sample_queue);
    wait_for_tasks(TASKS_LEFT + 1u); /* and the logger */
    while (uxQueueMessagesWaiting(log_queue) != 0u) {
        vTaskDelay(1);
    }

    uint32_t sent = sensor_sent - sent_before;
    uint32_t dropped = sensor_dropped - dropped_before;
    uint32_t done = handled - handled_before;
    stow_print("phase ");
    stow_print_u(phase, 0u);
    stow_print(": ");
    stow_print_u(sent, 0u);
    stow_print(" samples sent, ");
    stow_print_u(done, 0u);
    stow_print(" handled, ");
    stow_print_u(dropped, 0u);
    stow_print(" dropped; ");
    print_heap_line("workers gone, heap: ");
    expect(sent > 0u && done == sent, "every sample sent was handled");
    expect(stow_pool_used(&samples) == 0u, "every sample went back to the pool");
    expect(xPortGetFreeHeapSize() == free_before, "the heap got back every byte of the phase");
}

static void control_task(void *param)
{
    (void)param;
    stow_print("stow under FreeRTOS " tskKERNEL_VERSION_NUMBER " on ");
    stow_print(board_name);
    stow_print("\nkernel heap: heap_stow.c, configTOTAL_HEAP_SIZE ");
    stow_print_u(configTOTAL_HEAP_SIZE, 0u);
    print_heap_line(" bytes; ");

    log_queue = xQueueCreate(8u, sizeof(char *));
    expect(log_queue != NULL && xTaskCreate(logger_task, "logger", 256u, NULL, 2u, NULL) == pdPASS,
           "the logger");
    for (uint32_t phase = 1u; phase <= PHASES; phase++) {
        run_phase(phase);
    }
    char *finish = NULL;
    (void)xQueueSend(log_queue, &finish, portMAX_DELAY);
    (void)ulTaskNotifyTake(pdFALSE, portMAX_DELAY);
    vQueueDelete(log_queue);
    wait_for_tasks(TASKS_LEFT);

    stow_print("\n");
    bool report_ok = stow_report();
    HeapStats_t hs;
    vPortGetHeapStats(&hs);
    vTaskSuspendAll();
    bool heap_ok = stow_heap_check(stow_freertos_heap());
    (void)xTaskResumeAll();
    stow_print("\nheap: ");
    stow_print_u(hs.xAvailableHeapSpaceInBytes, 0u);
    stow_print(" bytes free, least ever ");
    stow_print_u(hs.xMinimumEverFreeBytesRemaining, 0u);
    stow_print(", largest request now ");
    stow_print_u(hs.xSizeOfLargestFreeBlockInBytes, 0u);
    stow_print(", ");
    stow_print_u(hs.xNumberOfSuccessfulAllocations, 0u);
    stow_print(" allocations, ");
    stow_print_u(hs.xNumberOfSuccessfulFrees, 0u);
    stow_print(" frees, check ");
    stow_print(heap_ok ? "ok\n" : "FAILED\n");
    expect(report_ok, "every container's check in the report");
    expect(heap_ok, "the heap's check");
    expect(malloc_failures == 0u, "no allocation failed");
    /* left: the idle, timer and control tasks, the timer queue */
    expect(hs.xNumberOfSuccessfulAllocations - hs.xNumberOfSuccessfulFrees == 7u,
           "only the kernel's own tasks and queues are left");
    stow_print(failures == 0u ? "demo ok\n" : "demo FAILED\n");
    stow_port_exit(failures == 0u ? 0 : 1);
}

/* ---- hooks and main --------------------------------------------------------- */

void vApplicationMallocFailedHook(void)
{
    malloc_failures++;
    stow_print("demo: pvPortMalloc failed\n");
}

void vApplicationStackOverflowHook(TaskHandle_t task, char *name)
{
    (void)task;
    stow_print("demo: stack overflow in ");
    stow_print(name);
    stow_print("\n");
    stow_port_exit(3);
}

void freertos_assert_failed(const char *file, int line)
{
    stow_print("demo: configASSERT failed at ");
    stow_print(file);
    stow_print(":");
    stow_print_u((uint64_t)line, 0u);
    stow_print("\n");
    stow_port_exit(3);
}

int main(void)
{
    board_init();
    if (xTaskCreate(control_task, "control", 384u, NULL, 1u, &control) != pdPASS) {
        stow_print("demo: no room for the first task\n");
        return 1;
    }
    vTaskStartScheduler();
    return 1; /* only if the idle or timer task did not fit */
}
