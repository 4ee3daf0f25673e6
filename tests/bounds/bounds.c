/* SPDX-License-Identifier: MIT */
/* bounds.c - costs the headers bound, measured in instructions: a call whose
 * cost must grow linearly is timed at two sizes, and the larger may cost at
 * most twice its share.
 *
 * Built for riscv-virt at check level 2 and run under `qemu-system-riscv32
 * -icount shift=0`, where stow_port_cycles() (mcycle) counts executed
 * instructions exactly: the figures are the same on every run.
 *
 *   arena check    stow_arena_check() is O(blocks) (arena.h), at level 2 too,
 *                  where each block's poison is tested from its free position:
 *                  chains of SMALL and LARGE blocks of 16 bytes, the current
 *                  block in the middle. (It was O(blocks^2) at level 2: each
 *                  block's free position came from a walk from the head.)
 *   heap calls     alloc and free are O(1) (heap.h), at level 2 O(the block):
 *                  slots and blocks of given sizes cost the same on a heap of
 *                  8 KiB with 12 blocks live and on one of 1 MiB with 3,000.
 *   heap regions   at levels 1 and 2, finding a pointer's region costs one
 *                  comparison per region: freeing in the oldest of 1 and of
 *                  16 added regions.
 *   heap check     stow_heap_check() is O(capacity): a heap of 8 KiB and one
 *                  of 128 KiB, each a third full of blocks of 8-512 bytes.
 *
 * Runs as cases of the test harness (tests/harness.h): a line per measure, then
 * "N passed, N failed"; exits 1 on any failure.
 */
#include "harness.h"

#define SMALL 16u
#define LARGE 256u
#define BLOCK_BYTES 16u

static stow_arena_t blocks[LARGE];
static _Alignas(16) unsigned char storage[LARGE][BLOCK_BYTES];
/* Instructions one stow_arena_check() takes on a chain of n blocks whose
 * current block is the middle one; 0 if the chain cannot be built or check()
 * finds it broken. */
static uint32_t arena_check_cost(uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (!stow_arena_init(&blocks[i], storage[i], BLOCK_BYTES)) {
            return 0u;
        }
    }
    /* From the tail: each chain() appends a one-block chain's head. */
    for (uint32_t i = n - 1u; i > 0u; i--) {
        stow_arena_chain(&blocks[i - 1u], &blocks[i]);
    }
    for (uint32_t i = 0; i < n / 2u; i++) {
        if (stow_arena_alloc(&blocks[0], BLOCK_BYTES, 1u) == NULL) {
            return 0u;
        }
    }
    (void)stow_arena_alloc(&blocks[0], 1u, 1u); /* into the middle block */
    uint32_t start = stow_port_cycles();
    bool ok = stow_arena_check(&blocks[0]);
    uint32_t cost = stow_port_cycles() - start;
    return ok ? cost : 0u;
}

TEST(arena_check_is_linear_in_the_blocks)
{
    uint32_t small = arena_check_cost(SMALL);
    uint32_t large = arena_check_cost(LARGE);
    stow_test_print("arena check: ");
    stow_test_print_u(small);
    stow_test_print(" instructions for ");
    stow_test_print_u(SMALL);
    stow_test_print(" blocks, ");
    stow_test_print_u(large);
    stow_test_print(" for ");
    stow_test_print_u(LARGE);
    stow_test_print("\n");
    CHECK(small != 0u && large != 0u); /* the chains are sound */
    /* O(blocks): 16x the blocks cost at most 32x the instructions */
    CHECK_LE(large, 2u * (LARGE / SMALL) * small);
}

/* ---- heap -------------------------------------------------------------------------- */

#define HEAP_SMALL (8u * 1024u)
#define HEAP_LARGE (1024u * 1024u)
static _Alignas(16) unsigned char heap_storage[HEAP_LARGE];
static void *heap_live[3000];
static uint32_t heap_rand = 0x1234567u;

static uint32_t heap_next(void)
{
    heap_rand ^= heap_rand << 13;
    heap_rand ^= heap_rand >> 17;
    heap_rand ^= heap_rand << 5;
    return heap_rand;
}

/* A heap over bytes with n blocks of 8-512 bytes live, every other one of a
 * first run freed, so that free blocks and slots of many sizes are there. */
static bool heap_filled(stow_heap_t *h, size_t bytes, uint32_t n)
{
    if (!stow_heap_init(h, heap_storage, bytes)) {
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        heap_live[i] = stow_heap_alloc(h, 8u + heap_next() % 505u);
        if (heap_live[i] == NULL) {
            return false;
        }
    }
    for (uint32_t i = 0; i < n; i += 2u) {
        stow_heap_free(h, heap_live[i]);
        heap_live[i] = NULL;
    }
    return stow_heap_check(h);
}

/* The most instructions an alloc of size and the free of what it gave took,
 * over rounds of them. */
