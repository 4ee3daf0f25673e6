/* SPDX-License-Identifier: MIT */
/* report.c - the registry of containers, subsystem budgets and the memory report.
 *
 * The registry has two parts. The DEFINE'd containers: an array of pointers to
 * constant entries that the linker gathers from every object's section
 * `stow_registry`, between __start_stow_registry and __stop_stow_registry (GNU
 * ld and lld define both for a section whose name is a C identifier;
 * linker/stow_registry.ld defines them itself for a firmware's script). Budgets
 * come the same way, from `stow_budgets`. This file never names those symbols:
 * the inline calls in report.h read them in the caller's code and pass the
 * bounds in (a view), so that the library refers to no symbol a linker has to
 * make up, and a firmware without a report refers to none at all.
 * The containers added at run time: an intrusive singly linked list through the
 * entries' next fields, newest first; no allocation, no fixed capacity.
 *
 * The report needs the set of subsystems without memory of its own: a subsystem
 * is reported where the walk meets its first container (a second walk tells
 * whether an earlier one had the same name), which makes the report
 * O(entries^2) string compares, fine for the tens of containers of a firmware
 * and for a function that also runs every container's check().
 *
 * Numbers are formatted here (stow_format_u), without libc: decimal digits of a
 * uint64_t by repeated division by 10, which on a 32-bit core is libgcc's
 * 64-bit division helper.
 */
#include "stow/report.h"

#include "internal.h"

/* ---- the registry -------------------------------------------------------------- */

static stow_registry_entry_t *added; /* stow_registry_add()'s list, newest first */

/* A walk over both parts: the static array, then the list. */
typedef struct {
    const stow_registry_entry_t *const *at;
    const stow_registry_entry_t *const *stop;
    const stow_registry_entry_t *node;
} walk_t;

static walk_t walk_begin(const stow__registry_view_t *view)
{
    walk_t w = {view->entries, view->entries_end, added};
    return w;
}

static const stow_registry_entry_t *walk_next(walk_t *w)
{
    while (w->at != w->stop) {
        const stow_registry_entry_t *e = *w->at++;
        if (e != NULL) { /* a linker may pad the array with zeroes */
            return e;
        }
    }
    const stow_registry_entry_t *e = w->node;
    if (e != NULL) {
        w->node = e->next;
    }
    return e;
}

void stow__registry_each(const stow__registry_view_t *view,
                         void (*fn)(const stow_registry_entry_t *entry, void *ctx), void *ctx)
{
    STOW__CHECK_VOID(fn != NULL, "stow_registry_each: fn is NULL");
    walk_t w = walk_begin(view);
    /* cppcheck-suppress misra-c2012-13.4 ; MISRA D13 */
    for (const stow_registry_entry_t *e; (e = walk_next(&w)) != NULL;) {
        fn(e, ctx);
    }
}

void stow__budget_each(const stow__registry_view_t *view,
                       void (*fn)(const stow_budget_t *budget, void *ctx), void *ctx)
{
    STOW__CHECK_VOID(fn != NULL, "stow_budget_each: fn is NULL");
    for (const stow_budget_t *const *b = view->budgets; b != view->budgets_end; b++) {
        if (*b != NULL) {
            fn(*b, ctx);
        }
    }
}

void stow__registry_add(const stow__registry_view_t *view, stow_registry_entry_t *entry,
                        const stow_registry_kind_t *kind, const void *container,
                        const char *name, const char *subsystem, size_t storage)
{
    STOW__CHECK_VOID(entry != NULL && kind != NULL && container != NULL && name != NULL,
                     "stow_registry_add: entry, kind, container or name is NULL");
    walk_t w = walk_begin(view);
    /* cppcheck-suppress misra-c2012-13.4 ; MISRA D13 */
    for (const stow_registry_entry_t *e; (e = walk_next(&w)) != NULL;) {
        if (e == entry || e->container == container) {
            return;
        }
    }
    entry->name = name;
    entry->subsystem = subsystem != NULL ? subsystem : "";
    entry->kind = kind;
    entry->container = container;
    entry->storage = storage;
    entry->next = added;
    added = entry;
}

/* ---- output ---------------------------------------------------------------------- */

