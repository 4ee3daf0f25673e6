/* SPDX-License-Identifier: MIT */
/* replay.c - replays an allocation trace, recorded from a real program by
 * libstow_malloc.so (STOW_HEAP_TRACE; format in adapters/preload/stow_malloc.c),
 * on stow's heap or on the C library's malloc, measures each call, and finds
 * the smallest heap that runs the trace (bench/replay_size.c).
 *
 * Host:
 *     replay TRACE stow|libc [dump]
 * replays TRACE once and prints one line
 *     @replay|<name>|<allocator>|calls=<n>|requested=<b>|footprint=<b>|fails=<n>|check=<ok|FAILED>
 * With "dump", run under callgrind (bench/replay.sh), it first prints
 * "@ops|<the op letter of each replayed call>" on stderr, then asks callgrind for a dump
 * after every call, so that each call's instructions are counted apart (the
 * inclusive cost of the one allocator call replay_step_*() makes), and skips the
 * footprint bookkeeping.
 *     replay TRACE size     the smallest heap and the macro's figures: the
 *                           @size and @macro lines below (make heap-size)
 *     replay TRACE at BYTES whether TRACE runs on a heap of BYTES: "runs", or
 *                           "refused at line N", exit status 0 or 1
 *     replay TRACE check    reads TRACE only: "@check|<name>|calls=<n>|max_id=<n>"
 * Every mode reads the whole trace first and stops, exit status 2, at the first
 * line that is not a call of the format, or not one a program can make (a free
 * of a block that is not live...): "TRACE:LINE: what is wrong".
 *
 * Target (STOW_REPLAY_TARGET, under QEMU -icount shift=0): the traces are
 * compiled in as C arrays (bench/trace2c.sh writes replay_traces.h); each is
 * replayed on the heap and gives one line in bench/replay.sh's format,
 *     @trace|<name>|<column>|<calls>|<mean>|<max>|<max of malloc, aligned, free>|
 *         <calloc and realloc calls>|<their max>|<requested>|<footprint>
 * with each call's instructions read from the port's cycle counter around it
 * (see "Target" below for the method and its resolution); then the smallest heap
 * (REPLAY_SIZE_ONLY: that alone, no timing). With REPLAY_HEAP4 the heap is
 * FreeRTOS's heap_4 (bench/heap4/), not stow's.
 *
 * The smallest heap, on both (the column names the heap and the core, as
 * REPLAY_HEAP_NAME and REPLAY_CORE give them):
 *     @size|<name>|<column>|<peak requested>|<smallest heap>|<bisected>|
 *         <a larger size that failed, or 0>|<sizes above tried>|<storage>|<trials>
 * (for a heap that has a bounded policy, stow_heap_init_bounded, a second line
 * for it, the heap named "stow L<level> bounded") and for stow's heap what its
 * sizing macros give for the trace's own figures (struct replay_shape), and
 * whether a heap of that size runs the trace (on the bounded policy where there
 * is one): yes, no, or untried when it is larger than the storage:
 *     @macro|<name>|<column>|<calls>|<live>|<largest>|<smallest>|
 *         <STOW_HEAP_BYTES_FOR(live, largest)>|<runs>|<..._FOR_MIN(live, largest, smallest)>|<runs>
 *
 * Definitions (the same for every allocator and target):
 *   requested  the most requested bytes live at once (calloc counts n * size;
 *              a realloc counts its new size from the call on);
 *   footprint  the most storage the allocator held in use at once: for stow's
 *              heap, the end of the highest block ever handed out less the
 *              start of the storage (the heap carves from its low end, so that
 *              is the storage a heap needs for this run, holes included); for
 *              glibc, the bytes of its heap below the top chunk plus its mmapped
 *              chunks (mallinfo2: arena - keepcost + hblkhd), above what they
 *              were before the replay;
 *   fragmentation = footprint / requested;
 *   smallest heap  the storage bytes, a multiple of 1 KiB, on which the whole
 *              trace runs with no request refused (bench/replay_size.c).
 * Calls that failed when the trace was recorded (id 0) are not replayed; blocks
 * still live at the end of the trace are freed afterwards, outside the counts.
 */
#ifndef STOW_REPLAY_TARGET
#define _GNU_SOURCE /* mallinfo2, pread, MAP_ANONYMOUS */
#endif
#include <stddef.h>
#include <stdint.h>

