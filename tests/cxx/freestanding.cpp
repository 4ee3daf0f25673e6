// SPDX-License-Identifier: MIT
// freestanding.cpp - every part of stow.hpp, instantiated, for the
// cxx-freestanding check: built for Cortex-M0 and M4 at several optimisation
// and check levels, the object may need nothing but stow's C functions and
// libgcc's helpers (no memset, memcpy, operator new, __cxa_*).
#include "stow/stow.hpp"

namespace {

volatile int sink;

struct pod {
    uint32_t a;
    uint32_t b;
};

struct obj {
    int v;
    obj() : v(1) { sink = sink + 1; }
    explicit obj(int x) : v(x) { sink = sink + 1; }
    obj(const obj &o) : v(o.v) { sink = sink + 1; }
    obj(obj &&o) noexcept : v(o.v) { sink = sink + 1; }
    obj &operator=(const obj &o)
    {
        v = o.v;
        return *this;
    }
    ~obj() { sink = sink - 1; }
};

struct self {
    self *me;
    self() : me(this) {}
    self(self &&) noexcept : me(this) {}
    self(const self &) : me(this) {}
    self &operator=(const self &) = delete;
    ~self() { sink = me == this ? 0 : 1; }
};

struct defaults {
    int hp = 100;
};

struct hook {
    int n;
    void operator()(obj &) { n++; }
};

} // namespace

template <> struct stow::relocatable<obj> {
    static constexpr bool value = true;
};

template class stow::pool<pod, 40>;
template class stow::pool<obj, 40>;
template class stow::genpool<pod, 40>;
template class stow::genpool<obj, 40>;
template class stow::slotmap<pod, 40>;
template class stow::slotmap<obj, 40>;
template class stow::slotmap<self, 40>;
template class stow::packed<pod, 40>;
template class stow::packed<obj, 40>;
template class stow::packed<self, 40>;
template class stow::arena<256>;
template class stow::heap<2048>;
template class stow::slotmap<obj, 40, void, 6>;
template class stow::genpool<obj, 40, void, 6>;

STOW_CXX_DEFINE(fs_arena, stow::arena<256>);
STOW_CXX_DEFINE(fs_pool, stow::pool<pod, 40>);
STOW_CXX_DEFINE(fs_genpool, stow::genpool<pod, 40, void, 8>);
STOW_CXX_DEFINE(fs_slotmap, stow::slotmap<pod, 40>);
STOW_CXX_DEFINE(fs_packed, stow::packed<pod, 40>);
STOW_CXX_DEFINE(fs_heap, stow::heap<2048>);

void exercise();
void exercise()
{
    stow::pool<obj, 40> p;
    p.destroy(p.emplace(3));
    stow::pool<pod, 40> pp;
    (void)pp.emplace(pod{1u, 2u});

    stow::genpool<obj, 40> g;
    (void)g.remove(g.emplace(4));
    (void)g.insert(obj(5));
    stow::genpool<pod, 40> gp;
    (void)gp.emplace();
    (void)gp.insert(pod{1u, 2u});

    stow::slotmap<obj, 40> m;
    auto h = m.emplace(6);
    (void)m.mark_dead(h);
    hook f{0};
    (void)m.refresh(f);
    (void)m.refresh([](obj &o) { sink = o.v; });
    (void)m.refresh();
    stow::slotmap<self, 40> s;
    (void)s.remove(s.emplace());
    stow::slotmap<defaults, 40> d;
    (void)d.emplace();
    (void)d.refresh();

    stow::packed<obj, 40> k;
    (void)k.emplace_back(7);
    k.remove_at(0);
    stow::packed<self, 40> ks;
    (void)ks.emplace_back();
    ks.remove_at(0);

    stow::arena<256> a;
    {
        stow::arena_scope scope(a);
        (void)scope.make<pod>();
        (void)scope.make_array<defaults>(4);
        (void)a.make<pod>(pod{1u, 2u});
        (void)a.make_array<pod>(3);
    }
    stow::heap<2048> hp;
    hp.destroy(hp.make<obj>(8));
    hp.destroy(hp.make<pod>());
    hp.destroy_array(hp.make_array<obj>(3), 3);
    hp.destroy_array(hp.make_array<pod>(3), 3);
    hp.destroy_array(hp.make_array<obj>(3));
    hp.destroy_array(hp.make_array<pod>(3));

    // items() with handles, handle_of, the globals
    for (auto [gh, item] : g.items()) {
        sink = item.v + static_cast<int>(gh.index());
    }
    for (auto [mh, item] : m.items()) {
        sink = item.v + static_cast<int>(mh.generation());
        sink = m.handle_of(item) == mh ? 1 : 0;
    }
    const auto &cm = m;
    for (auto [mh, item] : cm.items()) {
        sink = item.v + static_cast<int>(mh.index());
    }
    (void)fs_arena.make<pod>();
    fs_pool.destroy(fs_pool.emplace());
    (void)fs_genpool.remove(fs_genpool.emplace());
    (void)fs_slotmap.remove(fs_slotmap.emplace());
    (void)fs_packed.emplace_back();
    fs_heap.destroy(fs_heap.make<pod>());
    sink = p.empty() && g.empty() && m.empty() && k.empty() ? 1 : 0;
}
