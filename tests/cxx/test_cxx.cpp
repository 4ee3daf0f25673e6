// SPDX-License-Identifier: MIT
// test_cxx.cpp - the C++ layer (stow/stow.hpp): handles, construction and
// destruction counted through every way an item ends, iteration, the arena's
// scopes and typed allocation, the heap's typed helpers, containers as members
// and as constant-initialised globals. The same source runs on the host (g++
// and clang++, C++17 and C++20, sanitizers) and under QEMU on Cortex-M0 and M4,
// whose start-up code runs no C++ constructors: a global that needed one would
// be found empty there.
#include "counted.hpp"

#if __cplusplus >= 202002L
#define CXX_CONSTINIT constinit
#else
#define CXX_CONSTINIT
#endif

namespace {

// Points into itself: moving it by its bytes breaks it (not relocatable).
class selfref {
  public:
    explicit selfref(int v) noexcept : self_(this), value_(v) { counts.constructed++; }
    selfref(selfref &&o) noexcept : self_(this), value_(o.value())
    {
        counts.constructed++;
        counts.moves++;
    }
    selfref(const selfref &o) noexcept : self_(this), value_(o.value())
    {
        counts.constructed++;
        counts.copies++;
    }
    selfref &operator=(const selfref &) = delete;
    ~selfref()
    {
        if (self_ != this) {
            counts.bad++;
        }
        self_ = nullptr;
        counts.destroyed++;
    }
    int value() const noexcept
    {
        if (self_ != this) {
            counts.bad++;
        }
        return value_;
    }

  private:
    selfref *self_;
    int value_;
};

// Default member initialisers, which the C calls (zeroed memory) would lose.
struct defaults {
    int hp = 100;
    uint32_t flags = 0x5u;
    float speed = 2.5f;
};

struct alignas(32) wide {
    uint32_t w[3];
};

struct plain {
    uint32_t a;
    uint32_t b;
};

template <class A, class B> struct same {
    static constexpr bool value = false;
};
template <class A> struct same<A, A> {
    static constexpr bool value = true;
};

} // namespace

// A C arena, for arena_scope. (At global scope: inside an anonymous namespace,
// clang -Wall calls the DEFINE's first declaration an unused variable.) The C
// macros' private names have a double underscore, which clang -Weverything
// reports in C++; they are not the C++ layer's.
#if defined(__clang__)
#pragma clang diagnostic push
#if __has_warning("-Wreserved-identifier")
#pragma clang diagnostic ignored "-Wreserved-identifier"
#endif
#pragma clang diagnostic ignored "-Wused-but-marked-unused"
#endif
STOW_ARENA_DEFINE_STATIC(c_arena, 128);
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

