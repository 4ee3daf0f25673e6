# SPDX-License-Identifier: MIT
# make misra: cppcheck's MISRA C:2012 addon over every file in lib/ and the
# Cortex-M and RISC-V ports, at check levels 0, 1 and 2, for every target the
# code has a branch for; the verdict is misra/check.py's (docs/misra.md).
#
#   lib-m0, lib-m4, lib-rv32, lib-host: lib/ as built for Cortex-M0 (v6-M),
#     Cortex-M4 (v7E-M), RV32IMAC and the 64-bit host; on Cortex-M also
#     pool_atomic.c built with STOW_MULTICORE (its other path);
#   cm-m0, cm-m4: port/cortex-m; rv-rv32: port/riscv.
#
# A port set is checked per image it goes into, as the linker would see it
# (docs/misra.md, "What it covers"): one core (port.c, assert.c), several cores
# (port.c built with -DSTOW_PORT_SMP, smp.c, assert.c) and the test images'
# extras (semihost.c, cycles.c, fault.c or trap.c, whose stow_port_write and
# stow_port_exit replace port.c's weak defaults).
#
# Each target gets its ABI (the platform: sizes and the sign of char), the
# macros its compiler predefines that the code tests (arm-none-eabi-gcc -dM -E
# lists them), and the values of the freestanding headers' macros
# (misra/ilp32.h, misra/lp64.h), since cppcheck does not read the compiler's own
# headers. cppcheck's own warning and style checks run too; their findings
# count as a required rule's. No --inline-suppr: check.py reads the marks in the
# code itself, so that it can show and count them.
#
# MISRA_PENDING: files being rewritten; their findings are counted and shown, and
# do not fail the run until the rewrite lands (none today).
MISRA_PENDING :=
MISRA_LEVELS := 0 1 2
MISRA_SETS := lib-m0 lib-m4 lib-rv32 lib-host cm-m0 cm-m4 rv-rv32
MISRA_IMAGES_lib := all
# On Cortex-M, STOW_MULTICORE picks pool_atomic.c's other path (pool.h).
MISRA_IMAGES_lib.m0 := mc
MISRA_IMAGES_lib.m4 := mc
MISRA_IMAGES_cm := one smp test
MISRA_IMAGES_rv := one smp test
MISRA_FILES_lib.all := $(LIB_SRC)
MISRA_FILES_lib.mc := lib/src/pool_atomic.c
MISRA_FLAGS_lib.mc := -DSTOW_MULTICORE=1
MISRA_FILES_cm.one := port/cortex-m/port.c port/cortex-m/assert.c
MISRA_FILES_cm.smp := port/cortex-m/port.c port/cortex-m/smp.c port/cortex-m/assert.c
MISRA_FILES_cm.test := port/cortex-m/semihost.c port/cortex-m/cycles.c port/cortex-m/fault.c
MISRA_FILES_rv.one := port/riscv/port.c port/riscv/assert.c
MISRA_FILES_rv.smp := port/riscv/port.c port/riscv/smp.c port/riscv/assert.c
MISRA_FILES_rv.test := port/riscv/semihost.c port/riscv/cycles.c port/riscv/trap.c
# A multi-core chip names its core-number register (and, without LDREX, its
# hardware spinlock): RP2040's SIO CPUID and SPINLOCK0.
MISRA_FLAGS_cm.smp := -DSTOW_PORT_SMP -DSTOW_PORT_CORE_REG=0xD0000000u
MISRA_FLAGS_cm.smp.m0 := -DSTOW_PORT_SPINLOCK_REG=0xD0000100u
MISRA_FLAGS_rv.smp := -DSTOW_PORT_SMP
MISRA_TARGET_m0 := --platform=arm32-wchar_t4 --include=misra/ilp32.h -D__GNUC__=12 -D__ELF__ -D__arm__ \
                   -D__thumb__ -D__ARM_ARCH_6M__ -D__ARM_ARCH_PROFILE=77 -D__ARM_ARCH_ISA_THUMB=1
MISRA_TARGET_m4 := --platform=arm32-wchar_t4 --include=misra/ilp32.h -D__GNUC__=12 -D__ELF__ -D__arm__ \
                   -D__thumb__ -D__thumb2__ -D__ARM_ARCH_7EM__ -D__ARM_ARCH_PROFILE=77 \
                   -D__ARM_ARCH_ISA_THUMB=2 -D__ARM_FEATURE_CLZ=1 -D__ARM_FEATURE_LDREX=7
