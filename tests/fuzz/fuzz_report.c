/* SPDX-License-Identifier: MIT */
/* fuzz_report.c - the registry and the memory report against the containers
 * themselves. See fuzz.h.
 *
 * The input drives the six kinds of container (DEFINE'd in two subsystems and in
 * none), registers pools set up with init (some with NULL arguments, some twice,
 * some into a subsystem whose budget they then overrun), and asks for the report,
 * as CSV and as a table, and for stow_budget_check(). The CSV is read back and
 * every number compared with what the containers' own stats() and check() say
 * at that moment, with the storage each was registered with, with the sums per
 * subsystem and overall, and with the budgets. The model is the set of entries
 * the registry must hold: the registry is never emptied, so the model lives as
 * long as the process, across inputs, while the containers are reset for each
 * input.
 */
#include <string.h>

#include "fuzz.h"

#define BUDGET_A 4096u
#define BUDGET_B 200u
#define INIT_POOLS 4u
/* A pool of 12 blocks of 8 bytes, each buffer 16-aligned; two of them and the
 * arena overrun BUDGET_B. */
#define INIT_POOL_BYTES ((STOW_POOL_BYTES(8, 8, 12) + 15u) & ~(size_t)15u)

STOW_POOL_DEFINE_IN(fz_a, fz_pool, uint64_t, 8);
STOW_HEAP_DEFINE_IN(fz_a, fz_heap, 1024);
STOW_ARENA_DEFINE_IN(fz_b, fz_arena, 64);
STOW_GENPOOL_DEFINE(fz_genpool, uint32_t, 8);
STOW_SLOTMAP_DEFINE_STATIC(fz_map, uint64_t, 4);
STOW_PACKED_DEFINE_STATIC_IN(fz_c, fz_packed, uint16_t, 6);
STOW_BUDGET(fz_a, 4096)
STOW_BUDGET(fz_b, 200)
STOW_BUDGET(fz_unused, 10)

static _Alignas(16) unsigned char init_buf[INIT_POOLS][INIT_POOL_BYTES];
static stow_pool_t init_pool[INIT_POOLS];
static stow_registry_entry_t init_entry[INIT_POOLS];
static const char *const init_name[INIT_POOLS] = {"rx0", "rx1", "rx2", "rx3"};

/* ---- the model: what the registry holds ------------------------------------------ */

typedef struct {
    const char *name, *subsystem, *kind;
    const void *container;
    size_t storage;
} want_t;

#define WANT_MAX (6u + INIT_POOLS)
static want_t want[WANT_MAX];
static unsigned nwant;
static bool entry_used[INIT_POOLS];
static bool pool_registered[INIT_POOLS];

static void want_add(const char *name, const char *subsystem, const char *kind, const void *c,
                     size_t storage)
{
    want[nwant++] = (want_t){name, subsystem, kind, c, storage};
}

static void model_start(void)
{
    if (nwant != 0u) {
        return;
    }
    want_add("fz_pool", "fz_a", "pool", &fz_pool, sizeof stow__pool_buf_fz_pool);
    want_add("fz_heap", "fz_a", "heap", &fz_heap, sizeof stow__heap_buf_fz_heap);
    want_add("fz_arena", "fz_b", "arena", &fz_arena, sizeof stow__arena_buf_fz_arena);
    want_add("fz_genpool", "", "genpool", &fz_genpool, sizeof stow__genpool_buf_fz_genpool);
    want_add("fz_map", "", "slotmap", &fz_map, sizeof stow__slotmap_buf_fz_map);
    want_add("fz_packed", "fz_c", "packed", &fz_packed, sizeof stow__packed_buf_fz_packed);
    for (unsigned i = 0; i < INIT_POOLS; i++) {
        FZ_CHECK(stow_pool_init(&init_pool[i], init_buf[i], sizeof init_buf[i], 8, 8, 12));
    }
}

static const want_t *want_of(const void *container)
{
    for (unsigned i = 0; i < nwant; i++) {
        if (want[i].container == container) {
            return &want[i];
        }
    }
    return NULL;
}

/* ---- the containers' side ---------------------------------------------------------- */

static void *pool_live[8];
static void *heap_live[8];
static stow_handle_t gen_live[8];
static stow_handle_t map_live[4];

