// SPDX-License-Identifier: MIT
// cxx_entities - an entity update loop in C++ over stow.hpp (make demo).
//
// Drones fly across the field; turrets lock onto them. A turret keeps its
// target as a stow::handle into the same slot map the drones live in, so when
// a drone is destroyed (marked dead in the frame, reaped by refresh() at its
// end) every turret holding its handle sees nullptr and picks another, even
// after a new drone has taken the same slot. Each entity owns its name, a
// string on a stow::heap, which its destructor gives back: refresh() runs it
// for the dead, and the slot map's own destructor for the rest, so the heap
// ends the run empty. Each frame lists its targets in a stow::arena, inside an
// arena_scope.
//
// The heap and the arena are constinit globals (no code runs before main); the
// entities live in the level, an object of main's that has them as a member.
// No malloc anywhere. Prints the frames, then the statistics; exits 0 when
// every check passed.
#include "stow/stow.hpp"

namespace {

struct Entity;
using Entities = stow::slotmap<Entity, 24>;
using Handle = stow::handle<Entities>;

char *copy_name(const char *prefix, uint32_t id);
void free_name(char *name);

enum class Kind : uint8_t { turret, drone };

struct Entity {
    Kind kind;
    int32_t x = 0;
    int32_t speed = 0;
    int32_t hp = 3;
    Handle target; // a turret's drone; null, then stale once the drone is gone
    char *name;    // owned: given back by the destructor

    Entity(Kind k, int32_t at, int32_t v, uint32_t id)
        : kind(k), x(at), speed(v), name(copy_name(k == Kind::turret ? "turret-" : "drone-", id))
    {
    }
    Entity(const Entity &) = delete;
    Entity &operator=(const Entity &) = delete;
    ~Entity() { free_name(name); }
};

constinit stow::heap<2048> names;   // trivially destructible: no exit-time code either
constinit stow::arena<256> scratch; // the frame's lists

struct Level {
    Entities entities;
    uint32_t next_id = 1;
    uint32_t destroyed = 0;
};

char *copy_name(const char *prefix, uint32_t id)
{
    char *s = names.make_array<char>(16); // zeroed
    if (s == nullptr) {
        return nullptr;
    }
    size_t n = 0;
    while (prefix[n] != '\0') {
        s[n] = prefix[n];
        n++;
    }
    s[n++] = static_cast<char>('0' + id / 10u % 10u);
    s[n] = static_cast<char>('0' + id % 10u);
    return s;
}

void free_name(char *name) { names.destroy_array(name, 16); }

Handle spawn(Level &level, Kind kind, int32_t x, int32_t speed)
{
    return level.entities.emplace(kind, x, speed, level.next_id++);
}

int32_t distance(const Entity &a, const Entity &b) { return a.x > b.x ? a.x - b.x : b.x - a.x; }

} // namespace

// An Entity owns a pointer to its name, not a pointer into itself: moving it
// by its bytes is a correct move, so refresh() may close the gaps that way.
template <> struct stow::relocatable<Entity> {
    static constexpr bool value = true;
};