namespace {

// ---------------------------------------------------------------- compile-time facts

using plain_map = stow::slotmap<plain, 8>;
struct tag_a;
struct tag_b;
static_assert(sizeof(stow::handle<plain_map>) == 4, "a handle is 32 bits");
static_assert(__is_trivially_copyable(stow::handle<plain_map>), "a handle is a plain value");
static_assert(!same<stow::handle<stow::slotmap<plain, 8, tag_a>>, stow::handle<stow::slotmap<plain, 8, tag_b>>>::value,
              "tags give handle types of their own");
static_assert(!same<stow::genpool<plain, 8>::handle_type, stow::slotmap<plain, 8>::handle_type>::value,
              "a genpool's handles are not a slot map's");
static_assert(stow::relocatable<plain>::value && stow::relocatable<counted>::value &&
                  !stow::relocatable<selfref>::value,
              "relocatable: trivially copyable, or declared");
#if !STOW_HPP_ASAN
// A container of a trivially destructible T registers no destructor.
using plain_genpool = stow::genpool<plain, 8>;
using plain_pool = stow::pool<plain, 8>;
using plain_packed = stow::packed<plain, 8>;
using arena64 = stow::arena<64>;
using heap1k = stow::heap<1024>;
static_assert(STOW_HPP_TRIVIAL_DTOR(plain_map) && STOW_HPP_TRIVIAL_DTOR(plain_genpool) &&
                  STOW_HPP_TRIVIAL_DTOR(plain_pool) && STOW_HPP_TRIVIAL_DTOR(plain_packed) &&
                  STOW_HPP_TRIVIAL_DTOR(arena64) && STOW_HPP_TRIVIAL_DTOR(heap1k),
              "trivially destructible items, trivially destructible container");
#endif
using counted_map = stow::slotmap<counted, 8>;
static_assert(!STOW_HPP_TRIVIAL_DTOR(counted_map), "items with destructors are destroyed");

// ---------------------------------------------------------------- globals

// An entity that keeps handles of other entities of its own container type.
struct entity;
using entity_map = stow::slotmap<entity, 16>;
struct entity {
    int32_t x = 0;
    int32_t vx = 1;
    stow::handle<entity_map> target;
};

// Constant-initialised (constinit proves it in C++20). On the boards, whose
// start-up code runs no C++ constructor, a dynamically initialised global would
// still be all zero bytes when the suite runs.
CXX_CONSTINIT entity_map g_entities;
CXX_CONSTINIT stow::pool<plain, 8> g_pool;
CXX_CONSTINIT stow::genpool<plain, 8> g_genpool;
CXX_CONSTINIT stow::packed<plain, 8> g_packed;
CXX_CONSTINIT stow::arena<256> g_arena;
CXX_CONSTINIT stow::heap<1024> g_heap;

// Several containers as members of one object, and two such objects.
struct world {
    stow::slotmap<plain, 8> units;
    stow::genpool<plain, 4> shots;
    stow::pool<plain, 4> events;
    stow::packed<plain, 4> sounds;
    stow::arena<128> scratch;
    stow::heap<512> text;
};
CXX_CONSTINIT world g_world;

// ---------------------------------------------------------------- handles

TEST(handle_values)
{
    using h = plain_map::handle_type;
    h null_handle;
    CXX_CHECK(!null_handle);
    CXX_CHECK(null_handle == h::null());
    CXX_EQ(null_handle.raw(), 0u);
    CXX_EQ(null_handle.untyped().bits, 0u);

    h a = h::from_raw((2u << STOW_HANDLE_INDEX_BITS) | 3u);
    h b = h::from_raw((1u << STOW_HANDLE_INDEX_BITS) | 5u);
    CXX_CHECK(a);
    CXX_EQ(a.index(), 3u);
    CXX_EQ(a.generation(), 2u);
    CXX_CHECK(a != b && !(a == b));
    CXX_CHECK(b < a && b <= a && a > b && a >= b && a >= a && a <= a);
    CXX_CHECK(h::from_raw(a.raw()) == a);
    CXX_EQ(stow::handle_hash()(a), a.raw());
#ifdef STOW_HPP_STD_HASH
    CXX_EQ(std::hash<h>()(a), stow::handle_hash()(a));
#endif
    // Generation 0 is null whatever the index.
    CXX_CHECK(!h::from_raw(7u));
}

TEST(handle_from_insert)
{
    plain_map m;
    plain item{1u, 2u};
    plain_map::handle_type h = m.insert(item);
    CXX_CHECK(h);
    CXX_EQ(h.raw(), m.handle_at(0u).raw());
    CXX_CHECK(m.contains(h));
    CXX_CHECK(m.remove(h));
    CXX_CHECK(!m.contains(h));
    CXX_NULL(m.get(h));
    CXX_NULL(m.get(plain_map::handle_type()));
    CXX_CHECK(!m.remove(h));
    CXX_CHECK(m.check());
}

// ---------------------------------------------------------------- slotmap

TEST(slotmap_construct_destroy)
{
    reset_counts();
    {
        stow::slotmap<counted, 8> m;
        stow::slotmap<counted, 8>::handle_type h[8];
        for (int i = 0; i < 8; i++) {
            h[i] = m.emplace(i * 10);
            CXX_CHECK(h[i]);
        }
        CXX_EQ(live(), 8u);
        CXX_CHECK(!m.emplace(99)); // full: no construction
        CXX_EQ(counts.constructed, 8u);
        CXX_EQ(m.stats().fails, 1u);

        CXX_CHECK(m.remove(h[2])); // the last item moves into its place
        CXX_EQ(live(), 7u);
        CXX_EQ(counts.destroyed, 1u);
        CXX_NULL(m.get(h[2]));
        CXX_EQ(m.get(h[7])->value(), 70);
        CXX_EQ(m.data()[2].value(), 70);
        CXX_CHECK(!m.remove(h[2])); // stale: nothing destroyed
        CXX_EQ(counts.destroyed, 1u);

        counted c(5);
        CXX_CHECK(m.insert(c)); // not trivially copyable: copy-constructed
        CXX_EQ(counts.copies, 1u);
        CXX_EQ(m.size(), 8u);

        m.clear();
        CXX_EQ(m.size(), 0u);
        CXX_EQ(live(), 1u); // c
        for (int i = 0; i < 8; i++) {
            CXX_NULL(m.get(h[i]));
        }
        CXX_CHECK(m.emplace(1, 2));
        CXX_CHECK(m.emplace(3));
        CXX_EQ(m.data()[0].value(), 3);
        CXX_EQ(live(), 3u);
        CXX_CHECK(m.check());
    } // the map's destructor: its two items
    CXX_EQ(live(), 0u);
    CXX_EQ(counts.bad, 0u);
}

TEST(slotmap_mark_dead_refresh)
{
    reset_counts();
    {
        stow::slotmap<counted, 8> m;
        stow::slotmap<counted, 8>::handle_type h[6];
        for (int i = 0; i < 6; i++) {
            h[i] = m.emplace(i);
        }
        CXX_CHECK(m.mark_dead(h[1]));
        CXX_CHECK(m.mark_dead(h[4]));
        CXX_CHECK(m.mark_dead(h[4])); // twice is once
        CXX_CHECK(m.is_dead(h[1]) && !m.is_dead(h[0]));
        CXX_EQ(m.dead_count(), 2u);
        CXX_EQ(live(), 6u); // still there, still readable
        CXX_EQ(m.get(h[4])->value(), 4);

        int seen = 0;
        int sum = 0;
        uint32_t live_in_callback = 0;
        uint32_t n = m.refresh([&](counted &dying) {
            seen++;
            sum += dying.value(); // intact while the callback runs
            live_in_callback = live();
        });
        CXX_EQ(n, 2u);
        CXX_EQ(seen, 2);
        CXX_EQ(sum, 5);
        CXX_EQ(live_in_callback, 5u); // the first one's destructor ran before the second callback
        CXX_EQ(live(), 4u);
        CXX_NULL(m.get(h[1]));
        CXX_NULL(m.get(h[4]));
        // Survivors keep their order and their handles.
        int expect[4] = {0, 2, 3, 5};
        uint32_t i = 0;
        for (counted &c : m) {
            CXX_EQ(c.value(), expect[i]);
            CXX_CHECK(m.get(m.handle_at(i)) == &c);
            i++;
        }
        CXX_EQ(i, 4u);
        CXX_EQ(m.get(h[5])->value(), 5);

        // refresh() without a callable destroys too; a function object works as well.
        CXX_CHECK(m.mark_dead(h[0]));
        CXX_EQ(m.refresh(), 1u);
        CXX_EQ(live(), 3u);
        struct counter {
            int *n;
            void operator()(counted &) const { (*n)++; }
        };
        int calls = 0;
        const counter f{&calls};
        CXX_CHECK(m.mark_dead(h[3]));
        CXX_EQ(m.refresh(f), 1u);
        CXX_EQ(calls, 1);
        CXX_EQ(m.refresh(f), 0u); // nothing marked: O(1), no call
        CXX_EQ(calls, 1);
        CXX_EQ(live(), 2u);
        CXX_CHECK(m.check());
        // Marked dead and never refreshed: the destructor of the map takes it.
        CXX_CHECK(m.mark_dead(h[2]));
    }
    CXX_EQ(live(), 0u);
    CXX_EQ(counts.bad, 0u);
}

TEST(slotmap_not_relocatable)
{
    reset_counts();
    {
        stow::slotmap<selfref, 8> m;
        stow::slotmap<selfref, 8>::handle_type h[5];
        for (int i = 0; i < 5; i++) {
            h[i] = m.emplace(i);
        }
        CXX_CHECK(m.remove(h[1])); // the last one is moved through a temporary: two moves
        CXX_EQ(counts.moves, 2u);
        CXX_CHECK(m.remove(h[4])); // now the last: nothing moves
        CXX_CHECK(m.remove(h[0]));
        CXX_EQ(live(), 2u);
        int sum = 0;
        for (selfref &s : m) {
            sum += s.value();
        }
        CXX_EQ(sum, 5);
        CXX_EQ(m.get(h[2])->value(), 2);
        CXX_EQ(m.get(h[3])->value(), 3);
        CXX_CHECK(m.check());
    }
    CXX_EQ(live(), 0u);
    CXX_EQ(counts.bad, 0u);
}

TEST(slotmap_entities_hold_handles)
{
    entity_map &m = g_entities;
    CXX_EQ(m.size(), 0u); // constant-initialised: ready before main
    entity_map::handle_type a = m.emplace();
    entity_map::handle_type b = m.emplace();
    entity_map::handle_type c = m.emplace();
    CXX_EQ(m.get(a)->vx, 1); // default member initialisers, not zeroes
    m.get(b)->target = a;
    m.get(c)->target = a;
    for (entity &e : m) {
        e.x += e.vx;
    }
    CXX_EQ(m.get(c)->x, 1);
    CXX_CHECK(m.mark_dead(a));
    CXX_EQ(m.refresh(), 1u);
    CXX_NULL(m.get(m.get(b)->target)); // the target is gone: its handle is stale
    entity_map::handle_type d = m.emplace(); // may reuse a's slot, with a new generation
    CXX_CHECK(d != a);
    CXX_NULL(m.get(m.get(c)->target));
    m.clear();
    CXX_CHECK(m.check());
}

TEST(slotmap_defaults_and_alignment)
{
    stow::slotmap<defaults, 4> m;
    stow::slotmap<defaults, 4>::handle_type h = m.emplace();
    CXX_EQ(m.get(h)->hp, 100);
    CXX_EQ(m.get(h)->flags, 5u);
    CXX_CHECK(m.get(h)->speed == 2.5f);

    stow::slotmap<wide, 4> w;
    for (int i = 0; i < 4; i++) {
        CXX_CHECK(w.emplace());
    }
    for (wide &x : w) {
        CXX_EQ(cxx_test::u(&x) % 32u, 0u);
    }
}

// ---------------------------------------------------------------- genpool

TEST(genpool_construct_destroy)
{
    reset_counts();
    {
        using pool_t = stow::genpool<counted, 8>;
        pool_t g;
        pool_t::handle_type h[8];
        for (int i = 0; i < 8; i++) {
            h[i] = g.emplace(i);
        }
        CXX_CHECK(!g.emplace(8));
        CXX_EQ(live(), 8u);
        counted *third = g.get(h[3]);
        CXX_CHECK(g.remove(h[2]));
        CXX_EQ(live(), 7u);
        CXX_CHECK(g.get(h[3]) == third); // items never move
        CXX_CHECK(!g.remove(h[2]));
        CXX_EQ(live(), 7u);
        CXX_CHECK(g.handle_of(*third) == h[3]);

        // Range-for visits each live item once, and removing the current one is fine.
        int sum = 0;
        for (counted &c : g) {
            sum += c.value();
            if (c.value() % 2 == 1) {
                CXX_CHECK(g.remove(g.handle_of(c)));
            }
        }
        CXX_EQ(sum, 0 + 1 + 3 + 4 + 5 + 6 + 7);
        CXX_EQ(g.size(), 3u);
        CXX_EQ(live(), 3u);

        counted c(40);
        pool_t::handle_type copy = g.insert(c);
        CXX_EQ(counts.copies, 1u);
        CXX_EQ(g.get(copy)->value(), 40);
        g.clear();
        CXX_EQ(live(), 1u);
        CXX_NULL(g.get(copy));
        CXX_CHECK(g.emplace(1));
        CXX_CHECK(g.emplace(2));
        const pool_t &cg = g;
        int n = 0;
        for (const counted &x : cg) {
            n += x.value();
        }
        CXX_EQ(n, 3);
        CXX_CHECK(g.check());
    }
    CXX_EQ(live(), 0u);
    CXX_EQ(counts.bad, 0u);
}

TEST(genpool_self_pointers)
{
    reset_counts();
    {
        stow::genpool<selfref, 4> g;
        stow::genpool<selfref, 4>::handle_type h[4];
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 4; i++) {
                h[i] = g.emplace(i);
            }
            CXX_CHECK(g.remove(h[1]));
            CXX_CHECK(g.remove(h[0]));
            CXX_EQ(g.get(h[3])->value(), 3);
            g.clear();
        }
        CXX_CHECK(g.emplace(7));
        CXX_EQ(counts.moves + counts.copies, 0u);
    }
    CXX_EQ(live(), 0u);
    CXX_EQ(counts.bad, 0u);
}

