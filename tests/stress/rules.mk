# SPDX-License-Identifier: MIT
# tests/stress/rules.mk - the atomic pool calls under real concurrency; included by
# the top-level Makefile.
#
#   stress-<board>-L<n>        tests/stress/board.c under QEMU -icount: a SysTick
#                              handler at a random cadence of tens to hundreds of
#                              instructions and the main loop share one pool through
#                              stow_pool_alloc_atomic/free_atomic, 1,000,000 calls;
#                              on Cortex-M0 (PRIMASK build), M3, M4 (level 2) and M33,
#                              and RISC-V virt (its machine timer)
#   stress-<board>-plain       the same image with the plain calls: it must fail
#                              (the stress test is shown able to fail on each run);
#                              micro:bit, mps2-an386 and riscv-virt
#   stress-host-*              tests/stress/host.c: pthreads on one pool, with and
#                              without ThreadSanitizer, and the plain calls under
#                              ThreadSanitizer, which must be reported
STRESS_BOARDS := microbit mps2-an385 mps2-an386 mps2-an505
STRESS_LEVEL_mps2-an386 := 2
# -icount shift=5: 32 ns of QEMU's clock per instruction, so SysTick (25 MHz on
# MPS2, 16 MHz on the micro:bit) moves 0.5 to 0.8 ticks per instruction.
STRESS_QEMU := -icount shift=5
STRESS_SRC := lib/src/pool.c lib/src/pool_atomic.c lib/src/report.c
STRESS_DEPS := tests/stress/board.c tests/xorshift.h $(LIB_DEPS) $(CM_PORT_DEPS) tests/stress/rules.mk
STRESS_RESULTS :=
# $(1) board, $(2) check level, $(3) name suffix, $(4) extra flags
define STRESS_IMAGE
$(BUILD)/test/stress-$(1)$(3)/stress.elf: $(STRESS_DEPS) targets/$(1)/board.mk targets/$(1)/memory.ld
	@mkdir -p $$(@D)
	$(Q)$(ARM_CC) $(STD) $(WARN) -O2 -g $(CM_FLAGS) $($(1)_CFLAGS) -DSTOW_CHECK_LEVEL=$(2) $(4) $(INC) \
	    $(CM_LINK) -Ltargets/$(1) $(CM_SUPPORT) $(CM_PORT) $(CM_ASSERT) $(STRESS_SRC) tests/stress/board.c \
	    -lgcc -o $$@
endef
define STRESS_BOARD
$(eval $(call STRESS_IMAGE,$(1),$(or $(STRESS_LEVEL_$(1)),1),-L$(or $(STRESS_LEVEL_$(1)),1)))
$(BUILD)/test/stress-$(1)-L$(or $(STRESS_LEVEL_$(1)),1)/result: \
        $(BUILD)/test/stress-$(1)-L$(or $(STRESS_LEVEL_$(1)),1)/stress.elf FORCE
	@tests/run.sh stress-$(1)-L$(or $(STRESS_LEVEL_$(1)),1) $$(@D) timeout 120 $(QEMU) $($(1)_QEMU) \
	    $(STRESS_QEMU) $(QEMU_RUN) -kernel $$<
STRESS_RESULTS += $(BUILD)/test/stress-$(1)-L$(or $(STRESS_LEVEL_$(1)),1)/result
endef
$(foreach b,$(STRESS_BOARDS),$(eval $(call STRESS_BOARD,$(b))))

# RISC-V virt (rv32imac: the atomic calls are the port's critical section there),
# with the CLINT's machine timer at 10 MHz: -icount shift=7 makes it 1.28 ticks per
# instruction.
$(BUILD)/test/stress-riscv-virt-L1/stress.elf: $(STRESS_DEPS) $(RV_PORT_DEPS) targets/riscv-virt/board.mk \
        targets/riscv-virt/memory.ld
	@mkdir -p $(@D)
	$(Q)$(RV_CC) $(STD) $(WARN) -O2 -g $(RV_FLAGS) $(RV_TEST_FLAGS) $(riscv-virt_CFLAGS) -DSTOW_CHECK_LEVEL=1 \
	    $(INC) $(RV_LINK) -Ltargets/riscv-virt $(RV_SUPPORT) port/riscv/assert.c $(STRESS_SRC) \
	    tests/stress/board.c -lgcc -o $@
$(BUILD)/test/stress-riscv-virt-L1/result: $(BUILD)/test/stress-riscv-virt-L1/stress.elf FORCE
	@tests/run.sh stress-riscv-virt-L1 $(@D) timeout 120 $(RV_QEMU) $(riscv-virt_QEMU) -icount shift=7 \
	    $(QEMU_RUN) -kernel $<
STRESS_RESULTS += $(BUILD)/test/stress-riscv-virt-L1/result

