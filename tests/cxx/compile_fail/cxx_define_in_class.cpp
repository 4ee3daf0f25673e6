// SPDX-License-Identifier: MIT
// STOW_CXX_DEFINE is for namespace scope; a member holds its storage inside.
// expect: stow_CXX_DEFINE_belongs_at_namespace_scope_a_member_holds_its_storage_already
#include "stow/stow.hpp"

struct level {
#if STOW_COMPILE_FAIL
    STOW_CXX_DEFINE(scratch, stow::arena<64>);
#else
    stow::arena<64> scratch;
#endif
};
level *current();
