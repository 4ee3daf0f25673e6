/* SPDX-License-Identifier: MIT */
/* stow_malloc.c - the C allocator of an unmodified Linux program, on a stow heap:
 *
 *     LD_PRELOAD=/path/to/libstow_malloc.so STOW_HEAP_MB=64 STOW_HEAP_STATS=1 program ...
 *
 * Every malloc, free, calloc, realloc, reallocarray, aligned_alloc, memalign,
 * posix_memalign, valloc, pvalloc and malloc_usable_size of the process (the C
 * library's own included: glibc routes its internal calls through these
 * symbols) is served by one stow_heap_t over storage mapped at the first call.
 *
 * Environment, read once, at the first call:
 *   STOW_HEAP_MB=n        the heap's storage in MiB, a whole number from 1 (default
 *                         8192 with 64-bit pointers, 1024 with 32-bit ones; where
 *                         the system will not map that much, the largest of its
 *                         halves it maps, down to 64). Mapped with MAP_NORESERVE:
 *                         only the pages the heap touches cost memory, so the
 *                         default costs address space, not RAM. It runs what we
 *                         measured: xz -9 -T2 asks for 2.5 GB at most and
 *                         takes up to 4.0 GB of the heap (its few huge blocks
 *                         round up), gcc -O2 on a 1000-line file 6 MB, python3,
 *                         lua5.4 and openssl under 25 MB. Any other value (0,
 *                         abc, -5, 64MB, one whose bytes overflow, one the
 *                         system will not map) stops the program at its first
 *                         allocation with a one-line message and exit status
 *                         2, rather than running it on a size it did not ask
 *                         for. A request that does not
 *                         fit returns NULL with errno ENOMEM, like any malloc,
 *                         and the first one refused says so on stderr, with the
 *                         program, its pid, the size asked, the heap's size and
 *                         the variable to raise:
 *                           stow_malloc: xz[4242]: refused 201326592 bytes: the heap
 *                           (STOW_HEAP_MB=256, 268435456 bytes) is full; raise STOW_HEAP_MB
 *   STOW_HEAP_STATS=1     at exit, three lines on stderr (a copy of it made at
 *                         the first call, fd 900 or the lowest free one above
 *                         2, since some programs close stderr before they
 *                         exit): the heap's stats
 *                         (capacity, used, peak, fails), the requested bytes
 *                         (live and peak) and the footprint (below), and the
 *                         result of stow_heap_check(): "check ok" or
 *                         "check FAILED". Every line this library writes starts
 *                         "stow_malloc: <program>[<pid>]: ", the program being
 *                         the base name of argv[0] (each process of a pipeline
 *                         or a build has its own lines).
 *   STOW_HEAP_TRACE=file  one line per call to file (a "%p" in the name becomes
 *                         the process id); see "Trace" below.
 *
 * Footprint: the most storage the heap had in use at once, holes included: its
 * blocks up to the free one at their end (the top) and its pages of slots at
 * the storage's end (the heap's own fields). stats' peak is the
 * most block bytes (headers and rounding included) live at once; "requested" is
 * what the callers asked for. footprint / peak requested is the fragmentation
 * figure the replay bench (bench/replay.c) reports too.
 *
 * Threads: every call takes one process-wide mutex (a static
 * PTHREAD_MUTEX_INITIALIZER: no call to set it up, no allocation). The heap's
 * _isr variants would lock too (the host port's critical section is a mutex),
 * but they cover alloc, free and realloc only, and a trace line must be written
 * in the same order as the heap changes: one lock around each whole call. fork()
 * takes the lock first (pthread_atfork), so the child's heap is consistent; the
 * child stops tracing (its lines would interleave with the parent's).
 *
 * Early calls: the dynamic loader, libc's start-up and pthread internals call
 * malloc before any constructor runs. Nothing here allocates: the storage is an
 * anonymous mmap, the environment is read from environ (or /proc/self/environ
 * when environ is not set up yet), output uses write(2) on a fixed buffer.
 *
 * Pointers the heap did not give. A pointer outside the storage (memory the
 * dynamic loader's start-up allocator handed out before this library took over)
 * is not the heap's to free: free() ignores it and counts it ("foreign frees" in
 * the stats), malloc_usable_size() says 0, and realloc() of it stops the program
 * with a message, since its size is unknown. A pointer inside the storage that is
 * not a live block (a double free, a pointer into a block) is a contract
 * violation of the heap (check level 1): the library writes
 * "stow_malloc: contract violation: <what>" to stderr and aborts, as glibc does
 * for "free(): invalid pointer".
 *
 * glibc behaviour kept: malloc(0) returns a unique pointer; realloc(p, 0) frees
 * p and returns NULL; memalign rounds an alignment that is not a power of two up
 * to one; posix_memalign returns EINVAL for an alignment that is not a power of
 * two multiple of sizeof(void *); aligned_alloc sets EINVAL for one that is not
 * a power of two; pvalloc(0) gives one page. Alignments up to STOW_HEAP_ALIGN
 * (16) cost nothing; larger ones go through stow_heap_alloc_aligned.
 *
 * Trace: with STOW_HEAP_TRACE set, each call appends "op id size arg":
 *   m id size 0        malloc (or realloc(NULL, size))
 *   c id size n        calloc(n, size / n): size is the total
 *   a id size align    aligned_alloc, memalign, posix_memalign, valloc, pvalloc
 *   r id size old      realloc of block old; the result is block id
 *   f id 0 0           free (or realloc(p, 0)); free(NULL) is not recorded
 * Ids count from 1 in allocation order; id 0 is a refused request (no block).
 * The first line is "# stow trace 1: op id size arg", the second "# pid <pid>
 * program <name>" (bench/replay.c, which replays such a file, skips lines that
 * start with '#').
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "stow/heap.h"
#include "stow/port.h"

#define EXPORT __attribute__((visibility("default")))

#ifndef STOW_MALLOC_DEFAULT_MB
#define STOW_MALLOC_DEFAULT_MB (sizeof(void *) >= 8u ? 8192u : 1024u)
#endif
/* The smallest the default falls back to where the system maps less. */
#define STOW_MALLOC_FLOOR_MB 64u

