/* SPDX-License-Identifier: MIT */
/* frame_scratch - a firmware main loop that takes its per-frame memory from arenas.
 *
 * Each frame gathers sensor samples, builds a sorted copy, and formats a report:
 * all of it scratch that dies at the end of the frame. The frame arena is reset
 * once per frame; a second, smaller arena is chained to it for the rare frame that
 * needs more (a burst of samples), so a spike costs a few hundred bytes of
 * reserve instead of doubling the main budget. A mark inside the frame gives the
 * sort its own temporary buffer, handed back before the report is built.
 *
 * Runs under QEMU (make demo) and prints, per frame, what it used and the
 * high-water marks, then stow_report(). Its status is 0 when every frame fit and
 * the report found every check passed and the subsystem within its budget.
 */
#include "stow/stow.h"

#define FRAMES 12u
#define FRAME_BYTES 768u
#define RESERVE_BYTES 512u

STOW_ARENA_DEFINE_IN(frames, frame_arena, FRAME_BYTES);
STOW_ARENA_DEFINE_IN(frames, frame_reserve, RESERVE_BYTES);
/* The subsystem's budget: both arenas must fit in it (stow_report() says so). */
STOW_BUDGET(frames, FRAME_BYTES + RESERVE_BYTES)

/* A deterministic stand-in for an ADC: a slow wave plus noise. */
static uint32_t noise_state = 12345u;
static uint16_t read_sensor(uint32_t t)
{
    noise_state = noise_state * 1103515245u + 12345u;
    return (uint16_t)(2048u + (t % 64u) * 16u + ((noise_state >> 16) & 0xFFu));
}

/* Insertion sort into scratch: small n, no recursion, no heap. */
static void sort_copy(uint16_t *dst, const uint16_t *src, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = i;
        while (j > 0u && dst[j - 1u] > src[i]) {
            dst[j] = dst[j - 1u];
            j--;
        }
        dst[j] = src[i];
    }
}

struct report {
    uint32_t frame, count;
    uint32_t frame_bytes; /* the most this frame had in use at once */
    uint16_t min, median, max;
};

/* One frame; returns false if the arenas could not hold it. */
static bool run_frame(uint32_t frame, struct report *out)
{
    /* Most frames read 60..120 samples; every fifth frame is a burst of 200+. */
    uint32_t count = (frame % 5u == 4u) ? 200u + frame * 4u : 60u + (frame * 37u) % 60u;
    uint16_t *samples = STOW_ARENA_NEW_ARRAY(&frame_arena, uint16_t, count);
    if (samples == NULL) {
        return false;
    }
    for (uint32_t i = 0; i < count; i++) {
        samples[i] = read_sensor(frame * 1000u + i);
    }

    stow_arena_mark_t before_sort = stow_arena_mark(&frame_arena);
    uint16_t *sorted = STOW_ARENA_NEW_ARRAY(&frame_arena, uint16_t, count);
    if (sorted == NULL) {
        return false;
    }
    sort_copy(sorted, samples, count);
    out->frame = frame;
    out->count = count;
    out->min = sorted[0];
    out->median = sorted[count / 2u];
    out->max = sorted[count - 1u];
    out->frame_bytes = (uint32_t)stow_arena_used(&frame_arena);
    stow_arena_rewind(&frame_arena, before_sort); /* the sorted copy was temporary */

    struct report *kept = STOW_ARENA_NEW(&frame_arena, struct report);
    if (kept == NULL) {
        return false;
    }
    *kept = *out;
    return true;
}

int main(void)
{
    stow_arena_chain(&frame_arena, &frame_reserve);
    stow_print("stow demo: per-frame scratch from a 768-byte arena with a 512-byte reserve chained\n");
    stow_print("frame samples  min median  max  frame bytes  peak bytes\n");
    uint32_t overflowed = 0;
    for (uint32_t frame = 0; frame < FRAMES; frame++) {
        struct report r = {0u, 0u, 0u, 0u, 0u, 0u};
        bool fit = run_frame(frame, &r);
        stow_stats_t s;
        stow_arena_stats(&frame_arena, &s);
        stow_print_u(frame, 5);
        stow_print_u(r.count, 8);
        stow_print_u(r.min, 5);
        stow_print_u(r.median, 7);
        stow_print_u(r.max, 5);
        stow_print_u(r.frame_bytes, 13);
        stow_print_u(s.peak, 12);
        stow_print(r.frame_bytes > FRAME_BYTES ? "  spilled into the reserve\n" : "\n");
        if (!fit) {
            stow_print("      did not fit: frame dropped\n");
            overflowed++;
        }
        stow_arena_reset(&frame_arena); /* end of frame: everything goes at once */
    }
    /* Both arenas (the reserve shows its own bytes; its use counts in the
     * frame arena's row) and the subsystem against its budget. */
    stow_print("\n");
    bool ok = stow_report();
    return overflowed == 0u && ok ? 0 : 1;
}
