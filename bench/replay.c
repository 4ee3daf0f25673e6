/* SPDX-License-Identifier: MIT */
/* replay.c - replays an allocation trace, recorded from a real program by
 * libstow_malloc.so (STOW_HEAP_TRACE; format in adapters/preload/stow_malloc.c),
 * on stow's heap or on the C library's malloc, and measures each call.
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
 *
 * Target (STOW_REPLAY_TARGET, under QEMU -icount shift=0): the traces are
 * compiled in as C arrays (bench/trace2c.sh writes replay_traces.h); each is
 * replayed on the heap and gives one line in bench/replay.sh's format,
 *     @trace|<name>|<column>|<calls>|<mean>|<max>|<max of malloc, aligned, free>|
 *         <calloc and realloc calls>|<their max>|<requested>|<footprint>
 * with each call's instructions read from the port's cycle counter around it
 * (see "Target" below for the method and its resolution).
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
 *   fragmentation = footprint / requested.
 * Calls that failed when the trace was recorded (id 0) are not replayed; blocks
 * still live at the end of the trace are freed afterwards, outside the counts.
 */
#ifndef STOW_REPLAY_TARGET
#define _GNU_SOURCE /* mallinfo2, pread, MAP_ANONYMOUS */
#endif
#include <stddef.h>
#include <stdint.h>

#include "stow/heap.h"
#include "stow/port.h"

struct replay_op {
    char op;       /* m c a r f: see the trace format */
    uint32_t id;   /* the block the call made or freed */
    uint32_t size; /* bytes (calloc: n * size) */
    uint32_t arg;  /* c: n; a: alignment; r: the block reallocated */
};

/* ---- what both builds share --------------------------------------------------------- */

static stow_heap_t heap;
static unsigned char *heap_storage;
static void **blocks; /* by id */
static uint64_t live_requested;
static uint64_t peak_requested;
static uint32_t *requested_of; /* by id: the block's requested bytes */
static uint64_t footprint;
static uint32_t calls;

/* The one allocator call an op makes: callgrind (host) and the cycle counter
 * (target) count this function's callee and nothing else. */
__attribute__((noipa)) static void *replay_step_stow(const struct replay_op *o, void *old)
{
    switch (o->op) {
    case 'm':
        return stow_heap_alloc(&heap, o->size);
    case 'c':
        return stow_heap_calloc(&heap, o->arg, o->arg != 0u ? o->size / o->arg : o->size);
    case 'a':
        return stow_heap_alloc_aligned(&heap, o->size, o->arg);
    case 'r':
        return stow_heap_realloc(&heap, old, o->size);
    default:
        stow_heap_free(&heap, old);
        return NULL;
    }
}

/* The block an op works on, and the bookkeeping after it (outside the counts). */
static void *old_block(const struct replay_op *o)
{
    return o->op == 'r' ? blocks[o->arg] : o->op == 'f' ? blocks[o->id] : NULL;
}

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

static void stow_footprint(void *p)
{
    if (p != NULL) {
        uint64_t end = (uint64_t)((unsigned char *)p - heap_storage) + stow_heap_usable_size(&heap, p);
        if (end > footprint) {
            footprint = end;
        }
    }
}

