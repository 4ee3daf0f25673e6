# SPDX-License-Identifier: MIT
# stow - freestanding C11 allocator kit.
#
#   make                      the library for the host and for Cortex-M0 and M4
#   make test                 every host build and every QEMU board; ends "N passed, N failed"
#   make demo                 the demo firmwares (examples/) under QEMU (mps2-an386;
#                             BOARD=<board> for another, e.g. BOARD=riscv-virt)
#   make demo-freertos        examples/freertos on the FreeRTOS kernel (FREERTOS_KERNEL_PATH;
#                             BOARD=mps2-an385, mps2-an386 or riscv-virt)
#   make bench                instructions per operation (QEMU -icount on Cortex-M0/M4/M33
#                             and RV32IMAC, callgrind on the host), the showdown of
#                             pool designs (a published comparison) on the host,
#                             recorded allocation traces replayed (bench/replay.mk),
#                             the C / C++ instruction comparison (make bench-cxx), what
#                             several cores cost (make bench-multicore), and FreeRTOS
#                             heap_4 beside heap_stow.c (make bench-freertos); kept in
#                             bench/results/bench.md, which make test checks the docs against
#   make heap-size TRACE=f    the smallest heap that runs a recorded allocation trace, and
#                             what STOW_HEAP_BYTES_FOR gives for it (LEVEL=0|1|2,
#                             TARGET=host|mps2-an386|riscv-virt; docs/heap-sizing.md)
#   make showdown-placement   the showdown at four code placements (how much of a ratio
#                             is where the linker put the loops)
#   make report ELF=f.elf     the static RAM of every stow container and subsystem in an
#                             image, from its registry (MARKDOWN=1: as Markdown)
#   make size                 code size per module, core, optimisation and level, and what
#                             a firmware links for the everyday operations (bench/results/size.md)
#   make check-freestanding   lib/ needs nothing but stow_port_* and libgcc helpers
#   make fuzz                 each libFuzzer target for FUZZ_SECONDS (default 60), one after another
#   make lint                 cppcheck, clang-tidy and gcc -fanalyzer on lib/ and port/, levels 0-2
#   make install              headers, a libstow.a per ABI (Cortex-M soft/hard float, RV32),
#                             pkg-config files, the CMake package, the tools and fragments
#                             under PREFIX (default /usr/local); install.mk, docs/embedding.md
#
# Each goal checks for the tools it runs and nothing else (make: gcc and
# gcc-arm-none-eabi; demo: gcc-arm-none-eabi and qemu-system-arm, or for a RISC-V
# board gcc-riscv64-unknown-elf and qemu-system-misc; test: all of those, clang
# with its libFuzzer runtime, gcc-multilib, valgrind, cmake, pkg-config; lint:
# cppcheck and clang-tidy; fuzz: clang; bench: valgrind, and gnuplot for its chart
# if it can). Missing ones are installed with apt-get when make runs as root;
# otherwise it stops and prints the command.

.DEFAULT_GOAL := all
SHELL := /bin/sh
BUILD := build
JOBS := $(shell nproc 2>/dev/null || echo 2)
V ?= 0
Q := $(if $(filter 1,$(V)),,@)

CC_gcc := gcc
CC_clang := clang
CXX_CHECK := clang++
ARM_CC := arm-none-eabi-gcc
ARM_NM := arm-none-eabi-nm
ARM_SIZE := arm-none-eabi-size
QEMU := qemu-system-arm
QEMU_RUN := -nographic -monitor none -serial none -semihosting-config enable=on,target=native
QEMU_TIMEOUT := 300

STD := -std=c11 -pedantic
WARN := -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wshadow \
        -Wstrict-prototypes -Wmissing-prototypes -Wundef -Werror
INC := -Ilib/include

