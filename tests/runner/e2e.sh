#!/bin/sh
# e2e.sh - end-to-end tests of bcast-run: the bundled, broken and hostile targets against small fixture cases.
#
#   sh tests/runner/e2e.sh [BUILD]        (run from the repository root; BUILD defaults to build)
#
# Needs $BUILD/bcast-run, $BUILD/targets/ref.so and $BUILD/targets/test/*.so
# (make test-targets). JSON is read with $PYTHON (default /usr/bin/python3),
# JUnit with python3-junitparser, TAP with prove. Each test prints PASS/FAIL
# (or SKIP, when a consumer tool is missing) and its name; the last line is
# "N passed, N failed, N skipped".

. tests/runner/lib.sh

# ---- the reference target ------------------------------------------------

ref_passes_every_fixture() {
    bcr ref --target "$REF" --no-color "$FIX"
    want_rc ref 0
    want_last ref "^$NCASES passed, 0 failed, 0 skipped\$"
}

target_by_bare_name() {
    # A bare NAME means <dir of bcast-run>/targets/NAME.so.
    bcr bare --target ref --no-color --id "$A" "$FIX"
    want_rc bare 0
    want_last bare '^1 passed, 0 failed, 0 skipped$'
}

# ---- profiles (issue #22) -------------------------------------------------

numpy2_skips_generation1_cases() {
    # The fixtures, like cases/, predate NumPy 2: every case is skipped with
    # the reason, and a run that runs nothing says why and exits 2.
    bcr n2 --target "$REF" --profile numpy2 --no-color "$FIX"
    want_rc n2 2
    grep -q 'none of the [0-9]* selected cases has an expectation for profile numpy2' "$TMP/n2.err" \
        || fail "n2: stderr: $(head -c 300 "$TMP/n2.err")"
    bcr n2e --target "$REF" --profile torch2 --allow-empty --no-color --format json --output "$TMP/n2e.json" "$FIX"
    want_rc n2e 0
    want_last n2e "^0 passed, 0 failed, $NCASES skipped\$"
    outcomes n2e --rest skip "$A=skip~no torch2 expectation: the case predates torch 2 in cases/"
}

four_oracle_case_selects_per_profile() {
    # four.cases (gen_four.py, measured by both interpreters): ref passes
    # each profile's own line; a wrong profile name is a usage error.
    for p in numpy torch numpy2 torch2; do
        bcr "four_$p" --target "$REF" --profile "$p" --no-color tests/runner/fixtures/profiles/four.cases
        want_rc "four_$p" 0
        want_last "four_$p" '^2 passed, 0 failed, 0 skipped$'
    done
    bcr four_bad --target "$REF" --profile numpy3 tests/runner/fixtures/profiles/four.cases
    want_rc four_bad 2
    grep -q "takes numpy, torch, numpy2 or torch2, not 'numpy3'" "$TMP/four_bad.err" || fail "four_bad: $(head -c 200 "$TMP/four_bad.err")"
}

# ---- broken targets: each caught with the right outcome, the rest pass ---

