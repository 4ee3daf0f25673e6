/* SPDX-License-Identifier: MIT */
/* test_report.c - stow/report.h: the registry, subsystems, budgets and the report,
 * on the host and on every board. The report's numbers are read back from its own
 * output (the CSV and the table) and compared with each container's stats(),
 * check() and storage, container by container, and with sums taken here. */
#include "harness.h"

/* Not on the boards with 16 KiB of RAM (micro:bit, sifive_e), whose test images
 * have no room left for this suite's containers and its reader of the report:
 * the host and the other boards run it. */
#if !defined(STOW_TEST_RAM_KIB) || STOW_TEST_RAM_KIB >= 64

struct voice {
    uint32_t sound;
    uint16_t left;
};

STOW_POOL_DEFINE_IN(test_audio, test_report_voices, struct voice, 8);
STOW_ARENA_DEFINE_STATIC_IN(test_audio, test_report_mix, 128);
STOW_HEAP_DEFINE_IN(test_net, test_report_rx, 512);
STOW_GENPOOL_DEFINE_STATIC_IN(test_net, test_report_conns, struct voice, 4);
STOW_SLOTMAP_DEFINE_IN(test_game, test_report_bullets, struct voice, 6);
STOW_PACKED_DEFINE_STATIC_IN(test_game, test_report_sparks, struct voice, 5);
STOW_PACKED_DEFINE_STATIC(test_report_plain, uint32_t, 3);

/* A budget list, as a firmware's budgets.h holds it. test_empty has no container. */
#define TEST_AUDIO_BUDGET 4096u
STOW_BUDGET(test_audio, TEST_AUDIO_BUDGET)
STOW_BUDGET(test_net, 2 * 1024)
STOW_BUDGET(test_empty, 16)

/* Defined in test_packed.c: a DEFINE in another file is registered too. */
extern stow_packed_t test_packed_defined;

/* ---- helpers -------------------------------------------------------------------- */

typedef struct {
    const void *container;
    const stow_registry_entry_t *found;
    uint32_t times;
    uint32_t index; /* its position in the walk */
    uint32_t seen;
} find_t;

static void find_entry(const stow_registry_entry_t *e, void *ctx)
{
    find_t *f = (find_t *)ctx;
    if (e->container == f->container) {
        f->found = e;
        f->times++;
        f->index = f->seen;
    }
    f->seen++;
}

static find_t find(const void *container)
{
    find_t f = {container, NULL, 0u, 0u, 0u};
    stow_registry_each(find_entry, &f);
    return f;
}

/* The entry at position index of the walk. */
typedef struct {
    uint32_t index;
    uint32_t seen;
    const stow_registry_entry_t *found;
} nth_t;

static void nth_entry(const stow_registry_entry_t *e, void *ctx)
{
    nth_t *n = (nth_t *)ctx;
    if (n->seen++ == n->index) {
        n->found = e;
    }
}

static const stow_registry_entry_t *entry_at(uint32_t index)
{
    nth_t n = {index, 0u, NULL};
    stow_registry_each(nth_entry, &n);
    return n.found;
}

static void count_entry(const stow_registry_entry_t *e, void *ctx)
{
    (void)e;
    (*(uint32_t *)ctx)++;
}

static uint32_t entries(void)
{
    uint32_t n = 0;
    stow_registry_each(count_entry, &n);
    return n;
}

/* Storage and peak bytes of a subsystem, summed here. */
typedef struct {
    const char *subsystem;
    uint64_t storage;
    uint64_t peak;
    uint32_t containers;
} sum_t;

static void sum_entry(const stow_registry_entry_t *e, void *ctx)
{
    sum_t *s = (sum_t *)ctx;
    if (s->subsystem == NULL || stow_test_same_text(e->subsystem, s->subsystem)) {
        stow_stats_t st;
        e->kind->stats(e->container, &st);
        s->storage += e->storage;
        bool bytes = stow_test_same_text(e->kind->name, "arena") ||
                     stow_test_same_text(e->kind->name, "heap");
        s->peak += bytes ? st.peak
                   : st.capacity != 0u ? (uint64_t)e->storage * st.peak / st.capacity
                                       : 0u;
        s->containers++;
    }
}

