// SPDX-License-Identifier: MIT
// test_cxx_items.cpp - what stow.hpp gives engines: items() with handles on
// genpool and slotmap, slotmap::handle_of, index bits of a container's own
// (IndexBits), heap::destroy_array without the count, and namespace-scope
// containers made by STOW_CXX_DEFINE (storage in .bss, registered for the
// report). Host and boards, as test_cxx.cpp.
#include "counted.hpp"

namespace {

template <class A, class B> struct same {
    static constexpr bool value = false;
};
template <class A> struct same<A, A> {
    static constexpr bool value = true;
};

struct plain {
    uint32_t a;
    uint32_t b;
};

struct particle {
    float x;
    float v;
};

// ---------------------------------------------------------------- compile-time facts

using map12 = stow::slotmap<particle, 4096, void, 12>;
using map13 = stow::slotmap<particle, 4096, void, 13>;
static_assert(!same<map12::handle_type, map13::handle_type>::value, "index bits give handle types of their own");
static_assert(map12::handle_type::index_bits == 12u && map12::index_bits == 12u, "a handle knows its split");
static_assert(stow::handle<stow::slotmap<particle, 8>>::index_bits == STOW_HANDLE_INDEX_BITS, "the default split");
static_assert(sizeof(map12::handle_type) == 4u, "32 bits, whatever the split");
static_assert(!same<stow::global<stow::slotmap<particle, 8>>::handle_type,
                    stow::slotmap<particle, 8>::handle_type>::value,
              "a global container's handles are its own");

// ---------------------------------------------------------------- globals

// Namespace-scope containers: storage in .bss.stow.cxx.<name>, the object a few
// words of data. (Trivially destructible items: a board's start-up code runs no
// C++ constructors and its image must have no .init_array.)
} // namespace

STOW_CXX_DEFINE_STATIC(items_arena, stow::arena<512>);
STOW_CXX_DEFINE_STATIC(items_map, stow::slotmap<plain, 16>);
STOW_CXX_DEFINE_STATIC(items_genpool, stow::genpool<plain, 40, void, 10>);
STOW_CXX_DEFINE_STATIC(items_pool, stow::pool<plain, 40>);
STOW_CXX_DEFINE_STATIC(items_packed, stow::packed<plain, 16>);
STOW_CXX_DEFINE_STATIC(items_heap, stow::heap<512>);
extern stow::global<stow::arena<64>> items_in_subsystem; // as a header would declare it
STOW_CXX_DEFINE_IN(cxx_tests, items_in_subsystem, stow::arena<64>);

