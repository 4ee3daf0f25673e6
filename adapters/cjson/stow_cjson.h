/* SPDX-License-Identifier: MIT */
/* stow_cjson.h - cJSON's allocations on a stow heap.
 *
 *     #include "stow_cjson.h"
 *     STOW_HEAP_DEFINE(json_heap, 256 * 1024);   // file scope
 *     stow_cjson_use(&json_heap);                // the one line, before any cJSON call
 *
 * cJSON takes two hooks, malloc_fn and free_fn (cJSON_InitHooks), with no user
 * data, so the heap is kept in a variable of this header (one per translation
 * unit that includes it: call stow_cjson_use and free cJSON's results where the
 * hooks were set, or use cJSON_free, which calls the hook). cJSON calls realloc
 * only when its hooks are the C library's own malloc and free; with these hooks it
 * grows a printed buffer by allocating a larger one and copying, and frees the
 * old one, so every byte goes through the heap.
 *
 * Strings that cJSON_Print returns come from the heap: free them with
 * cJSON_free() (or stow_heap_free on the same heap), never with free().
 * Single-threaded: the hooks use the heap's plain calls. stow_cjson_use(NULL)
 * gives cJSON back its defaults (malloc, free, realloc).
 */
#ifndef STOW_CJSON_H
#define STOW_CJSON_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "stow/heap.h"

#ifdef __cplusplus
extern "C" {
#endif

static stow_heap_t *stow__cjson_heap;

static void *stow__cjson_malloc(size_t size) { return stow_heap_alloc(stow__cjson_heap, size); }

static void stow__cjson_free(void *p) { stow_heap_free(stow__cjson_heap, p); }

/* Routes cJSON's allocations to h (NULL: back to the C library). */
static inline void stow_cjson_use(stow_heap_t *h)
{
    cJSON_Hooks hooks = {NULL, NULL};
    stow__cjson_heap = h;
    if (h != NULL) {
        hooks.malloc_fn = stow__cjson_malloc;
        hooks.free_fn = stow__cjson_free;
    }
    cJSON_InitHooks(&hooks);
}

#ifdef __cplusplus
}
#endif

#endif /* STOW_CJSON_H */
