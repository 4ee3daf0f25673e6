# SPDX-License-Identifier: MIT
# tests/heap/rules.mk - the heap's own additions to make test (included by the
# Makefile, after adapters/libc/rules.mk):
#   host-gcc-O2-L1-heap-trace            the suites built with STOW_HEAP_TRACE 1, where
#                                        the heap's trace hook and its test exist
#   libc-newlib-mps2-an386-O2-L1-bounded the libc adapter over a bounded heap
#                                        (STOW_MALLOC_BOUNDED 1)
$(eval $(call HOST_TEST,host-gcc-O2-L1-heap-trace,$(CC_gcc),-O2 -g -DSTOW_CHECK_LEVEL=1 -DSTOW_HEAP_TRACE=1))
$(eval $(call LIBC_TEST,newlib,mps2-an386,O2,1,1 -DSTOW_MALLOC_BOUNDED=1,-bounded))
BOARD_RESULTS += $(BUILD)/test/libc-newlib-mps2-an386-O2-L1-bounded/result \
                 $(BUILD)/test/libc-newlib-mps2-an386-O2-L1-bounded-alone/result
