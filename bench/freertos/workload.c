/* SPDX-License-Identifier: MIT */
/* workload.c - one FreeRTOS workload, run on heap_4 and on heap_stow.c (make
 * bench: bench/freertos/freertos.sh builds and runs it; adapters/freertos/rules.mk).
 *
 * The workload: ROUNDS rounds, each creating a pipeline of three tasks (stacks
 * growing round by round), two queues and three auto-reload timers. The
 * producer sends MESSAGES messages of 16 to 511 bytes from pvPortMalloc; the
 * filter copies every third one into a block of another size (what a realloc
 * is on FreeRTOS's heap: allocate, copy, free); the consumer checks each one and
 * keeps the last KEPT of them alive before freeing them, so that blocks of
 * many sizes and lifetimes interleave. At the end of a round the tasks delete
 * themselves, the timers and queues are deleted, and the idle task frees the
 * tasks' stacks and TCBs. Every allocation the kernel makes (TCBs, stacks,
 * queues, timers) is part of it.
 *
 * The same sequence on every heap: the tasks have priorities of their own and
 * the tick does not slice time (bench/freertos/FreeRTOSConfig.h), so blocking
 * alone decides who runs; the timers' callbacks only count. Each run prints a
 * hash of every pvPortMalloc and vPortFree call's kind and size in call order:
 * freertos.sh checks that every run printed the same one.
 *
 * The semihosting command line says what to do: "time" or "size <bytes>".
 *   time         every pvPortMalloc and vPortFree, from the kernel's code and
 *                the workload's alike (the link's --wrap), timed on its own
 *                under qemu -icount shift=8, where one instruction is 6.4
 *                ticks of SysTick (calibrated here): its instructions, return
 *                included, less the timing's own (the same window around a
 *                function that only returns). A window that met a context
 *                switch or the tick's wrap is left out and counted.
 *   size N       the heap is N bytes (heap_4: bench/heap4/heap4.c makes its
 *                free list that of configTOTAL_HEAP_SIZE = N; heap_stow: one
 *                region of N bytes); the run exits 0 when the workload ran and
 *                1 when an allocation was refused.
 */
#include "FreeRTOS.h"
#include "queue.h"
#include "task.h"
#include "timers.h"

#include "board.h"
#include "stow/stow.h"
#ifdef BENCH_HEAP4
#include "heap4.h"
#endif

#define ROUNDS 6u
#define MESSAGES 60u
#define KEPT 6u

volatile uint32_t bench_switches;

/* Both heaps' storage (heap_4 names it so with configAPPLICATION_ALLOCATED_HEAP). */
__attribute__((aligned(16))) uint8_t ucHeap[configTOTAL_HEAP_SIZE];

#define HASH_START 2166136261u
static uint32_t sequence_hash = HASH_START;

static uint32_t rec[1400]; static uint32_t nrec;
static void hash(uint32_t v)
{
    if (nrec < 1400u) rec[nrec++] = v;
    for (unsigned i = 0; i < 4u; i++) {
        sequence_hash = (sequence_hash ^ ((v >> (8u * i)) & 0xFFu)) * 16777619u;
    }
}

/* ---- timing ------------------------------------------------------------------ */

#define SYST_CVR (*(volatile uint32_t *)(uintptr_t)0xE000E018u)
#define SYST_RVR (*(volatile uint32_t *)(uintptr_t)0xE000E014u)
/* No window starts within this many ticks of SysTick's wrap (a call of heap_4
 * with a long free list is a few hundred instructions). */
#define QUIET_TICKS 40000u

struct figures {
    uint32_t calls, timed, left_out, max;
    uint64_t total;
};
static struct figures malloc_fig, free_fig;
static bool time_calls; /* "time" on the command line */
static bool timing;     /* from the first round to the last: SysTick runs */
static uint32_t ticks_per_1000_insns;

void *__real_pvPortMalloc(size_t size);
void __real_vPortFree(void *p);
void *__wrap_pvPortMalloc(size_t size);
void __wrap_vPortFree(void *p);

static uint32_t insns(uint32_t ticks)
{
    return (uint32_t)(((uint64_t)ticks * 1000u + ticks_per_1000_insns / 2u) / ticks_per_1000_insns);
}

/* One call between two reads of SysTick: its ticks, or more than SysTick's
 * reload when the counter wrapped in between. The same code times the calls
 * and the empty functions below, so the difference is the call's own. */
