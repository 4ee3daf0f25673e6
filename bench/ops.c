/* SPDX-License-Identifier: MIT */
/* ops.c - instructions per stow operation: the row driver and main(). See bench.h.
 *
 * Target (STOW_BENCH_TARGET, under `qemu-system-arm -icount shift=0`): QEMU then
 * executes exactly one guest instruction per virtual nanosecond, so the SysTick
 * counter (which stow_port_cycles() extends to 32 bits) measures instructions:
 * one tick is (1e9 / SysTick clock) of them (62.5 on the micro:bit, 40 on the
 * MPS2 AN386, 50 on the AN505). On RISC-V (qemu-system-riscv32 -icount
 * shift=0) stow_port_cycles() reads mcycle, which QEMU then derives from the
 * instruction count: one tick is one instruction. The tick is calibrated below
 * against a loop of known length, so no board's clock is assumed.
 * Host: run under callgrind; bench/callgrind.sh turns the lines printed here
 * into instruction counts.
 *
 * Output: for each row one line "@|<column>|<label>|<value>" (target: the
 * instructions per call; host: "fn=<run function>|calls=<n>"), which
 * bench/table.sh gathers into one table with a column per core and level.
 *
 * Built with -DSTOW_BENCH_EACH (with the modules of the Makefile's BENCH_EACH
 * only), the same file drives rows that time each call on its own: on a target
 * run under -icount shift=8, it calibrates ticks per instruction instead and
 * turns each call's ticks into instructions; on the host it prints the rows
 * for bench/callgrind_each.sh. See bench.h, "one call at a time".
 */
#include "bench.h"

#ifndef STOW_BENCH_COLUMN
#define STOW_BENCH_COLUMN "?"
#endif

void *volatile stow_bench_sink;
volatile uint32_t stow_bench_sink_u32;
_Alignas(16) unsigned char stow_bench_ram[BENCH_RAM_BYTES];
stow_handle_t stow_bench_handles[BENCH_OPS];
void *stow_bench_ptrs[BENCH_OPS];

void stow_bench_print(const char *text)
{
    size_t n = 0;
    while (text[n] != '\0') {
        n++;
    }
    stow_port_write(text, n);
}

void stow_bench_fail(const char *module, const char *what)
{
    stow_bench_print("bench: ");
    stow_bench_print(module);
    stow_bench_print(": ");
    stow_bench_print(what);
    stow_bench_print("\n");
    stow_port_exit(1);
}

