/* SPDX-License-Identifier: MIT */
/* user.c - a program built with whatever options config_guard.sh passes, linked
 * against a library built with the defaults. It uses one container, picked by
 * GUARD_MODULE (1 arena, 2 pool, 3 genpool, 4 slotmap, 5 packed, 6 heap), made by its
 * DEFINE (GUARD_BY_INIT not defined: the call that uses it is not init) or by
 * its init function (GUARD_BY_INIT, then used), so that each of the two ways into each
 * container is shown to carry the configuration check. It is linked with
 * tests/stub_port.c, so that the link needs nothing else. */
#include "stow/stow.h"

#ifndef GUARD_MODULE
#define GUARD_MODULE 2
#endif

struct item {
    uint32_t a, b;
};
static struct item item;

#ifndef GUARD_BY_INIT
#if GUARD_MODULE == 1
STOW_ARENA_DEFINE(guarded, 64);
#define USE() (stow_arena_alloc(&guarded, 8u, 0u) != NULL)
#elif GUARD_MODULE == 2
STOW_POOL_DEFINE(guarded, struct item, 4);
#define USE() (stow_pool_alloc(&guarded) != NULL)
#elif GUARD_MODULE == 3
STOW_GENPOOL_DEFINE(guarded, struct item, 4);
#define USE() (!stow_handle_is_null(stow_genpool_insert(&guarded, &item)))
#elif GUARD_MODULE == 4
STOW_SLOTMAP_DEFINE(guarded, struct item, 4);
#define USE() (!stow_handle_is_null(stow_slotmap_insert(&guarded, &item)))
#elif GUARD_MODULE == 5
STOW_PACKED_DEFINE(guarded, struct item, 4);
#define USE() (stow_packed_push(&guarded) != NULL)
#else
STOW_HEAP_DEFINE(guarded, 256);
#define USE() (stow_heap_alloc(&guarded, 8u) != NULL)
#endif
#else
/* Made by init, then used as a program would: the use links the module, whose
 * note names the library's options when the init's link name is not its own. */
static STOW_ALIGNAS(16) unsigned char buf[1024];
#if GUARD_MODULE == 1
static stow_arena_t guarded;
#define USE() (stow_arena_init(&guarded, buf, sizeof buf) && stow_arena_alloc(&guarded, 8u, 0u))
#elif GUARD_MODULE == 2
static stow_pool_t guarded;
#define USE() \
    (stow_pool_init(&guarded, buf, sizeof buf, sizeof item, 4u, 4u) && stow_pool_alloc(&guarded))
#elif GUARD_MODULE == 3
static stow_genpool_t guarded;
#define USE()                                                        \
    (stow_genpool_init(&guarded, buf, sizeof buf, sizeof item, 4u, 4u) && \
     !stow_handle_is_null(stow_genpool_insert(&guarded, &item)))
#elif GUARD_MODULE == 4
static stow_slotmap_t guarded;
#define USE()                                                        \
    (stow_slotmap_init(&guarded, buf, sizeof buf, sizeof item, 4u, 4u) && \
     !stow_handle_is_null(stow_slotmap_insert(&guarded, &item)))
#elif GUARD_MODULE == 5
static stow_packed_t guarded;
#define USE() \
    (stow_packed_init(&guarded, buf, sizeof buf, sizeof item, 4u, 4u) && stow_packed_push(&guarded))
#elif defined(GUARD_BOUNDED)
static stow_heap_t guarded;
#define USE() (stow_heap_init_bounded(&guarded, buf, sizeof buf) && stow_heap_alloc(&guarded, 8u))
#else
static stow_heap_t guarded;
#define USE() (stow_heap_init(&guarded, buf, sizeof buf) && stow_heap_alloc(&guarded, 8u))
#endif
#endif

int main(void);
int main(void)
{
    item.a = 1u;
    return USE() ? 0 : 1;
}