static bool usable(const struct replay_op *o, uint32_t max_id)
{
    return o->id != 0u && o->id <= max_id && (o->op != 'r' || (o->arg != 0u && o->arg <= max_id));
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

#ifndef REPLAY_HEAP_BYTES
#define REPLAY_HEAP_BYTES (3u << 20)
#endif
#ifndef STOW_BENCH_COLUMN
#define STOW_BENCH_COLUMN "?"
#endif

static _Alignas(16) unsigned char storage[REPLAY_HEAP_BYTES];
static void *block_table[REPLAY_MAX_ID + 1u];
static uint32_t requested_table[REPLAY_MAX_ID + 1u];

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

/* replay_step_stow's twin, calling the empty functions. */
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
    heap_storage = storage;
    blocks = block_table;
    requested_of = requested_table;
    /* the tables start zeroed (.bss), and each trace leaves them so (below) */
    live_requested = peak_requested = footprint = 0u;
    calls = 0u;
    if (!stow_heap_init(&heap, storage, sizeof storage)) {
        print("replay: heap init failed\n");
        stow_port_exit(1);
    }
    uint64_t sum = 0u, max = 0u, max1 = 0u, maxs = 0u;
    uint32_t sized = 0u;
    for (uint32_t i = 0; i < t->count; i++) {
        const struct replay_op *o = &t->ops[i];
        if (!usable(o, t->max_id)) {
            continue;
        }
        void *old = old_block(o);
        uint32_t t0 = stow_port_cycles();
        void *p = replay_step_stow(o, old);
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
        after(o, p);
        stow_footprint(p);
    }
    for (uint32_t id = 1; id <= t->max_id; id++) {
        stow_heap_free(&heap, block_table[id]);
        block_table[id] = NULL;
        requested_table[id] = 0u;
    }
    stow_stats_t st;
    stow_heap_stats(&heap, &st);
    if (st.fails != 0u || st.used != 0u || !stow_heap_check(&heap)) {
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
    print("|");
    print_u64(max);
    print("|");
    print_u64(max1);
    print("|");
    print_u64(sized);
    print("|");
    print_u64(maxs);
    print("|");
    print_u64(peak_requested);
    print("|");
    print_u64(footprint);
    print("\n");
}

int main(void)
{
    uint64_t per_tick = per_tick_x1000();
    print("# replay on " STOW_BENCH_COLUMN ": one tick = ");
    print_tenths((per_tick + 50u) / 100u);
    print(" instructions\n");
    for (uint32_t i = 0; i < sizeof replay_traces / sizeof replay_traces[0]; i++) {
        replay_trace(&replay_traces[i], per_tick);
    }
    return 0;
}

#else
/* ======================================================================= host */
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

#define HEAP_BYTES ((size_t)256u << 20)

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

/* Reads TRACE into an array of ops; returns their number and the largest id. */
static size_t load(const char *path, struct replay_op **out, uint32_t *max_id)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        perror(path);
        exit(2);
    }
    off_t len = lseek(fd, 0, SEEK_END);
    char *text = map((size_t)len + 1u);
    if (pread(fd, text, (size_t)len, 0) != (ssize_t)len) {
        perror(path);
        exit(2);
    }
    close(fd);
    text[len] = '\0';
    size_t lines = 0;
    for (off_t i = 0; i < len; i++) {
        lines += text[i] == '\n';
    }
    struct replay_op *ops = map((lines + 1u) * sizeof *ops);
    size_t n = 0;
    *max_id = 0;
    for (char *line = text; *line != '\0';) {
        char *next = strchr(line, '\n');
        if (next != NULL) {
            *next++ = '\0';
        } else {
            next = line + strlen(line);
        }
        char op;
        unsigned long long id, size, arg;
        if (line[0] != '#' && line[0] != '\0') {
            if (sscanf(line, "%c %llu %llu %llu", &op, &id, &size, &arg) != 4 || strchr("mcarf", op) == NULL ||
                id > UINT32_MAX || size > UINT32_MAX || arg > UINT32_MAX) {
                fprintf(stderr, "%s: bad line: %s\n", path, line);
                exit(2);
            }
            ops[n] = (struct replay_op){op, (uint32_t)id, (uint32_t)size, (uint32_t)arg};
            if (ops[n].id > *max_id) {
                *max_id = ops[n].id;
            }
            n++;
        }
        line = next;
    }
    *out = ops;
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 3 || (strcmp(argv[2], "stow") != 0 && strcmp(argv[2], "libc") != 0)) {
        fputs("usage: replay TRACE stow|libc [dump]\n", stderr);
        return 2;
    }
    bool on_stow = strcmp(argv[2], "stow") == 0;
    bool dump = argc > 3 && strcmp(argv[3], "dump") == 0;
    const char *name = strrchr(argv[1], '/') != NULL ? strrchr(argv[1], '/') + 1 : argv[1];
    struct replay_op *ops;
    uint32_t max_id;
    size_t n = load(argv[1], &ops, &max_id);
    blocks = map(((size_t)max_id + 1u) * sizeof *blocks);
    requested_of = map(((size_t)max_id + 1u) * sizeof *requested_of);
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
            if (usable(&ops[i], max_id)) {
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
        if (!usable(o, max_id)) {
            continue;
        }
        void *old = old_block(o);
        void *p = on_stow ? replay_step_stow(o, old) : replay_step_libc(o, old);
        if (dump) {
            CALLGRIND_DUMP_STATS;
        }
        after(o, p);
        if (!dump) {
            if (on_stow) {
                stow_footprint(p);
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
    printf("@replay|%s|%s|calls=%u|requested=%llu|footprint=%llu|fails=%u|check=%s\n", name,
           on_stow ? "stow" : "libc", (unsigned)calls, (unsigned long long)peak_requested,
           (unsigned long long)footprint, (unsigned)fails, ok ? "ok" : "FAILED");
    return ok && fails == 0u ? 0 : 1;
}

/* The host build links no port: the heap's hook is here. */
void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    fprintf(stderr, "replay: contract violation: %s at %s:%d\n", expr, file, line);
    abort();
}
uint32_t stow_port_critical_enter(void) { return 0u; }
void stow_port_critical_exit(uint32_t state) { (void)state; }
uint32_t stow_port_lock(uint32_t *word)
{
    (void)word;
    return 0u;
}
void stow_port_unlock(uint32_t *word, uint32_t state)
{
    (void)word;
    (void)state;
}

#endif
