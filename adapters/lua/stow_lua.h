/* SPDX-License-Identifier: MIT */
/* stow_lua.h - a Lua state whose every allocation comes from a stow heap.
 *
 *     #include "stow_lua.h"
 *     STOW_HEAP_DEFINE(lua_heap, 512 * 1024);                  // file scope
 *     lua_State *L = lua_newstate(stow_lua_alloc, &lua_heap);  // the one line
 *
 * stow_lua_alloc is a lua_Alloc (Lua 5.4 reference manual, section 4.6) whose
 * user data is the stow_heap_t *:
 *   - nsize 0: frees ptr (NULL is ignored) and returns NULL;
 *   - ptr NULL: osize is not a size but the kind of object Lua is making
 *     (LUA_TSTRING, LUA_TTABLE... or 0): allocates nsize bytes;
 *   - otherwise osize is the size Lua last gave for ptr: resizes to nsize with
 *     stow_heap_realloc, which never fails when shrinking, as Lua requires for
 *     nsize <= osize (a default heap keeps the block in place and gives the
 *     tail back; a bounded heap moves it to its power of two when it can);
 *     growing returns NULL when the heap has no room, and Lua then raises "not
 *     enough memory" with the old block untouched.
 * osize is checked: at STOW_CHECK_LEVEL 1, osize must not exceed the bytes the
 * block holds (stow_heap_usable_size), and at level 2 it must equal the size
 * the block was asked for; a mismatch means the state's memory is corrupt and
 * goes to stow_port_assert_failed ("stow_lua_alloc: osize is not the block's
 * size"). At level 0 osize is not looked at.
 *
 * A lua_State belongs to one thread, so the plain heap calls are used. For a
 * heap that other threads or interrupt handlers share, pass stow_lua_alloc_isr
 * instead (the heap's _isr calls, inside the port's critical section).
 *
 * Sizing: Lua's own count (collectgarbage("count")) is requested bytes; a heap
 * needs a little more for headers and rounding: 1.09 times the peak on the
 * workload of bench/traces/lua.trace on Cortex-M4 (adapters/lua/test_lua.c
 * prints the figures for a sample script; see adapters/README.md). That is no
 * bound: record the program's allocations (docs/heap.md, "Sizing from a
 * trace") and add headroom. For a heap that can never fail, define a bounded
 * one, STOW_HEAP_DEFINE_BOUNDED(lua_heap, STOW_HEAP_BYTES_FOR(max_live,
 * max_request)), from the most bytes Lua has live and its largest request; Lua's
 * shrinking reallocs then move, and count their old and new size while they
 * do.
 */
#ifndef STOW_LUA_H
#define STOW_LUA_H

#include <stddef.h>

#include "stow/heap.h"
#include "stow/port.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The osize check described above; ptr is a live block of h. */
static inline void stow__lua_check_osize(stow_heap_t *h, void *ptr, size_t osize)
{
#if STOW_CHECK_LEVEL >= 2
    if (osize != stow_heap_usable_size(h, ptr)) {
        stow_port_assert_failed("stow_lua_alloc: osize is not the block's size", STOW__FILE, __LINE__);
    }
#elif STOW_CHECK_LEVEL >= 1
    if (osize > stow_heap_usable_size(h, ptr)) {
        stow_port_assert_failed("stow_lua_alloc: osize is not the block's size", STOW__FILE, __LINE__);
    }
#else
    (void)h;
    (void)ptr;
    (void)osize;
#endif
}

/* A lua_Alloc over the stow_heap_t * in ud. */
static inline void *stow_lua_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    stow_heap_t *h = (stow_heap_t *)ud;
    if (nsize == 0u) {
        if (ptr != NULL) {
            stow__lua_check_osize(h, ptr, osize);
        }
        stow_heap_free(h, ptr);
        return NULL;
    }
    if (ptr == NULL) {
        return stow_heap_alloc(h, nsize);
    }
    stow__lua_check_osize(h, ptr, osize);
    return stow_heap_realloc(h, ptr, nsize);
}

/* The same through the heap's ISR-safe calls, for a shared heap. */
static inline void *stow_lua_alloc_isr(void *ud, void *ptr, size_t osize, size_t nsize)
{
    stow_heap_t *h = (stow_heap_t *)ud;
    (void)osize; /* not checked: stow_heap_usable_size has no ISR-safe form */
    if (nsize == 0u) {
        stow_heap_free_isr(h, ptr);
        return NULL;
    }
    if (ptr == NULL) {
        return stow_heap_alloc_isr(h, nsize);
    }
    return stow_heap_realloc_isr(h, ptr, nsize);
}

#ifdef __cplusplus
}
#endif

#endif /* STOW_LUA_H */
