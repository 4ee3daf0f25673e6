/* SPDX-License-Identifier: MIT */
/* tests/link/firmware/main.c - a firmware built the way a user outside the stow
 * tree builds one: its own linker script (app-*.ld here), stow's headers,
 * sources and fragment found through -I and -L, the library port, and for the
 * test only, semihosting output.
 *
 * It takes every byte of one arena and every block of one pool, writes and
 * reads back a pattern through all of it (so the memory is really there), and
 * checks that both lie in the output section where the script under test says
 * they must: the script defines app_arena_lo/hi and app_pool_lo/hi. Ends with
 * "N passed, N failed" and status 0 when nothing failed.
 */
#include "stow/stow.h"

#ifndef APP_ARENA_BYTES
#define APP_ARENA_BYTES 65536u
#endif
#define APP_MSG_COUNT 64u

struct app_msg {
    uint32_t id;
    unsigned char body[60];
};

STOW_ARENA_DEFINE(app_scratch, APP_ARENA_BYTES);
STOW_POOL_DEFINE(app_msgs, struct app_msg, APP_MSG_COUNT);

/* Read at run time, so that the code is the same whatever the capacity and a
 * control image with a tiny arena has exactly as much to flash. */
static volatile size_t arena_bytes = APP_ARENA_BYTES;

extern unsigned char app_arena_lo[], app_arena_hi[], app_pool_lo[], app_pool_hi[];

static unsigned passed, failed;

static void print(const char *text)
{
    size_t n = 0u;
    while (text[n] != '\0') {
        n++;
    }
    stow_port_write(text, n);
}

static void print_u(uint32_t value)
{
    char digits[10];
    size_t at = sizeof digits;
    do {
        digits[--at] = (char)('0' + (char)(value % 10u));
        value /= 10u;
    } while (value != 0u);
    stow_port_write(&digits[at], sizeof digits - at);
}

static void check(int ok, const char *what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        print("FAIL ");
        print(what);
        print("\n");
    }
}

static int inside(const unsigned char *p, size_t n, const unsigned char *lo, const unsigned char *hi)
{
    return p != NULL && p >= lo && n <= (size_t)(hi - p);
}

/* Writes a pattern through [p, p + n) and reads it back. */
static int pattern_holds(unsigned char *p, size_t n, uint32_t seed)
{
    volatile unsigned char *v = p;
    size_t i;
    for (i = 0u; i < n; i++) {
        v[i] = (unsigned char)(seed + i * 7u);
    }
    for (i = 0u; i < n; i++) {
        if (v[i] != (unsigned char)(seed + i * 7u)) {
            return 0;
        }
    }
    return 1;
}

int main(void)
{
    size_t bytes = arena_bytes;
    unsigned char *all = (unsigned char *)stow_arena_alloc(&app_scratch, bytes, 1u);
    unsigned i;
    int in_pool = 1;
    int held = 1;

    check(all != NULL, "the arena hands out its whole capacity");
    check(inside(all, bytes, app_arena_lo, app_arena_hi),
          "the arena's storage lies in the expected output section");
    check(all != NULL && pattern_holds(all, bytes, 0x5Au), "the arena's storage is RAM");

    for (i = 0u; i < APP_MSG_COUNT; i++) {
        struct app_msg *m = STOW_POOL_NEW(&app_msgs, struct app_msg);
        if (m == NULL) {
            in_pool = 0;
            break;
        }
        in_pool = in_pool && inside((unsigned char *)m, sizeof *m, app_pool_lo, app_pool_hi);
        held = held && pattern_holds((unsigned char *)m, sizeof *m, i);
    }
    check(in_pool, "every pool block lies in the expected output section");
    check(held, "the pool's storage is RAM");
    check(stow_pool_alloc(&app_msgs) == NULL, "the pool holds exactly its capacity");
    check(stow_arena_check(&app_scratch) && stow_pool_check(&app_msgs), "both containers check");

    print_u(passed);
    print(" passed, ");
    print_u(failed);
    print(" failed\n");
    return failed == 0u ? 0 : 1;
}
