# SPDX-License-Identifier: MIT
# tests/smp/rules.mk - several cores at once (docs/multicore.md); included by the
# top-level Makefile after tests/stress/rules.mk (it uses STRESS_EXPECT_FAIL).
#
#   smp-riscv-virt-L<n>          tests/smp/stress.c on QEMU riscv virt, 4 harts
#                                running at once (multi-threaded TCG) with their
#                                machine timers and the software interrupts they
#                                send each other, port/riscv/smp.c, levels 0, 1, 2:
#                                at least 1,000,000 calls on shared containers,
#                                and each hart's scratch arena and pool
#   smp-mps2-an521-L<n>          the same on the two Cortex-M33 of MPS2 AN521 with
#                                their SysTicks, port/cortex-m/smp.c (LDREX/STREX)
#                                and STOW_MULTICORE (the tagged pool head),
#                                levels 0, 1 and 2
#   smp-mps2-an521-v6m-L<n>      the same image built for ARMv6-M, levels 1 and 2: the port takes
#                                every word through its chip-lock hook
#                                (tests/smp/peterson.c), the atomic pool calls
#                                through the port's critical section
#   smp-*-plain, -one-core-port, the broken builds, which must fail (as the stress
#   -shared-scratch              tests' plain builds: tests/stress/rules.mk): the
#                                plain calls, the one-core port, one scratch arena
#                                and pool for every core
#   smp-port-<board>             tests/smp/port.c: the multi-core port's lock and
#                                critical section one call at a time (RISC-V virt,
#                                M4, M33; M0 with a simulated spinlock register),
#                                and with the one-core port, which must fail
#   host-gcc-O2-L2-head32        the host suite with the pool's 32-bit tagged head
#   stress-host-tsan-head32-L2   (the RV32 and multi-core Cortex-M build, -D
#                                STOW__POOL_ATOMIC=3 -DSTOW__POOL_HEAD_BITS=32): all
#                                suites, and tests/stress/host.c under
#                                ThreadSanitizer
#   mps2-an386-O2-multicore-L2   the pool suites on Cortex-M4, -M0 and -M33 built
#   microbit-O2-multicore-L2     with STOW_MULTICORE (tagged head; on the M0 the
#   mps2-an505-O2-multicore-L2   port's critical section)
#
# Seconds: each good stress run is 1 to 10 s of wall time on 2 cores (it uses
# both); a broken one stops at its first failure, in well under a second.

$(eval $(call LOAD_BOARD,riscv-virt-smp))
$(eval $(call LOAD_BOARD,mps2-an521))

SMP_RESULTS :=
SMP_TEST_DEPS := tests/smp/stress.c tests/xorshift.h tests/smp/rules.mk

# One library archive per core, level and option set: $(1) its directory name,
# $(2) compiler, $(3) archiver, $(4) flags (the check level among them).
define SMP_LIB
$(BUILD)/smp/$(1)/libstow.a: $(LIB_DEPS) tests/smp/rules.mk
	@mkdir -p $$(@D)
	$(Q)for src in $(LIB_SRC); do \
	    $(2) $(STD) $(WARN) -O2 -g $(4) $(INC) -c $$$$src -o $$(@D)/$$$$(basename $$$$src .c).o || exit 1; done
	$(Q)rm -f $$@ && $(3) rcs $$@ $(patsubst lib/src/%.c,$$(@D)/%.o,$(LIB_SRC))
endef

# ---- RISC-V virt, 4 harts ---------------------------------------------------------
SMP_RV_FLAGS := $(RV_FLAGS) $(riscv-virt-smp_CFLAGS)
SMP_RV_LINK := $(RV_LINK) -Ltargets/riscv-virt -Wl,--defsym=__stack_size=32K
SMP_RV_SUPPORT := targets/riscv/startup.c targets/riscv/mem.c port/riscv/semihost.c port/riscv/trap.c \
                  port/riscv/assert.c
SMP_RV_PORT := -DSTOW_PORT_SMP port/riscv/port.c port/riscv/smp.c
SMP_RV_RUN := $(RV_QEMU) $(riscv-virt-smp_QEMU) $(QEMU_RUN) -kernel
SMP_RV_DEPS := $(SMP_TEST_DEPS) $(RV_PORT_DEPS) port/riscv/smp.c targets/riscv-virt-smp/board.mk \
               targets/riscv-virt/memory.ld