TEST(genpool_trivial)
{
    stow::genpool<plain, 8> &g = g_genpool;
    CXX_EQ(g.size(), 0u);
    stow::genpool<plain, 8>::handle_type h = g.insert(plain{3u, 4u}); // the C insert
    CXX_EQ(g.get(h)->b, 4u);
    CXX_CHECK(g.remove(h));
    CXX_CHECK(!g.contains(h));
    CXX_EQ(g.capacity(), 8u);
    CXX_CHECK(g.check());
}

// ---------------------------------------------------------------- pool

TEST(pool_construct_destroy)
{
    reset_counts();
    {
        stow::pool<counted, 4> p;
        counted *c[4];
        for (int i = 0; i < 4; i++) {
            c[i] = p.emplace(i + 1);
            CXX_NOT_NULL(c[i]);
            CXX_CHECK(p.contains(c[i]));
        }
        CXX_NULL(p.emplace(5));
        CXX_EQ(p.stats().fails, 1u);
        CXX_EQ(live(), 4u);
        p.destroy(c[1]);
        CXX_CHECK(!p.contains(c[1]));
        p.destroy(nullptr);
        CXX_EQ(live(), 3u);
        int sum = 0;
        for (counted &x : p) {
            sum += x.value();
            if (x.value() == 3) {
                p.destroy(&x); // the current item: fine
            }
        }
        CXX_EQ(sum, 1 + 3 + 4);
        CXX_EQ(p.size(), 2u);
        CXX_EQ(live(), 2u);
        p.clear();
        CXX_EQ(live(), 0u);
        CXX_EQ(p.size(), 0u);
        CXX_CHECK(p.begin() == p.end());
        for (int i = 0; i < 3; i++) {
            CXX_NOT_NULL(p.emplace(i));
        }
        CXX_CHECK(p.check());
    }
    CXX_EQ(live(), 0u);
    CXX_EQ(counts.bad, 0u);
}