LIB_SRC := $(sort $(wildcard lib/src/*.c))
LIB_DEPS := $(LIB_SRC) $(wildcard lib/include/stow/*.h) lib/src/internal.h
MODULES := $(patsubst lib/src/%.c,%,$(LIB_SRC))
SUITES := $(patsubst tests/test_%.c,%,$(sort $(wildcard tests/test_*.c)))
TEST_SRC := tests/harness.c tests/main.c $(patsubst %,tests/test_%.c,$(SUITES))
TEST_DEPS := $(TEST_SRC) tests/harness.h tests/xorshift.h $(BUILD)/gen/suites.h $(LIB_DEPS) Makefile
HOST_PORT := port/host/port.c
# The Cortex-M port: CM_PORT is the library port every firmware links (PRIMASK
# critical sections, weak output and exit that discard and halt); CM_ASSERT the
# production assert hook (test images link the harness's hook instead); what
# test, benchmark and demo images add: CM_SUPPORT (startup, semihosting output
# and exit, the fault reporter) and, for timing, CM_CYCLES (with SysTick_Handler).
CM_PORT := port/cortex-m/port.c
CM_ASSERT := port/cortex-m/assert.c
CM_SUPPORT := targets/cortex-m/startup.c port/cortex-m/semihost.c port/cortex-m/fault.c
CM_CYCLES := port/cortex-m/cycles.c
CM_PORT_DEPS := $(CM_PORT) $(CM_ASSERT) $(CM_SUPPORT) $(CM_CYCLES) port/cortex-m/writer.h \
                linker/cortex-m.ld linker/stow.ld
# Flags every Cortex-M image and object gets: no libc, no unaligned accesses made
# up by the compiler (test images trap unaligned accesses, so only a real bug faults).
CM_FLAGS := -ffreestanding -ffunction-sections -fdata-sections -mno-unaligned-access
CM_LINK := -nostdlib -Wl,--gc-sections -Tlinker/cortex-m.ld -Llinker

BOARDS := microbit mps2-an385 mps2-an386 mps2-an500 mps2-an505 mps3-an547
# Each targets/<board>/board.mk sets BOARD_CPU, BOARD_CFLAGS, BOARD_QEMU and
# BOARD_RAM_KIB; keep a copy of each under the board's name.
define LOAD_BOARD
include targets/$(1)/board.mk
$(1)_CPU := $$(BOARD_CPU)
$(1)_CFLAGS := $$(BOARD_CFLAGS)
$(1)_QEMU := $$(BOARD_QEMU)
$(1)_RAM_KIB := $$(BOARD_RAM_KIB)
endef
$(foreach b,$(BOARDS),$(eval $(call LOAD_BOARD,$(b))))
# The RISC-V boards take the same board.mk variables (see the RISC-V block).
RV_BOARDS := riscv-virt sifive_e
$(foreach b,$(RV_BOARDS),$(eval $(call LOAD_BOARD,$(b))))

.PHONY: all test test-host test-boards demo bench size check-freestanding check-headers \
        tools $(patsubst %,tools-%,$(TOOL_GOALS)) clean FORCE fuzz lint lint-cppcheck lint-tidy \
        lint-analyzer install

# ---------------------------------------------------------------- tools
# Each goal asks only for what it runs: installs it with apt-get when make runs as
# root, otherwise stops and prints the exact command. command:package pairs (or /path/of/a/file:package, for a package without a command);
# libFuzzer is not a command (its runtime comes with Debian's libclang-rt-dev),
# hence the pseudo-command "libfuzzer".
TOOL_gcc := gcc:gcc
TOOL_gxx := g++:g++
TOOL_arm := arm-none-eabi-gcc:gcc-arm-none-eabi
TOOL_qemu := qemu-system-arm:qemu-system-arm
TOOL_clang := clang:clang
TOOL_libfuzzer := libfuzzer:libclang-rt-dev
TOOL_valgrind := valgrind:valgrind
TOOL_cppcheck := cppcheck:cppcheck
TOOL_tidy := clang-tidy:clang-tidy
TOOL_cmake := cmake:cmake
TOOL_pkgconfig := pkg-config:pkg-config
TOOL_python := python3:python3
TOOL_git := git:git
TOOL_rv := riscv64-unknown-elf-gcc:gcc-riscv64-unknown-elf
TOOL_qemurv := qemu-system-riscv32:qemu-system-misc
TOOL_multilib := multilib:gcc-multilib
TOOL_qemui386 := qemu-i386:qemu-user
TOOLS_all := gcc arm
TOOLS_demo = $(if $(filter $(BOARD),$(RV_BOARDS)),rv qemurv,arm qemu)
TOOLS_test := gcc gxx arm qemu rv qemurv multilib qemui386 clang libfuzzer valgrind cmake pkgconfig python git
TOOLS_lint := gcc arm cppcheck tidy
TOOLS_fuzz := clang libfuzzer
TOOLS_bench := gcc arm qemu rv qemurv valgrind
TOOLS_size := arm rv
# `make tools`: everything any goal uses.
TOOLS_tools := gcc gxx arm qemu rv qemurv multilib qemui386 clang libfuzzer valgrind cppcheck tidy cmake pkgconfig \
               python git
TOOL_GOALS := all demo test lint fuzz bench size tools
# make misra and make prove (docs/misra.md, docs/proof.md) add their goals and tools.
include misra/misra.mk proof/proof.mk
tools: tools-tools
# A static pattern rule, so that it applies to these phony targets.
$(patsubst %,tools-%,$(TOOL_GOALS)): tools-%:
	@missing=""; \
	for pair in $(foreach t,$(TOOLS_$*),$(TOOL_$(t))); do \
	    case "$${pair%%:*}" in \
	    libfuzzer) ls "$$($(CC_clang) -print-runtime-dir 2>/dev/null)"/libclang_rt.fuzzer-*.a \
	                   >/dev/null 2>&1 || missing="$$missing $${pair#*:}";; \
	    multilib) case "$$($(CC_gcc) -m32 -print-file-name=libc.so 2>/dev/null)" in /*) ;; \
	              *) missing="$$missing $${pair#*:}";; esac;; \
	    /*) [ -e "$${pair%%:*}" ] || missing="$$missing $${pair#*:}";; \
	    *) command -v "$${pair%%:*}" >/dev/null 2>&1 || missing="$$missing $${pair#*:}";; \
	    esac; \
	done; \
	if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	        echo "stow: installing$$missing"; \
	        apt-get update -qq && \
	        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing \
	            >/tmp/stow-apt.log 2>&1 || { cat /tmp/stow-apt.log; exit 1; }; \
	    else \
	        echo "stow: missing tools for \`make $*'; install them with:"; \
	        echo "    sudo apt-get install -y --no-install-recommends$$missing"; \
	        exit 1; \
	    fi; \
	fi

# ---------------------------------------------------------------- library
# $(1) directory, $(2) compiler, $(3) flags
define LIBRARY
$(BUILD)/lib/$(1)/%.o: lib/src/%.c $(LIB_DEPS)
	@mkdir -p $$(@D)
	$(Q)$(2) $(STD) $(WARN) $(3) $(INC) -c $$< -o $$@
$(BUILD)/lib/$(1)/libstow.a: $(patsubst %,$(BUILD)/lib/$(1)/%.o,$(MODULES))
	$(Q)$(if $(findstring arm,$(2)),arm-none-eabi-ar,ar) rcs $$@ $$^
endef
$(eval $(call LIBRARY,host,$(CC_gcc),-O2 -g))
$(eval $(call LIBRARY,cortex-m0,$(ARM_CC),-Os $(CM_FLAGS) $(microbit_CFLAGS)))
$(eval $(call LIBRARY,cortex-m4,$(ARM_CC),-Os $(CM_FLAGS) $(mps2-an386_CFLAGS)))

all: tools-all
	@$(MAKE) --no-print-directory $(BUILD)/lib/host/libstow.a $(BUILD)/lib/cortex-m0/libstow.a \
	    $(BUILD)/lib/cortex-m4/libstow.a
	@echo "built $(BUILD)/lib/{host,cortex-m0,cortex-m4}/libstow.a"

# ---------------------------------------------------------------- install
# make install: install.mk (included last, after the toolchains' variables).

# ---------------------------------------------------------------- tests
# The suite list main.c includes; rewritten only when the set of test files changes.
$(BUILD)/gen/suites.h: FORCE
	@mkdir -p $(@D)
	@printf 'STOW_TEST_SUITE(%s)\n' $(SUITES) >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

TEST_INC := $(INC) -Itests -I$(BUILD)/gen
HOST_RESULTS :=
# $(1) name, $(2) compiler, $(3) flags
define HOST_TEST
$(BUILD)/test/$(1)/tests: $(TEST_DEPS) $(HOST_PORT)
	@mkdir -p $$(@D)
	$(Q)$(2) $(STD) $(WARN) $(3) $(TEST_INC) $(LIB_SRC) $(TEST_SRC) $(HOST_PORT) -o $$@ -lpthread
$(BUILD)/test/$(1)/result: $(BUILD)/test/$(1)/tests $(5) FORCE
	@tests/run.sh $(1) $$(@D) $(4) $$<
HOST_RESULTS += $(BUILD)/test/$(1)/result
endef
# Each compiler at -O2 at every level, and unoptimised at level 2 (the level with
# every check, the one where -O0 finds what the optimiser hides).
$(foreach cc,gcc clang,$(foreach lvl,0 1 2,\
    $(eval $(call HOST_TEST,host-$(cc)-O2-L$(lvl),$(CC_$(cc)),-O2 -g -DSTOW_CHECK_LEVEL=$(lvl)))))
$(foreach cc,gcc clang,\
    $(eval $(call HOST_TEST,host-$(cc)-O0-L2,$(CC_$(cc)),-O0 -g -DSTOW_CHECK_LEVEL=2)))
# The assert hook without the checks' text (STOW_ASSERT_TEXT=0), at -Os as a
# firmware that wants the flash back would build it.
$(eval $(call HOST_TEST,host-clang-Os-L1-notext,$(CC_clang),-Os -g -DSTOW_CHECK_LEVEL=1 \
    -DSTOW_ASSERT_TEXT=0))
SANITIZE := -fsanitize=address -fsanitize=undefined -fno-sanitize-recover=all
$(eval $(call HOST_TEST,host-gcc-asan-ubsan-L2,$(CC_gcc),-O1 -g -fno-omit-frame-pointer \
    $(SANITIZE) -DSTOW_CHECK_LEVEL=2))

# Handles with 4 generation bits, so that generation overflow (WRAP and RETIRE)
# happens within the tests.
GEN4 := -O2 -g -DSTOW_CHECK_LEVEL=1 -DSTOW_HANDLE_INDEX_BITS=28
$(eval $(call HOST_TEST,host-gcc-O2-L1-gen4-wrap,$(CC_gcc),$(GEN4)))
$(eval $(call HOST_TEST,host-gcc-O2-L1-gen4-retire,$(CC_gcc),$(GEN4) \
    -DSTOW_GENERATION_OVERFLOW=STOW_GEN_RETIRE))

# A board image's suite list, $(1)/suites.h, for the suites $(2) (empty: all),
# and those suites' files.
define IMAGE_SUITES
$(1)/suites.h: $(BUILD)/gen/suites.h
	@mkdir -p $$(@D)
	@printf 'STOW_TEST_SUITE(%s)\n' $(or $(2),$(SUITES)) >$$@
endef
SUITE_SRC = $(patsubst %,tests/test_%.c,$(or $(1),$(SUITES)))

BOARD_RESULTS :=
# $(1) board, $(2) optimisation, $(3) check level, $(4) extra flags, $(5) their
# part of the name, $(6) the suites it runs (default: all). The harness brings its
# own assert hook (recording, returning). An image given $(6) includes a suites.h of
# its own, written next to it, ahead of the one for every suite.
define BOARD_TEST
$(call IMAGE_SUITES,$(BUILD)/test/$(1)-$(2)$(5)-L$(3),$(6))
$(BUILD)/test/$(1)-$(2)$(5)-L$(3)/tests.elf: $(TEST_DEPS) $(CM_PORT_DEPS) targets/$(1)/board.mk targets/$(1)/memory.ld \
        $(BUILD)/test/$(1)-$(2)$(5)-L$(3)/suites.h
	@mkdir -p $$(@D)
	$(Q)$(ARM_CC) $(STD) $(WARN) -$(2) $(4) -g $(CM_FLAGS) $($(1)_CFLAGS) -DSTOW_CHECK_LEVEL=$(3) \
	    -DSTOW_TEST_TARGET -DSTOW_TEST_DIRTY_SECTIONS -DSTOW_TEST_SCALE=5 \
	    -DSTOW_TEST_RAM_KIB=$($(1)_RAM_KIB) -I$$(@D) $(TEST_INC) $(CM_LINK) -Ltargets/$(1) \
	    $(CM_SUPPORT) $(CM_PORT) $(LIB_SRC) tests/harness.c tests/main.c \
	    $(call SUITE_SRC,$(6)) -lgcc -o $$@
$(BUILD)/test/$(1)-$(2)$(5)-L$(3)/result: $(BUILD)/test/$(1)-$(2)$(5)-L$(3)/tests.elf FORCE
	@tests/run.sh $(1)-$(2)$(5)-L$(3) $$(@D) timeout $(QEMU_TIMEOUT) $(QEMU) $($(1)_QEMU) $(QEMU_RUN) -kernel $$<
BOARD_RESULTS += $(BUILD)/test/$(1)-$(2)$(5)-L$(3)/result
endef
# Every board at the default level; the smallest and the most common core also
# at the other levels and optimisations.
# The boards with 16 KiB of RAM (micro:bit, sifive_e) run the suites in two images
# where one no longer fits their flash or RAM: these suites, then the others.
SMALL_PART1 := $(filter arena genpool misuse packed,$(SUITES))
SMALL_PART2 := $(filter-out $(SMALL_PART1),$(SUITES))
$(foreach b,$(filter-out microbit,$(BOARDS)),$(eval $(call BOARD_TEST,$(b),O2,1)))
$(eval $(call BOARD_TEST,microbit,O2,1,,-part1,$(SMALL_PART1)))
$(eval $(call BOARD_TEST,microbit,O2,1,,-part2,$(filter-out $(SMALL_PART1),$(SUITES))))
$(eval $(call BOARD_TEST,mps2-an386,Os,0))
$(eval $(call BOARD_TEST,microbit,Os,0,,-part1,$(SMALL_PART1)))
$(eval $(call BOARD_TEST,microbit,Os,0,,-part2,$(filter-out $(SMALL_PART1),$(SUITES))))
# Level 2 unoptimised on the M4; on the micro:bit at -Og, because at -O0 the suite
# with every message text no longer fits its 256 KiB of flash.
$(eval $(call BOARD_TEST,mps2-an386,O0,2))
$(eval $(call BOARD_TEST,microbit,Og,2,,-part1,$(SMALL_PART1)))
$(eval $(call BOARD_TEST,microbit,Og,2,,-part2,$(filter-out $(SMALL_PART1),$(SUITES))))
# Firmware is often built with link-time optimisation: library, port, fault
# reporter and startup all go through -flto once.
$(eval $(call BOARD_TEST,mps2-an386,O2,1,-flto=auto,-lto))
include adapters/libc/rules.mk
include tests/heap/rules.mk

# ---------------------------------------------------------------- reliability
# Memcheck: the host suite under valgrind, at level 2 (poison paths included), with
# the random walks at a quarter of their length so that it stays near 10 seconds.
VALGRIND := valgrind -q --error-exitcode=1
$(BUILD)/test/host-valgrind/tests: $(TEST_DEPS) $(HOST_PORT)
	@mkdir -p $(@D)
	$(Q)$(CC_gcc) $(STD) $(WARN) -O1 -g -DSTOW_CHECK_LEVEL=2 -DSTOW_TEST_SCALE=25 $(TEST_INC) \
	    $(LIB_SRC) $(TEST_SRC) $(HOST_PORT) -o $@ -lpthread
$(BUILD)/test/host-valgrind/result: $(BUILD)/test/host-valgrind/tests FORCE
	@tests/run.sh host-valgrind $(@D) $(VALGRIND) $<
HOST_RESULTS += $(BUILD)/test/host-valgrind/result

# Stale pointers caught by AddressSanitizer: tests/asan/stale.c reads and writes
# through a pointer each container took back, and each such run must end in a
# use-after-poison report. gcc and clang (the two ways lib/ detects ASan), and
# levels 0 and 2 (poisoning does not depend on the level).
# $(1) name, $(2) compiler, $(3) level
define ASAN_STALE
$(BUILD)/test/$(1)/stale: tests/asan/stale.c $(LIB_DEPS) $(HOST_PORT) port/host/assert.c Makefile
	@mkdir -p $$(@D)
	$(Q)$(2) $(STD) $(WARN) -O1 -g -fsanitize=address -DSTOW_CHECK_LEVEL=$(3) $(INC) \
	    $(LIB_SRC) $$< $(HOST_PORT) port/host/assert.c -o $$@ -lpthread
$(BUILD)/test/$(1)/result: $(BUILD)/test/$(1)/stale tests/asan/run.sh FORCE
	@tests/asan/run.sh $(1) $$(@D) $$<
HOST_RESULTS += $(BUILD)/test/$(1)/result
endef
$(eval $(call ASAN_STALE,asan-stale-gcc-L0,$(CC_gcc),0))
$(eval $(call ASAN_STALE,asan-stale-clang-L2,$(CC_clang),2))

# Differential fuzzing (tests/fuzz/): one libFuzzer target per module, with ASan
# and UBSan, at check levels 1 and 2. 28 index bits leave 15 generations, so that
# generation overflow is frequent: STOW_GEN_WRAP at level 1, STOW_GEN_RETIRE at
# level 2. `make test` runs each for FUZZ_RUNS inputs (about a second);
# `make fuzz` for FUZZ_SECONDS each, one target after another (FUZZ_TARGETS picks
# some, e.g. FUZZ_TARGETS="pool-L2 arena-L1").
FUZZ_CC := $(CC_clang)
FUZZ_SAN := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_FLAGS_1 := -DSTOW_CHECK_LEVEL=1 -DSTOW_HANDLE_INDEX_BITS=28
FUZZ_FLAGS_2 := -DSTOW_CHECK_LEVEL=2 -DSTOW_HANDLE_INDEX_BITS=28 -DSTOW_GENERATION_OVERFLOW=STOW_GEN_RETIRE
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= 2000
# the modules with a target (not heap_trace.c, the trace writer: tests/test_heap.c tests it)
FUZZ_MODULES := $(filter $(MODULES),$(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_TARGETS ?= $(foreach m,$(FUZZ_MODULES),$(m)-L1 $(m)-L2)
# $(1) module, $(2) level
define FUZZ_TARGET
$(BUILD)/fuzz/$(1)-L$(2)/fuzz: tests/fuzz/fuzz_$(1).c tests/fuzz/fuzz.h $(LIB_DEPS) $(HOST_PORT) Makefile
	@mkdir -p $$(@D)
	$(Q)$(FUZZ_CC) $(STD) $(WARN) -O1 -g $(FUZZ_SAN) $(FUZZ_FLAGS_$(2)) $(INC) \
	    $(LIB_SRC) $(HOST_PORT) $$< -o $$@ -lpthread
$(BUILD)/test/fuzz-$(1)-L$(2)/result: $(BUILD)/fuzz/$(1)-L$(2)/fuzz tests/fuzz/smoke.sh FORCE
	@tests/fuzz/smoke.sh fuzz-$(1)-L$(2) $$(@D) $$< tests/fuzz/corpus/$(1) $(FUZZ_RUNS)
FUZZ_SMOKE_RESULTS += $(BUILD)/test/fuzz-$(1)-L$(2)/result
fuzz-run-$(1)-L$(2): $(BUILD)/fuzz/$(1)-L$(2)/fuzz
	@tests/fuzz/run.sh $(1)-L$(2) $$< tests/fuzz/corpus/$(1) $(BUILD)/fuzz/$(1)-L$(2)/corpus $(FUZZ_SECONDS)
endef
$(foreach m,$(FUZZ_MODULES),$(foreach l,1 2,$(eval $(call FUZZ_TARGET,$(m),$(l)))))
# make test runs each target's smoke run at level 2 (every check, so the most the
# model compares); `make fuzz` fuzzes both levels.
HOST_RESULTS += $(filter %-L2/result,$(FUZZ_SMOKE_RESULTS))

fuzz: tools-fuzz
	@status=0; for t in $(FUZZ_TARGETS); do \
	    $(MAKE) --no-print-directory fuzz-run-$$t || status=1; \
	done; exit $$status

# Misuse the compiler must reject, such as a handle passed to the wrong container:
# on the host (64-bit size_t) and for Cortex-M0 (32-bit).
$(BUILD)/test/compile-fail/result: $(wildcard tests/compile_fail/*.c) $(LIB_DEPS) FORCE
	@tests/compile_fail.sh $(@D) $(CC_gcc) $(STD) $(WARN) $(INC)
$(BUILD)/test/compile-fail-cortex-m0/result: $(wildcard tests/compile_fail/*.c) $(LIB_DEPS) FORCE
	@tests/compile_fail.sh $(@D) $(ARM_CC) $(STD) $(WARN) $(CM_FLAGS) $(microbit_CFLAGS) $(INC)
HOST_RESULTS += $(BUILD)/test/compile-fail/result $(BUILD)/test/compile-fail-cortex-m0/result

# A program built with other layout options than the library must fail to link,
# naming the option (config.h); with the same options it must link. With gcc for
# the host and with arm-none-eabi-gcc for Cortex-M0, both with --gc-sections.
$(BUILD)/test/config-guard/result: tests/config_guard.sh tests/config_guard/user.c tests/stub_port.c $(LIB_DEPS) FORCE
	@tests/config_guard.sh $(@D) $(CC_gcc) $(STD) $(WARN) -O2 $(INC) -ffunction-sections \
	    -fdata-sections -Wl,--gc-sections
$(BUILD)/test/config-guard-cortex-m0/result: tests/config_guard.sh tests/config_guard/user.c tests/stub_port.c $(LIB_DEPS) FORCE
	@LDLIBS=-lgcc tests/config_guard.sh $(@D) $(ARM_CC) $(STD) $(WARN) -O2 $(CM_FLAGS) \
	    $(microbit_CFLAGS) $(INC) -nostdlib -Wl,--gc-sections -Wl,-e,main
HOST_RESULTS += $(BUILD)/test/config-guard/result $(BUILD)/test/config-guard-cortex-m0/result

# DEFINE'd storage is NOBITS everywhere: a program with about 49 MiB of DEFINE'd
# containers stays a small executable (gcc, clang, g++, gcc -m32, STOW_SECTIONS=0),
# and on Cortex-M4 and rv32imac a small flash image, with the toolchain's default
# linker script and with stow's (tests/nobits.sh: readelf, nm, file sizes).
$(BUILD)/test/nobits/result: tests/nobits.sh tests/nobits/big.c tests/stub_port.c $(LIB_DEPS) $(HOST_PORT) \
        linker/cortex-m.ld linker/riscv.ld linker/stow.ld FORCE
	@tests/run.sh nobits $(@D) tests/nobits.sh $(abspath $(@D))/work
HOST_RESULTS += $(BUILD)/test/nobits/result

# ---------------------------------------------------------------- consumers
# Projects that use stow the way a user's would: install.mk.

# Every source, header, linker script, script and build file starts with its SPDX
# license line (tests/spdx.sh says which comment style each kind of file takes).
$(BUILD)/test/spdx/result: tests/spdx.sh FORCE
	@tests/run.sh spdx $(@D) tests/spdx.sh $(@D)
HOST_RESULTS += $(BUILD)/test/spdx/result

# `make` and `make demo` (also BOARD=riscv-virt) ask for their own tools and no
# others: each passes its tool check with a PATH of only those, as a user who is
# not root, and names the package of any one taken away (tests/tools.sh).
$(BUILD)/test/tools/result: tests/tools.sh FORCE
	@tests/run.sh tools $(@D) tests/tools.sh $(@D)/work $(MAKE)
HOST_RESULTS += $(BUILD)/test/tools/result


# ---- link tests
# linker/stow.ld as an out-of-tree firmware for mps2-an386 meets it: with the
# fragment, without it, with stow and with one container in a second RAM region,
# and two links that must fail (no STOW_RAM, .stow too large); each checked with
# arm-none-eabi-size -A and readelf -S (NOBITS, region, flash image unchanged)
# and, where it links, run under QEMU.
LINK_BOARD := mps2-an386
LINK_QEMU := timeout 60 $(QEMU) $($(LINK_BOARD)_QEMU) $(QEMU_RUN) -kernel
$(BUILD)/test/link-fragment/result: tests/link/fragment.sh $(wildcard tests/link/firmware/*) \
        $(LIB_DEPS) $(CM_PORT_DEPS) FORCE
	@QEMU_CMD="$(LINK_QEMU)" tests/link/fragment.sh $(@D) $(ARM_CC) $(STD) $(WARN) -O2 $(CM_FLAGS) \
	    $($(LINK_BOARD)_CFLAGS) $(INC)
BOARD_RESULTS += $(BUILD)/test/link-fragment/result
# port/cortex-m/fault.c from a static archive (with -u stow_cm_fault_report, and
# with -flto): the vector table's HardFault entry is the reporter (nm, readelf),
# the test suite linked that way passes, and a deliberate fault is reported.
$(BUILD)/test/link-archive/result: tests/link/archive.sh tests/link/fault_main.c $(TEST_DEPS) \
        $(CM_PORT_DEPS) FORCE
	@QEMU_CMD="timeout $(QEMU_TIMEOUT) $(QEMU) $($(LINK_BOARD)_QEMU) $(QEMU_RUN) -kernel" \
	    tests/link/archive.sh $(@D) $(ARM_CC) $(STD) $(WARN) -O2 -g $(CM_FLAGS) $($(LINK_BOARD)_CFLAGS) \
	    -DSTOW_CHECK_LEVEL=1 -DSTOW_TEST_TARGET -DSTOW_TEST_DIRTY_SECTIONS -DSTOW_TEST_SCALE=5 \
	    -DSTOW_TEST_RAM_KIB=$($(LINK_BOARD)_RAM_KIB) $(TEST_INC)
HOST_RESULTS += $(BUILD)/test/link-archive/result


# ---- C++ compile-fail
# A DEFINE inside a C++ class must not compile (tests/compile_fail_cxx/*.cpp, as
# tests/compile_fail/ but C++: with -DSTOW_COMPILE_FAIL=0 each must compile, with
# =1 it must not).
$(BUILD)/test/compile-fail-cxx/result: $(wildcard tests/compile_fail_cxx/*.cpp) $(LIB_DEPS) FORCE
	@mkdir -p $(@D); : >$(@D)/log; passed=0; failed=0; \
	for src in tests/compile_fail_cxx/*.cpp; do \
	    name=$$(basename $$src .cpp); \
	    if ! $(CXX_CHECK) -std=c++11 -Wall -Wextra -Wpedantic -Werror $(INC) -DSTOW_COMPILE_FAIL=0 -c $$src \
	            -o $(@D)/$$name.o >>$(@D)/log 2>&1; then \
	        echo "FAIL $$name: does not compile even without the misuse" | tee -a $(@D)/log; \
	        failed=$$((failed + 1)); \
	    elif $(CXX_CHECK) -std=c++11 $(INC) -DSTOW_COMPILE_FAIL=1 -c $$src \
	            -o $(@D)/$$name.o >>$(@D)/log 2>&1; then \
	        echo "FAIL $$name: the misuse compiled" | tee -a $(@D)/log; failed=$$((failed + 1)); \
	    else passed=$$((passed + 1)); fi; \
	done; echo "$$passed $$failed" >$@; \
	printf '%-34s %s passed, %s failed\n' compile-fail-cxx "$$passed" "$$failed"
HOST_RESULTS += $(BUILD)/test/compile-fail-cxx/result


test: tools-test
	@$(MAKE) --no-print-directory -j$(JOBS) check-freestanding check-headers check-headers-strict \
	    check-constinit check-define-scope
	@$(MAKE) --no-print-directory -j$(JOBS) test-host test-boards
	@tests/total.sh $(HOST_RESULTS) $(BOARD_RESULTS)

# The public headers compile as C++ too, DEFINE macros included.
check-headers: $(BUILD)/gen/cxx_check.o
$(BUILD)/gen/cxx_check.o: tests/cxx_check.cpp $(LIB_DEPS)
	@mkdir -p $(@D)
	$(Q)$(CXX_CHECK) -std=c++11 -Wall -Wextra -Wpedantic -Werror $(INC) -c $< -o $@
	@echo "headers compile as C++11"

# ---- C++ strictness of the headers
# (the C++ compile-fail checks are with the other results, above `test`)
# check-headers-strict: tests/cxx_check.cpp with the warnings a C++ engine turns
# on (old-style and useless casts, conversions, shadowing) as errors, with g++
# and clang++, as C++11 and C++17: the DEFINE and typed macros expand cleanly in
# a user's code compiled with plain -I. (Joins `make test` once every header is
# clean.)
CXX_STRICT := -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wold-style-cast \
              -Werror
CXX_STRICT_g++ := -Wuseless-cast
.PHONY: check-headers-strict
check-headers-strict:
	@mkdir -p $(BUILD)/gen
	$(Q)for cxx in g++ clang++; do for std in c++11 c++17; do \
	    $$cxx -std=$$std $(CXX_STRICT) $$([ $$cxx = g++ ] && echo $(CXX_STRICT_g++)) $(INC) \
	        -c tests/cxx_check.cpp -o $(BUILD)/gen/cxx_check_strict.o || exit 1; \
	done; done
	@echo "headers compile as C++11 and C++17 with g++ and clang++, strict warnings as errors"


# ---------------------------------------------------------------- freestanding
# lib/ built for Cortex-M must need no symbol but the port's and libgcc's (not
# even the ends of the registry's sections: stow/report.h's inline calls pass
# them in), and include no header but the freestanding five and its own.
# Also built without -ffreestanding (the "hosted" objects), as a firmware that
# compiles everything with one set of flags may: GCC then turns fill and copy
# loops into memset/memcpy calls unless they are marked (STOW__OPAQUE, internal.h).
check-freestanding:
	@mkdir -p $(BUILD)/freestanding
	$(Q)for cpu in cortex-m0 cortex-m4; do for lvl in 0 1 2; do for src in $(LIB_SRC); do \
	    $(ARM_CC) $(STD) $(WARN) -O2 -ffreestanding -mcpu=$$cpu -mthumb -DSTOW_CHECK_LEVEL=$$lvl \
	        $(INC) -c $$src -o $(BUILD)/freestanding/$$cpu-L$$lvl-$$(basename $$src .c).o || exit 1; \
	    for opt in O2 O3; do \
	        $(ARM_CC) $(STD) $(WARN) -$$opt -mcpu=$$cpu -mthumb -DSTOW_CHECK_LEVEL=$$lvl $(INC) -c $$src \
	            -o $(BUILD)/freestanding/hosted-$$opt-$$cpu-L$$lvl-$$(basename $$src .c).o || exit 1; \
	    done; \
	done; done; done
	$(Q)bad=$$($(ARM_NM) -u $(BUILD)/freestanding/*.o | awk 'NF == 2 { print $$2 }' \
	        | grep -vE '^(stow_port_|__aeabi_|__gnu_)' | sort -u); \
	if [ -n "$$bad" ]; then echo "lib/ needs symbols it may not: $$bad"; exit 1; fi
	$(Q)bad=$$(grep -hE '^[[:space:]]*#[[:space:]]*include' lib/include/stow/*.h lib/src/*.[ch] \
	        | grep -vE '<(stddef|stdint|stdbool|stdalign|limits|stdatomic)\.h>|"[a-z_/]+\.h"|STOW_CONFIG_HEADER'); \
	if [ -n "$$bad" ]; then echo "lib/ includes headers it may not: $$bad"; exit 1; fi
	@echo "lib/ is freestanding: needs only stow_port_* and libgcc helpers"

# ---------------------------------------------------------------- lint
# Static analysis of lib/ and port/ at check levels 0, 1 and 2 (and level 2 with
# AddressSanitizer's code paths), clean or suppressed in place with a reason:
#   cppcheck (warning, style, portability, performance): lib/ and the host port
#     on the host platform; lib/ and the Cortex-M port as arm32 for v6-M and v7E-M.
#   clang-tidy (bugprone-*, cert-*, clang-analyzer-*, misc-*, headers included):
#     lib/ and the host port. Disabled: bugprone-easily-swappable-parameters,
#     because the public signatures (init(obj, buf, buf_size, size, align,
#     capacity) and the like) are the public API's.
#   gcc -fanalyzer: lib/ and the host port; arm-none-eabi-gcc -fanalyzer: lib/ and
#     the Cortex-M port, for Cortex-M0 and M4.
CPPCHECK := cppcheck --enable=warning,style,portability,performance --std=c11 --inline-suppr \
            --quiet --error-exitcode=1 $(INC)
CLANG_TIDY := clang-tidy --quiet --warnings-as-errors='*' --header-filter='.*/(lib|port)/.*' \
              --checks='-*,bugprone-*,cert-*,clang-analyzer-*,misc-*,-bugprone-easily-swappable-parameters'
LINT_HOST := $(LIB_SRC) port/host/port.c port/host/assert.c
LINT_CM := $(LIB_SRC) $(CM_PORT) $(CM_ASSERT) $(CM_CYCLES) port/cortex-m/semihost.c port/cortex-m/fault.c
LINT_LEVELS := 0 1 2 2-asan

lint: tools-lint
	@$(MAKE) --no-print-directory -j$(JOBS) lint-cppcheck lint-tidy lint-analyzer
	@echo "lint: clean (cppcheck, clang-tidy, gcc -fanalyzer; levels 0, 1, 2 and 2 with ASan)"
lint-cppcheck:
	$(Q)for lvl in $(LINT_LEVELS); do \
	    asan=; case $$lvl in *asan) asan=-D__SANITIZE_ADDRESS__;; esac; \
	    $(CPPCHECK) -DSTOW_CHECK_LEVEL=$${lvl%%-*} $$asan $(LINT_HOST) || exit 1; \
	    for arch in __ARM_ARCH_6M__ __ARM_ARCH_7EM__; do \
	        $(CPPCHECK) --platform=arm32-wchar_t4 -D__GNUC__ -D__arm__ -D$$arch \
	            -DSTOW_CHECK_LEVEL=$${lvl%%-*} $(LINT_CM) || exit 1; \
	    done; \
	done
lint-tidy:
	$(Q)for lvl in $(LINT_LEVELS); do \
	    asan=; case $$lvl in *asan) asan=-fsanitize=address;; esac; \
	    out=$$($(CLANG_TIDY) $(LINT_HOST) -- $(STD) $(INC) -DSTOW_CHECK_LEVEL=$${lvl%%-*} $$asan 2>&1) \
	        || { printf '%s\n' "$$out" | grep -v 'warnings generated'; exit 1; }; \
	done
