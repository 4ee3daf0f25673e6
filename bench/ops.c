/* ops.c - instructions per stow operation on a Cortex-M core, under QEMU.
 *
 * Run with `qemu-system-arm -icount shift=0 ...` (make bench): QEMU then executes
 * exactly one guest instruction per virtual nanosecond, so the SysTick counter
 * (which stow_port_cycles() extends to 32 bits) measures instructions: one tick
 * is (1e9 / SysTick clock) of them, 40 on the MPS2 boards. The tick is calibrated
 * below against a loop of known length, so no board's clock is assumed.
 * Each module's rows come from bench/ops_<module>.c; see bench.h.
 */
#include "bench.h"

void *volatile stow_bench_sink;
volatile uint32_t stow_bench_sink_u32;
static uint32_t per_tick_x1000; /* instructions per tick, times 1000 */

void stow_bench_print(const char *text)
{
    size_t n = 0;
    while (text[n] != '\0') {
        n++;
    }
    stow_port_write(text, n);
}

static void print_hundredths(uint32_t hundredths)
{
    char digits[16];
    unsigned at = sizeof digits;
    uint32_t whole = hundredths / 100u, frac = hundredths % 100u;
    digits[--at] = (char)('0' + frac % 10u);
    digits[--at] = (char)('0' + frac / 10u);
    digits[--at] = '.';
    do {
        digits[--at] = (char)('0' + whole % 10u);
        whole /= 10u;
    } while (whole != 0u);
    stow_port_write(&digits[at], sizeof digits - at);
}

/* 2 * n instructions (subs, bne) plus a few to enter and leave. */
static __attribute__((noinline)) void known_loop(uint32_t n)
{
    __asm__ volatile("1: subs %0, %0, #1\n\tbne 1b" : "+l"(n) : : "cc");
}

static uint32_t calibrate(void)
{
    const uint32_t n = 2000000u;
    uint32_t t0 = stow_port_cycles();
    known_loop(n);
    uint32_t t1 = stow_port_cycles();
    return (uint32_t)(((uint64_t)2u * n * 1000u + (t1 - t0) / 2u) / (t1 - t0));
}

void stow_bench_row(const char *name, uint32_t op_ticks, uint32_t baseline_ticks)
{
    /* (op - baseline) instructions per call, in hundredths, rounded; + 1 return */
    int64_t diff = (int64_t)op_ticks - (int64_t)baseline_ticks;
    int64_t hundredths = (diff * per_tick_x1000 / 10 + BENCH_OPS / 2) / BENCH_OPS + 100;
    stow_bench_print("| ");
    stow_bench_print(name);
    stow_bench_print(" | ");
    print_hundredths(hundredths > 0 ? (uint32_t)hundredths : 0u);
    stow_bench_print(" |\n");
}

int main(void)
{
    per_tick_x1000 = calibrate();
    char level[2] = {(char)('0' + STOW_CHECK_LEVEL), '\0'};
    stow_bench_print("\n### " STOW_BENCH_BOARD ", -O2, check level ");
    stow_bench_print(level);
    stow_bench_print(": instructions per call (one tick = ");
    print_hundredths(per_tick_x1000 / 10u);
    stow_bench_print(" instructions)\n\n| operation | instructions |\n|---|---:|\n");
#define STOW_BENCH(name) stow_bench_##name();
#include "benches.h"
#undef STOW_BENCH
    return 0;
}
