# SPDX-License-Identifier: MIT
# adapters/freertos/rules.mk - stow under FreeRTOS (included by the Makefile):
# heap_stow.c as the kernel's heap, port/freertos as stow's port, on the real
# kernel under QEMU.
#
#   make demo-freertos [BOARD=mps2-an385|mps2-an386|riscv-virt]
#                         examples/freertos on one board (default mps2-an386)
#   make test             adds, per board (mps2-an385: Cortex-M3, ARM_CM3 port;
#                         mps2-an386: Cortex-M4F, ARM_CM4F port, hard float;
#                         riscv-virt: the RISC-V port):
#                           freertos-<board>        tests/freertos/test_freertos.c
#                           freertos-demo-<board>   the demo, its output checked
#                         and on mps2-an386 freertos-primask-caught: the test
#                         built with the bare-metal PRIMASK port must fail its
#                         high-priority interrupt case
#   make bench-freertos   (in make bench) one FreeRTOS workload on heap_4 and on
#                         heap_stow: instructions per pvPortMalloc and vPortFree,
#                         and the smallest configTOTAL_HEAP_SIZE that runs it
#
# The kernel comes from FREERTOS_KERNEL_PATH (a clone of FreeRTOS-Kernel; never
# copied here). Where it is absent, each test prints one "skipped" line and counts
# nothing, and the demo and bench say so.

FREERTOS_KERNEL_PATH ?= $(CURDIR)/../shared/third_party/FreeRTOS-Kernel
FRTOS_HAVE := $(wildcard $(FREERTOS_KERNEL_PATH)/tasks.c)
FRTOS_SKIP := skipped: set FREERTOS_KERNEL_PATH (no $(FREERTOS_KERNEL_PATH)/tasks.c)
FRTOS := $(BUILD)/freertos
FRTOS_BOARDS := mps2-an385 mps2-an386 riscv-virt

# Per board: the kernel's port, compiler and flags, what the image links
# besides the application (reset code, semihosting, memcpy and friends), QEMU.
FRTOS_PORT_mps2-an385 := ARM_CM3
FRTOS_PORT_mps2-an386 := ARM_CM4F
FRTOS_PORT_riscv-virt := RISC-V
FRTOS_CC_mps2-an385 = $(ARM_CC)
FRTOS_CC_mps2-an386 = $(ARM_CC)
FRTOS_CC_riscv-virt = $(RV_CC)
FRTOS_CFLAGS_mps2-an385 = $(CM_FLAGS) $(mps2-an385_CFLAGS)
FRTOS_CFLAGS_mps2-an386 = $(CM_FLAGS) -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16
FRTOS_CFLAGS_riscv-virt = $(RV_FLAGS) $(riscv-virt_CFLAGS)
# The kernel includes <stdlib.h> and <string.h>: newlib's headers on Arm (they come
# with libnewlib-arm-none-eabi, which make test installs already), picolibc's on
# RISC-V (Debian's riscv64-unknown-elf-gcc has no C library of its own). Only
# the headers: the images link no C library (targets/riscv/mem.c has memcpy and
# memset).
TOOL_picolibcrv := /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs:picolibc-riscv64-unknown-elf
TOOLS_test += picolibcrv
TOOLS_tools += picolibcrv
TOOLS_bench += newlib
TOOLS_demo += $(if $(filter riscv-virt,$(BOARD)),picolibcrv,newlib)
FRTOS_LINK_ARM = $(CM_LINK) targets/cortex-m/startup.c port/cortex-m/semihost.c
FRTOS_LINK_mps2-an385 = $(FRTOS_LINK_ARM) -Ltargets/mps2-an385
FRTOS_LINK_mps2-an386 = $(FRTOS_LINK_ARM) -Ltargets/mps2-an386
FRTOS_LINK_riscv-virt = $(RV_LINK) -Ltargets/riscv-virt targets/riscv/startup.c port/riscv/semihost.c
FRTOS_QEMU_mps2-an385 = $(QEMU) $(mps2-an385_QEMU)
FRTOS_QEMU_mps2-an386 = $(QEMU) $(mps2-an386_QEMU)
FRTOS_QEMU_riscv-virt = $(RV_QEMU) $(riscv-virt_QEMU)
FRTOS_PORT_DIR = $(FREERTOS_KERNEL_PATH)/portable/GCC/$(FRTOS_PORT_$(1))
FRTOS_KERNEL_INC = -isystem $(FREERTOS_KERNEL_PATH)/include -isystem $(call FRTOS_PORT_DIR,$(1)) \
    $(if $(filter RISC-V,$(FRTOS_PORT_$(1))),-isystem $(call FRTOS_PORT_DIR,$(1))/chip_specific_extensions/RISCV_MTIME_CLINT_no_extensions \
        -idirafter /usr/lib/picolibc/riscv64-unknown-elf/include)