/* STOW__OPAQUE keeps the loops below loops: hosted GCC would make them strlen
 * and memcpy calls (internal.h). */
static size_t length_of(const char *text)
{
    size_t n = 0;
    while (text[n] != '\0') {
        STOW__OPAQUE(text);
        n++;
    }
    return n;
}

static bool same_text(const char *a, const char *b)
{
    size_t i = 0;
    while (a[i] != '\0' && a[i] == b[i]) {
        i++;
    }
    return a[i] == b[i];
}

void stow_print(const char *text)
{
    if (text != NULL) {
        stow_port_write(text, length_of(text));
    }
}

size_t stow_format_u(char *out, uint64_t value)
{
    char digits[STOW_FORMAT_U_MAX];
    size_t at = sizeof digits;
    do {
        digits[--at] = (char)('0' + (unsigned)(value % 10u));
        value /= 10u;
    } while (value != 0u);
    size_t n = sizeof digits - at;
    for (size_t i = 0; i < n; i++) {
        STOW__OPAQUE(out);
        out[i] = digits[at + i];
    }
    return n;
}

/* Where text goes: the port's console, or a report's own writer. */
typedef struct {
    void (*write)(void *ctx, const char *text, size_t len);
    void *ctx;
} sink_t;

static void port_write(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    stow_port_write(text, len);
}

static const sink_t console = {port_write, NULL};

static void put(const sink_t *to, const char *text)
{
    to->write(to->ctx, text, length_of(text));
}

static void pad(const sink_t *to, size_t n)
{
    static const char spaces[] = "                ";
    while (n > 0u) {
        size_t k = n < sizeof spaces - 1u ? n : sizeof spaces - 1u;
        to->write(to->ctx, spaces, k);
        n -= k;
    }
}

/* value in decimal, right-aligned in width columns. */
static void put_u(const sink_t *to, uint64_t value, size_t width)
{
    char digits[STOW_FORMAT_U_MAX];
    size_t n = stow_format_u(digits, value);
    if (width > n) {
        pad(to, width - n);
    }
    to->write(to->ctx, digits, n);
}

/* text left-aligned in width columns. */
static void put_left(const sink_t *to, const char *text, size_t width)
{
    size_t n = length_of(text);
    to->write(to->ctx, text, n);
    if (width > n) {
        pad(to, width - n);
    }
}

void stow_print_u(uint64_t value, unsigned width)
{
    put_u(&console, value, width);
}

/* ---- the report ------------------------------------------------------------------ */

/* The bytes a high-water mark stands for: itself, or peak items' share of the
 * storage. */
static uint64_t peak_bytes(const stow_registry_entry_t *e, const stow_stats_t *s)
{
    if (e->kind->in_bytes) {
        return s->peak;
    }
    if (s->capacity == 0u) {
        return 0u;
    }
    return (uint64_t)e->storage * (uint64_t)s->peak / (uint64_t)s->capacity;
}

typedef struct {
    uint64_t storage;
    uint64_t peak;
    uint32_t containers;
} subsystem_sum_t;

static subsystem_sum_t sum_subsystem(const stow__registry_view_t *view, const char *subsystem)
{
    subsystem_sum_t sum = {0u, 0u, 0u};
    walk_t w = walk_begin(view);
    /* cppcheck-suppress misra-c2012-13.4 ; MISRA D13 */
    for (const stow_registry_entry_t *e; (e = walk_next(&w)) != NULL;) {
        if (same_text(e->subsystem, subsystem)) {
            stow_stats_t s;
            e->kind->stats(e->container, &s);
            sum.storage += e->storage;
            sum.peak += peak_bytes(e, &s);
            sum.containers++;
        }
    }
    return sum;
}

/* Whether e is the first container, in walk order, of its subsystem. */
static bool first_of_subsystem(const stow__registry_view_t *view, const stow_registry_entry_t *e)
{
    walk_t w = walk_begin(view);
    for (const stow_registry_entry_t *f = walk_next(&w); f != NULL && f != e; f = walk_next(&w)) {
        if (same_text(f->subsystem, e->subsystem)) {
            return false;
        }
    }
    return true;
}

/* The first budget of subsystem, or NULL. */
typedef struct {
    const char *subsystem;
    const stow_budget_t *found;
} budget_query_t;

