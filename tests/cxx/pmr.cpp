// SPDX-License-Identifier: MIT
// pmr.cpp - stow/pmr.hpp: std::pmr containers over an arena and a heap, and
// std containers with stow::allocator: vector, string, unordered_map, list,
// over-aligned items, a monotonic frame pattern (a frame's containers in an
// arena_scope, the arena back at its mark after each frame), and running out
// (std::bad_alloc, counted as a fail). Every byte must come from stow: the
// default resource is std::pmr::null_memory_resource() throughout, so a
// container that reached past its resource would throw (or, with exceptions
// off, stop the program). Built as a suite of its own (tests/cxx/rules.mk:
// cxx-pmr-*) on the host with g++ and clang++, and for Cortex-M4 with
// arm-none-eabi-g++ and newlib's libstdc++, run under QEMU.
#include "check.hpp"
#include "stow/pmr.hpp"

#include <list>
#include <memory_resource>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

struct alignas(64) block64 {
    uint32_t v[4];
};

template <class C> bool inside(const C &c, const void *p)
{
    const unsigned char *b = c.native().base;
    const unsigned char *q = static_cast<const unsigned char *>(p);
    return q >= b && q < c.native().limit;
}

} // namespace

STOW_CXX_DEFINE_STATIC(frame_arena, stow::arena<32768>);
STOW_CXX_DEFINE_STATIC(level_heap, stow::heap<65536>);