$(foreach l,0 1 2,$(eval $(call SMP_LIB,rv-L$(l),$(RV_CC),riscv64-unknown-elf-ar,$(SMP_RV_FLAGS) \
    -DSTOW_CHECK_LEVEL=$(l))))

# $(1) name, $(2) level, $(3) the port's sources and flags, $(4) the test's flags
define SMP_RV_IMAGE
$(BUILD)/test/$(1)/stress.elf: $(BUILD)/smp/rv-L$(2)/libstow.a $(SMP_RV_DEPS)
	@mkdir -p $$(@D)
	$(Q)$(RV_CC) $(STD) $(WARN) -O2 -g $(SMP_RV_FLAGS) -DSTOW_CHECK_LEVEL=$(2) $(4) $(INC) $(SMP_RV_LINK) \
	    $(SMP_RV_SUPPORT) $(3) tests/smp/stress.c $$< -lgcc -o $$@
endef
define SMP_RV_GOOD
$(eval $(call SMP_RV_IMAGE,smp-riscv-virt-L$(1),$(1),$(SMP_RV_PORT)))
$(BUILD)/test/smp-riscv-virt-L$(1)/result: $(BUILD)/test/smp-riscv-virt-L$(1)/stress.elf FORCE
	@tests/run.sh smp-riscv-virt-L$(1) $$(@D) timeout 120 $(SMP_RV_RUN) $$<
SMP_RESULTS += $(BUILD)/test/smp-riscv-virt-L$(1)/result
endef
$(foreach l,0 1 2,$(eval $(call SMP_RV_GOOD,$(l))))
# $(1) name suffix, $(2) the port's sources and flags, $(3) the test's flags, $(4) what
# it breaks (STRESS_EXPECT_FAIL)
define SMP_RV_BROKEN
$(eval $(call SMP_RV_IMAGE,smp-riscv-virt-$(1),1,$(2),$(3)))
$(eval $(call STRESS_EXPECT_FAIL,smp-riscv-virt-$(1),$(BUILD)/test/smp-riscv-virt-$(1)/stress.elf,\
    $(SMP_RV_RUN),SMP_RESULTS,$(4)))
endef
SMP_ONE_CORE := the one-core port
$(eval $(call SMP_RV_BROKEN,plain,$(SMP_RV_PORT),-DSMP_PLAIN=31))
$(eval $(call SMP_RV_BROKEN,one-core-port,port/riscv/port.c,,$(SMP_ONE_CORE)))
$(eval $(call SMP_RV_BROKEN,shared-scratch,$(SMP_RV_PORT),-DSMP_SHARED_SCRATCH=1,one scratch for all cores))

# ---- MPS2 AN521, two Cortex-M33 -----------------------------------------------------
SMP_CM_LINK := $(CM_LINK) -Ltargets/mps2-an521
SMP_CM_SUPPORT := targets/cortex-m/startup.c port/cortex-m/semihost.c port/cortex-m/fault.c \
                  port/cortex-m/assert.c targets/mps2-an521/cores.c
SMP_CM_PORT := -DSTOW_PORT_SMP -DSTOW_PORT_CORE_REG=0x4001F000u port/cortex-m/port.c port/cortex-m/smp.c
SMP_CM_RUN := $(QEMU) $(mps2-an521_QEMU) $(QEMU_RUN) -kernel
SMP_CM_DEPS := $(SMP_TEST_DEPS) $(CM_PORT_DEPS) port/cortex-m/smp.c targets/mps2-an521/cores.c \
               targets/mps2-an521/board.mk targets/mps2-an521/memory.ld tests/smp/peterson.c
# ARMv8-M as the board is; ARMv6-M code (Cortex-M0+), which the M33 runs too.
SMP_CM_CPU_v8m := $(CM_FLAGS) $(mps2-an521_CFLAGS)
SMP_CM_CPU_v6m := $(CM_FLAGS) -mcpu=cortex-m0plus -mthumb -mfloat-abi=soft
$(foreach l,0 1 2,$(eval $(call SMP_LIB,cm-v8m-L$(l),$(ARM_CC),arm-none-eabi-ar,$(SMP_CM_CPU_v8m) \
    -DSTOW_MULTICORE=1 -DSTOW_CHECK_LEVEL=$(l))))
$(foreach l,1 2,$(eval $(call SMP_LIB,cm-v6m-L$(l),$(ARM_CC),arm-none-eabi-ar,$(SMP_CM_CPU_v6m) \
    -DSTOW_MULTICORE=1 -DSTOW_CHECK_LEVEL=$(l))))

