# bcast - the one entry point. See README.md for the commands and the layout.
#
#   make              build everything into build/
#   make test         build and run every test; last line "N passed, N failed"
#   make run          run the whole default suite against the reference target, all four profiles
#   make cases        regenerate cases/ with the four oracles (needs PYTHON and PYTHON2)
#   make cases-check  regenerate into a temp dir and diff against cases/
#   make sanitize     build with -fsanitize=address,undefined and run the tests

PYTHON  ?= /usr/bin/python3
# NumPy 2 / torch 2 (.venv/oracles, `sh .ci/install-deps`; .ci/python/python.mk),
# defined here because the parts' TESTS lines expand it as they are read.
PYTHON2 ?= .venv/oracles/bin/python
CC      ?= cc
BUILD   ?= build
WARN    := -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wstrict-prototypes
OPT     ?= -O2 -g
CFLAGS  ?=
# bcast's version, the one definition: reports and the bundled targets print it.
BCAST_VERSION := 0.1.0
ALL_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -DBCAST_VERSION='"$(BCAST_VERSION)"' $(WARN) $(OPT) \
              -Iinclude $(CFLAGS) $(EXTRA_CFLAGS)
LDLIBS_M := -lm

# Every part appends its tests to TESTS: commands whose last output line is
# "N passed, N failed" (tests/run-tests.sh adds them up).
TESTS :=
ALL_TARGETS :=

include ref/ref.mk
-include runner/runner.mk
-include targets/targets.mk
-include gen/gen.mk
-include bench/bench.mk
-include report/report.mk
-include fuzz/fuzz.mk
-include tests/seeded/seeded.mk
# The PyPI environments (.venv/, from .ci/python/*.lock): PYTHON2 and their tests.
-include .ci/python/python.mk
# Third-party adapters: one folder each under targets/, with its own target.mk.
-include $(wildcard targets/*/target.mk)

.DEFAULT_GOAL := all
all: $(ALL_TARGETS)

test: all
	@sh tests/run-tests.sh $(TESTS)

SAN_BUILD ?= build-san
sanitize:
	$(MAKE) BUILD=$(SAN_BUILD) OPT="-O1 -g -fno-omit-frame-pointer" \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" \
	  EXTRA_LDFLAGS="-fsanitize=address,undefined" test

clean:
	rm -rf build build-san

.PHONY: all test sanitize clean
# Keep intermediate objects: make must not delete them after a build (its
# "rm ..." line would otherwise end `make test`, whose last line is the summary).
.SECONDARY:
