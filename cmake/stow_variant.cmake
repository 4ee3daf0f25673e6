# SPDX-License-Identifier: MIT
# cmake/stow_variant.cmake - which of the prebuilt libraries (cmake/stow_variants.txt)
# fits a compiler and its flags.
#
#     stow_variant_detect(<out-var> [COMPILER <cc>] [FLAGS <flag>...] [HOST <bool>])
#
# Asks the compiler itself, not the flags: it preprocesses an empty file with the
# flags (COMPILER defaults to CMAKE_C_COMPILER, FLAGS to CMAKE_C_FLAGS and the flags
# of CMAKE_BUILD_TYPE, plus --target= and --sysroot= where CMake has them; the C++
# ones in a project without C) and
# reads the macros it predefines for the architecture, the FPU and the calling
# convention. So -mcpu=cortex-m4 -mfloat-abi=hard, -march=armv7e-m+fp
# -mfloat-abi=hard and a toolchain that defaults to either all give cortex-m4f.
# A library serves every core that runs its instructions with the same calling
# convention: a soft-float Cortex-M7 gets cortex-m4, a Cortex-M23 cortex-m0, a
# soft-float or softfp Cortex-M55 cortex-m33. <out-var> is set to the variant, to
# "host" when HOST is true (default: NOT CMAKE_CROSSCOMPILING) and the compiler is
# neither an M-profile Arm nor a 32-bit RISC-V one, or to "" when nothing fits;
# <out-var>_WHY then says what the compiler reported.
#
# Also usable in script mode (cmake -P), with COMPILER and FLAGS given.
include_guard(GLOBAL)

