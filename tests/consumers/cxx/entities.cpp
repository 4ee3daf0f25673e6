// SPDX-License-Identifier: MIT
// entities.cpp - the containers behind entities.hpp, defined at namespace scope
// with stow's DEFINE macros.
#include "entities.hpp"

namespace {
constexpr std::uint32_t kEntities = 64;
constexpr std::uint32_t kParticles = 32;
constexpr std::size_t kScratchBytes = 4096;
}  // namespace

STOW_SLOTMAP_DEFINE_STATIC(entity_map, Entity, kEntities);
STOW_POOL_DEFINE_STATIC(particle_pool, entities::Particle, kParticles);
STOW_ARENA_DEFINE_STATIC(frame_arena, kScratchBytes);

namespace entities {

stow_handle_t spawn(const Entity &e) { return stow_slotmap_insert(&entity_map, &e); }

Entity *find(stow_handle_t h) { return static_cast<Entity *>(stow_slotmap_get(&entity_map, h)); }

bool despawn(stow_handle_t h) { return stow_slotmap_remove(&entity_map, h); }

std::uint32_t count() { return stow_slotmap_count(&entity_map); }

std::uint32_t capacity() { return kEntities; }

void *scratch(std::size_t bytes) { return stow_arena_alloc(&frame_arena, bytes, 0); }

void end_frame() { stow_arena_reset(&frame_arena); }

Particle *emit() { return STOW_POOL_NEW(&particle_pool, Particle); }

void expire(Particle *p) { stow_pool_free(&particle_pool, p); }

std::uint32_t particles_in_use() { return stow_pool_used(&particle_pool); }

}  // namespace entities
