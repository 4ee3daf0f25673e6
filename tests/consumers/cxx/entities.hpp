// SPDX-License-Identifier: MIT
// entities.hpp - a consumer engine's entity store, backed by stow containers that
// live in entities.cpp.
#pragma once

#include <cstdint>

#include "stow/stow.h"

struct Entity {
    float x;
    float y;
    std::uint32_t kind;
};

namespace entities {

// Adds an entity; a null handle when the store is full.
stow_handle_t spawn(const Entity &e);
// The entity behind h, or nullptr once h is stale.
Entity *find(stow_handle_t h);
bool despawn(stow_handle_t h);
std::uint32_t count();
std::uint32_t capacity();

// Per-frame scratch.
void *scratch(std::size_t bytes);
void end_frame();

// Particles: a pool of fixed-size blocks.
struct Particle {
    float life;
    float vx;
    float vy;
};
Particle *emit();
void expire(Particle *p);
std::uint32_t particles_in_use();

}  // namespace entities