wrong_shape_fails_on_stretch() { broken wrong_shape 1 "$A=fail~shape"; }
wrong_strides_fails_layouts() { broken wrong_strides 1 "$G=fail" "$H=fail"; }
ignores_zero_size_fails_zero_size() { broken ignores_zero_size 1 "$E=fail~shape" "$F=fail~shape"; }
no_inplace_check_fails_inplace_error() { broken no_inplace_check 1 "$J=fail"; }
write_past_end_is_memory_violation() { broken write_past_end 1 "$C=violation~output"; }
write_input_is_memory_violation() { broken write_input 1 "$D=violation~input"; }
crash_reports_signals() { broken crash 1 "$D=crash~SEGV" "$C=crash~ABRT"; }
exit_is_crash() { broken exit 1 "$D=crash~3"; }
sigbus_is_crash() { broken hostile_sigbus 1 "$D=crash~BUS"; }
page_overrun_is_memory_violation() { broken hostile_oob_page 1 "$C=violation~output"; }
underrun_is_memory_violation() { broken hostile_underrun 1 "$C=violation~output"; }
self_written_before_inplace_error() { broken hostile_self_partial 1 "$J=violation~self"; }
# Where the profile's own library writes self before raising (gen tags the
# case self-modified), a target that does the same passes: the same fixture
# with case J tagged so.
self_written_like_the_oracle_passes() {
    mkdir -p "$TMP/selfmod"
    sed '/^case inplace\/add\/i32\/(3,)+=(2,3)$/,/^end$/s/^tags \(.*\)$/tags \1 self-modified/' \
        "$FIX/basic.cases" >"$TMP/selfmod/basic.cases"
    grep -q 'rank-mismatch self-modified' "$TMP/selfmod/basic.cases" || { fail "selfmod: fixture edit did not apply"; return; }
    bcr selfmod --target "$TT/hostile_self_partial.so" --timeout 2 --no-color \
        --format json --output "$TMP/selfmod.json" --id "$J" "$TMP/selfmod"
    want_rc selfmod 0
    outcomes selfmod "$J=pass"
}
bad_returns_fail() {
    broken hostile_bad_return 1 'ops/eq/i32/(2,1)x(2,)=fail~output' 'nary/where/i32/(2,1)x(2,)x()=fail~42'
}

hang_times_out() {
    start=$(date +%s)
    bcr hang --target "$TT/hang.so" --timeout 1 --no-color \
        --format json --output "$TMP/hang.json" "$FIX"
    end=$(date +%s)
    want_rc hang 1
    want_last hang ', 1 timed out'
    outcomes hang "$D=timeout"
    [ $((end - start)) -le 8 ] || fail "hang: took $((end - start)) s with --timeout 1"
}

absurd_allocations_refused() {
    # Every value-mode case makes one absurd alloc_output request (see
    # targets/broken/hostile_alloc.c); in-place/out= cases run correctly.
    bcr hostile_alloc --target "$TT/hostile_alloc.so" --no-color \
        --format json --output "$TMP/hostile_alloc.json" "$FIX"
    want_rc hostile_alloc 1
    outcomes hostile_alloc --rest 'fail~refused as expected' "$I=pass" "$J=pass" "$P=pass"
}

noisy_target_cannot_corrupt_output() {
    bcr noisy_text --target "$TT/hostile_noisy.so" --no-color "$FIX"
    want_rc noisy_text 0
    want_last noisy_text "^$NCASES passed, 0 failed, 0 skipped\$"
    grep -q 'noise' "$TMP/noisy_text.out" && fail "noisy: target output reached the runner's stdout"
    bcr noisy_json --target "$TT/hostile_noisy.so" --format json "$FIX"
    want_rc noisy_json 0
    # JSON on stdout: one JSON document, then the totals line (always last).
    want_last noisy_json "^$NCASES passed, 0 failed, 0 skipped\$"
    sed '$d' "$TMP/noisy_json.out" >"$TMP/noisy_json.body"
    "$PY" -m json.tool "$TMP/noisy_json.body" >/dev/null 2>"$TMP/noisy_json.tool" ||
        fail "noisy: JSON on stdout does not parse: $(head -c 300 "$TMP/noisy_json.tool")"
}

target_arg_reaches_init() {
    bcr needs_arg_missing --target "$TT/needs_arg.so" "$FIX"
    want_rc needs_arg_missing 2
    bcr needs_arg --target "$TT/needs_arg.so" --target-arg magic --jobs 2 --no-color "$FIX"
    want_rc needs_arg 0
    want_last needs_arg "^$NCASES passed, 0 failed, 0 skipped\$"
}

bad_targets_refused() {
    for b in bad_abi no_entry; do
        bcr "$b" --target "$TT/$b.so" "$FIX"
        want_rc "$b" 2
        grep -q "$b.so" "$TMP/$b.err" || fail "$b: stderr does not name the file: $(head -c 300 "$TMP/$b.err")"
    done
    bcr missing --target "$TMP/does-not-exist.so" "$FIX"
    want_rc missing 2
}

