# SPDX-License-Identifier: MIT
# adapters/rules.mk - stow's heap under code nobody on this team wrote (included
# by the Makefile). One folder per route, each with its test in `make test`:
#   adapters/preload/   libstow_malloc.so, an LD_PRELOAD malloc for unmodified
#                       Linux programs (make preload builds it), tested with
#                       Debian's lua5.4, python3 and openssl; its trace
#                       (STOW_HEAP_TRACE) and bench/replay.c; its size and
#                       messages (preload-limits: bad STOW_HEAP_MB, the first
#                       refusal, xz -9 -T2 at the default size)
#   adapters/lua/       stow_lua.h: a lua_Alloc (liblua5.4-dev)
#   adapters/cjson/     stow_cjson.h: cJSON_InitHooks (libcjson-dev)
#   adapters/mbedtls/   stow_mbedtls.h: mbedtls_platform_set_calloc_free hooks;
#                       libmbedcrypto run on the interposer (libmbedtls-dev)
#   adapters/lwip/      stow_lwip.h: the lwipopts.h mapping; liblwip run on the
#                       interposer (liblwip-dev)
# The trace replay of `make bench` is in bench/replay.mk, included below.
# Each check ends "N passed, N failed" and lands in HOST_RESULTS; together they
# take about 20 seconds.

ADAPTERS := $(BUILD)/adapters
ADAPTERS_RESULTS :=
ADAPTERS_CFLAGS := $(STD) $(WARN) -O2 -g $(INC)
# Debian's interpreter (a python3 earlier on PATH may be a wrapper script).
ADAPTERS_PYTHON := $(firstword $(wildcard /usr/bin/python3) python3)
# Library headers as system headers: their own code is not ours to warn about.
adapters_cflags = $$(pkg-config --cflags $(1) | sed 's/-I/-isystem /g')
adapters_libs = $$(pkg-config --libs $(1))

# ---- tools: the programs are commands (TOOL_*); the libraries are checked by a
# header each, installed the same way (apt-get as root, else the exact line).
TOOL_lua := lua5.4:lua5.4
TOOL_openssl := openssl:openssl
TOOLS_test += lua openssl
TOOLS_tools += lua openssl
ADAPTERS_LIBS := /usr/include/lua5.4/lua.h:liblua5.4-dev /usr/include/cjson/cJSON.h:libcjson-dev \
                 /usr/include/mbedtls/platform.h:libmbedtls-dev /usr/include/lwip/lwip/init.h:liblwip-dev
.PHONY: tools-adapters preload
tools-test tools-tools: tools-adapters
tools-adapters:
	@missing=""; \
	for pair in $(ADAPTERS_LIBS); do [ -e "$${pair%%:*}" ] || missing="$$missing $${pair#*:}"; done; \
	if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	        echo "stow: installing$$missing"; \
	        apt-get update -qq && \
	        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing \
	            >/tmp/stow-apt.log 2>&1 || { cat /tmp/stow-apt.log; exit 1; }; \
	    else \
	        echo "stow: missing libraries for the adapters' tests; install them with:"; \
	        echo "    sudo apt-get install -y --no-install-recommends$$missing"; \
	        exit 1; \
	    fi; \
	fi

# ---- preload: libstow_malloc.so. lib/src/heap.c and the glue in one shared
# object, every symbol hidden but the malloc family (so a program's own stow
# keeps its own), no builtins (GCC may not turn the glue's code into calls of
# the functions it defines), bound at load time.
PRELOAD_SO := $(ADAPTERS)/preload/libstow_malloc.so
PRELOAD_LEVEL ?= 1
$(PRELOAD_SO): adapters/preload/stow_malloc.c $(LIB_DEPS) adapters/rules.mk
	@mkdir -p $(@D)
	$(Q)$(CC_gcc) $(ADAPTERS_CFLAGS) -DSTOW_CHECK_LEVEL=$(PRELOAD_LEVEL) -fPIC -shared -fvisibility=hidden \
	    -fno-builtin lib/src/heap.c $< -o $@ -Wl,--no-undefined -Wl,-z,now -pthread