static sum_t sum_of(const char *subsystem)
{
    sum_t s = {subsystem, 0u, 0u, 0u};
    stow_registry_each(sum_entry, &s);
    return s;
}

/* ---- reading the report back ---------------------------------------------------- */

#define REPORT_FIELDS_MAX 12u
#define REPORT_LINE_MAX 200u

/* The report's output, split into lines and fields as it is written, and each
 * line checked when it ends. */
typedef struct {
    bool csv;
    char line[REPORT_LINE_MAX];
    size_t length;
    uint32_t lines;
    uint32_t containers; /* container rows seen */
    uint32_t subsystems;
    uint32_t totals;
    uint32_t errors;     /* rows whose numbers disagree */
    uint32_t overflow;   /* lines longer than REPORT_LINE_MAX */
    uint32_t budget_rows_seen;
    bool in_subsystems;  /* the table: past the subsystem header */
    bool past_total;     /* the table: past the total */
    bool quiet;          /* count disagreements without printing them */
} reader_t;

static uint64_t number(const char *text, bool *ok)
{
    uint64_t v = 0;
    if (*text == '\0') {
        *ok = false;
    }
    for (; *text != '\0'; text++) {
        if (*text < '0' || *text > '9') {
            *ok = false;
            return 0u;
        }
        v = v * 10u + (uint64_t)(*text - '0');
    }
    return v;
}

/* Splits line at sep (a run of them, for the table) into at most REPORT_FIELDS_MAX fields. */
static uint32_t split(char *line, char sep, bool runs, const char *field[REPORT_FIELDS_MAX])
{
    uint32_t n = 0;
    char *p = line;
    for (;;) {
        while (runs && *p == sep) {
            p++;
        }
        if (n == REPORT_FIELDS_MAX) {
            return n + 1u;
        }
        field[n++] = p;
        while (*p != '\0' && *p != sep) {
            p++;
        }
        if (*p == '\0') {
            return n;
        }
        *p++ = '\0';
        if (runs && *p == '\0') {
            return n;
        }
    }
}

static void report_error(reader_t *r, const char *what, const char *line_name)
{
    r->errors++;
    if (r->quiet) {
        return;
    }
    stow_test_print("  report row disagrees (");
    stow_test_print(what);
    stow_test_print("): ");
    stow_test_print(line_name);
    stow_test_print("\n");
}

/* A container row: name kind subsystem capacity used peak fails storage check,
 * against the entry at the same position of the registry. */
static void check_container_row(reader_t *r, const char *const *f)
{
    const stow_registry_entry_t *e = entry_at(r->containers++);
    if (e == NULL) {
        report_error(r, "more rows than entries", f[0]);
        return;
    }
    stow_stats_t s;
    e->kind->stats(e->container, &s);
    bool ok = true;
    const char *sub = e->subsystem[0] != '\0' || r->csv ? e->subsystem : "-";
    if (!stow_test_same_text(f[0], e->name) || !stow_test_same_text(f[1], e->kind->name) ||
        !stow_test_same_text(f[2], sub)) {
        report_error(r, "name, kind or subsystem", f[0]);
        return;
    }
    if (number(f[3], &ok) != s.capacity || number(f[4], &ok) != s.used ||
        number(f[5], &ok) != s.peak || number(f[6], &ok) != s.fails ||
        number(f[7], &ok) != e->storage || !ok) {
        report_error(r, "capacity, used, peak, fails or storage", f[0]);
        return;
    }
    if (!stow_test_same_text(f[8], e->kind->check(e->container) ? "ok" : "FAILED")) {
        report_error(r, "check", f[0]);
    }
}

/* A subsystem row: name, budget ("" or "-" for none), storage, peak bytes. */
static void check_subsystem_row(reader_t *r, const char *name, const char *budget,
                                const char *storage, const char *peak)
{
    bool ok = true;
    bool none = stow_test_same_text(name, "(none)");
    sum_t s = sum_of(none ? "" : name);
    r->subsystems++;
    if (number(storage, &ok) != s.storage || number(peak, &ok) != s.peak || !ok) {
        report_error(r, "subsystem storage or peak", name);
    }
    uint64_t want = stow_test_same_text(name, "test_audio") ? TEST_AUDIO_BUDGET
                    : stow_test_same_text(name, "test_net") ? 2048u
                    : stow_test_same_text(name, "test_empty") ? 16u
                                                             : 0u;
    if (want != 0u) {
        r->budget_rows_seen++;
        if (number(budget, &ok) != want || !ok) {
            report_error(r, "budget", name);
        }
    }
}

