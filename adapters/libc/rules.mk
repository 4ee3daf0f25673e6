# SPDX-License-Identifier: MIT
# adapters/libc/rules.mk - the drop-in C allocator's tests; included by the
# top-level Makefile, whose variables (BUILD, ARM_CC, STD, WARN, CM_*, boards'
# flags, QEMU...) it uses.
#
#   make test-libc     just these (installs or names the packages they need)
#   make test          these with everything else (in test-boards)
#
# What runs, each through tests/run.sh into $(BUILD)/test/<name>/:
#   libc-<libc>-<board>-<opt>-L<level>[-nocount]
#       adapters/libc/test/main.c under QEMU: the C library's own allocations
#       (stdio buffers, strdup, asprintf, printf and strtod of floats,
#       open_memstream or fmemopen, regcomp) and the C/POSIX entry points on
#       stow_malloc.c's heap, an interrupt handler allocating alongside the main
#       loop, stow_malloc_check() at the end; the heap's figures in the log.
#       newlib-nano (--specs=nano.specs; also the full newlib, on the M4, as
#       newlib-full; no crt0: the project's start-up,
#       linker/cortex-m.ld and semihosting port, and the system calls of
#       test/sys.c) and picolibc (--specs=picolibc.specs: its crt0-hosted and
#       picolibc.ld, placed with --defsym from the board's memory; stdio on
#       test/sys.c's console stream), on the micro:bit (Cortex-M0, 16 KiB of RAM,
#       an 8 KiB heap) and mps2-an386 (Cortex-M4, a 64 KiB heap).
#   libc-<...>-alone
#       test/alone.sh on that image's map: the allocator entry points all come
#       from stow_malloc.o, no allocator object of the C library is linked,
#       nothing defines or references sbrk/_sbrk/_sbrk_r/__malloc_lock, and the
#       heap's storage is there at its configured size.
#   libc-<libc>-control
#       the same check on a program linked with the C library's own allocator
#       (test/control.c): it must fail, naming that allocator.
# These images are the one place where the kit links a C library (the
# documented exception to -nostdlib).

LIBC_DIR := adapters/libc
LIBC_DEPS := $(LIBC_DIR)/stow_malloc.c $(LIBC_DIR)/stow_malloc.h $(LIBC_DIR)/stow_malloc_config.h \
             $(LIB_DEPS) $(LIBC_DIR)/rules.mk
LIBC_TEST_SRC := $(LIBC_DIR)/test/main.c $(LIBC_DIR)/test/sys.c tests/harness.c
LIBC_TEST_DEPS := $(LIBC_TEST_SRC) tests/harness.h $(BUILD)/gen/suites.h

# The C libraries come from Debian's packages, installed like the other tools.
# Neither package has a command, so the "command" is a file each installs (the
# tools rule's `command -v` accepts a path under Debian's /bin/sh, dash).
TOOL_newlib := /usr/lib/arm-none-eabi/newlib/nano.specs:libnewlib-arm-none-eabi
TOOL_picolibc := /usr/lib/picolibc/arm-none-eabi/picolibc.specs:picolibc-arm-none-eabi
TOOLS_test += newlib picolibc
TOOLS_tools += newlib picolibc

LIBC_SPECS_newlib := --specs=nano.specs
LIBC_SPECS_newlib-full :=
LIBC_SPECS_picolibc := --specs=picolibc.specs
# $(1) board: what each libc links besides the test and the library.
LIBC_LINK_newlib = -nostartfiles -u _printf_float -Tlinker/cortex-m.ld -Llinker -Ltargets/$(1) \
                   $(CM_SUPPORT) $(CM_PORT)
LIBC_LINK_newlib-full = $(call LIBC_LINK_newlib,$(1))
LIBC_LINK_picolibc = --crt0=hosted $(LIBC_MEMORY_$(1)) -Wl,--defsym=__stack_size=0x1000 \
                     port/cortex-m/semihost.c $(CM_PORT)
# picolibc.ld's memory, as targets/<board>/memory.ld gives it.
LIBC_MEMORY_microbit := -Wl,--defsym=__flash=0x0,--defsym=__flash_size=0x40000 \
                        -Wl,--defsym=__ram=0x20000000,--defsym=__ram_size=0x4000
LIBC_MEMORY_mps2-an386 := -Wl,--defsym=__flash=0x0,--defsym=__flash_size=0x400000 \
                          -Wl,--defsym=__ram=0x20000000,--defsym=__ram_size=0x400000
# The heap, and the micro:bit's smaller test sizes and valloc page.
LIBC_HEAP_microbit := 8192
LIBC_HEAP_mps2-an386 := 65536
LIBC_OPTS_microbit := -DSTOW_LIBC_TEST_SMALL -DSTOW_MALLOC_PAGE_SIZE=256u
LIBC_OPTS_mps2-an386 :=

LIBC_RESULTS :=
# $(1) libc (newlib, picolibc), $(2) board, $(3) optimisation, $(4) check level,
# $(5) STOW_MALLOC_COUNT, $(6) name suffix
define LIBC_TEST
$(BUILD)/test/libc-$(1)-$(2)-$(3)-L$(4)$(6)/stow_malloc.o: $(LIBC_DEPS)
	@mkdir -p $$(@D)
	$(Q)$(ARM_CC) $(STD) $(WARN) -$(3) -g -ffunction-sections -fdata-sections -mno-unaligned-access \
	    $($(2)_CFLAGS) $(LIBC_SPECS_$(1)) -DSTOW_CHECK_LEVEL=$(4) -DSTOW_MALLOC_HEAP_BYTES=$(LIBC_HEAP_$(2))u \
	    -DSTOW_MALLOC_COUNT=$(5) $(LIBC_OPTS_$(2)) $(INC) -I$(LIBC_DIR) -c $(LIBC_DIR)/stow_malloc.c -o $$@
