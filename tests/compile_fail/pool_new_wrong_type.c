/* SPDX-License-Identifier: MIT */
/* STOW_POOL_NEW(pool, T) gives a T*: storing it in a pointer to another type is
 * an incompatible-pointer-types diagnostic (an error with -Werror), not a silent
 * void * conversion. */
#include "stow/pool.h"

struct cf_msg {
    int id;
};
struct cf_particle {
    float x, y;
};

STOW_POOL_DEFINE(cf_msgs, struct cf_msg, 4);

struct cf_msg *cf_take(void);
struct cf_msg *cf_take(void)
{
#if STOW_COMPILE_FAIL
    struct cf_msg *m = STOW_POOL_NEW(&cf_msgs, struct cf_particle);
#else
    struct cf_msg *m = STOW_POOL_NEW(&cf_msgs, struct cf_msg);
#endif
    return m;
}
