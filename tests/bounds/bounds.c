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
 * Prints a line per measure and "N passed, N failed"; exits 1 on any failure.
 */
#include "stow/stow.h"

#define SMALL 16u
#define LARGE 256u
#define BLOCK_BYTES 16u

static stow_arena_t blocks[LARGE];
static _Alignas(16) unsigned char storage[LARGE][BLOCK_BYTES];
static unsigned passed;
static unsigned failed;

static void print(const char *text)
{
    size_t n = 0u;
    while (text[n] != '\0') {
        n++;
    }
    stow_port_write(text, n);
}

static void print_u32(uint32_t v)
{
    char digits[12];
    size_t at = sizeof digits;
    do {
        digits[--at] = (char)('0' + (char)(v % 10u));
        v /= 10u;
    } while (v != 0u);
    stow_port_write(&digits[at], sizeof digits - at);
}

static void verdict(int ok, const char *what)
{
    print(ok ? "ok   " : "FAIL ");
    print(what);
    print("\n");
    if (ok) {
        passed++;
    } else {
        failed++;
    }
}

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

int main(void)
{
    print("stow bounds, check level ");
    print_u32(STOW_CHECK_LEVEL);
    print("\n");

    uint32_t small = arena_check_cost(SMALL);
    uint32_t large = arena_check_cost(LARGE);
    print("arena check: ");
    print_u32(small);
    print(" instructions for ");
    print_u32(SMALL);
    print(" blocks, ");
    print_u32(large);
    print(" for ");
    print_u32(LARGE);
    print("\n");
    verdict(small != 0u && large != 0u, "arena check: the chains are sound");
    verdict(small != 0u && large <= 2u * (LARGE / SMALL) * small,
            "arena check: O(blocks) (16x the blocks cost at most 32x the instructions)");

    print_u32(passed);
    print(" passed, ");
    print_u32(failed);
    print(" failed\n");
    return failed == 0u ? 0 : 1;
}