#include "replay.h"
#include "stow/heap.h"
#include "stow/port.h"
#ifdef REPLAY_HEAP4
#include "heap4/heap4.h"
#endif

/* The heap and the core, as the tables name them: "stow L1", "Cortex-M4 (QEMU)". */
#ifndef REPLAY_HEAP_NAME
#define REPLAY_HEAP_NAME "?"
#endif
#ifndef REPLAY_CORE
#define REPLAY_CORE "?"
#endif
#define STOW_BENCH_COLUMN REPLAY_HEAP_NAME ", " REPLAY_CORE

/* Each call timed: on the host, and in the target images but the search-only ones. */
#if defined(STOW_REPLAY_TARGET) && defined(REPLAY_SIZE_ONLY)
#define REPLAY_TIMED 0
#else
#define REPLAY_TIMED 1
#endif

/* ---- what both builds share --------------------------------------------------------- */

static stow_heap_t heap;
static unsigned char *heap_storage;
static void **blocks;          /* by id */
static uint32_t *requested_of; /* by id: the block's requested bytes */
#if REPLAY_TIMED
static uint64_t live_requested;
static uint64_t peak_requested;
static uint64_t footprint;
static uint32_t calls;
#endif

/* The heap's calls: stow's, or heap_4's behind the same signatures. */
#ifdef REPLAY_HEAP4
#define HEAP_CALL(name) heap4_##name
#else
#define HEAP_CALL(name) stow_heap_##name
#endif

/* The one allocator call an op makes: callgrind (host) and the cycle counter
 * (target) count this function's callee and nothing else. */
__attribute__((noipa)) static void *replay_step_heap(const struct replay_op *o, void *old)
{
    switch (o->op) {
    case 'm':
        return HEAP_CALL(alloc)(&heap, o->size);
    case 'c':
        return HEAP_CALL(calloc)(&heap, o->arg, o->arg != 0u ? o->size / o->arg : o->size);
    case 'a':
        return HEAP_CALL(alloc_aligned)(&heap, o->size, o->arg);
    case 'r':
        return HEAP_CALL(realloc)(&heap, old, o->size);
    default:
        HEAP_CALL(free)(&heap, old);
        return NULL;
    }
}

#if REPLAY_TIMED
/* The bookkeeping after an op (outside the counts). */
static void after(const struct replay_op *o, void *p)
{
    calls++;
    if (o->op == 'r' && p == NULL) { /* refused: the old block stays */
        return;
    }
    if (o->op == 'f' || o->op == 'r') {
        uint32_t gone = o->op == 'f' ? o->id : o->arg;
        live_requested -= requested_of[gone];
        requested_of[gone] = 0u;
        blocks[gone] = NULL;
    }
    if (o->op != 'f') {
        blocks[o->id] = p;
        requested_of[o->id] = p != NULL ? o->size : 0u;
        live_requested += requested_of[o->id];
        if (live_requested > peak_requested) {
            peak_requested = live_requested;
        }
    }
}

/* The end of the block p, from the start of the storage. */
static size_t block_end(const void *p, uint32_t size)
{
#ifdef REPLAY_HEAP4
    return heap4_block_end(p, size);
#else
    (void)size;
    return (size_t)((const unsigned char *)p - heap_storage) + stow_heap_usable_size(&heap, p);
#endif
}

static void heap_footprint(const void *p, uint32_t size)
{
    if (p != NULL && block_end(p, size) > footprint) {
        footprint = block_end(p, size);
    }
}
#endif

/* The heap as the smallest-heap search drives it. */
static bool heap_reset(size_t bytes)
{
#ifdef REPLAY_HEAP4
    return heap4_reset(bytes);
#else
    return stow_heap_init(&heap, heap_storage, bytes);
#endif
}

static bool heap_sound(void)
{
#ifdef REPLAY_HEAP4
    return true; /* heap_4 has no check of its own; heap4_reset() checks what it relies on */
#else
    return stow_heap_check(&heap);
#endif
}

static const struct replay_heap heap_under_test = {heap_reset, replay_step_heap, heap_sound};

static void print(const char *text)
{
    size_t n = 0;
    while (text[n] != '\0') {
        n++;
    }
    stow_port_write(text, n);
}

