/* SPDX-License-Identifier: MIT */
/* stow/stats.h - the statistics every container reports.
 *
 *     stow_stats_t s;
 *     stow_pool_stats(&msg_pool, &s);
 *     // s.capacity, s.used, s.peak: bytes for an arena, items for the others
 *     // s.fails: requests refused because the container was full or had no room
 *
 * peak is the high-water mark of used since the container was defined or
 * initialised; fails counts runtime refusals only (contract violations go to the
 * assert hook, not here). Both survive reset and clear.
 */
#ifndef STOW_STATS_H
#define STOW_STATS_H

#include "config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t capacity; /* bytes (arena) or items (others) the container can hold */
    size_t used;     /* bytes or items in use now */
    size_t peak;     /* largest value used has had */
    uint32_t fails;  /* refused requests: full, no room, (for arenas) size overflow */
} stow_stats_t;

#ifdef __cplusplus
}
#endif

#endif /* STOW_STATS_H */
