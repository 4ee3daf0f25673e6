# SPDX-License-Identifier: MIT
# make prove: Frama-C's Eva over the drivers in proof/drivers/, one per module,
# each making every sequence of calls its module's contract allows (docs/proof.md).
# One run per module, check level and word size: 32 bits (ILP32, as Cortex-M and
# RV32) and 64 bits (LP64, as the hosts). A run passes when Eva reports no alarm
# (or only the ones proof/alarms.txt lists and explains), proves every assertion
# of the driver, and reaches every public function of the module;
# proof/summary.py prints the table and gives the verdict.
PROOF_MODULES := pool arena packed genpool slotmap report heap
PROOF_LEVELS := 0 1 2
PROOF_BITS := 32 64
# The target's word size, and max_align_t's alignment there (Frama-C 25's libc
# has no max_align_t): 8 on the 32-bit targets' EABIs, 16 on the 64-bit hosts.
PROOF_MACHDEP_32 := x86_32
PROOF_MACHDEP_64 := x86_64
PROOF_ALIGN_32 := 8
PROOF_ALIGN_64 := 16
# The arena driver's blocks lie at fixed addresses (proof/drivers/arena.c).
PROOF_OPT_arena := -absolute-valid-range 0x1000-0x101f
PROOF_OPT_packed := -absolute-valid-range 0x1000-0x1060 -eva-slevel 64
# genpool: the pool's buffer, its items and read_isr's destination at fixed
# addresses (proof/drivers/genpool.c). 30 index bits leave 3 generations, which
# the analysis follows exactly (docs/proof.md).
PROOF_OPT_genpool := -absolute-valid-range 0x1000-0x10bf \
    -eva-slevel-function stow__copy:32,stow__fill:32,stow__all_bytes:32
PROOF_CPP_genpool := -DSTOW_HANDLE_INDEX_BITS=30
# slotmap: the same layout and the same 3 generations.
PROOF_OPT_slotmap := -absolute-valid-range 0x1000-0x10bf \
    -eva-slevel-function stow__copy:32,stow__fill:32,stow__all_bytes:32
PROOF_CPP_slotmap := -DSTOW_HANDLE_INDEX_BITS=30
# report: stow_format_u's loops run up to 20 times (each exit of the first
# with its own copy loop: 210 states), the report's walks up to 5; a budget
# walk's callback walks the budgets again (a recursion two calls deep).
PROOF_OPT_report := -eva-slevel 100 -eva-slevel-function stow_format_u:400 \
    -eva-unroll-recursive-calls 3
# heap: its object, its regions and the fence between them at fixed addresses
# (proof/drivers/heap.c), the trace hook compiled in (set_trace, the writer of
# heap_trace.c), every sequence of up to STEPS calls from each start kept
# exact: main's slevel is above the number of paths; the loops the calls run
# (the layout's clearing of the class heads, check()'s walks, the trace
# writer's digits, calloc's zeroing) each with the slevel of its longest run;
# level 2's poison fills and checks run over whole pages and regions.
PROOF_OPT_heap := -absolute-valid-range 0x1000-0x213f \
    -eva-slevel-function main:20000,take:200,resize:200,got:200,queries:200 \
    -eva-slevel-function lay_out:300,put_u64:100,stow_heap_check:400,class_ok:50,row_ok:100 \
    -eva-slevel-function page_ok:300,list_ok:50,stow__fill:300,stow__zero_words:64
PROOF_OPT_heap_L1 := -eva-slevel-function misuses:200,bits_in:200
PROOF_OPT_heap_L2 := -eva-slevel-function misuses:200,bits_in:200,stow__fill:2600,stow__all_bytes:2600
# The sequences are one call long from each start (-DPROOF_HEAP_STEPS=2u makes
# them two, in runs about six times longer: docs/proof.md).
PROOF_CPP_heap := -DSTOW_HEAP_TRACE=1
PROOF_SRC_heap := lib/src/heap_trace.c
# Level 2 fills whole blocks with poison: loops of up to 24 steps.
PROOF_OPT_pool_L2 := -eva-slevel 64
# What each driver links besides its module (report: the modules it reports on).
PROOF_SRC_report := lib/src/pool.c lib/src/arena.c
# Eva's settings: every function returns one state per path (so that a call
# merges nothing the driver keeps apart), splits up to any number of cases.
PROOF_EVA := -eva -eva-precision 1 -eva-split-return full -eva-split-limit 100000 \
             -eva-no-show-progress -eva-warn-key builtins:missing-spec=abort
PROOF_RESULTS := $(foreach m,$(PROOF_MODULES),$(foreach l,$(or $(PROOF_LEVELS_$(m)),$(PROOF_LEVELS)),\
                 $(foreach b,$(PROOF_BITS),$(BUILD)/proof/$(m)-L$(l)-$(b).log)))

TOOL_framac := frama-c:frama-c-base
TOOL_time := /usr/bin/time:time
TOOLS_prove := framac python time
TOOL_GOALS += prove
TOOLS_tools += framac time
.PHONY: prove tools-prove

# $(1) module, $(2) level, $(3) bits
define PROOF_RUN
$(BUILD)/proof/$(1)-L$(2)-$(3).log: proof/drivers/$(1).c lib/src/$(1).c $(PROOF_SRC_$(1)) proof/port.c \
        proof/proof.h proof/handles.h proof/prelude.h $(LIB_DEPS) proof/proof.mk
	@mkdir -p $$(@D)
	$(Q)start=$$$$(date +%s%N); \
	/usr/bin/time -f 'proof-cpu-s %U' -o $$@.cpu frama-c -c11 -machdep $(PROOF_MACHDEP_$(3)) $(PROOF_OPT_$(1)) $(PROOF_OPT_$(1)_L$(2)) -cpp-extra-args="-Ilib/include -Iproof \
	    -include proof/prelude.h -DSTOW_DEFAULT_ALIGN=$(PROOF_ALIGN_$(3)) -DSTOW_CHECK_LEVEL=$(2) $(PROOF_CPP_$(1))" \
	    proof/drivers/$(1).c lib/src/$(1).c $(PROOF_SRC_$(1)) proof/port.c $(PROOF_EVA) \
	    >$$@.tmp 2>&1 || { tail -20 $$@.tmp; exit 1; }; \
	echo "proof-time-ms $$$$((($$$$(date +%s%N) - start) / 1000000))" >>$$@.tmp
	@cat $$@.cpu >>$$@.tmp && rm $$@.cpu && mv $$@.tmp $$@
endef
$(foreach m,$(PROOF_MODULES),$(foreach l,$(PROOF_LEVELS),$(foreach b,$(PROOF_BITS),\
    $(eval $(call PROOF_RUN,$(m),$(l),$(b))))))

prove: tools-prove
	@$(MAKE) --no-print-directory $(PROOF_RESULTS)
	$(Q)python3 proof/summary.py --alarms proof/alarms.txt $(PROOF_RESULTS)
