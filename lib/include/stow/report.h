/* SPDX-License-Identifier: MIT */
/* stow/report.h - one memory report for the whole firmware: the registry of every
 * container, subsystem budgets, and the table that shows them.
 *
 *     STOW_POOL_DEFINE_IN(audio, voices, struct voice, 32);   // in subsystem "audio"
 *     STOW_HEAP_DEFINE(scratch, 4096);                          // in no subsystem
 *     STOW_BUDGET(audio, 1024)                                  // from your budgets.h
 *     ...
 *     bool ok = stow_report();   // through stow_port_write; false: a check failed
 *                                // or a subsystem is over its budget
 *
 *     stow memory report
 *     container  kind     subsystem   capacity       used       peak  fails    storage  check
 *     voices     pool     audio             32          3          9      0       1280  ok
 *     scratch    heap     -               4048        112        640      0       4096  ok
 *
 *     subsystem     budget    storage       peak  containers
 *     audio           1024       1280        360           1  OVER BUDGET
 *     (none)             -       4096        640           1
 *     total                      5376       1000           2
 *     0 checks failed, 1 subsystems over budget
 *
 * Registry. Every STOW_*_DEFINE (and _STATIC, _IN, _TYPED) puts a pointer to a
 * constant entry (the name as written, the kind, the subsystem, the container,
 * its storage bytes) into the section `stow_registry`. Nothing runs at start-up:
 * the linker gathers the pointers into one array, which stow_registry_each()
 * walks. On the host, gcc's and clang's linkers name its ends
 * __start_stow_registry and __stop_stow_registry by themselves (and keep the
 * section under --gc-sections while the program reads the registry); a firmware's
 * script INCLUDEs linker/stow_registry.ld inside its read-only output section
 * (see that file), which KEEPs the entries and defines the same two symbols. A
 * script that does not include it still works with GNU ld, which places the
 * section as an orphan after the read-only data and defines both symbols itself.
 * Costs: a DEFINE adds, in flash, one entry (6 pointers), a pointer to it and its
 * name; a kind used by any DEFINE links that kind's stats() and check(), even in
 * a firmware that never prints a report (one pool DEFINE'd on Cortex-M4, -Os:
 * 528 bytes of flash more). STOW_REGISTRY 0 (config.h) registers nothing: the
 * report then lists only what STOW_REGISTER adds, and the link still checks the
 * budgets.
 * Not on Mach-O (no such sections there): DEFINEs register nothing, and only
 * stow_registry_add() fills the registry.
 *
 * A container set up with init registers with one call, from thread code before
 * or after it is used (not ISR-safe; a container registered already is left as
 * it is, so a re-init may call it again):
 *     stow_pool_init(&rx, rx_buf, sizeof rx_buf, 64, 0, 16);
 *     STOW_REGISTER(pool, &rx, "rx", sizeof rx_buf);          // or STOW_REGISTER_IN(net, ...)
 *
 * Subsystems and budgets. STOW_<KIND>_DEFINE_IN(subsystem, name, ...) (and
 * _STATIC_IN) is the DEFINE with the container counted in `subsystem` (a C
 * identifier); its storage goes in .bss.stow.in.<subsystem>.<kind>.<name>, still
 * inside .stow. A budget list, a header of lines
 *     STOW_BUDGET(audio, 1024)
 *     STOW_BUDGET(net, 8 * 1024)
 * (one per subsystem, bytes of storage, no semicolons) serves twice:
 *   - tools/stow_budgets.sh -o DIR/stow_budgets.ld budgets.h "$(CC) $(CFLAGS)"
 *     (make's rule for it: see the README) turns it into the fragment that
 *     linker/stow.ld INCLUDEs inside .stow: each subsystem's storage gathered
 *     between two symbols and an ASSERT over their distance. Put DIR before
 *     stow's linker directory on the -L path (stow ships an empty
 *     stow_budgets.ld for firmwares without budgets). A budget is any integer
 *     constant expression #if takes (0x3FFu, 4 * 1024, a macro); on an error the
 *     tool writes nothing and says why in one line. Over budget, the link fails with
 *       stow budget: subsystem audio is over its budget of 1024 bytes (stow_report.py OBJECTS... lists its storage from the link's .o and .a files)
 *     GNU ld cannot print a computed number in an ASSERT's message, hence the
 *     pointer to the tool, which reads the objects the failed link was given
 *     (there is no image): tools/stow_report.py main.o audio.o libstow.a.
 *     ld counts the alignment padding between a subsystem's containers, the
 *     host check below and the tool on objects do not. The link counts a
 *     subsystem by its storage's sections, so an _IN DEFINE built with
 *     STOW_SECTIONS 0 (config.h) fails such a link:
 *       stow budget: subsystem audio has containers built with STOW_SECTIONS 0, whose storage the link cannot count: build them with STOW_SECTIONS 1
 *   - included in one C file after this header, each line defines the budget in
 *     the section `stow_budgets`, for the report and for stow_budget_check().
 *
 * Report. stow_report() writes a table of every registered container, then a
 * line per subsystem (budget, storage, peak) and the totals; stow_report_csv()
 * writes the same as CSV. Numbers: capacity, used and peak in the container's own
 * unit (bytes for arena and heap, items for the others, as stow_stats_t); storage
 * in bytes; a container's peak in bytes is its peak itself for an arena or a
 * heap (whose stats count bytes; an arena's chain counts in its head's row), and
 * storage * peak / capacity for the others; a subsystem's peak is the sum of its
 * containers' (containers can peak at different times: an upper bound). check is
 * each container's check(): O(capacity) each, so the report is for tests, debug
 * consoles and the end of a demo, not for an interrupt handler. Not ISR-safe.
 * Containers come in link order (within a file, the compiler's order, often the
 * reverse of the source), then those added at run time, newest first.
 *
 * Output helpers (the report's own, shared with the examples and tests):
 * stow_print(), stow_print_u(), stow_format_u(), below.
 *
 * Tool. `make report ELF=firmware.elf [MARKDOWN=1]` (tools/stow_report.py) reads
 * the registry out of an image without running it and prints the static RAM of
 * every container and subsystem; given the objects of a link instead of an image
 * (tools/stow_report.py *.o libstow.a), it reads each DEFINE's storage section
 * and each budget from them. Errors are one line (exit status 2).
 */
