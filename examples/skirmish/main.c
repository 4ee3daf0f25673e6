/* SPDX-License-Identifier: MIT */
/* skirmish - a game tick on a Cortex-M4, with every container of stow at work.
 *
 *   enemies   genpool  items that stay put; missiles hold their handles, and a
 *                      handle to a destroyed enemy goes stale even when a new enemy
 *                      takes its slot; clear() at the end of a level flushes
 *                      them all
 *   missiles  slotmap  packed for the per-frame update loop, handles for the HUD;
 *                      a missile that hits is marked dead and reaped by refresh()
 *                      at the end of the frame, survivors keeping their order
 *   events    pool     fixed-size messages made during the frame and consumed at
 *                      its end
 *   voices    packed   the sounds playing now; a finished one is swap-and-popped
 *   frame     arena    per-frame scratch: the targeting list, reset every frame
 *   feed      heap     the HUD's kill feed: each frame's events as a line of text
 *                      that grows with realloc as events arrive, kept for three
 *                      frames; a heap sized by its fragmentation bound, so it
 *                      never refuses a line however the lines come and go
 *
 * Everything is defined statically, in .stow (see linker/stow.ld): no init calls,
 * no malloc. The containers are counted in subsystems (game, audio, hud; the
 * frame arena in none), each with a budget. Runs under QEMU (make demo), prints
 * what happens, then stow_report(): every container's statistics, storage and
 * check(), and each subsystem's storage and peak against its budget; its status
 * is 0 when every check passed and every subsystem kept to its budget.
 */
#include "stow/stow.h"

#define FRAMES 14u

struct enemy {
    uint32_t id;
    int32_t health;
    int32_t x;
};
/* Also declares enemies_handle_t, which a missile keeps. */
STOW_GENPOOL_DEFINE_TYPED_IN(game, enemies, struct enemy, 6);

struct missile {
    uint32_t id;
    int32_t x, speed;
    enemies_handle_t target; /* stale once the enemy is destroyed */
};

struct event {
    struct event *next;
    uint32_t frame;
    const char *what;
    uint32_t id;
};

struct voice {
    uint32_t sound;
    uint32_t frames_left;
};

STOW_SLOTMAP_DEFINE_TYPED_IN(game, missiles, struct missile, 12);
STOW_POOL_DEFINE_IN(game, events, struct event, 8);
STOW_PACKED_DEFINE_IN(audio, voices, struct voice, 4);
STOW_ARENA_DEFINE(frame, 256);

/* The kill feed: FEED_FRAMES lines of at most FEED_LINE_MAX characters, each
 * grown piece by piece (never less than FEED_PIECE_MIN bytes at a time). While a
 * realloc moves a line, the old and the new copy are both live: one line more.
 * A bounded heap, so that the bound macro's size can never run out. */
#define FEED_FRAMES 3u
#define FEED_LINE_MAX 96u
#define FEED_PIECE_MIN 12u
STOW_HEAP_DEFINE_BOUNDED_IN(hud, feed, STOW_HEAP_BYTES_FOR_MIN((FEED_FRAMES + 1u) * (FEED_LINE_MAX + 1u),
                                                       FEED_LINE_MAX + 1u, FEED_PIECE_MIN));
static char *feed_lines[FEED_FRAMES];
static uint32_t feed_length[FEED_FRAMES];

/* The subsystems' budgets, in bytes of storage: the report (at the end) shows
 * each one's storage and peak against them. A firmware would keep these lines in
 * a budgets.h that its link checks too (tools/stow_budgets.sh). */
STOW_BUDGET(game, 1024)
STOW_BUDGET(audio, 64)
STOW_BUDGET(hud, 6 * 1024)

/* ---------------------------------------------------------------- kill feed */

/* Appends "what #id; " to this frame's line, growing it with realloc. A line
 * that would pass FEED_LINE_MAX drops the piece. */
