# gen/gen.mk - case generation with NumPy and torch (gen/), and the checks on cases/.
#
#   make cases             regenerate cases/ (every default suite) with the four oracles: NumPy 1.24
#                          and torch 1.13 ($(PYTHON)), NumPy 2 and torch 2 ($(PYTHON2), .venv/oracles),
#                          merged into one record per case (gen/make_cases4.py); then cross-check
#                          them against ref in all four profiles when the runner is built
#   make cases-check       regenerate into a temp dir and diff against cases/
#   make cases-crosscheck  run cases/ through bcast-run + ref in the four profiles; list failures
#   make cases-large       the opt-in `large` suite (gigabyte outputs and storages; see gen/suite_large.py)
#   make confirm FILE=F    promote explored cases (bcast-run explore --emit F): the four oracles
#                          (NumPy 2/torch 2, then NumPy 1.24/torch 1.13) re-derive their
#                          expectations, ref must agree (exit 1 and the case
#                          when it does not: a ref bug); confirmed inputs go to
#                          gen/explored/inputs.cases and `cases/explored.cases` is regenerated
#   make explore-check     CI: EXPLORE_CHECK_CASES random cases of bcast-run explore's stream
#                          (seed EXPLORE_CHECK_SEED), ref's answers checked against NumPy and torch
#
# Expected outputs of more than a few elements are written as FNV-1a digests,
# hashed by the C helper $(GEN_FNV) (built by `make`).

GEN_JOBS     ?= 2
GEN_FNV      := $(BUILD)/gen/fnv1a64
# NumPy picks its SIMD kernels at run time: on a CPU with AVX-512 its SVML
# pow/exp/... differ from the AVX2 ones in the last bit of some f32 and f64
# results, so the same NumPy wrote different cases on different machines. The
# oracles run with NumPy's AVX-512 kernels off, as on an AVX2-only machine,
# where the committed cases/ were made (NumPy only warns about a name it
# cannot disable, e.g. on a CPU without AVX-512).
GEN_NPY_SIMD := NPY_DISABLE_CPU_FEATURES="AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL"
# Both generations, in parallel, merged (the NumPy SIMD setting holds for both).
GEN_PY        = $(GEN_NPY_SIMD) BCAST_FNV1A64=$(GEN_FNV) $(PYTHON) gen/make_cases4.py \
                --python1 $(PYTHON) --python2 $(PYTHON2)
GEN_SUITES   := exhaustive ops ranks zero-size layouts inplace nary views matmul legacy promotion seeds sizes grad explored weak mathops fullrange
CROSS_RUNNER ?= $(BUILD)/bcast-run
CROSS_TARGET ?= $(BUILD)/targets/ref.so
ALL_TARGETS  += $(GEN_FNV)

# Without .venv/oracles the generation-2 expectations cannot be made: fail, never
# write generation-1-only files.
GEN_NEEDS_PY2 = @command -v $(PYTHON2) >/dev/null 2>&1 || { \
  echo "$@: $(PYTHON2) is missing: the NumPy 2 / torch 2 oracles (profiles numpy2, torch2) run in" \
       ".venv/oracles; install it with: sh .ci/install-deps" >&2; exit 1; }

cases: $(GEN_FNV)
	$(GEN_NEEDS_PY2)
	$(GEN_PY) --out cases --jobs $(GEN_JOBS)
	@if [ -x "$(CROSS_RUNNER)" ] && [ -f "$(CROSS_TARGET)" ]; then \
	  $(MAKE) --no-print-directory cases-crosscheck || { \
	    echo "cases: CROSS-CHECK FAILED: the cases above disagree with ref (a bug in ref or gen/; make cases-crosscheck repeats it)"; \
	    exit 1; }; \
	else \
	  echo "cases: cross-check SKIPPED: $(CROSS_RUNNER) or $(CROSS_TARGET) not built (run make first)"; \
	fi

cases-check: $(GEN_FNV)
	$(GEN_NEEDS_PY2)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(GEN_PY) --out "$$tmp" --jobs $(GEN_JOBS) >/dev/null && \
	bad=""; for s in $(GEN_SUITES); do \
	  [ ! -e "$$tmp/$$s.cases" ] && [ ! -e "cases/$$s.cases" ] && continue; \
	  cmp -s "$$tmp/$$s.cases" "cases/$$s.cases" || bad="$$bad cases/$$s.cases"; \
	done; \
	if [ -n "$$bad" ]; then echo "cases-check: regenerated cases differ from the committed ones:$$bad"; exit 1; fi; \
	echo "cases-check: cases/ matches a fresh generation"

