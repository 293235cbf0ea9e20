#!/bin/sh
# explore.sh - end-to-end tests of bcast-run shrink and explore (issues 14 and 16): shrinking keeps the
# failure, explore finds nothing on ref and the flaw of a broken target, its file replays, a seed gives
# the same cases, shards are disjoint and merge back into the whole stream.
#
#   sh tests/runner/explore.sh [BUILD]        (run from the repository root; BUILD defaults to build)
#
# Each test prints PASS/FAIL and its name; the last line is "N passed, N failed, N skipped".

. tests/runner/lib.sh

WS=$TT/wrong_shape.so

# jsonq FILE EXPR: evaluates a Python expression over the JSON document `d`.
jsonq() {
    $PY -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# ---- shrink ----------------------------------------------------------------

shrink_prints_a_smaller_case_that_still_fails() {
    bcr s1 shrink "$A" --target "$WS" --no-color "$FIX"
    want_rc s1 0
    head -n 1 "$TMP/s1.out" | grep -qx 'bcast-cases 1' || fail "stdout is not a case file: $(head -c 200 "$TMP/s1.out")"
    grep -q "^case binary/add/i32/(2,1)x(3,)/shrunk$" "$TMP/s1.out" || fail "no shrunk record"
    grep -q '^source ref ref2$' "$TMP/s1.out" || fail "the shrunk case is not marked source ref ref2 (ref's expectations for both generations)"
    grep -q '^# NumPy: /usr/bin/python3 -c ' "$TMP/s1.out" && grep -q '^# torch: ' "$TMP/s1.out" ||
        fail "no NumPy/torch one-liners"
    grep -q "wrong shape (one dim fewer) | expected ok" "$TMP/s1.out" || fail "the signature is not named"
    grep -q '^arg x i32 (2,1)' "$TMP/s1.out" && fail "x was not reduced"
    # the printed file is a case file the runner reads: it still fails there, and ref passes it
    cp "$TMP/s1.out" "$TMP/shrunk.cases"
    bcr s2 --target "$WS" --no-color "$TMP/shrunk.cases"
    want_rc s2 1
    want_last s2 '^0 passed, 1 failed, 0 skipped$'
    bcr s3 --target "$REF" --no-color "$TMP/shrunk.cases"
    want_rc s3 0
}

shrink_a_passing_case_exits_1() {
    bcr p1 shrink "$C" --target "$WS" "$FIX"
    want_rc p1 1
    grep -q "passes on broken-wrong-shape" "$TMP/p1.err" || fail "no reason: $(head -c 300 "$TMP/p1.err")"
    [ -s "$TMP/p1.out" ] && fail "a passing case printed a case"
    bcr p2 shrink 'no/such/case' --target "$WS" "$FIX"
    want_rc p2 2
    bcr p3 shrink "$A" "$FIX"   # --target is required
    want_rc p3 2
}

shrink_keeps_a_memory_violation() {
    bcr v1 shrink "$A" --target "$TT/read_past_input.so" --max-runs 60 "$FIX"
    want_rc v1 0
    grep -q "memory violation: read-past-end-input-y" "$TMP/v1.out" || fail "signature lost: $(grep '^#' "$TMP/v1.out" | head -3)"
}

# ---- explore ---------------------------------------------------------------

explore_finds_nothing_on_ref() {
    bcr r1 explore --target "$REF" --cases 3000 --jobs 2 --no-color
    want_rc r1 0
    want_last r1 '^3000 passed, 0 failed, 0 skipped$'
    grep -q "explore: seed 1: 3000 cases in .* cases/s), 0 failures (0 listed), 0 findings" "$TMP/r1.err" ||
        fail "no summary: $(tail -n 2 "$TMP/r1.err")"
}

explore_finds_the_flaw_and_its_file_replays() {
    bcr w1 explore --target "$WS" --cases 4000 --jobs 2 --no-color --emit "$TMP/ws.cases" \
        --format json --output "$TMP/w1.json"
    want_rc w1 1
    n=$(jsonq "$TMP/w1.json" 'len(d["findings"])')
    [ "$n" -ge 1 ] || fail "no finding"
    jsonq "$TMP/w1.json" 'all(f["shrunk"].startswith("case explore/1/") for f in d["findings"])' | grep -qx True ||
        fail "a finding has no shrunk case"
    jsonq "$TMP/w1.json" 'd["explore"]["cases"] == d["totals"]["cases"] == 4000' | grep -qx True ||
        fail "totals do not count every case: $(jsonq "$TMP/w1.json" 'd["totals"]')"
    jsonq "$TMP/w1.json" 'all(c["op"] == "add" for c in d["cases"])' | grep -qx True ||
        fail "wrong_shape fails add only, yet other ops are listed"
    cases=$(grep -c '^case ' "$TMP/ws.cases")
    [ "$cases" -eq "$n" ] || fail "$n findings, $cases cases emitted"
    grep -q '^tags .*explored' "$TMP/ws.cases" && grep -q '^source ref ref2$' "$TMP/ws.cases" || fail "emitted cases not tagged"
    # the file replays: every case fails on the target the same way, and passes on ref
    bcr w2 --target "$WS" --no-color --format json --output "$TMP/w2.json" "$TMP/ws.cases"
    want_rc w2 1
    want_last w2 "^0 passed, $n failed, 0 skipped\$"
    same=$($PY - "$TMP/w1.json" "$TMP/w2.json" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
sig = lambda f: f["signature"]
print(sorted(map(sig, a["findings"])) == sorted(map(sig, b["findings"])))
EOF
)
    [ "$same" = True ] || fail "the replayed file fails otherwise than the exploration"
    bcr w3 --target "$REF" --no-color --profile torch "$TMP/ws.cases"
    want_rc w3 0
}

explore_is_reproducible() {
    bcr d1 explore --target "$REF" --seed 77 --cases 500 --emit-all --emit "$TMP/d1.cases"
    bcr d2 explore --target "$REF" --seed 77 --cases 500 --emit-all --emit "$TMP/d2.cases" --jobs 2
    bcr d3 explore --target "$REF" --seed 78 --cases 500 --emit-all --emit "$TMP/d3.cases"
    want_rc d1 0
    cmp -s "$TMP/d1.cases" "$TMP/d2.cases" || fail "the same seed gave other cases"
    cmp -s "$TMP/d1.cases" "$TMP/d3.cases" && fail "another seed gave the same cases"
    [ "$(grep -c '^case explore/77/' "$TMP/d1.cases")" -eq 500 ] || fail "--emit-all did not write 500 cases"
    bcr d4 --target "$REF" --jobs 2 "$TMP/d1.cases"      # every generated case is a valid case, ref passes it
    want_rc d4 0
    want_last d4 '^500 passed, 0 failed, 0 skipped$'
}

shards_are_disjoint_and_merge_back() {
    bcr h0 explore --target "$WS" --cases 3000 --jobs 2 --format json --output "$TMP/h0.json"
    bcr h1 explore --target "$WS" --cases 3000 --shard 1/2 --format json --output "$TMP/h1.json"
    bcr h2 explore --target "$WS" --cases 3000 --shard 2/2 --format json --output "$TMP/h2.json"
    want_rc h1 1
    bcr hm merge "$TMP/h1.json" "$TMP/h2.json" --format json --output "$TMP/hm.json"
    want_rc hm 1
    r=$($PY - "$TMP/h0.json" "$TMP/h1.json" "$TMP/h2.json" "$TMP/hm.json" <<'EOF'
import json, sys
w, a, b, m = (json.load(open(p)) for p in sys.argv[1:5])
ids = lambda d: {c["id"] for c in d["cases"]}
idx = lambda d: {int(i.split("/")[2]) for i in ids(d)}
problems = []
if ids(a) & ids(b): problems.append("shards share ids")
if not all(i % 2 == 0 for i in idx(a)) or not all(i % 2 == 1 for i in idx(b)): problems.append("case i is not in shard i mod 2")
if ids(m) != ids(w): problems.append("merged cases differ from one whole run")
for k in ("cases", "passed", "failed"):
    if m["totals"][k] != w["totals"][k]: problems.append("totals.%s %s != %s" % (k, m["totals"][k], w["totals"][k]))
sig = lambda d: sorted(f["signature"] for f in d["findings"])
if sig(m) != sig(w): problems.append("findings differ: %s vs %s" % (sig(m), sig(w)))
if not all(f["shrunk"] for f in m["findings"]): problems.append("a merged finding lost its shrunk case")
print("; ".join(problems) or "ok")
EOF
)
    [ "$r" = ok ] || fail "$r"
}

explore_options_are_checked() {
    bcr o1 explore --target "$REF";                      want_rc o1 2   # no budget
    bcr o2 explore --target "$REF" --cases 10 "$FIX";    want_rc o2 2   # no case files
    bcr o3 explore --target "$REF" --cases 10 --emit-all; want_rc o3 2  # --emit-all needs --emit
    bcr o4 explore --target "$REF" --cases 10 --suite ops; want_rc o4 2 # not a filter of explore
    bcr o5 explore --cases 10;                           want_rc o5 2   # --target required
    bcr o6 explore --target "$REF" --cases 200 --op add --dtype i8 --emit-all --emit "$TMP/o6.cases"
    want_rc o6 0
    grep '^op ' "$TMP/o6.cases" | grep -qv '^op add$' && fail "--op add: other ops generated"
    grep '^arg ' "$TMP/o6.cases" | grep -v ' - ' | grep -qv '^arg [a-z]* i8 ' && fail "--dtype i8: other dtypes generated"
}

if [ ! -x "$RUN" ] || [ ! -f "$WS" ] || [ ! -f "$TT/read_past_input.so" ]; then
    echo "FAIL explore: $RUN or the test targets are missing (make test-targets first)"
    echo "0 passed, 1 failed"
    exit 1
fi

t shrink_prints_a_smaller_case_that_still_fails
t shrink_a_passing_case_exits_1
t shrink_keeps_a_memory_violation
t explore_finds_nothing_on_ref
t explore_finds_the_flaw_and_its_file_replays
t explore_is_reproducible
t shards_are_disjoint_and_merge_back
t explore_options_are_checked

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