FRTOS_KERNEL_SRC = $(addprefix $(FREERTOS_KERNEL_PATH)/,tasks.c queue.c list.c timers.c) \
    $(call FRTOS_PORT_DIR,$(1))/port.c $(if $(filter RISC-V,$(FRTOS_PORT_$(1))),$(call FRTOS_PORT_DIR,$(1))/portASM.S)
FRTOS_AR_mps2-an385 := arm-none-eabi-ar
FRTOS_AR_mps2-an386 := arm-none-eabi-ar
FRTOS_AR_riscv-virt := riscv64-unknown-elf-ar
# What every image compiles besides the kernel, the application and stow's port
# (port/freertos/port.c but in freertos-primask-caught): stow's library, the
# board, memcpy and memset.
FRTOS_APP_SRC := $(LIB_SRC) examples/freertos/board.c targets/riscv/mem.c
FRTOS_DEPS := $(LIB_DEPS) port/freertos/port.c adapters/freertos/heap_stow.c adapters/freertos/stow_freertos.h \
    examples/freertos/board.c examples/freertos/board.h examples/freertos/FreeRTOSConfig.h \
    targets/cortex-m/startup.c port/cortex-m/semihost.c targets/riscv/startup.c port/riscv/semihost.c \
    targets/riscv/mem.c adapters/freertos/rules.mk

