# tests/hardening/hardening.mk - hardening tests (included from fuzz/fuzz.mk):
# malformed case files and command lines, hostile targets, interrupted runs,
# the whole default suite against ref (so `make sanitize` covers it), and
# `make valgrind`. See docs/reliability.md.

# Under `make sanitize` the runner cannot be bounded with RLIMIT_AS, and the
# worker address-space limit is off: the scripts adapt (lib.sh).
HARD_ASAN := $(if $(findstring sanitize=address,$(EXTRA_CFLAGS) $(EXTRA_LDFLAGS)),1,0)

TESTS += "HARD_ASAN=$(HARD_ASAN) sh tests/hardening/malformed.sh $(BUILD)"
TESTS += "HARD_ASAN=$(HARD_ASAN) sh tests/hardening/runtime.sh $(BUILD)"

valgrind: $(RUNNER_BIN) $(RUNNER_TEST) $(REF_TEST) $(EXPLORE_TEST) $(TGT_DIR)/ref.so $(TGT_DIR)/test/wrong_shape.so $(TGT_DIR)/test/read_past_input.so $(TGT_DIR)/test/ignores_zero_size.so
	sh tests/hardening/valgrind.sh $(BUILD)

.PHONY: valgrind