typedef void *malloc_fn(size_t size);
typedef void free_fn(void *p);

__attribute__((noipa)) static uint32_t time_malloc(malloc_fn *fn, size_t size, void **out)
{
    uint32_t t0 = SYST_CVR;
    void *p = fn(size);
    uint32_t t1 = SYST_CVR;
    *out = p;
    return t0 - t1;
}

__attribute__((noipa)) static uint32_t time_free(free_fn *fn, void *p)
{
    uint32_t t0 = SYST_CVR;
    fn(p);
    uint32_t t1 = SYST_CVR;
    return t0 - t1;
}

/* Functions that only return. */
__attribute__((naked, noipa)) static void *empty_malloc(size_t size __attribute__((unused)))
{
    __asm__ volatile("bx lr");
}

__attribute__((naked, noipa)) static void empty_free(void *p __attribute__((unused)))
{
    __asm__ volatile("bx lr");
}

static uint32_t empty_malloc_insns, empty_free_insns;
static uint32_t suspend_insns; /* vTaskSuspendAll and xTaskResumeAll, what heap_4 wraps each call in */

__attribute__((noipa)) static void suspend_resume(void *p __attribute__((unused)))
{
    vTaskSuspendAll();
    (void)xTaskResumeAll();
}

static void add(struct figures *f, uint32_t ticks, uint32_t empty, uint32_t switches)
{
    f->calls++;
    if (ticks > SYST_RVR || switches != bench_switches) {
        f->left_out++;
        return;
    }
    uint32_t n = insns(ticks) + 1u - empty; /* the empty function's return is the call's too */
    f->timed++;
    f->total += n;
    f->max = n > f->max ? n : f->max;
}

static void quiet(void)
{
    while (SYST_CVR < QUIET_TICKS) {
    }
}

void *__wrap_pvPortMalloc(size_t size)
{
    hash(1u);
    hash((uint32_t)size);
    if (!timing) {
        malloc_fig.calls++;
        return __real_pvPortMalloc(size);
    }
    void *p;
    quiet();
    uint32_t switches = bench_switches;
    uint32_t ticks = time_malloc(__real_pvPortMalloc, size, &p);
    add(&malloc_fig, ticks, empty_malloc_insns, switches);
    return p;
}

/* vPortFree(NULL) returns at once on both heaps: not timed. */
void __wrap_vPortFree(void *p)
{
    hash(2u);
    hash(p != NULL);
    if (!timing || p == NULL) {
        free_fig.calls++;
        __real_vPortFree(p);
        return;
    }
    quiet();
    uint32_t switches = bench_switches;
    uint32_t ticks = time_free(__real_vPortFree, p);
    add(&free_fig, ticks, empty_free_insns, switches);
}

/* 1000 instructions that do nothing else, to calibrate by. */
__attribute__((noipa)) static void thousand(void)
{
    __asm__ volatile(".rept 1000\n\tnop\n\t.endr" : : : "memory");
}

/* Ticks per 1000 instructions: the difference of two windows, one with 1000
 * nops more; then the empty functions' windows. With the scheduler running
 * (SysTick is the kernel's tick). */
static void calibrate(void)
{
    quiet();
    uint32_t t0 = SYST_CVR;
    thousand();
    uint32_t t1 = SYST_CVR;
    quiet();
    uint32_t t2 = SYST_CVR;
    thousand();
    thousand();
    uint32_t t3 = SYST_CVR;
    ticks_per_1000_insns = (t2 - t3) - (t0 - t1);
    void *p;
    quiet();
    empty_malloc_insns = insns(time_malloc(empty_malloc, 1u, &p));
    quiet();
    empty_free_insns = insns(time_free(empty_free, NULL));
    quiet();
    suspend_insns = insns(time_free(suspend_resume, NULL)) + 1u - empty_free_insns;
}

/* ---- the workload ---------------------------------------------------------- */

static QueueHandle_t to_filter, to_consumer;
static TaskHandle_t control;
static volatile uint32_t timer_fires;
static uint32_t corrupt;

struct message {
    uint32_t length; /* the whole block's bytes */
    uint32_t check;
};

static uint32_t check_of(const uint8_t *p, uint32_t length)
{
    uint32_t c = 0u;
    for (uint32_t i = sizeof(struct message); i < length; i++) {
        c = c * 31u + p[i];
    }
    return c;
}

