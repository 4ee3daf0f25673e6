# SPDX-License-Identifier: MIT
# cmake/arm-none-eabi.cmake - CMake toolchain file for bare-metal Arm (GNU Arm Embedded).
#
#     cmake -B build -DCMAKE_TOOLCHAIN_FILE=<stow>/cmake/arm-none-eabi.cmake \
#           -DSTOW_ARM_CPU=cortex-m4 [-DSTOW_ARM_FLOAT_ABI=hard -DSTOW_ARM_FPU=fpv4-sp-d16]
#
# STOW_ARM_CPU (optional) adds -mcpu=<cpu> -mthumb to C, C++ and assembler flags
# of every target, the library included, so that everything is built for one core
# and one float ABI; leave it empty to give those flags yourself (CMAKE_C_FLAGS).
# The compiler is looked up as arm-none-eabi-gcc on PATH, or under
# STOW_ARM_TOOLCHAIN_PREFIX (a directory holding bin/arm-none-eabi-gcc).
# Test programs that CMake compiles while configuring are built as static
# libraries: a bare-metal link needs a linker script, which only the firmware has.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(STOW_ARM_CPU "" CACHE STRING "-mcpu for every target (e.g. cortex-m0, cortex-m4); empty: none")
set(STOW_ARM_FLOAT_ABI "" CACHE STRING "-mfloat-abi (soft, softfp, hard); empty: the compiler's default")
set(STOW_ARM_FPU "" CACHE STRING "-mfpu (e.g. fpv4-sp-d16); empty: none")
set(STOW_ARM_TOOLCHAIN_PREFIX "" CACHE PATH "directory holding bin/arm-none-eabi-gcc; empty: PATH")
# try_compile projects get these too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES
     STOW_ARM_CPU STOW_ARM_FLOAT_ABI STOW_ARM_FPU STOW_ARM_TOOLCHAIN_PREFIX)

if(STOW_ARM_TOOLCHAIN_PREFIX)
    set(_stow_arm_bin "${STOW_ARM_TOOLCHAIN_PREFIX}/bin/")
else()
    set(_stow_arm_bin "")
endif()
set(CMAKE_C_COMPILER "${_stow_arm_bin}arm-none-eabi-gcc")
set(CMAKE_CXX_COMPILER "${_stow_arm_bin}arm-none-eabi-g++")
set(CMAKE_ASM_COMPILER "${_stow_arm_bin}arm-none-eabi-gcc")
set(CMAKE_AR "${_stow_arm_bin}arm-none-eabi-ar" CACHE FILEPATH "archiver")
set(CMAKE_RANLIB "${_stow_arm_bin}arm-none-eabi-ranlib" CACHE FILEPATH "ranlib")
set(CMAKE_OBJCOPY "${_stow_arm_bin}arm-none-eabi-objcopy" CACHE FILEPATH "objcopy")
set(CMAKE_SIZE "${_stow_arm_bin}arm-none-eabi-size" CACHE FILEPATH "size")

set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(_stow_arm_flags "")
if(STOW_ARM_CPU)
    string(APPEND _stow_arm_flags " -mcpu=${STOW_ARM_CPU} -mthumb")
endif()
if(STOW_ARM_FLOAT_ABI)
    string(APPEND _stow_arm_flags " -mfloat-abi=${STOW_ARM_FLOAT_ABI}")
endif()
if(STOW_ARM_FPU)
    string(APPEND _stow_arm_flags " -mfpu=${STOW_ARM_FPU}")
endif()
set(CMAKE_C_FLAGS_INIT "${_stow_arm_flags}")
set(CMAKE_CXX_FLAGS_INIT "${_stow_arm_flags}")
set(CMAKE_ASM_FLAGS_INIT "${_stow_arm_flags}")
# The link sees the same core and ABI (libgcc's multilib is chosen by them).
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_stow_arm_flags}")

# Headers and libraries from the cross sysroot only; programs from the host.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
