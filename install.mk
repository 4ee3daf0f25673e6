# SPDX-License-Identifier: MIT
# install.mk - `make install` and the consumer tests of the installed tree; included
# last by the Makefile (it uses the toolchains' variables: ARM_CC, RV_CC, CM_FLAGS,
# RV_FLAGS...). docs/embedding.md is the user's page for all of this.
#
# make install [PREFIX=/usr/local] [DESTDIR=] [STOW_CHECK_LEVEL=1] [STOW_HANDLE_INDEX_BITS=16]
#              [STOW_GENERATION_OVERFLOW=WRAP|RETIRE] [STOW_MALLOC_HEAP_BYTES=8192]
#   include/stow/*.h, stow.hpp          the headers, and build_check.h (the options check
#                                       of the CMake targets)
#   include/stow/adapters/              stow_malloc.h, stow_malloc_config.h, stow_lua.h,
#                                       stow_cjson.h, stow_mbedtls.h, stow_lwip.h
#   lib/libstow.a                       host: lib/ and the POSIX port (link with -pthread)
#   lib/stow/<variant>/libstow.a        lib/ and the library port of each ABI in
#                                       cmake/stow_variants.txt (Cortex-M0 to M55, soft
#                                       and hard float; RV32IMAC and RV32IMC)
#   lib/stow/<variant>/libstow_malloc.a (Arm) adapters/libc/stow_malloc.c for newlib-nano,
#                                       a heap of STOW_MALLOC_HEAP_BYTES
#   lib/pkgconfig/stow.pc, stow-<variant>.pc, stow-malloc-<variant>.pc
#   lib/cmake/stow/                     stowConfig.cmake, stowConfigVersion.cmake and
#                                       what they include (find_package(stow))
#   bin/stow_report, bin/stow_budgets   the memory report and budget tools
#   share/stow/linker/                  stow.ld, stow_registry.ld, stow_budgets.ld (and
#                                       the test boards' cortex-m.ld, riscv.ld)
#   share/stow/cmake/                   the toolchain files
#   share/stow/port/<port>/             every port's sources, test support included
#   share/stow/targets/                 the QEMU boards' start-up code (cortex-m, riscv)
#   share/stow/adapters/libc/           stow_malloc.c, to build with another heap size
# The libraries are built once per option set under $(BUILD)/install/<options>/, all
# variants in parallel (-j$(JOBS)).
PREFIX ?= /usr/local
DESTDIR ?=
STOW_CHECK_LEVEL ?= 1
STOW_HANDLE_INDEX_BITS ?= 16
STOW_GENERATION_OVERFLOW ?= WRAP
STOW_MALLOC_HEAP_BYTES ?= 8192
INSTALL_OVERFLOW = $(STOW_GENERATION_OVERFLOW:STOW_GEN_%=%)

# ---- the variants: one line each in cmake/stow_variants.txt ("name | toolchain |
# flags | description"), read once into VARIANT_TC_<v>, VARIANT_FLAGS_<v>, VARIANT_DESC_<v>.
VARIANTS_FILE := cmake/stow_variants.txt
define STOW_NEWLINE


endef
$(eval $(subst @@,$(STOW_NEWLINE),$(shell awk -F'|' '/^[a-z0-9-]+[ \t]*\|/ { \
    for (i = 1; i <= 4; i++) { gsub(/^[ \t]+|[ \t]+$$/, "", $$i) } \
    printf "INSTALL_VARIANTS += %s@@VARIANT_TC_%s := %s@@VARIANT_FLAGS_%s := %s@@VARIANT_DESC_%s := %s@@", \
        $$1, $$1, $$2, $$1, $$3, $$1, $$4 }' $(VARIANTS_FILE))))
# What each toolchain builds with: compiler, archiver, flags, library port.
TC_CC_arm := $(ARM_CC)
TC_AR_arm := arm-none-eabi-ar
TC_FLAGS_arm := -Os -g $(CM_FLAGS)
TC_PORT_arm := cortex-m
TC_CC_riscv := $(RV_CC)
TC_AR_riscv := riscv64-unknown-elf-ar
TC_FLAGS_riscv := -Os -g $(RV_FLAGS)
TC_PORT_riscv := riscv
VARIANT_TC_host := host
TC_CC_host := $(CC_gcc)
TC_AR_host := ar
TC_FLAGS_host := -O2 -g
TC_PORT_host := host
ARM_VARIANTS := $(foreach v,$(INSTALL_VARIANTS),$(if $(filter arm,$(VARIANT_TC_$(v))),$(v)))