lint-analyzer:
	@mkdir -p $(BUILD)/lint
	$(Q)for lvl in $(LINT_LEVELS); do \
	    asan=; case $$lvl in *asan) asan=-fsanitize=address;; esac; \
	    for src in $(LINT_HOST); do \
	        $(CC_gcc) $(STD) $(WARN) -O2 -fanalyzer $$asan -DSTOW_CHECK_LEVEL=$${lvl%%-*} $(INC) \
	            -c $$src -o $(BUILD)/lint/host.o || exit 1; \
	    done; \
	    case $$lvl in *asan) continue;; esac; \
	    for cpu in cortex-m0 cortex-m4; do for src in $(LINT_CM); do \
	        $(ARM_CC) $(STD) $(WARN) -O2 -fanalyzer $(CM_FLAGS) -mcpu=$$cpu -mthumb \
	            -DSTOW_CHECK_LEVEL=$$lvl $(INC) -c $$src -o $(BUILD)/lint/cm.o || exit 1; \
	    done; done; \
	done

# ---------------------------------------------------------------- demo
# make demo BOARD=<board>: another board (a RISC-V one: see the RISC-V block).
DEMO_BOARD := $(or $(BOARD),mps2-an386)
DEMOS := frame_scratch skirmish
$(BUILD)/demo/%.elf: examples/%/main.c $(LIB_DEPS) $(CM_PORT_DEPS)
	@mkdir -p $(@D)
	$(Q)$(ARM_CC) $(STD) $(WARN) -O2 -g $(CM_FLAGS) $($(DEMO_BOARD)_CFLAGS) $(INC) \
	    $(CM_LINK) -Ltargets/$(DEMO_BOARD) $(CM_SUPPORT) $(CM_PORT) $(CM_ASSERT) $(LIB_SRC) $< -lgcc -o $@
