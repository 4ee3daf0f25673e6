# SPDX-License-Identifier: MIT
# tests/cxx/rules.mk - the C++ layer (lib/include/stow/stow.hpp) in `make test`,
# `make demo` and `make bench-cxx`; included at the end of the Makefile.
#
#   cxx-host-*          tests/cxx/test_cxx.cpp with g++ and clang++, C++17 and
#                       C++20, AddressSanitizer and UBSan at check levels 1 and
#                       2, and -O2 at level 0; the C library built as C beside it
#   cxx-<board>-*       the same suite built with arm-none-eabi-g++ for the
#                       micro:bit (Cortex-M0) and mps2-an386 (Cortex-M4), run
#                       under QEMU; the image must have no .init_array (every
#                       global container is constant-initialised: the start-up
#                       code runs no C++ constructors)
#   cxx-weverything     the suite and the example compiled by clang++ with
#                       -Weverything, C++17 and C++20 (see CXX_EVERYTHING)
#   cxx-freestanding   every part of stow.hpp, built for Cortex-M0 and M4, needs
#                       nothing but stow's C functions and libgcc's helpers
#   cxx-compile-fail-*  tests/cxx/compile_fail/*.cpp: misuse that must not compile
#                       (g++ C++17, clang++ C++20, arm-none-eabi-g++ C++17)
#   cxx-cost            bench/cxx_cost.sh: the C++ calls against the C calls,
#                       instructions in the object code, Cortex-M4 and M0 at -O2
#                       (and M4 with exceptions on)
#   cxx-throw-*         tests/cxx/throw.cpp, exceptions on: every emplace and make
#                       gives the strong guarantee (g++, clang++, sanitizers)
#   cxx-pmr-*           tests/cxx/pmr.cpp: stow/pmr.hpp with std containers, on the
#                       host and on Cortex-M4 (newlib's libstdc++) under QEMU
#   cxx-nobits          STOW_CXX_DEFINE storage is NOBITS (readelf; host and arm)
#   cxx-demo            examples/cxx_entities under QEMU (mps2-an386), as
#                       `make demo` runs it
#
# Every C++ compile has -fno-exceptions -fno-rtti and the warnings an engine
# turns on (CXX_STRICT, as errors).

CXX_GXX := g++
CXX_CLANGXX := clang++
ARM_CXX := arm-none-eabi-g++
RV_CXX := riscv64-unknown-elf-g++
CXX_MODE := -fno-exceptions -fno-rtti
CXX_STRICT_WARN := -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wold-style-cast -Wshadow \
                   -Wcast-align -Werror
CXX_WARN_g++ := $(CXX_STRICT_WARN) -Wuseless-cast
CXX_WARN_clang++ := $(CXX_STRICT_WARN)
CXX_WARN_$(ARM_CXX) := $(CXX_WARN_g++)
CXX_WARN_$(RV_CXX) := $(CXX_WARN_g++)
# clang's everything, less: the groups that warn about compatibility with older
# standards (-Wc++98-compat*, and in C++20 mode -Wc++20-compat, under which clang
# 14 files "'constinit' is incompatible with C++ standards before C++20"; in
# C++17 mode it stays on, for names that C++20 makes keywords), and -Wpadded,
# which reports the padding that the item type and capacity the user picks put
# in a container (laid out as the C DEFINE lays it out): information, not a
# defect.
CXX_EVERYTHING := -Weverything -Wno-c++98-compat -Wno-c++98-compat-pedantic -Wno-padded -Werror
CXX_EVERYTHING_c++20 := -Wno-c++20-compat

