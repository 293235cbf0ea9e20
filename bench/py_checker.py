"""py_checker.py - a plain Python checker of case files: the baseline bcast-run is timed against.

    /usr/bin/python3 bench/py_checker.py [--verbose] [--large] [--parse-only] CASEFILE|DIR ...

What a user would write without bcast-run: read docs/case-format.md's format
(parsed here, on its own, with no code shared with gen/ or runner/), build each
operand with numpy.lib.stride_tricks.as_strided, run the op through NumPy and
compare with numpy.testing against the NumPy-profile expectation (`*` or
`numpy`). Handles element-wise binary ops, where, broadcast_to and matmul, in
the value, inplace and out modes; every other op (expand, broadcast_shapes,
axis_add, uni_add) is skipped and counted, and so is the opt-in `large` suite
(as in bcast-run) unless --large is given. Error expectations pass when NumPy
raises the expected class. The last line is "N passed, N failed, N skipped";
the exit status is 1 if any case failed.
"""

import argparse
import os
import sys
import time

import numpy as np
from numpy.lib.stride_tricks import as_strided

DTYPES = {"bool": np.bool_, "i8": np.int8, "u8": np.uint8, "i16": np.int16, "i32": np.int32,
          "i64": np.int64, "f32": np.float32, "f64": np.float64}
BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
          "floor_divide": np.floor_divide, "remainder": np.remainder, "pow": np.power,
          "maximum": np.maximum, "minimum": np.minimum, "eq": np.equal, "ne": np.not_equal,
          "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
          "logical_and": np.logical_and, "logical_or": np.logical_or,
          "logical_xor": np.logical_xor, "bitwise_and": np.bitwise_and,
          "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor}
HANDLED = set(BINARY) | {"where", "broadcast_to", "matmul"}

# NumPy's exception texts -> the format's error classes (first match wins).
ERROR_CLASSES = [
    ("cannot broadcast a non-scalar to a scalar", "invalid-shape"),
    ("does not have enough dimensions", "matmul-core"),
    ("number of dimensions must be within", "rank-limit"),
    ("boolean subtract", "dtype"),
    ("non-broadcastable output", "inplace-shape"),
    ("could not be broadcast", "not-broadcastable"),
    ("broadcast input array from shape", "not-broadcastable"),
    ("read-only", "overlap"),
    ("core dimension", "matmul-core"),
    ("scalar operands are not allowed", "matmul-core"),
    ("maxdims", "rank-limit"),
    ("too many dimensions", "rank-limit"),
    ("array is too big", "overflow"),
    ("maximum supported dimension", "overflow"),
    ("negative dimensions", "invalid-shape"),
    ("all elements of broadcast shape must be non-negative", "invalid-shape"),
    ("input operand has more dimensions than allowed", "invalid-shape"),
    ("Cannot cast", "dtype"),
    ("not supported for the input types", "dtype"),
    ("did not contain a loop", "dtype"),
    ("ufunc", "dtype"),
]


class CaseError(Exception):
    """A malformed file or case: names the file, line and what was wrong."""


def parse_shape(text, where):
    if not (text.startswith("(") and text.endswith(")")):
        raise CaseError("%s: bad shape %r" % (where, text))
    inner = text[1:-1]
    if inner == "":
        return ()
    try:
        return tuple(int(t) for t in inner.split(",") if t != "")
    except ValueError:
        raise CaseError("%s: bad shape %r" % (where, text)) from None


def parse_values(tokens, dtype, count, where):
    if len(tokens) != count:
        raise CaseError("%s: %d values for %d elements" % (where, len(tokens), count))
    dt = np.dtype(DTYPES[dtype])
    try:
        if dt.kind == "f":
            vals = [float.fromhex(t) for t in tokens]
            return np.array(vals, dtype=np.float64).astype(dt)
        ints = [int(t, 10) for t in tokens]
    except ValueError as e:
        raise CaseError("%s: bad value (%s)" % (where, e)) from None
    info = np.iinfo(dt) if dt.kind != "b" else None
    lo, hi = (0, 1) if info is None else (info.min, info.max)
    bad = [v for v in ints if v < lo or v > hi]
    if bad:
        raise CaseError("%s: value %d out of range for %s" % (where, bad[0], dtype))
    return np.array(ints, dtype=np.int64).astype(dt)


