# SPDX-License-Identifier: MIT
# cmake/stow_budgets.cmake - stow_check_budgets(): the link of a firmware fails when a
# subsystem's storage outgrows its budget (stow/report.h, "Subsystems and budgets").
#
#     stow_check_budgets(<target> <budget-list> [CPPFLAGS <flag>...])
#
# <budget-list> is a header of STOW_BUDGET(subsystem, bytes) lines (a path
# relative to the current source directory, or absolute). At build time the
# stow_budgets tool (tools/stow_budgets.sh, installed as bin/stow_budgets) turns it
# into a linker fragment, stow_budgets.ld, in a directory of the target's own that
# comes first on its library path; linker/stow.ld, which the target's linker
# script INCLUDEs, INCLUDEs that fragment inside .stow. A subsystem over its budget
# then fails the link with the tool's message ("stow budget: subsystem audio is
# over its budget of 4096 bytes ..."). The list goes through the C preprocessor
# (the target's C compiler, with CPPFLAGS), so it may use macros and arithmetic.
# The target relinks when the list changes.
#
# Available after add_subdirectory(stow), FetchContent_MakeAvailable(stow) and
# find_package(stow). Needs a GNU ld link with stow.ld INCLUDEd (a bare-metal
# firmware); the host's default linker script has no .stow to check.
include_guard(GLOBAL)

function(stow_check_budgets target list)
    cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "CPPFLAGS")
    if(NOT TARGET "${target}")
        message(FATAL_ERROR "stow_check_budgets: no target named ${target}")
    endif()
    get_filename_component(_list "${list}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${_list}")
        message(FATAL_ERROR "stow_check_budgets(${target}): no such budget list: ${_list}")
    endif()
    # The tool: next to an installed copy's cmake/ directory, or in the source tree.
    set(_here "${CMAKE_CURRENT_FUNCTION_LIST_DIR}")
    if(EXISTS "${_here}/../../../bin/stow_budgets")
        get_filename_component(_tool "${_here}/../../../bin/stow_budgets" ABSOLUTE)
    elseif(EXISTS "${_here}/../tools/stow_budgets.sh")
        get_filename_component(_tool "${_here}/../tools/stow_budgets.sh" ABSOLUTE)
    else()
        message(FATAL_ERROR "stow_check_budgets: stow_budgets not found near ${_here}")
    endif()
    get_target_property(_bin "${target}" BINARY_DIR)
    set(_dir "${_bin}/stow_budgets/${target}")
    set(_out "${_dir}/stow_budgets.ld")
    string(JOIN " " _cc "${CMAKE_C_COMPILER}" ${arg_CPPFLAGS})
    file(MAKE_DIRECTORY "${_dir}")
    # Written to a temporary name first: a list the tool rejects leaves no fragment.
    add_custom_command(
        OUTPUT "${_out}"
        COMMAND sh -c "sh \"$1\" \"$2\" \"$3\" >\"$4.tmp\" && mv \"$4.tmp\" \"$4\"" stow_budgets
                "${_tool}" "${_list}" "${_cc}" "${_out}"
        DEPENDS "${_list}" "${_tool}"
        COMMENT "stow budgets for ${target}: ${list}"
        VERBATIM)
    add_custom_target(${target}_stow_budgets DEPENDS "${_out}")
    add_dependencies(${target} ${target}_stow_budgets)
    # First on the library path: before stow's own (empty) stow_budgets.ld.
    target_link_directories(${target} BEFORE PRIVATE "${_dir}")
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${_out}")
endfunction()
