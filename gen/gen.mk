# gen/gen.mk - case generation with NumPy and torch (gen/), and the checks on cases/.
#
#   make cases             regenerate cases/ (every default suite), then cross-check
#                          them against ref when the runner is built (fails if they disagree)
#   make cases-check       regenerate into a temp dir and diff against cases/
#   make cases-crosscheck  run cases/ through bcast-run + ref in both profiles; list failures
#   make cases-large       the opt-in `large` suite (gigabyte outputs and storages; see gen/suite_large.py)
#
# Expected outputs of more than a few elements are written as FNV-1a digests,
# hashed by the C helper $(GEN_FNV) (built by `make`).

GEN_JOBS     ?= 2
GEN_FNV      := $(BUILD)/gen/fnv1a64
GEN_PY       := BCAST_FNV1A64=$(GEN_FNV) $(PYTHON) gen/make_cases.py
GEN_SUITES   := exhaustive ops ranks zero-size layouts inplace nary views matmul legacy promotion seeds sizes grad
CROSS_RUNNER ?= $(BUILD)/bcast-run
CROSS_TARGET ?= $(BUILD)/targets/ref.so
ALL_TARGETS  += $(GEN_FNV)

cases: $(GEN_FNV)
	$(GEN_PY) --out cases --jobs $(GEN_JOBS)
	@if [ -x "$(CROSS_RUNNER)" ] && [ -f "$(CROSS_TARGET)" ]; then \
	  $(MAKE) --no-print-directory cases-crosscheck || { \
	    echo "cases: CROSS-CHECK FAILED: the cases above disagree with ref (a bug in ref or gen/; make cases-crosscheck repeats it)"; \
	    exit 1; }; \
	else \
	  echo "cases: cross-check SKIPPED: $(CROSS_RUNNER) or $(CROSS_TARGET) not built (run make first)"; \
	fi

cases-check: $(GEN_FNV)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(GEN_PY) --out "$$tmp" --jobs $(GEN_JOBS) >/dev/null && \
	bad=""; for s in $(GEN_SUITES); do \
	  cmp -s "$$tmp/$$s.cases" "cases/$$s.cases" || bad="$$bad cases/$$s.cases"; \
	done; \
	if [ -n "$$bad" ]; then echo "cases-check: regenerated cases differ from the committed ones:$$bad"; exit 1; fi; \
	echo "cases-check: cases/ matches a fresh generation"

cases-crosscheck:
	$(PYTHON) gen/crosscheck.py $(CROSS_RUNNER) $(CROSS_TARGET) $(GEN_SUITES:%=cases/%.cases)

$(GEN_FNV): gen/fnv1a64.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(EXTRA_LDFLAGS)

cases-large: $(GEN_FNV)
	$(GEN_PY) --out cases --suite large --jobs $(GEN_JOBS)

TESTS += "sh tests/run-pytest.sh gen/tests"
# docs/semantics.md: every example block is executed against NumPy and torch.
TESTS += "$(PYTHON) gen/check_semantics_examples.py"

.PHONY: cases cases-check cases-crosscheck cases-large