extern char **environ;

static stow_heap_t heap;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int state;              /* 0: not set up; 1: ready; -1: no storage */
static unsigned char *heap_lo; /* the storage, [heap_lo, heap_hi) */
static unsigned char *heap_hi;
static size_t heap_bytes;
static size_t heap_mb;
static bool heap_mb_set;       /* STOW_HEAP_MB given (else the default) */
static bool said_refused;      /* the first refusal has been reported */
static char program[64] = "?"; /* base name of argv[0] */
static bool want_stats;
static int stats_fd = STDERR_FILENO; /* a copy of stderr, made at set-up: some programs close theirs at exit */
static uint64_t calls;
static uint64_t foreign_frees;

/* ---- output without allocating ------------------------------------------------------ */

static void put(int fd, const char *text, size_t len)
{
    while (len > 0u) {
        ssize_t n = write(fd, text, len);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) {
                continue;
            }
            return;
        }
        text += n;
        len -= (size_t)n;
    }
}

/* Decimal digits of v, written backwards from end; returns the first digit. */
static char *digits_of(uint64_t v, char *end)
{
    do {
        *--end = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0u);
    return end;
}

/* A line builder over a caller's buffer. */
struct line {
    char *buf;
    size_t len;
    size_t cap;
};

static void add(struct line *l, const char *text)
{
    while (*text != '\0' && l->len < l->cap) {
        l->buf[l->len++] = *text++;
    }
}

static void add_u64(struct line *l, uint64_t v)
{
    char digits[24];
    char *end = digits + sizeof digits - 1u;
    *end = '\0';
    add(l, digits_of(v, end));
}