static void producer(void *param)
{
    uint32_t state = 0x2545F491u + (uint32_t)(uintptr_t)param;
    for (uint32_t i = 0; i < MESSAGES; i++) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        uint32_t length = 16u + state % 496u;
        uint8_t *m = pvPortMalloc(length);
        for (uint32_t k = sizeof(struct message); k < length; k++) {
            m[k] = (uint8_t)(state >> (k % 24u));
        }
        ((struct message *)(void *)m)->length = length;
        ((struct message *)(void *)m)->check = check_of(m, length);
        (void)xQueueSend(to_filter, &m, portMAX_DELAY);
    }
    uint8_t *end = NULL;
    (void)xQueueSend(to_filter, &end, portMAX_DELAY);
    xTaskNotifyGive(control);
    vTaskDelete(NULL);
}

static void filter(void *param)
{
    (void)param;
    for (uint32_t n = 0;; n++) {
        uint8_t *m;
        (void)xQueueReceive(to_filter, &m, portMAX_DELAY);
        if (m != NULL && n % 3u == 2u) {
            /* a "realloc" to another size: allocate, copy, free */
            uint32_t length = ((struct message *)(void *)m)->length;
            uint32_t longer = length + 40u + (n % 7u) * 24u;
            uint8_t *copy = pvPortMalloc(longer);
            for (uint32_t k = 0; k < length; k++) {
                copy[k] = m[k];
            }
            for (uint32_t k = length; k < longer; k++) {
                copy[k] = (uint8_t)k;
            }
            vPortFree(m);
            ((struct message *)(void *)copy)->length = longer;
            ((struct message *)(void *)copy)->check = check_of(copy, longer);
            m = copy;
        }
        (void)xQueueSend(to_consumer, &m, portMAX_DELAY);
        if (m == NULL) {
            break;
        }
    }
    xTaskNotifyGive(control);
    vTaskDelete(NULL);
}

static void consumer(void *param)
{
    (void)param;
    uint8_t *kept[KEPT] = {NULL};
    for (uint32_t n = 0;; n++) {
        uint8_t *m;
        (void)xQueueReceive(to_consumer, &m, portMAX_DELAY);
        if (m == NULL) {
            break;
        }
        const struct message *h = (const struct message *)(const void *)m;
        if (h->check != check_of(m, h->length)) {
            corrupt++;
        }
        vPortFree(kept[n % KEPT]); /* NULL at first: timed too, as any caller's */
        kept[n % KEPT] = m;
    }
    for (uint32_t i = 0; i < KEPT; i++) {
        vPortFree(kept[i]);
    }
    xTaskNotifyGive(control);
    vTaskDelete(NULL);
}

static void count_fire(TimerHandle_t t)
{
    (void)t;
    timer_fires++;
}

static void print_figures(const char *heap, const char *call, const struct figures *f)
{
    stow_print("@|");
    stow_print(heap);
    stow_print("|");
    stow_print(call);
    stow_print("|");
    stow_print_u(f->calls, 0u);
    stow_print("|");
    stow_print_u(f->timed, 0u);
    stow_print("|");
    stow_print_u(f->timed != 0u ? (f->total * 100u + f->timed / 2u) / f->timed : 0u, 0u);
    stow_print("|");
    stow_print_u(f->max, 0u);
    stow_print("\n");
}