static void reset_containers(void)
{
    stow_pool_reset(&fz_pool);
    for (unsigned i = 0; i < 8u; i++) {
        if (heap_live[i] != NULL) {
            stow_heap_free(&fz_heap, heap_live[i]);
        }
        pool_live[i] = heap_live[i] = NULL;
        gen_live[i] = STOW_HANDLE_NULL;
    }
    stow_arena_reset(&fz_arena);
    stow_genpool_clear(&fz_genpool);
    stow_slotmap_clear(&fz_map);
    for (unsigned i = 0; i < 4u; i++) {
        map_live[i] = STOW_HANDLE_NULL;
    }
    stow_packed_clear(&fz_packed);
    for (unsigned i = 0; i < INIT_POOLS; i++) {
        stow_pool_reset(&init_pool[i]);
    }
}

static void churn(uint8_t op)
{
    unsigned k = fz_below(8);
    switch (op) {
    case 0:
        if (pool_live[k] == NULL) {
            FZ_QUIET(pool_live[k] = stow_pool_alloc(&fz_pool));
        } else {
            FZ_QUIET(stow_pool_free(&fz_pool, pool_live[k]));
            pool_live[k] = NULL;
        }
        break;
    case 1:
        if (heap_live[k] == NULL) {
            FZ_QUIET(heap_live[k] = stow_heap_alloc(&fz_heap, fz_below(300)));
        } else {
            FZ_QUIET(stow_heap_free(&fz_heap, heap_live[k]));
            heap_live[k] = NULL;
        }
        break;
    case 2:
        if (k == 0u) {
            FZ_QUIET(stow_arena_reset(&fz_arena));
        } else {
            FZ_QUIET((void)stow_arena_alloc(&fz_arena, fz_below(40), (size_t)1 << fz_below(4)));
        }
        break;
    case 3:
        if (stow_handle_is_null(gen_live[k])) {
            uint32_t v = fz_u32();
            FZ_QUIET(gen_live[k] = stow_genpool_insert(&fz_genpool, &v));
        } else {
            FZ_QUIET((void)stow_genpool_remove(&fz_genpool, gen_live[k]));
            gen_live[k] = STOW_HANDLE_NULL;
        }
        break;
    case 4:
        k &= 3u;
        if (stow_handle_is_null(map_live[k])) {
            uint64_t v = fz_u32();
            FZ_QUIET(map_live[k] = stow_slotmap_insert(&fz_map, &v));
        } else {
            FZ_QUIET((void)stow_slotmap_remove(&fz_map, map_live[k]));
            map_live[k] = STOW_HANDLE_NULL;
        }
        break;
    case 5:
        if (k == 0u) {
            FZ_QUIET(stow_packed_clear(&fz_packed));
        } else {
            FZ_QUIET((void)stow_packed_push(&fz_packed));
        }
        break;
    default: { /* the pools set up with init */
        stow_pool_t *p = &init_pool[k % INIT_POOLS];
        void *b = NULL;
        FZ_QUIET(b = stow_pool_alloc(p));
        if (b != NULL && fz_u8() < 64u) {
            FZ_QUIET(stow_pool_free(p, b));
        }
        break;
    }
    }
}

/* Registers init pool `pool` through entry `entry`, or passes a NULL argument
 * (how): the registry must take a new pair, ignore an entry or a container it
 * has, and report a NULL without changing. */
static void do_register(void)
{
    unsigned entry = fz_below(INIT_POOLS), pool = fz_below(INIT_POOLS);
    uint8_t how = fz_u8() % 8u;
    const char *subsystem = fz_u8() < 128u ? "fz_b" : NULL;
    stow_registry_entry_t *e = how == 1u ? NULL : &init_entry[entry];
    const stow_registry_kind_t *kind = how == 2u ? NULL : &stow_registry_kind_pool;
    const void *c = how == 3u ? NULL : &init_pool[pool];
    const char *name = how == 4u ? NULL : init_name[pool];
    bool violation = how >= 1u && how <= 4u;
    fz_watch_none();
    fz_watch(init_entry, sizeof init_entry);
    FZ_CALL(violation, stow_registry_add(e, kind, c, name, subsystem, sizeof init_buf[pool]));
    if (!violation && !entry_used[entry] && !pool_registered[pool]) {
        entry_used[entry] = pool_registered[pool] = true;
        want_add(init_name[pool], subsystem != NULL ? subsystem : "", "pool", &init_pool[pool],
                 sizeof init_buf[pool]);
    }
}