TEST(pool_many_words)
{
    // More than 32 blocks: the live bits span words.
    stow::pool<plain, 70> p;
    plain *b[70];
    for (uint32_t i = 0; i < 70; i++) {
        b[i] = p.emplace(plain{i, 0u});
    }
    for (uint32_t i = 0; i < 70; i += 3) {
        p.destroy(b[i]);
    }
    uint32_t n = 0;
    uint32_t sum = 0;
    for (const plain &x : p) {
        n++;
        sum += x.a;
    }
    CXX_EQ(n, 46u);
    CXX_EQ(sum, 2415u - 828u); // 0 + ... + 69, less every third from 0
    CXX_EQ(p.size(), 46u);
    CXX_CHECK(p.check());
}

#if STOW_CHECK_LEVEL >= 1
TEST(pool_destroy_violations)
{
    reset_counts();
    {
        stow::pool<counted, 4> p;
        stow::pool<counted, 4> other;
        counted *a = p.emplace(1);
        counted *b = other.emplace(2);
        CXX_VIOLATION_TEXT(p.destroy(b), "stow::pool::destroy: pointer is not a live block of this pool");
        p.destroy(a);
        CXX_VIOLATION(p.destroy(a)); // twice: the destructor does not run again
        unsigned char *inside = reinterpret_cast<unsigned char *>(b) + 1;
        CXX_VIOLATION(other.destroy(static_cast<counted *>(static_cast<void *>(inside))));
        CXX_EQ(live(), 1u);
        CXX_CHECK(other.contains(b));
    }
    CXX_EQ(live(), 0u);
    CXX_EQ(counts.bad, 0u);
}
#endif

