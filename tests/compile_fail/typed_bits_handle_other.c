/* SPDX-License-Identifier: MIT */
/* Two slot maps of their own index bits: a handle of one (whose bits mean
 * another split) does not go to the other. */
#include "stow/slotmap.h"

STOW_SLOTMAP_DEFINE_TYPED_BITS(cf_particles, int, 4096u, 12);
STOW_SLOTMAP_DEFINE_TYPED_BITS(cf_bodies, int, 64u, 6);

int *cf_find(cf_particles_handle_t p, cf_bodies_handle_t b);
int *cf_find(cf_particles_handle_t p, cf_bodies_handle_t b)
{
#if STOW_COMPILE_FAIL
    (void)b;
    return cf_bodies_get(p);
#else
    (void)p;
    return cf_bodies_get(b);
#endif
}