/* ---- reading the report back ------------------------------------------------------- */

#define OUT_MAX 8192u
static char out[OUT_MAX];
static size_t out_len;

static void to_buffer(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    FZ_CHECK(out_len + len < OUT_MAX);
    memcpy(out + out_len, text, len);
    out_len += len;
    out[out_len] = '\0';
}

/* Field `index` (0-based) of the CSV line at line, into buf. */
static const char *field(const char *line, unsigned index, char *buf, size_t size)
{
    for (unsigned i = 0; i < index; i++) {
        line = strchr(line, ',');
        FZ_CHECK(line != NULL);
        line++;
    }
    size_t n = strcspn(line, ",\n");
    FZ_CHECK(n < size);
    memcpy(buf, line, n);
    buf[n] = '\0';
    return buf;
}

static unsigned long long number(const char *line, unsigned index)
{
    char buf[32];
    field(line, index, buf, sizeof buf);
    FZ_CHECK(buf[0] != '\0' && strspn(buf, "0123456789") == strlen(buf));
    return strtoull(buf, NULL, 10);
}

static bool text_is(const char *line, unsigned index, const char *want_text)
{
    char buf[64];
    return strcmp(field(line, index, buf, sizeof buf), want_text) == 0;
}

typedef struct {
    const char *subsystem;
    unsigned long long storage, peak;
} sum_t;

static unsigned long long budget_of(const char *subsystem)
{
    if (strcmp(subsystem, "fz_a") == 0) {
        return BUDGET_A;
    }
    return strcmp(subsystem, "fz_b") == 0 ? BUDGET_B : 0u;
}

