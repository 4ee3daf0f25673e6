// SPDX-License-Identifier: MIT
// throw.cpp - the strong guarantee of every emplace and make (stow.hpp), with
// exceptions on: a constructor that throws on its Nth call leaves the container
// as it was. For each container, items are made until the Nth construction
// throws; then the container must hold what it held (size(), its items), pass
// check(), give the next item the place (and the handle) that a twin container
// that never saw the failure gives, and destroy only objects that were
// constructed: every construction and destruction is counted, of the item and
// of a member that unwinding destroys, and they are equal at the end, with no
// object destroyed twice or used dead. Built as a suite of its own
// (tests/cxx/rules.mk: cxx-throw-*), g++ and clang++, with the sanitizers.
#include "counted.hpp"


namespace {

struct boom {
    int n;
};

// The construction that throws: the Nth from now (0: none).
uint32_t countdown;
uint32_t made;   // fragile objects fully constructed
uint32_t gone;   // and destroyed
uint32_t broken; // destroyed twice, or used dead

void arm(uint32_t nth) { countdown = nth; }
void maybe_throw()
{
    if (countdown != 0u && --countdown == 0u) {
        throw boom{1};
    }
}

// A member is constructed first; the body may throw, and then unwinding
// destroys the member (counted's counts) but never the fragile itself.
class fragile {
  public:
    fragile() : member_(0), magic_(alive), value_(0)
    {
        maybe_throw();
        made++;
    }
    explicit fragile(int v) : member_(v), magic_(alive), value_(v)
    {
        maybe_throw();
        made++;
    }
    fragile(const fragile &o) : member_(o.value()), magic_(alive), value_(o.value())
    {
        maybe_throw();
        made++;
    }
    fragile &operator=(const fragile &) = delete;
    ~fragile()
    {
        if (magic_ != alive) {
            broken++;
        }
        magic_ = 0u;
        gone++;
    }
    int value() const
    {
        if (magic_ != alive || member_.value() != value_) {
            broken++;
        }
        return value_;
    }

  private:
    static constexpr uint32_t alive = 0x600D600Du;
    counted member_;
    uint32_t magic_;
    int value_;
};

void reset_all()
{
    reset_counts();
    countdown = 0u;
    made = 0u;
    gone = 0u;
    broken = 0u;
}

// Everything constructed was destroyed once, members included.
bool balanced() { return made == gone && live() == 0u && broken == 0u && counts.bad == 0u; }

// Runs f, which must throw boom.
template <class F> bool throws(F f)
{
    try {
        f();
    } catch (const boom &) {
        return true;
    }
    return false;
}

} // namespace

// fragile survives a byte copy (no pointer into itself): the slot map may move it.
template <> struct stow::relocatable<fragile> {
    static constexpr bool value = true;
};