# $(1) name, $(2) v8m or v6m, $(3) level, $(4) the port's sources and flags, $(5) the test's
define SMP_CM_IMAGE
$(BUILD)/test/$(1)/stress.elf: $(BUILD)/smp/cm-$(2)-L$(3)/libstow.a $(SMP_CM_DEPS)
	@mkdir -p $$(@D)
	$(Q)$(ARM_CC) $(STD) $(WARN) -O2 -g $(SMP_CM_CPU_$(2)) -DSTOW_MULTICORE=1 -DSTOW_CHECK_LEVEL=$(3) $(5) \
	    $(INC) $(SMP_CM_LINK) $(SMP_CM_SUPPORT) $(4) tests/smp/stress.c $$< -lgcc -o $$@
endef
# $(1) name, the rest as SMP_CM_IMAGE
define SMP_CM_GOOD
$(eval $(call SMP_CM_IMAGE,$(1),$(2),$(3),$(4),$(5)))
$(BUILD)/test/$(1)/result: $(BUILD)/test/$(1)/stress.elf FORCE
	@tests/run.sh $(1) $$(@D) timeout 120 $(SMP_CM_RUN) $$<
SMP_RESULTS += $(BUILD)/test/$(1)/result
endef
# ... and $(6) what it breaks (STRESS_EXPECT_FAIL)
define SMP_CM_BROKEN
$(eval $(call SMP_CM_IMAGE,$(1),$(2),$(3),$(4),$(5)))
$(eval $(call STRESS_EXPECT_FAIL,$(1),$(BUILD)/test/$(1)/stress.elf,$(SMP_CM_RUN),SMP_RESULTS,$(6)))
endef
SMP_CM_CHIP := $(SMP_CM_PORT) tests/smp/peterson.c
$(foreach l,0 1 2,$(eval $(call SMP_CM_GOOD,smp-mps2-an521-L$(l),v8m,$(l),$(SMP_CM_PORT))))
$(foreach l,1 2,$(eval $(call SMP_CM_GOOD,smp-mps2-an521-v6m-L$(l),v6m,$(l),$(SMP_CM_CHIP),-DSMP_CHIP_LOCK=1)))
$(eval $(call SMP_CM_BROKEN,smp-mps2-an521-plain,v8m,1,$(SMP_CM_PORT),-DSMP_PLAIN=31))
$(eval $(call SMP_CM_BROKEN,smp-mps2-an521-one-core-port,v8m,1,port/cortex-m/port.c,,$(SMP_ONE_CORE)))
$(eval $(call SMP_CM_BROKEN,smp-mps2-an521-v6m-one-core-port,v6m,1,port/cortex-m/port.c,,$(SMP_ONE_CORE)))

# ---- the ports one call at a time ---------------------------------------------------
SMP_PORT_DEPS := tests/smp/port.c lib/src/report.c $(LIB_DEPS) tests/smp/rules.mk
# $(1) name, $(2) the port's sources and flags
define SMP_PORT_RV
$(BUILD)/test/$(1)/port.elf: $(SMP_PORT_DEPS) $(RV_PORT_DEPS) port/riscv/smp.c
	@mkdir -p $$(@D)
	$(Q)$(RV_CC) $(STD) $(WARN) -O2 -g $(RV_FLAGS) $(riscv-virt_CFLAGS) $(INC) $(RV_LINK) -Ltargets/riscv-virt \
	    $(SMP_RV_SUPPORT) $(2) lib/src/report.c tests/smp/port.c -lgcc -o $$@
endef
# $(1) name, $(2) board, $(3) the port's sources and flags, $(4) the test's flags
define SMP_PORT_CM
$(BUILD)/test/$(1)/port.elf: $(SMP_PORT_DEPS) $(CM_PORT_DEPS) port/cortex-m/smp.c targets/$(2)/board.mk
	@mkdir -p $$(@D)
	$(Q)$(ARM_CC) $(STD) $(WARN) -O2 -g $(CM_FLAGS) $($(2)_CFLAGS) $(4) $(INC) $(CM_LINK) -Ltargets/$(2) \
	    $(CM_SUPPORT) $(CM_ASSERT) $(3) lib/src/report.c tests/smp/port.c -lgcc -o $$@