CXX_TEST_SRC := $(sort $(wildcard tests/cxx/test_*.cpp))
CXX_SUITES := $(patsubst tests/cxx/test_%.cpp,%,$(CXX_TEST_SRC))
CXX_C_SRC := tests/harness.c tests/main.c
CXX_TEST_INC := $(INC) -Itests -Itests/cxx -I$(BUILD)/gen/cxx
CXX_TEST_DEPS := $(CXX_TEST_SRC) tests/cxx/check.hpp tests/cxx/counted.hpp lib/include/stow/stow.hpp tests/harness.h $(CXX_C_SRC) \
                 $(BUILD)/gen/cxx/suites.h $(LIB_DEPS) tests/cxx/rules.mk
CXX_RESULTS :=
CXX_BOARD_RESULTS :=

# tests/main.c runs the suites its suites.h lists: here the C++ ones.
$(BUILD)/gen/cxx/suites.h: FORCE
	@mkdir -p $(@D)
	@printf 'STOW_TEST_SUITE(%s)\n' $(CXX_SUITES) >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

# ---- host: $(1) name, $(2) C compiler, $(3) C++ compiler, $(4) -std, $(5) flags for both
define CXX_HOST_TEST
$(BUILD)/test/$(1)/tests: $(CXX_TEST_DEPS) $(HOST_PORT)
	@mkdir -p $$(@D)/obj
	$(Q)for src in $(LIB_SRC) $(CXX_C_SRC) $(HOST_PORT); do \
	    $(2) $(STD) $(WARN) $(5) $(CXX_TEST_INC) -c $$$$src -o $$(@D)/obj/$$$$(basename $$$$src .c).o || exit 1; \
	done
	$(Q)for src in $(CXX_TEST_SRC); do \
	    $(3) -std=$(4) $(CXX_WARN_$(3)) $(CXX_MODE) $(5) $(CXX_TEST_INC) -c $$$$src \
	        -o $$(@D)/obj/$$$$(basename $$$$src .cpp).o || exit 1; \
	done
	$(Q)$(3) $(5) $$(@D)/obj/*.o -o $$@ -lpthread
$(BUILD)/test/$(1)/result: $(BUILD)/test/$(1)/tests FORCE
	@tests/run.sh $(1) $$(@D) $$<
CXX_RESULTS += $(BUILD)/test/$(1)/result
endef
CXX_SAN := -O1 -g -fno-omit-frame-pointer $(SANITIZE)
$(eval $(call CXX_HOST_TEST,cxx-host-g++-c++17-asan-ubsan-L1,$(CC_gcc),$(CXX_GXX),c++17,$(CXX_SAN) -DSTOW_CHECK_LEVEL=1))
$(eval $(call CXX_HOST_TEST,cxx-host-g++-c++20-asan-ubsan-L2,$(CC_gcc),$(CXX_GXX),c++20,$(CXX_SAN) -DSTOW_CHECK_LEVEL=2))
$(eval $(call CXX_HOST_TEST,cxx-host-clang++-c++17-asan-ubsan-L2,$(CC_clang),$(CXX_CLANGXX),c++17,$(CXX_SAN) -DSTOW_CHECK_LEVEL=2))
$(eval $(call CXX_HOST_TEST,cxx-host-clang++-c++17-O2-L0,$(CC_clang),$(CXX_CLANGXX),c++17,-O2 -g -DSTOW_CHECK_LEVEL=0))
# Generation overflow in the tests' reach (4 generation bits), retiring slots.
$(eval $(call CXX_HOST_TEST,cxx-host-g++-c++17-gen4-retire,$(CC_gcc),$(CXX_GXX),c++17,-O2 -g \
    -DSTOW_CHECK_LEVEL=1 -DSTOW_HANDLE_INDEX_BITS=28 -DSTOW_GENERATION_OVERFLOW=STOW_GEN_RETIRE))

# ---- suites of their own, on the host: $(1) name, $(2) suite, $(3) C compiler,
# $(4) C++ compiler, $(5) -std, $(6) flags for both, $(7) C++ flags. Built as
# cxx-host-*, with tests/main.c running the one suite $(2) (tests/cxx/$(2).cpp).
#   cxx-throw-*   tests/cxx/throw.cpp with exceptions on (as C++ has them by
#                 default): the strong guarantee of every emplace and make
CXX_OWN_SUITES := throw pmr
$(patsubst %,$(BUILD)/gen/cxx-%/suites.h,$(CXX_OWN_SUITES)): $(BUILD)/gen/cxx-%/suites.h: tests/cxx/rules.mk
	@mkdir -p $(@D)
	@printf 'STOW_TEST_SUITE(cxx_%s)\n' $* >$@
define CXX_SUITE_TEST
$(BUILD)/test/$(1)/tests: tests/cxx/$(2).cpp tests/cxx/check.hpp tests/cxx/counted.hpp lib/include/stow/stow.hpp \
        $(wildcard lib/include/stow/*.hpp) $(LIB_DEPS) $(CXX_C_SRC) tests/harness.h $(HOST_PORT) \
        $(BUILD)/gen/cxx-$(2)/suites.h tests/cxx/rules.mk
	@mkdir -p $$(@D)/obj
	$(Q)for src in $(LIB_SRC) $(CXX_C_SRC) $(HOST_PORT); do \
	    $(3) $(STD) $(WARN) $(6) $(INC) -Itests -I$(BUILD)/gen/cxx-$(2) -c $$$$src \
	        -o $$(@D)/obj/$$$$(basename $$$$src .c).o || exit 1; \
	done
	$(Q)$(4) -std=$(5) $(CXX_WARN_$(4)) $(6) $(7) $(INC) -Itests -Itests/cxx -I$(BUILD)/gen/cxx-$(2) \
	    -c tests/cxx/$(2).cpp \
	    -o $$(@D)/obj/$(2).o
	$(Q)$(4) $(6) $$(@D)/obj/*.o -o $$@ -lpthread
$(BUILD)/test/$(1)/result: $(BUILD)/test/$(1)/tests FORCE
	@tests/run.sh $(1) $$(@D) $$<
CXX_RESULTS += $(BUILD)/test/$(1)/result
endef
$(eval $(call CXX_SUITE_TEST,cxx-throw-g++-c++17-asan-ubsan-L2,throw,$(CC_gcc),$(CXX_GXX),c++17,\
    $(CXX_SAN) -DSTOW_CHECK_LEVEL=2))
$(eval $(call CXX_SUITE_TEST,cxx-throw-clang++-c++20-asan-ubsan-L1,throw,$(CC_clang),$(CXX_CLANGXX),c++20,\
    $(CXX_SAN) -DSTOW_CHECK_LEVEL=1))
$(eval $(call CXX_SUITE_TEST,cxx-throw-g++-c++17-O2-L0-retire,throw,$(CC_gcc),$(CXX_GXX),c++17,\
    -O2 -g -DSTOW_CHECK_LEVEL=0 -DSTOW_HANDLE_INDEX_BITS=28 -DSTOW_GENERATION_OVERFLOW=STOW_GEN_RETIRE))
#   cxx-pmr-*     tests/cxx/pmr.cpp: stow/pmr.hpp with the standard library's
#                 containers (exceptions on, so that running out is tested)
$(eval $(call CXX_SUITE_TEST,cxx-pmr-g++-c++17-asan-ubsan-L2,pmr,$(CC_gcc),$(CXX_GXX),c++17,\
    $(CXX_SAN) -DSTOW_CHECK_LEVEL=2))
$(eval $(call CXX_SUITE_TEST,cxx-pmr-clang++-c++20-O2-L1,pmr,$(CC_clang),$(CXX_CLANGXX),c++20,\
    -O2 -g -DSTOW_CHECK_LEVEL=1))

# ---- cxx-pmr-mps2-an386: the same suite for Cortex-M4, against newlib's C and
# C++ libraries (Debian's libstdc++-arm-none-eabi-newlib, one of make test's
# tools: installed when make runs as root, else its apt-get line printed; a
# toolchain without <memory_resource> all the same gets the run skipped with one
# line), -fno-exceptions as firmware builds are (running out is tested on the
# host), run under QEMU. newlib's sbrk needs `end`: the end of .bss (nothing here
# calls malloc, but libstdc++ links it).
TOOL_armcxx := /usr/lib/arm-none-eabi/newlib/libstdc++_nano.a:libstdc++-arm-none-eabi-newlib
TOOLS_test += armcxx
TOOLS_tools += armcxx
CXX_PMR_ARM_FLAGS := -O2 -g $(CM_FLAGS) $(mps2-an386_CFLAGS) -DSTOW_CHECK_LEVEL=1 -DSTOW_TEST_TARGET \
                     -DSTOW_TEST_RAM_KIB=$(mps2-an386_RAM_KIB) $(INC) -Itests -Itests/cxx -I$(BUILD)/gen/cxx-pmr
CXX_PMR_ARM_LIBS := --specs=nano.specs -lstdc++_nano -lsupc++_nano -lc_nano -lm -lgcc -lnosys \
                    -Wl,--defsym=end=__bss_end
CXX_PMR_ARM_DIR := $(BUILD)/test/cxx-pmr-mps2-an386-O2-L1-c++17
$(CXX_PMR_ARM_DIR)/result: tests/cxx/pmr.cpp lib/include/stow/pmr.hpp lib/include/stow/stow.hpp $(LIB_DEPS) \
        $(CXX_C_SRC) tests/harness.h $(CM_PORT_DEPS) $(BUILD)/gen/cxx-pmr/suites.h FORCE
	@mkdir -p $(@D)/obj
	@if ! echo '#include <memory_resource>' | $(ARM_CXX) -std=c++17 -x c++ -E - >/dev/null 2>&1; then \
	    echo "0 0" >$@; printf '%-34s %s\n' cxx-pmr-mps2-an386 \
	        "skipped: no <memory_resource> for $(ARM_CXX) (apt-get install libstdc++-arm-none-eabi-newlib)"; \
	    exit 0; fi; \
	for src in $(CM_SUPPORT) $(CM_PORT) $(LIB_SRC) $(CXX_C_SRC); do \
	    $(ARM_CC) $(STD) $(WARN) $(CXX_PMR_ARM_FLAGS) -c $$src \
	        -o $(@D)/obj/$$(basename $$src .c).o || exit 1; \
	done; \
	$(ARM_CXX) -std=c++17 $(CXX_WARN_g++) $(CXX_MODE) $(filter-out -ffreestanding,$(CXX_PMR_ARM_FLAGS)) \
	    -c tests/cxx/pmr.cpp -o $(@D)/obj/pmr.o || exit 1; \
	$(ARM_CXX) $(filter-out -ffreestanding,$(CXX_PMR_ARM_FLAGS)) -nostartfiles -Wl,--gc-sections \
	    -Tlinker/cortex-m.ld -Llinker -Ltargets/mps2-an386 $(@D)/obj/*.o $(CXX_PMR_ARM_LIBS) -o $(@D)/tests.elf || exit 1; \
	tests/run.sh cxx-pmr-mps2-an386-O2-L1-c++17 $(@D) timeout $(QEMU_TIMEOUT) $(QEMU) $(mps2-an386_QEMU) $(QEMU_RUN) \
	    -kernel $(@D)/tests.elf
CXX_BOARD_RESULTS += $(CXX_PMR_ARM_DIR)/result

# ---- cxx-nobits: namespace-scope containers (STOW_CXX_DEFINE) cost RAM only:
# their storage sections are NOBITS and a 64 MiB arena makes no 64 MiB object
# (tests/cxx/nobits.sh, readelf), with g++, clang++ and arm-none-eabi-g++; and
# the plain global (storage inside the object) is caught by the same check.
CXX_NOBITS_RUNS := \
    "readelf $(CXX_GXX) -std=c++17 -O2" \
    "readelf $(CXX_CLANGXX) -std=c++20 -O0" \
    "arm-none-eabi-readelf $(ARM_CXX) -std=c++17 -Os $(CM_FLAGS) $(microbit_CFLAGS) $(CXX_MODE)" \
    "arm-none-eabi-readelf $(ARM_CXX) -std=c++20 -O2 $(CM_FLAGS) $(mps2-an386_CFLAGS) $(CXX_MODE)"
$(BUILD)/test/cxx-nobits/result: tests/cxx/nobits.sh tests/cxx/nobits.cpp lib/include/stow/stow.hpp $(LIB_DEPS) FORCE
	@mkdir -p $(@D); passed=0; failed=0; n=0; \
	for run in $(CXX_NOBITS_RUNS); do n=$$((n + 1)); \
	    if tests/cxx/nobits.sh $(@D)/$$n $$run $(INC) >$(@D)/$$n.out; then passed=$$((passed + 1)); \
	    else failed=$$((failed + 1)); cat $(@D)/$$n.out; fi; \
	done; \
	if STOW_NOBITS_EXPECT=fail tests/cxx/nobits.sh $(@D)/plain readelf $(CXX_GXX) -std=c++17 -O2 $(INC) \
	        -DSTOW_NOBITS_PLAIN=1 >$(@D)/plain.out; then passed=$$((passed + 1)); \
	else failed=$$((failed + 1)); cat $(@D)/plain.out; fi; \
	rm -f $(@D)/plain/nobits.o; \
	echo "$$passed $$failed" >$@; printf '%-34s %s passed, %s failed\n' cxx-nobits "$$passed" "$$failed"
CXX_RESULTS += $(BUILD)/test/cxx-nobits/result

# ---- boards: $(1) board, $(2) optimisation, $(3) check level, $(4) -std
# As the C suite's board images (BOARD_TEST in the Makefile): the C sources with
# arm-none-eabi-gcc, the C++ suite with arm-none-eabi-g++, linked -nostdlib.
define CXX_BOARD_TEST
$(BUILD)/test/cxx-$(1)-$(2)-L$(3)-$(4)/tests.elf: $(CXX_TEST_DEPS) tests/cxx/mem.c $(CM_PORT_DEPS) targets/$(1)/board.mk \
        targets/$(1)/memory.ld
	@mkdir -p $$(@D)
	$(Q)for src in $(CXX_TEST_SRC); do \
	    $(ARM_CXX) -std=$(4) $(CXX_WARN_g++) $(CXX_MODE) -$(2) -g $(CM_FLAGS) $($(1)_CFLAGS) \
	        -DSTOW_CHECK_LEVEL=$(3) -DSTOW_TEST_TARGET $(CXX_TEST_INC) -c $$$$src \
	        -o $$(@D)/$$$$(basename $$$$src .cpp).o || exit 1; \
	done
	$(Q)$(ARM_CC) $(STD) $(WARN) -$(2) -g $(CM_FLAGS) $($(1)_CFLAGS) -DSTOW_CHECK_LEVEL=$(3) \
	    -DSTOW_TEST_TARGET -DSTOW_TEST_DIRTY_SECTIONS -DSTOW_TEST_SCALE=5 \
	    -DSTOW_TEST_RAM_KIB=$($(1)_RAM_KIB) $(CXX_TEST_INC) $(CM_LINK) -Ltargets/$(1) \
	    $(CM_SUPPORT) $(CM_PORT) $(LIB_SRC) $(CXX_C_SRC) tests/cxx/mem.c \
	    $(patsubst tests/cxx/%.cpp,$$(@D)/%.o,$(CXX_TEST_SRC)) -lgcc -o $$@
	@if $(ARM_SIZE) -A $$@ | grep -q '^\.init_array'; then \
	    echo "$$@: has .init_array: a global needs dynamic initialisation"; rm -f $$@; exit 1; fi
$(BUILD)/test/cxx-$(1)-$(2)-L$(3)-$(4)/result: $(BUILD)/test/cxx-$(1)-$(2)-L$(3)-$(4)/tests.elf FORCE
	@tests/run.sh cxx-$(1)-$(2)-L$(3)-$(4) $$(@D) timeout $(QEMU_TIMEOUT) $(QEMU) $($(1)_QEMU) $(QEMU_RUN) \
	    -kernel $$<
CXX_BOARD_RESULTS += $(BUILD)/test/cxx-$(1)-$(2)-L$(3)-$(4)/result
endef
$(eval $(call CXX_BOARD_TEST,microbit,O2,1,c++17))
$(eval $(call CXX_BOARD_TEST,microbit,Og,2,c++20))
$(eval $(call CXX_BOARD_TEST,mps2-an386,O2,1,c++20))
$(eval $(call CXX_BOARD_TEST,mps2-an386,O0,2,c++17))
$(eval $(call CXX_BOARD_TEST,mps2-an386,Os,0,c++17))

# ---- clang -Weverything: the suite and the example, compiled only.
$(BUILD)/test/cxx-weverything/result: $(CXX_TEST_DEPS) examples/cxx_entities/main.cpp lib/include/stow/pmr.hpp \
        $(patsubst %,tests/cxx/%.cpp,$(CXX_OWN_SUITES)) $(patsubst %,$(BUILD)/gen/cxx-%/suites.h,$(CXX_OWN_SUITES)) FORCE
	@mkdir -p $(@D); : >$(@D)/log; passed=0; failed=0; \
	for std in c++17 c++20; do for src in $(CXX_TEST_SRC); do \
	    if $(CXX_CLANGXX) -std=$$std $(CXX_EVERYTHING) $$([ $$std = c++20 ] && echo $(CXX_EVERYTHING_c++20)) \
	            $(CXX_MODE) $(CXX_TEST_INC) -c $$src \
	            -o $(@D)/out.o >>$(@D)/log 2>&1; then passed=$$((passed + 1)); \
	    else failed=$$((failed + 1)); echo "FAIL $$src ($$std):"; tail -n 20 $(@D)/log; fi; \
	done; done; \
	if $(CXX_CLANGXX) -std=c++20 $(CXX_EVERYTHING) $(CXX_EVERYTHING_c++20) $(CXX_MODE) $(INC) \
	        -c examples/cxx_entities/main.cpp -o $(@D)/out.o >>$(@D)/log 2>&1; then passed=$$((passed + 1)); \
	else failed=$$((failed + 1)); echo "FAIL examples/cxx_entities/main.cpp (c++20):"; tail -n 20 $(@D)/log; fi; \
	for suite in $(CXX_OWN_SUITES); do \
	    if $(CXX_CLANGXX) -std=c++17 $(CXX_EVERYTHING) $(INC) -Itests -Itests/cxx -I$(BUILD)/gen/cxx-$$suite \
	            -c tests/cxx/$$suite.cpp -o $(@D)/out.o >>$(@D)/log 2>&1; then passed=$$((passed + 1)); \
	    else failed=$$((failed + 1)); echo "FAIL tests/cxx/$$suite.cpp (c++17, exceptions on):"; \
	        tail -n 20 $(@D)/log; fi; \
	done; \
	echo "$$passed $$failed" >$@; \
	printf '%-34s %s passed, %s failed\n' cxx-weverything "$$passed" "$$failed"
CXX_RESULTS += $(BUILD)/test/cxx-weverything/result

# ---- freestanding: every part of stow.hpp (tests/cxx/freestanding.cpp) for
# Cortex-M0 and M4, -O0/-O2/-Os, check levels 0-2, needs nothing but stow's C
# functions and libgcc's helpers: no memset or memcpy, no operator new, no
# __cxa_* (as `make check-freestanding` holds lib/ to).
$(BUILD)/test/cxx-freestanding/result: tests/cxx/freestanding.cpp lib/include/stow/stow.hpp $(LIB_DEPS) FORCE
	@mkdir -p $(@D); : >$(@D)/log; passed=0; failed=0; \
	for cpu in cortex-m0 cortex-m4; do for opt in O0 O2 Os; do for lvl in 0 1 2; do \
	    o=$(@D)/$$cpu-$$opt-L$$lvl.o; \
	    if ! $(ARM_CXX) -std=c++17 $(CXX_WARN_g++) $(CXX_MODE) -$$opt -mcpu=$$cpu -mthumb \
	            -DSTOW_CHECK_LEVEL=$$lvl $(INC) -c $< -o $$o >>$(@D)/log 2>&1; then \
	        failed=$$((failed + 1)); echo "FAIL $$cpu -$$opt L$$lvl: does not compile"; continue; fi; \
	    bad=$$($(ARM_NM) -u $$o | awk 'NF == 2 { print $$2 }' \
	        | grep -vE '^(stow_|__aeabi_|__gnu_|__[a-z]+[sdt]i[0-9]$$)' | tr '\n' ' '); \
	    if [ -n "$$bad" ]; then failed=$$((failed + 1)); echo "FAIL $$cpu -$$opt L$$lvl needs: $$bad"; \
	    else passed=$$((passed + 1)); fi; \
	done; done; done; echo "$$passed $$failed" >$@; \
	printf '%-34s %s passed, %s failed\n' cxx-freestanding "$$passed" "$$failed"
CXX_RESULTS += $(BUILD)/test/cxx-freestanding/result

# ---- compile-fail: $(1) name, $(2) compiler, $(3) flags
CXX_FAIL_SRC := $(sort $(wildcard tests/cxx/compile_fail/*.cpp))
define CXX_COMPILE_FAIL
$(BUILD)/test/$(1)/result: $(CXX_FAIL_SRC) tests/cxx/compile_fail.sh lib/include/stow/stow.hpp $(LIB_DEPS) FORCE
	@tests/cxx/compile_fail.sh $$(@D) $(2) $(3) $(CXX_MODE) $(INC)
CXX_RESULTS += $(BUILD)/test/$(1)/result
endef
$(eval $(call CXX_COMPILE_FAIL,cxx-compile-fail-g++,$(CXX_GXX),-std=c++17 $(CXX_WARN_g++)))
$(eval $(call CXX_COMPILE_FAIL,cxx-compile-fail-clang++,$(CXX_CLANGXX),-std=c++20 $(CXX_WARN_clang++)))
$(eval $(call CXX_COMPILE_FAIL,cxx-compile-fail-cortex-m0,$(ARM_CXX),-std=c++17 $(CXX_WARN_g++) $(CM_FLAGS) \
    $(microbit_CFLAGS)))

# ---- cost: the C++ layer against the C calls, in instructions (bench/cxx_cost.sh).
CXX_COST_DEPS := bench/cxx_cost.sh bench/cxx_cost.h bench/cxx_cost.c bench/cxx_cost.cpp lib/include/stow/stow.hpp \
                 $(LIB_DEPS)
$(BUILD)/test/cxx-cost/result: $(CXX_COST_DEPS) FORCE
	@mkdir -p $(@D)
	@ARM_CC=$(ARM_CC) ARM_CXX=$(ARM_CXX) bench/cxx_cost.sh $(@D) >$(@D)/log 2>&1; status=$$?; \
	if [ $$status -eq 0 ]; then echo "1 0" >$@; r="1 passed, 0 failed"; \
	else echo "0 1" >$@; r="0 passed, 1 failed"; cat $(@D)/log; fi; \
	printf '%-34s %s\n' cxx-cost "$$r"
CXX_RESULTS += $(BUILD)/test/cxx-cost/result
# make bench-cxx: the cost table, then the walks over every item, C against
# C++ (bench/cxx_walk.sh: instructions per item on the host under callgrind and
# on Cortex-M4 and M0 under QEMU -icount; fails if items() is slower than the C
# walk that gives handles too).
.PHONY: bench-cxx
bench-cxx:
	@mkdir -p $(BUILD)/bench/cxx
	@ARM_CC=$(ARM_CC) ARM_CXX=$(ARM_CXX) bench/cxx_cost.sh $(BUILD)/bench/cxx
	@CC=$(CC_gcc) CXX=$(CXX_GXX) ARM_CC=$(ARM_CC) ARM_CXX=$(ARM_CXX) QEMU=$(QEMU) \
	    bench/cxx_walk.sh $(BUILD)/bench/cxx-walk

# ---- the example: `make demo` runs it after the C demos.
DEMOS += cxx_entities
CXX_DEMO_FLAGS := -O2 -g $(CXX_WARN_g++) $(CXX_MODE)
# $(1) the image, $(2) C compiler, $(3) C++ compiler, $(4) flags (both), $(5) link
define CXX_DEMO
$(1): examples/cxx_entities/main.cpp lib/include/stow/stow.hpp $(LIB_DEPS) $(CM_PORT_DEPS) $(RV_PORT_DEPS)
	@mkdir -p $$(@D)
	$(Q)$(3) -std=c++20 $(CXX_DEMO_FLAGS) $(4) $(INC) -c $$< -o $$(@:.elf=.o)
	$(Q)$(2) $(STD) $(WARN) -O2 -g $(4) $(INC) $(5) $$(@:.elf=.o) -lgcc -o $$@
endef
$(eval $(call CXX_DEMO,$(BUILD)/demo/cxx_entities.elf,$(ARM_CC),$(ARM_CXX),$(CM_FLAGS) $($(DEMO_BOARD)_CFLAGS),\
    $(CM_LINK) -Ltargets/$(DEMO_BOARD) $(CM_SUPPORT) $(CM_PORT) $(CM_ASSERT) $(LIB_SRC)))
$(foreach b,$(RV_BOARDS),$(eval $(call CXX_DEMO,$(BUILD)/demo/$(b)/cxx_entities.elf,$(RV_CC),$(RV_CXX),\
    $(RV_FLAGS) $($(b)_CFLAGS),$(RV_LINK) -Ltargets/$(b) $(RV_SUPPORT) port/riscv/assert.c $(LIB_SRC))))
# In make test, on mps2-an386 whatever BOARD says.
$(eval $(call CXX_DEMO,$(BUILD)/test/cxx-demo/cxx_entities.elf,$(ARM_CC),$(ARM_CXX),$(CM_FLAGS) \
    $(mps2-an386_CFLAGS),$(CM_LINK) -Ltargets/mps2-an386 $(CM_SUPPORT) $(CM_PORT) $(CM_ASSERT) $(LIB_SRC)))
$(BUILD)/test/cxx-demo/result: $(BUILD)/test/cxx-demo/cxx_entities.elf FORCE
	@status=0; timeout $(QEMU_TIMEOUT) $(QEMU) $(mps2-an386_QEMU) $(QEMU_RUN) -kernel $< >$(@D)/log 2>&1 \
	    || status=$$?; \
	if [ $$status -eq 0 ]; then echo "1 0" >$@; r="1 passed, 0 failed"; \
	else echo "0 1" >$@; r="0 passed, 1 failed"; tail -n 20 $(@D)/log; fi; \
	printf '%-34s %s\n' cxx-demo "$$r"
CXX_BOARD_RESULTS += $(BUILD)/test/cxx-demo/result

HOST_RESULTS += $(CXX_RESULTS)
BOARD_RESULTS += $(CXX_BOARD_RESULTS)
.PHONY: test-cxx
test-cxx: $(CXX_RESULTS) $(CXX_BOARD_RESULTS)
	@tests/total.sh $(CXX_RESULTS) $(CXX_BOARD_RESULTS)
