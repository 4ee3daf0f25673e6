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

int main(void)
{
    stow_test_print("stow bounds, check level ");
    stow_test_print_u(STOW_CHECK_LEVEL);
    stow_test_print("\n");
    RUN(arena_check_is_linear_in_the_blocks);
    return stow_test_finish();
}