DEMO_RV := $(filter $(DEMO_BOARD),$(RV_BOARDS))
DEMO_DIR := $(BUILD)/demo$(if $(DEMO_RV),/$(DEMO_BOARD))
DEMO_QEMU = $(if $(DEMO_RV),$(RV_QEMU),$(QEMU))
demo: tools-demo
	@$(MAKE) --no-print-directory $(patsubst %,$(DEMO_DIR)/%.elf,$(DEMOS))
	@for d in $(DEMOS); do \
	    echo "== examples/$$d (QEMU $(DEMO_BOARD))"; \
	    timeout $(QEMU_TIMEOUT) $(DEMO_QEMU) $($(DEMO_BOARD)_QEMU) $(QEMU_RUN) -kernel $(DEMO_DIR)/$$d.elf || exit 1; \
	    echo; \
	done

# ---------------------------------------------------------------- bench, size
# make bench: instructions per operation (QEMU -icount on BENCH_BOARDS, callgrind
# on the host) as one table with a column per core and check level, then the
# showdown of pool designs (bench/showdown.c) timed on the host, and its chart
# where gnuplot is installed.
# Everything lands in $(BUILD)/bench/; the chart in bench/out/showdown.png.
BENCH_BOARDS := microbit mps2-an386 mps2-an505
BENCH_LEVELS := 0 1
# Cortex-M4, the core the targets are set on, at level 2 as well.
BENCH_LEVELS_mps2-an386 := 0 1 2
BENCH_CORE_microbit := Cortex-M0
BENCH_CORE_mps2-an386 := Cortex-M4
BENCH_CORE_mps2-an505 := Cortex-M33
HOST_ARCH := $(shell uname -m | sed 's/_/-/g')
# Calls per round and rounds per row (bench/bench.h); the micro:bit's 16 KiB of
# RAM holds 100 slots of the largest row.
BENCH_COUNTS := -DBENCH_OPS=1000u -DBENCH_ROUNDS=10u
BENCH_COUNTS_microbit := -DBENCH_OPS=100u -DBENCH_ROUNDS=1000u
# Modules whose rows time each call on its own, for the worst case as well as the
# mean (bench/bench.h, "one call at a time"): their bench/ops_<module>.c goes into
# images of their own (each.elf, built with -DSTOW_BENCH_EACH), run under
# -icount shift=8, where one instruction is several SysTick ticks; on the host
# under callgrind with a dump per call (bench/callgrind_each.sh).
BENCH_EACH := heap
BENCH_SRC := bench/ops.c $(filter-out $(patsubst %,bench/ops_%.c,$(BENCH_EACH)),$(sort $(wildcard bench/ops_*.c)))
BENCH_DEPS := $(BENCH_SRC) bench/bench.h $(BUILD)/gen/benches.h $(LIB_DEPS) Makefile
BENCH_EACH_SRC := bench/ops.c $(patsubst %,bench/ops_%.c,$(BENCH_EACH))
BENCH_EACH_DEPS := $(BENCH_EACH_SRC) bench/bench.h $(BUILD)/gen/benches_each.h $(LIB_DEPS) Makefile
# The heap's storage is stow_bench_ram (BENCH_OPS * 80 + 256 bytes): 11 KiB of the
# micro:bit's 16.
BENCH_EACH_COUNTS_microbit := -DBENCH_OPS=140u
BENCH_EACH_ROWS :=
# gnuplot is optional and installed only where that can be done quietly.
# The showdown's check level (1, the default a user gets) and runs per median.
SHOWDOWN_LEVEL ?= 1
SHOWDOWN_RUNS ?= 7
BENCH_ROWS :=
$(BUILD)/gen/benches.h: FORCE
	@mkdir -p $(@D)
	@printf 'STOW_BENCH(%s)\n' $(patsubst bench/ops_%.c,%,$(filter bench/ops_%.c,$(BENCH_SRC))) >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/gen/benches_each.h: FORCE
	@mkdir -p $(@D)
	@printf 'STOW_BENCH(%s)\n' $(BENCH_EACH) >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
