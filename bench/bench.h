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

/* ---- one call at a time (STOW_BENCH_EACH) ------------------------------------
 *
 * A mean over thousands of calls hides the worst case, which is what a bounded-
 * time allocator is about. The modules listed in the Makefile's BENCH_EACH (the
 * heap) time every call on its own, in images of their own built with
 * -DSTOW_BENCH_EACH from bench/ops.c and their bench/ops_<module>.c (which the
 * ordinary images leave out; their list is benches_each.h):
 *
 *   target   run under `-icount shift=8`: one instruction is 256 ns of virtual
 *            time, several ticks of every board's SysTick (6.4 on the MPS2
 *            AN386 at 25 MHz) and 256 of mcycle on RISC-V, so the ticks of one
 *            call give its instructions exactly (ops.c calibrates ticks per
 *            instruction). A timed call is a noipa function: BENCH_EACH_BEGIN
 *            reads the counter (raw SysTick, never across a wrap: it first
 *            waits out the last 2^18 ticks before one, so no interrupt lands
 *            inside; mcycle on RISC-V), the operation is called,
 *            BENCH_EACH_END reads it again into stow_bench_each_ticks. The
 *            same function calling an empty BENCH_BARE function is timed too;
 *            the operation's instructions, return included, not the call, are
 *            then insns(op) - insns(empty) + 1 (the empty one's return), as
 *            for every other row.
 *   host     run under callgrind by bench/callgrind_each.sh:
 *            BENCH_EACH_BEGIN zeroes callgrind's counts and BENCH_EACH_END
 *            dumps them, labelled with the row's key, into one combined
 *            output; the script adds up, per dump, the inclusive cost of the
 *            calls made by the timing function (named each_*) and gives the
 *            mean and the max per key. The program prints
 *            "@|<column>|<label>|each=<key>|mean" (or "|max") for each row.
 *
 * Timing functions are named each_<something> (callgrind_each.sh looks for
 * that prefix). */
#ifdef STOW_BENCH_EACH
typedef struct {
    const char *key; /* the dump label on the host */
    uint32_t calls;
    uint64_t total; /* instructions (target) */
    uint32_t max;
} stow_bench_each_t;

/* Ticks of the last timed call (target). */
extern volatile uint32_t stow_bench_each_ticks;

#if defined(STOW_BENCH_TARGET) && defined(__riscv)
static inline uint32_t stow_bench_stamp(void)
{
    uint32_t c;
    __asm__ volatile("csrr %0, mcycle" : "=r"(c));
    return c;
}
#define BENCH_EACH_TICKS(t0, t1) ((t1) - (t0))
#define BENCH_EACH_QUIET() ((void)0)
#elif defined(STOW_BENCH_TARGET)
/* SysTick's current value, counting down from 0xFFFFFF (port/cortex-m/cycles.c
 * starts it so, and ops.c's calibration starts the port's clock). */
#define BENCH_SYST_CVR (*(volatile uint32_t *)(uintptr_t)0xE000E018u)
static inline uint32_t stow_bench_stamp(void) { return BENCH_SYST_CVR; }
#define BENCH_EACH_TICKS(t0, t1) (((t0) - (t1)) & 0x00FFFFFFu)
/* Waits for the wrap (and its interrupt) when fewer than 2^18 ticks are left
 * before it: a timed call never spans one. */
#define BENCH_EACH_QUIET()                      \
    do {                                        \
        while (BENCH_SYST_CVR < 0x40000u) {     \
        }                                       \
    } while (0)
#endif

#ifdef STOW_BENCH_TARGET
#define BENCH_EACH_BEGIN()                      \
    BENCH_EACH_QUIET();                         \
    uint32_t bench_t0_ = stow_bench_stamp()
#define BENCH_EACH_END(key) \
    stow_bench_each_ticks = BENCH_EACH_TICKS(bench_t0_, stow_bench_stamp())
#else
#include <valgrind/callgrind.h>
#define BENCH_EACH_BEGIN() CALLGRIND_ZERO_STATS
#define BENCH_EACH_END(key) CALLGRIND_DUMP_STATS_AT(key)
#endif

/* Instructions in ticks (target); the empty call's instructions (target: the
 * empty window, measured by the module), and the row's figures. */
uint32_t stow_bench_insns(uint32_t ticks);
/* Adds one call: ticks of its window, empty: instructions of the empty window. */
void stow_bench_each_add(stow_bench_each_t *s, uint32_t ticks, uint32_t empty);
/* Prints the two rows "<label>: mean" and "<label>: max". */
void stow_bench_each_rows(const char *label, const stow_bench_each_t *s);
#endif

/* Stops the program with a message: a row found its container in the wrong state. */
void stow_bench_fail(const char *module, const char *what);
void stow_bench_print(const char *text);
void stow_bench_print_u32(uint32_t v);

#define STOW_BENCH(name) void stow_bench_##name(void);
#ifdef STOW_BENCH_EACH
#include "benches_each.h"
#else
#include "benches.h"
#endif
#undef STOW_BENCH

#endif /* STOW_BENCH_H */
