# SPDX-License-Identifier: MIT
# bench/multicore.mk - what several cores cost (docs/multicore.md); included by the
# top-level Makefile. `make bench` ends with `make bench-multicore`:
#
#   instructions, uncontended   bench/multicore.c (driven by bench/ops.c) at check
#                               level 1, -O2, per core family, with the one-core
#                               port and with the multi-core one (port/<core>/smp.c,
#                               STOW_MULTICORE): QEMU -icount shift=0 on Cortex-M0
#                               (micro:bit; the multi-core image through the chip
#                               lock hook), M4 (mps2-an386), M33 (mps2-an505) and
#                               RV32IMAC (riscv-virt); callgrind on the host (its
#                               one port serves threads on every core)
#   throughput scaling          bench/scaling.c with 1, 2 and 4 workers: harts of
#                               riscv virt (-smp, multi-threaded TCG) and host
#                               threads; best of three runs each, as a ratio
#                               against one worker (bench/scaling.sh)

MC_BENCH_DEPS := bench/multicore.c bench/ops.c bench/bench.h $(LIB_DEPS) bench/multicore.mk
MC_BENCH_GEN := $(BUILD)/bench/multicore/gen
$(MC_BENCH_GEN)/benches.h:
	@mkdir -p $(@D)
	@echo 'STOW_BENCH(multicore)' >$@
MC_BENCH_ROWS :=
MC_CM_SMP := -DSTOW_PORT_SMP -DSTOW_MULTICORE=1 port/cortex-m/smp.c -DBENCH_CORE_HOOK
# $(1) board, $(2) one or smp, $(3) the column's words for it, $(4) flags and sources of
# that port
define MC_BENCH_CM
$(BUILD)/bench/multicore/$(1)-$(2)/ops.elf: $(MC_BENCH_DEPS) $(CM_PORT_DEPS) port/cortex-m/smp.c \
        $(MC_BENCH_GEN)/benches.h targets/$(1)/board.mk
	@mkdir -p $$(@D)
	$(Q)$(ARM_CC) $(STD) $(WARN) -O2 -g $(CM_FLAGS) $($(1)_CFLAGS) -DSTOW_CHECK_LEVEL=1 -DSTOW_BENCH_TARGET \
	    -DSTOW_BENCH_BOARD='"$(1)"' -DSTOW_BENCH_COLUMN='"$(BENCH_CORE_$(1)), $(3)"' \
	    $(or $(BENCH_COUNTS_$(1)),$(BENCH_COUNTS)) $(INC) -Ibench -I$(MC_BENCH_GEN) $(CM_LINK) -Ltargets/$(1) \
	    $(CM_SUPPORT) $(CM_PORT) $(CM_ASSERT) $(CM_CYCLES) $(4) $(LIB_SRC) bench/ops.c bench/multicore.c \
	    -lgcc -o $$@
$(BUILD)/bench/multicore/$(1)-$(2)/rows.txt: $(BUILD)/bench/multicore/$(1)-$(2)/ops.elf
	@timeout $(QEMU_TIMEOUT) $(QEMU) $($(1)_QEMU) -icount shift=0 $(QEMU_RUN) -kernel $$< >$$@.tmp \
	    || { cat $$@.tmp; echo "bench: multicore on $(1) ($(3)) failed"; exit 1; }
	@mv $$@.tmp $$@
MC_BENCH_ROWS += $(BUILD)/bench/multicore/$(1)-$(2)/rows.txt
endef
$(eval $(call MC_BENCH_CM,microbit,one,one core,))
$(eval $(call MC_BENCH_CM,microbit,smp,several cores,$(MC_CM_SMP) -DBENCH_CHIP_LOCK))
$(foreach b,mps2-an386 mps2-an505,$(eval $(call MC_BENCH_CM,$(b),one,one core,))$(eval \
    $(call MC_BENCH_CM,$(b),smp,several cores,$(MC_CM_SMP))))

# $(1) one or smp, $(2) the column's words for it, $(3) flags and sources of that port
define MC_BENCH_RV
$(BUILD)/bench/multicore/riscv-virt-$(1)/ops.elf: $(MC_BENCH_DEPS) $(RV_PORT_DEPS) port/riscv/smp.c \
        $(MC_BENCH_GEN)/benches.h
	@mkdir -p $$(@D)
	$(Q)$(RV_CC) $(STD) $(WARN) -O2 -g $(RV_FLAGS) $(riscv-virt_CFLAGS) -DSTOW_CHECK_LEVEL=1 -DSTOW_BENCH_TARGET \
	    -DSTOW_BENCH_BOARD='"riscv-virt"' -DSTOW_BENCH_COLUMN='"RV32IMAC, $(2)"' $(BENCH_COUNTS) $(INC) -Ibench \
	    -I$(MC_BENCH_GEN) $(RV_LINK) -Ltargets/riscv-virt $(RV_SUPPORT) port/riscv/assert.c $(3) $(LIB_SRC) \
	    bench/ops.c bench/multicore.c -lgcc -o $$@