# ---- the libraries of one option set
# $(1) option-set directory, $(2) its -D flags, $(3) variant
define INSTALL_LIB
$(1)/$(3)/lib/%.o: lib/src/%.c $(LIB_DEPS)
	@mkdir -p $$(@D)
	$(Q)$(TC_CC_$(VARIANT_TC_$(3))) $(STD) $(WARN) $(TC_FLAGS_$(VARIANT_TC_$(3))) $(VARIANT_FLAGS_$(3)) \
	    $(2) $(INC) -c $$< -o $$@
$(1)/$(3)/port/%.o: port/$(TC_PORT_$(VARIANT_TC_$(3)))/%.c $(LIB_DEPS) \
        $(wildcard port/$(TC_PORT_$(VARIANT_TC_$(3)))/*.h)
	@mkdir -p $$(@D)
	$(Q)$(TC_CC_$(VARIANT_TC_$(3))) $(STD) $(WARN) $(TC_FLAGS_$(VARIANT_TC_$(3))) $(VARIANT_FLAGS_$(3)) \
	    $(2) $(INC) -c $$< -o $$@
$(1)/$(3)/libstow.a: $(patsubst %,$(1)/$(3)/lib/%.o,$(MODULES)) $(1)/$(3)/port/port.o $(1)/$(3)/port/assert.o
	@rm -f $$@
	$(Q)$(TC_AR_$(VARIANT_TC_$(3))) rcs $$@ $$^
endef
# $(1) option-set directory, $(2) its -D flags, $(3) Arm variant: stow_malloc.c for
# newlib-nano, in a directory of its heap size.
define INSTALL_MALLOC
$(1)/$(3)/malloc-$(STOW_MALLOC_HEAP_BYTES)/stow_malloc.o: adapters/libc/stow_malloc.c \
        adapters/libc/stow_malloc.h adapters/libc/stow_malloc_config.h $(LIB_DEPS)
	@mkdir -p $$(@D)
	$(Q)$(ARM_CC) $(STD) $(WARN) $(TC_FLAGS_arm) $(VARIANT_FLAGS_$(3)) --specs=nano.specs $(2) \
	    -DSTOW_MALLOC_HEAP_BYTES=$(STOW_MALLOC_HEAP_BYTES)u $(INC) -Iadapters/libc -c $$< -o $$@
$(1)/$(3)/malloc-$(STOW_MALLOC_HEAP_BYTES)/libstow_malloc.a: $(1)/$(3)/malloc-$(STOW_MALLOC_HEAP_BYTES)/stow_malloc.o
	@rm -f $$@
	$(Q)arm-none-eabi-ar rcs $$@ $$^
endef
# $(1) option-set directory: every file `make install` copies from it.
install_libs = $(1)/host/libstow.a $(foreach v,$(INSTALL_VARIANTS),$(1)/$(v)/libstow.a) \
               $(foreach v,$(ARM_VARIANTS),$(1)/$(v)/malloc-$(STOW_MALLOC_HEAP_BYTES)/libstow_malloc.a)
# $(1) level, $(2) index bits, $(3) overflow (WRAP or RETIRE): the option set's rules.
install_option_set = $(foreach v,host $(INSTALL_VARIANTS),$(eval $(call INSTALL_LIB,$(BUILD)/install/L$(1)-i$(2)-$(3),\
    -DSTOW_CHECK_LEVEL=$(1) -DSTOW_HANDLE_INDEX_BITS=$(2) -DSTOW_GENERATION_OVERFLOW=STOW_GEN_$(3),$(v))))\
    $(foreach v,$(ARM_VARIANTS),$(eval $(call INSTALL_MALLOC,$(BUILD)/install/L$(1)-i$(2)-$(3),\
    -DSTOW_CHECK_LEVEL=$(1) -DSTOW_HANDLE_INDEX_BITS=$(2) -DSTOW_GENERATION_OVERFLOW=STOW_GEN_$(3),$(v))))
INSTALL_CONFIG = -DSTOW_CHECK_LEVEL=$(STOW_CHECK_LEVEL) -DSTOW_HANDLE_INDEX_BITS=$(STOW_HANDLE_INDEX_BITS) \
                 -DSTOW_GENERATION_OVERFLOW=STOW_GEN_$(INSTALL_OVERFLOW)
INSTALL_OBJ = $(BUILD)/install/L$(STOW_CHECK_LEVEL)-i$(STOW_HANDLE_INDEX_BITS)-$(INSTALL_OVERFLOW)
$(call install_option_set,$(STOW_CHECK_LEVEL),$(STOW_HANDLE_INDEX_BITS),$(INSTALL_OVERFLOW))
# The option set the consumer tests install (tests/consumers/install_*.sh), built by
# the make test that runs them, in parallel with the other tests.
INSTALL_TEST_SET := L2-i16-WRAP
ifneq ($(INSTALL_TEST_SET),L$(STOW_CHECK_LEVEL)-i$(STOW_HANDLE_INDEX_BITS)-$(INSTALL_OVERFLOW))
$(call install_option_set,2,16,WRAP)
endif
INSTALL_TEST_LIBS := $(call install_libs,$(BUILD)/install/$(INSTALL_TEST_SET))

# M.m.p from stow/version.h (0.0.0 where it has none).
version_part = $(shell sed -n 's/^.define[[:space:]]*STOW_VERSION_$(1)[[:space:]]*\([0-9][0-9]*\).*/\1/p' \
                   lib/include/stow/version.h 2>/dev/null)
STOW_VERSION := $(or $(call version_part,MAJOR),0).$(or $(call version_part,MINOR),0).$(or $(call version_part,PATCH),0)

# $(1) file, $(2) name, $(3) description, $(4) libdir below $${prefix}, $(5) Cflags,
# $(6) Libs, $(7) Requires, $(8) flags for the variable cpuflags
define WRITE_PC
{ printf 'prefix=%s\n' '$(PREFIX)'; \
	  printf 'includedir=$${prefix}/include\nlibdir=$${prefix}/$(4)\n'; \
	  printf 'datadir=$${prefix}/share/stow\nlinkerdir=$${datadir}/linker\nportdir=$${datadir}/port\n'; \
	  printf 'cpuflags=%s\n\n' '$(8)'; \
	  printf 'Name: %s\nDescription: %s\nVersion: %s\n' '$(2)' '$(3)' '$(STOW_VERSION)'; \
	  if [ -n '$(7)' ]; then printf 'Requires: %s\n' '$(7)'; fi; \
	  printf 'Cflags: %s\nLibs: %s\n' '$(5)' '$(6)'; \
	} >'$(1)'
endef
PC_CFLAGS = -I$${includedir} $(INSTALL_CONFIG)
PC_PORT_arm := Cortex-M library port
PC_PORT_riscv := RISC-V library port

.PHONY: install install-libs tools-install
TOOLS_install := gcc arm rv newlib
tools-install:
	@$(MAKE) --no-print-directory tools-tools TOOLS_tools="$(TOOLS_install)"
# The libraries in parallel, then the copy.
install-libs: tools-install
	@$(MAKE) --no-print-directory -j$(JOBS) $(call install_libs,$(INSTALL_OBJ))
install: install-libs
	$(Q)d='$(DESTDIR)$(PREFIX)'; \
	install -d "$$d/include/stow/adapters" "$$d/lib/pkgconfig" "$$d/lib/cmake/stow" "$$d/bin" \
	    "$$d/share/stow/linker" "$$d/share/stow/cmake" "$$d/share/stow/adapters/libc" && \
	install -m 644 lib/include/stow/*.h lib/include/stow/*.hpp "$$d/include/stow/" && \
	install -m 644 cmake/stow_build_check.h "$$d/include/stow/build_check.h" && \
	install -m 644 adapters/libc/stow_malloc.h adapters/libc/stow_malloc_config.h adapters/lua/stow_lua.h \
	    adapters/cjson/stow_cjson.h adapters/mbedtls/stow_mbedtls.h adapters/lwip/stow_lwip.h \
	    "$$d/include/stow/adapters/" && \
	install -m 644 adapters/libc/stow_malloc.c "$$d/share/stow/adapters/libc/" && \
	install -m 644 $(INSTALL_OBJ)/host/libstow.a "$$d/lib/libstow.a" && \
	for v in $(INSTALL_VARIANTS); do \
	    install -d "$$d/lib/stow/$$v" && \
	    install -m 644 $(INSTALL_OBJ)/$$v/libstow.a "$$d/lib/stow/$$v/libstow.a" || exit 1; \
	done && \
	for v in $(ARM_VARIANTS); do \
	    install -m 644 $(INSTALL_OBJ)/$$v/malloc-$(STOW_MALLOC_HEAP_BYTES)/libstow_malloc.a \
	        "$$d/lib/stow/$$v/libstow_malloc.a" || exit 1; \
	done && \
	install -m 755 tools/stow_report.py "$$d/bin/stow_report" && \
	install -m 755 tools/stow_budgets.sh "$$d/bin/stow_budgets" && \
	install -m 644 linker/*.ld "$$d/share/stow/linker/" && \
	install -m 644 cmake/arm-none-eabi.cmake cmake/riscv-elf.cmake "$$d/share/stow/cmake/" && \
	for p in port/*/ targets/cortex-m/ targets/riscv/; do \
	    p=$${p%/}; install -d "$$d/share/stow/$$p" && \
	    install -m 644 $$(ls $$p/*.c $$p/*.h 2>/dev/null) "$$d/share/stow/$$p/" || exit 1; \
	done && \
	install -m 644 cmake/stowConfig.cmake cmake/stow_variant.cmake cmake/stow_budgets.cmake \
	    cmake/stow_variants.txt "$$d/lib/cmake/stow/" && \
	sed 's/@STOW_VERSION@/$(STOW_VERSION)/g' cmake/stowConfigVersion.cmake.in \
	    >"$$d/lib/cmake/stow/stowConfigVersion.cmake" && \
	printf '# Generated by make install: the options of the installed libraries.\nset(STOW_INSTALLED_CHECK_LEVEL %s)\nset(STOW_INSTALLED_HANDLE_INDEX_BITS %s)\nset(STOW_INSTALLED_GENERATION_OVERFLOW %s)\n' \
	    '$(STOW_CHECK_LEVEL)' '$(STOW_HANDLE_INDEX_BITS)' '$(INSTALL_OVERFLOW)' >"$$d/lib/cmake/stow/stowOptions.cmake"
	$(Q)$(call WRITE_PC,$(DESTDIR)$(PREFIX)/lib/pkgconfig/stow.pc,stow,stow allocator kit for the host: library and POSIX port,lib,$(PC_CFLAGS),-L$${libdir} -lstow -pthread,,)
	$(Q)$(foreach v,$(INSTALL_VARIANTS),$(call WRITE_PC,$(DESTDIR)$(PREFIX)/lib/pkgconfig/stow-$(v).pc,stow-$(v),stow allocator kit for $(VARIANT_DESC_$(v)): library and $(PC_PORT_$(VARIANT_TC_$(v))),lib/stow/$(v),$(PC_CFLAGS),-L$${libdir} -L$${linkerdir} -lstow,,$(VARIANT_FLAGS_$(v))) &&) true
	$(Q)$(foreach v,$(ARM_VARIANTS),$(call WRITE_PC,$(DESTDIR)$(PREFIX)/lib/pkgconfig/stow-malloc-$(v).pc,stow-malloc-$(v),malloc for newlib-nano on a stow heap of $(STOW_MALLOC_HEAP_BYTES) bytes ($(VARIANT_DESC_$(v))),lib/stow/$(v),-I$${includedir}/stow/adapters,-L$${libdir} -Wl$(comma)-u$(comma)malloc -lstow_malloc,stow-$(v),$(VARIANT_FLAGS_$(v))) &&) true
	@echo "installed stow $(STOW_VERSION) in $(DESTDIR)$(PREFIX) ($(INSTALL_CONFIG)): host $(INSTALL_VARIANTS)"

# ---------------------------------------------------------------- consumers
# Projects that use stow the way a user's would, each a fixed list of steps that
# print "ok"/"FAIL" and end "N passed, N failed" (tests/consumers/common.sh); the
# user's page for all of them is docs/embedding.md:
#   consumer-cmake-ctest         stow as the top-level CMake project, non-default options; ctest
#   consumer-cmake-firmware      tests/consumers/firmware: add_subdirectory, the toolchain file,
#                                its own linker script around stow.ld, budgets
#                                (stow_check_budgets: fits, and one over fails), QEMU mps2-an386
#   consumer-fetchcontent-cxx    tests/consumers/cxx: C++17 in two files, FetchContent from a
#                                local clone at one commit, -Wold-style-cast -Werror
#   consumer-fetchcontent-cross  the firmware with FetchContent and a toolchain file of the
#                                project's own (Cortex-M7 hard float) or copied from stow's
#                                (Cortex-M33 hard float), run under QEMU
#   consumer-install-pkgconfig   make install (PREFIX, DESTDIR), then a host program and the
#                                firmware for every installed ABI built with pkg-config, each
#                                run under QEMU; hard float against the soft library fails
#   consumer-find-package-make   find_package(stow) after make install, the tree moved: host,
#                                Cortex-M4F firmware (budgets, stow_report, stow::malloc), a
#                                core no library fits, an option mismatch
#   consumer-find-package-cmake  find_package(stow) after cmake --install (host and Cortex-M4F
#                                into one prefix), moved: host (CMake, pkg-config), firmware
#   consumer-option-mismatch     tests/consumers/mismatch: targets with a STOW_CHECK_LEVEL,
#                                index bits or overflow of their own fail, naming both values
#   consumer-zephyr-module       zephyr/ and samples/hello_stow without Zephyr: kconfiglib,
#                                the module's CMake with stand-ins, a Zephyr-layout link with
#                                --orphan-handling=error, budgets, sample.yaml's harness
#   manifests                    library.json and the Zephyr module against schemas
#                                (tests/consumers/check_manifests.py)
# Build trees stay in $(BUILD)/consumers/<name>, so a run rebuilds only what changed.
# The install tests take their libraries from INSTALL_TEST_LIBS, built by this make
# (in parallel with everything else), so their `make install` only copies.
CONSUMERS := cmake-ctest cmake-firmware fetchcontent-cxx fetchcontent-cross install-pkgconfig \
             find-package-make find-package-cmake option-mismatch zephyr-module
define CONSUMER
$(BUILD)/test/consumer-$(1)/result: FORCE
	@STOW_BUILD='$(BUILD)' DEBIAN_PYTHON='$(DEBIAN_PYTHON)' tests/run.sh consumer-$(1) $$(@D) \
	    tests/consumers/$(subst -,_,$(1)).sh '$(CURDIR)' '$(abspath $(BUILD))/consumers/$(1)'
HOST_RESULTS += $(BUILD)/test/consumer-$(1)/result
endef
$(foreach c,$(CONSUMERS),$(eval $(call CONSUMER,$(c))))
$(BUILD)/test/consumer-install-pkgconfig/result $(BUILD)/test/consumer-find-package-make/result: \
    $(INSTALL_TEST_LIBS)
# The manifests' schemas, YAML and Kconfig through Debian's Python and its packages.
DEBIAN_PYTHON := /usr/bin/python3
TOOL_jsonschema := /usr/lib/python3/dist-packages/jsonschema/__init__.py:python3-jsonschema
TOOL_pyyaml := /usr/lib/python3/dist-packages/yaml/__init__.py:python3-yaml
TOOL_kconfiglib := /usr/lib/python3/dist-packages/kconfiglib.py:python3-kconfiglib
TOOLS_test += jsonschema pyyaml kconfiglib
TOOLS_tools += jsonschema pyyaml kconfiglib
$(BUILD)/test/manifests/result: FORCE
	@tests/run.sh manifests $(@D) $(DEBIAN_PYTHON) tests/consumers/check_manifests.py '$(CURDIR)'
HOST_RESULTS += $(BUILD)/test/manifests/result

.PHONY: test-consumers
# make test-consumers: these checks alone (with the tools they need).
test-consumers: tools-test
	@$(MAKE) --no-print-directory -j$(JOBS) $(foreach c,$(CONSUMERS),$(BUILD)/test/consumer-$(c)/result) \
	    $(BUILD)/test/manifests/result
	@tests/total.sh $(foreach c,$(CONSUMERS),$(BUILD)/test/consumer-$(c)/result) $(BUILD)/test/manifests/result