// ---------------------------------------------------------------- packed

TEST(packed_construct_destroy)
{
    reset_counts();
    {
        stow::packed<counted, 6> a;
        for (int i = 0; i < 6; i++) {
            CXX_NOT_NULL(a.emplace_back(i));
        }
        CXX_NULL(a.emplace_back(6));
        CXX_EQ(live(), 6u);
        a.remove_at(1); // the last moves in, by its bytes (counted is relocatable)
        CXX_EQ(live(), 5u);
        CXX_EQ(a[1].value(), 5);
        CXX_EQ(counts.moves, 0u);
        counted c(9);
        CXX_NOT_NULL(a.push_back(c));
        CXX_EQ(a.size(), 6u);
        int sum = 0;
        for (const counted &x : a) {
            sum += x.value();
        }
        CXX_EQ(sum, 0 + 5 + 2 + 3 + 4 + 9);
        CXX_EQ(a.data()[5].value(), 9);
        CXX_NOT_NULL(a.at(5));
        a.clear();
        CXX_EQ(live(), 1u);
        CXX_NOT_NULL(a.emplace_back(1));
        CXX_CHECK(a.check());
    }
    CXX_EQ(live(), 0u);
    CXX_EQ(counts.bad, 0u);

    {
        stow::packed<selfref, 4> s;
        for (int i = 0; i < 4; i++) {
            CXX_NOT_NULL(s.emplace_back(i));
        }
        s.remove_at(0); // moved with its move constructor
        CXX_EQ(counts.moves, 1u);
        s.remove_at(2); // the last
        CXX_EQ(s.size(), 2u);
        CXX_EQ(s[0].value() + s[1].value(), 3 + 1);
#if STOW_CHECK_LEVEL >= 1
        CXX_VIOLATION_TEXT(s.remove_at(2), "stow::packed::remove_at: index is not below the count");
        CXX_EQ(s.size(), 2u);
#endif
    }
    CXX_EQ(live(), 0u);
    CXX_EQ(counts.bad, 0u);
}

