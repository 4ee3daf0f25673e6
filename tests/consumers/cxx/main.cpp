// SPDX-License-Identifier: MIT
// main.cpp - a consumer C++17 program: spawns and despawns entities, uses frame
// scratch and a particle pool, and checks that the options its build set
// (check level 2, 20 index bits, RETIRE) reached the library it linked.
// Prints "ok"/"FAIL" per check and ends with "N passed, N failed".
#include <cstdio>
#include <string_view>
#include <vector>

#include "entities.hpp"

#if STOW_CHECK_LEVEL != 2 || STOW_HANDLE_INDEX_BITS != 20 || \
    STOW_GENERATION_OVERFLOW != STOW_GEN_RETIRE
#error "the options set before FetchContent_MakeAvailable should reach this file"
#endif

namespace {
int passed = 0;
int failed = 0;
int violations = 0;
std::string_view last_violation;

void check(bool ok, const char *what)
{
    std::printf("%s %s\n", ok ? "ok" : "FAIL", what);
    (ok ? passed : failed)++;
}
}  // namespace

// The engine's contract-violation hook, in place of the host port's (which
// aborts): count, remember, go on.
extern "C" void stow_port_assert_failed(const char *expr, const char *file, int line)
{
    (void)file;
    (void)line;
    violations++;
    last_violation = expr;
}

int main()
{
    std::vector<stow_handle_t> handles;
    for (std::uint32_t i = 0; i < entities::capacity(); i++) {
        handles.push_back(entities::spawn(Entity{static_cast<float>(i), 0.0f, i % 3u}));
    }
    bool all = true;
    for (stow_handle_t h : handles) {
        all = all && !stow_handle_is_null(h);
    }
    check(all, "slotmap: 64 entities spawned");
    check(stow_handle_is_null(entities::spawn(Entity{})), "slotmap: the 65th is refused");

    stow_handle_t gone = handles[10];
    check(entities::despawn(gone) && entities::find(gone) == nullptr, "slotmap: a despawned handle is stale");
    stow_handle_t again = entities::spawn(Entity{1.0f, 2.0f, 7u});
    // Read with this file's 20 index bits, the library's handles show the reused
    // slot under the next generation: only if the library used 20 bits as well.
    check(!stow_handle_is_null(again) && stow_handle_index(again) == stow_handle_index(gone) &&
              stow_handle_generation(again) == stow_handle_generation(gone) + 1u &&
              entities::find(again) != nullptr && entities::find(again)->kind == 7u,
          "slotmap: slot reused under the next generation, index in 20 bits");

    auto *frame = static_cast<float *>(entities::scratch(100 * sizeof(float)));
    check(frame != nullptr, "arena: frame scratch");
    entities::end_frame();

    entities::Particle *p = entities::emit();
    check(p != nullptr && entities::particles_in_use() == 1u, "pool: particle emitted");
    entities::expire(p);
    entities::expire(p);  // double free: only check level 2 detects it
    check(violations == 1 && entities::particles_in_use() == 0u,
          "pool: the library, built at level 2, reports a double free");
    std::printf("   (assert hook got: %.*s)\n", static_cast<int>(last_violation.size()),
                last_violation.data());

    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