namespace {

template <class C> bool storage_is_apart(const C &c, const void *storage)
{
    uintptr_t at = reinterpret_cast<uintptr_t>(storage);
    uintptr_t object = reinterpret_cast<uintptr_t>(&c);
    return at + C::storage_bytes <= object || at >= object + sizeof(C);
}

TEST(globals_in_bss)
{
    static_assert(sizeof(items_arena) + 256u < sizeof(stow::arena<512>) &&
                      sizeof(items_heap) + 256u < sizeof(stow::heap<512>),
                  "the storage (512 bytes) is not inside a global's object");
    CXX_CHECK(storage_is_apart(items_arena, items_arena.native().base));
    CXX_CHECK(storage_is_apart(items_map, items_map.native().items));
    CXX_CHECK(storage_is_apart(items_genpool, items_genpool.native().items));
    CXX_CHECK(storage_is_apart(items_packed, items_packed.native().items));
    CXX_EQ(reinterpret_cast<uintptr_t>(items_arena.native().base) % STOW_DEFAULT_ALIGN, 0u);

    // Ready and usable, each one.
    CXX_NOT_NULL(items_arena.make<plain>(plain{1u, 2u}));
    CXX_EQ(items_arena.capacity(), 512u);
    auto h = items_map.emplace(plain{3u, 4u});
    CXX_EQ(items_map.get(h)->b, 4u);
    auto g = items_genpool.emplace(plain{5u, 6u});
    CXX_EQ(items_genpool.get(g)->a, 5u);
    CXX_EQ(g.raw() >> 10, 1u); // its own split: the generation above 10 index bits
    plain *blocks[40];
    for (plain *&b : blocks) {
        b = items_pool.emplace(plain{7u, 8u});
        CXX_NOT_NULL(b);
        CXX_CHECK(storage_is_apart(items_pool, b));
    }
    CXX_NULL(items_pool.emplace());
    for (plain *b : blocks) {
        items_pool.destroy(b);
    }
    CXX_NOT_NULL(items_packed.emplace_back(plain{9u, 9u}));
    plain *on_heap = items_heap.make<plain>(plain{1u, 1u});
    CXX_NOT_NULL(on_heap);
    CXX_CHECK(storage_is_apart(items_heap, on_heap));
    items_heap.destroy(on_heap);
    CXX_CHECK(items_arena.check() && items_map.check() && items_genpool.check() && items_pool.check() &&
              items_packed.check() && items_heap.check());
    items_arena.reset();
    items_map.clear();
    items_genpool.clear();
    items_packed.clear();
}

#if STOW__REGISTRY
struct found {
    const char *name;
    const stow_registry_entry_t *entry;
};
bool same_text(const char *a, const char *b)
{
    while (*a != '\0' && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}
void find_entry(const stow_registry_entry_t *e, void *ctx)
{
    found *f = static_cast<found *>(ctx);
    if (same_text(e->name, f->name)) {
        f->entry = e;
    }
}

// The report lists them as it lists the C DEFINEs: name, kind, storage.
TEST(globals_registered)
{
    found f{"items_map", nullptr};
    stow_registry_each(find_entry, &f);
    CXX_NOT_NULL(f.entry);
    CXX_CHECK(f.entry->kind == &stow_registry_kind_slotmap);
    CXX_CHECK(f.entry->container == static_cast<const void *>(&items_map.native()));
    CXX_EQ(f.entry->storage, decltype(items_map)::storage_bytes);
    found a{"items_in_subsystem", nullptr};
    stow_registry_each(find_entry, &a);
    CXX_NOT_NULL(a.entry);
    CXX_CHECK(a.entry->kind == &stow_registry_kind_arena);
    CXX_CHECK(same_text(a.entry->subsystem, "cxx_tests"));
    CXX_EQ(a.entry->storage, 64u);
    found p{"items_pool", nullptr};
    stow_registry_each(find_entry, &p);
    CXX_NOT_NULL(p.entry);
    CXX_CHECK(p.entry->container == static_cast<const void *>(&items_pool.native()));
}
#endif

// ---------------------------------------------------------------- items()

TEST(slotmap_items)
{
    reset_counts();
    {
        stow::slotmap<counted, 32> m;
        stow::slotmap<counted, 32>::handle_type hs[20];
        for (int i = 0; i < 20; i++) {
            hs[i] = m.emplace(i);
        }
        CXX_CHECK(m.remove(hs[3]) && m.remove(hs[11])); // the last ones move in
        CXX_CHECK(m.mark_dead(hs[7]));                  // dead-marked items are visited
        uint32_t seen = 0;
        int sum = 0;
        for (auto [h, item] : m.items()) {
            CXX_CHECK(m.get(h) == &item);
            CXX_CHECK(h == m.handle_at(seen));
            sum += item.value();
            seen++;
        }
        CXX_EQ(seen, m.size());
        CXX_EQ(sum, 190 - 3 - 11);
        const auto &cm = m;
        seen = 0;
        for (auto [h, item] : cm.items()) {
            static_assert(same<decltype(item), const counted &>::value || same<decltype(item), const counted>::value,
                          "const items() gives const items");
            CXX_CHECK(cm.get(h) == &item);
            seen++;
        }
        CXX_EQ(seen, 18u);
        m.clear();
        for (auto [h, item] : m.items()) {
            CXX_CHECK(h && item.value() < 0); // never: the map is empty
        }
    }
    CXX_EQ(live(), 0u);
    CXX_EQ(counts.bad, 0u);
}

TEST(genpool_items)
{
    reset_counts();
    {
        stow::genpool<counted, 70> g; // three 32-slot words
        stow::genpool<counted, 70>::handle_type hs[70];
        for (int i = 0; i < 70; i++) {
            hs[i] = g.emplace(i);
        }
        for (int i = 0; i < 70; i += 3) {
            CXX_CHECK(g.remove(hs[i]));
        }
        uint32_t seen = 0;
        uint32_t last = 0;
        for (auto [h, item] : g.items()) {
            CXX_CHECK(g.get(h) == &item);
            CXX_CHECK(seen == 0u || h.index() > last); // slot order
            CXX_EQ(item.value(), static_cast<int>(h.index()));
            last = h.index();
            seen++;
        }
        CXX_EQ(seen, g.size());
        // The body may remove the item it is on.
        uint32_t removed = 0;
        for (auto [h, item] : g.items()) {
            if (item.value() % 2 == 0) {
                CXX_CHECK(g.remove(h));
                removed++;
            }
        }
        CXX_EQ(g.size(), 46u - removed);
        seen = 0;
        const auto &cg = g;
        for (auto [h, item] : cg.items()) {
            CXX_CHECK(item.value() % 2 == 1);
            CXX_CHECK(cg.get(h) == &item);
            seen++;
        }
        CXX_EQ(seen, g.size());
        CXX_CHECK(g.check());
    }
    CXX_EQ(live(), 0u);
    CXX_EQ(counts.bad, 0u);
}

// Sparse words: one live slot in each 32-slot word, and words with none.
TEST(genpool_items_sparse)
{
    stow::genpool<plain, 130> g;
    stow::genpool<plain, 130>::handle_type hs[130];
    for (uint32_t i = 0; i < 130u; i++) {
        hs[i] = g.emplace(plain{i, 0u});
    }
    for (uint32_t i = 0; i < 130u; i++) {
        if (i % 70u != 5u) {
            CXX_CHECK(g.remove(hs[i]));
        }
    }
    uint32_t seen = 0;
    for (auto [h, item] : g.items()) {
        CXX_EQ(item.a % 70u, 5u);
        CXX_CHECK(h == hs[item.a]);
        seen++;
    }
    CXX_EQ(seen, 2u); // slots 5 and 75: words 0 and 2, none in 1 and 3
}

TEST(slotmap_handle_of)
{
    stow::slotmap<plain, 8> m;
    stow::slotmap<plain, 8>::handle_type hs[4];
    for (uint32_t i = 0; i < 4u; i++) {
        hs[i] = m.emplace(plain{i, i});
    }
    CXX_CHECK(m.remove(hs[1]));
    for (uint32_t i = 0; i < m.size(); i++) {
        CXX_CHECK(m.handle_of(m.data()[i]) == m.handle_at(i));
    }
    CXX_CHECK(m.handle_of(*m.get(hs[3])) == hs[3]);
    CXX_CHECK(!m.handle_of(m.data()[3])); // beyond size(): gone, a null handle
#if STOW_CHECK_LEVEL >= 1
    plain outside{0u, 0u};
    CXX_VIOLATION_TEXT(CXX_CHECK(!m.handle_of(outside)), "stow::slotmap::handle_of: item is not an item of this map");
    const plain *inside = static_cast<const plain *>(static_cast<const void *>(&m.data()[0].b)); // in an item
    CXX_VIOLATION(CXX_CHECK(!m.handle_of(*inside)));
#endif
}

// ---------------------------------------------------------------- index bits

TEST(index_bits_of_a_container)
{
    stow::slotmap<plain, 16, void, 4> m; // 28 bits of generation
    auto h = m.emplace(plain{1u, 1u});
    CXX_EQ(h.index(), 0u);
    CXX_EQ(h.generation(), 1u);
    CXX_EQ(h.raw(), (1u << 4) | 0u);
    for (uint32_t k = 2; k <= 40u; k++) {
        CXX_CHECK(m.remove(h));
        h = m.emplace(plain{k, k});
        CXX_EQ(h.generation(), k);
        CXX_EQ(h.index(), 0u);
    }
    CXX_CHECK(m.check());
    stow::genpool<plain, 16, void, 4> g;
    auto gh = g.emplace(plain{1u, 1u});
    CXX_EQ(gh.raw(), 1u << 4);
    CXX_CHECK(g.handle_of(*g.get(gh)) == gh);
    CXX_CHECK(g.check());
}

// 28 index bits: generation 15 is the last; then 1 again, or the slot retires.
TEST(index_bits_generations_run_out)
{
    stow::genpool<plain, 4, void, 28> g;
    auto h = g.emplace();
    uint32_t index = h.index();
    while (h.generation() < 15u) {
        CXX_CHECK(g.remove(h));
        h = g.emplace();
        CXX_EQ(h.index(), index);
    }
    CXX_CHECK(g.remove(h));
    h = g.emplace();
    if (STOW_GENERATION_OVERFLOW == STOW_GEN_RETIRE) {
        CXX_EQ(g.retired(), 1u);
        CXX_NE(h.index(), index);
    } else {
        CXX_EQ(h.generation(), 1u);
    }
    CXX_CHECK(g.check());
}

#if !defined(STOW_TEST_TARGET) && STOW_HANDLE_INDEX_BITS == 16
} // namespace
// More slots than the global split allows (2^16): 17 index bits of its own.
// Host only (700 KB).
STOW_CXX_DEFINE_STATIC(wide_map, stow::slotmap<uint16_t, 70000, void, 17>);
STOW_CXX_DEFINE_STATIC(wide_genpool, stow::genpool<uint16_t, 70000, void, 17>);
namespace {

TEST(index_bits_beyond_the_global_limit)
{
    auto &m = wide_map;
    auto &g = wide_genpool;
    decltype(wide_map)::handle_type last;
    decltype(wide_genpool)::handle_type glast;
    for (uint32_t i = 0; i < 70000u; i++) {
        last = m.emplace(static_cast<uint16_t>(i));
        glast = g.emplace(static_cast<uint16_t>(i));
    }
    CXX_EQ(last.index(), 69999u);
    CXX_EQ(glast.index(), 69999u);
    CXX_EQ(*m.get(last), static_cast<uint16_t>(69999u));
    CXX_CHECK(!m.emplace());
    CXX_CHECK(m.check() && g.check());
}
#endif

// ---------------------------------------------------------------- destroy_array

struct alignas(32) wide_counted {
    counted c;
    explicit wide_counted() : c(7) {}
};

TEST(heap_destroy_array_keeps_the_count)
{
    reset_counts();
    stow::heap<1024> h;
    counted *a = h.make_array<counted>(5);
    CXX_NOT_NULL(a);
    CXX_EQ(live(), 5u);
    CXX_EQ(reinterpret_cast<uintptr_t>(a) % alignof(counted), 0u);
    h.destroy_array(a);
    CXX_EQ(live(), 0u);
    CXX_EQ(h.stats().used, 0u);

    wide_counted *w = h.make_array<wide_counted>(3);
    CXX_NOT_NULL(w);
    CXX_EQ(reinterpret_cast<uintptr_t>(w) % 32u, 0u);
    CXX_EQ(w[2].c.value(), 7);
    h.destroy_array(w);
    CXX_EQ(live(), 0u);

    counted *none = h.make_array<counted>(0); // a block with the count 0
    CXX_NOT_NULL(none);
    h.destroy_array(none);
    h.destroy_array(static_cast<counted *>(nullptr));

    // No destructor, no header: the items are the block.
    plain *p = h.make_array<plain>(4);
    CXX_NOT_NULL(p);
    CXX_EQ(h.usable_size(p) >= 4u * sizeof(plain), true);
    h.destroy_array(p);

    // The count as well, as before: it must be the one the block keeps.
    counted *b = h.make_array<counted>(2);
    h.destroy_array(b, 2u);
    CXX_EQ(live(), 0u);
    CXX_EQ(counts.bad, 0u);
    CXX_EQ(h.stats().used, 0u);
    CXX_CHECK(h.check());
#if STOW_CHECK_LEVEL >= 1
    counted *c = h.make_array<counted>(3);
    CXX_VIOLATION_TEXT(h.destroy_array(c, 4u), "stow::heap::destroy_array: n is not the count make_array made");
    CXX_EQ(live(), 3u); // nothing happened
    h.destroy_array(c);
    CXX_EQ(live(), 0u);
#endif
    CXX_EQ(h.stats().used, 0u);
}

} // namespace

void stow_test_suite_cxx_items(void)
{
    RUN(globals_in_bss);
#if STOW__REGISTRY
    RUN(globals_registered);
#endif
    RUN(slotmap_items);
    RUN(genpool_items);
    RUN(genpool_items_sparse);
    RUN(slotmap_handle_of);
    RUN(index_bits_of_a_container);
    RUN(index_bits_generations_run_out);
#if !defined(STOW_TEST_TARGET) && STOW_HANDLE_INDEX_BITS == 16
    RUN(index_bits_beyond_the_global_limit);
#endif
    RUN(heap_destroy_array_keeps_the_count);
}