$(BUILD)/bench/multicore/riscv-virt-$(1)/rows.txt: $(BUILD)/bench/multicore/riscv-virt-$(1)/ops.elf
	@timeout $(QEMU_TIMEOUT) $(RV_QEMU) $(riscv-virt_QEMU) -icount shift=0 $(QEMU_RUN) -kernel $$< >$$@.tmp \
	    || { cat $$@.tmp; echo "bench: multicore on riscv-virt ($(2)) failed"; exit 1; }
	@mv $$@.tmp $$@
MC_BENCH_ROWS += $(BUILD)/bench/multicore/riscv-virt-$(1)/rows.txt
endef
$(eval $(call MC_BENCH_RV,one,one hart,))
$(eval $(call MC_BENCH_RV,smp,several harts,-DSTOW_PORT_SMP port/riscv/smp.c))

$(BUILD)/bench/multicore/host/ops: $(MC_BENCH_DEPS) $(HOST_PORT) port/host/assert.c $(MC_BENCH_GEN)/benches.h
	@mkdir -p $(@D)
	$(Q)$(CC_gcc) $(STD) $(WARN) -O2 -g -DSTOW_CHECK_LEVEL=1 -DSTOW_BENCH_COLUMN='"$(HOST_ARCH), threads"' \
	    $(BENCH_COUNTS) $(INC) -Ibench -I$(MC_BENCH_GEN) $(LIB_SRC) bench/ops.c bench/multicore.c $(HOST_PORT) \
	    port/host/assert.c -o $@ -lpthread
$(BUILD)/bench/multicore/host/rows.txt: $(BUILD)/bench/multicore/host/ops bench/callgrind.sh
	@bench/callgrind.sh $< $(@D)/callgrind >$@.tmp
	@mv $@.tmp $@
MC_BENCH_ROWS += $(BUILD)/bench/multicore/host/rows.txt

# ---- scaling
SCALING_DEPS := bench/scaling.c $(LIB_DEPS) bench/multicore.mk
SCALING_RUNS := 1 2 3
SCALING_ROWS :=
# $(1) harts
define SCALING_RV
$(BUILD)/bench/scaling/rv-$(1).elf: $(SCALING_DEPS) $(RV_PORT_DEPS) port/riscv/smp.c
	@mkdir -p $$(@D)
	$(Q)$(RV_CC) $(STD) $(WARN) -O2 -g $(RV_FLAGS) $(riscv-virt_CFLAGS) -DSTOW_RV_HARTS=$(1) \
	    -DSTOW_RV_HART_STACK=8192 -DSTOW_CHECK_LEVEL=1 -DSTOW_PORT_SMP $(INC) $(RV_LINK) -Ltargets/riscv-virt \
	    -Wl,--defsym=__stack_size=32K $(RV_SUPPORT) port/riscv/smp.c port/riscv/assert.c $(LIB_SRC) \
	    bench/scaling.c -lgcc -o $$@
$(BUILD)/bench/scaling/rv-$(1).txt: $(BUILD)/bench/scaling/rv-$(1).elf
	@for run in $(SCALING_RUNS); do timeout 120 $(RV_QEMU) -M virt -bios none -smp $(1) -accel tcg,thread=multi \
	    $(QEMU_RUN) -kernel $$< || exit 1; done >$$@.tmp
	@mv $$@.tmp $$@
SCALING_ROWS += $(BUILD)/bench/scaling/rv-$(1).txt
endef
$(foreach n,1 2 4,$(eval $(call SCALING_RV,$(n))))
$(BUILD)/bench/scaling/host: $(SCALING_DEPS) $(HOST_PORT) port/host/assert.c
	@mkdir -p $(@D)
	$(Q)$(CC_gcc) $(STD) $(WARN) -O2 -g -DSTOW_CHECK_LEVEL=1 -DSCALING_HOST='"$(HOST_ARCH)"' $(INC) $(LIB_SRC) \
	    bench/scaling.c $(HOST_PORT) port/host/assert.c -o $@ -lpthread
$(BUILD)/bench/scaling/host.txt: $(BUILD)/bench/scaling/host
	@for run in $(SCALING_RUNS); do for n in 1 2 4; do $< $$n || exit 1; done; done >$@.tmp
	@mv $@.tmp $@
SCALING_ROWS += $(BUILD)/bench/scaling/host.txt

.PHONY: bench-multicore
bench-multicore:
	@$(MAKE) --no-print-directory tools-bench
	@$(MAKE) --no-print-directory -j$(JOBS) $(MC_BENCH_ROWS)
	@echo "## Several cores: instructions without contention (-O2, check level 1; bench/multicore.c)"
	@echo
	@bench/table.sh $(MC_BENCH_ROWS)
	@echo
	@$(MAKE) --no-print-directory $(SCALING_ROWS)
	@echo "## Several cores: calls per second with 2 and 4 workers, over 1 (bench/scaling.c, best of $(words $(SCALING_RUNS)))"
	@echo
	@bench/scaling.sh $(SCALING_ROWS)
	@echo
	@echo "Host: $$(nproc) CPUs, load average $$(cut -d' ' -f1-3 /proc/loadavg) as the runs ended (a ratio above the"
	@echo "CPUs left idle is out of reach; build/bench/scaling/*.txt has every run)."