endef
SMP_PORT_CM_SMP := -DSTOW_PORT_SMP port/cortex-m/port.c port/cortex-m/smp.c
$(eval $(call SMP_PORT_RV,smp-port-riscv-virt,$(SMP_RV_PORT)))
$(eval $(call SMP_PORT_RV,smp-port-riscv-virt-one-core-port,port/riscv/port.c -DSMP_TEST_ONE_CORE_PORT))
$(eval $(call SMP_PORT_CM,smp-port-mps2-an386,mps2-an386,$(SMP_PORT_CM_SMP)))
$(eval $(call SMP_PORT_CM,smp-port-mps2-an505,mps2-an505,$(SMP_PORT_CM_SMP)))
$(eval $(call SMP_PORT_CM,smp-port-microbit,microbit,$(SMP_PORT_CM_SMP),-DSMP_TEST_CHIP_LOCK))
$(eval $(call SMP_PORT_CM,smp-port-mps2-an386-one-core-port,mps2-an386,$(CM_PORT)))
$(BUILD)/test/smp-port-riscv-virt/result: $(BUILD)/test/smp-port-riscv-virt/port.elf FORCE
	@tests/run.sh smp-port-riscv-virt $(@D) timeout 60 $(RV_QEMU) $(riscv-virt_QEMU) $(QEMU_RUN) -kernel $<
SMP_RESULTS += $(BUILD)/test/smp-port-riscv-virt/result
define SMP_PORT_CM_RUN
$(BUILD)/test/smp-port-$(1)/result: $(BUILD)/test/smp-port-$(1)/port.elf FORCE
	@tests/run.sh smp-port-$(1) $$(@D) timeout 60 $(QEMU) $($(1)_QEMU) $(QEMU_RUN) -kernel $$<
SMP_RESULTS += $(BUILD)/test/smp-port-$(1)/result
endef
$(foreach b,mps2-an386 mps2-an505 microbit,$(eval $(call SMP_PORT_CM_RUN,$(b))))
$(eval $(call STRESS_EXPECT_FAIL,smp-port-riscv-virt-one-core-port,\
    $(BUILD)/test/smp-port-riscv-virt-one-core-port/port.elf,$(RV_QEMU) $(riscv-virt_QEMU) $(QEMU_RUN) -kernel,\
    SMP_RESULTS,$(SMP_ONE_CORE)))
$(eval $(call STRESS_EXPECT_FAIL,smp-port-mps2-an386-one-core-port,\
    $(BUILD)/test/smp-port-mps2-an386-one-core-port/port.elf,$(QEMU) $(mps2-an386_QEMU) $(QEMU_RUN) -kernel,\
    SMP_RESULTS,$(SMP_ONE_CORE)))

# ---- the 32-bit tagged head under the host's tools, and STOW_MULTICORE on the boards --
SMP_HEAD32 := -DSTOW__POOL_ATOMIC=3 -DSTOW__POOL_HEAD_BITS=32
$(eval $(call HOST_TEST,host-gcc-O2-L2-head32,$(CC_gcc),-O2 -g -DSTOW_CHECK_LEVEL=2 $(SMP_HEAD32)))
$(eval $(call STRESS_HOST,stress-host-tsan-head32-L2,$(CC_clang) $(STRESS_TSAN) -DSTOW_CHECK_LEVEL=2 \
    $(SMP_HEAD32)))
HOST_RESULTS += $(BUILD)/test/stress-host-tsan-head32-L2/result
SMP_POOL_SUITES := $(filter pool pool_atomic,$(SUITES))
$(foreach b,mps2-an386 microbit mps2-an505,$(eval $(call BOARD_TEST,$(b),O2,2,-DSTOW_MULTICORE=1,-multicore,\
    $(SMP_POOL_SUITES))))

BOARD_RESULTS += $(SMP_RESULTS)
.PHONY: test-smp
test-smp: $(SMP_RESULTS)

