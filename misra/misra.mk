# SPDX-License-Identifier: MIT
# make misra: cppcheck's MISRA C:2012 addon over every file in lib/ and the
# Cortex-M and RISC-V ports, at check levels 0, 1 and 2, for every target the
# code has a branch for; the verdict is misra/check.py's (docs/misra.md).
#
#   lib/ as built for Cortex-M0 (v6-M), Cortex-M4 (v7E-M), RV32IMAC and the
#        64-bit host; port/cortex-m for M0 and M4; port/riscv for RV32IMAC.
#
# Each target gets its ABI (the platform: sizes and the sign of char), the
# macros its compiler predefines that the code tests (arm-none-eabi-gcc -dM -E
# lists them), and the values of the freestanding headers' macros
# (misra/ilp32.h, misra/lp64.h), since cppcheck does not read the compiler's own
# headers. cppcheck's own warning and style checks run too; their findings
# count as a required rule's.
#
# MISRA_PENDING: files being rewritten; their findings are counted and shown, and
# do not fail the run until the rewrite lands.
MISRA_PENDING := lib/src/heap.c lib/include/stow/heap.h lib/src/pool_atomic.c
MISRA_LEVELS := 0 1 2
MISRA_SETS := lib-m0 lib-m4 lib-rv32 lib-host cm-m0 cm-m4 rv-rv32
MISRA_FILES_lib := $(LIB_SRC)
MISRA_FILES_cm := $(sort $(wildcard port/cortex-m/*.c))
MISRA_FILES_rv := $(sort $(wildcard port/riscv/*.c))
MISRA_TARGET_m0 := --platform=arm32-wchar_t4 --include=misra/ilp32.h -D__GNUC__=12 -D__ELF__ -D__arm__ \
                   -D__thumb__ -D__ARM_ARCH_6M__ -D__ARM_ARCH_PROFILE=77 -D__ARM_ARCH_ISA_THUMB=1
MISRA_TARGET_m4 := --platform=arm32-wchar_t4 --include=misra/ilp32.h -D__GNUC__=12 -D__ELF__ -D__arm__ \
                   -D__thumb__ -D__thumb2__ -D__ARM_ARCH_7EM__ -D__ARM_ARCH_PROFILE=77 \
                   -D__ARM_ARCH_ISA_THUMB=2 -D__ARM_FEATURE_CLZ=1 -D__ARM_FEATURE_LDREX=7
MISRA_TARGET_rv32 := --platform=misra/riscv32.xml --include=misra/ilp32.h -D__GNUC__=12 -D__ELF__ \
                     -D__riscv=1 -D__riscv_xlen=32
MISRA_TARGET_host := --platform=unix64 --include=misra/lp64.h -D__GNUC__=12 -D__ELF__ -D__x86_64__=1 \
                     -D__GCC_ATOMIC_LLONG_LOCK_FREE=2
MISRA_CPPCHECK := cppcheck --addon=misra --std=c11 --enable=warning,style --inline-suppr --quiet \
                  --template='{file}:{line}:{column}:{id}' $(INC)
MISRA_RESULTS := $(foreach s,$(MISRA_SETS),$(foreach l,$(MISRA_LEVELS),$(BUILD)/misra/$(s)-L$(l).txt))

TOOLS_misra := cppcheck python
TOOL_GOALS += misra
TOOLS_tools += cppcheck python
.PHONY: misra tools-misra

# $(1) set (lib-m0 ...), $(2) level
define MISRA_RUN
$(BUILD)/misra/$(1)-L$(2).txt: $(MISRA_FILES_$(firstword $(subst -, ,$(1)))) $(LIB_DEPS) \
        $(wildcard port/cortex-m/*.h) misra/ilp32.h misra/lp64.h misra/riscv32.xml misra/misra.mk
	@mkdir -p $$(@D)
	$(Q)$(MISRA_CPPCHECK) $(MISRA_TARGET_$(lastword $(subst -, ,$(1)))) -DSTOW_CHECK_LEVEL=$(2) \
	    $(MISRA_FILES_$(firstword $(subst -, ,$(1)))) >$$@.tmp 2>&1 \
	    || { cat $$@.tmp; exit 1; }
	@mv $$@.tmp $$@
endef
$(foreach s,$(MISRA_SETS),$(foreach l,$(MISRA_LEVELS),$(eval $(call MISRA_RUN,$(s),$(l)))))

misra: tools-misra
	@$(MAKE) --no-print-directory -j2 $(MISRA_RESULTS)
	$(Q)python3 misra/check.py $(foreach f,$(MISRA_PENDING),--pending $(f)) $(MISRA_RESULTS)

lint: misra
