#!/bin/sh
# valgrind.sh - memcheck over a sample run of bcast-run (parent and forked
# workers: valgrind follows fork without --trace-children; each process logs
# to its own file) and over test-ref. Any error or definite/indirect/possible
# leak in any process fails. The workers' heap inherited through fork is
# "still reachable", not a leak.
#
#   sh tests/hardening/valgrind.sh [BUILD]      (make valgrind)
BUILD=${1:-build}
VALGRIND=${VALGRIND:-valgrind}
. tests/hardening/lib.sh
VG="$VALGRIND --leak-check=full --show-leak-kinds=definite,indirect,possible
    --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99"

# logs_clean DIR: every log has 0 errors and, when it ran a leak check, no lost bytes.
logs_clean() {
    n=0
    for f in "$1"/*.log; do
        n=$((n + 1))
        grep -q 'ERROR SUMMARY: 0 errors' "$f" || fail "$(grep -m1 'Command:' "$f"): $(grep -m1 'ERROR SUMMARY' "$f") (see $f)"
        grep -Eq '(definitely|indirectly|possibly) lost: [1-9]' "$f" && fail "leak in $f: $(grep -E 'lost: [1-9]' "$f" | head -n 3)"
        grep -Eq 'LEAK SUMMARY|no leaks are possible' "$f" || fail "no leak check in $f (process killed before exiting?)"
    done
    [ "$n" -ge 1 ] || fail "no valgrind log in $1"
}

runner_sample_clean() {
    # Three suites (~4000 cases: broadcasting, strided layouts, in-place) on 2
    # workers. BCAST_RUN_EXIT_GRACE lets each worker finish its leak check.
    mkdir -p "$TMP/run"
    BCAST_RUN_EXIT_GRACE=300 $VG --log-file="$TMP/run/vg.%p.log" "$RUN" --target "$REF" --jobs 2 \
        --id 'seeds/*' --id 'layouts/*' --id 'inplace/*' --format json --output "$TMP/run.json" \
        cases/ >"$TMP/run.out" 2>&1; vrc=$?
    [ "$vrc" -eq 0 ] || fail "bcast-run under valgrind: exit $vrc: $(tail -n 1 "$TMP/run.out")"
    echo "  $(tail -n 1 "$TMP/run.out") under memcheck, $(ls "$TMP/run" | wc -l) processes"
    logs_clean "$TMP/run"
}

test_ref_clean() {
    mkdir -p "$TMP/ref"
    $VG --log-file="$TMP/ref/vg.%p.log" "$BUILD/test-ref" >"$TMP/ref.out" 2>&1; vrc=$?
    [ "$vrc" -eq 0 ] || fail "test-ref under valgrind: exit $vrc: $(tail -n 1 "$TMP/ref.out")"
    echo "  test-ref: $(tail -n 1 "$TMP/ref.out")"
    logs_clean "$TMP/ref"
}

test_runner_clean() {
    mkdir -p "$TMP/tr"
    $VG --log-file="$TMP/tr/vg.%p.log" "$BUILD/test-runner" >"$TMP/tr.out" 2>&1; vrc=$?
    [ "$vrc" -eq 0 ] || fail "test-runner under valgrind: exit $vrc: $(tail -n 1 "$TMP/tr.out")"
    echo "  test-runner: $(tail -n 1 "$TMP/tr.out")"
    logs_clean "$TMP/tr"
}

explore_and_shrink_clean() {
    # explore (generation, live sets, judging, shrinking the findings) on a
    # broken target, and shrink on its fixture case: every process clean.
    mkdir -p "$TMP/ex"
    BCAST_RUN_EXIT_GRACE=300 $VG --log-file="$TMP/ex/vg.%p.log" "$RUN" explore --target "$BUILD/targets/test/wrong_shape.so" \
        --cases 1500 --jobs 2 --emit "$TMP/ex.cases" >"$TMP/ex.out" 2>&1; vrc=$?
    [ "$vrc" -eq 1 ] || fail "bcast-run explore under valgrind: exit $vrc (1 expected): $(tail -n 1 "$TMP/ex.out")"
    BCAST_RUN_EXIT_GRACE=300 $VG --log-file="$TMP/ex/vg.%p.log" "$RUN" shrink 'binary/add/i32/(2,1)x(3,)' \
        --target "$BUILD/targets/test/wrong_shape.so" tests/runner/fixtures/basic >"$TMP/sh.out" 2>&1; vrc=$?
    [ "$vrc" -eq 0 ] || fail "bcast-run shrink under valgrind: exit $vrc: $(tail -n 1 "$TMP/sh.out")"
    echo "  explore: $(tail -n 1 "$TMP/ex.out"); shrink: $(grep -c '^case ' "$TMP/sh.out") case; $(ls "$TMP/ex" | wc -l) processes"
    logs_clean "$TMP/ex"
}

test_explore_clean() {
    mkdir -p "$TMP/te"
    # guard pages do not fault under valgrind: the test that needs them skips itself
    BCAST_UNDER_VALGRIND=1 BCAST_RUN_EXIT_GRACE=300 $VG --log-file="$TMP/te/vg.%p.log" "$BUILD/test-explore" \
        >"$TMP/te.out" 2>&1; vrc=$?
    [ "$vrc" -eq 0 ] || fail "test-explore under valgrind: exit $vrc: $(tail -n 1 "$TMP/te.out")"
    echo "  test-explore: $(tail -n 1 "$TMP/te.out")"
    logs_clean "$TMP/te"
}

command -v "$VALGRIND" >/dev/null 2>&1 || { echo "SKIP valgrind: not installed (apt-get install valgrind)"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }
t runner_sample_clean
t test_ref_clean
t test_runner_clean
t explore_and_shrink_clean
t test_explore_clean
finish