preload: $(PRELOAD_SO)
	@echo "built $(PRELOAD_SO): LD_PRELOAD=$(abspath $(PRELOAD_SO)) [STOW_HEAP_MB=8192] [STOW_HEAP_STATS=1] program"

$(ADAPTERS)/preload/test_preload: adapters/preload/test_preload.c adapters/rules.mk
	@mkdir -p $(@D)
	$(Q)$(CC_gcc) $(ADAPTERS_CFLAGS) $< -o $@ -pthread -ldl

# Test programs on a stow heap of their own link lib/ and the host port.
ADAPTERS_HOST := $(LIB_SRC) $(HOST_PORT) port/host/assert.c
$(ADAPTERS)/lua/test_lua: adapters/lua/test_lua.c adapters/lua/stow_lua.h $(LIB_DEPS) adapters/rules.mk
	@mkdir -p $(@D)
	$(Q)$(CC_gcc) $(ADAPTERS_CFLAGS) -Iadapters/lua $(call adapters_cflags,lua5.4) $(ADAPTERS_HOST) $< \
	    $(call adapters_libs,lua5.4) -o $@ -pthread
$(ADAPTERS)/cjson/test_cjson: adapters/cjson/test_cjson.c adapters/cjson/stow_cjson.h $(LIB_DEPS) adapters/rules.mk
	@mkdir -p $(@D)
	$(Q)$(CC_gcc) $(ADAPTERS_CFLAGS) -Iadapters/cjson $(ADAPTERS_HOST) $< $(call adapters_libs,libcjson) -o $@ -pthread
$(ADAPTERS)/mbedtls/test_mbedtls: adapters/mbedtls/test_mbedtls.c adapters/mbedtls/stow_mbedtls.h $(LIB_DEPS) \
        adapters/rules.mk
	@mkdir -p $(@D)
	$(Q)$(CC_gcc) $(ADAPTERS_CFLAGS) -Iadapters/mbedtls $(ADAPTERS_HOST) $< -lmbedcrypto -o $@ -pthread
# lwIP's headers need POSIX's ssize_t (SSIZE_MAX), hence _GNU_SOURCE.
$(ADAPTERS)/lwip/test_lwip: adapters/lwip/test_lwip.c adapters/rules.mk
	@mkdir -p $(@D)
	$(Q)$(CC_gcc) $(ADAPTERS_CFLAGS) -D_GNU_SOURCE $(call adapters_cflags,lwip) $< $(call adapters_libs,lwip) \
	    -o $@ -pthread
$(ADAPTERS)/lwip/test_mapping-%: adapters/lwip/test_mapping.c adapters/lwip/stow_lwip.h adapters/lwip/opts/lwipopts.h \
        $(LIB_DEPS) adapters/rules.mk
	@mkdir -p $(@D)
	$(Q)$(CC_gcc) $(ADAPTERS_CFLAGS) -D_GNU_SOURCE -DSTOW_LWIP_2_1=$(if $(filter 2.1,$*),1,0) -Iadapters/lwip \
	    -Iadapters/lwip/opts $(call adapters_cflags,lwip) $(ADAPTERS_HOST) $< -o $@ -pthread

# ---- the checks (tests/run.sh NAME DIR COMMAND...). The scripts run programs
# from other working directories, so every path they get is absolute.
ADAPTERS_ABS_SO := $(abspath $(PRELOAD_SO))
ADAPTERS_STEPS := adapters/steps.sh adapters/preload/compare.sh
# $(1) result name, $(2) prerequisites, $(3) command
define ADAPTERS_CHECK
$(BUILD)/test/$(1)/result: $(2) $(ADAPTERS_STEPS) FORCE
	@tests/run.sh $(1) $$(@D) $(3)
