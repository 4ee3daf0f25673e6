# SPDX-License-Identifier: MIT
# cmake/riscv-elf.cmake - CMake toolchain file for bare-metal 32-bit RISC-V (GNU).
#
#     cmake -B build -DCMAKE_TOOLCHAIN_FILE=<this file> \
#           -DSTOW_RISCV_ARCH=rv32imac_zicsr -DSTOW_RISCV_ABI=ilp32
#
# STOW_RISCV_ARCH and STOW_RISCV_ABI (optional) add -march and -mabi to C, C++ and
# assembler flags of every target, the library included; leave them empty to give
# those flags yourself (CMAKE_C_FLAGS). The compiler is <triple>-gcc, triple
# STOW_RISCV_TRIPLE (default riscv64-unknown-elf, Debian's gcc-riscv64-unknown-elf,
# which builds 32-bit code too; riscv-none-elf for xPack's), looked up on PATH or
# under STOW_RISCV_TOOLCHAIN_PREFIX (a directory holding bin/<triple>-gcc).
# Test programs that CMake compiles while configuring are built as static
# libraries: a bare-metal link needs a linker script, which only the firmware has.
# The file stands alone (it includes nothing of stow's), so it can be copied into
# a project that fetches stow later (docs/embedding.md).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)

set(STOW_RISCV_ARCH "" CACHE STRING "-march for every target (e.g. rv32imac_zicsr); empty: none")
set(STOW_RISCV_ABI "" CACHE STRING "-mabi for every target (e.g. ilp32); empty: none")
set(STOW_RISCV_TRIPLE "riscv64-unknown-elf" CACHE STRING "prefix of the GNU tools' names")
set(STOW_RISCV_TOOLCHAIN_PREFIX "" CACHE PATH "directory holding bin/<triple>-gcc; empty: PATH")
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES
     STOW_RISCV_ARCH STOW_RISCV_ABI STOW_RISCV_TRIPLE STOW_RISCV_TOOLCHAIN_PREFIX)

if(STOW_RISCV_TOOLCHAIN_PREFIX)
    set(_stow_rv_bin "${STOW_RISCV_TOOLCHAIN_PREFIX}/bin/${STOW_RISCV_TRIPLE}-")
else()
    set(_stow_rv_bin "${STOW_RISCV_TRIPLE}-")
endif()
set(CMAKE_C_COMPILER "${_stow_rv_bin}gcc")
set(CMAKE_CXX_COMPILER "${_stow_rv_bin}g++")
set(CMAKE_ASM_COMPILER "${_stow_rv_bin}gcc")
set(CMAKE_AR "${_stow_rv_bin}ar" CACHE FILEPATH "archiver")
set(CMAKE_RANLIB "${_stow_rv_bin}ranlib" CACHE FILEPATH "ranlib")
set(CMAKE_OBJCOPY "${_stow_rv_bin}objcopy" CACHE FILEPATH "objcopy")
set(CMAKE_SIZE "${_stow_rv_bin}size" CACHE FILEPATH "size")

set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(_stow_rv_flags "")
if(STOW_RISCV_ARCH)
    string(APPEND _stow_rv_flags " -march=${STOW_RISCV_ARCH}")
endif()
if(STOW_RISCV_ABI)
    string(APPEND _stow_rv_flags " -mabi=${STOW_RISCV_ABI}")
endif()
set(CMAKE_C_FLAGS_INIT "${_stow_rv_flags}")
set(CMAKE_CXX_FLAGS_INIT "${_stow_rv_flags}")
set(CMAKE_ASM_FLAGS_INIT "${_stow_rv_flags}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_stow_rv_flags}")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