static void total_row(reader_t *r, const char *storage, const char *peak)
{
    bool ok = true;
    sum_t all = sum_of(NULL);
    r->totals++;
    if (number(storage, &ok) != all.storage || number(peak, &ok) != all.peak || !ok) {
        report_error(r, "total", storage);
    }
}

static void end_line(reader_t *r)
{
    r->line[r->length] = '\0';
    r->length = 0;
    r->lines++;
    const char *f[REPORT_FIELDS_MAX];
    if (r->csv) {
        uint32_t n = split(r->line, ',', false, f);
        if (n != REPORT_FIELDS_MAX) {
            report_error(r, "not twelve fields", r->line);
        } else if (stow_test_same_text(f[0], "container")) {
            check_container_row(r, f + 1);
        } else if (stow_test_same_text(f[0], "subsystem")) {
            check_subsystem_row(r, f[1][0] != '\0' ? f[1] : "(none)", f[10], f[8], f[11]);
        } else if (stow_test_same_text(f[0], "total")) {
            total_row(r, f[8], f[11]);
        }
        return;
    }
    /* The table: two header lines, a row per container, a blank line, the
     * subsystem header, a row per subsystem, the total, the summary. */
    uint32_t n = split(r->line, ' ', true, f);
    if (r->lines <= 2u || n == 0u || f[0][0] == '\0' || r->past_total) {
        return;
    }
    if (stow_test_same_text(f[0], "subsystem")) {
        r->in_subsystems = true;
    } else if (stow_test_same_text(f[0], "total")) {
        r->past_total = true;
        total_row(r, f[1], f[2]);
    } else if (r->in_subsystems && n >= 5u) {
        check_subsystem_row(r, f[0], f[1], f[2], f[3]);
    } else if (!r->in_subsystems && n == 9u) {
        check_container_row(r, f);
    }
}

static void read_report(void *ctx, const char *text, size_t len)
{
    reader_t *r = (reader_t *)ctx;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n') {
            end_line(r);
        } else if (r->length + 1u < REPORT_LINE_MAX) {
            r->line[r->length++] = text[i];
        } else {
            r->overflow++;
        }
    }
}

/* ---- the cases ------------------------------------------------------------------- */

TEST(report_registry_lists_every_define_once)
{
    static const struct {
        const void *container;
        const char *name, *kind, *subsystem;
        size_t storage;
    } want[] = {
        {&test_report_voices, "test_report_voices", "pool", "test_audio",
         STOW_POOL_BYTES(sizeof(struct voice), STOW_ALIGNOF(struct voice), 8u)},
        {&test_report_mix, "test_report_mix", "arena", "test_audio", 128u},
        {&test_report_rx, "test_report_rx", "heap", "test_net", 512u},
        {&test_report_conns, "test_report_conns", "genpool", "test_net",
         STOW_GENPOOL_BYTES(sizeof(struct voice), STOW_ALIGNOF(struct voice), 4u)},
        {&test_report_bullets, "test_report_bullets", "slotmap", "test_game",
         STOW_SLOTMAP_BYTES(sizeof(struct voice), STOW_ALIGNOF(struct voice), 6u)},
        {&test_report_sparks, "test_report_sparks", "packed", "test_game",
         5u * sizeof(struct voice)},
        {&test_report_plain, "test_report_plain", "packed", "", 3u * sizeof(uint32_t)},
        {&test_packed_defined, "test_packed_defined", "packed", "", 0u},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        find_t f = find(want[i].container);
        CHECK_EQ(f.times, 1u);
        CHECK(stow_test_same_text(f.found->name, want[i].name));
        CHECK(stow_test_same_text(f.found->kind->name, want[i].kind));
        CHECK(stow_test_same_text(f.found->subsystem, want[i].subsystem));
        if (want[i].storage != 0u) {
            CHECK_EQ(f.found->storage, want[i].storage);
        }
        CHECK(f.found->next == NULL);
    }
    /* The kind's stats() is the container's own. */
    CHECK_NOT_NULL(STOW_POOL_NEW(&test_report_voices, struct voice));
    stow_stats_t direct, through;
    stow_pool_stats(&test_report_voices, &direct);
    find(&test_report_voices).found->kind->stats(&test_report_voices, &through);
    CHECK_EQ(through.used, direct.used);
    CHECK_EQ(through.used, 1u);
    CHECK_EQ(through.capacity, 8u);
    CHECK(find(&test_report_voices).found->kind->check(&test_report_voices));
}

