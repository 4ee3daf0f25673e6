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
.PHONY: bench-replay
bench-replay: $(BUILD)/bench/replay-host.txt bench/replay_table.sh
	@bench/replay_table.sh $(BUILD)/bench/replay-host.txt

$(eval $(call ADAPTERS_CHECK,preload-trace,$(PRELOAD_SO) $(BUILD)/bench/replay-L1 adapters/preload/check_trace.sh \
    adapters/lua/workload.lua $(REPLAY_TRACES),\
    adapters/preload/check_trace.sh $$(abspath $$(@D))/runs $(ADAPTERS_ABS_SO) $(abspath $(BUILD)/bench/replay-L1) \
    $(CURDIR)/adapters/lua/workload.lua $(abspath $(REPLAY_TRACES))))
