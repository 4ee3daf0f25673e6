/* SPDX-License-Identifier: MIT */
/* bench.h - shared pieces of the per-operation instruction counts (bench/ops.c).
 *
 * Each module has a bench/ops_<module>.c that defines
 *     void stow_bench_<module>(void);
 * which measures its operations, one row each, with BENCH_ROW(). The Makefile
 * generates the list ops.c calls. The same sources build for every Cortex-M board
 * (run under QEMU) and for the host (run under valgrind's callgrind):
 *
 *   row      a label, and three functions of no arguments:
 *            prep  untimed: puts the container in the state the row needs (it
 *                  always starts from init, so rows do not depend on each other);
 *            run   BENCH_NOIPA: a loop making `calls` calls of the operation;
 *            base  BENCH_NOIPA: the same loop calling empty functions of the same
 *                  signatures (BENCH_BARE: nothing but a return instruction).
 *   target   under `qemu-system-arm -icount shift=0` the SysTick counter measures
 *            instructions (ops.c calibrates the tick against a loop of known
 *            length). For each of BENCH_ROUNDS rounds: base is timed, prep runs,
 *            run is timed. (run - base) per call, plus the empty functions' return
 *            instruction (which the operation has too), is what the operation
 *            executes: its own instructions, return included, not the call.
 *            Rounds start at varied offsets from a tick (dither), so that the
 *            rounding of each timed stretch to whole ticks averages out.
 *   host     callgrind counts exactly, per call site: ops.c prints each row's run
 *            function and its call count, and bench/callgrind.sh adds up the
 *            inclusive cost of every call that function made (the operation's
 *            instructions, return included) and divides. base is not needed.
 *
 * Every output line that bench/table.sh reads starts with "@|"; the rest of the
 * output is for people.
 *
 * Storage: containers are made with stow_<module>_init over stow_bench_ram (one
 * buffer shared by every row, since rows run one at a time; the micro:bit has
 * 16 KiB of RAM), not with DEFINE; the operations run the same code either way.
 */
#ifndef STOW_BENCH_H
#define STOW_BENCH_H

#include "stow/stow.h"

/* Calls per round and rounds per row: BENCH_OPS * BENCH_ROUNDS calls in all. */
#ifndef BENCH_OPS
#define BENCH_OPS 1000u
#endif
#ifndef BENCH_ROUNDS
#define BENCH_ROUNDS 10u
#endif

/* Bytes of stow_bench_ram: enough for BENCH_OPS slots of the largest row (a slot
 * map of 64-byte items: 72 bytes a slot), aligned to 16. */
#define BENCH_RAM_BYTES ((size_t)BENCH_OPS * 80u + 256u)
extern unsigned char stow_bench_ram[];
extern stow_handle_t stow_bench_handles[BENCH_OPS];
extern void *stow_bench_ptrs[BENCH_OPS];

/* Keep results alive so the compiler cannot drop the calls that made them. */
extern void *volatile stow_bench_sink;
extern volatile uint32_t stow_bench_sink_u32;

/* noipa: GCC may not inline, clone or look into these functions, so a loop makes
 * exactly the calls it shows, and its symbol keeps its name for callgrind. */
#define BENCH_NOIPA __attribute__((noipa))
#define BENCH_UNUSED __attribute__((unused))

/* An empty function: its only instruction returns (whatever the argument
 * registers hold is "returned", which no base loop looks at). */
#if defined(__arm__) || defined(__thumb__)
#define BENCH_RETURN_INSN "bx lr"
#else
#define BENCH_RETURN_INSN "ret"
#endif
#define BENCH_BARE __attribute__((naked, noipa))
#define BENCH_BARE_BODY { __asm__ volatile(BENCH_RETURN_INSN); }

/* A run or base function: BENCH_OPS times the statement (which may use i). */
#define BENCH_LOOP(name, ...)                        \
    static BENCH_NOIPA void name(void)               \
    {                                                \
        for (uint32_t i = 0; i < BENCH_OPS; i++) {   \
            __VA_ARGS__;                             \
        }                                            \
    }

typedef void (*stow_bench_fn)(void);

/* Measures one row and prints its line. calls: operations per round; bare_calls:
 * empty-function calls per round in base (usually calls; 2 * calls when each
 * operation is a pair of calls, 1 when one call does `calls` operations). */
void stow_bench_measure(const char *label, stow_bench_fn prep, stow_bench_fn run,
                        const char *run_name, stow_bench_fn base, uint32_t calls,
                        uint32_t bare_calls);

/* The usual row: BENCH_OPS calls of one operation, one empty call each in base. */
#define BENCH_ROW(label, prep, run, base) \
    stow_bench_measure(label, prep, run, #run, base, BENCH_OPS, BENCH_OPS)
#define BENCH_ROW_N(label, prep, run, base, calls, bare_calls) \
    stow_bench_measure(label, prep, run, #run, base, calls, bare_calls)

/* Stops the program with a message: a row found its container in the wrong state. */
void stow_bench_fail(const char *module, const char *what);
void stow_bench_print(const char *text);

#define STOW_BENCH(name) void stow_bench_##name(void);
#include "benches.h"
#undef STOW_BENCH

#endif /* STOW_BENCH_H */