static void print_u64(uint64_t v)
{
    char digits[24];
    unsigned at = sizeof digits;
    do {
        digits[--at] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0u);
    stow_port_write(&digits[at], sizeof digits - at);
}

/* "|v" for each of the n values */
static void print_fields(const uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        print("|");
        print_u64(v[i]);
    }
}

/* The @size line of h for t, searched on the first capacity bytes of the storage. */
static void print_size(const struct replay_trace *t, const char *column, const struct replay_heap *h,
                       size_t capacity, uint64_t peak)
{
    struct replay_size size;
    replay_smallest(h, t, blocks, capacity, peak, &size);
    print("@size|");
    print(t->name);
    print("|");
    print(column);
    const uint64_t found[] = {peak, size.bytes, size.bisected, size.larger_fail, size.above, capacity, size.trials};
    print_fields(found, sizeof found / sizeof found[0]);
    print("\n");
}

#ifndef REPLAY_HEAP4
/* A heap with a second policy for which STOW_HEAP_BYTES_FOR is proven (its
 * DEFINE is STOW_HEAP_DEFINE_BOUNDED) is searched under both, and the macro's
 * sizes are tried on that one. */
#ifdef STOW_HEAP_DEFINE_BOUNDED
static bool heap_reset_bounded(size_t bytes) { return stow_heap_init_bounded(&heap, heap_storage, bytes); }
static const struct replay_heap proven_heap = {heap_reset_bounded, replay_step_heap, heap_sound};
#else
#define proven_heap heap_under_test
#endif

/* Whether t runs on a heap of bytes, as a word for the @macro line; not tried
 * above limit. */
static const char *macro_runs(const struct replay_trace *t, uint64_t bytes, size_t limit)
{
    if (bytes > limit) {
        return "untried";
    }
    return replay_runs(&proven_heap, t, blocks, (size_t)bytes, NULL) ? "yes" : "no";
}
#endif

/* The @size line(s) for t, and for stow's heap the @macro line, the macro's
 * sizes tried up to try_limit bytes. blocks and requested_of: t's tables. */
static void report_size(const struct replay_trace *t, size_t capacity, size_t try_limit)
{
    struct replay_shape shape;
    replay_shape_of(t, requested_of, &shape);
    print_size(t, STOW_BENCH_COLUMN, &heap_under_test, capacity, shape.peak);
#ifdef REPLAY_HEAP4
    (void)try_limit;
#else
#ifdef STOW_HEAP_DEFINE_BOUNDED
    print_size(t, REPLAY_HEAP_NAME " bounded, " REPLAY_CORE, &proven_heap, capacity, shape.peak);
#endif
    uint64_t for_live = STOW_HEAP_BYTES_FOR(shape.live, shape.largest);
    uint64_t for_min = STOW_HEAP_BYTES_FOR_MIN(shape.live, shape.largest, shape.smallest);
    print("@macro|");
    print(t->name);
    print("|" STOW_BENCH_COLUMN);
    const uint64_t figures[] = {shape.calls, shape.live, shape.largest, shape.smallest, for_live};
    print_fields(figures, sizeof figures / sizeof figures[0]);
    print("|");
    print(macro_runs(t, for_live, try_limit));
    print("|");
    print_u64(for_min);
    print("|");
    print(macro_runs(t, for_min, try_limit));
    print("\n");
#endif
}

#ifdef STOW_REPLAY_TARGET
/* ===================================================================== target *
 *
 * Under qemu -icount shift=0 one instruction is one nanosecond of the guest's
 * clock, so the cycle counter counts instructions: one per tick on RV32
 * (mcycle), 40 per tick on the MPS2 boards (SysTick at 25 MHz; calibrated here
 * against a loop of known length, as bench/ops.c does). Each call is timed
 * alone: ticks * (instructions per tick), less what the same timing costs around
 * replay_step_empty() (the same switch calling functions that only return), plus
 * that one return. So a call's count is exact on RV32 and within one tick (40
 * instructions) on Cortex-M; the mean over thousands of calls, whose starts fall
 * anywhere in a tick, is close on both. */
#include "replay_traces.h"

