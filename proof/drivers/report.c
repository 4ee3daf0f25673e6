/* SPDX-License-Identifier: MIT */
/* proof/drivers/report.c - the registry, the budgets and the report over any
 * statistics a container can give.
 *
 * The registry's static part (what the DEFINEs put in the linker section, with
 * a zero a linker may pad it with) holds a pool and an arena, the real
 * modules, each in a state a few calls made; or it is absent, as in a program
 * without DEFINEs or budgets (both ends NULL). Added at run time, in any order:
 * two entries for containers of a kind the driver defines, whose stats()
 * answers any numbers at all (every size_t, every uint32_t, in items or in
 * bytes) at every call and whose check() answers either way, so that whatever
 * a module can report, the report's arithmetic and layout are analysed for it;
 * one is counted in a subsystem with a budget ("net", which has two budgets:
 * the first counts) with a storage of 0, 37 (over that budget with the pool) or
 * SIZE_MAX bytes; the other in no subsystem or in "gfx" (a budget of 0 bytes).
 * Then any number of calls, each chosen freely: adding either entry (again, or
 * for a container already registered, which changes nothing), each() (which
 * must visit exactly the registered containers, the static ones first, then the
 * added ones newest first), budget_each() and the budget check (whose verdict
 * the driver computes), the report to the console or to a writer, as a table
 * or as CSV, and the number printers with any value and any width (and
 * stow_format_u's digits for 0 and UINT64_MAX). At levels 1 and 2 also the
 * misuses those levels catch (NULL callbacks and arguments), each of which
 * must be reported, and changes nothing.
 *
 * The inline calls of stow/report.h (stow_report(), stow_registry_add()...)
 * only build the view of the linker's sections and pass it to the calls
 * analysed here; the driver passes its own arrays instead.
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
static int others[2];
static const stow_registry_entry_t pool_entry = {"pool", "net", &stow_registry_kind_pool, &pool,
                                                 sizeof pool_buf, NULL};
static const stow_registry_entry_t arena_entry = {"arena", "", &stow_registry_kind_arena, &arena,
                                                  sizeof arena_buf, NULL};
/* the static array, with a zero a linker may pad it with */
static const stow_registry_entry_t *const entries[] = {&pool_entry, NULL, &arena_entry};
static const stow_budget_t net = {"net", 100u}, net_again = {"net", 7u}, gfx = {"gfx", 0u};
static const stow_budget_t *const budgets[] = {&net, NULL, &net_again, &gfx};
static stow_registry_entry_t added[2];

/* The model: the added entries, newest first (list[0 .. listed)), the
 * container each holds (0, 1: others[0], others[1]; 2: the pool), the storage
 * entry 0 was added with and the subsystem of entry 1 ("gfx" or none). */
static const size_t storages[] = {0u, 37u, SIZE_MAX};
static uint32_t listed, list[2], holds[2], storage0, gfx1;
static bool statics; /* the static arrays are there */

static const void *container_of(uint32_t x)
{
    return x == 2u ? (const void *)&pool : (const void *)&others[x];
}

static bool model_listed(uint32_t i)
{
    return (listed > 0u && list[0] == i) || (listed > 1u && list[1] == i);
}

/* Whether container x is registered: the pool statically, or by an entry. */
static bool model_registered(uint32_t x)
{
    return (x == 2u && statics) || (model_listed(0u) && holds[0] == x) ||
           (model_listed(1u) && holds[1] == x);
}

/* What each() must visit, in order, and what it did. */
static const stow_registry_entry_t *expect[4];
static uint32_t expected, seen;

static void visit_entry(const stow_registry_entry_t *e, void *ctx)
{
    //@ assert each_in_order: seen < expected && e == expect[seen];
    //@ assert each_ctx: ctx == &seen;
    seen++;
}

static void visit_budget(const stow_budget_t *b, void *ctx)
{
    //@ assert budget_each_skips_zeroes: b == &net || b == &net_again || b == &gfx;
    (void)b;
    (void)ctx;
    seen++;
}

static void writer(void *ctx, const char *text, size_t len)
{
    //@ assert writer_gets_text: len == 0 || \valid_read(text + (0 .. len - 1));
    //@ assert writer_ctx: ctx == &seen;
    (void)text;
    (void)len;
}

/* The budget check's verdict: each subsystem with a budget (its first) holds
 * no more storage than the budget, summed as the library sums it. */
static bool model_budgets_hold(void)
{
    uint64_t net_bytes = sizeof pool_buf, gfx_bytes = 0u;
    //@ loop unroll 3;
    for (uint32_t k = 0u; k < listed; k++) {
        if (list[k] == 0u) {
            net_bytes += storages[storage0];
        } else if (gfx1 != 0u) {
            gfx_bytes += 8u;
        }
    }
    return !statics || (net_bytes <= 100u && gfx_bytes == 0u);
}

enum { ADD, EACH, REPORT, BUDGETS, PRINT, MISUSE, OPS };