MISRA_TARGET_rv32 := --platform=misra/riscv32.xml --include=misra/ilp32.h -D__GNUC__=12 -D__ELF__ \
                     -D__riscv=1 -D__riscv_xlen=32 -D__riscv_atomic=1 -D__GCC_ATOMIC_INT_LOCK_FREE=2 \
                     -D__GCC_ATOMIC_POINTER_LOCK_FREE=2 -D__GCC_ATOMIC_LLONG_LOCK_FREE=1
MISRA_TARGET_host := --platform=unix64 --include=misra/lp64.h -D__GNUC__=12 -D__ELF__ -D__x86_64__=1 \
                     -D__GCC_ATOMIC_LLONG_LOCK_FREE=2
MISRA_CPPCHECK := cppcheck --addon=misra --std=c11 --enable=warning,style --quiet \
                  --template='{file}:{line}:{column}:{id}' $(INC)
MISRA_RESULTS := $(foreach s,$(MISRA_SETS),$(foreach l,$(MISRA_LEVELS),$(BUILD)/misra/$(s)-L$(l).txt))
MISRA_SOURCES_lib := $(LIB_DEPS) $(wildcard lib/src/*.h)
MISRA_SOURCES_cm := $(wildcard lib/include/stow/*.h) $(sort $(wildcard port/cortex-m/*.[ch]))
MISRA_SOURCES_rv := $(wildcard lib/include/stow/*.h) $(sort $(wildcard port/riscv/*.[ch]))
MISRA_SOURCES := $(sort $(MISRA_SOURCES_lib) $(MISRA_SOURCES_cm) $(MISRA_SOURCES_rv))

TOOLS_misra := cppcheck python
TOOL_GOALS += misra
.PHONY: misra tools-misra

# A set's code (lib, cm, rv) and target (m0, m4, rv32, host).
MISRA_CODE = $(firstword $(subst -, ,$(1)))
MISRA_TARGET = $(lastword $(subst -, ,$(1)))
# $(1) set (lib-m0 ...), $(2) level. Every image of the set in its own cppcheck
# run with its own build directory (cppcheck writes its dump files there: two
# runs sharing one would read each other's).
define MISRA_RUN
$(BUILD)/misra/$(1)-L$(2).txt: $(MISRA_SOURCES_$(call MISRA_CODE,$(1))) misra/ilp32.h misra/lp64.h misra/riscv32.xml misra/misra.mk
	@rm -rf $$(@:.txt=.d) $$@.tmp && mkdir -p $$(@:.txt=.d)
	$(Q)$(foreach i,$(MISRA_IMAGES_$(call MISRA_CODE,$(1))) $(MISRA_IMAGES_$(call MISRA_CODE,$(1)).$(call MISRA_TARGET,$(1))),mkdir -p $$(@:.txt=.d)/$(i) && \
	    $(MISRA_CPPCHECK) --cppcheck-build-dir=$$(@:.txt=.d)/$(i) $(MISRA_TARGET_$(call MISRA_TARGET,$(1))) \
	    -DSTOW_CHECK_LEVEL=$(2) $(MISRA_FLAGS_$(call MISRA_CODE,$(1)).$(i)) \
	    $(MISRA_FLAGS_$(call MISRA_CODE,$(1)).$(i).$(call MISRA_TARGET,$(1))) \
	    $(MISRA_FILES_$(call MISRA_CODE,$(1)).$(i)) >>$$@.tmp 2>&1 &&) true \
	    || { cat $$@.tmp; rm -f $$@.tmp; exit 1; }
	@mv $$@.tmp $$@
endef
$(foreach s,$(MISRA_SETS),$(foreach l,$(MISRA_LEVELS),$(eval $(call MISRA_RUN,$(s),$(l)))))

misra: tools-misra
	@$(MAKE) --no-print-directory -j2 $(MISRA_RESULTS)
	$(Q)python3 misra/check.py $(foreach f,$(MISRA_PENDING),--pending $(f)) \
	    $(foreach f,$(MISRA_SOURCES),--source $(f)) $(MISRA_RESULTS)

# make lint runs it too.
lint: misra
