// SPDX-License-Identifier: MIT
// refresh() moves items by their bytes: refused, with the reason, for an item
// that is not trivially copyable and not declared relocatable.
// expect: refresh moves the surviving items by their bytes
#include "stow/stow.hpp"

struct node {
    node *self;
    node() : self(this) {}
    node(const node &) : self(this) {}
    node &operator=(const node &) { return *this; }
};

stow::slotmap<node, 8> nodes;

uint32_t reap()
{
    auto h = nodes.emplace();
    (void)nodes.mark_dead(h);
#if STOW_COMPILE_FAIL
    return nodes.refresh();
#else
    return nodes.remove(h) ? 1u : 0u; // remove() moves it with its copy constructor
#endif
}
