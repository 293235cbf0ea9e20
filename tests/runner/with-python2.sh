#!/bin/sh
# with-python2.sh - runs a test under the NumPy 2 / torch 2 interpreter, or says why not.
#
#   sh tests/runner/with-python2.sh PYTHON2 SCRIPT [ARGS...]
#
# Without PYTHON2 (nobody ran `sh .ci/install-deps`) the test is skipped,
# saying so, with the "N passed, N failed, N skipped" line tests/run-tests.sh adds up.
py=$1; shift
if [ ! -x "$py" ]; then
    echo "skipped $1: $py does not exist (sh .ci/install-deps creates .venv/oracles)"
    echo "0 passed, 0 failed, 1 skipped"
    exit 0
fi
exec "$py" "$@"