/* num / den with two decimals. */
static void add_ratio(struct line *l, uint64_t num, uint64_t den)
{
    if (den == 0u) {
        add(l, "-");
        return;
    }
    uint64_t hundredths = (num * 100u + den / 2u) / den;
    add_u64(l, hundredths / 100u);
    char frac[4] = {'.', (char)('0' + (int)(hundredths / 10u % 10u)), (char)('0' + (int)(hundredths % 10u)),
                    '\0'};
    add(l, frac);
}

/* "stow_malloc: <program>[<pid>]: ", which starts every line this library writes
 * (the pid read now: a forked child has its own). */
static void add_prefix(struct line *l)
{
    add(l, "stow_malloc: ");
    add(l, program);
    add(l, "[");
    add_u64(l, (uint64_t)getpid());
    add(l, "]: ");
}

/* One line, prefixed, to fd. */
static void say(int fd, const char *text)
{
    char buf[512];
    struct line l = {buf, 0u, sizeof buf - 1u};
    add_prefix(&l);
    add(&l, text);
    add(&l, "\n");
    put(fd, buf, l.len);
}

/* ---- the environment ------------------------------------------------------------------ */

/* Before libc has set environ up (the loader's own early calls), the process's
 * initial environment is read from /proc/self/environ into this buffer. */
static char proc_env[32768];
static size_t proc_env_len;
static bool proc_env_read;

static const char *match(const char *entry, const char *name)
{
    size_t n = strlen(name);
    return strncmp(entry, name, n) == 0 && entry[n] == '=' ? entry + n + 1 : NULL;
}

static const char *env(const char *name)
{
    if (environ != NULL) {
        for (char **e = environ; *e != NULL; e++) {
            const char *v = match(*e, name);
            if (v != NULL) {
                return v;
            }
        }
        return NULL;
    }
    if (!proc_env_read) {
        proc_env_read = true;
        int fd = open("/proc/self/environ", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ssize_t n;
            while (proc_env_len < sizeof proc_env - 1u &&
                   (n = read(fd, proc_env + proc_env_len, sizeof proc_env - 1u - proc_env_len)) > 0) {
                proc_env_len += (size_t)n;
            }
            close(fd);
        }
        proc_env[proc_env_len] = '\0';
    }
    for (size_t at = 0; at < proc_env_len; at += strlen(proc_env + at) + 1u) {
        const char *v = match(proc_env + at, name);
        if (v != NULL) {
            return v;
        }
    }
    return NULL;
}

/* The program's name: argv[0] from /proc/self/cmdline without its directory. */
static void read_program(void)
{
    char buf[256];
    ssize_t n = -1;
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        n = read(fd, buf, sizeof buf - 1u);
        close(fd);
    }
    if (n <= 0) {
        return;
    }
    buf[n] = '\0';
    const char *base = buf;
    for (const char *c = buf; *c != '\0'; c++) {
        if (*c == '/' && c[1] != '\0') {
            base = c + 1;
        }
    }
    size_t len = strlen(base);
    if (len >= sizeof program) {
        len = sizeof program - 1u;
    }
    memcpy(program, base, len);
    program[len] = '\0';
}

/* STOW_HEAP_MB: unset or empty, the default; a whole number of MiB from 1 whose
 * bytes fit in size_t; anything else stops the program with a message. */
static size_t heap_mb_from_env(void)
{
    const char *v = env("STOW_HEAP_MB");
    if (v == NULL || *v == '\0') {
        return 0u;
    }
    size_t n = 0;
    bool fits = true;
    const char *c = v;
    for (; *c >= '0' && *c <= '9'; c++) {
        size_t digit = (size_t)(*c - '0');
        fits = fits && n <= (SIZE_MAX / (1024u * 1024u) - digit) / 10u;
        n = n * 10u + digit;
    }
    if (*c != '\0' || n == 0u || !fits) {
        char text[256];
        struct line l = {text, 0u, sizeof text - 1u};
        add(&l, "STOW_HEAP_MB=");
        add(&l, v);
        add(&l, " is not a heap size: give a whole number of MiB from 1 to ");
        add_u64(&l, SIZE_MAX / (1024u * 1024u));
        add(&l, ", or leave it unset for the default (");
        add_u64(&l, STOW_MALLOC_DEFAULT_MB);
        add(&l, ")");
        text[l.len] = '\0';
        say(STDERR_FILENO, text);
        _exit(2);
    }
    return n;
}

