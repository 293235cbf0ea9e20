# bench/bench.mk - `make bench`: ref's kernels against NumPy, memory, scaling -> reports/bench.md.
#
#   $(BUILD)/kernel-bench    times bc_eval on the large broadcasts (bench/kernel_bench.c)
#   $(BUILD)/fork-floor      forks N processes that each die of SIGSEGV (bench/fork_floor.c): a crash's floor
#   make bench               runs every benchmark (kernels, memory, generation, runner, explore) and writes reports/bench.md and
#                            reports/bench-scaling.svg, reports/bench-runner-scaling.svg (bench/report.py); BENCH_RUNS sets the runs,
#                            BENCH_GEN=0 skips timing `make cases` (which rewrites cases/)
#   make bench-quick         5 runs, a shorter sweep, no `make cases` (for development)
# The runner parts need $(BUILD)/bcast-run, $(BUILD)/targets/ref.so and cases/*.cases.

BENCH_BIN  := $(BUILD)/kernel-bench
BENCH_RUNS ?= 7
BENCH_GEN  ?= 1

$(BENCH_BIN): $(BUILD)/bench/kernel_bench.o $(REF_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) $(LDLIBS_M)

ALL_TARGETS += $(BENCH_BIN)
-include $(BUILD)/bench/kernel_bench.d

# ref's sum-to-shape (grad mode's reduction, B23) against NumPy's sum(keepdims=True)
SUM_BENCH := $(BUILD)/sum-bench
$(SUM_BENCH): $(BUILD)/bench/sum_bench.o $(REF_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(EXTRA_LDFLAGS) $(LDLIBS_M)
ALL_TARGETS += $(SUM_BENCH)
-include $(BUILD)/bench/sum_bench.d

# the kernel's floor under a crashed worker (fork, SIGSEGV, waitpid), for section 6
FORK_FLOOR := $(BUILD)/fork-floor
$(FORK_FLOOR): $(BUILD)/bench/fork_floor.o
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(EXTRA_LDFLAGS)
ALL_TARGETS += $(FORK_FLOOR)
-include $(BUILD)/bench/fork_floor.d

# The Python checker is tested on the runner's hand-checked fixture: its last
# line is "N passed, N failed, N skipped".
TESTS += "$(PYTHON) bench/py_checker.py tests/runner/fixtures/basic"

bench: $(BENCH_BIN) $(SUM_BENCH) $(FORK_FLOOR)
	@test -x $(BUILD)/bcast-run || echo "bench: note: $(BUILD)/bcast-run missing, runner parts will be skipped (run make first)"
	$(PYTHON) bench/report.py --build $(BUILD) --runs $(BENCH_RUNS) --gen $(BENCH_GEN) --out reports

bench-quick: $(BENCH_BIN) $(SUM_BENCH) $(FORK_FLOOR)
	$(PYTHON) bench/report.py --build $(BUILD) --runs 5 --max-k 22 --gen 0 --out reports

.PHONY: bench bench-quick