static void match_budget(const stow_budget_t *b, void *ctx)
{
    budget_query_t *q = (budget_query_t *)ctx;
    if (q->found == NULL && same_text(b->subsystem, q->subsystem)) {
        q->found = b;
    }
}

static const stow_budget_t *budget_of(const stow__registry_view_t *view, const char *subsystem)
{
    budget_query_t q = {subsystem, NULL};
    stow__budget_each(view, match_budget, &q);
    return q.found;
}

/* One report being written: a table for people, or CSV. */
typedef struct {
    const stow__registry_view_t *view;
    sink_t to;
    bool csv;
    size_t name_width;
    size_t subsystem_width;
    uint64_t storage;
    uint64_t peak;
    uint32_t containers;
    uint32_t checks_failed;
    uint32_t over_budget;
} report_t;

/* A field after the first: a comma, or two spaces and the column's width. */
static void field_u(const report_t *r, uint64_t value, size_t width)
{
    put(&r->to, r->csv ? "," : "  ");
    put_u(&r->to, value, r->csv ? 0u : width);
}

static void field_text(const report_t *r, const char *text, size_t width)
{
    put(&r->to, r->csv ? "," : "  ");
    put_left(&r->to, text, r->csv ? 0u : width);
}

static void container_row(report_t *r, const stow_registry_entry_t *e)
{
    stow_stats_t s;
    e->kind->stats(e->container, &s);
    bool ok = e->kind->check(e->container);
    if (r->csv) {
        put(&r->to, "container,");
    }
    put_left(&r->to, e->name, r->csv ? 0u : r->name_width);
    field_text(r, e->kind->name, 7u);
    field_text(r, (r->csv || e->subsystem[0] != '\0') ? e->subsystem : "-", r->subsystem_width);
    field_u(r, s.capacity, 9u);
    field_u(r, s.used, 9u);
    field_u(r, s.peak, 9u);
    field_u(r, s.fails, 5u);
    field_u(r, e->storage, 9u);
    field_text(r, ok ? "ok" : "FAILED", 0u);
    if (r->csv) {
        put(&r->to, ",");
        field_u(r, peak_bytes(e, &s), 0u);
    }
    put(&r->to, "\n");
    r->storage += e->storage;
    r->peak += peak_bytes(e, &s);
    r->containers++;
    r->checks_failed += ok ? 0u : 1u;
}

/* One subsystem's row: its budget (or "-"), storage, peak bytes, containers. */
static void subsystem_row(report_t *r, const char *subsystem)
{
    subsystem_sum_t sum = sum_subsystem(r->view, subsystem);
    const stow_budget_t *b = subsystem[0] != '\0' ? budget_of(r->view, subsystem) : NULL;
    bool over = b != NULL && sum.storage > b->bytes;
    r->over_budget += over ? 1u : 0u;
    if (r->csv) {
        put(&r->to, "subsystem,");
        put(&r->to, subsystem);
        put(&r->to, ",,,,,,,");
        put_u(&r->to, sum.storage, 0u);
        put(&r->to, over ? ",OVER," : ",,");
        if (b != NULL) {
            put_u(&r->to, b->bytes, 0u);
        }
        field_u(r, sum.peak, 0u);
        put(&r->to, "\n");
        return;
    }
    put_left(&r->to, subsystem[0] != '\0' ? subsystem : "(none)", r->name_width);
    if (b != NULL) {
        field_u(r, b->bytes, 9u);
    } else {
        field_text(r, "        -", 9u);
    }
    field_u(r, sum.storage, 9u);
    field_u(r, sum.peak, 9u);
    field_u(r, sum.containers, 10u);
    put(&r->to, over ? "  OVER BUDGET\n" : b != NULL ? "  ok\n" : "\n");
}

static void widths(const stow_registry_entry_t *e, void *ctx)
{
    report_t *r = (report_t *)ctx;
    size_t n = length_of(e->name);
    size_t k = length_of(e->subsystem);
    r->name_width = n > r->name_width ? n : r->name_width;
    r->subsystem_width = k > r->subsystem_width ? k : r->subsystem_width;
}

static void budget_width(const stow_budget_t *b, void *ctx)
{
    report_t *r = (report_t *)ctx;
    size_t n = length_of(b->subsystem);
    r->name_width = n > r->name_width ? n : r->name_width;
}

