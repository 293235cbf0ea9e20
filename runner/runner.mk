# runner/runner.mk - bcast-run (the conformance runner), its unit tests and `make run`.
#
#   $(BUILD)/bcast-run       the runner (links libbcastref.a for names and bc_eval)
#   $(BUILD)/test-runner     unit tests of the parser, comparison, selection, reports
#   make run                 the whole default suite against the bundled reference target, in both profiles

# One folder per layer (docs/runner.md "Layers"; tests/layering/check_layers.py
# checks that includes only point down): each folder's files, bottom up.
RUNNER_LAYERS  := base case target isolate results judge explore cli
RUNNER_LIB_SRC := $(foreach d,$(RUNNER_LAYERS),$(filter-out runner/cli/main.c,$(sort $(wildcard runner/$(d)/*.c))))
RUNNER_LIB_OBJ := $(RUNNER_LIB_SRC:%.c=$(BUILD)/%.o)
RUNNER_BIN     := $(BUILD)/bcast-run
RUNNER_TEST    := $(BUILD)/test-runner
RUNNER_LDLIBS  := -ldl $(LDLIBS_M)
# Functions bound at startup, not on first call: the fork server's workers
# would each resolve (and write the GOT page of) every function the fork
# server never called, once per worker.
RUNNER_LDFLAGS := -Wl,-z,now
# Includes name their folder: #include "case/caseio.h".
$(RUNNER_LIB_OBJ) $(BUILD)/runner/cli/main.o: ALL_CFLAGS += -Irunner

$(RUNNER_BIN): $(BUILD)/runner/cli/main.o $(RUNNER_LIB_OBJ) $(REF_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(RUNNER_LDFLAGS) $(EXTRA_LDFLAGS) $(RUNNER_LDLIBS)

$(RUNNER_TEST): $(BUILD)/runner/tests/test_runner.o $(RUNNER_LIB_OBJ) $(REF_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) $(RUNNER_LDLIBS)

$(BUILD)/runner/tests/test_runner.o: ALL_CFLAGS += -Irunner -Itests

# grad mode: the reader's rules, the abs tolerance, the judge's classification of wrong gradients
RUNNER_GRAD_TEST := $(BUILD)/test-runner-grad
$(RUNNER_GRAD_TEST): $(BUILD)/runner/tests/test_grad_runner.o $(RUNNER_LIB_OBJ) $(REF_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) $(RUNNER_LDLIBS)
$(BUILD)/runner/tests/test_grad_runner.o: ALL_CFLAGS += -Irunner -Itests
ALL_TARGETS += $(RUNNER_GRAD_TEST)
TESTS += $(RUNNER_GRAD_TEST)
-include $(BUILD)/runner/tests/test_grad_runner.d

# explore and shrink: the PRNG, the generator, the case writer, live sets, the
# shrinker on the broken test targets (built by `make test`).
EXPLORE_TEST := $(BUILD)/test-explore
$(EXPLORE_TEST): $(BUILD)/runner/tests/test_explore.o $(RUNNER_LIB_OBJ) $(REF_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) $(RUNNER_LDLIBS)
$(BUILD)/runner/tests/test_explore.o: ALL_CFLAGS += -Irunner -Itests

ALL_TARGETS += $(RUNNER_BIN) $(RUNNER_TEST) $(EXPLORE_TEST)
TESTS += $(RUNNER_TEST)
TESTS += $(EXPLORE_TEST)
# One quoted word: tests/run-tests.sh runs each argument as one command.
TESTS += "sh tests/runner/gate.sh $(BUILD)"
# show's NumPy/torch one-liners run through the interpreter against a sample of cases (issue 13.9)
TESTS += "$(PYTHON) tests/runner/oneliners.py $(BUILD)"
# the NumPy 2 / torch 2 one-liners, with their interpreter (skipped, saying so, without it)
TESTS += "sh tests/runner/with-python2.sh $(PYTHON2) tests/runner/oneliners.py $(BUILD)"
TESTS += "sh tests/runner/explore.sh $(BUILD)"
-include $(RUNNER_LIB_OBJ:.o=.d) $(BUILD)/runner/cli/main.d $(BUILD)/runner/tests/test_runner.d $(BUILD)/runner/tests/test_explore.d

# Every registered target explored for a fixed seed and case budget (targets/explore-budgets.tsv):
# reports/<name>/explore.json and explore.cases (docs/runner.md, `explore`).
explore-reports: $(RUNNER_BIN)
	sh runner/explore-reports.sh $(BUILD) $(PYTHON) reports

.PHONY: explore-reports

# ref implements all four profiles (NumPy 1.24, torch 1.13, NumPy 2, torch 2):
# the whole default suite is checked under each.
run: $(RUNNER_BIN) $(BUILD)/targets/ref.so
	$(RUNNER_BIN) --target $(BUILD)/targets/ref.so --profile numpy cases/
	$(RUNNER_BIN) --target $(BUILD)/targets/ref.so --profile torch cases/
	$(RUNNER_BIN) --target $(BUILD)/targets/ref.so --profile numpy2 cases/
	$(RUNNER_BIN) --target $(BUILD)/targets/ref.so --profile torch2 cases/

.PHONY: run


# The layer rule, file-level circles and function length (tests/layering/check_layers.py,
# issue 27); its self-test proves each check fails on a deliberately bad tree.
TESTS += "$(PYTHON) tests/layering/check_layers.py --self-test"
TESTS += "$(PYTHON) tests/layering/check_layers.py ."
