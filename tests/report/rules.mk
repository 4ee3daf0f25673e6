# SPDX-License-Identifier: MIT
# The memory report (stow/report.h): its budget tool and its tests.
#
#   make report ELF=firmware.elf [MARKDOWN=1]
#        tools/stow_report.py: the static RAM of every stow container and subsystem
#        in a built image, read from the image's registry without running it (as
#        Markdown tables with MARKDOWN=1, for a CI job summary).
#
# Tests (`make test`; tests/test_report.c itself runs in every test image):
#   report-budget  tests/report/budget.sh: a subsystem over its budget fails the
#                  link on Cortex-M (mps2-an386) and RISC-V (riscv-virt) with the
#                  fragment tools/stow_budgets.sh makes, and the run on the host;
#                  within budget it links, runs and reports; the tool reads what
#                  the image prints.
#                  Over budget, the message's hint (the tool on the link's
#                  objects) works with no image; STOW_SECTIONS 0 fails the link.
#   report-tool    tests/report/tool.sh: the tool's rows for the test images of
#                  the host (gcc -O2), mps2-an386 and riscv-virt against the
#                  registry each image printed in its own run; its errors are
#                  one line each.
#   report-constants  tests/report/constants.sh: tools/stow_budgets.sh takes every
#                  integer constant C takes, rejects what C rejects, and writes
#                  nothing on an error.
#   report-order   tests/report/order.sh: on the host, stow_report()'s lines keep
#                  their place among the program's printf() output (stdout into a
#                  file and into a pipe).

.PHONY: report
report:
	@if [ -z "$(ELF)" ]; then echo "usage: make report ELF=firmware.elf [MARKDOWN=1]"; exit 2; fi
	@python3 tools/stow_report.py $(if $(filter 1,$(MARKDOWN)),--markdown) '$(ELF)'

REPORT_RESULTS := $(BUILD)/test/report-budget/result $(BUILD)/test/report-tool/result
REPORT_HOST_RESULTS := $(BUILD)/test/report-constants/result $(BUILD)/test/report-order/result
$(BUILD)/test/report-budget/result: tests/report/budget.sh tests/report/firmware.c tests/report/budgets.h \
        tools/stow_budgets.sh tools/stow_report.py $(LIB_DEPS) $(CM_PORT_DEPS) $(RV_PORT_DEPS) FORCE
	@HOST_CC='$(CC_gcc) $(STD) $(WARN) -O2 $(INC)' HOST_SRC='$(HOST_PORT) port/host/assert.c' \
	    CM_CC='$(ARM_CC) $(STD) $(WARN) -O2 $(CM_FLAGS) $(mps2-an386_CFLAGS) $(INC)' \
	    CM_LINK='-nostdlib -Wl,--gc-sections -Tlinker/cortex-m.ld -Ltargets/mps2-an386' \
	    CM_SRC='$(CM_SUPPORT) $(CM_PORT) $(CM_ASSERT)' \
	    RV_CC='$(RV_CC) $(STD) $(WARN) -O2 $(RV_FLAGS) $(riscv-virt_CFLAGS) $(INC)' \
	    RV_LINK='-nostdlib -Wl,--gc-sections -Tlinker/riscv.ld -Ltargets/riscv-virt' \
	    RV_SRC='$(RV_SUPPORT) port/riscv/assert.c' LIB_SRC='$(LIB_SRC)' \
	    QEMU_CMD='timeout 60 $(QEMU) $(mps2-an386_QEMU) $(QEMU_RUN) -kernel' \
	    tests/run.sh report-budget $(@D) tests/report/budget.sh $(abspath $(@D))/work
REPORT_TOOL_IMAGES := $(BUILD)/test/host-gcc-O2-L1/tests $(BUILD)/test/mps2-an386-O2-L1/tests.elf \
                      $(BUILD)/test/riscv-virt-O2-L1/tests.elf
# and a host program with DEFINEs that never reads the registry.
$(BUILD)/test/report-tool/unread: tests/nobits/big.c tests/stub_port.c $(LIB_DEPS)
	@mkdir -p $(@D)
	$(Q)$(CC_gcc) $(STD) $(WARN) -O2 -DBIG_KIB=64u $(INC) tests/nobits/big.c tests/stub_port.c \
	    $(LIB_SRC) -o $@
$(BUILD)/test/report-tool/result: tests/report/tool.sh tools/stow_report.py \
        $(patsubst %/,%/result,$(dir $(REPORT_TOOL_IMAGES))) $(BUILD)/test/report-tool/unread FORCE
	@UNREAD=$(BUILD)/test/report-tool/unread tests/run.sh report-tool $(@D) tests/report/tool.sh \
	    $(REPORT_TOOL_IMAGES)
BOARD_RESULTS += $(REPORT_RESULTS)
$(BUILD)/test/report-constants/result: tests/report/constants.sh tools/stow_budgets.sh FORCE
	@tests/run.sh report-constants $(@D) tests/report/constants.sh $(@D)/work
$(BUILD)/test/report-order/order: tests/report/order.c $(LIB_DEPS) $(HOST_PORT) port/host/assert.c
	@mkdir -p $(@D)
	$(Q)$(CC_gcc) $(STD) $(WARN) -O2 $(INC) $< $(LIB_SRC) $(HOST_PORT) port/host/assert.c -o $@ -lpthread
$(BUILD)/test/report-order/result: tests/report/order.sh $(BUILD)/test/report-order/order FORCE
	@tests/run.sh report-order $(@D) tests/report/order.sh $(BUILD)/test/report-order/order
HOST_RESULTS += $(REPORT_HOST_RESULTS)