cases-crosscheck:
	$(PYTHON) gen/crosscheck.py $(CROSS_RUNNER) $(CROSS_TARGET) $(wildcard $(GEN_SUITES:%=cases/%.cases))

$(GEN_FNV): gen/fnv1a64.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(EXTRA_LDFLAGS)

cases-large: $(GEN_FNV)
	$(GEN_NEEDS_PY2)
	$(GEN_PY) --out cases --suite large --jobs $(GEN_JOBS)

# Promotion of explored cases (docs/explore.md).
confirm: $(GEN_FNV)
	@test -n "$(FILE)" || { echo "make confirm: set FILE=... (a file written by bcast-run explore --emit)" >&2; exit 2; }
	$(GEN_NEEDS_PY2)
	$(GEN_NPY_SIMD) BCAST_FNV1A64=$(GEN_FNV) $(PYTHON2) gen/confirm.py --generation 2 --jobs $(GEN_JOBS) $(FILE)
	$(GEN_NPY_SIMD) BCAST_FNV1A64=$(GEN_FNV) $(PYTHON) gen/confirm.py --jobs $(GEN_JOBS) $(FILE)
	$(GEN_PY) --out cases --suite explored --jobs 1

# CI: ref against NumPy and torch on random cases. 20000 cases take about a
# minute on 2 cores (docs/explore.md has the measurement); the seed is fixed
# so a failure reproduces.
EXPLORE_CHECK_CASES ?= 20000
EXPLORE_CHECK_SEED  ?= 1
EXPLORE_CHECK_GEN2  ?= 1
explore-check: $(CROSS_RUNNER) $(CROSS_TARGET) $(GEN_FNV)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(CROSS_RUNNER) explore --target $(CROSS_TARGET) --seed $(EXPLORE_CHECK_SEED) \
	  --cases $(EXPLORE_CHECK_CASES) --jobs 2 --emit-all --emit "$$tmp/explored.cases" >"$$tmp/run.txt" || \
	  { cat "$$tmp/run.txt"; echo "explore-check: bcast-run explore failed against ref"; exit 1; }; \
	$(GEN_NPY_SIMD) BCAST_FNV1A64=$(GEN_FNV) $(PYTHON) gen/confirm.py --check --jobs $(GEN_JOBS) "$$tmp/explored.cases" && \
	if [ "$(EXPLORE_CHECK_GEN2)" != 1 ]; then \
	  echo "explore-check: generation 2 (NumPy 2 / torch 2) SKIPPED: EXPLORE_CHECK_GEN2=$(EXPLORE_CHECK_GEN2) (1, the default, runs it)"; \
	elif command -v $(PYTHON2) >/dev/null 2>&1; then \
	  $(GEN_NPY_SIMD) BCAST_FNV1A64=$(GEN_FNV) $(PYTHON2) gen/confirm.py --check --generation 2 --jobs $(GEN_JOBS) "$$tmp/explored.cases"; \
	else echo "explore-check: generation 2 SKIPPED: $(PYTHON2) is missing (NumPy 2 / torch 2 oracles; sh .ci/install-deps)"; fi

TESTS += "sh tests/run-pytest.sh gen/tests"
# docs/semantics.md: every example block is executed against NumPy and torch.
TESTS += "$(PYTHON) gen/check_semantics_examples.py"
# the ```pycon array-api blocks, under .venv/targets/bin/python (skipped, saying so, without it)
TESTS += "$(PYTHON) gen/check_semantics_examples.py --array-api"
# ... and its NumPy 2 / torch 2 blocks (```pycon2) against .venv/oracles
TESTS += "sh tests/runner/with-python2.sh $(PYTHON2) gen/check_semantics_examples.py"

.PHONY: cases cases-check cases-crosscheck cases-large confirm explore-check
# issue #25 item 1: every op x dtype x broadcast pattern has a full-range case (fails naming the missing ones)
TESTS += "$(PYTHON) gen/check_fullrange.py cases/fullrange.cases"