#ifndef STOW_REPORT_H
#define STOW_REPORT_H

#include "config.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the report knows of one kind of container; one per module, defined in
 * its .c file. stats() and check() take the container. */
typedef struct stow_registry_kind {
    const char *name; /* "arena", "pool", "genpool", "slotmap", "packed", "heap" */
    void (*stats)(const void *container, stow_stats_t *out);
    bool (*check)(const void *container);
    bool in_bytes;    /* stats count bytes (arena, heap), not items */
} stow_registry_kind_t;

/* One registered container. The layout (six pointer-sized fields) is read by
 * tools/stow_report.py: change both together. */
typedef struct stow_registry_entry {
    const char *name;                 /* as written in the DEFINE or given to STOW_REGISTER */
    const char *subsystem;            /* "" when in none */
    const stow_registry_kind_t *kind;
    const void *container;
    size_t storage;                   /* bytes of its storage buffer */
    struct stow_registry_entry *next; /* stow_registry_add()'s list; NULL in a DEFINE's entry */
} stow_registry_entry_t;

/* A subsystem's budget (STOW_BUDGET), also read by tools/stow_report.py. */
typedef struct stow_budget {
    const char *subsystem;
    size_t bytes;
} stow_budget_t;

extern const stow_registry_kind_t stow_registry_kind_arena;
extern const stow_registry_kind_t stow_registry_kind_pool;
extern const stow_registry_kind_t stow_registry_kind_genpool;
extern const stow_registry_kind_t stow_registry_kind_slotmap;
extern const stow_registry_kind_t stow_registry_kind_packed;
extern const stow_registry_kind_t stow_registry_kind_heap;