/* ---- bookkeeping for the statistics and the trace ------------------------------------- *
 *
 * With STOW_HEAP_STATS or STOW_HEAP_TRACE set, a side table (one entry per
 * STOW_HEAP_ALIGN bytes of storage, mapped like the storage, touched only where
 * blocks start) keeps each live block's id and requested size. */
struct slot {
    uint32_t id;
    uint32_t size; /* requested bytes, saturated at UINT32_MAX */
};
static struct slot *slots;
static uint64_t live_requested;
static uint64_t peak_requested;
static size_t footprint; /* see the header comment */
static uint32_t next_id = 1u;

static int trace_fd = -1;
static char trace_buf[65536];
static size_t trace_len;
static bool exiting; /* after the destructor: write each line at once */

static void trace_flush(void)
{
    if (trace_fd >= 0 && trace_len > 0u) {
        put(trace_fd, trace_buf, trace_len);
    }
    trace_len = 0u;
}

static void trace_line(char op, uint32_t id, uint64_t size, uint64_t arg)
{
    if (trace_fd < 0) {
        return;
    }
    char text[80];
    struct line l = {text, 0u, sizeof text};
    char opname[4] = {op, ' ', '\0', '\0'};
    add(&l, opname);
    add_u64(&l, id);
    add(&l, " ");
    add_u64(&l, size);
    add(&l, " ");
    add_u64(&l, arg);
    add(&l, "\n");
    if (trace_len + l.len > sizeof trace_buf) {
        trace_flush();
    }
    memcpy(trace_buf + trace_len, text, l.len);
    trace_len += l.len;
    if (exiting) {
        trace_flush();
    }
}

static struct slot *slot_of(const void *p)
{
    return &slots[(size_t)((const unsigned char *)p - heap_lo) / STOW_HEAP_ALIGN];
}

/* A block p was handed out for a request of size bytes; returns its id. */
static uint32_t note_alloc(void *p, size_t size)
{
    if (slots == NULL) {
        return 0u;
    }
    uint32_t id = next_id++;
    if (next_id == 0u) {
        next_id = 1u;
    }
    struct slot *s = slot_of(p);
    s->id = id;
    s->size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
    live_requested += s->size;
    if (live_requested > peak_requested) {
        peak_requested = live_requested;
    }
    const unsigned char *top = heap.top != NULL ? heap.top : heap.region.limit;
    size_t end = (size_t)(top - heap.region.first) + (size_t)(heap.region.top - heap.zone_lo);
    if (end > footprint) {
        footprint = end;
    }
    return id;
}

/* Block p is given back (freed, or moved by realloc); returns its id. */
static uint32_t note_free(const void *p)
{
    if (slots == NULL) {
        return 0u;
    }
    struct slot *s = slot_of(p);
    live_requested -= s->size;
    return s->id;
}

/* ---- set-up ------------------------------------------------------------------------------ */

