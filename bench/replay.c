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
 * Target (STOW_REPLAY_TARGET, under QEMU -icount shift=0; the trace is compiled
 * in as a C array by bench/trace2c.sh): replays the trace on the heap and
 * prints "@replay|<name>|<column>|calls=..|mean=..|max=..|requested=..|footprint=..|fails=..|check=.."
 * with mean and max instructions per call from the port's cycle counter (see
 * STOW_REPLAY_TARGET below).
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

#ifndef STOW_REPLAY_TARGET
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

#endif