// ---------------------------------------------------------------- arena

TEST(arena_make)
{
    stow::arena<256> a;
    defaults *d = a.make<defaults>();
    CXX_NOT_NULL(d);
    CXX_EQ(d->hp, 100);
    plain *p = a.make<plain>(plain{7u, 8u});
    CXX_EQ(p->b, 8u);
    wide *w = a.make<wide>();
    CXX_EQ(cxx_test::u(w) % 32u, 0u);

    defaults *many = a.make_array<defaults>(4); // constructed: default member initialisers
    CXX_EQ(many[3].hp, 100);
    uint32_t *zeros = a.make_array<uint32_t>(8); // zeroed
    uint32_t total = 0;
    for (uint32_t i = 0; i < 8; i++) {
        total += zeros[i];
    }
    CXX_EQ(total, 0u);
    CXX_NOT_NULL(a.make_array<uint32_t>(0)); // a unique pointer

    uint32_t fails = a.stats().fails;
    CXX_NULL(a.make_array<uint32_t>(SIZE_MAX / 2u)); // n * sizeof(T) overflows
    CXX_EQ(a.stats().fails, fails + 1u);
    CXX_NULL(a.make_array<uint32_t>(1000)); // no room
    CXX_EQ(a.stats().fails, fails + 2u);
    CXX_CHECK(a.check());
}

TEST(arena_scopes)
{
    stow::arena<256> &a = g_arena;
    CXX_EQ(a.capacity(), 256u);
    a.reset();
    (void)a.make<plain>();
    size_t before = a.used();
    {
        stow::arena_scope outer(a);
        CXX_NOT_NULL(outer.make<plain>());
        size_t mid = a.used();
        CXX_CHECK(mid > before);
        {
            stow::arena_scope inner(a);
            CXX_NOT_NULL(inner.make_array<plain>(8));
            CXX_NOT_NULL(a.make<wide>()); // through the arena: given back all the same
            CXX_CHECK(a.used() > mid);
        }
        CXX_EQ(a.used(), mid);
    }
    CXX_EQ(a.used(), before);

    // A C arena (STOW_ARENA_DEFINE) with a scope.
    size_t c_before = stow_arena_used(&c_arena);
    {
        stow::arena_scope s(c_arena);
        CXX_NOT_NULL(s.make<defaults>());
        CXX_NOT_NULL(s.alloc(10, 1));
        CXX_CHECK(stow_arena_used(&c_arena) > c_before);
    }
    CXX_EQ(stow_arena_used(&c_arena), c_before);

    // A chain of two C++ arenas.
    stow::arena<64> head;
    stow::arena<128> tail;
    head.chain(tail);
    CXX_EQ(head.capacity(), 192u);
    CXX_NOT_NULL(head.make_array<uint8_t>(100)); // only the second block has room
    CXX_CHECK(head.check());
}

// ---------------------------------------------------------------- heap