static void *map(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void open_trace(const char *name)
{
    char path[4096];
    struct line l = {path, 0u, sizeof path - 1u};
    for (const char *c = name; *c != '\0'; c++) {
        if (c[0] == '%' && c[1] == 'p') {
            add_u64(&l, (uint64_t)getpid());
            c++;
        } else {
            char one[2] = {*c, '\0'};
            add(&l, one);
        }
    }
    path[l.len] = '\0';
    trace_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (trace_fd < 0) {
        say(STDERR_FILENO, "cannot open the trace file (STOW_HEAP_TRACE); not tracing");
        return;
    }
    char head[160];
    struct line h = {head, 0u, sizeof head};
    add(&h, "# stow trace 1: op id size arg\n# pid ");
    add_u64(&h, (uint64_t)getpid());
    add(&h, " program ");
    add(&h, program);
    add(&h, "\n");
    put(trace_fd, head, h.len);
}

/* Called with the lock held. True when the heap is ready. */
static bool ready(void)
{
    if (state != 0) {
        return state > 0;
    }
    state = -1;
    read_program();
    size_t mb = heap_mb_from_env();
    heap_mb_set = mb != 0u;
    if (!heap_mb_set) {
        mb = STOW_MALLOC_DEFAULT_MB;
    }
    const char *stats = env("STOW_HEAP_STATS");
    want_stats = stats != NULL && stats[0] != '\0' && strcmp(stats, "0") != 0;
    const char *trace = env("STOW_HEAP_TRACE");
    if (want_stats) {
        int fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 900);
        if (fd < 0) {
            fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
        }
        stats_fd = fd >= 0 ? fd : STDERR_FILENO;
    }
    heap_lo = map(mb * 1024u * 1024u);
    while (heap_lo == NULL && !heap_mb_set && mb / 2u >= STOW_MALLOC_FLOOR_MB) {
        mb /= 2u;
        heap_lo = map(mb * 1024u * 1024u);
    }
    heap_mb = mb;
    heap_bytes = mb * 1024u * 1024u;
    if (heap_lo == NULL || !stow_heap_init(&heap, heap_lo, heap_bytes)) {
        char text[200];
        struct line l = {text, 0u, sizeof text - 1u};
        add(&l, "cannot map ");
        add_u64(&l, heap_bytes);
        add(&l, " bytes for the heap (STOW_HEAP_MB=");
        add_u64(&l, mb);
        add(&l, "): set STOW_HEAP_MB lower");
        text[l.len] = '\0';
        say(STDERR_FILENO, text);
        _exit(2);
    }
    heap_hi = heap_lo + heap_bytes;
    if (want_stats || (trace != NULL && trace[0] != '\0')) {
        slots = map(heap_bytes / STOW_HEAP_ALIGN * sizeof(struct slot));
        if (slots == NULL) {
            say(STDERR_FILENO, "no room for the statistics' side table");
        } else if (trace != NULL && trace[0] != '\0') {
            open_trace(trace);
        }
    }
    state = 1;
    return true;
}

static bool ours(const void *p)
{
    return (const unsigned char *)p >= heap_lo && (const unsigned char *)p < heap_hi;
}

/* ---- the port the heap needs ---------------------------------------------------------------- */

void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    (void)file;
    (void)line;
    char text[400];
    struct line l = {text, 0u, sizeof text - 1u};
    add(&l, "contract violation: ");
    add(&l, expr);
    text[l.len] = '\0';
    say(STDERR_FILENO, text);
    /* abort() may run a signal handler that allocates: let it. */
    pthread_mutex_unlock(&lock);
    abort();
}

/* Only the heap's _isr variants and lock() call these, and this library does not. */
uint32_t stow_port_critical_enter(void)
{
    pthread_mutex_lock(&lock);
    return 0u;
}

void stow_port_critical_exit(uint32_t s)
{
    (void)s;
    pthread_mutex_unlock(&lock);
}

uint32_t stow_port_lock(uint32_t *word)
{
    (void)word;
    pthread_mutex_lock(&lock);
    return 0u;
}

void stow_port_unlock(uint32_t *word, uint32_t s)
{
    (void)word;
    (void)s;
    pthread_mutex_unlock(&lock);
}

/* ---- the calls ----------------------------------------------------------------------------- */

/* The first request the heap refuses: one line on stderr (the later ones are
 * the program's to report). Called with the lock held. */
