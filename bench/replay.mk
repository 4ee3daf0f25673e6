# SPDX-License-Identifier: MIT
# bench/replay.mk - allocation traces replayed (included by adapters/rules.mk).
#   make bench-replay   the table `make bench` ends with: each trace of
#                       bench/traces/ on stow's heap (levels 0 and 1) and on
#                       glibc's malloc, instructions per call (callgrind) and
#                       fragmentation; see bench/replay.c and bench/replay.sh
# make test replays the traces once each (the preload-trace check).
REPLAY_TRACES := $(sort $(wildcard bench/traces/*.trace))
# $(1) check level
define REPLAY_HOST
$(BUILD)/bench/replay-L$(1): bench/replay.c $(LIB_DEPS) bench/replay.mk
	@mkdir -p $$(@D)
	$(Q)$(CC_gcc) $(STD) $(WARN) -O2 -g -DSTOW_CHECK_LEVEL=$(1) $(INC) lib/src/heap.c $$< -Wl,-z,now -o $$@
endef
$(foreach l,0 1,$(eval $(call REPLAY_HOST,$(l))))

$(BUILD)/bench/replay-host.txt: $(BUILD)/bench/replay-L0 $(BUILD)/bench/replay-L1 bench/replay.sh $(REPLAY_TRACES)
	@bench/replay.sh $(BUILD)/bench/replay $(BUILD)/bench/replay-L0 $(BUILD)/bench/replay-L1 \
	    $(REPLAY_TRACES) >$@.tmp
	@mv $@.tmp $@

# Under QEMU (-icount shift=0, the bench images' method): the traces compiled
# in (bench/trace2c.sh), replayed on the heap in 3 MiB of each board's 4 MiB of
# RAM, on Cortex-M4 (mps2-an386) and RV32IMAC (riscv-virt), at levels 0 and 1.
$(BUILD)/gen/replay_traces.h: bench/trace2c.sh $(REPLAY_TRACES)
	@mkdir -p $(@D)
	@bench/trace2c.sh $(REPLAY_TRACES) >$@.tmp
	@mv $@.tmp $@
REPLAY_TARGET_ROWS :=
REPLAY_TARGET_DEPS := bench/replay.c $(BUILD)/gen/replay_traces.h $(LIB_DEPS) bench/replay.mk
# $(1) board, $(2) check level, $(3) compiler and flags, $(4) support sources and link flags, $(5) QEMU
define REPLAY_TARGET
$(BUILD)/bench/replay-$(1)-L$(2).elf: $(REPLAY_TARGET_DEPS) targets/$(1)/board.mk targets/$(1)/memory.ld
	@mkdir -p $$(@D)
	$(Q)$(3) $(STD) $(WARN) -O2 -g $($(1)_CFLAGS) -DSTOW_CHECK_LEVEL=$(2) -DSTOW_REPLAY_TARGET \
	    -DSTOW_BENCH_COLUMN='"stow L$(2), $(BENCH_CORE_$(1)) (QEMU)"' $(INC) -I$(BUILD)/gen -Ltargets/$(1) \
	    $(4) $(LIB_SRC) bench/replay.c -lgcc -o $$@
$(BUILD)/bench/replay-$(1)-L$(2).txt: $(BUILD)/bench/replay-$(1)-L$(2).elf
	@timeout $(QEMU_TIMEOUT) $(5) $($(1)_QEMU) -icount shift=0 $(QEMU_RUN) -kernel $$< >$$@.tmp \
	    || { cat $$@.tmp; echo "bench: the replay on $(1) at level $(2) failed"; exit 1; }
	@mv $$@.tmp $$@
REPLAY_TARGET_ROWS += $(BUILD)/bench/replay-$(1)-L$(2).txt
endef
$(foreach l,0 1,$(eval $(call REPLAY_TARGET,mps2-an386,$(l),$(ARM_CC) $(CM_FLAGS),\
    $(CM_LINK) $(CM_SUPPORT) $(CM_PORT) $(CM_ASSERT) $(CM_CYCLES),$(QEMU))))
$(foreach l,0 1,$(eval $(call REPLAY_TARGET,riscv-virt,$(l),$(RV_CC) $(RV_FLAGS),\
    $(RV_LINK) $(RV_SUPPORT) port/riscv/assert.c,$(RV_QEMU))))

.PHONY: bench-replay
bench-replay:
	@$(MAKE) --no-print-directory -j$(JOBS) $(BUILD)/bench/replay-host.txt $(REPLAY_TARGET_ROWS)
	@echo "## Allocation traces replayed (bench/traces/)"
	@echo
	@echo "Calls recorded from Debian's lua5.4, python3 and openssl by libstow_malloc.so" \
	    "(STOW_HEAP_TRACE), replayed by bench/replay.c. Instructions per call: callgrind on" \
	    "$(HOST_ARCH) (the allocator call's inclusive cost, as for the table above), the cycle counter" \
	    "under QEMU -icount (exact on RV32IMAC, within one 40-instruction tick per call on Cortex-M4)." \
	    "Footprint: for stow, the end of the highest block ever handed out less the storage's start;" \
	    "for glibc, mallinfo2's arena - keepcost + hblkhd at its highest. Requested: the most" \
	    "requested bytes live at once."
	@echo
	@bench/replay_table.sh $(BUILD)/bench/replay-host.txt $(REPLAY_TARGET_ROWS)

$(eval $(call ADAPTERS_CHECK,preload-trace,$(PRELOAD_SO) $(BUILD)/bench/replay-L1 adapters/preload/check_trace.sh \
    adapters/lua/workload.lua $(REPLAY_TRACES),\
    adapters/preload/check_trace.sh $$(abspath $$(@D))/runs $(ADAPTERS_ABS_SO) $(abspath $(BUILD)/bench/replay-L1) \
    $(CURDIR)/adapters/lua/workload.lua $(abspath $(REPLAY_TRACES))))