/* ---- private: where the registry's arrays are --------------------------------
 * The linker gathers the DEFINEs' entries and the budgets into two arrays and
 * names their ends (see above). Only code that reads the registry refers to
 * those names: the calls below are inline and hand the library the arrays'
 * bounds, so that the library itself needs no linker-defined symbol and a
 * firmware that never asks for a report refers to none. The names are declared
 * weak: a program without a single DEFINE (or budget) has no such section, and
 * then both ends are NULL, an empty array. */
typedef struct { /* each array: both ends, or both NULL */
    const stow_registry_entry_t *const *entries;
    const stow_registry_entry_t *const *entries_end;
    const stow_budget_t *const *budgets;
    const stow_budget_t *const *budgets_end;
} stow__registry_view_t;

#if defined(__GNUC__) && defined(__ELF__) && STOW_REGISTRY
#define STOW__REGISTRY 1
#else
#define STOW__REGISTRY 0
#endif
#if STOW__REGISTRY
/* Reserved names, reached through their link names rather than spelled in C. */
#define STOW__LINK_NAME(sym) __asm__(STOW__STR(__USER_LABEL_PREFIX__) #sym)
/* cppcheck-suppress misra-c2012-8.11 ; MISRA D14 */
extern const stow_registry_entry_t *const stow__registry_start[] STOW__LINK_NAME(
    __start_stow_registry) __attribute__((weak));
/* cppcheck-suppress misra-c2012-8.11 ; MISRA D14 */
extern const stow_registry_entry_t *const stow__registry_stop[] STOW__LINK_NAME(
    __stop_stow_registry) __attribute__((weak));
/* cppcheck-suppress misra-c2012-8.11 ; MISRA D14 */
extern const stow_budget_t *const stow__budgets_start[] STOW__LINK_NAME(__start_stow_budgets)
    __attribute__((weak));
/* cppcheck-suppress misra-c2012-8.11 ; MISRA D14 */
extern const stow_budget_t *const stow__budgets_stop[] STOW__LINK_NAME(__stop_stow_budgets)
    __attribute__((weak));
#endif

static inline stow__registry_view_t stow__registry_view(void)
{
    stow__registry_view_t v;
    v.entries = STOW__NULL;
    v.entries_end = STOW__NULL;
    v.budgets = STOW__NULL;
    v.budgets_end = STOW__NULL;
#if STOW__REGISTRY
    if (stow__registry_start != STOW__NULL && stow__registry_stop != STOW__NULL) {
        v.entries = stow__registry_start;
        v.entries_end = stow__registry_stop;
    }
    if (stow__budgets_start != STOW__NULL && stow__budgets_stop != STOW__NULL) {
        v.budgets = stow__budgets_start;
        v.budgets_end = stow__budgets_stop;
    }
#endif
    return v;
}

/* The library's side of the calls below: each takes the arrays' bounds. */
void stow__registry_each(const stow__registry_view_t *view,
                         void (*fn)(const stow_registry_entry_t *entry, void *ctx), void *ctx);
void stow__budget_each(const stow__registry_view_t *view,
                       void (*fn)(const stow_budget_t *budget, void *ctx), void *ctx);
void stow__registry_add(const stow__registry_view_t *view, stow_registry_entry_t *entry,
                        const stow_registry_kind_t *kind, const void *container,
                        const char *name, const char *subsystem, size_t storage);
bool stow__report_to(const stow__registry_view_t *view, bool csv,
                     void (*write)(void *ctx, const char *text, size_t len), void *ctx);
bool stow__report(const stow__registry_view_t *view, bool csv);
bool stow__budget_check(const stow__registry_view_t *view);

/* ---- the registry and the report ------------------------------------------------
 * Each call is inline: it finds the arrays and calls the library. */

/* Calls fn(entry, ctx) for every registered container: the DEFINE'd ones in link
 * order, then the added ones, newest first. fn must not add entries. O(entries).
 * Contract violation: fn is NULL. */
