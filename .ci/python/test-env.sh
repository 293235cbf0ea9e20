#!/bin/sh
# .ci/python/test-env.sh - `make test`'s check of a PyPI environment: .venv/ENV holds exactly .ci/python/ENV.lock's pins, and its libraries work (.ci/python/smoke_ENV.py).
#
#   sh .ci/python/test-env.sh PYTHON LOCK     (python.mk passes $(PYTHON2) and .ci/python/oracles.lock)
#
# Ends with the "N passed, N failed[, N skipped]" line tests/run-tests.sh adds
# up. Without the environment (nobody ran `sh .ci/install-deps`) both checks
# are skipped, saying so; a lock that does not parse is a failure either way.
py=$1; lock=$2
if [ ! -x "$py" ]; then
    echo "skipped: $py does not exist (sh .ci/install-deps creates it from $lock): lock and smoke checks not run"
    echo "0 passed, 0 failed, 2 skipped"
    exit 0
fi
passed=0; failed=0
if "$py" .ci/python/envcheck.py "$lock"; then passed=$((passed + 1)); else
    echo "FAILED: $py's environment differs from $lock (sh .ci/install-deps brings it back in line)"
    failed=$((failed + 1))
fi
env=$(basename "$lock" .lock)
out=$("$py" ".ci/python/smoke_$env.py" 2>&1); rc=$?
printf '%s\n' "$out" | grep -vE '^[0-9]+ passed, [0-9]+ failed'
if [ "$rc" -eq 0 ]; then passed=$((passed + 1)); else
    echo "FAILED: .ci/python/smoke_$env.py with $py"
    failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