# The plain calls in the same image must fail: by a check of the test (FAIL), a
# contract violation the pool reports, a fault, or under ThreadSanitizer a data race
# report (on a loaded host a torn update can reach one of the checks before the
# sanitizer pairs the racing accesses), and not by a timeout. Counted as one passing
# check when they do. On the M0 (whose atomic build masks), the M4, RISC-V virt and
# the host. $(1) name, $(2) the image, $(3) the command line it follows, $(4) the
# list of results it joins, $(5) what the build breaks, if not the plain calls
define STRESS_EXPECT_FAIL
$(BUILD)/test/$(1)/result: $(2) FORCE
	@status=0; timeout 120 $(3) $$< >$$(@D)/log 2>&1 || status=$$$$?; \
	caught=$$$$(grep -m1 -E '^FAIL |^stow: |ThreadSanitizer: data race' $$(@D)/log); \
	if [ $$$$status -ne 0 ] && [ $$$$status -ne 124 ] && [ -n "$$$$caught" ]; then \
	    echo "1 0" >$$@; r="1 passed, 0 failed ($(if $(5),$(5) was,the plain calls were) caught: $$$$caught)"; \
	else echo "0 1" >$$@; r="0 passed, 1 failed ($(or $(5),the plain calls) went unnoticed, status $$$$status)"; \
	    tail -n 8 $$(@D)/log; fi; \
	printf '%-34s %s\n' $(1) "$$$$r"
$(4) += $(BUILD)/test/$(1)/result
endef
STRESS_PLAIN_BOARDS := microbit mps2-an386
$(foreach b,$(STRESS_PLAIN_BOARDS),$(eval $(call STRESS_IMAGE,$(b),1,-plain,-DSTRESS_PLAIN))$(eval \
    $(call STRESS_EXPECT_FAIL,stress-$(b)-plain,$(BUILD)/test/stress-$(b)-plain/stress.elf,\
    $(QEMU) $($(b)_QEMU) $(STRESS_QEMU) $(QEMU_RUN) -kernel,STRESS_RESULTS)))
$(BUILD)/test/stress-riscv-virt-plain/stress.elf: $(STRESS_DEPS) $(RV_PORT_DEPS) targets/riscv-virt/board.mk \
        targets/riscv-virt/memory.ld
	@mkdir -p $(@D)
	$(Q)$(RV_CC) $(STD) $(WARN) -O2 -g $(RV_FLAGS) $(RV_TEST_FLAGS) $(riscv-virt_CFLAGS) -DSTOW_CHECK_LEVEL=1 \
	    -DSTRESS_PLAIN $(INC) $(RV_LINK) -Ltargets/riscv-virt $(RV_SUPPORT) port/riscv/assert.c $(STRESS_SRC) \
	    tests/stress/board.c -lgcc -o $@
$(eval $(call STRESS_EXPECT_FAIL,stress-riscv-virt-plain,$(BUILD)/test/stress-riscv-virt-plain/stress.elf,\
    $(RV_QEMU) $(riscv-virt_QEMU) -icount shift=7 $(QEMU_RUN) -kernel,STRESS_RESULTS))

BOARD_RESULTS += $(STRESS_RESULTS)
.PHONY: test-stress
test-stress: $(STRESS_RESULTS)

# ---- host: tests/stress/host.c, six threads on one pool. $(1) name, $(2) compiler and
# flags, $(3) runner (tests/m32.sh for -m32), $(4) its prerequisite
STRESS_HOST_DEPS := tests/stress/host.c tests/xorshift.h $(LIB_DEPS) $(HOST_PORT) port/host/assert.c tests/stress/rules.mk
STRESS_TSAN := -O1 -g -fsanitize=thread
STRESS_HOST_RESULTS :=
define STRESS_HOST
$(BUILD)/test/$(1)/stress: $(STRESS_HOST_DEPS)
	@mkdir -p $$(@D)
	$(Q)$(2) $(STD) $(WARN) $(INC) $(LIB_SRC) tests/stress/host.c $(HOST_PORT) port/host/assert.c \
	    -o $$@ -lpthread
$(BUILD)/test/$(1)/result: $(BUILD)/test/$(1)/stress $(4) FORCE
	@TSAN_OPTIONS=halt_on_error=1 tests/run.sh $(1) $$(@D) $(3) $$<
STRESS_HOST_RESULTS += $(BUILD)/test/$(1)/result
endef
$(eval $(call STRESS_HOST,stress-host-gcc-L1,$(CC_gcc) -O2 -DSTOW_CHECK_LEVEL=1))
$(eval $(call STRESS_HOST,stress-host-clang-tsan-L2,$(CC_clang) $(STRESS_TSAN) -DSTOW_CHECK_LEVEL=2))
$(eval $(call STRESS_HOST,stress-host-gcc-m32-L0,$(CC_gcc) -m32 -O2 -DSTOW_CHECK_LEVEL=0,\
    tests/m32.sh $(M32_PROBE),$(M32_PROBE)))
# The plain calls from six threads under ThreadSanitizer: must be caught.
$(BUILD)/test/stress-host-tsan-plain/stress: $(STRESS_HOST_DEPS)
	@mkdir -p $(@D)
	$(Q)$(CC_clang) $(STD) $(WARN) $(STRESS_TSAN) -DSTOW_CHECK_LEVEL=1 -DSTRESS_PLAIN $(INC) $(LIB_SRC) \
	    tests/stress/host.c $(HOST_PORT) port/host/assert.c -o $@ -lpthread
$(eval $(call STRESS_EXPECT_FAIL,stress-host-tsan-plain,$(BUILD)/test/stress-host-tsan-plain/stress,\
    env TSAN_OPTIONS=halt_on_error=1,STRESS_HOST_RESULTS))
HOST_RESULTS += $(STRESS_HOST_RESULTS)
test-stress: $(STRESS_HOST_RESULTS)