static void control_task(void *param)
{
    (void)param;
    UBaseType_t tasks = uxTaskGetNumberOfTasks();
    if (time_calls) {
        calibrate();
        timing = true;
    }
    for (uint32_t r = 0; r < ROUNDS; r++) {
        to_filter = xQueueCreate(8u + r, sizeof(uint8_t *));
        to_consumer = xQueueCreate(4u, sizeof(uint8_t *));
        TimerHandle_t timers[3];
        for (uint32_t i = 0; i < 3u; i++) {
            timers[i] = xTimerCreate("t", 1u + i, pdTRUE, NULL, count_fire);
            (void)xTimerStart(timers[i], portMAX_DELAY);
        }
        (void)xTaskCreate(consumer, "consumer", 160u + 40u * r, NULL, 2u, NULL);
        (void)xTaskCreate(filter, "filter", 200u + 24u * r, NULL, 3u, NULL);
        (void)xTaskCreate(producer, "producer", 128u + 56u * r, (void *)(uintptr_t)r, 4u, NULL);
        for (uint32_t i = 0; i < 3u; i++) {
            (void)ulTaskNotifyTake(pdFALSE, portMAX_DELAY);
        }
        for (uint32_t i = 0; i < 3u; i++) {
            (void)xTimerDelete(timers[i], portMAX_DELAY);
        }
        vQueueDelete(to_filter);
        vQueueDelete(to_consumer);
        /* The idle task frees the tasks' stacks and TCBs; it counts a task
         * gone just before freeing them, hence one tick more. */
        while (uxTaskGetNumberOfTasks() > tasks) {
            vTaskDelay(1);
        }
        vTaskDelay(1);
    }
    timing = false;
    stow_print("# " BENCH_HEAP_NAME " (FreeRTOS " tskKERNEL_VERSION_NUMBER "): ");
    stow_print_u(malloc_fig.calls, 0u);
    stow_print(" pvPortMalloc, ");
    stow_print_u(free_fig.calls, 0u);
    stow_print(" vPortFree, sequence ");
    stow_print_u(sequence_hash, 0u);
    stow_print(", timer callbacks ");
    stow_print_u(timer_fires, 0u);
    if (time_calls) {
        stow_print(", SysTick ticks per 1000 instructions ");
        stow_print_u(ticks_per_1000_insns, 0u);
        stow_print(", timing windows ");
        stow_print_u(empty_malloc_insns, 0u);
        stow_print(" and ");
        stow_print_u(empty_free_insns, 0u);
        stow_print(" instructions; vTaskSuspendAll + xTaskResumeAll ");
        stow_print_u(suspend_insns, 0u);
        stow_print(" instructions; left out (a switch or the tick inside) ");
        stow_print_u(malloc_fig.left_out, 0u);
        stow_print(" + ");
        stow_print_u(free_fig.left_out, 0u);
    }
    stow_print("\n");
    if (time_calls) {
        print_figures(BENCH_HEAP_NAME, "pvPortMalloc", &malloc_fig);
        print_figures(BENCH_HEAP_NAME, "vPortFree", &free_fig);
    }
    for (uint32_t i = 0; i + 1u < nrec; i += 2u) { stow_print_u(rec[i], 0); stow_print(" "); stow_print_u(rec[i+1], 0); stow_print("\n"); }
    stow_port_exit(corrupt == 0u ? 0 : 2);
}

void vApplicationMallocFailedHook(void)
{
    stow_print("# " BENCH_HEAP_NAME ": an allocation was refused\n");
    stow_port_exit(1);
}

void freertos_assert_failed(const char *file, int line)
{
    (void)file;
    (void)line;
}

/* ---- the command line -------------------------------------------------------- */

static uint32_t semihost(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

/* The semihosting command line (SYS_GET_CMDLINE), or "" */
static const char *command_line(void)
{
    static char text[80];
    uint32_t block[2] = {(uint32_t)(uintptr_t)text, sizeof text};
    return semihost(0x15u, block) == 0u ? text : "";
}

static uint32_t number_after(const char *s, const char *word)
{
    for (; *s != '\0'; s++) {
        size_t k = 0u;
        while (word[k] != '\0' && s[k] == word[k]) {
            k++;
        }
        if (word[k] == '\0') {
            uint32_t v = 0u;
            for (s += k; *s == ' '; s++) {
            }
            for (; *s >= '0' && *s <= '9'; s++) {
                v = v * 10u + (uint32_t)(*s - '0');
            }
            return v;
        }
    }
    return 0u;
}

int main(void)
{
    board_init();
    const char *cmd = command_line();
    uint32_t bytes = number_after(cmd, "size");
    time_calls = bytes == 0u;
    if (bytes == 0u) {
        bytes = configTOTAL_HEAP_SIZE;
    }
#ifdef BENCH_HEAP4
    if (!heap4_reset(bytes)) {
        stow_print("# heap_4: no heap of that size\n");
        return 1;
    }
#else
    const HeapRegion_t regions[] = {{ucHeap, bytes}, {NULL, 0u}};
    vPortDefineHeapRegions(regions);
#endif
    /* from here on: heap4_reset()'s own calls depend on the size */
    sequence_hash = HASH_START;
    malloc_fig.calls = 0u;
    free_fig.calls = 0u;
    (void)xTaskCreate(control_task, "control", 256u, NULL, 1u, &control);
    vTaskStartScheduler();
    return 1;
}