# The pool (the only module that reads STOW_MULTICORE) built with it for every Cortex-M
# family needs only stow_port_* and libgcc's helpers too (the tagged head's C11 atomics are inline LDREX/STREX and
# DMB on ARMv7-M and ARMv8-M; ARMv6-M takes the port's critical section).
.PHONY: check-freestanding-multicore
check-freestanding: check-freestanding-multicore
check-freestanding-multicore:
	@mkdir -p $(BUILD)/freestanding-multicore
	$(Q)for cpu in cortex-m0 cortex-m23 cortex-m4 cortex-m33; do for lvl in 0 1 2; do \
	    for src in $(filter %/pool.c %/pool_atomic.c,$(LIB_SRC)); do \
	    $(ARM_CC) $(STD) $(WARN) -O2 -ffreestanding -mcpu=$$cpu -mthumb -DSTOW_MULTICORE=1 \
	        -DSTOW_CHECK_LEVEL=$$lvl $(INC) -c $$src \
	        -o $(BUILD)/freestanding-multicore/$$cpu-L$$lvl-$$(basename $$src .c).o || exit 1; \
	done; done; done
	$(Q)bad=$$($(ARM_NM) -u $(BUILD)/freestanding-multicore/*.o | awk 'NF == 2 { print $$2 }' \
	        | grep -vE '^(stow_port_|__aeabi_|__gnu_)' | sort -u); \
	if [ -n "$$bad" ]; then echo "lib/ with STOW_MULTICORE needs symbols it may not: $$bad"; exit 1; fi
	@echo "lib/ with STOW_MULTICORE needs only stow_port_* and libgcc helpers"

# The pool's fuzz target with the 32-bit tagged head (capacities from the fuzzer:
# every split of the word between index and tag), smoke run as make test runs the
# others.
$(BUILD)/fuzz/pool_atomic-head32-L2/fuzz: tests/fuzz/fuzz_pool_atomic.c tests/fuzz/fuzz_pool.c tests/fuzz/fuzz.h \
        $(LIB_DEPS) $(HOST_PORT) tests/smp/rules.mk
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(STD) $(WARN) -O1 -g $(FUZZ_SAN) $(FUZZ_FLAGS_2) $(SMP_HEAD32) $(INC) $(LIB_SRC) $(HOST_PORT) \
	    $< -o $@ -lpthread
$(BUILD)/test/fuzz-pool_atomic-head32-L2/result: $(BUILD)/fuzz/pool_atomic-head32-L2/fuzz tests/fuzz/smoke.sh FORCE
	@tests/fuzz/smoke.sh fuzz-pool_atomic-head32-L2 $(@D) $< tests/fuzz/corpus/pool_atomic $(FUZZ_RUNS)
HOST_RESULTS += $(BUILD)/test/fuzz-pool_atomic-head32-L2/result

# make lint also checks what the multi-core build adds: the pool with the 32-bit tagged
# head (host tools, levels 0-2), the two smp.c ports (ARMv7-M's exclusives, ARMv6-M's
# chip lock, RISC-V's LR/SC) under cppcheck, and gcc -fanalyzer on them and on the
# pool built with STOW_MULTICORE for Cortex-M0 and M4.
SMP_LINT_ARM := --platform=arm32-wchar_t4 -D__GNUC__ -D__arm__ -D__ARM_ARCH_PROFILE=77
.PHONY: lint-multicore
lint: lint-multicore
lint-multicore: tools-lint
	$(Q)for lvl in 0 1 2; do \
	    $(CPPCHECK) -DSTOW_CHECK_LEVEL=$$lvl $(SMP_HEAD32) lib/src/pool.c lib/src/pool_atomic.c || exit 1; \
	done
	$(Q)$(CPPCHECK) $(SMP_LINT_ARM) -D__ARM_FEATURE_LDREX=7 -DSTOW_PORT_CORE_REG=0x4001F000u port/cortex-m/smp.c
	$(Q)$(CPPCHECK) $(SMP_LINT_ARM) -DSTOW_PORT_SPINLOCK_REG=0xD0000100u -DSTOW_PORT_CORE_REG=0xD0000000u \
	    port/cortex-m/smp.c
	$(Q)$(CPPCHECK) -D__riscv -D__riscv_atomic port/riscv/smp.c
	@mkdir -p $(BUILD)/lint
	$(Q)for cpu in cortex-m0 cortex-m4; do for lvl in 0 1 2; do \
	    for src in lib/src/pool.c lib/src/pool_atomic.c port/cortex-m/smp.c; do \
	        $(ARM_CC) $(STD) $(WARN) -O2 -fanalyzer $(CM_FLAGS) -mcpu=$$cpu -mthumb -DSTOW_MULTICORE=1 \
	            -DSTOW_CHECK_LEVEL=$$lvl -DSTOW_PORT_CORE_REG=0xD0000000u $(INC) -c $$src \
	            -o $(BUILD)/lint/multicore.o || exit 1; \
	    done; done; done
	$(Q)$(RV_CC) $(STD) $(WARN) -O2 -fanalyzer $(RV_FLAGS) $(riscv-virt_CFLAGS) $(INC) -c port/riscv/smp.c \
	    -o $(BUILD)/lint/multicore.o