static stow_pool_t rx_pool;
static STOW_ALIGNAS(16) unsigned char rx_buf[STOW_POOL_BYTES(24, 0, 4)];
static stow_registry_entry_t rx_entry;

TEST(report_register_adds_an_init_container_once)
{
    CHECK(stow_pool_init(&rx_pool, rx_buf, sizeof rx_buf, 24, 0, 4));
    uint32_t before = entries();
    STOW_REGISTER_IN(test_net, pool, &rx_pool, "rx_pool", sizeof rx_buf);
    CHECK_EQ(entries(), before + 1u);
    /* A second call site, and the same entry again: still one entry. */
    STOW_REGISTER(pool, &rx_pool, "rx_pool again", sizeof rx_buf);
    stow_registry_add(&rx_entry, &stow_registry_kind_pool, &rx_pool, "rx_pool third", NULL, 1u);
    find_t f = find(&rx_pool);
    CHECK_EQ(f.times, 1u);
    CHECK(stow_test_same_text(f.found->name, "rx_pool"));
    CHECK(stow_test_same_text(f.found->subsystem, "test_net"));
    CHECK_EQ(f.found->storage, sizeof rx_buf);
    /* Added entries come after the DEFINE'd ones. */
    CHECK_EQ(f.index, entries() - 1u);
    CHECK_NULL(find(&test_report_voices).found->next);
#if STOW_CHECK_LEVEL >= 1
    EXPECT_VIOLATION_TEXT(stow_registry_add(NULL, &stow_registry_kind_pool, &rx_pool, "x", NULL, 1u),
                          "stow_registry_add: entry, kind, container or name is NULL");
    EXPECT_VIOLATION_TEXT(stow_registry_each(NULL, NULL), "stow_registry_each: fn is NULL");
    EXPECT_VIOLATION_TEXT(stow_report_to(false, NULL, NULL), "stow_report_to: write is NULL");
#endif
    CHECK_EQ(find(&rx_pool).times, 1u);
}

/* Puts the report's containers in a state worth reading: used, peaked, failed. */
static void exercise(void)
{
    for (uint32_t i = 0; i < 5u; i++) {
        CHECK_NOT_NULL(STOW_POOL_NEW(&test_report_voices, struct voice));
    }
    stow_pool_reset(&test_report_voices);
    CHECK_NOT_NULL(STOW_POOL_NEW(&test_report_voices, struct voice));
    CHECK_NOT_NULL(stow_arena_alloc(&test_report_mix, 100, 0));
    CHECK_NULL(stow_arena_alloc(&test_report_mix, 100, 0));
    CHECK_NOT_NULL(stow_heap_alloc(&test_report_rx, 40));
    for (uint32_t i = 0; i < 5u; i++) {
        CHECK_NOT_NULL(stow_packed_push(&test_report_sparks));
    }
    CHECK_NULL(stow_packed_push(&test_report_sparks));
    CHECK(stow_pool_alloc(&rx_pool) != NULL);
}

/* Writes the report (CSV or table) into a fresh reader: every row read back
 * and compared, every container and subsystem in it. */
static void read_back(bool csv)
{
    reader_t r;
    stow_test_fill(&r, 0, sizeof r);
    r.csv = csv;
    CHECK(stow_report_to(csv, read_report, &r));
    CHECK_EQ(r.errors, 0u);
    CHECK_EQ(r.overflow, 0u);
    CHECK_EQ(r.containers, entries());
    CHECK_EQ(r.totals, 1u);
    CHECK_EQ(r.budget_rows_seen, 3u);
    /* One row per subsystem: test_audio, test_net, test_game, "" and test_empty. */
    CHECK_EQ(r.subsystems, 5u);
}

