# lib.sh - plumbing shared by the tests/hardening/*.sh scripts (sourced, not run).
#
# Each test is a shell function run by `t NAME`; it calls fail (or skip) to
# report. Scripts print PASS/FAIL/SKIP NAME per test and end with
# "N passed, N failed, N skipped" (tests/run-tests.sh adds these up).
# Needs: BUILD set, run from the repository root.

RUN=$BUILD/bcast-run
REF=$BUILD/targets/ref.so
TT=$BUILD/targets/test
PY=${PYTHON:-/usr/bin/python3}
RES="$PY tests/runner/results.py"
BOUNDED="$PY tests/hardening/bounded.py"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bcast-hard.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
passed=0; failed=0; skipped=0
# HARD_ASAN=1 (set by hardening.mk under `make sanitize`): AddressSanitizer
# reserves terabytes of address space, so RLIMIT_AS cannot bound the runner.
ASAN=${HARD_ASAN:-0}
# Memory bounds for a runner that must stop at a bad input: address space
# (not under ASan) and peak RSS.
AS_MIB=512
RSS_MIB=256

fail() { why="${why}${why:+
}  $*"; }
skip() { skipwhy=$*; }

t() {
    why=; skipwhy=
    "$1"
    if [ -n "$skipwhy" ]; then echo "SKIP $1: $skipwhy"; skipped=$((skipped + 1))
    elif [ -z "$why" ]; then echo "PASS $1"; passed=$((passed + 1))
    else echo "FAIL $1"; printf '%s\n' "$why"; failed=$((failed + 1)); fi
}

finish() {
    echo "$passed passed, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ]
}

# bounded NAME [--as] CMD...: runs CMD within 10 s (and, with --as, AS_MIB of
# address space unless under ASan); stdout/stderr in $TMP/NAME.out/.err; sets
# $rc (a number, or "timeout") and $rss (MiB), and fails the test when the
# time or the peak RSS bound is exceeded.
bounded() {
    bname=$1; shift
    lim=
    if [ "$1" = --as ]; then shift; [ "$ASAN" = 1 ] || lim="--as-mib $AS_MIB"; fi
    res=$($BOUNDED $lim "$TMP/$bname.out" "$TMP/$bname.err" -- "$@")
    rc=$(echo "$res" | sed -E 's/^rc=([^ ]*).*/\1/')
    rss=$(echo "$res" | sed -E 's/.*rss_mib=([0-9]+).*/\1/')
    [ "$rc" = timeout ] && fail "$bname: still running after 10 s"
    [ "${rss:-0}" -le "$RSS_MIB" ] || fail "$bname: peak RSS $rss MiB > $RSS_MIB MiB"
}