static void verify_report(void)
{
    bool ok_csv = false, ok_table = false;
    out_len = 0u;
    FZ_QUIET(ok_csv = stow_report_to(true, to_buffer, NULL));
    const char *line = out;
    static const char header[] =
        "record,name,kind,subsystem,capacity,used,peak,fails,storage,check,budget,peak_bytes\n";
    FZ_CHECK(strncmp(line, header, sizeof header - 1u) == 0);
    sum_t sums[WANT_MAX];
    unsigned nsums = 0u, seen = 0u, failed = 0u, over = 0u;
    unsigned long long storage = 0u, peak = 0u;
    bool seen_want[WANT_MAX] = {false};
    for (line = strchr(line, '\n') + 1; strncmp(line, "container,", 10) == 0;
         line = strchr(line, '\n') + 1) {
        char name[64];
        field(line, 1, name, sizeof name);
        const want_t *w = NULL;
        for (unsigned i = 0; i < nwant; i++) {
            if (strcmp(want[i].name, name) == 0) {
                w = &want[i];
                FZ_CHECK(!seen_want[i]);
                seen_want[i] = true;
            }
        }
        FZ_CHECK(w != NULL);
        /* the containers' own figures, through their own calls */
        stow_stats_t s;
        bool ok = false, in_bytes = false;
        if (strcmp(w->kind, "pool") == 0) {
            FZ_QUIET(stow_pool_stats((const stow_pool_t *)w->container, &s));
            FZ_QUIET(ok = stow_pool_check((const stow_pool_t *)w->container));
        } else if (strcmp(w->kind, "heap") == 0) {
            FZ_QUIET(stow_heap_stats(&fz_heap, &s));
            FZ_QUIET(ok = stow_heap_check(&fz_heap));
            in_bytes = true;
        } else if (strcmp(w->kind, "arena") == 0) {
            FZ_QUIET(stow_arena_stats(&fz_arena, &s));
            FZ_QUIET(ok = stow_arena_check(&fz_arena));
            in_bytes = true;
        } else if (strcmp(w->kind, "genpool") == 0) {
            FZ_QUIET(stow_genpool_stats(&fz_genpool, &s));
            FZ_QUIET(ok = stow_genpool_check(&fz_genpool));
        } else if (strcmp(w->kind, "slotmap") == 0) {
            FZ_QUIET(stow_slotmap_stats(&fz_map, &s));
            FZ_QUIET(ok = stow_slotmap_check(&fz_map));
        } else {
            FZ_QUIET(stow_packed_stats(&fz_packed, &s));
            FZ_QUIET(ok = stow_packed_check(&fz_packed));
        }
        FZ_CHECK(text_is(line, 2, w->kind) && text_is(line, 3, w->subsystem));
        FZ_EQ(number(line, 4), s.capacity);
        FZ_EQ(number(line, 5), s.used);
        FZ_EQ(number(line, 6), s.peak);
        FZ_EQ(number(line, 7), s.fails);
        FZ_EQ(number(line, 8), w->storage);
        FZ_CHECK(text_is(line, 9, ok ? "ok" : "FAILED") && text_is(line, 10, ""));
        unsigned long long pb = in_bytes ? s.peak
                                : s.capacity == 0u ? 0u
                                                   : (unsigned long long)w->storage * s.peak / s.capacity;
        FZ_EQ(number(line, 11), pb);
        failed += ok ? 0u : 1u;
        storage += w->storage;
        peak += pb;
        unsigned k = 0;
        while (k < nsums && strcmp(sums[k].subsystem, w->subsystem) != 0) {
            k++;
        }
        if (k == nsums) {
            sums[nsums++] = (sum_t){w->subsystem, 0u, 0u};
        }
        sums[k].storage += w->storage;
        sums[k].peak += pb;
        seen++;
    }
    FZ_EQ(seen, nwant);
    /* one line per subsystem, in the order of their first containers, then the
     * budget no container names */
    for (unsigned k = 0; k <= nsums; k++, line = strchr(line, '\n') + 1) {
        const char *sub = k < nsums ? sums[k].subsystem : "fz_unused";
        unsigned long long budget = k < nsums ? budget_of(sub) : 10u;
        unsigned long long sub_storage = k < nsums ? sums[k].storage : 0u;
        bool is_over = budget != 0u && sub_storage > budget;
        over += is_over ? 1u : 0u;
        FZ_CHECK(strncmp(line, "subsystem,", 10) == 0 && text_is(line, 1, sub));
        FZ_EQ(number(line, 8), sub_storage);
        FZ_CHECK(text_is(line, 9, is_over ? "OVER" : ""));
        if (budget != 0u) {
            FZ_EQ(number(line, 10), budget);
        } else {
            FZ_CHECK(text_is(line, 10, ""));
        }
        FZ_EQ(number(line, 11), k < nsums ? sums[k].peak : 0u);
    }
    FZ_CHECK(strncmp(line, "total,", 6) == 0);
    FZ_EQ(number(line, 8), storage);
    FZ_EQ(number(line, 9), failed);
    FZ_EQ(number(line, 11), peak);
    FZ_CHECK(*(strchr(line, '\n') + 1) == '\0');
    FZ_EQ(ok_csv, failed == 0u && over == 0u);

    /* the table: the same verdict, a row per container, the closing count */
    out_len = 0u;
    FZ_QUIET(ok_table = stow_report_to(false, to_buffer, NULL));
    FZ_EQ(ok_table, ok_csv);
    for (unsigned i = 0; i < nwant; i++) {
        char row[80];
        snprintf(row, sizeof row, "\n%s ", want[i].name);
        FZ_CHECK(strstr(out, row) != NULL);
    }
    char tail[80];
    snprintf(tail, sizeof tail, "\n%u checks failed, %u subsystems over budget\n", failed, over);
    FZ_CHECK(strstr(out, tail) != NULL && strcmp(strstr(out, tail), tail) == 0);

    /* the budget check agrees: fz_b is the only subsystem that can run over */
    bool budgets_ok = false;
    FZ_QUIET(budgets_ok = stow_budget_check());
    FZ_EQ(budgets_ok, over == 0u);
}

/* ---- the target ------------------------------------------------------------------ */

static void count_entry(const stow_registry_entry_t *e, void *ctx)
{
    const want_t *w = want_of(e->container);
    FZ_CHECK(w != NULL && strcmp(e->name, w->name) == 0 && e->storage == w->storage);
    ++*(unsigned *)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_begin(data, size);
    model_start();
    reset_containers();
    while (fz_more()) {
        fz_step++;
        uint8_t op = fz_u8() % 16u;
        if (op < 10u) {
            churn(op);
        } else if (op < 12u) {
            do_register();
        } else if (op == 12u) {
            unsigned n = 0u;
            FZ_QUIET(stow_registry_each(count_entry, &n));
            FZ_EQ(n, nwant);
        } else if (op == 13u) {
            bool r = true;
            fz_watch_none();
            FZ_CALL(true, r = stow_report_to(true, NULL, NULL));
            FZ_CHECK(!r);
        } else {
            verify_report();
        }
    }
    verify_report();
    return 0;
}
