/* SPDX-License-Identifier: MIT */
/* sizing.c - a sizing file: it includes every header of stow for the macros
 * alone (the storage a buffer of each kind needs) and uses no container, so it
 * must link without the library and without a port (tests/embedding/alone.sh). */
#include <stdio.h>

#include "stow/stow.h"

struct msg {
    uint32_t id;
    uint16_t len;
};

static unsigned char heap_buf[STOW_HEAP_BYTES_FOR(4096, 256)];
static const size_t sizes[] = {
    STOW_ARENA_BYTES(512),
    STOW_POOL_BYTES(sizeof(struct msg), STOW_ALIGNOF(struct msg), 16),
    STOW_GENPOOL_BYTES(sizeof(struct msg), STOW_ALIGNOF(struct msg), 16),
    STOW_SLOTMAP_BYTES(sizeof(struct msg), STOW_ALIGNOF(struct msg), 16),
    STOW_PACKED_BYTES(sizeof(struct msg), STOW_ALIGNOF(struct msg), 16),
    STOW_HEAP_BLOCK_BYTES(100),
    sizeof heap_buf,
};

int main(void);
int main(void)
{
    size_t total = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        total += sizes[i];
    }
    heap_buf[sizeof heap_buf - 1u] = 1u;
    printf("stow %d.%d.%d: %zu bytes of storage\n", STOW_VERSION_MAJOR, STOW_VERSION_MINOR,
           STOW_VERSION_PATCH, total);
    return total > sizeof heap_buf ? 0 : 1;
}