static uint32_t heap_pair_cost(stow_heap_t *h, size_t size)
{
    uint32_t most = 0u;
    for (uint32_t k = 0; k < 8u; k++) {
        uint32_t start = stow_port_cycles();
        void *p = stow_heap_alloc(h, size);
        stow_heap_free(h, p);
        uint32_t cost = stow_port_cycles() - start;
        most = cost > most ? cost : most;
        if (p == NULL) {
            return 0u;
        }
    }
    return most;
}

TEST(heap_calls_cost_the_same_on_a_small_and_a_large_heap)
{
    static const size_t sizes[] = {16u, 40u, 72u, 100u, 300u, 1000u};
    stow_heap_t h;
    uint32_t small[6], large[6];
    CHECK(heap_filled(&h, HEAP_SMALL, 12u));
    for (size_t k = 0; k < 6u; k++) {
        small[k] = heap_pair_cost(&h, sizes[k]);
    }
    CHECK(heap_filled(&h, HEAP_LARGE, 3000u));
    for (size_t k = 0; k < 6u; k++) {
        large[k] = heap_pair_cost(&h, sizes[k]);
    }
    for (size_t k = 0; k < 6u; k++) {
        stow_test_print("heap alloc + free of ");
        stow_test_print_u(sizes[k]);
        stow_test_print(" bytes: ");
        stow_test_print_u(small[k]);
        stow_test_print(" instructions on 8 KiB, ");
        stow_test_print_u(large[k]);
        stow_test_print(" on 1 MiB\n");
        CHECK(small[k] != 0u && large[k] != 0u);
        /* O(1): the same paths, give or take a class or a page changing state
         * (a linear cost would be a hundred times the small heap's) */
        CHECK_LE(large[k], 2u * small[k]);
    }
}

/* The most instructions a free of a block in the oldest of regions added
 * regions took: every region is filled with blocks of 200 bytes, then those in
 * the oldest (the last the lookup reaches) are freed. */
static uint32_t heap_region_free_cost(uint32_t regions)
{
    stow_heap_t h;
    size_t piece = 4096u;
    if (!stow_heap_init(&h, heap_storage, piece)) {
        return 0u;
    }
    unsigned char *oldest = heap_storage + piece;
    for (uint32_t r = 0; r < regions; r++) {
        if (!stow_heap_add_region(&h, heap_storage + (r + 1u) * piece, piece)) {
            return 0u;
        }
    }
    uint32_t n = 0u;
    for (void *p; (p = stow_heap_alloc(&h, 200u)) != NULL && n < 3000u;) {
        if ((unsigned char *)p >= oldest && (unsigned char *)p < oldest + piece) {
            heap_live[n++] = p;
        }
    }
    uint32_t most = 0u;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t start = stow_port_cycles();
        stow_heap_free(&h, heap_live[k]);
        uint32_t cost = stow_port_cycles() - start;
        most = cost > most ? cost : most;
    }
    return n != 0u && stow_heap_check(&h) ? most : 0u;
}

TEST(heap_region_lookup_costs_a_comparison_per_region)
{
    uint32_t one = heap_region_free_cost(1u);
    uint32_t many = heap_region_free_cost(16u);
    stow_test_print("heap free in the oldest region: ");
    stow_test_print_u(one);
    stow_test_print(" instructions with 1 added region, ");
    stow_test_print_u(many);
    stow_test_print(" with 16\n");
    CHECK(one != 0u && many != 0u);
    /* a handful of instructions per region more, for each lookup the call makes */
    CHECK_LE(many, one + 15u * 3u * 12u);
}

static uint32_t heap_check_cost(size_t bytes)
{
    stow_heap_t h;
    if (!heap_filled(&h, bytes, (uint32_t)(bytes / 3u / 260u * 2u))) {
        return 0u;
    }
    uint32_t start = stow_port_cycles();
    bool ok = stow_heap_check(&h);
    uint32_t cost = stow_port_cycles() - start;
    return ok ? cost : 0u;
}

TEST(heap_check_is_linear_in_the_storage)
{
    uint32_t small = heap_check_cost(HEAP_SMALL);
    uint32_t large = heap_check_cost(16u * HEAP_SMALL);
    stow_test_print("heap check: ");
    stow_test_print_u(small);
    stow_test_print(" instructions for 8 KiB, ");
    stow_test_print_u(large);
    stow_test_print(" for 128 KiB\n");
    CHECK(small != 0u && large != 0u);
    CHECK_LE(large, 2u * 16u * small);
}

int main(void)
{
    stow_test_print("stow bounds, check level ");
    stow_test_print_u(STOW_CHECK_LEVEL);
    stow_test_print("\n");
    RUN(arena_check_is_linear_in_the_blocks);
    RUN(heap_calls_cost_the_same_on_a_small_and_a_large_heap);
    RUN(heap_region_lookup_costs_a_comparison_per_region);
    RUN(heap_check_is_linear_in_the_storage);
    return stow_test_finish();
}
