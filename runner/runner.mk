# runner/runner.mk - bcast-run (the conformance runner), its unit tests and `make run`.
#
#   $(BUILD)/bcast-run       the runner (links libbcastref.a for names and bc_eval)
#   $(BUILD)/test-runner     unit tests of the parser, comparison, selection, reports
#   make run                 the whole default suite against the bundled reference target, in both profiles

RUNNER_LIB_SRC := runner/util.c runner/caseio.c runner/call.c runner/compare.c runner/select.c runner/expect.c \
                  runner/options.c runner/session.c runner/output.c runner/case_features.c runner/findings.c runner/message_norm.c runner/feature_stats.c \
                  runner/isolate.c runner/worker.c runner/zygote.c \
                  runner/cmd_run.c runner/cmd_show.c runner/cmd_merge.c runner/cmd_shrink.c runner/cmd_explore.c \
                  runner/judge.c runner/judge_grad.c runner/report.c runner/report_text.c runner/report_json.c \
                  runner/report_tap.c runner/report_junit.c runner/report_merge.c runner/show.c \
                  runner/rng.c runner/casewrite.c runner/live.c runner/spec.c runner/explore_gen.c runner/shrink.c runner/stop.c
RUNNER_LIB_OBJ := $(RUNNER_LIB_SRC:%.c=$(BUILD)/%.o)
RUNNER_BIN     := $(BUILD)/bcast-run
RUNNER_TEST    := $(BUILD)/test-runner
RUNNER_LDLIBS  := -ldl $(LDLIBS_M)
# Functions bound at startup, not on first call: the fork server's workers
# would each resolve (and write the GOT page of) every function the fork
# server never called, once per worker.
RUNNER_LDFLAGS := -Wl,-z,now

$(RUNNER_BIN): $(BUILD)/runner/main.o $(RUNNER_LIB_OBJ) $(REF_LIB)
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
TESTS += "sh tests/runner/explore.sh $(BUILD)"
-include $(RUNNER_LIB_OBJ:.o=.d) $(BUILD)/runner/main.d $(BUILD)/runner/tests/test_runner.d $(BUILD)/runner/tests/test_explore.d

# Every registered target explored for a fixed seed and case budget (targets/explore-budgets.tsv):
# reports/<name>/explore.json and explore.cases (docs/runner.md, `explore`).
explore-reports: $(RUNNER_BIN)
	sh runner/explore-reports.sh $(BUILD) $(PYTHON) reports

.PHONY: explore-reports

# ref implements both profiles: the whole default suite is checked under each.
run: $(RUNNER_BIN) $(BUILD)/targets/ref.so
	$(RUNNER_BIN) --target $(BUILD)/targets/ref.so --profile numpy cases/
	$(RUNNER_BIN) --target $(BUILD)/targets/ref.so --profile torch cases/

.PHONY: run

