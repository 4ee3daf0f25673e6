// SPDX-License-Identifier: MIT
// An integer is not a handle: from_raw() says so explicitly.
// expect: conversion from|cannot convert|could not convert|no viable conversion|no matching
#include "stow/stow.hpp"

using map_t = stow::slotmap<int, 8>;
map_t map;

int *find(uint32_t bits)
{
#if STOW_COMPILE_FAIL
    map_t::handle_type h = bits;
#else
    map_t::handle_type h = map_t::handle_type::from_raw(bits);
#endif
    return map.get(h);
}
