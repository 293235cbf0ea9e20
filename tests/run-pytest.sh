#!/bin/sh
# run-pytest.sh - runs pytest on the given paths with the Python that has NumPy
# and torch, and ends with the "N passed, N failed[, N skipped]" line that
# tests/run-tests.sh adds up. Without numpy/torch/pytest it prints why and
# "0 passed, 0 failed, 1 skipped". Usage: sh tests/run-pytest.sh PATH... [pytest args]
PY=${PYTHON:-/usr/bin/python3}
export PYTHONDONTWRITEBYTECODE=1
if ! "$PY" -c 'import numpy, torch, pytest' >/dev/null 2>&1; then
    echo "skipped $*: $PY lacks numpy, torch or pytest (install python3-numpy, python3-torch, python3-pytest)"
    echo "0 passed, 0 failed, 1 skipped"
    exit 0
fi
out=$("$PY" -m pytest -q -rfE --tb=short -p no:cacheprovider "$@" 2>&1); rc=$?
# Progress lines (dots) carry no information; everything else is shown.
printf '%s\n' "$out" | grep -vE '^[.sxF]+ *(\[ *[0-9]+%\])?$'
summary=$(printf '%s\n' "$out" | grep -E '^=*.*[0-9]+ (passed|failed|error|errors|skipped)' | tail -n 1)
num() { printf '%s\n' "$summary" | grep -oE "[0-9]+ $1" | head -n 1 | cut -d' ' -f1; }
p=$(num passed); f=$(num failed); e=$(num 'errors?'); s=$(num skipped)
p=${p:-0}; f=$((${f:-0} + ${e:-0})); s=${s:-0}
if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "pytest exited $rc without a failed test (collection or usage error)"
    f=1
fi
if [ "$s" -gt 0 ]; then echo "$p passed, $f failed, $s skipped"; else echo "$p passed, $f failed"; fi
[ "$f" -eq 0 ]