static void refused(uint64_t size)
{
    if (said_refused) {
        return;
    }
    said_refused = true;
    char text[300];
    struct line l = {text, 0u, sizeof text - 1u};
    add(&l, "refused ");
    add_u64(&l, size);
    add(&l, " bytes: the heap (STOW_HEAP_MB=");
    add_u64(&l, heap_mb);
    add(&l, heap_mb_set ? ", " : " by default, ");
    add_u64(&l, heap_bytes);
    add(&l, " bytes) is full; raise STOW_HEAP_MB");
    text[l.len] = '\0';
    say(STDERR_FILENO, text);
}

static void *alloc_locked(char op, size_t size, size_t align, uint64_t arg)
{
    calls++;
    if (!ready()) {
        return NULL;
    }
    void *p;
    if (op == 'c') {
        p = stow_heap_calloc(&heap, arg, size);
        size = size * (arg != 0u ? arg : 1u); /* no overflow: calloc checked */
    } else if (align > STOW_HEAP_ALIGN) {
        p = stow_heap_alloc_aligned(&heap, size, align);
    } else {
        p = stow_heap_alloc(&heap, size);
    }
    uint32_t id = p != NULL ? note_alloc(p, size) : 0u;
    if (p == NULL) {
        refused(size);
    }
    trace_line(op, id, size, op == 'a' ? align : arg);
    return p;
}

static void *alloc(char op, size_t size, size_t align, uint64_t arg)
{
    pthread_mutex_lock(&lock);
    void *p = alloc_locked(op, size, align, arg);
    pthread_mutex_unlock(&lock);
    if (p == NULL) {
        errno = ENOMEM;
    }
    return p;
}

EXPORT void *malloc(size_t size) { return alloc('m', size, 0u, 0u); }

EXPORT void *calloc(size_t n, size_t size)
{
    if (size != 0u && n > SIZE_MAX / size) {
        pthread_mutex_lock(&lock);
        calls++;
        if (ready()) {
            (void)stow_heap_calloc(&heap, n, size); /* refused: counts the fail */
            trace_line('c', 0u, SIZE_MAX, n);
        }
        pthread_mutex_unlock(&lock);
        errno = ENOMEM;
        return NULL;
    }
    return alloc('c', size, 0u, n);
}

EXPORT void free(void *p)
{
    if (p == NULL) {
        return;
    }
    pthread_mutex_lock(&lock);
    calls++;
    if (state > 0 && ours(p)) {
        stow_heap_free(&heap, p); /* a violation aborts in the hook */
        uint32_t id = note_free(p);
        trace_line('f', id, 0u, 0u);
    } else {
        foreign_frees++;
    }
    pthread_mutex_unlock(&lock);
}

EXPORT void *realloc(void *p, size_t size)
{
    if (p == NULL) {
        return alloc('m', size, 0u, 0u);
    }
    if (size == 0u) { /* glibc: realloc(p, 0) frees p */
        free(p);
        return NULL;
    }
    pthread_mutex_lock(&lock);
    calls++;
    if (state <= 0 || !ours(p)) {
        pthread_mutex_unlock(&lock);
        say(STDERR_FILENO, "realloc of a pointer the heap did not give (allocated before "
                           "libstow_malloc took over?): its size is unknown");
        abort();
    }
    void *q = stow_heap_realloc(&heap, p, size);
    uint32_t id = 0u;
    if (q != NULL) {
        uint32_t old = note_free(p);
        id = note_alloc(q, size);
        trace_line('r', id, size, old);
    } else {
        refused(size);
        trace_line('r', 0u, size, slots != NULL ? slot_of(p)->id : 0u);
    }
    pthread_mutex_unlock(&lock);
    if (q == NULL) {
        errno = ENOMEM;
    }
    return q;
}

