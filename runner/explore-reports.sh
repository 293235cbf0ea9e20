#!/bin/sh
# explore-reports.sh - `make explore-reports`: every registered target explored with a fixed seed and case budget; reports/<name>/explore.json and explore.cases.
#
#   sh runner/explore-reports.sh BUILD PYTHON [OUT]        (from the repository root; OUT defaults to reports)
#
# For each line of targets/registry.tsv whose shared object is built, runs
#   bcast-run explore --target BUILD/<so> [--target-arg ...] [--timeout ...] --seed $EXPLORE_SEED
#                     --cases <budget> --jobs 2 --format json --output OUT/<name>/explore.json
#                     --emit OUT/<name>/explore.cases
# explore.json is the JSON result (docs/runner.md: the failing cases, the findings with their
# shrunk cases, the totals of every case run); explore.cases holds one shrunk case per finding.
# The budget is the target's line of targets/explore-budgets.tsv (else its `*` line): a case
# budget, not a time budget, so that a report is the same on every run. Unbuilt targets are
# skipped with a message; a target that cannot run (exit 2) fails the command at the end.
BUILD=${1:?usage: explore-reports.sh BUILD PYTHON [OUT]}
PYTHON=${2:?usage: explore-reports.sh BUILD PYTHON [OUT]}
OUT=${3:-reports}
SEED=${EXPLORE_SEED:-1}
RUN=$BUILD/bcast-run
BUDGETS=targets/explore-budgets.tsv

budget() {
    b=$(awk -F'\t' -v n="$1" '$1 == n { print $2; exit }' "$BUDGETS")
    [ -n "$b" ] || b=$(awk -F'\t' '$1 == "*" { print $2; exit }' "$BUDGETS")
    echo "${b:-10000}"
}

[ -x "$RUN" ] || { echo "explore-reports: $RUN is not built (make first)" >&2; exit 2; }
bad=""
tab=$(printf '\t')
while IFS="$tab" read -r name so arg exp needs tmo; do
    case "$name" in ''|'#'*) continue ;; esac
    if [ ! -f "$BUILD/$so" ]; then
        echo "explore-reports: $name: $BUILD/$so is not built, skipped"
        continue
    fi
    cases=$(budget "$name")
    mkdir -p "$OUT/$name"
    set -- explore --target "$BUILD/$so" --seed "$SEED" --cases "$cases" --jobs 2 --no-color \
        --format json --output "$OUT/$name/explore.json" --emit "$OUT/$name/explore.cases"
    if [ "$arg" != "-" ]; then
        arg=$(printf '%s' "$arg" | sed "s#\$(PYTHON)#$PYTHON#g; s#\$(BUILD)#$BUILD#g")
        set -- "$@" --target-arg "$arg"
    fi
    [ "$tmo" = "-" ] || set -- "$@" --timeout "$tmo"
    t0=$(date +%s)
    "$RUN" "$@" >"$OUT/$name/explore.txt" 2>"$OUT/$name/explore.err"
    rc=$?
    printf 'explore-reports: %-16s %s (exit %d, %d s)\n' "$name" \
        "$(grep 'cases in' "$OUT/$name/explore.err" | tail -n 1 | sed 's/^explore: //')" "$rc" $(( $(date +%s) - t0 ))
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
        sed 's/^/    /' "$OUT/$name/explore.err" | tail -n 5
        bad="$bad $name"
    fi
done < targets/registry.tsv
if [ -n "$bad" ]; then
    echo "explore-reports: could not explore:$bad"
    exit 1
fi