static inline void stow_registry_each(void (*fn)(const stow_registry_entry_t *entry, void *ctx),
                                      void *ctx)
{
    stow__registry_view_t v = stow__registry_view();
    stow__registry_each(&v, fn, ctx);
}

/* Calls fn(budget, ctx) for every STOW_BUDGET in the program. O(budgets).
 * Contract violation: fn is NULL. */
static inline void stow_budget_each(void (*fn)(const stow_budget_t *budget, void *ctx), void *ctx)
{
    stow__registry_view_t v = stow__registry_view();
    stow__budget_each(&v, fn, ctx);
}

/* Links entry into the registry, filled with the other arguments (subsystem NULL
 * or "" for none). entry must live as long as the program (a static); name and
 * subsystem too. Does nothing when entry, or an entry for the same container, is
 * in the registry already (so a container init'ed again is listed once). O(entries).
 * Not ISR-safe. Contract violation: entry, kind, container or name is NULL. */
static inline void stow_registry_add(stow_registry_entry_t *entry,
                                     const stow_registry_kind_t *kind, const void *container,
                                     const char *name, const char *subsystem, size_t storage)
{
    stow__registry_view_t v = stow__registry_view();
    stow__registry_add(&v, entry, kind, container, name, subsystem, storage);
}

/* STOW_REGISTER(kind, container, "name", storage_bytes): stow_registry_add() with
 * a static entry of its own, for a container set up with init; kind is arena,
 * pool, genpool, slotmap, packed or heap. A statement, in a function. */
#define STOW_REGISTER(kind, container, name, storage) \
    STOW__REGISTER_RUN(kind, container, name, "", storage)
