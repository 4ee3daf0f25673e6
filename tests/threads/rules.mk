# SPDX-License-Identifier: MIT
# tests/threads/rules.mk - containers shared between host threads, and per-thread
# scratch arenas (tests/threads/threads.c), in `make test`; included by the Makefile.
#
#   threads-gcc-O2-L1     the shared calls at full speed: every scenario must pass
#   threads-tsan-L2       the same under ThreadSanitizer (no report allowed), and the
#                         broken build (-DTHREADS_BROKEN: the plain calls, one lock
#                         word for every container, shared scratch arenas) under
#                         ThreadSanitizer, which must fail every scenario: a data
#                         race report, the test's own check or stow's. Without the sanitizer
#                         the broken build fails only now and then (its corruption
#                         depends on how the threads happen to interleave), so the
#                         sanitizer is what makes that half certain on every run.

THREADS_SRC := tests/threads/threads.c
THREADS_DEPS := $(THREADS_SRC) tests/xorshift.h $(LIB_DEPS) $(HOST_PORT) port/host/assert.c tests/threads/rules.mk
THREADS_TSAN := -O1 -g -fsanitize=thread -DTHREADS_OPS=20000 -DSTOW_CHECK_LEVEL=2

# $(1) output, $(2) flags
define THREADS_BUILD
$(1): $(THREADS_DEPS)
	@mkdir -p $$(@D)
	$(Q)$(CC_gcc) $(STD) $(WARN) $(2) $(INC) $(LIB_SRC) $(THREADS_SRC) $(HOST_PORT) \
	    port/host/assert.c -o $$@ -lpthread
endef
$(eval $(call THREADS_BUILD,$(BUILD)/test/threads-gcc-O2-L1/threads,-O2 -g -DSTOW_CHECK_LEVEL=1))
$(eval $(call THREADS_BUILD,$(BUILD)/test/threads-tsan-L2/threads,$(THREADS_TSAN)))
$(eval $(call THREADS_BUILD,$(BUILD)/test/threads-tsan-L2/broken,$(THREADS_TSAN) -DTHREADS_BROKEN))

$(BUILD)/test/threads-gcc-O2-L1/result: $(BUILD)/test/threads-gcc-O2-L1/threads tests/threads/run.sh FORCE
	@tests/threads/run.sh threads-gcc-O2-L1 $(@D) $<
$(BUILD)/test/threads-tsan-L2/result: $(BUILD)/test/threads-tsan-L2/threads \
    $(BUILD)/test/threads-tsan-L2/broken tests/threads/run.sh FORCE
	@tests/threads/run.sh threads-tsan-L2 $(@D) $< $(@D)/broken
HOST_RESULTS += $(BUILD)/test/threads-gcc-O2-L1/result $(BUILD)/test/threads-tsan-L2/result
