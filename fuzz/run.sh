#!/bin/sh
# run.sh - runs each libFuzzer harness for SECONDS on its seeds plus the saved
# regressions, keeping new inputs in DIR/corpus/NAME and crashes in
# DIR/artifacts/. Prints one summary line per harness; exits 1 on any finding.
# The message normaliser gets a quarter of SECONDS (at least 1): it is one small
# function that libFuzzer covers in seconds, and the CI budget (`make fuzz
# FUZZ_SECONDS=60`) grows by 15 s for it, not 60.
#
#   sh fuzz/run.sh DIR SECONDS [NAME...]     (NAME: caseio shapes messages; default all)
set -u
dir=$1; secs=$2; shift 2
[ $# -gt 0 ] || set -- caseio shapes messages
status=0
for name in "$@"; do
    t=$secs
    [ "$name" = messages ] && t=$(( secs / 4 > 0 ? secs / 4 : 1 ))
    # messages has no generated seeds (its seeds are fuzz/regressions/messages/)
    mkdir -p "$dir/corpus/$name" "$dir/seeds/$name" "$dir/artifacts"
    log=$dir/$name.log
    # -rss_limit_mb/-malloc_limit_mb: an input that makes the reader allocate
    # hugely is a finding (an OOM artifact), like a crash.
    "$dir/fuzz-$name" -max_total_time="$t" -timeout=10 -rss_limit_mb=2048 \
        -malloc_limit_mb=1024 -print_final_stats=1 \
        -artifact_prefix="$dir/artifacts/$name-" \
        "$dir/corpus/$name" "$dir/seeds/$name" "fuzz/regressions/$name" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -E 's/.*(cov: [0-9]+ ft: [0-9]+ corp: [^ ]+).*/\1/')
    if [ "$rc" -eq 0 ]; then
        echo "fuzz-$name: ${t}s, ${execs:-?} executions, $cov, no finding"
    else
        echo "fuzz-$name: FINDING (exit $rc) after ${execs:-?} executions; see $log and $dir/artifacts/"
        grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz_|.*runtime error)' "$log" | head -n 5
        status=1
    fi
done
exit $status