ADAPTERS_RESULTS += $(BUILD)/test/$(1)/result
endef
$(eval $(call ADAPTERS_CHECK,preload-lua5.4,$(PRELOAD_SO) adapters/lua/workload.lua,\
    adapters/preload/compare.sh lua5.4 $$(abspath $$(@D))/runs $(ADAPTERS_ABS_SO) \
    lua5.4 $(CURDIR)/adapters/lua/workload.lua))
# PYTHONMALLOC=malloc in both runs: every Python object through malloc, not only
# what Python's small-object allocator passes on.
$(eval $(call ADAPTERS_CHECK,preload-python3,$(PRELOAD_SO) adapters/preload/workload.py,\
    adapters/preload/compare.sh python3 $$(abspath $$(@D))/runs $(ADAPTERS_ABS_SO) \
    env PYTHONMALLOC=malloc $(ADAPTERS_PYTHON) -c "$$$$(cat adapters/preload/workload.py)"))
$(eval $(call ADAPTERS_CHECK,preload-openssl,$(PRELOAD_SO) adapters/preload/openssl_workload.sh,\
    adapters/preload/compare.sh openssl $$(abspath $$(@D))/runs $(ADAPTERS_ABS_SO) \
    sh $(CURDIR)/adapters/preload/openssl_workload.sh))
$(eval $(call ADAPTERS_CHECK,preload-api,$(PRELOAD_SO) $(ADAPTERS)/preload/test_preload adapters/preload/check_api.sh,\
    adapters/preload/check_api.sh $$(abspath $$(@D))/runs $(ADAPTERS_ABS_SO) \
    $(abspath $(ADAPTERS)/preload/test_preload)))
$(eval $(call ADAPTERS_CHECK,preload-limits,$(PRELOAD_SO) adapters/preload/check_limits.sh,\
    adapters/preload/check_limits.sh $$(abspath $$(@D))/runs $(ADAPTERS_ABS_SO)))
$(eval $(call ADAPTERS_CHECK,adapter-lua,$(ADAPTERS)/lua/test_lua adapters/lua/check.sh adapters/lua/workload.lua,\
    adapters/lua/check.sh $$(abspath $$(@D))/runs $(abspath $(ADAPTERS)/lua/test_lua) \
    $(CURDIR)/adapters/lua/workload.lua 30))
$(eval $(call ADAPTERS_CHECK,adapter-cjson,$(ADAPTERS)/cjson/test_cjson,$(ADAPTERS)/cjson/test_cjson))
$(eval $(call ADAPTERS_CHECK,adapter-mbedtls,$(PRELOAD_SO) $(ADAPTERS)/mbedtls/test_mbedtls adapters/mbedtls/check.sh \
    adapters/mbedtls/use_example.c adapters/mbedtls/stow_mbedtls.h,\
    adapters/mbedtls/check.sh $$(abspath $$(@D))/runs $(ADAPTERS_ABS_SO) $(abspath $(ADAPTERS)/mbedtls/test_mbedtls) \
    $(CC_gcc) $(STD) $(WARN) $(INC) -Iadapters/mbedtls))
$(eval $(call ADAPTERS_CHECK,adapter-lwip,$(PRELOAD_SO) $(ADAPTERS)/lwip/test_lwip $(ADAPTERS)/lwip/test_mapping-2.1 \
    $(ADAPTERS)/lwip/test_mapping-2.2 adapters/lwip/check.sh,\
    adapters/lwip/check.sh $$(abspath $$(@D))/runs $(ADAPTERS_ABS_SO) $(abspath $(ADAPTERS)/lwip/test_lwip) \
    $(abspath $(ADAPTERS)/lwip/test_mapping-2.1) $(abspath $(ADAPTERS)/lwip/test_mapping-2.2)))

include bench/replay.mk

HOST_RESULTS += $(ADAPTERS_RESULTS)
.PHONY: test-adapters
test-adapters: tools-adapters
	@$(MAKE) --no-print-directory -j$(JOBS) $(ADAPTERS_RESULTS)
	@tests/total.sh $(ADAPTERS_RESULTS)
