# lib.sh - shared plumbing of the runner's end-to-end tests (e2e.sh, gate.sh): the fixture ids, running bcast-run, checks, PASS/FAIL lines.
#
#   . tests/runner/lib.sh      (with $1 = BUILD, from the repository root)

BUILD=${1:-build}
RUN=$BUILD/bcast-run
REF=$BUILD/targets/ref.so
TT=$BUILD/targets/test
FIX=tests/runner/fixtures/basic
PY=${PYTHON:-/usr/bin/python3}
RES="$PY tests/runner/results.py"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bcast-e2e.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
passed=0
failed=0
skipped=0

# The fixture cases (tests/runner/fixtures/basic/basic.cases). The broken
# targets trigger on op and mode, so each test names the ids that must fail.
A='binary/add/i32/(2,1)x(3,)'
C='binary/sub/i32/(2,3)x(3,)'
D='binary/mul/i32/(3,)x()'
N='binary/add/f32/(2,3)x(4,)'
E='zero-size/add/f32/(2,0)x(1,)'
F='zero-size/add/i32/(1,3)x(0,1)'
G='layouts/add/f32/(2,3)transposed+(3,)'
H='layouts/add/i32/(3,)reversed-offset+(3,)'
I='inplace/add/i32/(2,3)+=(3,)'
J='inplace/add/i32/(3,)+=(2,3)'
P='inplace/add/i32/out=(2,3)'
O='ops/floor_divide/i32/(2,)x(2,)zero'
NCASES=17

# ---- plumbing ----------------------------------------------------------

# report NAME: PASS when the test function set no $why, FAIL with it
# otherwise; SKIP when it called skip (a consumer tool is not installed).
report() {
    if [ -n "$skipwhy" ]; then
        echo "SKIP $1: $skipwhy"; skipped=$((skipped + 1))
    elif [ -z "$why" ]; then
        echo "PASS $1"; passed=$((passed + 1))
    else
        echo "FAIL $1"; printf '%s\n' "$why" | sed 's/^/    /'; failed=$((failed + 1))
    fi
}

# t NAME: runs the shell function NAME and reports it.
t() {
    why=
    skipwhy=
    "$1"
    report "$1"
}

fail() { why="${why}${why:+
}$*"; }
skip() { skipwhy=$*; }

# bcr OUT ARGS...: runs bcast-run, stdout to $TMP/OUT.out, stderr to
# $TMP/OUT.err, exit status in $rc.
bcr() {
    out=$1; shift
    "$RUN" "$@" >"$TMP/$out.out" 2>"$TMP/$out.err"
    rc=$?
}

want_rc() { # want_rc NAME EXPECTED
    [ "$rc" -eq "$2" ] || fail "$1: exit $rc, expected $2; stderr: $(head -c 400 "$TMP/$1.err")"
}

lastline() { tail -n 1 "$TMP/$1.out"; }

# want_last NAME REGEX: the last stdout line is the totals line and matches.
want_last() {
    lastline "$1" | grep -Eq "$2" || fail "$1: last line '$(lastline "$1")', expected /$2/"
}

# outcomes NAME ID=OUTCOME[~TEXT]...: checks $TMP/NAME.json.
outcomes() {
    j=$1; shift
    msg=$($RES check "$TMP/$j.json" "$@" 2>&1) || fail "$j: $msg"
}

# broken NAME EXIT ID=OUTCOME...: runs the fixtures against test target NAME
# with JSON output, checks exit status and per-case outcomes.
broken() {
    name=$1; code=$2; shift 2
    bcr "$name" --target "$TT/$name.so" --timeout 2 --no-color \
        --format json --output "$TMP/$name.json" "$FIX"
    want_rc "$name" "$code"
    want_last "$name" '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped'
    [ -s "$TMP/$name.json" ] || { fail "$name: no JSON written"; return; }
    outcomes "$name" "$@"
}