#define STOW_REGISTER_IN(subsystem, kind, container, name, storage) \
    STOW__REGISTER_RUN(kind, container, name, #subsystem, storage)

/* Writes the report (see above) through stow_port_write: the table, or the same
 * numbers as CSV, one record per line, every line with the same twelve fields:
 *   record,name,kind,subsystem,capacity,used,peak,fails,storage,check,budget,peak_bytes
 *   container,voices,pool,audio,32,3,9,0,256,ok,,72
 *   subsystem,audio,,,,,,,768,,1024,172          (check: OVER when over budget)
 *   total,,,,,,,,5228,0,,172                     (check: how many checks failed)
 * Subsystem records come in the order the containers first name them (the
 * containers of no subsystem under the name ""), then budgets that no container
 * names. Returns true when every container's check() passed and no subsystem is
 * over its budget. O(entries * (entries + budgets) + the checks). Not ISR-safe. */
static inline bool stow_report(void)
{
    stow__registry_view_t v = stow__registry_view();
    return stow__report(&v, false);
}
static inline bool stow_report_csv(void)
{
    stow__registry_view_t v = stow__registry_view();
    return stow__report(&v, true);
}

/* The same, written through write(ctx, text, len) instead of the port (a log
 * buffer, a second UART), as CSV when csv is true. Contract violation: write is
 * NULL (returns false, writes nothing). */
static inline bool stow_report_to(bool csv, void (*write)(void *ctx, const char *text, size_t len),
                                  void *ctx)
{
    stow__registry_view_t v = stow__registry_view();
    return stow__report_to(&v, csv, write, ctx);
}

/* For every subsystem with a STOW_BUDGET: sums its containers' storage and, for
 * each one over its budget, writes
 *   stow budget: subsystem audio is over its budget of 1024 bytes (storage 1536 bytes)
 * Returns true when none is over. What a host test asserts (the link does the
 * same check on Cortex-M and RISC-V). O(entries * budgets). */
static inline bool stow_budget_check(void)
{
    stow__registry_view_t v = stow__registry_view();
    return stow__budget_check(&v);
}

/* Output, through stow_port_write: text up to its NUL; value in decimal,
 * right-aligned in width columns (0: as wide as it is). */
void stow_print(const char *text);
void stow_print_u(uint64_t value, unsigned width);
/* Writes value's decimal digits (no NUL) to out, which has room for
 * STOW_FORMAT_U_MAX characters, and returns how many. O(digits). */
#define STOW_FORMAT_U_MAX 20u
size_t stow_format_u(char *out, uint64_t value);

/* ---- private: what the DEFINE macros expand to ---------------------------------- */

/* The subsystem argument of the DEFINE bodies: the section prefix and the
 * subsystem's name, which become two macro arguments once expanded, so that
 * STOW__SECTION_IN(sub, module, name) and STOW__REGISTER(sub, kind, name, buf)
 * in a body take four and five. */
#define STOW__NO_SUBSYSTEM "", ""
#define STOW__SUBSYSTEM(sub) "in." #sub ".", #sub

#if STOW_SECTIONS
#define STOW__SECTION_IN(prefix, subname, module, name) \
    __attribute__((section(".bss.stow." prefix #module "." #name)))
#else
#define STOW__SECTION_IN(prefix, subname, module, name)
#endif

/* An _IN DEFINE built with STOW_SECTIONS 0 puts its storage where the link's
 * budget check cannot count it. It says so with a symbol that costs nothing (a
 * weak absolute one, stow_budget_uncounted_<subsystem>), and the fragment
 * tools/stow_budgets.sh writes fails the link when that symbol is defined for a
 * budgeted subsystem, naming the subsystem and STOW_SECTIONS: a budget that
 * cannot be checked is an error, not a pass. */
#if !STOW_SECTIONS && defined(__GNUC__) && defined(__ELF__)
#define STOW__UNCOUNTED(subname, name)                                                     \
    __asm__(".ifnb " subname "\n.weak stow_budget_uncounted_" subname                      \
            "\n.set stow_budget_uncounted_" subname ", 1\n.endif")
#else
#define STOW__UNCOUNTED(subname, name) extern int stow__uncounted_unused_##name
#endif

#if STOW__REGISTRY
/* A DEFINE's entry, after its container: a constant entry and, in the section
 * stow_registry, a pointer to it (pointers, not the entries themselves, so that
 * no compiler's extra alignment of larger objects opens gaps in the array). */
#define STOW__REGISTER(prefix, subname, kind, name, buf)                                    \
    static const stow_registry_entry_t stow__entry_##name = {#name, subname,                \
                                                             &stow_registry_kind_##kind,    \
                                                             &(name), sizeof(buf), NULL};   \
    __attribute__((used, section("stow_registry"),                             \
                   aligned(sizeof(void *)))) static const stow_registry_entry_t *const      \
        stow__registry_##name = &stow__entry_##name;                                       \
    STOW__UNCOUNTED(subname, name)
#else
#define STOW__REGISTER(prefix, subname, kind, name, buf)                                    \
    extern int stow__registry_unused_##name;                                               \
    STOW__UNCOUNTED(subname, name)
#endif

#define STOW__REGISTER_RUN(kind, container, name, subname, storage)                       \
    do {                                                                                  \
        static stow_registry_entry_t stow__entry;                                        \
        stow_registry_add(&stow__entry, &stow_registry_kind_##kind, (container), (name), \
                          (subname), (storage));                                          \
    } while (0)

/* STOW_BUDGET(subsystem, bytes), in C: the budget's entry, in the section
 * stow_budgets. A budget list's lines carry no semicolon, so this ends with one. */
#if STOW__REGISTRY
#define STOW_BUDGET(subsystem, bytes)                                                        \
    static const stow_budget_t stow__budget_##subsystem = {#subsystem,                      \
                                                           STOW__CAST(size_t, bytes)};      \
    __attribute__((used, section("stow_budgets"), aligned(sizeof(void *))))    \
    static const stow_budget_t *const stow__budget_ptr_##subsystem = &stow__budget_##subsystem;
#else
#define STOW_BUDGET(subsystem, bytes) extern int stow__budget_unused_##subsystem;
#endif

#ifdef __cplusplus
}
#endif

#endif /* STOW_REPORT_H */