def parse_pattern(tokens, dtype, count, where):
    """`pattern ramp A B M K D`: element i is (((i*A + B) mod M) - K) / D."""
    if len(tokens) != 6 or tokens[0] != "ramp":
        raise CaseError("%s: bad pattern line" % where)
    a, b, m, k = (int(t) for t in tokens[1:5])
    d = int(tokens[5])
    i = np.arange(count, dtype=np.int64)
    v = (i * a + b) % m - k
    dt = np.dtype(DTYPES[dtype])
    if dt.kind == "b":
        return v != 0
    if dt.kind == "f":
        return (v.astype(np.float64) / d).astype(dt)
    return v.astype(dt)


def fnv1a64(arr):
    """The format's digest: FNV-1a 64 over the little-endian bytes, NaNs canonical."""
    a = np.ascontiguousarray(arr)
    if a.dtype.kind == "f":
        a = a.copy()
        a[np.isnan(a)] = np.nan  # np.nan is the canonical quiet NaN in both widths
    data = a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes()
    h = 0xcbf29ce484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def read_cases(path):
    """Yields (id, record) per case: record holds op, mode, attrs, args and the expects."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if not lines or lines[0] != "bcast-cases 1":
        raise CaseError("%s: first line is %r, want 'bcast-cases 1'" % (path, lines[0] if lines else ""))
    rec, want_data = None, None
    for no, line in enumerate(lines[1:], start=2):
        where = "%s:%d" % (path, no)
        if line == "" or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if want_data is not None:
            if key not in ("values", "pattern", "digest"):
                raise CaseError("%s: expected a data line after line %d" % (where, no - 1))
            want_data["data"] = (key, rest.split())
            want_data = None
            continue
        if key == "case":
            if rec is not None:
                raise CaseError("%s: case %s has no end" % (where, rec["id"]))
            rec = {"id": rest, "args": [], "expects": [], "attr": {}, "mode": "value", "where": where}
        elif rec is None:
            raise CaseError("%s: %r outside a case" % (where, key))
        elif key == "end":
            yield rec["id"], rec
            rec = None
        elif key in ("op", "mode", "suite"):
            rec[key] = rest
        elif key == "attr":
            name, _, val = rest.partition(" ")
            rec["attr"][name] = parse_shape(val, where) if name == "shape" else int(val)
        elif key == "arg":
            t = rest.split()
            if len(t) != 6:
                raise CaseError("%s: arg needs NAME DTYPE SHAPE STRIDES OFFSET STORAGE" % where)
            arg = {"name": t[0], "dtype": t[1], "shape": parse_shape(t[2], where),
                   "strides": parse_shape(t[3], where), "offset": int(t[4]), "storage": int(t[5]),
                   "where": where}
            rec["args"].append(arg)
            if t[1] != "-":
                want_data = arg
        elif key == "expect":
            t = rest.split()
            e = {"profile": t[0], "kind": t[1], "where": where}
            if t[1] == "ok":
                e.update(dtype=t[2], shape=parse_shape(t[3], where), compare=t[4:])
                want_data = e
            elif t[1] == "grad":   # mode grad: a gradient (this checker skips grad cases)
                e.update(name=t[2], dtype=t[3], shape=parse_shape(t[4], where), compare=t[5:])
                want_data = e
            else:
                e["cls"] = t[2]
            rec["expects"].append(e)
        # tags, rules, source, message: documentation for this checker
    if rec is not None:
        raise CaseError("%s: case %s has no end" % (path, rec["id"]))


def build_operand(arg):
    """The operand as a strided view of its storage. Inputs are read-only (as on
    the runner's read-only pages); self and out are writable unless they
    overlap themselves, which NumPy only produces as read-only broadcast views."""
    dt = np.dtype(DTYPES[arg["dtype"]])
    kind, toks = arg["data"]
    if kind == "values":
        store = parse_values(toks, arg["dtype"], arg["storage"], arg["where"])
    elif kind == "pattern":
        store = parse_pattern(toks, arg["dtype"], arg["storage"], arg["where"])
    else:
        raise CaseError("%s: an arg cannot have a %s line" % (arg["where"], kind))
    shape, strides, off = arg["shape"], arg["strides"], arg["offset"]
    if len(strides) != len(shape):
        raise CaseError("%s: %d strides for rank %d" % (arg["where"], len(strides), len(shape)))
    if all(n > 0 for n in shape):
        lo = off + sum(s * (n - 1) for s, n in zip(strides, shape) if s < 0)
        hi = off + sum(s * (n - 1) for s, n in zip(strides, shape) if s > 0)
        if lo < 0 or hi >= arg["storage"]:
            raise CaseError("%s: view reaches outside its storage" % arg["where"])
    overlap = any(s == 0 and n > 1 for s, n in zip(strides, shape))
    writable = arg["name"] in ("self", "out") and not overlap
    if 0 in shape:  # no element is addressed: the storage does not matter
        out = np.empty(shape, dt)
        out.flags.writeable = writable
        return out
    return as_strided(store[off:], shape, [s * dt.itemsize for s in strides], writeable=writable)


def evaluate(rec):
    """Runs the case through NumPy; returns the result array (self for inplace)."""
    op, mode = rec["op"], rec["mode"]
    a = [build_operand(x) for x in rec["args"]]
    with np.errstate(all="ignore"):
        if op in BINARY:
            f = BINARY[op]
            if mode == "inplace":
                f(a[0], a[1], out=a[0])
                return a[0]
            if mode == "out":
                f(a[0], a[1], out=a[2])
                return a[2]
            return np.asarray(f(a[0], a[1]))
        if op == "where":
            return np.asarray(np.where(a[0], a[1], a[2]))
        if op == "broadcast_to":
            return np.array(np.broadcast_to(a[0], rec["attr"]["shape"]))
        return np.asarray(np.matmul(a[0], a[1]))


def error_class(exc):
    msg = str(exc)
    for text, cls in ERROR_CLASSES:
        if text in msg:
            return cls
    return "other"


def compare(got, e):
    """numpy.testing against one `ok` expectation; raises AssertionError."""
    dt = np.dtype(DTYPES[e["dtype"]])
    assert got.dtype == dt, "dtype %s, expected %s" % (got.dtype, dt)
    assert got.shape == e["shape"], "shape %s, expected %s" % (got.shape, e["shape"])
    kind, toks = e["data"]
    if kind == "digest":
        if len(toks) != 3 or toks[0] != "fnv1a64" or not toks[2].isdigit():
            raise CaseError("%s: bad digest line (want: digest fnv1a64 HEX ELEMENTS)" % e["where"])
        assert int(toks[2]) == got.size, "digest of %s elements for %d" % (toks[2], got.size)
        assert fnv1a64(got) == toks[1].lower(), "digest %s, expected %s" % (fnv1a64(got), toks[1])
        return
    want = parse_values(toks, e["dtype"], got.size, e["where"]).reshape(e["shape"])
    if dt.kind != "f":
        np.testing.assert_array_equal(got, want)
        return
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan, err_msg="NaN positions differ")
    g, w = got[~nan], want[~nan]
    if e["compare"][0] == "ulp":
        np.testing.assert_array_equal(np.isinf(g), np.isinf(w), err_msg="infinities differ")
        fin = ~np.isinf(w)
        np.testing.assert_array_equal(g[~fin], w[~fin])
        if fin.any():
            np.testing.assert_array_max_ulp(g[fin], w[fin], maxulp=int(e["compare"][1]))
    else:
        np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(np.signbit(g), np.signbit(w), err_msg="signs of zero differ")


def parse_only(rec, with_large=False):
    """What check() does before NumPy runs the op: the operands and the expected
    values built from the text (to split the checker's time, see report.py).
    NumPy refusing an operand (rank above 32, too big) is an outcome check()
    judges; here it only ends the case's parsing."""
    if rec.get("suite") == "large" and not with_large:
        return "skip", "suite large (opt-in: --large)"
    try:
        for x in rec["args"]:
            if "data" in x:
                build_operand(x)
    except ValueError:
        pass
    for e in rec["expects"]:
        if e["kind"] == "ok" and e["dtype"] != "-" and e["data"][0] == "values":
            n = 1
            for d in e["shape"]:
                n *= d
            parse_values(e["data"][1], e["dtype"], n, e["where"])
    return "pass", ""


def check(rec, with_large=False):
    """Returns (status, detail): status is pass, fail or skip. Like bcast-run,
    the opt-in `large` suite (multi-GiB outputs) is skipped unless asked for."""
    if rec.get("suite") == "large" and not with_large:
        return "skip", "suite large (opt-in: --large)"
    if rec.get("op") not in HANDLED:
        return "skip", "op %s" % rec.get("op")
    if rec.get("mode") == "grad":
        return "skip", "mode grad (NumPy has no autodiff; gen/grad_oracles.py holds the formulas)"
    exp = [e for e in rec["expects"] if e["profile"] in ("*", "numpy")]
    if len(exp) != 1:
        return "fail", "%d NumPy-profile expectations" % len(exp)
    e = exp[0]
    try:
        got = evaluate(rec)
    except CaseError:
        raise
    except Exception as exc:  # noqa: BLE001 - any NumPy exception is an outcome
        if e["kind"] == "error":
            cls = error_class(exc)
            if cls == e["cls"]:
                return "pass", ""
            return "fail", "NumPy raised %s (%s), expected class %s" % (cls, exc, e["cls"])
        return "fail", "NumPy raised %s: %s" % (type(exc).__name__, exc)
    if e["kind"] == "error":
        return "fail", "NumPy succeeded, expected error %s" % e["cls"]
    try:
        compare(got, e)
    except AssertionError as exc:
        return "fail", str(exc).strip().splitlines()[0] if str(exc).strip() else "values differ"
    return "pass", ""


def case_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for n in sorted(os.listdir(p)):
                if n.endswith(".cases"):
                    yield os.path.join(p, n)
        else:
            yield p


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+", metavar="CASEFILE|DIR")
    ap.add_argument("--verbose", action="store_true", help="name every skipped case too")
    ap.add_argument("--large", action="store_true", help="also run the opt-in `large` suite")
    ap.add_argument("--parse-only", action="store_true",
                    help="only read the cases and build operands and expected values (no NumPy op, no comparison)")
    a = ap.parse_args()
    counts = {"pass": 0, "fail": 0, "skip": 0}
    skipped_ops = {}
    t0 = time.perf_counter()
    files = list(case_files(a.paths))
    if not files:
        print("py_checker: no .cases files in %s" % " ".join(a.paths), file=sys.stderr)
        print("0 passed, 1 failed, 0 skipped")
        return 1
    for path in files:
        try:
            for cid, rec in read_cases(path):
                try:
                    st, why = parse_only(rec, a.large) if a.parse_only else check(rec, a.large)
                except CaseError as exc:
                    st, why = "fail", "malformed case: %s" % exc
                except Exception as exc:  # noqa: BLE001 - one bad case must not stop the run
                    st, why = "fail", "checker error: %s: %s" % (type(exc).__name__, exc)
                counts[st] += 1
                if st == "fail":
                    print("FAIL %s: %s" % (cid, why))
                elif st == "skip":
                    what = "suite large" if why.startswith("suite") else rec.get("op")
                    skipped_ops[what] = skipped_ops.get(what, 0) + 1
                    if a.verbose:
                        print("skip %s: %s" % (cid, why))
        except (CaseError, OSError, UnicodeDecodeError) as exc:
            print("FAIL %s: %s" % (path, exc))
            counts["fail"] += 1
    dt = time.perf_counter() - t0
    n = counts["pass"] + counts["fail"] + counts["skip"]
    print("py_checker: %d cases in %.3f s (%.0f cases/s); skipped: %s" % (
        n, dt, n / dt if dt > 0 else 0.0,
        ", ".join("%s %d" % kv for kv in sorted(skipped_ops.items())) or "none"))
    print("%d passed, %d failed, %d skipped" % (counts["pass"], counts["fail"], counts["skip"]))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