TEST(report_csv_numbers_are_each_containers_own)
{
    CHECK_CALL(exercise());
    CHECK_CALL(read_back(true));
    /* And the numbers are the ones the containers' calls give. */
    stow_stats_t s;
    stow_pool_stats(&test_report_voices, &s);
    CHECK_EQ(s.used, 1u);
    CHECK_LE(6u, s.peak);
    stow_packed_stats(&test_report_sparks, &s);
    CHECK_EQ(s.fails, 1u);
}

TEST(report_table_numbers_are_each_containers_own)
{
    CHECK_CALL(read_back(false));
}

/* The same reader must notice a wrong number: the proof that it can fail. */
static void corrupt_storage(void *ctx, const char *text, size_t len)
{
    /* Every '2' a '3': changes at least one number in any report that has one. */
    char copy[64];
    while (len > 0u) {
        size_t k = len < sizeof copy ? len : sizeof copy;
        for (size_t i = 0; i < k; i++) {
            copy[i] = text[i] == '2' ? '3' : text[i];
        }
        read_report(ctx, copy, k);
        text += k;
        len -= k;
    }
}

TEST(report_reader_sees_a_wrong_number)
{
    reader_t r;
    stow_test_fill(&r, 0, sizeof r);
    r.csv = true;
    r.quiet = true;
    (void)stow_report_to(true, corrupt_storage, &r);
    CHECK_LT(0u, r.errors);
}

TEST(report_a_failed_check_fails_the_report)
{
    static STOW_ALIGNAS(8) unsigned char buf[4 * sizeof(uint32_t)];
    static stow_packed_t broken;
    CHECK(stow_packed_init(&broken, buf, sizeof buf, sizeof(uint32_t), STOW_ALIGNOF(uint32_t), 4));
    STOW_REGISTER(packed, &broken, "broken", sizeof buf);
    CHECK_CALL(read_back(true));
    broken.count = 9; /* more items than capacity: check() fails */
    reader_t r;
    stow_test_fill(&r, 0, sizeof r);
    r.csv = true;
    bool all_ok = stow_report_to(true, read_report, &r);
    broken.count = 0;
    CHECK_FALSE(all_ok);
    CHECK_EQ(r.errors, 0u); /* the row says FAILED, as check() does */
    CHECK_CALL(read_back(true));
}

TEST(report_budgets_hold)
{
    CHECK(stow_budget_check());
    sum_t audio = sum_of("test_audio");
    CHECK_EQ(audio.containers, 2u);
    CHECK_LE(audio.storage, TEST_AUDIO_BUDGET);
    CHECK_EQ(audio.storage, sizeof stow__pool_buf_test_report_voices + 128u);
}

TEST(report_format_u_writes_decimal_digits)
{
    char out[STOW_FORMAT_U_MAX];
    CHECK_EQ(stow_format_u(out, 0u), 1u);
    CHECK_EQ(out[0], '0');
    CHECK_EQ(stow_format_u(out, 10u), 2u);
    CHECK_BYTES_EQ(out, "10", 2u);
    CHECK_EQ(stow_format_u(out, 4294967295u), 10u);
    CHECK_BYTES_EQ(out, "4294967295", 10u);
    CHECK_EQ(stow_format_u(out, UINT64_MAX), 20u);
    CHECK_BYTES_EQ(out, "18446744073709551615", 20u);
}

/* Last: the image prints its own registry, which tools/stow_report.py's test
 * compares with what it reads from the image file. */
TEST(report_prints_the_registry)
{
    stow_test_print("stow report csv begin\n");
    CHECK(stow_report_csv());
    stow_test_print("stow report csv end\n");
}

#endif

void stow_test_suite_report(void)
{
#if !defined(STOW_TEST_RAM_KIB) || STOW_TEST_RAM_KIB >= 64
    RUN(report_registry_lists_every_define_once);
    RUN(report_register_adds_an_init_container_once);
    RUN(report_csv_numbers_are_each_containers_own);
    RUN(report_table_numbers_are_each_containers_own);
    RUN(report_reader_sees_a_wrong_number);
    RUN(report_a_failed_check_fails_the_report);
    RUN(report_budgets_hold);
    RUN(report_format_u_writes_decimal_digits);
    RUN(report_prints_the_registry);
#endif
}