/* The heap's storage: all of the board's RAM (REPLAY_RAM_KIB) but the block
 * tables and REPLAY_RAM_RESERVE for the stack and the rest of .bss, in whole
 * KiB; the heap_4 image is given its size (configTOTAL_HEAP_SIZE must be a
 * constant of the build). */
#ifndef REPLAY_RAM_KIB
#define REPLAY_RAM_KIB 4096u
#endif
#define REPLAY_RAM_RESERVE (16u * 1024u)
#define REPLAY_TABLE_BYTES ((REPLAY_MAX_ID + 1ull) * (sizeof(void *) + sizeof(uint32_t)))
_Static_assert(REPLAY_TABLE_BYTES + REPLAY_RAM_RESERVE + 64u * 1024u <= REPLAY_RAM_KIB * 1024ull,
               "replay: the trace has too many blocks for the board's RAM");
#ifndef REPLAY_HEAP_BYTES
#define REPLAY_HEAP_BYTES \
    ((size_t)((REPLAY_RAM_KIB * 1024ull - REPLAY_TABLE_BYTES - REPLAY_RAM_RESERVE) / 1024u * 1024u))
#endif

#ifdef REPLAY_HEAP4
#define storage ucHeap /* heap_4 finds its storage by that name (configAPPLICATION_ALLOCATED_HEAP) */
#else
static
#endif
_Alignas(16) unsigned char storage[REPLAY_HEAP_BYTES];
static void *block_table[REPLAY_MAX_ID + 1u];
static uint32_t requested_table[REPLAY_MAX_ID + 1u];

#ifndef REPLAY_SIZE_ONLY
/* v / 10, with one decimal */
static void print_tenths(uint64_t tenths)
{
    print_u64(tenths / 10u);
    char frac[2] = {'.', (char)('0' + (int)(tenths % 10u))};
    stow_port_write(frac, sizeof frac);
}

/* Empty callees: their only instruction returns. */
#if defined(__arm__) || defined(__thumb__)
#define RETURN_INSN "bx lr"
#else
#define RETURN_INSN "ret"
#endif
#define BARE __attribute__((naked, noipa))
#define U __attribute__((unused))
BARE static void *bare_alloc(U stow_heap_t *h, U size_t size) { __asm__ volatile(RETURN_INSN); }
BARE static void *bare_calloc(U stow_heap_t *h, U size_t n, U size_t size) { __asm__ volatile(RETURN_INSN); }
BARE static void *bare_aligned(U stow_heap_t *h, U size_t size, U size_t align) { __asm__ volatile(RETURN_INSN); }
BARE static void *bare_realloc(U stow_heap_t *h, U void *p, U size_t size) { __asm__ volatile(RETURN_INSN); }
BARE static void bare_free(U stow_heap_t *h, U void *p) { __asm__ volatile(RETURN_INSN); }

/* replay_step_heap's twin, calling the empty functions. */
__attribute__((noipa)) static void *replay_step_empty(const struct replay_op *o, void *old)
{
    switch (o->op) {
    case 'm':
        return bare_alloc(&heap, o->size);
    case 'c':
        return bare_calloc(&heap, o->arg, o->arg != 0u ? o->size / o->arg : o->size);
    case 'a':
        return bare_aligned(&heap, o->size, o->arg);
    case 'r':
        return bare_realloc(&heap, old, o->size);
    default:
        bare_free(&heap, old);
        return NULL;
    }
}

