// SPDX-License-Identifier: MIT
// cxx_walk.cpp - instructions per item of a walk over every item of a slot map
// and of a genpool: the C walks (bench/cxx_walk.c) against the C++ ones, the
// range-for and items() with handles. The driver fills the containers (a slot
// map of 1024 items; a genpool full, and with every other slot live), then runs
// each walk: on the host under callgrind (a dump per row; bench/cxx_walk.sh
// divides the row's walk function's inclusive instructions by the items it
// visited), on Cortex-M under
// QEMU -icount shift=0, where SysTick (stow_port_cycles) counts instructions,
// calibrated against a loop of known length. Prints "@|walk|items|ticks" lines
// (target: instructions per item, in hundredths).
#include "stow/stow.hpp"

#include "cxx_walk.h"

/* The host: each row's instructions in a callgrind dump of their own. */
#if !defined(STOW_BENCH_TARGET) && defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define WALK_ROW_START() CALLGRIND_ZERO_STATS
#define WALK_ROW_END(name) CALLGRIND_DUMP_STATS_AT(name)
#endif
#endif
#ifndef WALK_ROW_START
#define WALK_ROW_START()
#define WALK_ROW_END(name)
#endif

#define NOIPA __attribute__((noipa))

using slotmap_base = stow::slotmap<walk_item, WALK_CAPACITY>;
using genpool_base = stow::genpool<walk_item, WALK_CAPACITY>;
using slotmap_t = stow::global<slotmap_base>; // what STOW_CXX_DEFINE makes of them
using genpool_t = stow::global<genpool_base>;

extern "C" {

NOIPA uint32_t cxx_slotmap_range_for(const slotmap_t &m)
{
    uint32_t sum = 0u;
    for (const walk_item &e : m) {
        sum += e.target;
    }
    return sum;
}

NOIPA uint32_t cxx_slotmap_items(const slotmap_t &m)
{
    uint32_t sum = 0u;
    for (auto [h, e] : m.items()) {
        sum += e.target + h.raw();
    }
    return sum;
}

NOIPA uint32_t cxx_genpool_range_for(const genpool_t &g)
{
    uint32_t sum = 0u;
    for (const walk_item &e : g) {
        sum += e.target;
    }
    return sum;
}

NOIPA uint32_t cxx_genpool_items(const genpool_t &g)
{
    uint32_t sum = 0u;
    for (auto [h, e] : g.items()) {
        sum += e.target + h.raw();
    }
    return sum;
}
}

namespace {

STOW_CXX_DEFINE_STATIC(walk_map, slotmap_base);
STOW_CXX_DEFINE_STATIC(walk_pool, genpool_base);
genpool_t::handle_type pool_handles[WALK_CAPACITY];
slotmap_t::handle_type map_handles[WALK_CAPACITY];
volatile uint32_t sink;

void print(const char *text)
{
    size_t n = 0;
    while (text[n] != '\0') {
        n++;
    }
    stow_port_write(text, n);
}

void print_u32(uint32_t v)
{
    char digits[12];
    unsigned at = sizeof digits;
    do {
        digits[--at] = static_cast<char>('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    stow_port_write(digits + at, sizeof digits - at);
}

#if defined(STOW_BENCH_TARGET)
// 2 * n instructions (subs, bne), plus a few to enter and leave.
NOIPA void known_loop(uint32_t n)
{
    __asm__ volatile(".syntax unified\n1:\tsubs %0, %0, #1\n\tbne 1b" : "+l"(n) : : "cc");
}
uint32_t per_tick_x1000;
#endif

constexpr uint32_t rounds = 10u;

// One row: the walk over the container, `rounds` times; the items it visits.
template <class F> void row(const char *name, F walk, uint32_t items)
{
    uint32_t sum = 0u;
#if defined(STOW_BENCH_TARGET)
    uint32_t t0 = stow_port_cycles();
#endif
    WALK_ROW_START();
    for (uint32_t r = 0; r < rounds; r++) {
        sum += walk();
    }
    WALK_ROW_END(name);
#if defined(STOW_BENCH_TARGET)
    uint32_t ticks = stow_port_cycles() - t0;
    uint64_t hundredths = (static_cast<uint64_t>(ticks) * per_tick_x1000 / 10u) / (static_cast<uint64_t>(items) * rounds);
#endif
    sink = sum;
    print("@|");
    print(name);
    print("|");
    print_u32(items * rounds);
    print("|");
#if defined(STOW_BENCH_TARGET)
    print_u32(static_cast<uint32_t>(hundredths));
#else
    print("callgrind");
#endif
    print("\n");
}

void walks(const char *shape)
{
    uint32_t n = walk_pool.size();
    print("# genpool ");
    print(shape);
    print("\n");
    const stow_genpool_t *g = &walk_pool.native();
    row("c_genpool_foreach", [g] { return c_genpool_foreach(g); }, n);
    row("c_genpool_foreach_handles", [g] { return c_genpool_foreach_handles(g); }, n);
    row("c_genpool_first_next", [g] { return c_genpool_first_next(g); }, n);
    row("cxx_genpool_range_for", [] { return cxx_genpool_range_for(walk_pool); }, n);
    row("cxx_genpool_items", [] { return cxx_genpool_items(walk_pool); }, n);
}

} // namespace

int main()
{
#if defined(STOW_BENCH_TARGET)
    uint32_t t0 = stow_port_cycles();
    known_loop(2000000u);
    uint32_t t1 = stow_port_cycles();
    per_tick_x1000 = static_cast<uint32_t>((UINT64_C(2) * 2000000u * 1000u + (t1 - t0) / 2u) / (t1 - t0));
#endif
    for (uint32_t i = 0; i < WALK_CAPACITY; i++) {
        map_handles[i] = walk_map.emplace(walk_item{1, i});
        pool_handles[i] = walk_pool.emplace(walk_item{1, i});
    }
    // The slot map after removals: the packed order is not the handle order.
    for (uint32_t i = 0; i < WALK_CAPACITY; i += 3u) {
        (void)walk_map.remove(map_handles[i]);
    }
    uint32_t n = walk_map.size();
    print("# slotmap\n");
    const stow_slotmap_t *m = &walk_map.native();
    row("c_slotmap_walk", [m] { return c_slotmap_walk(m); }, n);
    row("c_slotmap_walk_handles", [m] { return c_slotmap_walk_handles(m); }, n);
    row("cxx_slotmap_range_for", [] { return cxx_slotmap_range_for(walk_map); }, n);
    row("cxx_slotmap_items", [] { return cxx_slotmap_items(walk_map); }, n);
    walks("full");
    for (uint32_t i = 1; i < WALK_CAPACITY; i += 2u) {
        (void)walk_pool.remove(pool_handles[i]);
    }
    walks("every other slot live");
    return 0;
}
