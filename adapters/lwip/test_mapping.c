/* SPDX-License-Identifier: MIT */
/* test_mapping.c - stow_lwip.h against Debian's lwIP headers, compiled with the
 * lwipopts.h of adapters/lwip/opts/, once per mapping (-DSTOW_LWIP_2_1=1 and 0):
 * the options lwIP's opt.h ends up with are the ones its mem.c needs, and the
 * names it calls (mem_clib_* for 2.1, MEM_CUSTOM_* for 2.2) reach a stow heap
 * defined with STOW_LWIP_HEAP_DEFINE. Debian's liblwip itself is built with its
 * own options (the C library's malloc), so lwIP's mem.c is not rebuilt here:
 * what runs is the mapping's names, called as that mem.c calls them. Ends with
 * "N passed, N failed". */
#include <stdio.h>
#include <string.h>

#include "lwip/init.h"
#include "lwip/mem.h"
#include "lwip/opt.h"

#include "stow/heap.h"
#include "stow/port.h"
#include "stow_lwip.h"

STOW_LWIP_HEAP_DEFINE(lwip_heap, 64u * 1024u);

#if STOW_LWIP_2_1
#if !MEM_LIBC_MALLOC
#error "lwIP 2.1 mapping: MEM_LIBC_MALLOC must be 1"
#endif
#define CALL_MALLOC(n) mem_clib_malloc(n)
#define CALL_CALLOC(n, s) mem_clib_calloc(n, s)
#define CALL_FREE(p) mem_clib_free(p)
#define MAPPING "lwIP 2.1 (MEM_LIBC_MALLOC, mem_clib_*)"
#else
#if MEM_LIBC_MALLOC || !MEM_CUSTOM_ALLOCATOR
#error "lwIP 2.2 mapping: MEM_CUSTOM_ALLOCATOR 1 and MEM_LIBC_MALLOC 0"
#endif
#define CALL_MALLOC(n) MEM_CUSTOM_MALLOC(n)
#define CALL_CALLOC(n, s) MEM_CUSTOM_CALLOC(n, s)
#define CALL_FREE(p) MEM_CUSTOM_FREE(p)
#define MAPPING "lwIP 2.2 (MEM_CUSTOM_ALLOCATOR)"
#endif

int main(void)
{
    unsigned passed = 0, failed = 0;
    stow_stats_t st;
    unsigned char *a = CALL_MALLOC(1514u);
    unsigned char *b = CALL_CALLOC(8u, 40u);
    bool zero = b != NULL;
    for (size_t i = 0; zero && i < 320u; i++) {
        zero = b[i] == 0u;
    }
    stow_heap_stats(&lwip_heap, &st);
    bool ok = a != NULL && zero && st.used >= 1514u + 320u && ((uintptr_t)a % MEM_ALIGNMENT) == 0u;
    printf("%s %s: allocations reach the stow heap, calloc zeroes, MEM_ALIGNMENT %d kept\n", ok ? "ok" : "FAIL",
           MAPPING, MEM_ALIGNMENT);
    ok ? passed++ : failed++;
    memset(a, 0x55, 1514u);
    CALL_FREE(a);
    CALL_FREE(b);
    CALL_FREE(NULL);
    stow_heap_stats(&lwip_heap, &st);
    ok = st.used == 0u && stow_heap_check(&lwip_heap);
    printf("%s %s: every byte back, check passes (headers of lwIP %s)\n", ok ? "ok" : "FAIL", MAPPING,
           LWIP_VERSION_STRING);
    ok ? passed++ : failed++;
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0u ? 0 : 1;
}