EXPORT void *reallocarray(void *p, size_t n, size_t size)
{
    if (size != 0u && n > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(p, n * size);
}

static bool pow2(size_t a) { return a != 0u && (a & (a - 1u)) == 0u; }

EXPORT void *memalign(size_t align, size_t size)
{
    if (align > SIZE_MAX / 2u + 1u) {
        errno = EINVAL;
        return NULL;
    }
    size_t a = 1u;
    while (a < align) {
        a <<= 1;
    }
    return alloc('a', size, a, 0u);
}

EXPORT void *aligned_alloc(size_t align, size_t size)
{
    if (!pow2(align)) {
        errno = EINVAL;
        return NULL;
    }
    return alloc('a', size, align, 0u);
}

EXPORT int posix_memalign(void **out, size_t align, size_t size)
{
    if (!pow2(align) || align % sizeof(void *) != 0u) {
        return EINVAL;
    }
    int saved = errno;
    void *p = alloc('a', size, align, 0u);
    errno = saved;
    if (p == NULL) {
        return ENOMEM;
    }
    *out = p;
    return 0;
}

static size_t page_size(void)
{
    long n = sysconf(_SC_PAGESIZE);
    return n > 0 ? (size_t)n : 4096u;
}

EXPORT void *valloc(size_t size) { return alloc('a', size, page_size(), 0u); }

EXPORT void *pvalloc(size_t size)
{
    size_t page = page_size();
    if (size > SIZE_MAX - page) {
        errno = ENOMEM;
        return NULL;
    }
    size_t rounded = size == 0u ? page : (size + page - 1u) & ~(page - 1u);
    return alloc('a', rounded, page, 0u);
}

EXPORT size_t malloc_usable_size(void *p)
{
    if (p == NULL) {
        return 0u;
    }
    pthread_mutex_lock(&lock);
    size_t n = state > 0 && ours(p) ? stow_heap_usable_size(&heap, p) : 0u;
    pthread_mutex_unlock(&lock);
    return n;
}

/* ---- fork and exit ------------------------------------------------------------------------ */

static void fork_prepare(void) { pthread_mutex_lock(&lock); }
static void fork_parent(void) { pthread_mutex_unlock(&lock); }
static void fork_child(void)
{
    trace_fd = -1; /* the parent's file and buffer */
    trace_len = 0u;
    pthread_mutex_unlock(&lock);
}

__attribute__((constructor)) static void stow_malloc_start(void)
{
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

__attribute__((destructor)) static void stow_malloc_end(void)
{
    pthread_mutex_lock(&lock);
    trace_flush();
    exiting = true;
    if (state == 0) { /* a program that never allocated still gets its stats, if asked */
        const char *stats = env("STOW_HEAP_STATS");
        if (stats != NULL && stats[0] != '\0' && strcmp(stats, "0") != 0) {
            (void)ready();
        }
    }
    if (!want_stats || state <= 0) {
        pthread_mutex_unlock(&lock);
        return;
    }
    stow_stats_t st;
    stow_heap_stats(&heap, &st);
    bool ok = stow_heap_check(&heap);
    char text[640];
    struct line l = {text, 0u, sizeof text};
    add_prefix(&l);
    add(&l, "heap ");
    add_u64(&l, heap_bytes);
    add(&l, " bytes: capacity ");
    add_u64(&l, st.capacity);
    add(&l, ", used ");
    add_u64(&l, st.used);
    add(&l, ", peak ");
    add_u64(&l, st.peak);
    add(&l, ", fails ");
    add_u64(&l, st.fails);
    add(&l, "; calls ");
    add_u64(&l, calls);
    add(&l, ", foreign frees ");
    add_u64(&l, foreign_frees);
    add(&l, "\n");
    if (slots != NULL) {
        add_prefix(&l);
        add(&l, "requested bytes: live ");
        add_u64(&l, live_requested);
        add(&l, ", peak ");
        add_u64(&l, peak_requested);
        add(&l, "; footprint ");
        add_u64(&l, footprint);
        add(&l, "; peak / peak requested ");
        add_ratio(&l, st.peak, peak_requested);
        add(&l, ", footprint / peak requested ");
        add_ratio(&l, footprint, peak_requested);
        add(&l, "\n");
    }
    add_prefix(&l);
    add(&l, ok ? "check ok\n" : "check FAILED\n");
    pthread_mutex_unlock(&lock);
    put(stats_fd, text, l.len);
}