namespace {

TEST(pmr_vector_string_map_in_an_arena)
{
    stow::arena_scope scope(frame_arena);
    size_t mark = frame_arena.used();
    stow::arena_resource in_arena(frame_arena);
    {
        std::pmr::vector<uint32_t> v(&in_arena);
        for (uint32_t i = 0; i < 300u; i++) {
            v.push_back(i);
        }
        CXX_EQ(v[299], 299u);
        CXX_CHECK(inside(in_arena, v.data()));
        std::pmr::string s("a string long enough to leave the small-string buffer behind", &in_arena);
        s += s;
        CXX_CHECK(inside(in_arena, s.data()));
        std::pmr::unordered_map<uint32_t, std::pmr::string> names(&in_arena);
        for (uint32_t i = 0; i < 40u; i++) {
            names.emplace(i, "entity name that is long enough to allocate");
        }
        CXX_EQ(names.size(), 40u);
        CXX_CHECK(inside(in_arena, names.at(7).data())); // the strings use the map's resource
        std::pmr::vector<block64> wide(&in_arena);
        wide.resize(5);
        CXX_EQ(reinterpret_cast<uintptr_t>(wide.data()) % 64u, 0u);
        CXX_CHECK(frame_arena.used() > mark);
    }
    CXX_CHECK(frame_arena.check());
}

TEST(pmr_heap_gives_everything_back)
{
    size_t before = level_heap.stats().used;
    stow::heap_resource in_heap(level_heap);
    {
        std::pmr::unordered_map<uint32_t, std::pmr::string> names(&in_heap);
        for (uint32_t i = 0; i < 60u; i++) {
            names.emplace(i, "a name on the heap, long enough to allocate");
        }
        for (uint32_t i = 0; i < 60u; i += 2u) {
            names.erase(i);
        }
        std::pmr::vector<block64> wide(&in_heap);
        wide.resize(9);
        CXX_EQ(reinterpret_cast<uintptr_t>(wide.data()) % 64u, 0u);
        CXX_CHECK(level_heap.stats().used > before);
        CXX_CHECK(level_heap.check());
    }
    CXX_EQ(level_heap.stats().used, before);
    CXX_CHECK(level_heap.check());
}

TEST(allocator_vector_list_string)
{
    size_t before = level_heap.stats().used;
    {
        using heap_t = decltype(level_heap);
        using u32_alloc = stow::allocator<uint32_t, heap_t>;
        std::vector<uint32_t, u32_alloc> v{u32_alloc(level_heap)};
        for (uint32_t i = 0; i < 500u; i++) {
            v.push_back(i * 3u);
        }
        CXX_EQ(v[499], 1497u);
        // rebinding: the list allocates its nodes through the same heap
        std::list<uint32_t, u32_alloc> l{u32_alloc(level_heap)};
        for (uint32_t i = 0; i < 50u; i++) {
            l.push_back(i);
        }
        using text = std::basic_string<char, std::char_traits<char>, stow::allocator<char, heap_t>>;
        text t("a string that does not fit the small-string buffer", stow::allocator<char, heap_t>(level_heap));
        CXX_CHECK(level_heap.stats().used > before);
        CXX_CHECK(v.get_allocator() == u32_alloc(level_heap));
        CXX_CHECK(v.get_allocator() == l.get_allocator());
    }
    CXX_EQ(level_heap.stats().used, before);
    {
        stow::arena_scope scope(frame_arena);
        size_t mark = frame_arena.used();
        std::vector<block64, stow::allocator<block64, stow_arena_t>> w{
            stow::allocator<block64, stow_arena_t>(frame_arena.native())};
        w.resize(7);
        CXX_EQ(reinterpret_cast<uintptr_t>(w.data()) % 64u, 0u);
        CXX_CHECK(frame_arena.used() > mark);
    }
    CXX_CHECK(level_heap.check() && frame_arena.check());
}

// The monotonic frame: each frame's containers live in the frame arena, inside
// an arena_scope, and the arena is back at its mark when the frame ends.
TEST(monotonic_frames)
{
    size_t start = frame_arena.used();
    size_t peak = 0;
    for (uint32_t frame = 0; frame < 50u; frame++) {
        {
            stow::arena_scope scope(frame_arena);
            stow::arena_resource in_frame(frame_arena);
            std::pmr::vector<uint32_t> visible(&in_frame);
            std::pmr::unordered_map<uint32_t, uint32_t> hits(&in_frame);
            std::pmr::string log(&in_frame);
            for (uint32_t i = 0; i < 20u + frame; i++) {
                visible.push_back(i);
                hits[i % 7u] += i;
                log += "hit ";
            }
            CXX_EQ(visible.size(), 20u + frame);
            CXX_EQ(hits.size(), 7u);
            peak = frame_arena.used() > peak ? frame_arena.used() : peak;
        }
        CXX_EQ(frame_arena.used(), start);
    }
    CXX_CHECK(peak > start && peak < start + 8192u);
    CXX_CHECK(frame_arena.check());
}

#if STOW_HPP_EXCEPTIONS
// No room: std::bad_alloc, and the arena or heap counts a fail.
TEST(running_out_throws_bad_alloc)
{
    static stow::arena<256> small; // (in .data: 256 bytes)
    stow::arena_resource in_small(small);
    uint32_t fails = small.stats().fails;
    bool threw = false;
    try {
        std::pmr::vector<uint32_t> v(&in_small);
        for (uint32_t i = 0; i < 1000u; i++) {
            v.push_back(i);
        }
    } catch (const std::bad_alloc &) {
        threw = true;
    }
    CXX_CHECK(threw);
    CXX_EQ(small.stats().fails, fails + 1u);
    threw = false;
    try {
        std::vector<uint32_t, stow::allocator<uint32_t, stow::arena<256>>> v{
            stow::allocator<uint32_t, stow::arena<256>>(small)};
        v.reserve(1000);
    } catch (const std::bad_alloc &) {
        threw = true;
    }
    CXX_CHECK(threw);
    threw = false;
    try {
        stow::allocator<uint64_t, stow::arena<256>> a(small);
        (void)a.allocate(SIZE_MAX / 4u); // n * sizeof(T) overflows
    } catch (const std::bad_alloc &) {
        threw = true;
    }
    CXX_CHECK(threw);
    stow::heap_resource in_heap(level_heap);
    threw = false;
    try {
        (void)in_heap.allocate(1u << 20);
    } catch (const std::bad_alloc &) {
        threw = true;
    }
    CXX_CHECK(threw);
}
#endif

} // namespace

void stow_test_suite_cxx_pmr(void)
{
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
    // newlib's memcpy for ARMv7-M moves unaligned words, which the core allows
    // and the test images' start-up code makes trap (CCR.UNALIGN_TRP, for
    // stow's own code): allowed again here, as in any firmware.
    *reinterpret_cast<volatile uint32_t *>(0xE000ED14u) &= ~UINT32_C(8);
#endif
    std::pmr::memory_resource *was = std::pmr::set_default_resource(std::pmr::null_memory_resource());
    RUN(pmr_vector_string_map_in_an_arena);
    RUN(pmr_heap_gives_everything_back);
    RUN(allocator_vector_list_string);
    RUN(monotonic_frames);
#if STOW_HPP_EXCEPTIONS
    RUN(running_out_throws_bad_alloc);
#endif
    std::pmr::set_default_resource(was);
}
