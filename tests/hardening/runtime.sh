#!/bin/sh
# runtime.sh - hostile targets not covered by tests/runner/e2e.sh (a leak, a
# huge malloc), interrupted runs (SIGINT/SIGTERM x JSON/JUnit/TAP, atomic
# output), and the whole default suite against the reference target.
#
#   sh tests/hardening/runtime.sh [BUILD]     (from the repository root)
BUILD=${1:-build}
. tests/hardening/lib.sh
FIX="tests/runner/fixtures/basic tests/runner/fixtures/real"
NFIX=48

# ---- hostile targets -------------------------------------------------------------
leak_is_contained() {
    # 512 MiB leaked per call, abort() when malloc fails: the worker hits its
    # data-segment (RLIMIT_DATA) limit, that case crashes, the worker is replaced and every
    # other case still passes. Under ASan there is no such limit (lib.sh).
    $BOUNDED --timeout 60 "$TMP/leak.out" "$TMP/leak.err" -- "$RUN" --target "$TT/hostile_leak.so" \
        --jobs 1 --no-color --format json --output "$TMP/leak.json" $FIX >"$TMP/leak.res"
    grep -q '^rc=[01] ' "$TMP/leak.res" || { fail "leak: $(cat "$TMP/leak.res")"; return; }
    n=$($RES table "$TMP/leak.json" | wc -l)
    [ "$n" -eq "$NFIX" ] || fail "leak: $n results, expected $NFIX"
    bad=$($RES table "$TMP/leak.json" | awk -F '\t' '$2 != "pass" && !($2 == "crash" && $3 ~ /SIGABRT/)')
    [ -z "$bad" ] || fail "leak: cases hurt by the leak beyond a crash: $bad"
    crashes=$($RES table "$TMP/leak.json" | awk -F '\t' '$2 == "crash"' | wc -l)
    if [ "$ASAN" != 1 ]; then
        [ "$crashes" -ge 1 ] || fail "leak: 24 GiB leaked and no worker ran out of address space"
        [ "$crashes" -lt "$NFIX" ] || fail "leak: every case crashed"
    fi
}

huge_malloc_is_refused() {
    $BOUNDED --timeout 60 "$TMP/big.out" "$TMP/big.err" -- "$RUN" --target "$TT/hostile_bigalloc.so" \
        --jobs 2 --no-color --format json --output "$TMP/big.json" $FIX >"$TMP/big.res"
    grep -q '^rc=[01] ' "$TMP/big.res" || { fail "bigalloc: $(cat "$TMP/big.res")"; return; }
    # Value-mode add cases fail with the target's "refused"; all others pass.
    ids=$($PY -c 'import sys,json
for c in json.load(open(sys.argv[1]))["cases"]:
    if c["op"] == "add" and c["mode"] == "value": print(c["id"])' "$TMP/big.json")
    [ -n "$ids" ] || { fail "bigalloc: no add case in the fixtures"; return; }
    if [ "$ASAN" = 1 ]; then
        bad=$($RES table "$TMP/big.json" | awk -F '\t' '$2 != "pass" && $3 !~ /refused/')
        [ -z "$bad" ] || fail "bigalloc: $bad"
    else
        set --
        for id in $ids; do set -- "$@" "$id=fail~8 GiB malloc refused"; done
        msg=$($RES check "$TMP/big.json" "$@" 2>&1) || fail "bigalloc: $msg"
    fi
}

# ---- interrupted runs ----------------------------------------------------------------
# interrupt SIG FORMAT: hang.so hangs on the fixtures' mul case (--timeout 30);
# SIG arrives after 1 s. Exit 130; the output file exists, is a complete
# document, says the run is incomplete and holds the finished cases; no
# temporary file is left behind.
interrupt() {
    sig=$1; fmt=$2; ext=$fmt; [ "$fmt" = junit ] && ext=xml
    out=$TMP/int-$sig.$ext
    "$RUN" --target "$TT/hang.so" --jobs 2 --timeout 30 --format "$fmt" --output "$out" \
        tests/runner/fixtures/basic >"$TMP/int-$sig-$fmt.out" 2>"$TMP/int-$sig-$fmt.err" &
    pid=$!
    sleep 1
    kill -"$sig" "$pid"
    wait "$pid"; irc=$?
    [ "$irc" -eq 130 ] || fail "$sig/$fmt: exit $irc, expected 130"
    tail -n 1 "$TMP/int-$sig-$fmt.out" | grep -q '(incomplete: interrupted)$' ||
        fail "$sig/$fmt: last stdout line does not say incomplete: $(tail -n 1 "$TMP/int-$sig-$fmt.out")"
    [ -s "$out" ] || { fail "$sig/$fmt: no output written"; return; }
    ls "$TMP" | grep -q '\.tmp' && fail "$sig/$fmt: temporary file left: $(ls "$TMP" | grep '\.tmp')"
    case $fmt in
    json)
        [ "$($RES field "$out" complete)" = false ] || fail "$sig/json: complete is not false"
        n=$($RES table "$out" | grep -c '	pass	')
        [ "$n" -ge 1 ] || fail "$sig/json: no finished case kept"
        $RES table "$out" | grep -q 'binary/mul/i32/(3,)x()	pass' && fail "$sig/json: the hanging case is reported passed" ;;
    junit)
        $PY -c 'import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
