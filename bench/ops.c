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


static void row_start(const char *label)
{
    stow_bench_print("@|" STOW_BENCH_COLUMN "|");
    stow_bench_print(label);
    stow_bench_print("|");
}

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

static uint32_t calibrate(void)
{
    const uint32_t n = 2000000u;
    uint32_t t0 = stow_port_cycles();
    known_loop(n);
    uint32_t t1 = stow_port_cycles();
    return (uint32_t)(((uint64_t)2u * n * 1000u + (t1 - t0) / 2u) / (t1 - t0));
}

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
#include "benches.h"
#undef STOW_BENCH
    return 0;
}

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

int main(void)
{
    stow_bench_print("# " STOW_BENCH_COLUMN ": run under callgrind, see bench/callgrind.sh\n");
#define STOW_BENCH(name) stow_bench_##name();
#include "benches.h"
#undef STOW_BENCH
    return 0;
}

#endif
