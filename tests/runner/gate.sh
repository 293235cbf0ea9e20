#!/bin/sh
# gate.sh - end-to-end tests of bcast-run as a CI gate (issue 13): a run that tests nothing fails, stale
# expectations are reported, conflicting options are refused, no result is lost, a crash says why,
# the fork server, findings, and input guard pages.
#
#   sh tests/runner/gate.sh [BUILD]        (run from the repository root; BUILD defaults to build)
#
# Each test prints PASS/FAIL and its name; the last line is "N passed, N failed, N skipped".

. tests/runner/lib.sh

# ---- 1. a gate must not pass by accident ----------------------------------------

empty_selection_is_an_error() {
    mkdir -p "$TMP/empty"
    bcr e1 "$TMP/empty";                       want_rc e1 2
    grep -q "no cases there" "$TMP/e1.err" || fail "empty dir: stderr '$(head -c 300 "$TMP/e1.err")'"
    printf 'bcast-cases 1\n# case-set 2026-11-22\n' >"$TMP/header.cases"
    bcr e2 "$TMP/header.cases";                want_rc e2 2
    bcr e3 --suite seed cases/;                want_rc e3 2
    grep -q "'seed' names no suite" "$TMP/e3.err" && grep -q "seeds" "$TMP/e3.err" ||
        fail "--suite seed: stderr does not name the typo and the suites: '$(head -c 300 "$TMP/e3.err")'"
    bcr e4 --tag no-such-tag "$FIX";            want_rc e4 2
    bcr e5 --id 'no/such/*' "$FIX";             want_rc e5 2
    grep -q -- "--id 'no/such/\*' matches no case" "$TMP/e5.err" || fail "--id: stderr '$(head -c 300 "$TMP/e5.err")'"
    # each filter matches something, together nothing
    bcr e6 --op mul --suite zero-size "$FIX";   want_rc e6 2
    grep -q "no case selected: --suite zero-size --op mul" "$TMP/e6.err" || fail "combination: '$(head -c 300 "$TMP/e6.err")'"
    bcr e7 --allow-empty --op mul --suite zero-size "$FIX"
    want_rc e7 0
    want_last e7 '^0 passed, 0 failed, 0 skipped$'
    bcr e8 --list --id 'no/such/*' "$FIX";      want_rc e8 2
}

all_skipped_is_an_error() {
    # cxx_guarded claims only add on f32: the i32 cases are all skipped
    bcr s1 --target "$TT/cxx_guarded.so" --dtype i32 --op sub "$FIX"
    want_rc s1 2
    grep -q "none of the .* selected cases can run" "$TMP/s1.err" || fail "all skipped: '$(head -c 300 "$TMP/s1.err")'"
    bcr s2 --target "$TT/cxx_guarded.so" --dtype i32 --op sub --allow-empty "$FIX"
    want_rc s2 0
}

unmatched_expectations_reported() {
    printf '# header\n%s  real\nno/such/case  a typo\nrenamed/*  a glob that matches nothing\n' "$G" >"$TMP/stale"
    bcr u1 --target "$TT/wrong_strides.so" --no-color --expectations "$TMP/stale" \
        --format json --output "$TMP/u1.json" "$FIX"
    want_rc u1 1   # H still fails and is not listed
    grep -q "stale:3: no/such/case matches no case" "$TMP/u1.err" || fail "no warning naming FILE:LINE: '$(head -c 400 "$TMP/u1.err")'"
    grep -q "2 expectations entries match no case" "$TMP/u1.out" || fail "text report has no count"
    n=$($RES field "$TMP/u1.json" totals.unmatched_expectations 2>&1)
    [ "$n" = 2 ] || fail "JSON totals.unmatched_expectations is '$n'"
    bcr u2 --target "$TT/wrong_strides.so" --expectations "$TMP/stale" --format junit --output "$TMP/u2.xml" "$FIX"
    grep -q 'name="unmatched_expectations" value="2"' "$TMP/u2.xml" || fail "JUnit has no unmatched_expectations property"
    bcr u3 --target "$TT/wrong_strides.so" --expectations "$TMP/stale" --strict-expectations "$FIX"
    want_rc u3 2
    grep -q "error: .*no/such/case" "$TMP/u3.err" || fail "strict: '$(head -c 300 "$TMP/u3.err")'"
}