/* 2 * n instructions (a decrement and a branch) plus a few; n >= 1. */
static __attribute__((noinline)) void known_loop(uint32_t n)
{
#if defined(__riscv)
    __asm__ volatile("1:\taddi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
#else
    __asm__ volatile(".syntax unified\n1:\tsubs %0, %0, #1\n\tbne 1b" : "+l"(n) : : "cc");
#endif
}

/* Instructions per tick, times 1000. */
static uint64_t per_tick_x1000(void)
{
    const uint32_t n = 2000000u;
    uint32_t t0 = stow_port_cycles();
    known_loop(n);
    uint32_t t1 = stow_port_cycles();
    return ((uint64_t)2u * n * 1000u + (t1 - t0) / 2u) / (t1 - t0);
}

static uint32_t op_kind(char op) { return op == 'm' ? 0u : op == 'c' ? 1u : op == 'a' ? 2u : op == 'r' ? 3u : 4u; }

/* Every block the replay left freed: nothing refused, the heap empty and sound. */
static bool heap_empty(void)
{
#ifdef REPLAY_HEAP4
    return heap4_all_free();
#else
    stow_stats_t st;
    stow_heap_stats(&heap, &st);
    return st.fails == 0u && st.used == 0u && stow_heap_check(&heap);
#endif
}

static void replay_trace(const struct replay_trace *t, uint64_t per_tick)
{
    /* The timing's own cost, per kind of op: the empty twin over the whole trace. */
    uint64_t empty_sum[5];
    uint64_t empty_n[5];
    for (uint32_t k = 0; k < 5u; k++) {
        empty_sum[k] = 0u;
        empty_n[k] = 0u;
        __asm__ volatile("" : : : "memory"); /* a loop, not a call of memset (there is no libc) */
    }
    for (uint32_t i = 0; i < t->count; i++) {
        const struct replay_op *o = &t->ops[i];
        uint32_t t0 = stow_port_cycles();
        (void)replay_step_empty(o, NULL);
        uint32_t t1 = stow_port_cycles();
        empty_sum[op_kind(o->op)] += (uint64_t)(t1 - t0) * per_tick;
        empty_n[op_kind(o->op)]++;
    }
    for (uint32_t id = 0; id <= t->max_id; id++) { /* the smallest-heap search leaves them dirty */
        block_table[id] = NULL;
        requested_table[id] = 0u;
        __asm__ volatile("" : : : "memory");
    }
    live_requested = peak_requested = footprint = 0u;
    calls = 0u;
    if (!heap_reset(sizeof storage)) {
        print("replay: heap init failed\n");
        stow_port_exit(1);
    }
    uint64_t sum = 0u, max = 0u, max1 = 0u, maxs = 0u;
    uint32_t sized = 0u, refused = 0u;
    for (uint32_t i = 0; i < t->count; i++) {
        const struct replay_op *o = &t->ops[i];
        if (!replay_usable(o, t->max_id)) {
            continue;
        }
        void *old = replay_old_block(o, blocks);
#ifdef REPLAY_HEAP4
        heap4_copy_bytes = o->op == 'r' ? requested_of[o->arg] : 0u;
#endif
        uint32_t t0 = stow_port_cycles();
        void *p = replay_step_heap(o, old);
        uint32_t t1 = stow_port_cycles();
        uint32_t k = op_kind(o->op);
        /* (ticks * per_tick - the empty mean) / 1000 + the empty callee's return */
        uint64_t raw = (uint64_t)(t1 - t0) * per_tick;
        uint64_t base = empty_n[k] != 0u ? empty_sum[k] / empty_n[k] : 0u;
        uint64_t insns = (raw > base ? (raw - base + 500u) / 1000u : 0u) + 1u;
        sum += insns;
        max = insns > max ? insns : max;
        if (k == 1u || k == 3u) {
            sized++;
            maxs = insns > maxs ? insns : maxs;
        } else {
            max1 = insns > max1 ? insns : max1;
        }
        refused += o->op != 'f' && p == NULL;
        after(o, p);
        heap_footprint(p, o->size);
    }
    for (uint32_t id = 1; id <= t->max_id; id++) {
        HEAP_CALL(free)(&heap, block_table[id]);
    }
    if (refused != 0u || !heap_empty()) {
        print("replay: ");
        print(t->name);
        print(": refused requests or a failed check\n");
        stow_port_exit(1);
    }
    print("@trace|");
    print(t->name);
    print("|" STOW_BENCH_COLUMN "|");
    print_u64(calls);
    print("|");
    print_tenths(calls != 0u ? (sum * 10u + calls / 2u) / calls : 0u);
    const uint64_t rest[] = {max, max1, sized, maxs, peak_requested, footprint};
    print_fields(rest, sizeof rest / sizeof rest[0]);
    print("\n");
}
#endif

int main(void)
{
    heap_storage = storage;
    blocks = block_table;
    requested_of = requested_table;
#ifndef REPLAY_SIZE_ONLY
    uint64_t per_tick = per_tick_x1000();
    print("# replay on " STOW_BENCH_COLUMN ": one tick = ");
    print_tenths((per_tick + 50u) / 100u);
    print(" instructions\n");
#endif
    for (uint32_t i = 0; i < sizeof replay_traces / sizeof replay_traces[0]; i++) {
#ifndef REPLAY_SIZE_ONLY
        replay_trace(&replay_traces[i], per_tick);
#endif
        report_size(&replay_traces[i], sizeof storage, sizeof storage);
    }
    return 0;
}

#else
/* ======================================================================= host */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

#define HEAP_BYTES ((size_t)256u << 20)
/* The storage the smallest-heap search may use: address space only (mapped
 * with MAP_NORESERVE); a trial touches the heap's bytes it uses (at level 2,
 * all of them: the heap poisons its free bytes). */
#define SIZE_BYTES ((size_t)1u << 30)
/* The largest heap the macro's figures are tried on (a heap of 700 MB at level
 * 2 would write all of it). */
#define MACRO_TRY_BYTES ((size_t)256u << 20)

/* The replayer's own memory comes from mmap, so that glibc's heap holds nothing
 * but the trace's blocks. */
static void *map(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        fputs("replay: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

__attribute__((noipa)) static void *replay_step_libc(const struct replay_op *o, void *old)
{
    switch (o->op) {
    case 'm':
        return malloc(o->size);
    case 'c':
        return calloc(o->arg, o->arg != 0u ? o->size / o->arg : o->size);
    case 'a':
        return aligned_alloc(o->arg, o->size);
    case 'r':
        return realloc(old, o->size);
    default:
        free(old);
        return NULL;
    }
}

static uint64_t libc_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();
    return (uint64_t)(mi.arena - mi.keepcost + mi.hblkhd);
}

/* ---- reading a trace ---- */

static const char *trace_path;
static const char *line_text; /* the line being read */
static uint32_t *line_of;     /* by op: its line in the file */

/* Stops at a line that is not a call a program can make:
 * path:line: why: the line */
static void bad_line(size_t line, const char *why, uint32_t value)
{
    fprintf(stderr, "%s:%zu: ", trace_path, line);
    fprintf(stderr, why, (unsigned)value);
    fprintf(stderr, ": \"%.60s\"\n", line_text);
    exit(2);
}

/* A number after at least one blank; *at moves past it. */
static bool number(const char **at, uint32_t *out)
{
    const char *p = *at;
    if (*p != ' ' && *p != '\t') {
        return false;
    }
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    if (*p < '0' || *p > '9') {
        return false;
    }
    uint64_t v = 0u;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10u + (uint64_t)(*p - '0');
        if (v > UINT32_MAX) {
            return false;
        }
    }
    *out = (uint32_t)v;
    *at = p;
    return true;
}

/* The largest block id a trace may use: the block tables have an entry per id
 * (libstow_malloc.so counts ids from 1 in allocation order; a heap's tracer,
 * stow_heap_trace_write, uses small ids again after a free). */
#define MAX_BLOCK_ID ((1u << 28) - 1u)

/* Reads the trace at path into t, checking each line: the format ("op id size
 * arg", op one of m c a r f), and that the calls make sense in order: a block
 * is made only while its id is not live, freed or reallocated only while live,
 * calloc's n divides its total, an alignment is a power of two. */
static void load(const char *path, struct replay_trace *t)
{
    trace_path = path;
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "%s: cannot read the trace: %s\n", path, fd < 0 ? strerror(errno) : "not a file");
        exit(2);
    }
    size_t len = (size_t)st.st_size;
    char *text = map(len + 1u);
    if (pread(fd, text, len, 0) != (ssize_t)len) {
        fprintf(stderr, "%s: cannot read the trace: %s\n", path, strerror(errno));
        exit(2);
    }
    close(fd);
    text[len] = '\0';
    size_t lines = 1;
    for (size_t i = 0; i < len; i++) {
        lines += text[i] == '\n';
    }
    struct replay_op *ops = map(lines * sizeof *ops);
    line_of = map(lines * sizeof *line_of);
    unsigned char *live = map(MAX_BLOCK_ID + 1u); /* by id: address space only, touched where used */
    size_t n = 0, line = 0;
    uint32_t max_id = 0;
    for (char *at = text; *at != '\0'; line++) {
        char *next = strchr(at, '\n');
        next = next != NULL ? (*next = '\0', next + 1) : at + strlen(at);
        size_t end = strlen(at);
        while (end > 0u && (at[end - 1u] == '\r' || at[end - 1u] == ' ' || at[end - 1u] == '\t')) {
            at[--end] = '\0';
        }
        const char *p = line_text = at;
        at = next;
        uint32_t version;
        if (*p == '\0') {
            continue;
        }
        if (*p == '#') {
            if (strncmp(p, "# stow trace", 12) == 0 && (p += 12, !number(&p, &version) || version != 1u)) {
                bad_line(line + 1u, "not a stow trace of version 1 (the format this replay reads)", 0u);
            }
            continue;
        }
        struct replay_op o = {*p++, 0u, 0u, 0u};
        if (strchr("mcarf", o.op) == NULL || o.op == '\0' || !number(&p, &o.id) || !number(&p, &o.size) ||
            !number(&p, &o.arg) || *p != '\0') {
            bad_line(line + 1u, "not a call: \"op id size arg\", op one of m c a r f, three numbers below 2^32", 0u);
        }
        if (o.op == 'f') {
            if (o.id == 0u) {
                bad_line(line + 1u, "frees a block the recording did not name (id 0): the trace is incomplete "
                         "(a heap's tracer table too small?)", 0u);
            }
            if (o.size != 0u || o.arg != 0u) {
                bad_line(line + 1u, "a free is \"f id 0 0\"", 0u);
            }
            if (o.id > MAX_BLOCK_ID || !live[o.id]) {
                bad_line(line + 1u, "frees block %u, which is not live", o.id);
            }
            live[o.id] = 0u;
        } else if (o.op == 'm' && o.arg != 0u) {
            bad_line(line + 1u, "a malloc is \"m id size 0\"", 0u);
        } else if (o.op == 'c' && (o.arg != 0u ? o.size % o.arg != 0u : o.size != 0u)) {
            bad_line(line + 1u, "a calloc's size (the total) is not a multiple of its n", 0u);
        } else if (o.op == 'a' && (o.arg == 0u || (o.arg & (o.arg - 1u)) != 0u)) {
            bad_line(line + 1u, "alignment %u is not a power of two", o.arg);
        } else if (o.op == 'r' && (o.arg == 0u || o.arg > MAX_BLOCK_ID || !live[o.arg])) {
            bad_line(line + 1u, "reallocates block %u, which is not live", o.arg);
        }
        if (o.op != 'f' && o.id != 0u) { /* id 0: refused when recorded, no block */
            if (o.id > MAX_BLOCK_ID) {
                bad_line(line + 1u, "block id %u: this replay takes ids up to 2^28 - 1", o.id);
            }
            if (o.op == 'r') {
                live[o.arg] = 0u;
            }
            if (live[o.id]) {
                bad_line(line + 1u, "makes block %u, which is already live", o.id);
            }
            live[o.id] = 1u;
        }
        max_id = o.id > max_id ? o.id : max_id;
        line_of[n] = (uint32_t)(line + 1u);
        ops[n++] = o;
    }
    if (n == 0u) {
        fprintf(stderr, "%s: no calls in the trace\n", path);
        exit(2);
    }
    /* the name: the file's, without its directory and ".trace" */
    const char *base = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
    size_t name_len = strlen(base);
    if (name_len > 6u && strcmp(base + name_len - 6u, ".trace") == 0) {
        name_len -= 6u;
    }
    char *name = map(name_len + 1u);
    memcpy(name, base, name_len);
    *t = (struct replay_trace){name, ops, (uint32_t)n, max_id};
}

