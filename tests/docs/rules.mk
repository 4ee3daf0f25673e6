# SPDX-License-Identifier: MIT
# The docs (README.md and docs/*.md) kept true by make test; included from the Makefile.
#
#   docs-links      every relative link and #anchor in README.md and docs/*.md resolves
#   docs-examples   every ```c and ```cpp block of those pages compiles against lib/include
#                   with the project's warnings (gcc, g++), and links against lib/ and the
#                   host port when it has a main or a DEFINE (tests/docs/examples.py)
#   docs-figures    every figure marked <!--fig ...--> equals the one make size / make bench
#                   recorded in bench/results/, and the size record's cells the docs cite
#                   are measured again (tests/docs/figures.py)
#
# make bench: prints the benchmarks (bench-print, in the Makefile) and keeps them as
# bench/results/bench.md; make size does the same for bench/results/size.md.

.PHONY: bench
bench:
	@bench/record.sh bench $(MAKE) --no-print-directory bench-print

DOCS_PAGES := README.md $(wildcard docs/*.md)
$(BUILD)/test/docs-links/result: tests/docs/links.py $(DOCS_PAGES) FORCE
	@tests/run.sh docs-links $(@D) python3 tests/docs/links.py .
HOST_RESULTS += $(BUILD)/test/docs-links/result

# C as the library is built (less -Wmissing-prototypes: an example is a reader's file,
# whose functions need no header); C++ with the C++ layer's warnings (tests/cxx/rules.mk),
# C++20 for constinit, exceptions on as a reader's build has them.
$(BUILD)/test/docs-examples/result: tests/docs/examples.py $(DOCS_PAGES) $(BUILD)/lib/host/libstow.a \
        $(HOST_PORT) port/host/assert.c FORCE
	@CC=$(CC_gcc) CFLAGS='$(STD) $(WARN) -Wno-missing-prototypes -O2' CXX=$(CXX_GXX) \
	    CXXFLAGS='-std=c++20 $(CXX_WARN_g++) -O2' \
	    tests/run.sh docs-examples $(@D) python3 tests/docs/examples.py . $(@D)/work $(BUILD)/lib/host/libstow.a
HOST_RESULTS += $(BUILD)/test/docs-examples/result

$(BUILD)/test/docs-figures/result: tests/docs/figures.py tests/docs/figures.conf $(DOCS_PAGES) \
        bench/results/bench.md bench/results/size.md bench/size.sh bench/hot.c $(LIB_DEPS) FORCE
	@tests/run.sh docs-figures $(@D) python3 tests/docs/figures.py . --measure $(@D)/size
HOST_RESULTS += $(BUILD)/test/docs-figures/result

.PHONY: test-docs
test-docs: $(BUILD)/test/docs-links/result $(BUILD)/test/docs-examples/result $(BUILD)/test/docs-figures/result