# ---- 3. conflicting options -------------------------------------------------------

conflicting_options_refused() {
    bcr c1 --format json --format tap "$FIX";     want_rc c1 2
    grep -q -- "--format given twice" "$TMP/c1.err" || fail "--format twice: '$(head -c 200 "$TMP/c1.err")'"
    bcr c2 --target ref --target ref "$FIX";      want_rc c2 2
    bcr c3 --profile numpy --profile torch "$FIX"; want_rc c3 2
    bcr c4 --list --write-expectations "$TMP/x" "$FIX"; want_rc c4 2
    bcr c5 --list --output "$TMP/x" "$FIX";       want_rc c5 2
    [ -e "$TMP/x" ] && fail "--list with --output wrote a file"
    bcr c6 --jobs 2 show "$A" "$FIX";             want_rc c6 2
    grep -q "subcommand: it comes first" "$TMP/c6.err" || fail "option before show: '$(head -c 300 "$TMP/c6.err")'"
    bcr c7 merge --target ref "$TMP/x.json";      want_rc c7 2
    grep -q "merge does not take --target" "$TMP/c7.err" || fail "merge --target: '$(head -c 300 "$TMP/c7.err")'"
    # a filter may repeat: OR within a kind
    bcr c8 --op add --op sub --list "$FIX";       want_rc c8 0
}

# ---- 4, 5, 6: nothing is lost -------------------------------------------------------

unwritable_output_fails_before_running() {
    # a directory that does not exist is unwritable even for root; the hang target would take 30 s per mul case: a check after the run would be slow
    start=$(date +%s)
    bcr w1 --target "$TT/hang.so" --timeout 30 --output "$TMP/no-such-dir/out.json" --format json "$FIX"
    want_rc w1 2
    grep -q "cannot write --output .*before running" "$TMP/w1.err" || fail "--output: '$(head -c 300 "$TMP/w1.err")'"
    bcr w2 --target "$TT/hang.so" --timeout 30 --write-expectations "$TMP/no-such-dir/exp" "$FIX"
    want_rc w2 2
    [ $(( $(date +%s) - start )) -lt 20 ] || fail "unwritable outputs were found only after running"
    ls "$TMP/no-such-dir" >/dev/null 2>&1 && fail "a partial file was left"
    true
}

write_expectations_keeps_reasons_and_comments() {
    printf '# my notes: why these fail\n\n%s  hand-written reason\n%s  another reason\n' "$G" "$A" >"$TMP/known"
    bcr r1 --target "$TT/wrong_strides.so" --expectations "$TMP/known" --write-expectations "$TMP/known" "$FIX"
    grep -q '^# my notes: why these fail$' "$TMP/known" || fail "header comment lost: $(cat "$TMP/known")"
    grep -qF "$G  hand-written reason" "$TMP/known" || fail "reason of $G lost"
    grep -qF "# [no longer fails] $A  another reason" "$TMP/known" || fail "passing $A not marked"
    grep -qF "# [new] F" "$TMP/known" || fail "no new block for $H"
    grep -qF "$H fail: " "$TMP/known" || fail "new failure $H not added: $(cat "$TMP/known")"
    bcr r2 --target "$TT/wrong_strides.so" --expectations "$TMP/known" "$FIX"
    want_rc r2 0
    # a second rewrite changes nothing
    cp "$TMP/known" "$TMP/known.1"
    bcr r3 --target "$TT/wrong_strides.so" --expectations "$TMP/known" --write-expectations "$TMP/known" "$FIX"
    cmp -s "$TMP/known" "$TMP/known.1" || fail "rewrite is not stable: $(diff "$TMP/known.1" "$TMP/known")"
}

crash_keeps_the_workers_stderr() {
    broken assert_abort 1 "$C=crash~SIGABRT"
    tail=$($PY -c 'import json,sys; d=json.load(open(sys.argv[1])); print([c["stderr_tail"] for c in d["cases"] if c["id"]==sys.argv[2]][0])' \
        "$TMP/assert_abort.json" "$C")
    case $tail in *"Assertion \`dims[i] == other.dims[i]' failed."*) ;; *) fail "stderr_tail is '$tail'" ;; esac
    bcr a2 show "$C" --target "$TT/assert_abort.so" "$FIX"
    grep -q "Assertion" "$TMP/a2.out" || fail "show --target does not print the stderr"
    grep -q "crashed with SIGABRT" "$TMP/a2.out" || fail "show --target does not print the crash"
}

# ---- 8, 9: honest diffs and one-liners --------------------------------------------

show_target_side_by_side() {
    bcr v1 show "$H" --target "$TT/wrong_strides.so" "$FIX"
    want_rc v1 0
    grep -q "FAIL\|fail" "$TMP/v1.out" || fail "show --target: no verdict"
    grep -q "<-- differs" "$TMP/v1.out" || fail "show --target: no side-by-side diff: $(cat "$TMP/v1.out")"
    grep -q "elements differ" "$TMP/v1.out" || fail "show --target: no count of differing elements"
    grep -q "^NumPy: " "$TMP/v1.out" && grep -q "^torch: " "$TMP/v1.out" || fail "show --target: one-liners missing"
}

# ---- 10. C++ adapters ---------------------------------------------------------------

cxx_entry_point() {
    bcr x1 --target "$TT/cxx_mangled.so" "$FIX"
    want_rc x1 2
    grep -q "C++ linkage (as _Z15bcast_target_v1v)" "$TMP/x1.err" || fail "mangled: '$(head -c 300 "$TMP/x1.err")'"
    bcr x2 --target "$TT/cxx_guarded.so" --op add --dtype f32 "$FIX"
    [ "$rc" -ne 2 ] || fail "a C++ adapter that includes the header does not load: $(head -c 300 "$TMP/x2.err")"
}

# ---- 12. a crash costs a fork ---------------------------------------------------------

crashes_with_fork_server_match_fresh_workers() {
    for fs in 1 0; do
        BCAST_RUN_FORK_SERVER=$fs "$RUN" --target "$TT/crash.so" --jobs 2 --format json --output "$TMP/fs$fs.json" \
            "$FIX" >"$TMP/fs$fs.out" 2>"$TMP/fs$fs.err"
        $RES table "$TMP/fs$fs.json" | cut -f1,2 >"$TMP/fs$fs.tab"
    done
    cmp -s "$TMP/fs1.tab" "$TMP/fs0.tab" || fail "fork server and fresh workers disagree: $(diff "$TMP/fs1.tab" "$TMP/fs0.tab")"
    grep -q "	crash" "$TMP/fs1.tab" || fail "no crash recorded"
}

# ---- issue 15: input over-reads are memory violations -------------------------------

input_overread_is_violation() {
    bcr g1 --target "$TT/read_past_input.so" --op add --format json --output "$TMP/g1.json" "$FIX"
    want_rc g1 1
    outcomes g1 --rest "violation~read past the end of input y" "$E=violation~0 bytes after its storage" "$F=pass"
    bcr g2 --target "$TT/read_past_input.so" --guard start --format json --output "$TMP/g2.json" --id "$C" "$FIX"
    outcomes g2 "$C=violation~before the start of input x"
    # --guard off passes inputs in place: the over-read is not caught (that is what the guards are for)
    bcr g3 --target "$TT/read_past_input.so" --guard off --format json --output "$TMP/g3.json" --id "$C" "$FIX"
    outcomes g3 "$C=pass"
    # issue 25: the default run (--guard both) traps both ends, in every run
    for k in 4 5; do
        bcr g$k --target "$TT/read_past_input.so" --format json --output "$TMP/g$k.json" --id "$C" --id "$A" "$FIX"
        want_rc g$k 1
        outcomes g$k "$C=violation~before the start of input x" "$A=violation~read past the end of input y"
    done
    $RES table "$TMP/g4.json" >"$TMP/g4.tab"
    $RES table "$TMP/g5.json" >"$TMP/g5.tab"
    cmp -s "$TMP/g4.tab" "$TMP/g5.tab" || fail "two identical runs differ: $(diff "$TMP/g4.tab" "$TMP/g5.tab")"
    # --guard end makes one call: the read before x's start lands in the canary, the same bytes every run
    bcr g6 --target "$TT/read_past_input.so" --guard end --format json --output "$TMP/g6.json" --id "$C" "$FIX"
    outcomes g6 "$C=pass"
}

