# SPDX-License-Identifier: MIT
# bench/replay.mk - allocation traces replayed (included by adapters/rules.mk).
#   make bench-replay   the tables `make bench` ends with: each trace of
#                       bench/traces/ on stow's heap and on glibc's malloc,
#                       instructions per call (callgrind, QEMU) and
#                       fragmentation; then the smallest heap that runs each
#                       trace (levels 0-2; Cortex-M4, RV32, the host) beside
#                       FreeRTOS's heap_4 where FREERTOS_KERNEL_PATH has it, and
#                       what STOW_HEAP_BYTES_FOR gives for each trace's figures;
#                       see bench/replay.c, bench/replay_size.c, bench/replay.sh
#   make heap-size TRACE=file [LEVEL=0|1|2] [TARGET=host|mps2-an386|riscv-virt]
#                       the smallest heap for a recorded trace (bench/heap_size.mk)
# make test replays the traces once each (the preload-trace check) and tries
# make heap-size (bench/heap_size.mk).
REPLAY_TRACES := $(sort $(wildcard bench/traces/*.trace))
REPLAY_SRC := bench/replay.c bench/replay_size.c
REPLAY_DEPS := $(REPLAY_SRC) bench/replay.h $(LIB_DEPS) bench/replay.mk
REPLAY_LEVELS := 0 1 2
# The FreeRTOS kernel whose heap_4 is the comparison column (never copied here).
FREERTOS_KERNEL_PATH ?= ../shared/third_party/FreeRTOS-Kernel
HEAP4_SRC := $(FREERTOS_KERNEL_PATH)/portable/MemMang/heap_4.c

# Host: the library and the POSIX port, as a program links them (the port only
# writes the search's lines; no replayed call goes through it).
# $(1) check level
define REPLAY_HOST
$(BUILD)/bench/replay-L$(1): $(REPLAY_DEPS) $(HOST_PORT) port/host/assert.c
	@mkdir -p $$(@D)
	$(Q)$(CC_gcc) $(STD) $(WARN) -O2 -g -DSTOW_CHECK_LEVEL=$(1) -DREPLAY_HEAP_NAME='"stow L$(1)"' \
	    -DREPLAY_CORE='"$(HOST_ARCH)"' \
	    $(INC) $(LIB_SRC) $(REPLAY_SRC) $(HOST_PORT) port/host/assert.c -Wl,-z,now -o $$@ -lpthread
endef
$(foreach l,$(REPLAY_LEVELS),$(eval $(call REPLAY_HOST,$(l))))

# Instructions (callgrind) and footprints at levels 0 and 1; the smallest heap
# at each level (a few milliseconds a trace).
$(BUILD)/bench/replay-host.txt: $(BUILD)/bench/replay-L0 $(BUILD)/bench/replay-L1 bench/replay.sh $(REPLAY_TRACES)
	@bench/replay.sh $(BUILD)/bench/replay $(BUILD)/bench/replay-L0 $(BUILD)/bench/replay-L1 \
	    $(REPLAY_TRACES) >$@.tmp
	@mv $@.tmp $@
$(BUILD)/bench/replay-size-host.txt: $(patsubst %,$(BUILD)/bench/replay-L%,$(REPLAY_LEVELS)) $(REPLAY_TRACES)
	@for l in $(REPLAY_LEVELS); do for t in $(REPLAY_TRACES); do \
	    $(BUILD)/bench/replay-L$$l $$t size || exit 1; done; done >$@.tmp
	@mv $@.tmp $@

# Under QEMU (-icount shift=0, the bench images' method): the traces compiled
# in (bench/trace2c.sh), replayed on the heap in all but ~60 KiB of each board's
# 4 MiB of RAM, on Cortex-M4 (mps2-an386) and RV32IMAC (riscv-virt): each call
# timed at levels 0 and 1, then the smallest heap searched (about 20 replays a
# trace, in the same run); at level 2 the search alone (REPLAY_SIZE_ONLY).
$(BUILD)/gen/replay_traces.h: bench/trace2c.sh $(REPLAY_TRACES)
	@mkdir -p $(@D)
	@bench/trace2c.sh $(REPLAY_TRACES) >$@.tmp
	@mv $@.tmp $@
REPLAY_TARGET_ROWS :=
REPLAY_TARGET_DEPS := $(REPLAY_DEPS) $(BUILD)/gen/replay_traces.h
REPLAY_BOARDS := mps2-an386 riscv-virt
REPLAY_CC_mps2-an386 = $(ARM_CC) $(CM_FLAGS)
REPLAY_CC_riscv-virt = $(RV_CC) $(RV_FLAGS)
REPLAY_LINK_mps2-an386 = $(CM_LINK) $(CM_SUPPORT) $(CM_PORT) $(CM_ASSERT) $(CM_CYCLES)
REPLAY_LINK_riscv-virt = $(RV_LINK) $(RV_SUPPORT) port/riscv/assert.c
REPLAY_QEMU_mps2-an386 = $(QEMU)
REPLAY_QEMU_riscv-virt = $(RV_QEMU)
REPLAY_CORE_mps2-an386 := Cortex-M4
REPLAY_CORE_riscv-virt := RV32IMAC
# $(1) board, $(2) check level, $(3) extra flags, $(4) QEMU's -icount, $(5) the image's
# path without .elf, $(6) the header of traces (its directory), $(7) the results list
define REPLAY_TARGET
$(5).elf: $(REPLAY_DEPS) $(6)/replay_traces.h targets/$(1)/board.mk targets/$(1)/memory.ld
	@mkdir -p $$(@D)
	$(Q)$(REPLAY_CC_$(1)) $(STD) $(WARN) -O2 -g $($(1)_CFLAGS) -DSTOW_CHECK_LEVEL=$(2) -DSTOW_REPLAY_TARGET \
	    -DREPLAY_RAM_KIB=$($(1)_RAM_KIB)u $(3) \
	    -DREPLAY_HEAP_NAME='"stow L$(2)"' -DREPLAY_CORE='"$(REPLAY_CORE_$(1)) (QEMU)"' $(INC) -I$(6) -Ltargets/$(1) \
	    $(REPLAY_LINK_$(1)) $(LIB_SRC) $(REPLAY_SRC) -lgcc -o $$@
$(5).txt: $(5).elf
	@timeout $(QEMU_TIMEOUT) $(REPLAY_QEMU_$(1)) $($(1)_QEMU) $(4) $(QEMU_RUN) -kernel $$< >$$@.tmp \
	    || { cat $$@.tmp; echo "replay: the replay on $(1) at level $(2) failed"; exit 1; }
	@mv $$@.tmp $$@
$(7) += $(5).txt
endef
$(foreach b,$(REPLAY_BOARDS),$(foreach l,0 1,$(eval $(call REPLAY_TARGET,$(b),$(l),,-icount shift=0,\
    $(BUILD)/bench/replay-$(b)-L$(l),$(BUILD)/gen,REPLAY_TARGET_ROWS))))
REPLAY_SIZE_ROWS :=
$(foreach b,$(REPLAY_BOARDS),$(eval $(call REPLAY_TARGET,$(b),2,-DREPLAY_SIZE_ONLY,,\
    $(BUILD)/bench/replay-$(b)-L2,$(BUILD)/gen,REPLAY_SIZE_ROWS)))

# FreeRTOS's heap_4 on Cortex-M4, built as it is with bench/heap4/FreeRTOSConfig.h
# and bench/heap4/heap4.c (the kernel calls it makes, and a heap of any size in
# one image): each call timed, then the smallest heap, as for stow's heap. Its
# storage is fixed (configTOTAL_HEAP_SIZE is a constant): 3840 KiB.
HEAP4_BYTES := 3932160u
HEAP4_IMAGE := $(BUILD)/bench/replay-mps2-an386-heap4
HEAP4_CFLAGS = -O2 -g $(CM_FLAGS) $(mps2-an386_CFLAGS) -DREPLAY_HEAP_BYTES=$(HEAP4_BYTES) -Ibench/heap4 \
    -isystem $(FREERTOS_KERNEL_PATH)/include -isystem $(FREERTOS_KERNEL_PATH)/portable/GCC/ARM_CM4F
$(HEAP4_IMAGE)/heap_4.o: $(HEAP4_SRC) bench/heap4/FreeRTOSConfig.h bench/replay.mk
	@mkdir -p $(@D)
	$(Q)$(ARM_CC) $(STD) $(filter-out -Werror,$(WARN)) $(HEAP4_CFLAGS) -c $< -o $@
$(HEAP4_IMAGE).elf: $(REPLAY_TARGET_DEPS) bench/heap4/heap4.c bench/heap4/heap4.h bench/heap4/FreeRTOSConfig.h \
        $(HEAP4_IMAGE)/heap_4.o targets/mps2-an386/board.mk targets/mps2-an386/memory.ld
	$(Q)$(ARM_CC) $(STD) $(WARN) $(HEAP4_CFLAGS) -DSTOW_CHECK_LEVEL=0 -DSTOW_REPLAY_TARGET -DREPLAY_HEAP4 \
	    -DREPLAY_HEAP_NAME='"FreeRTOS heap_4"' -DREPLAY_CORE='"Cortex-M4 (QEMU)"' $(INC) -Ibench -I$(BUILD)/gen \
	    -Ltargets/mps2-an386 $(REPLAY_LINK_mps2-an386) $(REPLAY_SRC) bench/heap4/heap4.c $(HEAP4_IMAGE)/heap_4.o \
	    -lgcc -o $@
$(HEAP4_IMAGE).txt: $(HEAP4_IMAGE).elf
	@timeout $(QEMU_TIMEOUT) $(QEMU) $(mps2-an386_QEMU) -icount shift=0 $(QEMU_RUN) -kernel $< >$@.tmp \
	    || { cat $@.tmp; echo "replay: the replay on heap_4 failed"; exit 1; }
	@mv $@.tmp $@
HEAP4_ROWS := $(if $(wildcard $(HEAP4_SRC)),$(HEAP4_IMAGE).txt)

.PHONY: bench-replay
bench-replay:
	@$(MAKE) --no-print-directory -j$(JOBS) $(BUILD)/bench/replay-host.txt $(BUILD)/bench/replay-size-host.txt \
	    $(REPLAY_TARGET_ROWS) $(REPLAY_SIZE_ROWS) $(HEAP4_ROWS)
	@echo "## Allocation traces replayed (bench/traces/)"
	@echo
	@echo "Calls recorded from Debian's lua5.4, python3 and openssl by libstow_malloc.so" \
	    "(STOW_HEAP_TRACE), replayed by bench/replay.c. Instructions per call: callgrind on" \
	    "$(HOST_ARCH) (the allocator call's inclusive cost, as for the table above), the cycle counter" \
	    "under QEMU -icount (exact on RV32IMAC, within one 40-instruction tick per call on Cortex-M4;" \
	    "heap_4's include one branch into it, and its realloc is malloc, copy, free)." \
	    "Footprint: for stow, the end of the highest block ever handed out less the storage's start;" \
	    "for glibc, mallinfo2's arena - keepcost + hblkhd at its highest. Requested: the most" \
	    "requested bytes live at once."
	@echo
	@bench/replay_table.sh $(BUILD)/bench/replay-host.txt $(REPLAY_TARGET_ROWS) $(HEAP4_ROWS)
	@echo
	@bench/replay_sizes.sh $(REPLAY_TARGET_ROWS) $(REPLAY_SIZE_ROWS) $(BUILD)/bench/replay-size-host.txt \
	    $(HEAP4_ROWS)
	@$(if $(HEAP4_ROWS),:,echo "FreeRTOS heap_4: skipped, no $(HEAP4_SRC) (set FREERTOS_KERNEL_PATH)")

$(eval $(call ADAPTERS_CHECK,preload-trace,$(PRELOAD_SO) $(BUILD)/bench/replay-L1 adapters/preload/check_trace.sh \
    adapters/lua/workload.lua $(REPLAY_TRACES),\
    adapters/preload/check_trace.sh $$(abspath $$(@D))/runs $(ADAPTERS_ABS_SO) $(abspath $(BUILD)/bench/replay-L1) \
    $(CURDIR)/adapters/lua/workload.lua $(abspath $(REPLAY_TRACES))))

include bench/heap_size.mk