static void feed_append(uint32_t frame_no, const char *what, uint32_t id)
{
    char piece[48u + 4u + STOW_FORMAT_U_MAX];
    uint32_t n = 0;
    while (what[n] != '\0' && n < 48u) {
        piece[n] = what[n];
        n++;
    }
    piece[n++] = ' ';
    piece[n++] = '#';
    n += (uint32_t)stow_format_u(&piece[n], id);
    piece[n++] = ';';
    piece[n++] = ' ';
    uint32_t slot = frame_no % FEED_FRAMES;
    uint32_t length = feed_length[slot] + n;
    if (length > FEED_LINE_MAX) {
        return;
    }
    char *line = (char *)stow_heap_realloc(&feed, feed_lines[slot], length + 1u);
    if (line == NULL) {
        return; /* the old line stays as it was */
    }
    for (uint32_t i = 0; i < n; i++) {
        line[feed_length[slot] + i] = piece[i];
    }
    line[length] = '\0';
    feed_lines[slot] = line;
    feed_length[slot] = length;
}

/* A new frame takes the slot of the frame FEED_FRAMES ago: its line goes. */
static void feed_new_frame(uint32_t frame_no)
{
    uint32_t slot = frame_no % FEED_FRAMES;
    stow_heap_free(&feed, feed_lines[slot]);
    feed_lines[slot] = NULL;
    feed_length[slot] = 0u;
}

/* ---------------------------------------------------------------- events */

static struct event *queue_head, **queue_tail = &queue_head;

/* Queues a message for the end of the frame; a full pool drops it (and counts a
 * fail), as a firmware's message queue would. */
static void post(uint32_t frame_no, const char *what, uint32_t id)
{
    struct event *e = STOW_POOL_NEW(&events, struct event);
    if (e == NULL) {
        return;
    }
    e->next = NULL;
    e->frame = frame_no;
    e->what = what;
    e->id = id;
    *queue_tail = e;
    queue_tail = &e->next;
}

static void deliver_events(void)
{
    for (struct event *e = queue_head, *next; e != NULL; e = next) {
        next = e->next;
        stow_print("    ");
        stow_print(e->what);
        stow_print(" #");
        stow_print_u(e->id, 0u);
        stow_print("\n");
        feed_append(e->frame, e->what, e->id);
        if (stow_packed_count(&voices) < stow_packed_capacity(&voices)) {
            struct voice *v = STOW_PACKED_PUSH(&voices, struct voice);
            v->sound = e->id;
            v->frames_left = 2u;
        }
        stow_pool_free(&events, e);
    }
    queue_head = NULL;
    queue_tail = &queue_head;
}

/* ---------------------------------------------------------------- the game */

static uint32_t next_id = 1u;

static void spawn_enemy(int32_t x)
{
    struct enemy e = {next_id++, 3, x};
    enemies_handle_t h = enemies_insert(&e);
    if (!enemies_is_null(h)) {
        stow_print("    enemy #");
        stow_print_u(e.id, 0u);
        stow_print(" enters slot ");
        stow_print_u(stow_handle_index(h.untyped), 0u);
        stow_print(", generation ");
        stow_print_u(stow_handle_generation(h.untyped), 0u);
        stow_print("\n");
    }
}

/* Targeting uses a scratch list of live enemies, nearest first, built in the
 * frame arena: it lives for this frame only. */
static enemies_handle_t nearest_enemy(int32_t x)
{
    uint32_t n = enemies_count();
    enemies_handle_t *list = STOW_ARENA_NEW_ARRAY(&frame, enemies_handle_t, n);
    enemies_handle_t best = {STOW_HANDLE_NULL};
    if (list == NULL) {
        return best;
    }
    uint32_t k = 0;
    for (enemies_handle_t h = enemies_first(); !enemies_is_null(h); h = enemies_next(h)) {
        list[k++] = h;
    }
    int32_t best_d = INT32_MAX;
    for (uint32_t i = 0; i < k; i++) {
        int32_t d = enemies_get(list[i])->x - x;
        d = d < 0 ? -d : d;
        if (d < best_d) {
            best_d = d;
            best = list[i];
        }
    }
    return best;
}