# ---- issue 25 item 7: a failed out= call leaves out's shape as it was (B22) ------------

out_resized_by_failed_call() {
    K='inplace/add/f32/(2,3)x(3,)/out(3,)'
    bcr o1 --target "$TT/out_resized_on_error.so" --format json --output "$TMP/o1.json" --id "$K" cases/inplace.cases
    want_rc o1 1
    outcomes o1 "$K=fail~left resized to (2,3) (it was (3,))"
    grep -q '"failure": *"out-metadata"' "$TMP/o1.json" || fail "o1: no out-metadata failure in the JSON"
    # ref raises the same error without resizing out: no finding
    bcr o2 --format json --output "$TMP/o2.json" --id "$K" cases/inplace.cases
    want_rc o2 0
}

# ---- issue 25 item 7: a failed out= call leaves out's memory as it was (B22) -----------

out_written_by_failed_call() {
    K='inplace/add/f32/(2,3)x(4,)/out(2,3)'
    M='inplace/floor_divide/i32/(2,3)x(3,)/out(2,3)'
    bcr w1 --target "$TT/out_written_on_error.so" --format json --output "$TMP/w1.json" --id "$K" cases/inplace.cases
    want_rc w1 1
    outcomes w1 "$K=violation~changed by a failed out"
    grep -q '"detail": *"out-modified-after-error"' "$TMP/w1.json" || fail "w1: no out-modified-after-error detail in the JSON"
    # torch writes out before raising division-by-zero there (tag out-modified): the same write passes
    grep -A3 "^case $M\$" cases/inplace.cases | grep -q '^tags.* out-modified' || fail "$M is not tagged out-modified"
    bcr w2 --target "$TT/out_written_on_error.so" --profile torch --format json --output "$TMP/w2.json" --id "$M" cases/inplace.cases
    want_rc w2 0
    outcomes w2 "$M=pass"
    # ref raises without writing: no finding
    bcr w3 --format json --output "$TMP/w3.json" --id "$K" cases/inplace.cases
    want_rc w3 0
}

# ---- findings -------------------------------------------------------------------------

findings_group_failures() {
    bcr f1 --target "$TT/wrong_strides.so" --no-color --format json --output "$TMP/f1.json" "$FIX"
    grep -q "^2 failures in [12] findings (0 known, 2 new)$" "$TMP/f1.out" || fail "text: no findings line: $(tail -n 12 "$TMP/f1.out")"
    n=$($PY -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(f["count"] for f in d["findings"] if f["kind"]=="failure"))' "$TMP/f1.json")
    [ "$n" = 2 ] || fail "JSON findings hold $n cases"
    # per-case lines only with --verbose
    grep -q "^FAIL " "$TMP/f1.out" && fail "per-case lines without --verbose"
    bcr f2 --target "$TT/wrong_strides.so" --no-color --verbose "$FIX"
    grep -q "^FAIL " "$TMP/f2.out" || fail "--verbose lists no case"
    # a failing gate ends with the new findings and their smallest repro, then the totals
    tail -n 4 "$TMP/f1.out" | grep -q "smallest: " || fail "the last lines are not the new findings: $(tail -n 4 "$TMP/f1.out")"
}

if [ ! -x "$RUN" ] || [ ! -f "$TT/read_past_input.so" ] || [ ! -f "$TT/out_resized_on_error.so" ] || [ ! -f "$TT/out_written_on_error.so" ] || [ ! -f "$TT/cxx_guarded.so" ]; then
    echo "FAIL gate: $RUN or the test targets are missing (make test-targets first)"
    echo "0 passed, 1 failed"
    exit 1
fi

t empty_selection_is_an_error
t all_skipped_is_an_error
t unmatched_expectations_reported
t conflicting_options_refused
t unwritable_output_fails_before_running
t write_expectations_keeps_reasons_and_comments
t crash_keeps_the_workers_stderr
t show_target_side_by_side
t cxx_entry_point
t crashes_with_fork_server_match_fresh_workers
t input_overread_is_violation
t out_resized_by_failed_call
t out_written_by_failed_call
t findings_group_failures

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