/* ---- the modes ---- */

/* size: the smallest heap (@size) and the macro's figures (@macro). */
static int size_mode(const struct replay_trace *t)
{
    heap_storage = map(SIZE_BYTES);
    report_size(t, SIZE_BYTES, MACRO_TRY_BYTES);
    return 0;
}

/* at BYTES: one trial. */
static int at_mode(const struct replay_trace *t, const char *bytes_text)
{
    char *end;
    unsigned long long bytes = strtoull(bytes_text, &end, 10);
    if (*bytes_text < '0' || *bytes_text > '9' || *end != '\0' || bytes > SIZE_BYTES) {
        fprintf(stderr, "replay: at: %s is not a size up to %zu bytes\n", bytes_text, SIZE_BYTES);
        return 2;
    }
    heap_storage = map(SIZE_BYTES);
    uint32_t refused;
    if (replay_runs(&heap_under_test, t, blocks, (size_t)bytes, &refused)) {
        printf("runs\n");
        return 0;
    }
    if (refused < t->count) {
        printf("refused at line %u\n", (unsigned)line_of[refused]);
    } else {
        printf("refused: no heap fits in %llu bytes\n", bytes);
    }
    return 1;
}

int main(int argc, char **argv)
{
    const char *mode = argc >= 3 ? argv[2] : "";
    bool on_stow = strcmp(mode, "stow") == 0;
    if (!on_stow && strcmp(mode, "libc") != 0 && strcmp(mode, "size") != 0 && strcmp(mode, "check") != 0 &&
        (strcmp(mode, "at") != 0 || argc != 4)) {
        fputs("usage: replay TRACE stow|libc [dump] | replay TRACE size | replay TRACE at BYTES | "
              "replay TRACE check\n",
              stderr);
        return 2;
    }
    struct replay_trace trace;
    load(argv[1], &trace);
    uint32_t max_id = trace.max_id;
    blocks = map(((size_t)max_id + 1u) * sizeof *blocks);
    requested_of = map(((size_t)max_id + 1u) * sizeof *requested_of);
    if (strcmp(mode, "check") == 0) {
        printf("@check|%s|calls=%u|max_id=%u\n", trace.name, (unsigned)trace.count, (unsigned)max_id);
        return 0;
    }
    if (strcmp(mode, "size") == 0) {
        return size_mode(&trace);
    }
    if (strcmp(mode, "at") == 0) {
        return at_mode(&trace, argv[3]);
    }
    bool dump = argc > 3 && strcmp(argv[3], "dump") == 0;
    const struct replay_op *ops = trace.ops;
    size_t n = trace.count;
    uint64_t base = 0u;
    if (on_stow) {
        heap_storage = map(HEAP_BYTES);
        if (!stow_heap_init(&heap, heap_storage, HEAP_BYTES)) {
            fputs("replay: heap init failed\n", stderr);
            return 2;
        }
    } else {
        free(malloc(1)); /* glibc sets its arena up at the first call */
        base = libc_in_use();
    }
    if (dump) { /* which op each callgrind part counts; to stderr, which allocates no buffer */
        char *letters = map(n + 8u);
        size_t k = 0;
        memcpy(letters, "@ops|", 5u);
        k = 5u;
        for (size_t i = 0; i < n; i++) {
            if (replay_usable(&ops[i], max_id)) {
                letters[k++] = ops[i].op;
            }
        }
        letters[k++] = '\n';
        if (write(STDERR_FILENO, letters, k) != (ssize_t)k) {
            return 2;
        }
    }
    CALLGRIND_DUMP_STATS; /* everything before the first call in a part of its own */
    for (size_t i = 0; i < n; i++) {
        const struct replay_op *o = &ops[i];
        if (!replay_usable(o, max_id)) {
            continue;
        }
        void *old = replay_old_block(o, blocks);
        void *p = on_stow ? replay_step_heap(o, old) : replay_step_libc(o, old);
        if (dump) {
            CALLGRIND_DUMP_STATS;
        }
        after(o, p);
        if (!dump) {
            if (on_stow) {
                heap_footprint(p, o->size);
            } else {
                uint64_t used = libc_in_use() - base;
                footprint = used > footprint ? used : footprint;
            }
        }
    }
    uint32_t fails = 0u;
    bool ok = true;
    for (uint32_t id = 1; id <= max_id; id++) {
        if (blocks[id] != NULL && on_stow) {
            stow_heap_free(&heap, blocks[id]);
        } else if (blocks[id] != NULL) {
            free(blocks[id]);
        }
    }
    if (on_stow) {
        stow_stats_t st;
        stow_heap_stats(&heap, &st);
        fails = st.fails;
        ok = stow_heap_check(&heap) && st.used == 0u;
    }
    printf("@replay|%s|%s|calls=%u|requested=%llu|footprint=%llu|fails=%u|check=%s\n", trace.name,
           on_stow ? "stow" : "libc", (unsigned)calls, (unsigned long long)peak_requested,
           (unsigned long long)footprint, (unsigned)fails, ok ? "ok" : "FAILED");
    return ok && fails == 0u ? 0 : 1;
}

#endif
