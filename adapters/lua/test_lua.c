/* SPDX-License-Identifier: MIT */
/* test_lua.c - Debian's Lua 5.4 library on a stow heap, through stow_lua.h.
 *
 *     test_lua WORKLOAD.lua [rounds]
 *
 * 1. runs WORKLOAD (adapters/lua/workload.lua) to completion in a state made by
 *    lua_newstate(stow_lua_alloc, &lua_heap); the script's output goes to stdout
 *    (adapters/lua/check.sh compares it with Debian's lua5.4 running the same
 *    script), then lua_close must give every byte back and the heap's check
 *    must pass. Prints the heap's peak and the fragmentation figures, with the
 *    requested bytes counted from Lua's own osize / nsize.
 * 2. a state on a 256 KiB heap runs out of memory inside pcall: the error is
 *    "not enough memory", the state goes on working, and closes clean.
 * 3. the lua_Alloc contract, called directly: on a full heap, shrinking a block
 *    succeeds in place.
 * Ends with "N passed, N failed".
 */
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "stow_lua.h"

STOW_HEAP_DEFINE(lua_heap, 64u << 20);

static unsigned passed;
static unsigned failed;

static void expect(bool ok, const char *what)
{
    printf("%s %s\n", ok ? "ok" : "FAIL", what);
    if (ok) {
        passed++;
    } else {
        failed++;
    }
}

/* Wraps the adapter to count requested bytes (Lua says how big each block was)
 * and the footprint: the storage the heap had in use, its blocks up to the
 * free one at their end (the top) and its pages of slots (the heap's own
 * fields, as lib/src/heap.c keeps them). */
struct meter {
    stow_heap_t *heap;
    size_t live;
    size_t peak;
    size_t footprint;
};

static size_t in_use(const stow_heap_t *h)
{
    const unsigned char *end = h->top != NULL ? h->top : h->region.limit;
    return (size_t)(end - h->region.first) + (size_t)(h->region.top - h->zone_lo);
}

static void *metered_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct meter *m = ud;
    void *p = stow_lua_alloc(m->heap, ptr, osize, nsize);
    if (nsize == 0u || p != NULL) {
        m->live -= ptr != NULL ? osize : 0u;
        m->live += nsize;
        if (m->live > m->peak) {
            m->peak = m->live;
        }
    }
    if (p != NULL && in_use(m->heap) > m->footprint) {
        m->footprint = in_use(m->heap);
    }
    return p;
}

static int run_workload(const char *path, const char *rounds)
{
    struct meter m = {&lua_heap, 0u, 0u, 0u};

    lua_State *L = lua_newstate(metered_alloc, &m);
    expect(L != NULL, "lua_newstate(stow_lua_alloc, &lua_heap)");
    if (L == NULL) {
        return 1;
    }
    luaL_openlibs(L);
    int status = luaL_loadfile(L, path);
    if (status == LUA_OK) {
        lua_pushstring(L, rounds);
        status = lua_pcall(L, 1, 0, 0);
    }
    if (status != LUA_OK) {
        printf("lua error: %s\n", lua_tostring(L, -1));
    }
    expect(status == LUA_OK, "the workload runs to completion");
    lua_close(L);
    stow_stats_t st;
    stow_heap_stats(&lua_heap, &st);
    expect(st.used == 0u && m.live == 0u, "lua_close gives every byte back");
    expect(stow_heap_check(&lua_heap), "stow_heap_check after lua_close");
    expect(st.fails == 0u, "no request refused");
    printf("lua on stow: heap peak %zu bytes (slots and blocks, headers included), peak requested %zu, footprint %zu; "
           "peak / requested %.2f, footprint / requested %.2f\n",
           st.peak, m.peak, m.footprint, (double)st.peak / (double)m.peak,
           (double)m.footprint / (double)m.peak);
    return 0;
}

static _Alignas(16) unsigned char small_storage[256u * 1024u];

static void out_of_memory(void)
{
    stow_heap_t small;
    expect(stow_heap_init(&small, small_storage, sizeof small_storage), "a 256 KiB heap");
    lua_State *L = lua_newstate(stow_lua_alloc, &small);
    if (L == NULL) {
        expect(false, "lua_newstate on the small heap");
        return;
    }
    luaL_openlibs(L);
    int status = luaL_dostring(L, "local ok, err = pcall(function()\n"
                                  "  local t = {}\n"
                                  "  for i = 1, 1e7 do t[i] = ('x'):rep(100) .. i end\n"
                                  "end)\n"
                                  "t = nil; collectgarbage()\n"
                                  "return ok, tostring(err)");
    bool ok = status == LUA_OK && !lua_toboolean(L, -2) &&
              strstr(lua_tostring(L, -1), "not enough memory") != NULL;
    expect(ok, "running out of memory raises \"not enough memory\" inside pcall");
    lua_settop(L, 0);
    status = luaL_dostring(L, "local s = 0 for i = 1, 1000 do s = s + #tostring(i) end return s");
    expect(status == LUA_OK && lua_tointeger(L, -1) == 2893, "the state works on after the error");
    lua_close(L);
    stow_stats_t st;
    stow_heap_stats(&small, &st);
    expect(st.used == 0u && st.fails > 0u && stow_heap_check(&small),
           "closed clean: nothing left, the refusals counted, check passes");
}

static void shrink_on_full_heap(void)
{
    stow_heap_t h;
    stow_heap_init(&h, small_storage, sizeof small_storage);
    void *big = stow_lua_alloc(&h, NULL, LUA_TSTRING, 1000u);
    size_t filler = 0u;
    while (stow_lua_alloc(&h, NULL, 0u, 64u) != NULL) { /* fill every block */
        filler++;
    }
    void *grown = stow_lua_alloc(&h, big, 1000u, 4000u);
    void *shrunk = stow_lua_alloc(&h, big, 1000u, 10u);
    expect(big != NULL && filler > 0u && grown == NULL && shrunk == big,
           "on a full heap growing fails and shrinking succeeds in place");
    expect(stow_lua_alloc(&h, shrunk, 10u, 0u) == NULL && stow_heap_check(&h), "nsize 0 frees");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: test_lua WORKLOAD.lua [rounds]\n", stderr);
        return 2;
    }
    run_workload(argv[1], argc > 2 ? argv[2] : "30");
    out_of_memory();
    shrink_on_full_heap();
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0u ? 0 : 1;
}