static void fire(uint32_t frame_no)
{
    struct missile m = {next_id++, 0, 7, {STOW_HANDLE_NULL}};
    m.target = nearest_enemy(0);
    if (enemies_is_null(m.target)) {
        return;
    }
    missiles_handle_t h = missiles_insert(&m);
    if (!missiles_is_null(h)) {
        post(frame_no, "launch missile", m.id);
    }
}

/* The per-frame update: a plain loop over the packed missiles. */
static void fly_missiles(uint32_t frame_no)
{
    struct missile *all = missiles_data();
    for (uint32_t i = 0; i < missiles_count(); i++) {
        struct missile *m = &all[i];
        missiles_handle_t self = missiles_handle_at(i);
        if (missiles_is_dead(self)) {
            continue;
        }
        struct enemy *t = enemies_get(m->target);
        if (t == NULL) {
            /* The target is gone: its slot may hold a new enemy already, but the
             * old handle's generation no longer matches, so we cannot hit it. */
            post(frame_no, "target gone, missile self-destructs", m->id);
            missiles_mark_dead(self);
            continue;
        }
        m->x += m->speed;
        if (m->x >= t->x) {
            t->health -= 2;
            missiles_mark_dead(self); /* readable until refresh() */
            if (t->health <= 0) {
                post(frame_no, "enemy destroyed", t->id);
                enemies_remove(m->target);
            } else {
                post(frame_no, "hit enemy", t->id);
            }
        }
    }
}

static void on_missile_destroyed(void *item, void *ctx)
{
    uint32_t *reaped = (uint32_t *)ctx;
    (void)item;
    (*reaped)++;
}

static void play_voices(void)
{
    for (uint32_t i = 0; i < stow_packed_count(&voices);) {
        struct voice *v = STOW_PACKED_AT(&voices, struct voice, i);
        if (--v->frames_left == 0u) {
            stow_packed_remove_at(&voices, i); /* the last voice moves into i */
        } else {
            i++;
        }
    }
}

int main(void)
{
    stow_print("stow demo: a skirmish, one frame at a time (Cortex-M4, no malloc, no init calls)\n");
    for (uint32_t f = 0; f < FRAMES; f++) {
        stow_print("frame ");
        stow_print_u(f, 0u);
        stow_print("\n");
        feed_new_frame(f);
        if (f % 3u == 0u) {
            spawn_enemy((int32_t)(20u + 5u * (f % 4u)));
        }
        fire(f);
        fly_missiles(f);
        uint32_t reaped = 0;
        uint32_t destroyed = missiles_refresh(on_missile_destroyed, &reaped);
        deliver_events();
        play_voices();
        stow_print("    missiles ");
        stow_print_u(missiles_count(), 0u);
        stow_print(" (refresh reaped ");
        stow_print_u(destroyed, 0u);
        stow_print("), enemies ");
        stow_print_u(enemies_count(), 0u);
        stow_print(", voices ");
        stow_print_u(stow_packed_count(&voices), 0u);
        stow_print(", scratch ");
        stow_print_u((uint32_t)stow_arena_used(&frame), 0u);
        stow_print(" bytes, feed ");
        stow_print_u(feed_length[f % FEED_FRAMES], 0u);
        stow_print(" chars\n");
        if (reaped != destroyed) {
            return 1;
        }
        stow_arena_reset(&frame);
    }

    stow_print("\nlevel over: clear the enemies (a flush): every old handle goes stale\n");
    enemies_handle_t survivor = enemies_first();
    enemies_clear();
    stow_print(enemies_get(survivor) == NULL ? "    the old handle is stale\n" : "    STALE HANDLE MATCHED\n");

    /* Every container, its subsystem and its check(), from the registry. */
    stow_print("\n");
    bool ok = stow_report();
    ok = enemies_get(survivor) == NULL && ok;
    return ok ? 0 : 1;
}
