/* SPDX-License-Identifier: MIT */
/* asserts.c - a Cortex-M firmware with the production assert hook
 * (port/cortex-m/assert.c), built from absolute paths by
 * tests/embedding/assert_paths.sh. It uses a pool, a heap, an arena and a
 * genpool as a firmware does (so that their checks, and the checks of the
 * genpool's inline walk, are in the image), then frees a pointer the pool never
 * gave: the hook must print "stow: contract violation: stow_pool_free: ... at
 * pool.c:<line>" and exit 134. */
#include "stow/stow.h"

struct msg {
    uint32_t id;
    uint32_t len;
};

STOW_POOL_DEFINE(msgs, struct msg, 8);
STOW_HEAP_DEFINE(scratch, 1024);
STOW_ARENA_DEFINE(frame, 256);
STOW_GENPOOL_DEFINE(units, struct msg, 8);

int main(void);
int main(void)
{
    struct msg *m = STOW_POOL_NEW(&msgs, struct msg);
    void *h = stow_heap_alloc(&scratch, 100);
    void *f = stow_arena_alloc(&frame, 32, 0);
    struct msg u = {1u, 2u};
    stow_handle_t unit = stow_genpool_insert(&units, &u);
    unsigned walked = 0;
    stow_genpool_walk_t w = stow_genpool_walk_begin(&units);
    while (stow_genpool_walk_next(&w)) {
        walked++;
    }
    stow_print(m != NULL && h != NULL && f != NULL && !stow_handle_is_null(unit) && walked == 1u
                   ? "asserts: containers in use\n"
                   : "asserts: a container failed\n");
    stow_heap_free(&scratch, h);
    stow_pool_free(&msgs, &u); /* not the pool's: a contract violation */
    stow_print("asserts: the hook returned\n");
    return 1;
}