cases = r.findall(".//testcase")
inc = [c for c in cases if c.get("name") == "run-complete" and c.find("error") is not None]
assert inc, "no run-complete error testcase"
assert len(cases) >= 2, "no finished case kept"
assert int(r.get("errors")) >= 1, "errors count does not include the interruption"' "$out" 2>"$TMP/int-$sig-junit.py" ||
            fail "$sig/junit: $(tail -n 1 "$TMP/int-$sig-junit.py")" ;;
    tap)
        grep -q '^Bail out!' "$out" || fail "$sig/tap: no 'Bail out!'"
        if command -v prove >/dev/null 2>&1 && prove -e cat "$out" >/dev/null 2>&1; then
            fail "$sig/tap: prove accepts an interrupted run"
        fi ;;
    esac
}
sigint_json() { interrupt INT json; }
sigterm_json() { interrupt TERM json; }
sigint_junit() { interrupt INT junit; }
sigterm_junit() { interrupt TERM junit; }
sigterm_tap() { interrupt TERM tap; }

stop_while_a_worker_restarts() {
    # A worker replaced mid-run waits for its target to start (a pipe bridge
    # importing a library can take many seconds); a SIGINT then stops the run
    # at once, not after the start-up grace. Once the run is under way the
    # test makes every new bridge wait (until the test ends) and kills the
    # running one, so that its worker is replaced.
    slow=$TMP/restart.slow
    rm -f "$slow"
    # a uniquely named link to the bridge, so that pkill hits only this test's (Python
    # resolves the link for its imports)
    link=$TMP/restart_bridge_$$.py
    ln -sf "$(pwd)/targets/pipe/bridges/numpy_bridge.py" "$link"
    bridge="if [ -e $slow ]; then while [ -e $slow ]; do sleep 0.2; done; exit 1; fi; exec $PY $link"
    # workers forked by the runner (no fork server), each starting its own bridge: the restart path
    BCAST_RUN_FORK_SERVER=0 "$RUN" --target "$BUILD/targets/pipe.so" --target-arg "$bridge" --jobs 1 \
        --timeout 30 --no-color cases/ >"$TMP/restart.out" 2>"$TMP/restart.err" &
    pid=$!
    i=0
    until pgrep -f "^$PY $link" >/dev/null || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
    sleep 1
    touch "$slow"
    pkill -f "^$PY $link" 2>/dev/null   # the worker loses its bridge: a crash, then a restart that waits
    sleep 1.5
    t0=$(date +%s)
    kill -INT "$pid" 2>/dev/null || fail "restart: the run ended before the SIGINT: $(tail -n 2 "$TMP/restart.err")"
    wait "$pid"; irc=$?
    dt=$(( $(date +%s) - t0 ))
    rm -f "$slow" "$link"
    [ "$irc" -eq 130 ] || fail "restart: exit $irc after SIGINT, expected 130: $(tail -n 2 "$TMP/restart.err")"
    [ "$dt" -le 5 ] || fail "restart: the run took $dt s to stop after SIGINT (a starting worker ignored it)"
}