TEST(heap_make_destroy)
{
    reset_counts();
    stow::heap<2048> h;
    counted *a = h.make<counted>(3);
    counted *b = h.make<counted>(4, 5);
    CXX_NOT_NULL(a);
    CXX_NOT_NULL(b);
    CXX_EQ(live(), 2u);
    CXX_EQ(b->value(), 9);
    h.destroy(a);
    h.destroy<counted>(nullptr);
    CXX_EQ(live(), 1u);

    counted *arr = h.make_array<counted>(5);
    CXX_NOT_NULL(arr);
    CXX_EQ(live(), 6u);
    h.destroy_array(arr, 5);
    CXX_EQ(live(), 1u);
    h.destroy(b);
    counted *moved = h.make<counted>(counted(6)); // constructed from a temporary: moved
    CXX_EQ(counts.moves, 1u);
    CXX_EQ(moved->value(), 6);
    h.destroy(moved);
    CXX_EQ(live(), 0u);
    CXX_EQ(counts.bad, 0u);

    struct alignas(64) big {
        uint32_t v[4];
    };
    big *x = h.make<big>();
    CXX_NOT_NULL(x);
    CXX_EQ(cxx_test::u(x) % 64u, 0u);
    h.destroy(x);

    uint32_t fails = h.stats().fails;
    CXX_NULL(h.make_array<uint32_t>(SIZE_MAX / 2u));
    CXX_EQ(h.stats().fails, fails + 1u);
    CXX_NULL(h.make_array<uint32_t>(100000));

    char *text = static_cast<char *>(h.alloc(8));
    CXX_NOT_NULL(text);
    text = static_cast<char *>(h.realloc(text, 100));
    CXX_NOT_NULL(text);
    CXX_CHECK(h.usable_size(text) >= 100u);
    h.free(text);
    CXX_EQ(h.stats().used, 0u);
    CXX_CHECK(h.check());

    stow::heap<1024> &gh = g_heap;
    plain *p = gh.make<plain>(plain{1u, 2u});
    CXX_EQ(p->a + p->b, 3u);
    gh.destroy(p);
    CXX_CHECK(gh.check());
}

// ---------------------------------------------------------------- members, globals

TEST(worlds)
{
    world w1;
    world &w2 = g_world;
    world *both[2] = {&w1, &w2};
    for (world *w : both) {
        CXX_CHECK(w->units.insert(plain{1u, 2u}));
        CXX_CHECK(w->shots.insert(plain{3u, 4u}));
        CXX_NOT_NULL(w->events.emplace(plain{5u, 6u}));
        CXX_NOT_NULL(w->sounds.emplace_back(plain{7u, 8u}));
        CXX_NOT_NULL(w->scratch.make<plain>());
        CXX_NOT_NULL(w->text.make<plain>());
    }
    CXX_CHECK(w1.units.insert(plain{9u, 9u}));
    CXX_EQ(w1.units.size(), 2u);
    CXX_EQ(w2.units.size(), 1u); // storage of its own
    CXX_CHECK(w1.units.data() != w2.units.data());
    CXX_CHECK(w1.units.check() && w2.units.check() && w1.shots.check() && w2.shots.check());

    // The other constant-initialised globals were ready too.
    CXX_EQ(g_pool.size(), 0u);
    CXX_NOT_NULL(g_pool.emplace(plain{1u, 1u}));
    CXX_EQ(g_packed.size(), 0u);
    CXX_NOT_NULL(g_packed.emplace_back());
    CXX_CHECK(g_pool.check() && g_packed.check());
}

} // namespace

void stow_test_suite_cxx(void)
{
    RUN(handle_values);
    RUN(handle_from_insert);
    RUN(slotmap_construct_destroy);
    RUN(slotmap_mark_dead_refresh);
    RUN(slotmap_not_relocatable);
    RUN(slotmap_entities_hold_handles);
    RUN(slotmap_defaults_and_alignment);
    RUN(genpool_construct_destroy);
    RUN(genpool_self_pointers);
    RUN(genpool_trivial);
    RUN(pool_construct_destroy);
    RUN(pool_many_words);
#if STOW_CHECK_LEVEL >= 1
    RUN(pool_destroy_violations);
#endif
    RUN(packed_construct_destroy);
    RUN(arena_make);
    RUN(arena_scopes);
    RUN(heap_make_destroy);
    RUN(worlds);
}
