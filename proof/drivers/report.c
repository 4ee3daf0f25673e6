/* SPDX-License-Identifier: MIT */
/* proof/drivers/report.c - the report, the registry and the budgets over any
 * statistics a container can give.
 *
 * The registry holds a pool and an arena (the real modules, in some state the
 * driver reaches with a few calls) and a container of a kind the driver defines,
 * whose stats() answers any numbers at all (every size_t, every uint32_t, in
 * bytes or in items) and whose check() answers either way, with any storage
 * size: whatever a module can report, the report's arithmetic and layout are
 * analysed for it. Two budgets name one subsystem (the first counts) and one
 * names another. Then any number of calls, each chosen freely: registering a
 * container (again, or a new one), each(), budget_each(), the report to the
 * console or to a writer, in a table or as CSV, the budget check, and the
 * number printers with any value and any width. At levels 1 and 2 also the
 * misuses those levels catch (NULL callbacks and arguments), each of which must
 * be reported.
 */
#include "stow/arena.h"
#include "stow/pool.h"
#include "stow/report.h"
#include "proof.h"

static void any_stats(const void *c, stow_stats_t *out)
{
    (void)c;
    out->capacity = Frama_C_size_t_interval(0u, SIZE_MAX);
    out->used = Frama_C_size_t_interval(0u, SIZE_MAX);
    out->peak = Frama_C_size_t_interval(0u, SIZE_MAX);
    out->fails = ANY(0u, UINT32_MAX);
}

static bool any_check(const void *c)
{
    (void)c;
    return ANY_BOOL();
}

static const stow_registry_kind_t any_items = {"any", any_stats, any_check, false};
static const stow_registry_kind_t any_bytes = {"anybytes", any_stats, any_check, true};

static stow_pool_t pool;
static stow_arena_t arena;
static unsigned char pool_buf[64] __attribute__((aligned(16)));
static unsigned char arena_buf[32];
static int other;
static const stow_registry_entry_t pool_entry = {"pool", "net", &stow_registry_kind_pool, &pool,
                                                 sizeof pool_buf, NULL};
static const stow_registry_entry_t arena_entry = {"arena", "", &stow_registry_kind_arena, &arena,
                                                  sizeof arena_buf, NULL};
/* the static array, with a zero a linker may pad it with */
static const stow_registry_entry_t *const entries[] = {&pool_entry, NULL, &arena_entry};
static const stow_budget_t net = {"net", 100u}, net_again = {"net", 7u}, gfx = {"gfx", 0u};
static const stow_budget_t *const budgets[] = {&net, NULL, &net_again, &gfx};
static stow_registry_entry_t added[2];

static uint32_t seen;
static void count_entry(const stow_registry_entry_t *e, void *ctx)
{
    (void)e;
    (void)ctx;
    seen++;
}
static void count_budget(const stow_budget_t *b, void *ctx)
{
    (void)b;
    (void)ctx;
    seen++;
}
static void writer(void *ctx, const char *text, size_t len)
{
    //@ assert writer_gets_text: len == 0 || \valid_read(text + (0 .. len - 1));
    (void)ctx;
    (void)text;
    (void)len;
}

enum { ADD, EACH, REPORT, REPORT_TO, BUDGETS, PRINT, MISUSE, OPS };

int main(void)
{
    stow__registry_view_t view = {entries, entries + 3, budgets, budgets + 4};
    uint32_t op, i, misuse;
    bool csv;
    char out[STOW_FORMAT_U_MAX];
    size_t n;

    if (!stow_pool_init(&pool, pool_buf, sizeof pool_buf, 8u, 8u, 4u) ||
        !stow_arena_init(&arena, arena_buf, sizeof arena_buf)) {
        return 0;
    }
    (void)stow_pool_alloc(&pool);
    i = ANY(0u, 1u);
    //@ split i;
    if (i != 0u) {
        view.entries = NULL; /* a program without DEFINEs or budgets: both ends NULL */
        view.entries_end = NULL;
        view.budgets = NULL;
        view.budgets_end = NULL;
    }
    while (ANY_BOOL()) {
        op = ANY(0u, OPS - 1u);
        //@ split op;
        proof_assert_count = 0u;
        misuse = 0u;
        switch (op) {
        case ADD: /* one of two entries, for a container of any kind, any storage */
            i = ANY(0u, 1u);
            stow__registry_add(&view, &added[i], ANY_BOOL() ? &any_items : &any_bytes,
                               ANY_BOOL() ? (const void *)&other : (const void *)&pool, "added",
                               ANY_BOOL() ? "net" : NULL, Frama_C_size_t_interval(0u, SIZE_MAX));
            break;
        case EACH:
            seen = 0u;
            stow__registry_each(&view, count_entry, NULL);
            //@ assert each_bounded: seen <= 4;
            break;
        case REPORT:
            (void)stow__report(&view, ANY_BOOL());
            break;
        case REPORT_TO:
            (void)stow__report_to(&view, ANY_BOOL(), writer, NULL);
            break;
        case BUDGETS:
            seen = 0u;
            stow__budget_each(&view, count_budget, NULL);
            (void)stow__budget_check(&view);
            break;
        case PRINT:
            n = stow_format_u(out, Frama_C_unsigned_long_long_interval(0u, UINT64_MAX));
            //@ assert digits: 1 <= n <= STOW_FORMAT_U_MAX;
            stow_print_u(Frama_C_unsigned_long_long_interval(0u, UINT64_MAX), ANY(0u, 100u));
            stow_print(ANY_BOOL() ? "text" : NULL);
            break;
        default: /* MISUSE */
#if STOW_CHECK_LEVEL >= 1
            stow__registry_each(&view, NULL, NULL);
            misuse++;
            stow__budget_each(&view, NULL, NULL);
            misuse++;
            (void)stow__report_to(&view, false, NULL, NULL);
            misuse++;
            stow__registry_add(&view, NULL, &any_items, &other, "x", NULL, 0u);
            misuse++;
            stow__registry_add(&view, &added[0], &any_items, &other, NULL, NULL, 0u);
            misuse++;
#endif
            break;
        }
        //@ assert contract_checks: proof_assert_count == misuse;
        /* one state per shape of the list of added entries */
        i = (added[0].kind != NULL) + 2u * (added[1].kind != NULL) + 4u * (added[0].next == &added[1]) +
            8u * (added[1].next == &added[0]);
        //@ split i;
        //@ merge op;
    }
    return 0;
}
