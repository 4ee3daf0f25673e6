/* bench.h - shared pieces of the per-operation benchmark (bench/ops.c).
 *
 * Each module has a bench/ops_<module>.c that defines
 *     void stow_bench_<module>(void);
 * which times its operations with BENCH_TICKS and prints rows with
 * stow_bench_row(). The Makefile generates the list ops.c calls.
 *
 * Timing: under `qemu-system-arm -icount shift=0`, stow_port_cycles() ticks once
 * per stow_bench_per_tick_x1000 / 1000 guest instructions (calibrated at start-up
 * against a loop of known length). An operation is timed over BENCH_OPS calls;
 * the same loop calling an empty function of the same shape is timed too, and the
 * difference, per call, plus one (the empty function's return, which the
 * operation has as well) is what the operation itself executes.
 */
#ifndef STOW_BENCH_H
#define STOW_BENCH_H

#include "stow/stow.h"

#define BENCH_OPS 10000u

/* Ticks taken by BENCH_OPS runs of stmt (which may use the index i). */
#define BENCH_TICKS(ticks, stmt)                                  \
    do {                                                          \
        uint32_t t0_ = stow_port_cycles();                        \
        for (uint32_t i = 0; i < BENCH_OPS; i++) {                \
            stmt;                                                 \
        }                                                         \
        (ticks) = stow_port_cycles() - t0_;                       \
    } while (0)

/* For the empty baseline functions: noipa stops GCC from seeing that they do
 * nothing and hoisting or dropping their calls (it would, for a pure one). */
#define BENCH_BASELINE __attribute__((noipa))

/* Keeps results alive so the compiler cannot drop the calls that made them. */
extern void *volatile stow_bench_sink;
extern volatile uint32_t stow_bench_sink_u32;

/* Prints "| name | instructions |" for an operation timed against a baseline. */
void stow_bench_row(const char *name, uint32_t op_ticks, uint32_t baseline_ticks);
void stow_bench_print(const char *text);

#define STOW_BENCH(name) void stow_bench_##name(void);
#include "benches.h"
#undef STOW_BENCH

#endif /* STOW_BENCH_H */