int main(void)
{
    stow__registry_view_t view = {entries, entries + 3, budgets, budgets + 4};
    uint32_t none;

    if (!stow_pool_init(&pool, pool_buf, sizeof pool_buf, 8u, 8u, 4u) ||
        !stow_arena_init(&arena, arena_buf, sizeof arena_buf)) {
        return 0;
    }
    (void)stow_pool_alloc(&pool);
    none = ANY(0u, 1u);
    //@ split none;
    statics = none == 0u;
    if (!statics) {
        view.entries = NULL; /* a program without DEFINEs or budgets: both ends NULL */
        view.entries_end = NULL;
        view.budgets = NULL;
        view.budgets_end = NULL;
    }
    proof_assert_count = 0u;
    while (ANY_BOOL()) {
        /* every variable of one call lives in this block */
        uint32_t op, i, c, s, misuse = 0u, shape;
        bool ok;
        op = ANY(0u, OPS - 1u);
        //@ split op;
        switch (op) {
        case ADD: { /* entry i, for its own container, another's, or the pool (static) */
            uint32_t x;
            i = ANY(0u, 1u);
            c = ANY(0u, 1u);
            s = ANY(0u, 2u);
            //@ split i;
            //@ split c;
            //@ split s;
            /* the container: entry 0's own (0), entry 1's own (1), or the pool (2);
             * entry 0 takes its own or the pool, entry 1 any of the three */
            x = c == 0u ? i : (i == 0u || s == 2u ? 2u : 0u);
            if (i == 0u) {
                stow__registry_add(&view, &added[0], &any_items, container_of(x), "added one", "net",
                                   storages[s]);
            } else {
                stow__registry_add(&view, &added[1], &any_bytes, container_of(x), "second",
                                   s != 0u ? "gfx" : NULL, 8u);
            }
            /* the model: added unless entry i or its container is registered */
            if (!model_listed(i) && !model_registered(x)) {
                list[1] = list[0];
                list[0] = i;
                listed++;
                holds[i] = x;
                if (i == 0u) {
                    storage0 = s;
                } else {
                    gfx1 = s != 0u ? 1u : 0u;
                }
            }
            break;
        }
        case EACH: { /* the static entries in order, then the added ones, newest first */
            uint32_t n = 0u;
            if (statics) {
                expect[n++] = &pool_entry;
                expect[n++] = &arena_entry;
            }
            //@ loop unroll 3;
            for (uint32_t k = 0u; k < listed; k++) {
                expect[n++] = &added[list[k]];
            }
            expected = n;
            seen = 0u;
            stow__registry_each(&view, visit_entry, &seen);
            //@ assert each_visits_all: seen == expected;
            break;
        }
        case REPORT: /* to the console or a writer, as a table or as CSV */
            c = ANY(0u, 3u);
            if (c < 2u) {
                (void)stow__report(&view, c != 0u);
            } else {
                (void)stow__report_to(&view, c != 2u, writer, &seen);
            }
            break;
        case BUDGETS: {
            bool want = model_budgets_hold();
            seen = 0u;
            stow__budget_each(&view, visit_budget, NULL);
            //@ assert budget_each_visits_all: seen == (statics ? 3 : 0);
            ok = stow__budget_check(&view);
            //@ assert budget_check_as_modelled: ok == want;
            break;
        }
        case PRINT: {
            char out[STOW_FORMAT_U_MAX];
            size_t n = stow_format_u(out, Frama_C_unsigned_long_long_interval(0u, UINT64_MAX));
            //@ assert digits: 1 <= n <= STOW_FORMAT_U_MAX;
            n = stow_format_u(out, 0u);
            //@ assert zero: n == 1 && out[0] == '0';
            n = stow_format_u(out, UINT64_MAX);
            //@ assert largest: n == 20 && out[0] == '1' && out[19] == '5';
            stow_print_u(Frama_C_unsigned_long_long_interval(0u, UINT64_MAX), ANY(0u, 100u));
            stow_print(ANY_BOOL() ? "text" : NULL);
            break;
        }
        default: /* MISUSE */
#if STOW_CHECK_LEVEL >= 1
            stow__registry_each(&view, NULL, NULL);
            stow__budget_each(&view, NULL, NULL);
            (void)stow__report_to(&view, false, NULL, NULL);
            stow__registry_add(&view, NULL, &any_items, &others[0], "x", NULL, 0u);
            stow__registry_add(&view, &added[0], NULL, &others[0], "x", NULL, 0u);
            stow__registry_add(&view, &added[0], &any_items, NULL, "x", NULL, 0u);
            stow__registry_add(&view, &added[0], &any_items, &others[0], NULL, NULL, 0u);
            misuse = 7u;
#endif
            break;
        }
        //@ assert contract_checks: proof_assert_count == misuse;
        /* one state per list of added entries and what they were added with */
        shape = ((((listed * 2u + list[0]) * 2u + list[1]) * 3u + holds[0]) * 3u + holds[1]) * 3u + storage0;
        shape = shape * 2u + gfx1;
        //@ split shape;
        //@ merge op;
        proof_assert_count = 0u;
    }
    return 0;
}
