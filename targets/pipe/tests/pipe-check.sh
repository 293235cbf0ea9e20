#!/bin/sh
# pipe-check.sh - the whole default suite through every pipe bridge of targets/registry.tsv, against its expectations.
#
#   sh targets/pipe/tests/pipe-check.sh [BUILD] [PYTHON]     (from the repository root; `make pipe-check`)
#
# A bridge whose library is missing (Python module not importable, or
# targets/js/node_modules absent: run `make js-bridges`) is skipped with a
# message. Each run uses the registry's timeout column (- : bcast-run's default)
# and $(BUILD)/$(PYTHON) expanded as `make reports` does, so numba-njit shares
# its compile cache (BUILD/numba-cache) with the gate. Prints each run's closing
# line and wall time; exit 1 if any run had unexpected failures. Slow on a cold
# cache: numba compiles each signature it meets.
BUILD=${1:-build}
PY=${2:-/usr/bin/python3}
tab=$(printf '\t')
out=$(mktemp "${TMPDIR:-/tmp}/pipe-check.XXXXXX") || exit 1
grep -v '^#' targets/registry.tsv | while IFS="$tab" read -r name so arg exp needs timeout _notes _probe; do
    [ "$so" = targets/pipe.so ] || continue
    cmd=$(printf '%s' "$arg" | sed -e "s|\$(PYTHON)|$PY|g" -e "s|\$(BUILD)|$BUILD|g")
    [ "$timeout" = - ] && topt= || topt="--timeout $timeout"
    case "$cmd" in
        node*) [ -d targets/js/node_modules ] || { echo "SKIP $name: run 'make js-bridges' first"; continue; } ;;
        *) mod=$(basename "$(printf '%s' "$cmd" | awk '{for (i = 1; i <= NF; i++) if ($i ~ /_bridge\.py$/) print $i}')" _bridge.py)
           [ "$mod" = numba ] || [ "$mod" = dask ] || [ "$mod" = numexpr ] || [ "$mod" = numpy ] || [ "$mod" = torch ] || mod=numpy
           "$PY" -c "import $mod" 2>/dev/null || { echo "SKIP $name: $PY cannot import $mod"; continue; } ;;
    esac
    start=$(date +%s)
    last=$("$BUILD/bcast-run" --target "$BUILD/$so" --target-arg "$cmd" --jobs 2 $topt \
           --expectations "$exp" cases/ | tail -n 1)
    echo "$name: $last ($(( $(date +%s) - start )) s)"
done | tee "$out"
# unexpected failures, crashes or timeouts in any run fail the check
if grep -Eq ' [1-9][0-9]* (failed|crashed|timed out)|incomplete' "$out"; then rm -f "$out"; exit 1; fi
rm -f "$out"
