/* SPDX-License-Identifier: MIT */
/* replay.h - what the trace replay (bench/replay.c: each call timed) and the
 * smallest-heap search (bench/replay_size.c) share: a trace as an array of
 * calls, the heap under test as three functions, and the trace's own figures.
 * The trace format is libstow_malloc.so's (adapters/preload/stow_malloc.c,
 * "Trace"); bench/replay.c reads it on the host, bench/trace2c.sh turns it into
 * C arrays for the QEMU images. */
#ifndef STOW_BENCH_REPLAY_H
#define STOW_BENCH_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct replay_op {
    char op;       /* m c a r f: see the trace format */
    uint32_t id;   /* the block the call made or freed; 0: refused when recorded (not replayed) */
    uint32_t size; /* bytes (calloc: n * size) */
    uint32_t arg;  /* c: n; a: alignment; r: the block reallocated */
};

struct replay_trace {
    const char *name;
    const struct replay_op *ops;
    uint32_t count;
    uint32_t max_id; /* the largest id: the block tables have max_id + 1 entries */
};

/* The heap under test, as a trial of the smallest-heap search drives it. */
struct replay_heap {
    bool (*reset)(size_t bytes); /* an empty heap on the first bytes of the storage; false if too few */
    void *(*step)(const struct replay_op *o, void *old); /* the one call o makes; old: the block it frees or moves */
    bool (*sound)(void);                                 /* the heap's own consistency check */
};

/* A trace's own figures, whatever heap runs it. */
struct replay_shape {
    uint32_t calls;    /* calls replayed (those refused when recorded left out) */
    uint64_t peak;     /* the most requested bytes live at once, a realloc counting its new size from the call on */
    uint64_t live;     /* the same, counting a realloc's old block as live during the call (a moving realloc
                        * holds both) and an aligned request as size + alignment: the macro's max_live_bytes */
    uint64_t largest;  /* the largest request (aligned: size + alignment): the macro's max_request */
    uint64_t smallest; /* the smallest request, 0 counting as 1: the macro's min_request */
};

/* What the smallest-heap search found. */
struct replay_size {
    size_t bytes;       /* the smallest storage S (a multiple of REPLAY_SIZE_STEP) that runs the trace with
                         * S + k * REPLAY_SIZE_STEP, k = 1..REPLAY_SIZE_ABOVE; 0: none within the capacity */
    size_t bisected;    /* where the bisection ended; below bytes when a size above it failed */
    size_t larger_fail; /* the largest size above bisected that refused a request; 0: none */
    uint32_t above;     /* sizes above bytes tried (REPLAY_SIZE_ABOVE, fewer where the storage ends) */
    uint32_t trials;    /* replays run */
};

#define REPLAY_SIZE_STEP 1024u
#define REPLAY_SIZE_ABOVE 8u

/* o is replayed: it made a block when recorded (and names blocks within the tables). */
bool replay_usable(const struct replay_op *o, uint32_t max_id);

/* The block o frees or moves (NULL for the other calls); blocks: by id. */
void *replay_old_block(const struct replay_op *o, void *const *blocks);

/* t's figures; sizes: max_id + 1 entries of scratch. */
void replay_shape_of(const struct replay_trace *t, uint32_t *sizes, struct replay_shape *out);

/* Whether t runs, with no request refused, on an empty heap of bytes; blocks:
 * max_id + 1 entries of scratch; *refused (when not NULL): the index in t->ops
 * of the call refused, t->count if none. A heap that fails its own check stops
 * the program (a heap bug, not a size). */
bool replay_runs(const struct replay_heap *h, const struct replay_trace *t, void **blocks, size_t bytes,
                 uint32_t *refused);

/* The smallest heap for t within capacity bytes (see struct replay_size): from
 * peak (t's peak requested bytes) upwards by doubling, bisection in steps of
 * REPLAY_SIZE_STEP, then the REPLAY_SIZE_ABOVE steps above checked, moving up
 * past any that fails. */
void replay_smallest(const struct replay_heap *h, const struct replay_trace *t, void **blocks, size_t capacity,
                     uint64_t peak, struct replay_size *out);

#endif