output_replaced_atomically() {
    # An existing report is replaced whole, never truncated in place: its
    # inode changes (written to FILE.tmp, then renamed).
    echo old >"$TMP/atomic.json"
    before=$(ls -i "$TMP/atomic.json" | cut -d' ' -f1)
    "$RUN" --target "$REF" --format json --output "$TMP/atomic.json" tests/runner/fixtures/basic >/dev/null 2>&1
    after=$(ls -i "$TMP/atomic.json" | cut -d' ' -f1)
    [ "$before" != "$after" ] || fail "the output file was rewritten in place"
    $PY -m json.tool "$TMP/atomic.json" >/dev/null 2>&1 || fail "the output is not JSON"
    [ ! -e "$TMP/atomic.json.tmp" ] || fail "temporary file left behind"
}

# ---- the whole default suite --------------------------------------------------------------
default_suite_passes_on_ref() {
    # Under `make sanitize` this runs ref, the runner and the ref target with
    # ASan+UBSan over every default case; worker stderr is kept so that a
    # sanitizer report is seen (and any report fails the test).
    # All four profiles: ref implements them, and a bug in its torch-profile paths
    # (rank cap, 0-d promotion, division by zero, out= resize) must fail here.
    # The only skips allowed are the cases one generation's oracles could not
    # express (their source names no oracle of the profile's generation).
    for prof in numpy torch numpy2 torch2; do
        case $prof in *2) words=' numpy2 | torch2 | rule ' ;; *) words=' numpy | torch | rule | ref ' ;; esac
        # (cases/large.cases is the opt-in suite, not part of the default run)
        skips=$(ls cases/*.cases | grep -v '/large\.cases$' | xargs cat | grep '^source ' | sed 's/$/ /' |
                grep -Evc "$words")
        BCAST_RUN_WORKER_STDERR=1 "$RUN" --target "$REF" --profile $prof --jobs 2 --no-color cases/ \
            >"$TMP/suite.out" 2>"$TMP/suite.err"; src=$?
        [ "$src" -eq 0 ] || fail "default suite ($prof): exit $src: $(tail -n 1 "$TMP/suite.out")"
        tail -n 1 "$TMP/suite.out" | grep -Eq "^[1-9][0-9]* passed, 0 failed, $skips skipped\$" ||
            fail "default suite ($prof): $(tail -n 1 "$TMP/suite.out") ($skips skips expected)"
        grep -Eq 'runtime error|ERROR: AddressSanitizer|ERROR: LeakSanitizer' "$TMP/suite.err" &&
            fail "default suite ($prof): sanitizer report: $(grep -Em 3 'runtime error|ERROR:' "$TMP/suite.err")"
    done
    true
}

if [ ! -x "$RUN" ] || [ ! -f "$REF" ] || [ ! -f "$TT/hostile_leak.so" ]; then
    echo "FAIL runtime: $RUN, $REF or $TT/hostile_leak.so missing (make test-targets)"; echo "0 passed, 1 failed"; exit 1
fi
for test in leak_is_contained huge_malloc_is_refused sigint_json sigterm_json sigint_junit \
    sigterm_junit sigterm_tap stop_while_a_worker_restarts output_replaced_atomically default_suite_passes_on_ref; do
    t "$test"
done
finish
