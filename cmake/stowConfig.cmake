# SPDX-License-Identifier: MIT
# stowConfig.cmake - find_package(stow CONFIG) for an installed stow, from
# `make install` or `cmake --install`. Installed as lib/cmake/stow/stowConfig.cmake;
# every path below is found from this file's own place, so the installed tree can
# be moved or copied anywhere.
#
#     find_package(stow 0.3 CONFIG REQUIRED)          # CMAKE_PREFIX_PATH=<prefix>
#     target_link_libraries(fw PRIVATE stow::stow)
#
# Which library: the one whose ABI matches the C compiler and flags of the project
# (lib/stow/<variant>/libstow.a, chosen by cmake/stow_variant.cmake; lib/libstow.a
# for a host build), or the one named by STOW_VARIANT (set it before find_package,
# e.g. when the -mcpu flags come from add_compile_options instead of the toolchain
# file). When none fits, find_package fails and says what the compiler reported;
# then build stow from source with your flags (add_subdirectory or FetchContent).
#
# Targets
#   stow::stow        the library and its port (host: POSIX; Arm: the Cortex-M library
#                     port; RISC-V: the RISC-V port). Brings the include directory,
#                     the options the library was built with (stow/build_check.h:
#                     a file compiled with other values stops with an error naming
#                     both), Threads on the host, and share/stow/linker on the
#                     library path of a cross link, for `INCLUDE stow.ld`.
#   stow::malloc      (Arm variants) the C library's malloc on a stow heap for
#                     newlib-nano (lib/stow/<variant>/libstow_malloc.a, the heap
#                     size it was installed with); for another size or libc, add
#                     ${STOW_MALLOC_SOURCE} to your sources instead.
#   stow::lua, stow::cjson, stow::mbedtls, stow::lwip
#                     the adapter headers (include/stow/adapters), for
#                     #include "stow_lua.h" and the like.
#   stow::cortex_m_test_support, stow::cortex_m_startup
#                     (Arm variants) semihosting output and exit, cycle counter and
#                     fault reporter; the QEMU boards' vector table and reset code:
#                     sources compiled into your target, for test images only.
#   stow::report, stow::budgets
#                     the tools (bin/stow_report, bin/stow_budgets).
# Functions
#   stow_check_budgets(<target> <budget-list>)   cmake/stow_budgets.cmake
# Variables
#   stow_VARIANT, stow_CHECK_LEVEL, stow_HANDLE_INDEX_BITS, stow_GENERATION_OVERFLOW,
#   STOW_LINKER_DIR, STOW_MALLOC_SOURCE, STOW_REPORT_EXECUTABLE, STOW_BUDGETS_EXECUTABLE
get_filename_component(_stow_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
include("${CMAKE_CURRENT_LIST_DIR}/stow_variant.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/stow_budgets.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/stowOptions.cmake")

if(STOW_VARIANT)
    set(_stow_variant "${STOW_VARIANT}")
    set(_stow_why "STOW_VARIANT")
else()
    stow_variant_detect(_stow_variant)
    set(_stow_why "${_stow_variant_WHY}")
endif()
file(GLOB _stow_installed RELATIVE "${_stow_prefix}/lib/stow" "${_stow_prefix}/lib/stow/*/libstow.a")
string(REPLACE "/libstow.a" "" _stow_installed "${_stow_installed}")
if(EXISTS "${_stow_prefix}/lib/libstow.a")
    list(PREPEND _stow_installed host)
endif()
string(JOIN ", " _stow_installed_text ${_stow_installed})

if(_stow_variant STREQUAL "host")
    set(_stow_lib "${_stow_prefix}/lib/libstow.a")
    set(_stow_libdir "${_stow_prefix}/lib")
else()
    set(_stow_libdir "${_stow_prefix}/lib/stow/${_stow_variant}")
    set(_stow_lib "${_stow_libdir}/libstow.a")
endif()
if(_stow_variant STREQUAL "" OR NOT EXISTS "${_stow_lib}")
    if(_stow_variant STREQUAL "")
        set(_stow_what "no installed stow library fits this compiler (${_stow_why})")
    else()
        set(_stow_what "stow variant ${_stow_variant} (${_stow_why}) is not installed here")
    endif()
    string(CONCAT stow_NOT_FOUND_MESSAGE "${_stow_what}. Installed in ${_stow_prefix}: "
           "${_stow_installed_text}. Set STOW_VARIANT to one of them if its ABI is yours, or "
           "build stow from source with your own flags (add_subdirectory or FetchContent; "
           "docs/embedding.md).")
    set(stow_FOUND FALSE)
    return()
endif()

set(stow_VARIANT "${_stow_variant}")
set(stow_CHECK_LEVEL "${STOW_INSTALLED_CHECK_LEVEL}")
set(stow_HANDLE_INDEX_BITS "${STOW_INSTALLED_HANDLE_INDEX_BITS}")
set(stow_GENERATION_OVERFLOW "${STOW_INSTALLED_GENERATION_OVERFLOW}")
set(STOW_LINKER_DIR "${_stow_prefix}/share/stow/linker")
set(STOW_MALLOC_SOURCE "${_stow_prefix}/share/stow/adapters/libc/stow_malloc.c")
set(STOW_REPORT_EXECUTABLE "${_stow_prefix}/bin/stow_report")
set(STOW_BUDGETS_EXECUTABLE "${_stow_prefix}/bin/stow_budgets")

if(NOT TARGET stow::stow)
    set(_stow_defs "STOW_CONFIG_HEADER=\"stow/build_check.h\"")
    foreach(_stow_opt CHECK_LEVEL HANDLE_INDEX_BITS)
        if(NOT "${STOW_INSTALLED_${_stow_opt}}" STREQUAL "")
            list(APPEND _stow_defs "STOW_BUILT_${_stow_opt}=${STOW_INSTALLED_${_stow_opt}}")
        endif()
    endforeach()
    if(NOT "${STOW_INSTALLED_GENERATION_OVERFLOW}" STREQUAL "")
        list(APPEND _stow_defs "STOW_BUILT_GENERATION_OVERFLOW=STOW_GEN_${STOW_INSTALLED_GENERATION_OVERFLOW}")
    endif()
    if(EXISTS "${_stow_prefix}/include/stow/installed_config.h")
        list(APPEND _stow_defs "STOW_BUILT_CONFIG_HEADER=\"stow/installed_config.h\"")
    endif()

    add_library(stow::stow STATIC IMPORTED)
    set_target_properties(stow::stow PROPERTIES
        IMPORTED_LOCATION "${_stow_lib}"
        IMPORTED_LINK_INTERFACE_LANGUAGES C
        INTERFACE_INCLUDE_DIRECTORIES "${_stow_prefix}/include"
        INTERFACE_COMPILE_DEFINITIONS "${_stow_defs}"
        INTERFACE_COMPILE_FEATURES c_std_11)
    if(_stow_variant STREQUAL "host")
        include(CMakeFindDependencyMacro)
        set(THREADS_PREFER_PTHREAD_FLAG ON)
        find_dependency(Threads)
        set_property(TARGET stow::stow PROPERTY INTERFACE_LINK_LIBRARIES Threads::Threads)
    else()
        set_property(TARGET stow::stow PROPERTY INTERFACE_LINK_DIRECTORIES "${STOW_LINKER_DIR}")
    endif()

    if(EXISTS "${_stow_libdir}/libstow_malloc.a")
        add_library(stow::malloc STATIC IMPORTED)
        # -u malloc: the allocator object is taken from the archive even when only
        # the C library's own code (printf, strdup...) calls malloc.
        set_target_properties(stow::malloc PROPERTIES
            IMPORTED_LOCATION "${_stow_libdir}/libstow_malloc.a"
            IMPORTED_LINK_INTERFACE_LANGUAGES C
            INTERFACE_INCLUDE_DIRECTORIES "${_stow_prefix}/include/stow/adapters"
            INTERFACE_LINK_OPTIONS "LINKER:-u,malloc"
            INTERFACE_LINK_LIBRARIES stow::stow)
    endif()

    foreach(_stow_adapter lua cjson mbedtls lwip)
        add_library(stow::${_stow_adapter} INTERFACE IMPORTED)
        set_target_properties(stow::${_stow_adapter} PROPERTIES
            INTERFACE_INCLUDE_DIRECTORIES "${_stow_prefix}/include/stow/adapters"
            INTERFACE_LINK_LIBRARIES stow::stow)
    endforeach()

    set(_stow_cm "${_stow_prefix}/share/stow/port/cortex-m")
    if(_stow_variant MATCHES "^cortex-m" AND EXISTS "${_stow_cm}/semihost.c")
        set(_stow_support "")
        foreach(_stow_f semihost.c cycles.c fault.c)
            if(EXISTS "${_stow_cm}/${_stow_f}")
                list(APPEND _stow_support "${_stow_cm}/${_stow_f}")
            endif()
        endforeach()
        add_library(stow::cortex_m_test_support INTERFACE IMPORTED)
        set_target_properties(stow::cortex_m_test_support PROPERTIES
            INTERFACE_SOURCES "${_stow_support}" INTERFACE_LINK_LIBRARIES stow::stow)
        add_library(stow::cortex_m_startup INTERFACE IMPORTED)
        set_target_properties(stow::cortex_m_startup PROPERTIES
            INTERFACE_SOURCES "${_stow_prefix}/share/stow/targets/cortex-m/startup.c"
            INTERFACE_LINK_LIBRARIES stow::stow)
    endif()

    foreach(_stow_tool report budgets)
        add_executable(stow::${_stow_tool} IMPORTED)
        set_target_properties(stow::${_stow_tool} PROPERTIES
            IMPORTED_LOCATION "${_stow_prefix}/bin/stow_${_stow_tool}")
    endforeach()
endif()
