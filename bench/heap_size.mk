# SPDX-License-Identifier: MIT
# bench/heap_size.mk - make heap-size (included by bench/replay.mk).
#   make heap-size TRACE=file [LEVEL=0|1|2] [TARGET=host|mps2-an386|riscv-virt]
# replays a recorded trace (libstow_malloc.so's STOW_HEAP_TRACE, or a heap's
# trace hook on a target) and prints the smallest heap that runs it at each check
# level (or LEVEL), and what STOW_HEAP_BYTES_FOR / _MIN give for the trace's own
# figures, for TARGET's word size. On the host it needs gcc only; a board target
# builds the trace into an image (bench/trace2c.sh) run under QEMU. See
# docs/heap-sizing.md and bench/heap_size.sh.
HEAP_SIZE_TARGETS := host $(REPLAY_BOARDS)
HEAP_SIZE_TARGET = $(or $(TARGET),host)
HEAP_SIZE_LEVELS = $(or $(LEVEL),$(REPLAY_LEVELS))
HEAP_SIZE_DIR := $(BUILD)/heap-size
HEAP_SIZE_USAGE := make heap-size TRACE=file [LEVEL=0|1|2] [TARGET=host|mps2-an386|riscv-virt]
ifneq ($(filter heap-size,$(MAKECMDGOALS)),)
ifeq ($(strip $(TRACE)),)
$(error heap-size: no trace given: $(HEAP_SIZE_USAGE))
endif
ifneq ($(words $(TRACE)),1)
$(error heap-size: TRACE=$(TRACE): one file, with no blank in its name)
endif
ifeq ($(filter $(HEAP_SIZE_TARGET),$(HEAP_SIZE_TARGETS)),)
$(error heap-size: unknown TARGET=$(TARGET): host, mps2-an386 or riscv-virt)
endif
ifneq ($(or $(filter-out 0 1 2,$(LEVEL)),$(word 2,$(LEVEL))),)
$(error heap-size: unknown LEVEL=$(LEVEL): 0, 1 or 2 (or none: all three))
endif
endif

# The host: replay TRACE size at each level. The first level's run reads and
# checks the trace and stops at its first bad line, before any other runs.
$(HEAP_SIZE_DIR)/host.txt: $(patsubst %,$(BUILD)/bench/replay-L%,$(HEAP_SIZE_LEVELS)) FORCE
	@mkdir -p $(@D)
	@for l in $(HEAP_SIZE_LEVELS); do $(BUILD)/bench/replay-L$$l '$(TRACE)' size || exit 1; done >$@.tmp
	@mv $@.tmp $@

# A board: the trace checked by the host replay, then compiled into one image a
# level (replayed without timing, no -icount), rebuilt only when it changed.
$(HEAP_SIZE_DIR)/gen/replay_traces.h: $(BUILD)/bench/replay-L0 bench/heap_size.sh bench/trace2c.sh FORCE
	@mkdir -p $(@D)
	@bench/heap_size.sh header '$(TRACE)' $(BUILD)/bench/replay-L0 $($(HEAP_SIZE_TARGET)_RAM_KIB) >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
HEAP_SIZE_ROWS :=
$(foreach b,$(REPLAY_BOARDS),$(foreach l,$(REPLAY_LEVELS),$(eval $(call REPLAY_TARGET,$(b),$(l),-DREPLAY_SIZE_ONLY,,\
    $(HEAP_SIZE_DIR)/$(b)-L$(l),$(HEAP_SIZE_DIR)/gen,HEAP_SIZE_ROWS))))

HEAP_SIZE_OUT = $(if $(filter host,$(HEAP_SIZE_TARGET)),$(HEAP_SIZE_DIR)/host.txt,\
    $(patsubst %,$(HEAP_SIZE_DIR)/$(HEAP_SIZE_TARGET)-L%.txt,$(HEAP_SIZE_LEVELS)))
HEAP_SIZE_CORE = $(if $(filter host,$(HEAP_SIZE_TARGET)),$(HOST_ARCH) (host),$(REPLAY_CORE_$(HEAP_SIZE_TARGET)) ($(HEAP_SIZE_TARGET) under QEMU))
.PHONY: heap-size
heap-size: $(HEAP_SIZE_OUT)
	@bench/heap_size.sh report '$(TRACE)' '$(HEAP_SIZE_CORE)' $^

# make test: make heap-size on bench/heap_size/ (a small trace, malformed ones),
# on the host and on Cortex-M4 at one level; see bench/heap_size_test.sh.
HEAP_SIZE_TEST_DEPS := $(patsubst %,$(BUILD)/bench/replay-L%,$(REPLAY_LEVELS)) bench/heap_size_test.sh \
    bench/heap_size.sh bench/heap_size.mk $(wildcard bench/heap_size/*.trace)
$(BUILD)/test/heap-size/result: $(HEAP_SIZE_TEST_DEPS) FORCE
	@tests/run.sh heap-size $(@D) bench/heap_size_test.sh host '$(MAKE)' $(abspath $(@D)) $(BUILD)/bench/replay \
	    $(CC_gcc) $(STD) $(WARN) $(INC)
$(BUILD)/test/heap-size-mps2-an386/result: $(HEAP_SIZE_TEST_DEPS) $(REPLAY_DEPS) FORCE
	@tests/run.sh heap-size-mps2-an386 $(@D) bench/heap_size_test.sh mps2-an386 '$(MAKE)' $(abspath $(@D)) \
	    $(BUILD)/bench/replay $(ARM_CC) $(STD) $(WARN) $(CM_FLAGS) $(mps2-an386_CFLAGS) $(INC)
HOST_RESULTS += $(BUILD)/test/heap-size/result
BOARD_RESULTS += $(BUILD)/test/heap-size-mps2-an386/result