namespace {

bool play(Level &level)
{
    bool ok = true;
    for (int32_t i = 0; i < 3; i++) {
        ok = ok && spawn(level, Kind::turret, 40 * i, 0);
    }
    for (uint32_t frame = 1; frame <= 12; frame++) {
        stow_print("frame ");
        stow_print_u(frame, 0u);
        stow_print("\n");
        if (frame % 2u == 1u) { // a new drone every other frame, from the left or the right
            Handle h = spawn(level, Kind::drone, frame % 4u == 1u ? -10 : 90, frame % 4u == 1u ? 7 : -6);
            if (!h) {
                return false; // the map is full
            }
            stow_print("  ");
            stow_print(level.entities.get(h)->name);
            stow_print(" enters: slot ");
            stow_print_u(h.index(), 0u);
            stow_print(", generation ");
            stow_print_u(h.generation(), 0u);
            stow_print("\n");
        }
        stow::arena_scope frame_lists(scratch); // this frame's lists, gone at its end

        // Move: a plain loop over the packed entities.
        for (Entity &e : level.entities) {
            e.x += e.speed;
        }

        // Aim and fire: each turret keeps its target's handle from frame to frame.
        Entities::handle_type *drones = frame_lists.make_array<Entities::handle_type>(level.entities.size());
        uint32_t n_drones = 0;
        for (uint32_t i = 0; i < level.entities.size(); i++) {
            if (level.entities.data()[i].kind == Kind::drone) {
                drones[n_drones++] = level.entities.handle_at(i);
            }
        }
        for (Entity &turret : level.entities) {
            if (turret.kind != Kind::turret) {
                continue;
            }
            // nullptr when it never had one or its drone was destroyed (the handle
            // went stale), even if a new drone lives in that slot now.
            Entity *target = level.entities.is_dead(turret.target) ? nullptr : level.entities.get(turret.target);
            if (target == nullptr && turret.target) {
                stow_print("  ");
                stow_print(turret.name);
                stow_print(level.entities.contains(turret.target) ? ": target dying, handle (slot "
                                                             : ": target gone, stale handle (slot ");
                stow_print_u(turret.target.index(), 0u);
                stow_print(", generation ");
                stow_print_u(turret.target.generation(), 0u);
                stow_print(")\n");
                turret.target = {};
            }
            if (target == nullptr) { // the closest drone still flying
                for (uint32_t i = 0; i < n_drones; i++) {
                    Entity *d = level.entities.get(drones[i]);
                    if (!level.entities.is_dead(drones[i]) && (target == nullptr || distance(*d, turret) < distance(*target, turret))) {
                        target = d;
                        turret.target = drones[i];
                    }
                }
            }
            if (target != nullptr && distance(*target, turret) < 35 && --target->hp == 0) {
                (void)level.entities.mark_dead(turret.target); // still readable this frame
                stow_print("  ");
                stow_print(turret.name);
                stow_print(" destroys ");
                stow_print(target->name);
                stow_print("\n");
            }
        }

        // End of frame: drones that left the field go too; refresh() destroys
        // every dead entity (its destructor gives its name back) and closes
        // the gaps, the survivors keeping their order and their handles.
        for (uint32_t i = 0; i < level.entities.size(); i++) {
            Entity &e = level.entities.data()[i];
            if (e.kind == Kind::drone && (e.x < -20 || e.x > 110)) {
                (void)level.entities.mark_dead(level.entities.handle_at(i));
            }
        }
        level.destroyed += level.entities.refresh([](Entity &dying) {
            if (dying.hp > 0) {
                stow_print("  (");
                stow_print(dying.name);
                stow_print(" left the field)\n");
            }
        });
    }

    // The statistics, and every container's own check.
    stow_stats_t s = level.entities.stats();
    stow_print("entities: ");
    stow_print_u(static_cast<uint32_t>(s.used), 0u);
    stow_print(" live, peak ");
    stow_print_u(static_cast<uint32_t>(s.peak), 0u);
    stow_print(" of ");
    stow_print_u(static_cast<uint32_t>(s.capacity), 0u);
    stow_print(", ");
    stow_print_u(level.destroyed, 0u);
    stow_print(" destroyed\n");
    uint32_t named = 0;
    for (Entity &e : level.entities) {
        named += e.name != nullptr ? 1u : 0u;
    }
    stow_print("names heap: ");
    stow_print_u(static_cast<uint32_t>(names.stats().used), 0u);
    stow_print(" bytes in use\n");
    return ok && named == level.entities.size() && level.entities.check();
}

} // namespace

int main()
{
    bool ok = false;
    {
        Level level; // the entities live here...
        ok = play(level);
    } // ...and their destructors run here: every name goes back to the heap
    stow_print("names heap after the level: ");
    stow_print_u(static_cast<uint32_t>(names.stats().used), 0u);
    stow_print(" bytes in use\n");
    ok = ok && names.stats().used == 0u && names.check() && scratch.used() == 0u && scratch.check();
    stow_print(ok ? "cxx_entities: every check passed\n" : "cxx_entities: a check FAILED\n");
    return ok ? 0 : 1;
}
