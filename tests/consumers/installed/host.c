/* SPDX-License-Identifier: MIT */
/* A consumer C program built against an installed stow, with pkg-config:
 *     cc $(pkg-config --cflags stow) host.c $(pkg-config --libs stow)
 * and with CMake (CMakeLists.txt here: find_package(stow), stow::stow).
 * stow was installed with STOW_CHECK_LEVEL=2, and stow.pc's Cflags (or the
 * options stow::stow brings, through stow/build_check.h) must say so.
 * Prints "ok"/"FAIL" per check and ends with "N passed, N failed".
 */
#include <stdio.h>

#include "stow/stow.h"

#if STOW_CHECK_LEVEL != 2
#error "stow.pc's Cflags (or stow::stow) should carry the level the library was installed with (2)"
#endif

struct job {
    int id;
    double cost;
};

STOW_POOL_DEFINE_STATIC(jobs, struct job, 16);
STOW_GENPOOL_DEFINE_STATIC(tasks, struct job, 8);

static int passed;
static int failed;
static int violations;

/* Replaces the installed port's hook (which aborts): count and go on. */
void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    (void)file;
    (void)line;
    printf("   (assert hook: %s)\n", expr);
    violations++;
}

static void check(bool ok, const char *what)
{
    printf("%s %s\n", ok ? "ok" : "FAIL", what);
    if (ok) {
        passed++;
    } else {
        failed++;
    }
}

int main(void)
{
    struct job *j = STOW_POOL_NEW(&jobs, struct job);
    struct job t = {7, 1.5};
    stow_handle_t h;
    struct job *got;

    check(j != NULL, "pool: a block from the installed library");
    stow_pool_free(&jobs, j);
    stow_pool_free(&jobs, j);
    check(violations == 1, "pool: the installed library (level 2) reports a double free");

    h = stow_genpool_insert(&tasks, &t);
    got = stow_genpool_get(&tasks, h);
    check(got != NULL && got->id == 7, "genpool: insert and get");
    check(stow_genpool_remove(&tasks, h) && stow_genpool_get(&tasks, h) == NULL,
          "genpool: a removed handle is stale");

    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