# $(1) board, $(2) check level
define BENCH_IMAGE
$(BUILD)/bench/$(1)-L$(2)/ops.elf: $(BENCH_DEPS) $(CM_PORT_DEPS) targets/$(1)/board.mk targets/$(1)/memory.ld
	@mkdir -p $$(@D)
	$(Q)$(ARM_CC) $(STD) $(WARN) -O2 -g $(CM_FLAGS) $($(1)_CFLAGS) -DSTOW_CHECK_LEVEL=$(2) \
	    -DSTOW_BENCH_TARGET -DSTOW_BENCH_BOARD='"$(1)"' -DSTOW_BENCH_COLUMN='"$(BENCH_CORE_$(1)) L$(2)"' \
	    $(or $(BENCH_COUNTS_$(1)),$(BENCH_COUNTS)) $(INC) -Ibench -I$(BUILD)/gen $(CM_LINK) -Ltargets/$(1) \
	    $(CM_SUPPORT) $(CM_PORT) $(CM_ASSERT) $(CM_CYCLES) $(LIB_SRC) $(BENCH_SRC) -lgcc -o $$@
$(BUILD)/bench/$(1)-L$(2)/rows.txt: $(BUILD)/bench/$(1)-L$(2)/ops.elf
	@timeout $(QEMU_TIMEOUT) $(QEMU) $($(1)_QEMU) -icount shift=0 $(QEMU_RUN) -kernel $$< >$$@.tmp \
	    || { cat $$@.tmp; echo "bench: $(1) at level $(2) failed"; exit 1; }
	@mv $$@.tmp $$@
BENCH_ROWS += $(BUILD)/bench/$(1)-L$(2)/rows.txt
$(BUILD)/bench/$(1)-L$(2)/each.elf: $(BENCH_EACH_DEPS) $(CM_PORT_DEPS) targets/$(1)/board.mk targets/$(1)/memory.ld
	@mkdir -p $$(@D)
	$(Q)$(ARM_CC) $(STD) $(WARN) -O2 -g $(CM_FLAGS) $($(1)_CFLAGS) -DSTOW_CHECK_LEVEL=$(2) \
	    -DSTOW_BENCH_TARGET -DSTOW_BENCH_EACH -DSTOW_BENCH_BOARD='"$(1)"' \
	    -DSTOW_BENCH_COLUMN='"$(BENCH_CORE_$(1)) L$(2)"' $(BENCH_EACH_COUNTS_$(1)) $(INC) -Ibench \
	    -I$(BUILD)/gen $(CM_LINK) -Ltargets/$(1) $(CM_SUPPORT) $(CM_PORT) $(CM_ASSERT) $(CM_CYCLES) $(LIB_SRC) \
	    $(BENCH_EACH_SRC) -lgcc -o $$@
$(BUILD)/bench/$(1)-L$(2)/each.txt: $(BUILD)/bench/$(1)-L$(2)/each.elf
	@timeout $(QEMU_TIMEOUT) $(QEMU) $($(1)_QEMU) -icount shift=8 $(QEMU_RUN) -kernel $$< >$$@.tmp \
	    || { cat $$@.tmp; echo "bench: $(1) at level $(2), one call at a time, failed"; exit 1; }
	@mv $$@.tmp $$@
BENCH_EACH_ROWS += $(BUILD)/bench/$(1)-L$(2)/each.txt
endef
$(foreach b,$(BENCH_BOARDS),$(foreach l,$(or $(BENCH_LEVELS_$(b)),$(BENCH_LEVELS)),\
    $(eval $(call BENCH_IMAGE,$(b),$(l)))))