function(stow_variant_detect out)
    cmake_parse_arguments(PARSE_ARGV 1 arg "" "COMPILER;HOST" "FLAGS")
    # A C++-only project has no C compiler: its C++ compiler predefines the same.
    set(_lang C)
    if(NOT CMAKE_C_COMPILER AND CMAKE_CXX_COMPILER)
        set(_lang CXX)
    endif()
    if(NOT arg_COMPILER)
        set(arg_COMPILER "${CMAKE_${_lang}_COMPILER}")
    endif()
    if(NOT DEFINED arg_HOST)
        if(CMAKE_CROSSCOMPILING)
            set(arg_HOST FALSE)
        else()
            set(arg_HOST TRUE)
        endif()
    endif()
    if(NOT DEFINED arg_FLAGS)
        set(_flags "${CMAKE_${_lang}_FLAGS}")
        if(CMAKE_BUILD_TYPE)
            string(TOUPPER "${CMAKE_BUILD_TYPE}" _config)
            string(APPEND _flags " ${CMAKE_${_lang}_FLAGS_${_config}}")
        endif()
        separate_arguments(arg_FLAGS UNIX_COMMAND "${_flags}")
        if(CMAKE_${_lang}_COMPILER_TARGET)
            list(APPEND arg_FLAGS "--target=${CMAKE_${_lang}_COMPILER_TARGET}")
        endif()
        if(CMAKE_SYSROOT)
            list(APPEND arg_FLAGS "--sysroot=${CMAKE_SYSROOT}")
        endif()
    endif()

    if(CMAKE_BINARY_DIR)
        set(_probe "${CMAKE_BINARY_DIR}/CMakeFiles/stow_variant_probe.c")
    else()
        set(_probe "${CMAKE_CURRENT_BINARY_DIR}/stow_variant_probe.c")
    endif()
    file(WRITE "${_probe}" "")
    execute_process(COMMAND "${arg_COMPILER}" ${arg_FLAGS} -dM -E "${_probe}"
                    OUTPUT_VARIABLE _macros ERROR_VARIABLE _err RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
        set(${out} "" PARENT_SCOPE)
        set(${out}_WHY "${arg_COMPILER} ${arg_FLAGS} -dM -E failed: ${_err}" PARENT_SCOPE)
        return()
    endif()
    # Each predefined macro this needs, as _m_<name> (empty when undefined).
    foreach(_name __ARM_ARCH_PROFILE __ARM_ARCH __ARM_ARCH_6M__ __ARM_ARCH_7M__ __ARM_ARCH_7EM__
                  __ARM_ARCH_8M_BASE__ __ARM_ARCH_8M_MAIN__ __ARM_PCS_VFP __ARM_FP
                  __ARM_FEATURE_MVE __riscv __riscv_xlen __riscv_float_abi_soft __riscv_abi_rve
                  __riscv_mul __riscv_compressed __riscv_atomic)
        set(_m_${_name} "")
        if(_macros MATCHES "#define ${_name} ([^\n]*)")
            set(_m_${_name} "${CMAKE_MATCH_1}")
            if(_m_${_name} STREQUAL "")
                set(_m_${_name} 1)
            endif()
        endif()
    endforeach()

    set(_variant "")
    if(_m___ARM_ARCH_PROFILE STREQUAL "77")
        set(_why "Arm M-profile, v${_m___ARM_ARCH}")
        if(_m___ARM_PCS_VFP)
            string(APPEND _why ", hard float (__ARM_FP ${_m___ARM_FP})")
        else()
            string(APPEND _why ", soft float")
        endif()
        if(_m___ARM_ARCH_6M__ OR _m___ARM_ARCH_8M_BASE__)
            if(NOT _m___ARM_PCS_VFP)
                set(_variant cortex-m0)
            endif()
        elseif(_m___ARM_ARCH_7M__)
            if(NOT _m___ARM_PCS_VFP)
                set(_variant cortex-m3)
            endif()
        elseif(_m___ARM_ARCH_7EM__)
            if(NOT _m___ARM_PCS_VFP)
                set(_variant cortex-m4)
            elseif(_m___ARM_FP AND (_m___ARM_FP GREATER_EQUAL 8))
                # Bit 3 of __ARM_FP: double precision (fpv5-d16).
                set(_variant cortex-m7f)
            else()
                set(_variant cortex-m4f)
            endif()
        elseif(_m___ARM_ARCH_8M_MAIN__)
            if(NOT _m___ARM_PCS_VFP)
                set(_variant cortex-m33)
            elseif(_m___ARM_FEATURE_MVE)
                set(_variant cortex-m55f)
            else()
                set(_variant cortex-m33f)
            endif()
        endif()
    elseif(_m___riscv)
        set(_why "RISC-V, ${_m___riscv_xlen}-bit")
        if(_m___riscv_xlen STREQUAL "32" AND _m___riscv_float_abi_soft AND NOT _m___riscv_abi_rve
           AND _m___riscv_mul AND _m___riscv_compressed)
            if(_m___riscv_atomic)
                set(_variant rv32imac)
            else()
                set(_variant rv32imc)
            endif()
        else()
            string(APPEND _why " (a prebuilt library needs RV32 with M and C, ABI ilp32)")
        endif()
    elseif(arg_HOST)
        set(_variant host)
        set(_why "the host")
    else()
        set(_why "neither an Arm M-profile nor a RISC-V compiler")
    endif()
    set(${out} "${_variant}" PARENT_SCOPE)
    set(${out}_WHY "${_why}" PARENT_SCOPE)
endfunction()

# stow_variant_list(<out-var> <variants.txt>): the variant names, in file order.
function(stow_variant_list out file)
    file(STRINGS "${file}" _lines REGEX "^[a-z0-9-]+[ \t]*\\|")
    set(_names "")
    foreach(_line IN LISTS _lines)
        string(REGEX REPLACE "^([a-z0-9-]+).*" "\\1" _name "${_line}")
        list(APPEND _names "${_name}")
    endforeach()
    set(${out} "${_names}" PARENT_SCOPE)
endfunction()

# stow_variant_field(<out-var> <variants.txt> <variant> <column>): column 1 the
# toolchain (arm, riscv), 2 the flags, 3 the description; "" for an unknown variant.
function(stow_variant_field out file variant column)
    file(STRINGS "${file}" _lines REGEX "^${variant}[ \t]*\\|")
    set(_value "")
    if(_lines)
        list(GET _lines 0 _line)
        string(REPLACE "|" ";" _fields "${_line}")
        list(GET _fields ${column} _value)
        string(STRIP "${_value}" _value)
    endif()
    set(${out} "${_value}" PARENT_SCOPE)
endfunction()