static void budget_without_containers(const stow_budget_t *b, void *ctx)
{
    report_t *r = (report_t *)ctx;
    if (sum_subsystem(r->view, b->subsystem).containers == 0u && budget_of(r->view, b->subsystem) == b) {
        subsystem_row(r, b->subsystem);
    }
}

/* The report through write; the callers below check what they take. */
static bool report(const stow__registry_view_t *view, bool csv,
                   void (*write)(void *ctx, const char *text, size_t len), void *ctx)
{
    report_t r = {view, {write, ctx}, csv, 9u, 9u, 0u, 0u, 0u, 0u, 0u};
    stow__registry_each(view, widths, &r);
    stow__budget_each(view, budget_width, &r);
    const sink_t *to = &r.to;
    if (csv) {
        put(to, "record,name,kind,subsystem,capacity,used,peak,fails,storage,check,budget,peak_bytes\n");
    } else {
        put(to, "stow memory report\n");
        put_left(to, "container", r.name_width);
        put(to, "  kind     ");
        put_left(to, "subsystem", r.subsystem_width);
        put(to, "   capacity       used       peak  fails    storage  check\n");
    }
    walk_t w = walk_begin(view);
    /* cppcheck-suppress misra-c2012-13.4 ; MISRA D13 */
    for (const stow_registry_entry_t *e; (e = walk_next(&w)) != NULL;) {
        container_row(&r, e);
    }
    if (!csv) {
        put(to, "\n");
        put_left(to, "subsystem", r.name_width);
        put(to, "     budget    storage       peak  containers\n");
    }
    w = walk_begin(view);
    /* cppcheck-suppress misra-c2012-13.4 ; MISRA D13 */
    for (const stow_registry_entry_t *e; (e = walk_next(&w)) != NULL;) {
        if (first_of_subsystem(view, e)) {
            subsystem_row(&r, e->subsystem);
        }
    }
    stow__budget_each(view, budget_without_containers, &r);
    if (csv) {
        put(to, "total,,,,,,,,");
        put_u(to, r.storage, 0u);
        field_u(&r, r.checks_failed, 0u);
        put(to, ",");
        field_u(&r, r.peak, 0u);
        put(to, "\n");
    } else {
        put_left(to, "total", r.name_width);
        put(to, "           ");
        field_u(&r, r.storage, 9u);
        field_u(&r, r.peak, 9u);
        field_u(&r, r.containers, 10u);
        put(to, "\n");
        put_u(to, r.checks_failed, 0u);
        put(to, " checks failed, ");
        put_u(to, r.over_budget, 0u);
        put(to, " subsystems over budget\n");
    }
    return r.checks_failed == 0u && r.over_budget == 0u;
}

bool stow__report_to(const stow__registry_view_t *view, bool csv,
                     void (*write)(void *ctx, const char *text, size_t len), void *ctx)
{
    STOW__CHECK(write != NULL, "stow_report_to: write is NULL", false);
    return report(view, csv, write, ctx);
}

bool stow__report(const stow__registry_view_t *view, bool csv)
{
    return report(view, csv, port_write, NULL);
}

/* ---- budgets --------------------------------------------------------------------- */

typedef struct {
    const stow__registry_view_t *view;
    bool ok;
} budget_check_t;

static void check_budget(const stow_budget_t *b, void *ctx)
{
    budget_check_t *c = (budget_check_t *)ctx;
    const sink_t *to = &console;
    if (budget_of(c->view, b->subsystem) != b) {
        return; /* a second budget for one subsystem: the first one counts */
    }
    subsystem_sum_t sum = sum_subsystem(c->view, b->subsystem);
    if (sum.storage > b->bytes) {
        put(to, "stow budget: subsystem ");
        put(to, b->subsystem);
        put(to, " is over its budget of ");
        put_u(to, b->bytes, 0u);
        put(to, " bytes (storage ");
        put_u(to, sum.storage, 0u);
        put(to, " bytes)\n");
        c->ok = false;
    }
}

bool stow__budget_check(const stow__registry_view_t *view)
{
    budget_check_t c = {view, true};
    stow__budget_each(view, check_budget, &c);
    return c.ok;
}