# The kernel of one board, built as it is (its warnings are not ours to fix)
# against the configuration in $(3), into $(FRTOS)/$(1)-$(2)/kernel.a.
# $(1) board, $(2) configuration's name, $(3) its directory
define FRTOS_KERNEL
$(FRTOS)/$(1)-$(2)/kernel.a: $(call FRTOS_KERNEL_SRC,$(1)) $(3)/FreeRTOSConfig.h examples/freertos/FreeRTOSConfig.h \
        adapters/freertos/rules.mk
	@rm -rf $$(@D)/kernel && mkdir -p $$(@D)/kernel
	$(Q)for f in $(call FRTOS_KERNEL_SRC,$(1)); do \
	    $(FRTOS_CC_$(1)) -std=c11 -O2 -g $(FRTOS_CFLAGS_$(1)) -I$(3) $(call FRTOS_KERNEL_INC,$(1)) \
	        -c $$$$f -o $$(@D)/kernel/$$$$(basename $$$$f).o || exit 1; done
	$(Q)rm -f $$@ && $(FRTOS_AR_$(1)) rcs $$@ $$(@D)/kernel/*.o
endef
$(foreach b,$(FRTOS_BOARDS),$(eval $(call FRTOS_KERNEL,$(b),app,examples/freertos)))

# One image: $(1) board, $(2) its path, $(3) sources and flags (the application,
# heap_stow.c or heap_4's objects, -D options), $(4) the configuration's directory
# (name: $(5)), $(6) more prerequisites
define FRTOS_IMAGE
$(2): $(FRTOS_DEPS) $(FRTOS)/$(1)-$(5)/kernel.a $(6)
	@mkdir -p $$(@D)
	$(Q)$(FRTOS_CC_$(1)) $(STD) $(WARN) -O2 -g $(FRTOS_CFLAGS_$(1)) -I$(4) -Iexamples/freertos \
	    -Iadapters/freertos $(INC) $(call FRTOS_KERNEL_INC,$(1)) $(FRTOS_LINK_$(1)) $(FRTOS_APP_SRC) $(3) \
	    $(FRTOS)/$(1)-$(5)/kernel.a -lgcc -o $$@
endef

# ---- the demo: make demo-freertos [BOARD=...]
FRTOS_DEMO_BOARD := $(or $(filter $(FRTOS_BOARDS),$(BOARD)),mps2-an386)
$(foreach b,$(FRTOS_BOARDS),$(eval $(call FRTOS_IMAGE,$(b),$(FRTOS)/$(b)-app/demo.elf,\
    examples/freertos/main.c adapters/freertos/heap_stow.c port/freertos/port.c,examples/freertos,app,\
    examples/freertos/main.c)))
.PHONY: demo-freertos
demo-freertos: $(if $(FRTOS_HAVE),tools-demo)
ifeq ($(FRTOS_HAVE),)
	@echo "demo-freertos: $(FRTOS_SKIP)"
else
	@$(MAKE) --no-print-directory BOARD=$(FRTOS_DEMO_BOARD) $(FRTOS)/$(FRTOS_DEMO_BOARD)-app/demo.elf
	@echo "== examples/freertos (QEMU $(FRTOS_DEMO_BOARD))"
	@timeout $(QEMU_TIMEOUT) $(FRTOS_QEMU_$(FRTOS_DEMO_BOARD)) $(QEMU_RUN) -kernel $(FRTOS)/$(FRTOS_DEMO_BOARD)-app/demo.elf
endif

# ---- make test: the test and the demo on each board
FRTOS_QEMU_TEST := $(QEMU_RUN) -icount shift=4
# The test's heap, each board another way (storage, lock); and its check level.
FRTOS_TEST_FLAGS_mps2-an385 := -DTEST_APP_HEAP -DSTOW_FREERTOS_HEAP_BOUNDED=1 -DSTOW_CHECK_LEVEL=1
FRTOS_TEST_FLAGS_mps2-an386 := -DSTOW_FREERTOS_HEAP_CRITICAL=1 -DSTOW_CHECK_LEVEL=2
FRTOS_TEST_FLAGS_riscv-virt := -DSTOW_FREERTOS_HEAP_REGIONS=1 -DSTOW_CHECK_LEVEL=0
FRTOS_TEST_DEPS := tests/freertos/test_freertos.c tests/freertos/FreeRTOSConfig.h tests/harness.c tests/harness.h \
    tests/xorshift.h $(BUILD)/gen/suites.h
FRTOS_TEST_SRC = tests/freertos/test_freertos.c adapters/freertos/heap_stow.c $(FRTOS)/$(1)-app/harness.o \
    -Itests -I$(BUILD)/gen
FRTOS_RESULTS :=
# $(1) board
define FRTOS_TESTS
# The harness's own assert hook gets another name: the port's is under test.
$(FRTOS)/$(1)-app/harness.o: tests/harness.c tests/harness.h tests/xorshift.h $(BUILD)/gen/suites.h $(LIB_DEPS)
	@mkdir -p $$(@D)
	$(Q)$(FRTOS_CC_$(1)) $(STD) $(WARN) -O2 -g $(FRTOS_CFLAGS_$(1)) $(FRTOS_TEST_FLAGS_$(1)) $(INC) -Itests \
	    -I$(BUILD)/gen -Dstow_port_assert_failed=stow_test_harness_assert_failed -c $$< -o $$@
$(call FRTOS_IMAGE,$(1),$(FRTOS)/$(1)-app/test.elf,port/freertos/port.c $(call FRTOS_TEST_SRC,$(1)) \
    $(FRTOS_TEST_FLAGS_$(1)),tests/freertos,app,$(FRTOS_TEST_DEPS) $(FRTOS)/$(1)-app/harness.o)
$(BUILD)/test/freertos-$(1)/result: $(if $(FRTOS_HAVE),$(FRTOS)/$(1)-app/test.elf) FORCE
	@$(if $(FRTOS_HAVE),tests/run.sh freertos-$(1) $$(@D) timeout 120 $(FRTOS_QEMU_$(1)) $(FRTOS_QEMU_TEST) \
	    -kernel $(FRTOS)/$(1)-app/test.elf,$$(call FRTOS_SKIPPED,freertos-$(1)))
$(BUILD)/test/freertos-demo-$(1)/result: $(if $(FRTOS_HAVE),$(FRTOS)/$(1)-app/demo.elf) tests/freertos/demo.sh FORCE
	@$(if $(FRTOS_HAVE),tests/run.sh freertos-demo-$(1) $$(@D) tests/freertos/demo.sh timeout 120 \
	    $(FRTOS_QEMU_$(1)) $(FRTOS_QEMU_TEST) -kernel $(FRTOS)/$(1)-app/demo.elf,$$(call FRTOS_SKIPPED,freertos-demo-$(1)))
FRTOS_RESULTS += $(BUILD)/test/freertos-$(1)/result $(BUILD)/test/freertos-demo-$(1)/result
endef
# A result that counts nothing, and its one line.
FRTOS_SKIPPED = mkdir -p $(@D) && echo "0 0" >$@ && printf '%-34s %s\n' $(1) "$(FRTOS_SKIP)"
$(foreach b,$(FRTOS_BOARDS),$(eval $(call FRTOS_TESTS,$(b))))

# The test built with the bare-metal Cortex-M port (PRIMASK) instead of
# port/freertos must fail the case whose interrupt is above
# configMAX_SYSCALL_INTERRUPT_PRIORITY: proof that the case can fail.
$(eval $(call FRTOS_IMAGE,mps2-an386,$(FRTOS)/mps2-an386-app/primask.elf,$(CM_PORT) $(CM_ASSERT) \
    $(call FRTOS_TEST_SRC,mps2-an386) $(FRTOS_TEST_FLAGS_mps2-an386),tests/freertos,app,$(FRTOS_TEST_DEPS) \
    $(FRTOS)/mps2-an386-app/harness.o $(CM_PORT) $(CM_ASSERT)))
$(BUILD)/test/freertos-primask-caught/result: $(if $(FRTOS_HAVE),$(FRTOS)/mps2-an386-app/primask.elf) FORCE
ifeq ($(FRTOS_HAVE),)
	@$(call FRTOS_SKIPPED,freertos-primask-caught)
else
	@mkdir -p $(@D); status=0; timeout 120 $(FRTOS_QEMU_mps2-an386) $(FRTOS_QEMU_TEST) \
	    -kernel $(FRTOS)/mps2-an386-app/primask.elf >$(@D)/log 2>&1 || status=$$?; \
	if [ $$status -ne 0 ] && grep -q '^FAIL port_lock_lets_urgent_interrupts_run$$' $(@D)/log; then \
	    echo "1 0" >$@; r="1 passed, 0 failed"; \
	else echo "0 1" >$@; r="0 passed, 1 failed"; cat $(@D)/log; fi; \
	printf '%-34s %s\n' freertos-primask-caught "$$r"
endif
FRTOS_RESULTS += $(BUILD)/test/freertos-primask-caught/result
BOARD_RESULTS += $(FRTOS_RESULTS)
.PHONY: test-freertos
test-freertos: $(FRTOS_RESULTS)
	@tests/total.sh $^

# ---- make bench-freertos (in make bench): bench/freertos/workload.c on heap_4
# (the kernel's own heap_4.c, built as it is, with bench/heap4/heap4.c to give it
# any size in one image) and on heap_stow.c at check levels 0 and 1, on
# mps2-an386; every pvPortMalloc and vPortFree goes through the workload's timing
# (--wrap). bench/freertos/freertos.sh runs them and prints the table.
$(eval $(call FRTOS_KERNEL,mps2-an386,bench,bench/freertos))
FRTOS_BENCH := $(FRTOS)/mps2-an386-bench
FRTOS_BENCH_SRC := bench/freertos/workload.c port/freertos/port.c -Wl,--wrap=pvPortMalloc -Wl,--wrap=vPortFree
FRTOS_BENCH_DEPS := bench/freertos/workload.c bench/freertos/FreeRTOSConfig.h
$(FRTOS_BENCH)/heap_4.o: $(FREERTOS_KERNEL_PATH)/portable/MemMang/heap_4.c bench/freertos/FreeRTOSConfig.h \
        examples/freertos/FreeRTOSConfig.h
	@mkdir -p $(@D)
	$(Q)$(ARM_CC) -std=c11 -O2 -g $(FRTOS_CFLAGS_mps2-an386) -Ibench/freertos $(call FRTOS_KERNEL_INC,mps2-an386) \
	    -c $< -o $@
$(eval $(call FRTOS_IMAGE,mps2-an386,$(FRTOS_BENCH)/heap_4.elf,$(FRTOS_BENCH_SRC) bench/heap4/heap4.c \
    $(FRTOS_BENCH)/heap_4.o -Ibench/heap4 -DBENCH_HEAP4 -DBENCH_HEAP_NAME='"heap_4"',bench/freertos,bench,\
    $(FRTOS_BENCH_DEPS) bench/heap4/heap4.c bench/heap4/heap4.h $(FRTOS_BENCH)/heap_4.o))
$(foreach l,0 1,$(eval $(call FRTOS_IMAGE,mps2-an386,$(FRTOS_BENCH)/heap_stow-L$(l).elf,$(FRTOS_BENCH_SRC) \
    adapters/freertos/heap_stow.c -DSTOW_CHECK_LEVEL=$(l) -DBENCH_HEAP_NAME='"heap_stow L$(l)"',bench/freertos,bench,\
    $(FRTOS_BENCH_DEPS))))
$(eval $(call FRTOS_IMAGE,mps2-an386,$(FRTOS_BENCH)/heap_stow-L0-critical.elf,$(FRTOS_BENCH_SRC) \
    adapters/freertos/heap_stow.c -DSTOW_CHECK_LEVEL=0 -DSTOW_FREERTOS_HEAP_CRITICAL=1 \
    -DBENCH_HEAP_NAME='"heap_stow L0 critical"',bench/freertos,bench,$(FRTOS_BENCH_DEPS)))
FRTOS_BENCH_IMAGES := $(FRTOS_BENCH)/heap_4.elf $(FRTOS_BENCH)/heap_stow-L0.elf $(FRTOS_BENCH)/heap_stow-L1.elf \
    $(FRTOS_BENCH)/heap_stow-L0-critical.elf
.PHONY: bench-freertos
bench-freertos:
ifeq ($(FRTOS_HAVE),)
	@echo "FreeRTOS heap_4 / heap_stow side by side: $(FRTOS_SKIP)"
else
	@$(MAKE) --no-print-directory -j$(JOBS) $(FRTOS_BENCH_IMAGES)
	@mkdir -p $(BUILD)/bench
	@bench/freertos/freertos.sh "$(FRTOS_QEMU_mps2-an386)" $(FRTOS_BENCH_IMAGES) | tee $(BUILD)/bench/freertos.md
endif
