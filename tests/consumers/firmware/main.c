/* SPDX-License-Identifier: MIT */
/* A consumer firmware: what a team writes after adding stow to its build, built
 * with CMake (add_subdirectory, STOW_CHECK_LEVEL=2 set by the firmware's
 * CMakeLists.txt; FetchContent; find_package of an installed copy) and against
 * an installed copy with pkg-config, for every installed ABI: Cortex-M soft and
 * hard float, RV32. A hard-float build also checks a float computed through the
 * VFP registers (the FPU is switched on first). budgets.h is its budget list
 * (stow_check_budgets in the CMake builds).
 *
 * Each check prints "ok <what>" or "FAIL <what>"; the last line is
 * "N passed, N failed" and the exit status is the number failed.
 */
#include "stow/stow.h"

/* The level the build system asked for reaches this file... */
#if STOW_CHECK_LEVEL != 2
#error "STOW_CHECK_LEVEL=2 should reach every user of stow"
#endif

struct msg {
    uint32_t id;
    uint8_t body[12];
};

STOW_POOL_DEFINE(msg_pool, struct msg, 8);
STOW_ARENA_DEFINE(scratch, 256);
/* A subsystem with a budget (budgets.h). */
STOW_ARENA_DEFINE_IN(ui, ui_text, 128);
#include "budgets.h"

/* Both ends of the storage the linker fragment gathered. */
extern uint8_t __stow_start[];
extern uint8_t __stow_end[];

static unsigned violations;

/* The firmware's own contract-violation hook (it replaces the port's): count and
 * go on, so that the firmware can check that the library noticed. */
void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    (void)expr;
    (void)file;
    (void)line;
    violations++;
}

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

static void print_u(unsigned value)
{
    char digits[12];
    size_t at = sizeof digits;
    do {
        digits[--at] = (char)('0' + (char)(value % 10u));
        value /= 10u;
    } while (value != 0u);
    stow_port_write(&digits[at], sizeof digits - at);
}

static void check(bool ok, const char *what)
{
    print(ok ? "ok " : "FAIL ");
    print(what);
    print("\n");
    if (ok) {
        passed++;
    } else {
        failed++;
    }
}

#if defined(__ARM_PCS_VFP)
/* Hard float: float arguments and results travel in VFP registers (s0, s1), which
 * a library built for soft float would not read. */
__attribute__((noinline)) static float scale(float x, float by)
{
    return x * by;
}

__attribute__((noinline)) static void check_hard_float(void)
{
    volatile float three = 3.0f;
    check(scale(three, 2.5f) == 7.5f, "hard float: 3 x 2.5 through the VFP registers is 7.5");
}

/* The FPU is off at reset: CPACR gives CP10 and CP11 full access. Before any
 * floating-point instruction, so in a function of its own ahead of them. */
static void fpu_on(void)
{
    *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
    __asm__ volatile("dsb\n\tisb" : : : "memory");
}
#endif

static bool in_stow_section(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    return a >= (uintptr_t)__stow_start && a < (uintptr_t)__stow_end;
}

int main(void)
{
    struct msg *m[8];
    struct msg *extra;
    uint8_t *bytes;
    bool all = true;
    unsigned i;

#if defined(__ARM_PCS_VFP)
    fpu_on();
    check_hard_float();
#endif
    for (i = 0u; i < 8u; i++) {
        m[i] = STOW_POOL_NEW(&msg_pool, struct msg);
        all = all && m[i] != NULL && in_stow_section(m[i]);
        if (m[i] != NULL) {
            m[i]->id = i;
        }
    }
    check(all, "pool: 8 blocks, all inside the linker fragment's section");
    extra = STOW_POOL_NEW(&msg_pool, struct msg);
    check(extra == NULL, "pool: the 9th alloc returns NULL");

    stow_pool_free(&msg_pool, m[3]);
    check(violations == 0u, "pool: a free is no violation");
    stow_pool_free(&msg_pool, m[3]);
    /* Only level 2 detects a double free: the library was built at level 2 too. */
    check(violations == 1u, "pool: the library, built at level 2, reports a double free");
    check(stow_pool_used(&msg_pool) == 7u, "pool: the double free changed nothing");

    bytes = STOW_ARENA_NEW_ARRAY(&scratch, uint8_t, 100);
    check(bytes != NULL && in_stow_section(bytes) && bytes[0] == 0u && bytes[99] == 0u,
          "arena: 100 zeroed bytes inside the fragment's section");
    stow_arena_reset(&scratch);
    check(stow_arena_used(&scratch) == 0u, "arena: reset");
    bytes = STOW_ARENA_NEW_ARRAY(&ui_text, uint8_t, 100);
    check(bytes != NULL && in_stow_section(bytes), "arena in subsystem ui: inside the fragment's section");

    print_u(passed);
    print(" passed, ");
    print_u(failed);
    print(" failed\n");
    return (int)failed;
}