# $(1) check level. Bound at load time (-z now), so that no call pays for lazy binding.
define BENCH_HOST
$(BUILD)/bench/host-L$(1)/ops: $(BENCH_DEPS) $(HOST_PORT) port/host/assert.c
	@mkdir -p $$(@D)
	$(Q)$(CC_gcc) $(STD) $(WARN) -O2 -g -DSTOW_CHECK_LEVEL=$(1) -DSTOW_BENCH_COLUMN='"$(HOST_ARCH) L$(1)"' \
	    $(BENCH_COUNTS) $(INC) -Ibench -I$(BUILD)/gen $(LIB_SRC) $(BENCH_SRC) $(HOST_PORT) \
	    port/host/assert.c -Wl,-z,now -o $$@ -lpthread
$(BUILD)/bench/host-L$(1)/rows.txt: $(BUILD)/bench/host-L$(1)/ops bench/callgrind.sh
	@bench/callgrind.sh $$< $$(@D)/callgrind >$$@.tmp
	@mv $$@.tmp $$@
BENCH_ROWS += $(BUILD)/bench/host-L$(1)/rows.txt
$(BUILD)/bench/host-L$(1)/each: $(BENCH_EACH_DEPS) $(HOST_PORT) port/host/assert.c
	@mkdir -p $$(@D)
	$(Q)$(CC_gcc) $(STD) $(WARN) -O2 -g -DSTOW_CHECK_LEVEL=$(1) -DSTOW_BENCH_EACH \
	    -DSTOW_BENCH_COLUMN='"$(HOST_ARCH) L$(1)"' $(INC) -Ibench -I$(BUILD)/gen $(LIB_SRC) $(BENCH_EACH_SRC) \
	    $(HOST_PORT) port/host/assert.c -Wl,-z,now -o $$@ -lpthread
$(BUILD)/bench/host-L$(1)/each.txt: $(BUILD)/bench/host-L$(1)/each bench/callgrind_each.sh
	@bench/callgrind_each.sh $$< $$(@D)/callgrind-each >$$@.tmp
	@mv $$@.tmp $$@
BENCH_EACH_ROWS += $(BUILD)/bench/host-L$(1)/each.txt
endef
$(foreach l,$(BENCH_LEVELS),$(eval $(call BENCH_HOST,$(l))))
$(BUILD)/bench/ops.md: $(BENCH_ROWS) $(BENCH_EACH_ROWS) bench/table.sh
	@bench/table.sh $(BENCH_ROWS) $(BENCH_EACH_ROWS) >$@
# Built like a user's program: the library as separate objects, no LTO.
SHOWDOWN := $(BUILD)/bench/showdown-L$(SHOWDOWN_LEVEL)-R$(SHOWDOWN_RUNS)
SHOWDOWN_CC = $(CC_gcc) $(STD) $(WARN) -O2 -DSTOW_CHECK_LEVEL=$(SHOWDOWN_LEVEL) -DSTOW_HANDLE_INDEX_BITS=20 \
    $(INC) $(LIB_SRC) $(HOST_PORT) port/host/assert.c
$(SHOWDOWN): bench/showdown.c $(LIB_DEPS) $(HOST_PORT) port/host/assert.c Makefile
	@mkdir -p $(@D)
	$(Q)$(SHOWDOWN_CC) -DRUNS=$(SHOWDOWN_RUNS) bench/showdown.c -o $@ -lpthread
# make showdown-placement: the showdown (3 runs a median) with 0, 16, 32 and 48
# bytes of code linked before showdown.c, which moves its loops against the CPU's
# fetch blocks and nothing else: how much of a ratio is where the code fell.
SHOWDOWN_PADS := 0 16 32 48
$(BUILD)/bench/showdown-pad%: bench/showdown.c $(LIB_DEPS) $(HOST_PORT) port/host/assert.c Makefile
	@mkdir -p $(@D)
	@printf '\t.section .note.GNU-stack,"",@progbits\n\t.text\n\t.fill %s, 1, 0x90\n' $* >$@.s
	$(Q)$(SHOWDOWN_CC) -DRUNS=3 $@.s bench/showdown.c -o $@ -lpthread
.PHONY: showdown-placement
showdown-placement: $(patsubst %,$(BUILD)/bench/showdown-pad%,$(SHOWDOWN_PADS))
	@for pad in $(SHOWDOWN_PADS); do \
	    echo "## $$pad bytes before showdown.c"; $(BUILD)/bench/showdown-pad$$pad | sed -n '/^Targets/,$$p'; \
	done

# make bench prints this and keeps it as bench/results/bench.md (bench/record.sh).
bench-print:
	@$(MAKE) --no-print-directory tools-bench
	@if ! command -v gnuplot >/dev/null 2>&1; then \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	        echo "stow: installing gnuplot-nox (optional: the showdown chart)"; \
	        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	            --no-install-recommends gnuplot-nox; } >/tmp/stow-apt.log 2>&1 || true; \
	    fi; \
	    command -v gnuplot >/dev/null 2>&1 || echo "bench: no gnuplot, so no chart"; \
	fi
	@$(MAKE) --no-print-directory -j$(JOBS) $(BUILD)/bench/ops.md $(SHOWDOWN)
	@echo "# stow benchmarks"
	@echo
	@echo "Machine: $$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)," \
	    "$$(nproc) CPUs; $$($(CC_gcc) --version | head -n 1); $$($(ARM_CC) --version | head -n 1);" \
	    "$$($(RV_CC) --version | head -n 1);" \
	    "$$($(QEMU) --version | head -n 1); $$(valgrind --version)."
	@echo
	@echo "## Instructions per operation (-O2; QEMU -icount for Cortex-M and RV32IMAC, callgrind for $(HOST_ARCH))"
	@echo
	@cat $(BUILD)/bench/ops.md
	@echo
	@$(SHOWDOWN) $(BUILD)/bench/showdown.dat | tee $(BUILD)/bench/showdown.md
	@if command -v gnuplot >/dev/null 2>&1; then mkdir -p bench/out && \
	    gnuplot -e "datafile='$(BUILD)/bench/showdown.dat'; outfile='bench/out/showdown.png'" bench/showdown.gp && \
	    echo && echo "Chart: bench/out/showdown.png"; fi
	@echo && $(MAKE) --no-print-directory bench-replay
	@echo && $(MAKE) --no-print-directory bench-cxx
	@echo && $(MAKE) --no-print-directory bench-multicore
	@echo && $(MAKE) --no-print-directory bench-freertos

size: tools-size
	@bench/record.sh size bench/size.sh

# ---------------------------------------------------------------- RISC-V, -m32
# RISC-V boards under qemu-system-riscv32, built with Debian's riscv64-unknown-elf-gcc
# for rv32imac/ilp32 (targets/<board>/board.mk), and a 32-bit (-m32) host build.
#   port: port/riscv/port.c (critical sections, weak write and exit), assert.c;
#         test, bench and demo images add semihost.c, cycles.c and trap.c.
# QEMU 7.2 carries out misaligned loads and stores on RISC-V without trapping
# (the E31 of sifive_e traps them on silicon), so the test images check every
# pointer's alignment in C instead (-fsanitize=alignment, which ends in an
# ebreak that port/riscv/trap.c reports and fails the run), and are built with
# -mstrict-align (GCC's default for these cores anyway): the compiler makes up no
# misaligned access of its own, as -mno-unaligned-access on Cortex-M.
# RV_BOARDS (riscv-virt, sifive_e) are loaded with the Cortex-M boards, above.
RV_CC := riscv64-unknown-elf-gcc
RV_NM := riscv64-unknown-elf-nm
RV_QEMU := qemu-system-riscv32
RV_SUPPORT := targets/riscv/startup.c targets/riscv/mem.c port/riscv/port.c port/riscv/semihost.c \
              port/riscv/cycles.c port/riscv/trap.c
RV_PORT_DEPS := $(RV_SUPPORT) port/riscv/assert.c linker/riscv.ld linker/stow.ld
RV_FLAGS := -ffreestanding -ffunction-sections -fdata-sections -mstrict-align
RV_TEST_FLAGS := -fsanitize=alignment -fsanitize-undefined-trap-on-error
comma := ,
RV_LINK := -nostdlib -Wl,--gc-sections -Tlinker/riscv.ld -Llinker

RV_BOARD_RESULTS :=
# $(1) board, $(2) optimisation, $(3) check level; optional: $(4) name of a core
# variant (or of a part), $(5) its compiler flags (instead of the board's), $(6) its
# QEMU options, $(7) the suites it runs (default: all; see BOARD_TEST)
define RV_BOARD_TEST
$(call IMAGE_SUITES,$(BUILD)/test/$(1)$(4)-$(2)-L$(3),$(7))
$(BUILD)/test/$(1)$(4)-$(2)-L$(3)/tests.elf: $(TEST_DEPS) $(RV_PORT_DEPS) targets/$(1)/board.mk targets/$(1)/memory.ld \
        $(BUILD)/test/$(1)$(4)-$(2)-L$(3)/suites.h
	@mkdir -p $$(@D)
	$(Q)$(RV_CC) $(STD) $(WARN) -$(2) -g $(RV_FLAGS) $(RV_TEST_FLAGS) $(or $(5),$($(1)_CFLAGS)) \
	    -DSTOW_CHECK_LEVEL=$(3) -DSTOW_TEST_TARGET -DSTOW_TEST_DIRTY_SECTIONS -DSTOW_TEST_SCALE=5 \
	    -DSTOW_TEST_RAM_KIB=$($(1)_RAM_KIB) -I$$(@D) $(TEST_INC) $(RV_LINK) -Ltargets/$(1) \
	    $(RV_SUPPORT) $(LIB_SRC) tests/harness.c tests/main.c \
	    $(call SUITE_SRC,$(7)) -lgcc -o $$@