static void print_u32(uint32_t v)
{
    char digits[12];
    unsigned at = sizeof digits;
    do {
        digits[--at] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    stow_port_write(&digits[at], sizeof digits - at);
}


void stow_bench_print_u32(uint32_t v) { print_u32(v); }

static void row_start(const char *label)
{
    stow_bench_print("@|" STOW_BENCH_COLUMN "|");
    stow_bench_print(label);
    stow_bench_print("|");
}

#ifdef STOW_BENCH_EACH
/* A row "<label>: <stat>". */
static void each_row_start(const char *label, const char *stat)
{
    stow_bench_print("@|" STOW_BENCH_COLUMN "|");
    stow_bench_print(label);
    stow_bench_print(": ");
    stow_bench_print(stat);
    stow_bench_print("|");
}
#endif

#ifdef STOW_BENCH_EACH
volatile uint32_t stow_bench_each_ticks;
#define STOW_BENCH_LIST "benches_each.h"
#else
#define STOW_BENCH_LIST "benches.h"
#endif

#ifdef STOW_BENCH_TARGET

static uint32_t per_tick_x1000; /* instructions per tick, times 1000 */

static void print_hundredths(uint32_t hundredths)
{
    print_u32(hundredths / 100u);
    char frac[3] = {'.', (char)('0' + hundredths % 100u / 10u), (char)('0' + hundredths % 10u)};
    stow_port_write(frac, sizeof frac);
}

/* 2 * n instructions (subs, bne / addi, bnez) plus a few to enter and leave; n >= 1. */
static __attribute__((noinline)) void known_loop(uint32_t n)
{
#if defined(__riscv)
    __asm__ volatile("1:\taddi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
#else
    __asm__ volatile(".syntax unified\n1:\tsubs %0, %0, #1\n\tbne 1b" : "+l"(n) : : "cc");
#endif
}

#ifndef STOW_BENCH_EACH
static uint32_t calibrate(void)
{
    const uint32_t n = 2000000u;
    uint32_t t0 = stow_port_cycles();
    known_loop(n);
    uint32_t t1 = stow_port_cycles();
    return (uint32_t)(((uint64_t)2u * n * 1000u + (t1 - t0) / 2u) / (t1 - t0));
}
#endif

/* Ticks taken by f, started after a delay that changes from round to round:
 * 2 * (1 + (round * 37) mod 500) instructions, so 500 rounds in a row start at
 * every even offset over 1,000 instructions, a whole number of ticks on every
 * board (16 ticks of 62.5, 25 of 40, 20 of 50). A timed stretch is rounded to
 * whole ticks at both ends; over starts spread evenly across whole ticks, the
 * roundings cancel out. */
static uint32_t timed(stow_bench_fn f, uint32_t round)
{
    known_loop(1u + (round * 37u) % 500u);
    uint32_t t0 = stow_port_cycles();
    f();
    return stow_port_cycles() - t0;
}

void stow_bench_measure(const char *label, stow_bench_fn prep, stow_bench_fn run,
                        const char *run_name, stow_bench_fn base, uint32_t calls,
                        uint32_t bare_calls)
{
    (void)run_name;
    uint64_t op = 0u, empty = 0u;
    for (uint32_t r = 0; r < BENCH_ROUNDS; r++) {
        empty += timed(base, r);
        if (prep != NULL) {
            prep();
        }
        op += timed(run, r);
    }
    /* ((op - empty) ticks in instructions + the empty functions' returns) per
     * call, in hundredths, rounded */
    int64_t diff_x1000 = ((int64_t)op - (int64_t)empty) * per_tick_x1000;
    int64_t total_calls = (int64_t)calls * BENCH_ROUNDS;
    int64_t hundredths = (diff_x1000 / 10 + (int64_t)bare_calls * BENCH_ROUNDS * 100 +
                          total_calls / 2) / total_calls;
    row_start(label);
    print_hundredths(hundredths > 0 ? (uint32_t)hundredths : 0u);
    stow_bench_print("\n");
}

#ifdef STOW_BENCH_EACH
/* Ticks per instruction, times 1000, under -icount shift=8 (see bench.h). */
static uint32_t ticks_per_insn_x1000;

static uint32_t calibrate_each(void)
{
    const uint32_t n = 500000u;
    uint32_t t0 = stow_port_cycles();
    known_loop(n);
    uint32_t t1 = stow_port_cycles();
    return (uint32_t)(((uint64_t)(t1 - t0) * 1000u + n) / (2u * n));
}

uint32_t stow_bench_insns(uint32_t ticks)
{
    return (uint32_t)(((uint64_t)ticks * 1000u + ticks_per_insn_x1000 / 2u) / ticks_per_insn_x1000);
}

void stow_bench_each_add(stow_bench_each_t *s, uint32_t ticks, uint32_t empty)
{
    uint32_t insns = stow_bench_insns(ticks) + 1u - empty;
    s->calls++;
    s->total += insns;
    s->max = insns > s->max ? insns : s->max;
}

void stow_bench_each_rows(const char *label, const stow_bench_each_t *s)
{
    if (s->calls == 0u) {
        return;
    }
    each_row_start(label, "mean");
    print_hundredths((uint32_t)((s->total * 100u + s->calls / 2u) / s->calls));
    stow_bench_print("\n");
    each_row_start(label, "max");
    print_u32(s->max);
    stow_bench_print("\n");
}

int main(void)
{
    ticks_per_insn_x1000 = calibrate_each();
    stow_bench_print("# " STOW_BENCH_COLUMN " (" STOW_BENCH_BOARD "), -O2, -icount shift=8: one instruction = ");
    print_hundredths(ticks_per_insn_x1000 / 10u);
    stow_bench_print(" ticks; each call timed on its own\n");
#define STOW_BENCH(name) stow_bench_##name();
#include STOW_BENCH_LIST
#undef STOW_BENCH
    return 0;
}
#else
int main(void)
{
    per_tick_x1000 = calibrate();
    stow_bench_print("# " STOW_BENCH_COLUMN " (" STOW_BENCH_BOARD "), -O2: one tick = ");
    print_hundredths(per_tick_x1000 / 10u);
    stow_bench_print(" instructions; ");
    print_u32(BENCH_OPS);
    stow_bench_print(" calls x ");
    print_u32(BENCH_ROUNDS);
    stow_bench_print(" rounds per row\n");
#define STOW_BENCH(name) stow_bench_##name();
#include STOW_BENCH_LIST
#undef STOW_BENCH
    return 0;
}
#endif

#else /* host, under callgrind */

#include <string.h>

/* callgrind counts per function: two rows with one run function would mix. */
static void check_unique(const char *run_name)
{
    static const char *seen[128];
    static unsigned n;
    for (unsigned k = 0; k < n; k++) {
        if (strcmp(seen[k], run_name) == 0) {
            stow_bench_fail(run_name, "run function used by two rows");
        }
    }
    if (n == sizeof seen / sizeof seen[0]) {
        stow_bench_fail(run_name, "too many rows");
    }
    seen[n++] = run_name;
}

void stow_bench_measure(const char *label, stow_bench_fn prep, stow_bench_fn run,
                        const char *run_name, stow_bench_fn base, uint32_t calls,
                        uint32_t bare_calls)
{
    (void)base;
    (void)bare_calls;
    check_unique(run_name);
    for (uint32_t r = 0; r < BENCH_ROUNDS; r++) {
        if (prep != NULL) {
            prep();
        }
        run();
    }
    row_start(label);
    stow_bench_print("fn=");
    stow_bench_print(run_name);
    stow_bench_print("|calls=");
    print_u32(calls * BENCH_ROUNDS);
    stow_bench_print("\n");
}

#ifdef STOW_BENCH_EACH
/* On the host callgrind counts; the program only says which rows there are. */
uint32_t stow_bench_insns(uint32_t ticks) { return ticks; }

void stow_bench_each_add(stow_bench_each_t *s, uint32_t ticks, uint32_t empty)
{
    (void)ticks;
    (void)empty;
    s->calls++;
}

void stow_bench_each_rows(const char *label, const stow_bench_each_t *s)
{
    if (s->calls == 0u) {
        return;
    }
    static const char *const stat[2] = {"mean", "max"};
    for (unsigned k = 0; k < 2u; k++) {
        each_row_start(label, stat[k]);
        stow_bench_print("each=");
        stow_bench_print(s->key);
        stow_bench_print("|");
        stow_bench_print(stat[k]);
        stow_bench_print("|calls=");
        print_u32(s->calls);
        stow_bench_print("\n");
    }
}
#endif

int main(void)
{
#ifdef STOW_BENCH_EACH
    stow_bench_print("# " STOW_BENCH_COLUMN ": each call on its own, under callgrind, see bench/callgrind_each.sh\n");
#else
    stow_bench_print("# " STOW_BENCH_COLUMN ": run under callgrind, see bench/callgrind.sh\n");
#endif
#define STOW_BENCH(name) stow_bench_##name();
#include STOW_BENCH_LIST
#undef STOW_BENCH
    return 0;
}

#endif