# ---- the doc's minimal adapter ------------------------------------------

doc_adapter_runs() {
    # tiny.so is compiled from the last ```c block of docs/target-abi.md.
    # It claims add/sub/mul on f32, strided, value mode: 3 fixture cases.
    bcr tiny --target "$TT/tiny.so" --no-color "$FIX"
    want_rc tiny 0
    want_last tiny "^3 passed, 0 failed, $((NCASES - 3)) skipped\$"
}

doc_adapter_on_cases() {
    # The same adapter against the whole generated suite. Whether cases/
    # loads at all is the runner's and gen's business (make run), so a set
    # that does not load skips this test instead of failing it.
    ls cases/*.cases >/dev/null 2>&1 || { skip "no cases/ (make cases)"; return; }
    bcr cases_list --list cases
    [ "$rc" -eq 0 ] || { skip "cases/ does not load: $(head -n 1 "$TMP/cases_list.err")"; return; }
    bcr tiny_all --target "$TT/tiny.so" --no-color --jobs 2 cases
    want_rc tiny_all 0
    want_last tiny_all '^[1-9][0-9]* passed, 0 failed, [0-9]+ skipped$'
}

# ---- a real slice of cases/ ----------------------------------------------------

# tests/runner/fixtures/real: 31 records copied verbatim from cases/ (one or
# two per suite), so the broken targets are also judged on generated cases.
real_cases_slice() {
    R=tests/runner/fixtures/real
    bcr real_ref --target "$REF" --no-color "$R"
    want_rc real_ref 0
    want_last real_ref '^31 passed, 0 failed, 0 skipped$'
    bcr real_tiny --target "$TT/tiny.so" --no-color "$R"
    want_rc real_tiny 0
    want_last real_tiny '^8 passed, 0 failed, 23 skipped$'
    for spec in \
        "wrong_strides layouts/add/f32/(2,3,3)x(1,3)/transposed-xy layouts/lt/i16/(3,3,2)x(1,3,2)/negative-y layouts/maximum/f64/(3,2,3)x(3,2,1)/offset-x" \
        "ignores_zero_size views/expand/f32/(0,)->(3,0) zero-size/add/f32/(0,2)x(1,)" \
        "wrong_shape exhaustive/add/f32/(1,1,3)x(3,3,1) promotion/add/0d-i16=200,i8/()x(2,1) ranks/add/f32/(1,2,2)x(3,2,1,1,2,1,2,1) seeds/000-add-1x9x4-15x1x4" \
        "no_inplace_check inplace/add/f32/self(3,)/y(2,3)"; do
        set -f  # ids are split on spaces below, never globbed
        set -- $spec
        n=$1; shift
        bcr "real_$n" --target "$TT/$n.so" --no-color --format json --output "$TMP/real_$n.json" "$R"
        want_rc "real_$n" 1
        args=
        for id in "$@"; do args="$args $id=fail"; done
        outcomes "real_$n" $args
        set +f
    done
    # The NumPy-only target against torch's expectations: the divergent cases.
    bcr real_fpt --target "$TT/fixed_profile.so" --profile torch --no-color \
        --format json --output "$TMP/real_fpt.json" "$R"
    outcomes real_fpt 'inplace/add/f32/()x()/out(2,)=fail' 'promotion/add/0d-i16=200,i8/()x(2,1)=fail~dtype' \
        'promotion/div/i32,0d-i16=-129/(3,)x()=fail~dtype' 'ranks/add/f32/(3,)x[1^32,2]r33=fail~class'
}

# ---- selection --------------------------------------------------------------

count_lines() { wc -l <"$TMP/$1.out" | tr -d ' '; }

list_and_filters() {
    bcr list --list "$FIX"
    want_rc list 0
    [ "$(count_lines list)" -eq "$NCASES" ] || fail "--list: $(count_lines list) lines, expected $NCASES"
    LC_ALL=C sort -c "$TMP/list.out" 2>/dev/null || fail "--list: ids not sorted"
    bcr l1 --list --suite layouts "$FIX"
    [ "$(count_lines l1)" -eq 3 ] || fail "--suite layouts: $(count_lines l1) ids, expected 3"
    bcr l2 --list --suite layouts --suite zero-size "$FIX"
    [ "$(count_lines l2)" -eq 5 ] || fail "--suite twice (OR): $(count_lines l2) ids, expected 5"
    bcr l3 --list --suite layouts --dtype f32 "$FIX"
    [ "$(count_lines l3)" -eq 1 ] || fail "--suite + --dtype (AND): $(count_lines l3) ids, expected 1"
    bcr l4 --list --id 'inplace/*' "$FIX"
    [ "$(count_lines l4)" -eq 3 ] || fail "--id glob: $(count_lines l4) ids, expected 3"
    bcr l5 --list --tag divergent "$FIX"
    [ "$(cat "$TMP/l5.out")" = "$O" ] || fail "--tag divergent: '$(cat "$TMP/l5.out")'"
    bcr l6 --list --op sub --op mul "$FIX"
    [ "$(count_lines l6)" -eq 2 ] || fail "--op twice: $(count_lines l6) ids, expected 2"
    # A filtered run runs only the selection.
    bcr f1 --no-color --suite zero-size "$FIX"
    want_rc f1 0
    want_last f1 '^2 passed, 0 failed, 0 skipped$'
}

show_prints_reproducers() {
    bcr show show "$A" "$FIX"
    want_rc show 0
    grep -q 'numpy\|np\.' "$TMP/show.out" || fail "show: no NumPy one-liner"
    grep -q 'torch' "$TMP/show.out" || fail "show: no torch one-liner"
    grep -q '(2,1)\|(2, 1)' "$TMP/show.out" || fail "show: x's shape (2,1) not shown"
    bcr show_missing show 'no/such/case' "$FIX"
    [ "$rc" -ne 0 ] || fail "show of an unknown id exited 0"
    # A generation-1 case: NumPy 1.24's and torch 1.13's one-liners only.
    grep -q '^NumPy: /usr/bin/python3 -c "import numpy as np; ' "$TMP/show.out" || fail "show: no 'NumPy:' line"
    grep -q '^torch: /usr/bin/python3 -c "import torch; ' "$TMP/show.out" || fail "show: no 'torch:' line"
    grep -q '^NumPy 2:\|^torch 2:' "$TMP/show.out" && fail "show: generation-2 one-liners for a generation-1 case"
    # A four-oracle case: a one-liner per oracle, generation 2's with .venv/oracles' interpreter.
    cat >"$TMP/four.cases" <<'CASES'
bcast-cases 1

case four/add/i8
suite ops
tags divergent generation-changed
rules B1 B19 B32
op add
mode value
source numpy torch numpy2 torch2
arg x i8 (1,) (1,) 0 1
values 1
arg y i64 () () 0 1
values 1000
expect numpy ok i16 (1,) exact
values 1001
expect torch ok i8 (1,) exact
values -23
expect numpy2 ok i64 (1,) exact
values 1001
expect torch2 ok i8 (1,) exact
values -23
end
CASES
    bcr show4 show four/add/i8 "$TMP/four.cases"
    want_rc show4 0
    [ "$(grep -c '^NumPy: \|^torch: \|^NumPy 2: \|^torch 2: ' "$TMP/show4.out")" -eq 4 ] ||
        fail "show: not 4 one-liners for a four-oracle case: $(grep -c -- ' -c ' "$TMP/show4.out")"
    grep -q '^NumPy 2: .venv/oracles/bin/python -c "import numpy as np; ' "$TMP/show4.out" ||
        fail "show: no 'NumPy 2:' line with .venv/oracles/bin/python"
    grep -q '^torch 2: .venv/oracles/bin/python -c "import torch; ' "$TMP/show4.out" ||
        fail "show: no 'torch 2:' line"
    grep -q '^  expect numpy2: *i64 (1,), exact: \[1001\]' "$TMP/show4.out" || fail "show: expect numpy2 not printed"
}

# oneliner NAME LIB KIND: runs the LIB ("NumPy" or "torch") line of $TMP/NAME.out;
# KIND ok means it must exit 0, error that it must raise (exit nonzero).
oneliner() {
    line=$(sed -n "s/^$2: //p" "$TMP/$1.out")
    [ -n "$line" ] || { fail "show $1: no '$2:' line"; return; }
    sh -c "$line" >"$TMP/$1.$2.out" 2>&1; lrc=$?
    case $3 in
    ok) [ "$lrc" -eq 0 ] || fail "show $1: the $2 one-liner fails: $(tail -n 1 "$TMP/$1.$2.out")" ;;
    error) [ "$lrc" -ne 0 ] || fail "show $1: the $2 one-liner does not raise: $(tail -n 1 "$TMP/$1.$2.out")" ;;
    esac
}

show_one_liners_reproduce() {
    # Each one-liner must reproduce its library's side of the case: run it.
    /usr/bin/python3 -c 'import numpy, torch' 2>/dev/null || { skip "NumPy and torch are not importable by /usr/bin/python3"; return; }
    n=0
    for spec in "$A ok ok" "$H ok ok" "$J error error" "$O ok error" "$P ok ok" \
                'nary/where/i32/(2,1)x(2,)x() ok ok'; do
        id=${spec% * *}; kinds=${spec#"$id" }
        n=$((n + 1))
        bcr "sh$n" show "$id" "$FIX"
        want_rc "sh$n" 0
        oneliner "sh$n" NumPy "${kinds% *}"
        oneliner "sh$n" torch "${kinds#* }"
    done
    grep -q '11, 21, 31' "$TMP/sh1.NumPy.out" || fail "show $A: NumPy printed $(cat "$TMP/sh1.NumPy.out")"
}

usage_errors_exit_2() {
    bcr u1 --jobs 0 "$FIX";            want_rc u1 2
    bcr u2 --shard 3/2 "$FIX";         want_rc u2 2
    bcr u3 --format yaml "$FIX";       want_rc u3 2
    bcr u4 --profile jax "$FIX";       want_rc u4 2
    bcr u5 --no-such-option "$FIX";    want_rc u5 2
    printf 'bcast-cases 1\ncase x\nsuite nope\nend\n' >"$TMP/bad.cases"
    bcr u6 "$TMP/bad.cases"
    want_rc u6 2
    grep -q 'bad.cases:[0-9]' "$TMP/u6.err" || fail "bad case file: no FILE:LINE in '$(head -c 300 "$TMP/u6.err")'"
}

# ---- profile ----------------------------------------------------------------

profile_override() {
    bcr pt --target "$REF" --profile torch --no-color --format json --output "$TMP/pt.json" "$FIX"
    want_rc pt 0
    prof=$($RES field "$TMP/pt.json" profile 2>&1)
    [ "$prof" = torch ] || fail "--profile torch: JSON profile is '$prof'"
    # fixed_profile always computes NumPy semantics: right by default, wrong
    # on the divergent case once torch's expectation is the one checked.
    broken fixed_profile 0
    bcr fpt --target "$TT/fixed_profile.so" --profile torch --no-color \
        --format json --output "$TMP/fpt.json" "$FIX"
    want_rc fpt 1
    outcomes fpt "$O=fail~division-by-zero"
}

# ---- expectations ---------------------------------------------------------

expectations_file() {
    printf '# known bugs of wrong_strides\n%s  ignores strides\n%s\tignores strides too\n' "$G" "$H" >"$TMP/exp_all"
    bcr x1 --target "$TT/wrong_strides.so" --no-color --expectations "$TMP/exp_all" "$FIX"
    want_rc x1 0
    printf '%s  only one of them\n' "$G" >"$TMP/exp_one"
    bcr x2 --target "$TT/wrong_strides.so" --no-color --expectations "$TMP/exp_one" "$FIX"
    want_rc x2 1
    grep -qF "$H" "$TMP/x2.out" || fail "expectations: the new failure $H is not named"
    printf 'layouts/*  globs work\n%s  passes, so unexpectedly\n' "$A" >"$TMP/exp_glob"
    bcr x3 --target "$TT/wrong_strides.so" --no-color --expectations "$TMP/exp_glob" \
        --format json --output "$TMP/x3.json" "$FIX"
    grep -qi 'unexpected' "$TMP/x3.out" || fail "expectations: unexpected pass of $A not reported"
    outcomes x3 "$G=xfail" "$H=xfail" "$A=xpass"
    # Round trip: a written baseline makes the same run exit 0.
    bcr x4 --target "$TT/crash.so" --no-color --write-expectations "$TMP/baseline" "$FIX"
    [ -s "$TMP/baseline" ] || { fail "--write-expectations wrote nothing"; return; }
    grep -qF "$C" "$TMP/baseline" && grep -qF "$D" "$TMP/baseline" ||
        fail "--write-expectations: $C and $D missing from: $(cat "$TMP/baseline")"
    bcr x5 --target "$TT/crash.so" --no-color --expectations "$TMP/baseline" "$FIX"
    want_rc x5 0
}

# ---- parallelism and sharding -------------------------------------------------

jobs_2_equals_jobs_1() {
    for tgt in "$REF" "$TT/crash.so" "$TT/wrong_strides.so"; do
        n=$(basename "$tgt" .so)
        bcr "j1_$n" --target "$tgt" --jobs 1 --format json --output "$TMP/j1_$n.json" "$FIX"
        bcr "j2_$n" --target "$tgt" --jobs 2 --format json --output "$TMP/j2_$n.json" "$FIX"
        $RES table "$TMP/j1_$n.json" | cut -f1,2 >"$TMP/j1_$n.tab"
        $RES table "$TMP/j2_$n.json" | cut -f1,2 >"$TMP/j2_$n.tab"
        [ "$(wc -l <"$TMP/j1_$n.tab")" -eq "$NCASES" ] || fail "$n --jobs 1: not $NCASES results"
        cmp -s "$TMP/j1_$n.tab" "$TMP/j2_$n.tab" || fail "$n: --jobs 2 differs: $(diff "$TMP/j1_$n.tab" "$TMP/j2_$n.tab")"
    done
}

shards_merge_to_whole() {
    tgt=$TT/wrong_strides.so
    bcr whole --target "$tgt" --format json --output "$TMP/whole.json" "$FIX"
    bcr s1 --target "$tgt" --shard 1/2 --format json --output "$TMP/s1.json" "$FIX"
    bcr s2 --target "$tgt" --shard 2/2 --format json --output "$TMP/s2.json" "$FIX"
    bcr merged merge "$TMP/s1.json" "$TMP/s2.json" --format json --output "$TMP/merged.json"
    want_rc merged 1
    for f in whole s1 s2 merged; do $RES table "$TMP/$f.json" | cut -f1,2 >"$TMP/$f.tab"; done
    [ -s "$TMP/s1.tab" ] && [ -s "$TMP/s2.tab" ] || fail "a shard is empty"
    cut -f1 "$TMP/s1.tab" | LC_ALL=C sort >"$TMP/s1.ids"
    cut -f1 "$TMP/s2.tab" | LC_ALL=C sort >"$TMP/s2.ids"
    overlap=$(LC_ALL=C comm -12 "$TMP/s1.ids" "$TMP/s2.ids")
    [ -z "$overlap" ] || fail "shards overlap: $overlap"
    cmp -s "$TMP/whole.tab" "$TMP/merged.tab" || fail "merged shards differ from the whole: $(diff "$TMP/whole.tab" "$TMP/merged.tab")"
    bcr l_s1 --list --shard 1/2 "$FIX"
    bcr l_s2 --list --shard 2/2 "$FIX"
    [ $(( $(count_lines l_s1) + $(count_lines l_s2) )) -eq "$NCASES" ] || fail "--list shards do not add up to $NCASES"
}

# ---- output formats -----------------------------------------------------------

json_parses() {
    bcr js --target "$TT/crash.so" --format json --output "$TMP/js.json" "$FIX"
    "$PY" -m json.tool "$TMP/js.json" >/dev/null 2>"$TMP/js.tool" || fail "json.tool: $(cat "$TMP/js.tool")"
    c=$($RES field "$TMP/js.json" complete)
    [ "$c" = true ] || fail "JSON complete is '$c'"
    [ ! -e "$TMP/js.json.tmp" ] || fail "temporary output file left behind"
}

junit_consumed() {
    "$PY" -c 'import junitparser' 2>/dev/null || { skip "python3-junitparser not installed (apt-get install python3-junitparser)"; return; }
    bcr ju --target "$TT/wrong_strides.so" --format junit --output "$TMP/ju.xml" "$FIX"
    msg=$($RES junit "$TMP/ju.xml" "$NCASES" 2 0 2>&1) || fail "junit (wrong_strides): $msg"
    bcr ju2 --target "$TT/tiny.so" --format junit --output "$TMP/ju2.xml" "$FIX"
    msg=$($RES junit "$TMP/ju2.xml" "$NCASES" 0 $((NCASES - 3)) 2>&1) || fail "junit (tiny): $msg"
    xmllint --noout "$TMP/ju.xml" 2>"$TMP/ju.lint" || fail "xmllint: $(cat "$TMP/ju.lint")"
}

tap_consumed_by_prove() {
    command -v prove >/dev/null 2>&1 || { skip "prove (perl) not installed"; return; }
    bcr tap_ok --target "$REF" --format tap --output "$TMP/ok.tap" "$FIX"
    prove -e cat "$TMP/ok.tap" >"$TMP/prove_ok.out" 2>&1 || fail "prove rejects a passing run: $(tail -5 "$TMP/prove_ok.out")"
    grep -q "^1\.\.$NCASES" "$TMP/ok.tap" || fail "TAP plan is not 1..$NCASES"
    bcr tap_bad --target "$TT/wrong_strides.so" --format tap --output "$TMP/bad.tap" "$FIX"
    if prove -e cat "$TMP/bad.tap" >"$TMP/prove_bad.out" 2>&1; then
        fail "prove accepts a run with failures"
    fi
    grep -q 'Failed 2/' "$TMP/prove_bad.out" || fail "prove does not see 2 failures: $(tail -5 "$TMP/prove_bad.out")"
    bcr tap_skip --target "$TT/tiny.so" --format tap --output "$TMP/skip.tap" "$FIX"
    prove -e cat "$TMP/skip.tap" >"$TMP/prove_skip.out" 2>&1 || fail "prove rejects skips"
    grep -q "skipped" "$TMP/prove_skip.out" || grep -qi "# skip" "$TMP/skip.tap" || fail "TAP has no # SKIP"
}

# A target whose first mul breaks its state (targets/broken/poison_after.c):
# every later case of that worker fails, and passes in a fresh one. The re-run
# traces each to mul; mul passed, so they stay failures (the gate must not
# pass a library that breaks), each saying so. --no-rerun leaves no trace.
rerun_traces_broken_state() {
    bcr pa --target "$TT/poison_after.so" --no-color --format json --output "$TMP/pa.json" "$FIX"
    want_rc pa 1
    want_last pa '^4 passed, 13 failed, 0 skipped$'
    grep -q "re-ran 13 unexpected failures in fresh workers" "$TMP/pa.err" || fail "pa: no re-run line: $(cat "$TMP/pa.err")"
    n=$(grep -c "fails again right after binary/mul/i32/(3,)x(), which passes but leaves the library broken" "$TMP/pa.json")
    [ "$n" -eq 13 ] || fail "pa: $n of 13 cases traced to mul"
    bcr pb --target "$TT/poison_after.so" --no-color --no-rerun --format json --output "$TMP/pb.json" "$FIX"
    want_last pb '^4 passed, 13 failed, 0 skipped$'
    ! grep -q '"rerun"' "$TMP/pb.json" && [ ! -s "$TMP/pb.err" ] || fail "pb: --no-rerun re-ran: $(cat "$TMP/pb.err")"
}

# A case that raises in a run and crashes when re-run in a fresh worker
# (targets/broken/raise_then_crash.c): the re-run judges the crash on its own.
# The runner once kept the first run's error class on the re-run's record and
# read the message of a crash that has no result (SIGSEGV).
rerun_of_a_raise_that_crashes() {
    bcr rc --target "$TT/raise_then_crash.so" --no-color --format json --output "$TMP/rc.json" "$FIX"
    want_rc rc 1
    want_last rc '^16 passed, 1 failed, 0 skipped$'
    grep -q '"rerun": "re-run in a fresh worker, twice: it failed differently each time"' "$TMP/rc.json" ||
        fail "rc: the re-run does not say the outcome varies: $(cat "$TMP/rc.err")"
}

sigint_writes_partial_results() {
    # hang.so hangs on the mul case; --timeout 30 keeps it hanging while we
    # interrupt. The finished cases must still reach the JSON, marked incomplete.
    "$RUN" --target "$TT/hang.so" --jobs 2 --timeout 30 --format json \
        --output "$TMP/int.json" "$FIX" >"$TMP/int.out" 2>"$TMP/int.err" &
    pid=$!
    sleep 1
    kill -INT "$pid"
    wait "$pid"; rc=$?
    [ "$rc" -eq 1 ] || [ "$rc" -eq 130 ] || fail "SIGINT: exit $rc, expected 1 or 130"
    [ -s "$TMP/int.json" ] || { fail "SIGINT: no JSON written"; return; }
    c=$($RES field "$TMP/int.json" complete)
    [ "$c" = false ] || fail "SIGINT: complete is '$c'"
    done_n=$($RES table "$TMP/int.json" | grep -c '	pass	')
    [ "$done_n" -ge 1 ] || fail "SIGINT: no finished case kept in the JSON"
    $RES table "$TMP/int.json" | grep -qF "$D	pass" && fail "SIGINT: the hanging case is reported as passed"
}

# ---- run -------------------------------------------------------------------------

if [ ! -x "$RUN" ] || [ ! -f "$REF" ] || [ ! -d "$TT" ]; then
    echo "FAIL e2e: $RUN, $REF or $TT missing (make test-targets first)"
    echo "0 passed, 1 failed"
    exit 1
fi

t ref_passes_every_fixture
t target_by_bare_name
t numpy2_skips_generation1_cases
t four_oracle_case_selects_per_profile
t wrong_shape_fails_on_stretch
t wrong_strides_fails_layouts
t ignores_zero_size_fails_zero_size
t no_inplace_check_fails_inplace_error
t write_past_end_is_memory_violation
t write_input_is_memory_violation
t crash_reports_signals
t exit_is_crash
t sigbus_is_crash
t page_overrun_is_memory_violation
t underrun_is_memory_violation
t self_written_before_inplace_error
t self_written_like_the_oracle_passes
t bad_returns_fail
t hang_times_out
t absurd_allocations_refused
t noisy_target_cannot_corrupt_output
t target_arg_reaches_init
t bad_targets_refused
t doc_adapter_runs
t doc_adapter_on_cases
t real_cases_slice
t list_and_filters
t show_prints_reproducers
t show_one_liners_reproduce
t usage_errors_exit_2
t profile_override
t expectations_file
t jobs_2_equals_jobs_1
t shards_merge_to_whole
t json_parses
t junit_consumed
t tap_consumed_by_prove
t sigint_writes_partial_results
t rerun_traces_broken_state
t rerun_of_a_raise_that_crashes

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