$(BUILD)/test/$(1)$(4)-$(2)-L$(3)/result: $(BUILD)/test/$(1)$(4)-$(2)-L$(3)/tests.elf FORCE
	@tests/run.sh $(1)$(4)-$(2)-L$(3) $$(@D) timeout $(QEMU_TIMEOUT) $(RV_QEMU) $($(1)_QEMU) $(6) $(QEMU_RUN) \
	    -kernel $$<
RV_BOARD_RESULTS += $(BUILD)/test/$(1)$(4)-$(2)-L$(3)/result
endef
# Both boards at level 1 (-O2) and 2 (-O0); level 0 (-Os) on the smaller one.
# sifive_e's 16 KiB of RAM no longer hold every suite's buffers: two images.
$(eval $(call RV_BOARD_TEST,riscv-virt,O2,1))
$(foreach p,1 2,$(eval $(call RV_BOARD_TEST,sifive_e,O2,1,-part$(p),,,$(SMALL_PART$(p)))))
$(foreach p,1 2,$(eval $(call RV_BOARD_TEST,sifive_e,Os,0,-part$(p),,,$(SMALL_PART$(p)))))
$(eval $(call RV_BOARD_TEST,riscv-virt,O0,2))
$(eval $(call RV_BOARD_TEST,sifive_e,O0,2,-part1,,,$(SMALL_PART1)))
$(eval $(call RV_BOARD_TEST,sifive_e,O0,2,-part2,,,$(filter-out $(SMALL_PART1),$(SUITES))))
# RV32E (16 registers; the ilp32e ABI aligns 8-byte types and the stack to 4 only)
# on virt's hart with I swapped for E. QEMU 7.2 does not refuse x16-x31 on such a
# hart; the compiler uses none of them for -march=rv32emac.
$(eval $(call RV_BOARD_TEST,riscv-virt,O2,1,-rv32e,-march=rv32emac -misa-spec=2.2 -mabi=ilp32e,\
    -cpu rv32$(comma)e=on$(comma)i=off$(comma)h=off))
# Link-time optimisation, as on mps2-an386: library, port, trap reporter and
# startup all go through -flto once.
$(eval $(call RV_BOARD_TEST,riscv-virt,O2,1,-lto,$(riscv-virt_CFLAGS) -flto=auto))
# Proof that a trap fails a RISC-V test run: a misaligned load, a load from no
# memory and an illegal instruction, each in an image built like the test images
# (targets/riscv/trap_check.c), must end with the trap report and status 2.
# $(1) board, $(2) case number, $(3) name, $(4) what the report must say
define RV_TRAP_CHECK
$(BUILD)/test/$(1)-trap-$(3)/check.elf: targets/riscv/trap_check.c $(RV_PORT_DEPS) $(LIB_DEPS) \
    targets/$(1)/board.mk targets/$(1)/memory.ld Makefile
	@mkdir -p $$(@D)
	$(Q)$(RV_CC) $(STD) $(WARN) -O2 -g $(RV_FLAGS) $(RV_TEST_FLAGS) $($(1)_CFLAGS) -DSTOW_TRAP_CHECK=$(2) \
	    $(INC) $(RV_LINK) -Ltargets/$(1) $(RV_SUPPORT) $$< -lgcc -o $$@
$(BUILD)/test/$(1)-trap-$(3)/result: $(BUILD)/test/$(1)-trap-$(3)/check.elf FORCE
	@status=0; timeout 60 $(RV_QEMU) $($(1)_QEMU) $(QEMU_RUN) -kernel $$< >$$(@D)/log 2>&1 || status=$$$$?; \
	if [ $$$$status -eq 2 ] && grep -q '$(4)' $$(@D)/log; then echo "1 0" >$$@; r="1 passed, 0 failed"; \
	else echo "0 1" >$$@; r="0 passed, 1 failed"; cat $$(@D)/log; fi; \
	printf '%-34s %s\n' $(1)-trap-$(3) "$$$$r"
RV_BOARD_RESULTS += $(BUILD)/test/$(1)-trap-$(3)/result
endef
$(eval $(call RV_TRAP_CHECK,riscv-virt,1,misaligned,alignment check failed))
$(eval $(call RV_TRAP_CHECK,sifive_e,2,access,load access fault))
$(eval $(call RV_TRAP_CHECK,sifive_e,3,illegal,illegal instruction))
# Costs the headers bound (tests/bounds/bounds.c): timed in instructions at two
# sizes under -icount shift=0, where mcycle counts instructions exactly; a cost
# that must grow linearly may grow at most twice as fast. Level 2, riscv-virt.
$(BUILD)/test/bounds-riscv-virt-L2/bounds.elf: tests/bounds/bounds.c tests/harness.c tests/harness.h \
        $(BUILD)/gen/suites.h $(LIB_DEPS) \
        $(RV_PORT_DEPS) targets/riscv-virt/board.mk targets/riscv-virt/memory.ld Makefile
	@mkdir -p $(@D)
	$(Q)$(RV_CC) $(STD) $(WARN) -O2 -g $(RV_FLAGS) $(riscv-virt_CFLAGS) -DSTOW_CHECK_LEVEL=2 $(TEST_INC) \
	    $(RV_LINK) -Ltargets/riscv-virt $(RV_SUPPORT) $(LIB_SRC) tests/harness.c $< -lgcc -o $@
$(BUILD)/test/bounds-riscv-virt-L2/result: $(BUILD)/test/bounds-riscv-virt-L2/bounds.elf FORCE
	@tests/run.sh bounds-riscv-virt-L2 $(@D) timeout 60 $(RV_QEMU) $(riscv-virt_QEMU) -icount shift=0 \
	    $(QEMU_RUN) -kernel $<
RV_BOARD_RESULTS += $(BUILD)/test/bounds-riscv-virt-L2/result
BOARD_RESULTS += $(RV_BOARD_RESULTS)

# 32-bit x86 (gcc-multilib): size_t and pointers of 32 bits, 8-byte types aligned
# to 4 in structures, on the host.
# Run natively where the kernel runs 32-bit programs, else under qemu-i386
# (tests/m32.sh; an empty -m32 program tells which).
M32_RESULTS :=
M32_PROBE := $(BUILD)/test/m32-probe
$(M32_PROBE):
	@mkdir -p $(@D)
	$(Q)printf 'int main(void) { return 0; }\n' | $(CC_gcc) -m32 -x c - -o $@
$(foreach lvl,0 2,$(eval $(call HOST_TEST,host-gcc-m32-O2-L$(lvl),$(CC_gcc),\
    -m32 -O2 -g -DSTOW_CHECK_LEVEL=$(lvl),tests/m32.sh $(M32_PROBE),$(M32_PROBE)))$(eval \
    M32_RESULTS += $(BUILD)/test/host-gcc-m32-O2-L$(lvl)/result))

