# targets/pipe/target.mk - the pipe target (any-language bridges, docs/pipe-protocol.md) and its tests.
#
#   $(BUILD)/targets/pipe.so   speaks the pipe protocol to the bridge command given as --target-arg
#   make pipe-check            the whole default suite through every Python/JS bridge whose
#                              library is installed (slow: minutes; numba compiles)
#   make js-bridges            npm ci --ignore-scripts in targets/js: every JS bridge's library, pinned in
#                              targets/js/package-lock.json (needs npm; node_modules is not committed)

PIPE_OBJ := $(BUILD)/targets/pipe/pipe.o
PIPE_SO  := $(BUILD)/targets/pipe.so

$(PIPE_SO): $(PIPE_OBJ) $(REF_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(TGT_LDFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) $(LDLIBS_M)

ALL_TARGETS += $(PIPE_SO)
test: $(PIPE_SO) $(TGT_DIR)/ref.so
# `make run` leaves the build ready for a bridge too (docs/pipe-protocol.md starts from pipe.so)
run: $(PIPE_SO)

# One quoted word: tests/run-tests.sh runs each argument as one command.
TESTS += "sh targets/pipe/tests/pipe-tests.sh $(BUILD) $(PYTHON)"
TESTS += "sh targets/js/tests/js-tests.sh $(BUILD) $(PYTHON)"

js-bridges: targets/js/node_modules/.package-lock.json
targets/js/node_modules/.package-lock.json: targets/js/package.json targets/js/package-lock.json
	cd targets/js && npm ci --ignore-scripts --no-audit --no-fund

pipe-check: $(PIPE_SO) $(RUNNER_BIN)
	sh targets/pipe/tests/pipe-check.sh $(BUILD) $(PYTHON)

.PHONY: js-bridges pipe-check
-include $(PIPE_OBJ:.o=.d)