$(BUILD)/test/libc-$(1)-$(2)-$(3)-L$(4)$(6)/firmware.elf: $(BUILD)/test/libc-$(1)-$(2)-$(3)-L$(4)$(6)/stow_malloc.o \
        $(LIBC_TEST_DEPS) $(CM_PORT_DEPS) targets/$(2)/board.mk targets/$(2)/memory.ld
	$(Q)$(ARM_CC) $(STD) $(WARN) -$(3) -g -ffunction-sections -fdata-sections -mno-unaligned-access \
	    $($(2)_CFLAGS) $(LIBC_SPECS_$(1)) -DSTOW_CHECK_LEVEL=$(4) -DSTOW_MALLOC_HEAP_BYTES=$(LIBC_HEAP_$(2))u \
	    -DSTOW_MALLOC_COUNT=$(5) $(LIBC_OPTS_$(2)) -DSTOW_LIBC_TEST_FILE='"$$(@D)/file.txt"' \
	    $(TEST_INC) -I$(LIBC_DIR) -Wl,--gc-sections -Wl,-Map=$$(@D)/firmware.map,--cref \
	    $(call LIBC_LINK_$(1),$(2)) $(LIB_SRC) $(LIBC_TEST_SRC) $$< -o $$@
$(BUILD)/test/libc-$(1)-$(2)-$(3)-L$(4)$(6)/result: $(BUILD)/test/libc-$(1)-$(2)-$(3)-L$(4)$(6)/firmware.elf FORCE
	@tests/run.sh libc-$(1)-$(2)-$(3)-L$(4)$(6) $$(@D) timeout $(QEMU_TIMEOUT) $(QEMU) $($(2)_QEMU) \
	    $(QEMU_RUN) -kernel $$<
$(BUILD)/test/libc-$(1)-$(2)-$(3)-L$(4)$(6)-alone/result: \
        $(BUILD)/test/libc-$(1)-$(2)-$(3)-L$(4)$(6)/firmware.elf $(LIBC_DIR)/test/alone.sh FORCE
	@tests/run.sh libc-$(1)-$(2)-$(3)-L$(4)$(6)-alone $$(@D) $(LIBC_DIR)/test/alone.sh $(1) \
	    $$(<D)/firmware.map $$(<D)/stow_malloc.o $(LIBC_HEAP_$(2))
LIBC_RESULTS += $(BUILD)/test/libc-$(1)-$(2)-$(3)-L$(4)$(6)/result \
                $(BUILD)/test/libc-$(1)-$(2)-$(3)-L$(4)$(6)-alone/result
endef
# Both libcs on both cores at the default level, counting calls; and without
# the counters (each call through stow_heap_*_isr) at the other levels.
$(foreach l,newlib picolibc,$(foreach b,microbit mps2-an386,$(eval $(call LIBC_TEST,$(l),$(b),O2,1,1))))
$(eval $(call LIBC_TEST,newlib,microbit,Os,2,0,-nocount))
$(eval $(call LIBC_TEST,picolibc,mps2-an386,Os,0,0,-nocount))
# The full newlib (no nano.specs), whose allocator objects are other ones.
$(eval $(call LIBC_TEST,newlib-full,mps2-an386,O2,1,1))

# The check must be able to fail: a program with the C library's own allocator.
LIBC_CONTROL_newlib := --specs=nano.specs --specs=nosys.specs
LIBC_CONTROL_picolibc := --specs=picolibc.specs $(LIBC_MEMORY_microbit)
define LIBC_CONTROL
$(BUILD)/test/libc-$(1)-control/control.elf: $(LIBC_DIR)/test/control.c $(LIBC_DIR)/rules.mk
	@mkdir -p $$(@D)
	$(Q)$(ARM_CC) $(STD) $(WARN) -O2 -ffunction-sections -fdata-sections $(microbit_CFLAGS) \
	    $(LIBC_CONTROL_$(1)) -Wl,--gc-sections -Wl,-Map=$$(@D)/control.map,--cref $$< -o $$@
$(BUILD)/test/libc-$(1)-control/result: $(BUILD)/test/libc-$(1)-control/control.elf $(LIBC_DIR)/test/alone.sh FORCE
	@status=0; $(LIBC_DIR)/test/alone.sh $(1) $$(@D)/control.map stow_malloc.o >$$(@D)/log 2>&1 || status=$$$$?; \
	if [ $$$$status -eq 1 ] && [ "$$$$(tail -n 1 $$(@D)/log)" = "0 passed, 3 failed" ]; then \
	    echo "1 0" >$$@; r="1 passed, 0 failed"; \
	else echo "0 1" >$$@; r="0 passed, 1 failed"; cat $$(@D)/log; fi; \
	printf '%-34s %s\n' libc-$(1)-control "$$$$r"
LIBC_RESULTS += $(BUILD)/test/libc-$(1)-control/result
endef
$(foreach l,newlib picolibc,$(eval $(call LIBC_CONTROL,$(l))))

BOARD_RESULTS += $(LIBC_RESULTS)

.PHONY: test-libc
test-libc:
	@$(MAKE) --no-print-directory tools-test TOOLS_test="arm qemu newlib picolibc"
	@$(MAKE) --no-print-directory -j$(JOBS) $(LIBC_RESULTS)
	@tests/total.sh $(LIBC_RESULTS)
