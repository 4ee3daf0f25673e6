/* SPDX-License-Identifier: MIT */
/* replay_size.c - the smallest heap a recorded trace runs on, found by
 * replaying it (bench/replay.c prints it, on the host and in the QEMU images).
 *
 * A trial makes an empty heap on the first S bytes of the storage and replays
 * every call of the trace; it passes when no request is refused. Storage sizes
 * go in steps of REPLAY_SIZE_STEP (1 KiB). The search: S = the peak requested
 * bytes (rounded down to a step; it cannot pass, the blocks alone need that
 * much, but it is tried as any other), then doubled until a trial passes, then
 * bisection between the last size that failed and the first that passed, then
 * the REPLAY_SIZE_ABOVE (8) sizes above the result tried too: a heap whose
 * layout depends on its size can fail on a larger size than one that passed.
 * If one does, the result moves above it and the 8 sizes above the new result
 * are tried in turn, so the size reported is the smallest S found such that S
 * and the 8 steps above it all run the trace, and the failure is reported.
 * About 20 trials a trace: the bisection starts within a factor of two.
 *
 * Only the heap's public calls are used (through struct replay_heap), so the
 * search works on any heap policy, and on other heaps (FreeRTOS's heap_4). */
#include "replay.h"

#include "stow/port.h"

bool replay_usable(const struct replay_op *o, uint32_t max_id)
{
    return o->id != 0u && o->id <= max_id && (o->op != 'r' || (o->arg != 0u && o->arg <= max_id));
}

/* The bytes a request counts for in the macro's limits: an aligned request as
 * size + alignment (stow/heap.h, "Aligned requests"), saturated. */
static uint32_t charge(const struct replay_op *o)
{
    uint64_t c = o->op == 'a' ? (uint64_t)o->size + o->arg : o->size;
    return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

/* The most bytes live at once: plain (requested bytes; a realloc's old block
 * gone when the call starts) or charged (aligned requests with their
 * alignment, a realloc's old block live until the call has made the new one). */
static uint64_t most_live(const struct replay_trace *t, uint32_t *sizes, bool charged)
{
    for (uint32_t id = 0; id <= t->max_id; id++) {
        sizes[id] = 0u;
        __asm__ volatile("" : : : "memory"); /* a loop, not a call of memset (the images have no libc) */
    }
    uint64_t live = 0u, most = 0u;
    for (uint32_t i = 0; i < t->count; i++) {
        const struct replay_op *o = &t->ops[i];
        if (!replay_usable(o, t->max_id)) {
            continue;
        }
        if (o->op == 'f') {
            live -= sizes[o->id];
            sizes[o->id] = 0u;
            continue;
        }
        uint32_t bytes = charged ? charge(o) : o->size;
        if (o->op == 'r' && !charged) {
            live -= sizes[o->arg];
            sizes[o->arg] = 0u;
        }
        live += bytes;
        most = live > most ? live : most;
        if (o->op == 'r' && charged) {
            live -= sizes[o->arg];
            sizes[o->arg] = 0u;
        }
        sizes[o->id] = bytes;
    }
    return most;
}

void replay_shape_of(const struct replay_trace *t, uint32_t *sizes, struct replay_shape *out)
{
    out->calls = 0u;
    out->largest = 0u;
    out->smallest = UINT64_MAX;
    for (uint32_t i = 0; i < t->count; i++) {
        const struct replay_op *o = &t->ops[i];
        if (!replay_usable(o, t->max_id)) {
            continue;
        }
        out->calls++;
        if (o->op != 'f') {
            uint64_t c = charge(o) != 0u ? charge(o) : 1u;
            out->largest = c > out->largest ? c : out->largest;
            out->smallest = c < out->smallest ? c : out->smallest;
        }
    }
    if (out->smallest == UINT64_MAX) { /* frees only */
        out->smallest = 1u;
    }
    out->peak = most_live(t, sizes, false);
    out->live = most_live(t, sizes, true);
}

void *replay_old_block(const struct replay_op *o, void *const *blocks)
{
    return o->op == 'r' ? blocks[o->arg] : o->op == 'f' ? blocks[o->id] : NULL;
}

bool replay_runs(const struct replay_heap *h, const struct replay_trace *t, void **blocks, size_t bytes,
                 uint32_t *refused)
{
    uint32_t i = 0;
    for (uint32_t id = 0; id <= t->max_id; id++) {
        blocks[id] = NULL;
        __asm__ volatile("" : : : "memory");
    }
    bool ran = h->reset(bytes);
    for (; i < t->count && ran; i++) {
        const struct replay_op *o = &t->ops[i];
        if (!replay_usable(o, t->max_id)) {
            continue;
        }
        void *p = h->step(o, replay_old_block(o, blocks));
        if (o->op == 'f') {
            blocks[o->id] = NULL;
        } else if (p == NULL) {
            ran = false; /* refused: this size is too small */
            break;
        } else {
            if (o->op == 'r') {
                blocks[o->arg] = NULL;
            }
            blocks[o->id] = p;
        }
    }
    if (refused != NULL) {
        *refused = ran ? t->count : i;
    }
    if (!h->sound()) {
        static const char msg[] = "replay: the heap failed its own check during the smallest-heap search\n";
        stow_port_write(msg, sizeof msg - 1u);
        stow_port_exit(1);
    }
    return ran;
}

void replay_smallest(const struct replay_heap *h, const struct replay_trace *t, void **blocks, size_t capacity,
                     uint64_t peak, struct replay_size *out)
{
    const size_t step = REPLAY_SIZE_STEP;
    const size_t cap = capacity / step * step;
    out->bytes = out->bisected = out->larger_fail = 0u;
    out->above = 0u;
    out->trials = 0u;
#define RUNS(bytes) (out->trials++, replay_runs(h, t, blocks, (bytes), NULL))
    /* lo: 0 or a size that failed; hi: a size that ran */
    size_t lo = peak < cap ? (size_t)peak / step * step : cap;
    size_t hi = lo;
    if (lo == 0u || !RUNS(lo)) {
        do {
            lo = hi;
            hi = lo == 0u ? step : lo <= cap / 2u ? 2u * lo : cap;
            if (hi == lo) {
                return; /* not even the whole storage */
            }
        } while (!RUNS(hi));
        while (hi - lo > step) {
            size_t mid = lo + (hi - lo) / step / 2u * step;
            if (RUNS(mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
    }
    out->bisected = hi;
    /* hi and the k - 1 sizes above it ran; k = 0: hi itself is to be tried */
    uint32_t k = 1u;
    while (k <= REPLAY_SIZE_ABOVE) {
        if (hi > cap || (size_t)k * step > cap - hi) {
            break; /* beyond the storage: not tried */
        }
        size_t at = hi + (size_t)k * step;
        if (RUNS(at)) {
            k++;
        } else {
            out->larger_fail = at;
            hi = at + step;
            k = 0u;
        }
    }
#undef RUNS
    if (k == 0u) {
        return; /* every size from the last failure to the end of the storage failed */
    }
    out->bytes = hi;
    out->above = k - 1u;
}
