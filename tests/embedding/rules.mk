# SPDX-License-Identifier: MIT
# tests/embedding/rules.mk - what a program that embeds stow meets when it builds:
# included from the Makefile.
#
#   headers-alone  tests/embedding/alone.sh: a sizing file that includes every
#                  header for its macros alone (STOW_HEAP_BYTES_FOR and the other
#                  _BYTES macros) links and runs without the library or a port:
#                  gcc and clang as C11, g++ and clang++ as C++17 with stow.hpp,
#                  each at -O0 and -O2
#   assert-paths   tests/embedding/assert_paths.sh: a Cortex-M4 image built from
#                  absolute paths keeps no build directory in flash (the assert
#                  hook gets "pool.c"), the production hook prints the check's
#                  text, file and line under QEMU, STOW_ASSERT_TEXT=0 keeps file
#                  and line; levels 1 and 2; its log gives the text's bytes
#   port-calls     tests/embedding/port_calls.sh: the port functions lib/ calls
#                  (Cortex-M0 and rv32imac objects) are the six stow/port.h
#                  lists, and a firmware of everyday calls links with the assert
#                  hook alone (nothing at level 0)

EMBEDDING_RESULTS := $(BUILD)/test/headers-alone/result $(BUILD)/test/assert-paths/result \
                     $(BUILD)/test/port-calls/result
$(BUILD)/test/headers-alone/result: tests/embedding/alone.sh tests/embedding/sizing.c \
        $(wildcard lib/include/stow/*.h) FORCE
	@tests/run.sh headers-alone $(@D) tests/embedding/alone.sh $(@D)/work \
	    "$(CC_gcc) $(STD) $(WARN) $(INC)" "$(CC_clang) $(STD) $(WARN) $(INC)" \
	    "$(CXX_GXX) -std=c++17 $(CXX_WARN_g++) $(INC) -x c++ -include stow/stow.hpp" \
	    "$(CXX_CLANGXX) -std=c++17 $(CXX_WARN_clang++) $(INC) -x c++ -include stow/stow.hpp"
$(BUILD)/test/assert-paths/result: tests/embedding/assert_paths.sh tests/embedding/asserts.c $(LIB_DEPS) \
        $(CM_PORT_DEPS) FORCE
	@CM_CC='$(ARM_CC) $(STD) $(WARN) -Os $(CM_FLAGS) $(mps2-an386_CFLAGS)' \
	    QEMU_CMD='timeout 60 $(QEMU) $(mps2-an386_QEMU) $(QEMU_RUN) -kernel' \
	    tests/run.sh assert-paths $(@D) tests/embedding/assert_paths.sh $(@D)/work
$(BUILD)/test/port-calls/result: tests/embedding/port_calls.sh tests/embedding/everyday.c $(LIB_DEPS) \
        lib/include/stow/port.h FORCE
	@CM_CC='$(ARM_CC) $(STD) $(WARN) -Os $(CM_FLAGS) $(microbit_CFLAGS)' \
	    RV_CC='$(RV_CC) $(STD) $(WARN) -O2 $(RV_FLAGS) $(riscv-virt_CFLAGS)' \
	    tests/run.sh port-calls $(@D) tests/embedding/port_calls.sh $(@D)/work
BOARD_RESULTS += $(EMBEDDING_RESULTS)