namespace {

// Makes items 0, 1, ... until one throws (the countdown's); returns how many
// were made. The twin gets as many, without a failure.
template <class C> uint32_t fill_until_throw(C &c, C &twin, typename C::handle_type *h, uint32_t n)
{
    uint32_t i = 0;
    try {
        for (; i < n; i++) {
            h[i] = c.emplace(static_cast<int>(i));
        }
    } catch (const boom &) {
    }
    countdown = 0u;
    for (uint32_t k = 0; k < i; k++) {
        (void)twin.emplace(static_cast<int>(k));
    }
    return i;
}

TEST(genpool_emplace_throws)
{
    for (uint32_t nth = 1; nth <= 6u; nth++) {
        reset_all();
        {
            stow::genpool<fragile, 8> g;
            stow::genpool<fragile, 8> twin; // the same history, without the failure
            stow::genpool<fragile, 8>::handle_type h[6];
            arm(nth); // the nth construction throws
            uint32_t n = fill_until_throw(g, twin, h, 6u);
            CXX_EQ(n, nth - 1u);
            CXX_EQ(g.size(), n);
            CXX_CHECK(g.check());
            CXX_EQ(g.stats().peak, twin.stats().peak); // the attempt is not counted
            // The next item gets the slot and the handle it would have got.
            CXX_CHECK(g.emplace(7) == twin.emplace(7));
            for (uint32_t i = 0; i < n; i++) {
                CXX_EQ(g.get(h[i])->value(), static_cast<int>(i));
            }
            // From the free list this time: a removed slot, its next generation.
            if (n > 1u) {
                CXX_CHECK(g.remove(h[0]) && twin.remove(h[0]));
                arm(1);
                CXX_CHECK(throws([&] { (void)g.emplace(100); }));
                CXX_CHECK(g.emplace(8) == twin.emplace(8));
            }
            // insert of a T that is not trivially copyable: the copy throws.
            arm(2); // (the argument is the first construction)
            CXX_CHECK(throws([&] { (void)g.insert(fragile(9)); }));
            CXX_CHECK(g.insert(fragile(10)) == twin.insert(fragile(10)));
            CXX_EQ(g.size(), twin.size());
            CXX_CHECK(g.check());
        }
        CXX_CHECK(balanced());
    }
}

TEST(slotmap_emplace_throws)
{
    for (uint32_t nth = 1; nth <= 6u; nth++) {
        reset_all();
        {
            stow::slotmap<fragile, 8> m;
            stow::slotmap<fragile, 8> twin;
            stow::slotmap<fragile, 8>::handle_type h[6];
            arm(nth);
            uint32_t n = fill_until_throw(m, twin, h, 6u);
            CXX_EQ(n, nth - 1u);
            CXX_EQ(m.size(), n);
            CXX_CHECK(m.check());
            CXX_CHECK(m.emplace(7) == twin.emplace(7)); // a never-used index
            if (n > 2u) {
                CXX_CHECK(m.remove(h[1]) && twin.remove(h[1])); // a freed index waits at the end
                CXX_CHECK(m.mark_dead(h[2]) && twin.mark_dead(h[2]));
                arm(1);
                CXX_CHECK(throws([&] { (void)m.emplace(100); }));
                CXX_EQ(m.dead_count(), 1u);
                CXX_CHECK(m.emplace(8) == twin.emplace(8)); // the freed index, its generation unspent
                CXX_EQ(m.refresh(), 1u);
                CXX_EQ(twin.refresh(), 1u);
            }
            arm(2);
            CXX_CHECK(throws([&] { (void)m.insert(fragile(9)); }));
            CXX_CHECK(m.insert(fragile(10)) == twin.insert(fragile(10)));
            CXX_EQ(m.size(), twin.size());
            for (uint32_t p = 0; p < m.size(); p++) {
                CXX_EQ(m.data()[p].value(), twin.data()[p].value());
            }
            CXX_CHECK(m.check());
            m.clear();
        }
        CXX_CHECK(balanced());
    }
}

TEST(pool_emplace_throws)
{
    for (uint32_t nth = 1; nth <= 3u; nth++) {
        reset_all();
        {
            stow::pool<fragile, 40> p; // more than 32 blocks: two words of live bits
            fragile *items[33];
            for (int i = 0; i < 33; i++) {
                items[i] = p.emplace(i);
            }
            p.destroy(items[4]);
            fragile *next = p.emplace(50); // the block just freed
            CXX_CHECK(next == items[4]);
            p.destroy(next);
            arm(nth);
            bool threw = throws([&] { (void)p.emplace(100); });
            countdown = 0u;
            CXX_EQ(threw, nth == 1u);
            CXX_EQ(p.size(), 32u + (threw ? 0u : 1u));
            CXX_CHECK(p.check());
            if (threw) {
                CXX_CHECK(p.emplace(7) == items[4]); // the block went back
                uint32_t visited = 0;
                for (const fragile &f : p) {
                    (void)f.value();
                    visited++;
                }
                CXX_EQ(visited, 33u);
                arm(1);
                CXX_CHECK(throws([&] { (void)p.emplace(8); })); // a never-used block (word 1)
                CXX_EQ(p.size(), 33u);
                CXX_NOT_NULL(p.emplace(9));
                CXX_CHECK(p.check());
            }
            p.clear();
            CXX_EQ(p.size(), 0u);
        }
        CXX_CHECK(balanced());
    }
}

TEST(packed_emplace_back_throws)
{
    reset_all();
    {
        stow::packed<fragile, 8> a;
        for (int i = 0; i < 3; i++) {
            CXX_NOT_NULL(a.emplace_back(i));
        }
        fragile *end = a.data() + a.size();
        arm(1);
        CXX_CHECK(throws([&] { (void)a.emplace_back(100); }));
        CXX_EQ(a.size(), 3u);
        CXX_CHECK(a.check());
        CXX_CHECK(a.emplace_back(3) == end);
        arm(2); // push_back: the argument, then its copy, which throws
        CXX_CHECK(throws([&] { (void)a.push_back(fragile(4)); }));
        CXX_EQ(a.size(), 4u);
        for (uint32_t i = 0; i < a.size(); i++) {
            CXX_EQ(a[i].value(), static_cast<int>(i));
        }
    }
    CXX_CHECK(balanced());
}

TEST(heap_make_throws)
{
    reset_all();
    {
        stow::heap<2048> h;
        stow::heap<2048> twin;
        fragile *keep = h.make<fragile>(1);
        fragile *twin_keep = twin.make<fragile>(1);
        size_t used = h.stats().used;
        arm(1);
        CXX_CHECK(throws([&] { (void)h.make<fragile>(2); }));
        CXX_EQ(h.stats().used, used); // the block went back
        CXX_CHECK(h.check());
        fragile *next = h.make<fragile>(3);
        fragile *twin_next = twin.make<fragile>(3);
        CXX_EQ(reinterpret_cast<uintptr_t>(next) - reinterpret_cast<uintptr_t>(keep),
               reinterpret_cast<uintptr_t>(twin_next) - reinterpret_cast<uintptr_t>(twin_keep));
        // make_array: the 3rd of 5 throws; the first two are destroyed, the block freed.
        used = h.stats().used;
        arm(3);
        CXX_CHECK(throws([&] { (void)h.make_array<fragile>(5); }));
        CXX_EQ(h.stats().used, used);
        CXX_EQ(made, 6u); // keep, next, the twin's two and two of the array...
        CXX_EQ(gone, 2u); // ...which were destroyed when the third threw
        CXX_EQ(live(), 4u); // members: the third's died in the unwinding
        fragile *arr = h.make_array<fragile>(5);
        CXX_NOT_NULL(arr);
        h.destroy_array(arr, 5u);
        h.destroy(keep);
        h.destroy(next);
        twin.destroy(twin_keep);
        twin.destroy(twin_next);
        CXX_EQ(h.stats().used, 0u);
        CXX_CHECK(h.check());
    }
    CXX_CHECK(balanced());
}

// Arena items have no destructors: a trivially destructible type that throws.
struct picky {
    int v;
    explicit picky(int x) : v(x) { maybe_throw(); }
    picky() : v(5) { maybe_throw(); }
};

TEST(arena_make_throws)
{
    reset_all();
    stow::arena<256> a;
    CXX_NOT_NULL(a.make<picky>(1));
    size_t used = a.used();
    arm(1);
    CXX_CHECK(throws([&] { (void)a.make<picky>(2); }));
    CXX_EQ(a.used(), used); // rewound
    arm(3);
    CXX_CHECK(throws([&] { (void)a.make_array<picky>(4); }));
    CXX_EQ(a.used(), used);
    {
        stow::arena_scope scope(a);
        arm(1);
        CXX_CHECK(throws([&] { (void)scope.make<picky>(3); }));
        CXX_EQ(a.used(), used);
        picky *p = scope.make_array<picky>(3);
        CXX_NOT_NULL(p);
        CXX_EQ(p[2].v, 5);
    }
    CXX_EQ(a.used(), used);
    CXX_CHECK(a.check());
}

} // namespace

void stow_test_suite_cxx_throw(void)
{
    RUN(genpool_emplace_throws);
    RUN(slotmap_emplace_throws);
    RUN(pool_emplace_throws);
    RUN(packed_emplace_back_throws);
    RUN(heap_make_throws);
    RUN(arena_make_throws);
}