# lib/ for rv32imac (and rv32e) needs only stow_port_* and libgcc's helpers
# (__mulsi3, __udivdi3... : names __<op><mode>i<n>), at -O2 and at -Os (where GCC
# for RV32 turns any copy of more than a word into a memcpy call).
.PHONY: check-freestanding-riscv
check-freestanding: check-freestanding-riscv
check-freestanding-riscv:
	@mkdir -p $(BUILD)/freestanding-riscv
	$(Q)for arch in rv32imac/ilp32 rv32emac/ilp32e; do for opt in O2 Os; do for lvl in 0 1 2; do \
	    for src in $(LIB_SRC); do \
	        $(RV_CC) $(STD) $(WARN) -$$opt -ffreestanding -march=$${arch%/*} -mabi=$${arch#*/} \
	            -DSTOW_CHECK_LEVEL=$$lvl $(INC) -c $$src \
	            -o $(BUILD)/freestanding-riscv/$${arch%/*}-$$opt-L$$lvl-$$(basename $$src .c).o || exit 1; \
	    done; \
	done; done; done
	$(Q)bad=$$($(RV_NM) -u $(BUILD)/freestanding-riscv/*.o | awk 'NF == 2 { print $$2 }' \
	        | grep -vE '^(stow_port_|__[a-z]+[sdt]i[0-9]$$)' | sort -u); \
	if [ -n "$$bad" ]; then echo "lib/ for rv32 needs symbols it may not: $$bad"; exit 1; fi
	@echo "lib/ for rv32imac and rv32emac needs only stow_port_* and libgcc helpers"

# make demo BOARD=riscv-virt (or sifive_e): the demos on a RISC-V board.
define RV_DEMO
$(BUILD)/demo/$(1)/%.elf: examples/%/main.c $(LIB_DEPS) $(RV_PORT_DEPS) targets/$(1)/board.mk targets/$(1)/memory.ld
	@mkdir -p $$(@D)
	$(Q)$(RV_CC) $(STD) $(WARN) -O2 -g $(RV_FLAGS) $($(1)_CFLAGS) $(INC) $(RV_LINK) -Ltargets/$(1) \
	    $(RV_SUPPORT) port/riscv/assert.c $(LIB_SRC) $$< -lgcc -o $$@
endef
$(foreach b,$(RV_BOARDS),$(eval $(call RV_DEMO,$(b))))

# make test runs the demos too, as `make demo` does, on the Cortex-M4 board and on
# both RISC-V boards (tests/demo.sh: each demo checks its containers and exits 0).
$(BUILD)/demo/mps2-an386/%.elf: examples/%/main.c $(LIB_DEPS) $(CM_PORT_DEPS)
	@mkdir -p $(@D)
	$(Q)$(ARM_CC) $(STD) $(WARN) -O2 -g $(CM_FLAGS) $(mps2-an386_CFLAGS) $(INC) \
	    $(CM_LINK) -Ltargets/mps2-an386 $(CM_SUPPORT) $(CM_PORT) $(CM_ASSERT) $(LIB_SRC) $< -lgcc -o $@
# $(1) board, $(2) its QEMU
define DEMO_TEST
$(BUILD)/test/demo-$(1)/result: $(patsubst %,$(BUILD)/demo/$(1)/%.elf,$(DEMOS)) tests/demo.sh FORCE
	@tests/run.sh demo-$(1) $$(@D) tests/demo.sh "timeout 60 $(2) $($(1)_QEMU) $(QEMU_RUN) -kernel" \
	    $(patsubst %,$(BUILD)/demo/$(1)/%.elf,$(DEMOS))
BOARD_RESULTS += $(BUILD)/test/demo-$(1)/result
endef
$(eval $(call DEMO_TEST,mps2-an386,$(QEMU)))
$(foreach b,$(RV_BOARDS),$(eval $(call DEMO_TEST,$(b),$(RV_QEMU))))

# make bench: instruction counts on riscv-virt (mcycle under -icount shift=0),
# columns next to the Cortex-M ones.
RV_BENCH_BOARDS := riscv-virt
BENCH_CORE_riscv-virt := RV32IMAC
RV_BENCH_ROWS :=
RV_BENCH_EACH_ROWS :=
# $(1) board, $(2) check level
define RV_BENCH_IMAGE
$(BUILD)/bench/$(1)-L$(2)/ops.elf: $(BENCH_DEPS) $(RV_PORT_DEPS) targets/$(1)/board.mk targets/$(1)/memory.ld
	@mkdir -p $$(@D)
	$(Q)$(RV_CC) $(STD) $(WARN) -O2 -g $(RV_FLAGS) $($(1)_CFLAGS) -DSTOW_CHECK_LEVEL=$(2) \
	    -DSTOW_BENCH_TARGET -DSTOW_BENCH_BOARD='"$(1)"' -DSTOW_BENCH_COLUMN='"$(BENCH_CORE_$(1)) L$(2)"' \
	    $(or $(BENCH_COUNTS_$(1)),$(BENCH_COUNTS)) $(INC) -Ibench -I$(BUILD)/gen $(RV_LINK) -Ltargets/$(1) \
	    $(RV_SUPPORT) port/riscv/assert.c $(LIB_SRC) $(BENCH_SRC) -lgcc -o $$@
$(BUILD)/bench/$(1)-L$(2)/rows.txt: $(BUILD)/bench/$(1)-L$(2)/ops.elf
	@timeout $(QEMU_TIMEOUT) $(RV_QEMU) $($(1)_QEMU) -icount shift=0 $(QEMU_RUN) -kernel $$< >$$@.tmp \
	    || { cat $$@.tmp; echo "bench: $(1) at level $(2) failed"; exit 1; }
	@mv $$@.tmp $$@
RV_BENCH_ROWS += $(BUILD)/bench/$(1)-L$(2)/rows.txt
$(BUILD)/bench/$(1)-L$(2)/each.elf: $(BENCH_EACH_DEPS) $(RV_PORT_DEPS) targets/$(1)/board.mk targets/$(1)/memory.ld
	@mkdir -p $$(@D)
	$(Q)$(RV_CC) $(STD) $(WARN) -O2 -g $(RV_FLAGS) $($(1)_CFLAGS) -DSTOW_CHECK_LEVEL=$(2) \
	    -DSTOW_BENCH_TARGET -DSTOW_BENCH_EACH -DSTOW_BENCH_BOARD='"$(1)"' \
	    -DSTOW_BENCH_COLUMN='"$(BENCH_CORE_$(1)) L$(2)"' $(BENCH_EACH_COUNTS_$(1)) $(INC) -Ibench \
	    -I$(BUILD)/gen $(RV_LINK) -Ltargets/$(1) $(RV_SUPPORT) port/riscv/assert.c $(LIB_SRC) \
	    $(BENCH_EACH_SRC) -lgcc -o $$@
$(BUILD)/bench/$(1)-L$(2)/each.txt: $(BUILD)/bench/$(1)-L$(2)/each.elf
	@timeout $(QEMU_TIMEOUT) $(RV_QEMU) $($(1)_QEMU) -icount shift=8 $(QEMU_RUN) -kernel $$< >$$@.tmp \
	    || { cat $$@.tmp; echo "bench: $(1) at level $(2), one call at a time, failed"; exit 1; }
	@mv $$@.tmp $$@
RV_BENCH_EACH_ROWS += $(BUILD)/bench/$(1)-L$(2)/each.txt
endef
$(foreach b,$(RV_BENCH_BOARDS),$(foreach l,$(BENCH_LEVELS),$(eval $(call RV_BENCH_IMAGE,$(b),$(l)))))
# The table's columns follow the files: Cortex-M, then RV32IMAC, then the host.
BENCH_ROWS := $(filter-out $(BUILD)/bench/host-%,$(BENCH_ROWS)) $(RV_BENCH_ROWS) \
              $(filter $(BUILD)/bench/host-%,$(BENCH_ROWS))
BENCH_EACH_ROWS := $(filter-out $(BUILD)/bench/host-%,$(BENCH_EACH_ROWS)) $(RV_BENCH_EACH_ROWS) \
                   $(filter $(BUILD)/bench/host-%,$(BENCH_EACH_ROWS))
$(BUILD)/bench/ops.md: $(RV_BENCH_ROWS) $(RV_BENCH_EACH_ROWS)

clean:
	rm -rf $(BUILD)

FORCE:

# ---- constinit
# Every STOW_*_DEFINE is a constant initializer in C++ as in C (no code runs before
# a DEFINE'd container is ready, whatever the order files are initialised in):
# tests/cxx_constinit.cpp declares each one constinit, as C++20, with g++ and
# clang++. And a genpool or slot map DEFINE inside a C++ class is a compile error
# that names the way out (tests/cxx_define_in_class.cpp), with both compilers.
CXX_DEFINE_CHECKS := g++ clang++
CXX_DEFINE_FLAGS := -Wall -Wextra -Wpedantic -Werror $(INC)
.PHONY: check-constinit check-define-scope
check-constinit: $(patsubst %,$(BUILD)/gen/constinit-%.o,$(CXX_DEFINE_CHECKS))
$(BUILD)/gen/constinit-%.o: tests/cxx_constinit.cpp $(LIB_DEPS)
	@mkdir -p $(@D)
	$(Q)$* -std=c++20 $(CXX_DEFINE_FLAGS) -c $< -o $@
	@echo "every DEFINE is a constant initializer (constinit, $*)"
check-define-scope: $(patsubst %,$(BUILD)/gen/define-scope-%.ok,$(CXX_DEFINE_CHECKS))
$(BUILD)/gen/define-scope-%.ok: tests/cxx_define_in_class.cpp $(LIB_DEPS)
	@mkdir -p $(@D)
	$(Q)$* -std=c++17 $(CXX_DEFINE_FLAGS) -DSTOW_DEFINE_IN_CLASS=0 -c $< -o $(@:.ok=.o)
	$(Q)for n in 1 2 3 4; do \
	    if $* -std=c++17 $(CXX_DEFINE_FLAGS) -DSTOW_DEFINE_IN_CLASS=$$n -c $< -o $(@:.ok=.o) \
	        >$(@:.ok=.log) 2>&1; then \
	        echo "$*: a DEFINE inside a class compiled (STOW_DEFINE_IN_CLASS=$$n)"; exit 1; \
	    fi; \
	    grep -q stow_DEFINE_belongs_at_namespace_scope__inside_a_class_use_stow_hpp $(@:.ok=.log) || \
	        { cat $(@:.ok=.log); echo "$*: the error does not point to stow.hpp"; exit 1; }; \
	done
	@touch $@
	@echo "a DEFINE inside a C++ class is a compile error pointing to stow.hpp ($*)"

# ---- the memory report: make report ELF=..., and its tests
include tests/report/rules.mk

# ---- the C++ layer (stow/stow.hpp): its tests, example and cost table
include tests/cxx/rules.mk

# ---- containers shared between threads, per-thread scratch (tests/threads/rules.mk)
include tests/threads/rules.mk

# ---- FreeRTOS: heap_stow.c as the kernel's heap, port/freertos, the demo, test and bench
include adapters/freertos/rules.mk

# ---- adapters: stow's heap under existing code (LD_PRELOAD malloc, Lua, cJSON, mbedTLS,
# lwIP) and the allocation-trace replay of make bench; see adapters/rules.mk.
include adapters/rules.mk

# ---- the atomic pool under concurrency: QEMU boards and host threads (tests/stress/)
include tests/stress/rules.mk

# ---- the docs kept true: links, code examples, figures (tests/docs/rules.mk)
include tests/docs/rules.mk

# ---- make install, and the consumer tests of an installed or fetched stow (install.mk)
include install.mk

# ---- embedding: headers for their macros alone, assert file names (tests/embedding/)
include tests/embedding/rules.mk
# ---- several cores at once: QEMU riscv virt -smp 4 and MPS2 AN521 (tests/smp/rules.mk),
# and what they cost (bench/multicore.mk: make bench-multicore, part of make bench)
include tests/smp/rules.mk
include bench/multicore.mk

# Last, so that every result the rules and includes above added is a prerequisite: make
# expands a rule's prerequisites where it reads the rule (total.sh, in a recipe, sees
# the whole list anyway, and reports a result nothing built).
test-host: $(HOST_RESULTS)
test-boards: $(BOARD_RESULTS)
