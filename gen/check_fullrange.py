"""check_fullrange.py - every op x dtype x broadcast pattern has a full-range case (issue #25 item 1).

    python3 gen/check_fullrange.py CASEFILE...

Classifies each value-mode case of the given files by its op, dtype and the
broadcast pattern its shapes make (same shape, a 0-d x or y, row, column,
outer, stretched middle dim, leading missing dims; each with the stretched
operand named), and counts it for that combination when some profile expects
a result (not an error) and its operands' elements hold every value of
gen/fullrange_values.required(dtype): the dtype's minimum and maximum, for
i32/i64 the values that straddle +-2^31 (+-2^32) and pairs differing in one
half only; for floats +-0, a subnormal, +-max, +-inf and a NaN with a
payload (covered() says how the cases of one combination share them).
Exits 1 naming every combination that has no such case.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from caseio import BINARY_OPS, FLOAT_DTYPES, INT_DTYPES  # noqa: E402
import caseread  # noqa: E402
import fullrange_values as fv  # noqa: E402

SIDED = ("row", "column", "middle", "leading", "outer")
ONE_WAY = ("uni_add", "axis_add")       # only y stretches (B7, B10)
EXPANDS = ("broadcast_to", "expand")    # one input stretched to the attr shape


def expected():
    """Every (op, dtype, pattern) that must be covered."""
    out = set()
    for dt in INT_DTYPES + FLOAT_DTYPES:
        ops = [o for o in BINARY_OPS if not (dt in FLOAT_DTYPES and o.startswith("bitwise"))]
        for op in ops + ["where"] + list(ONE_WAY):
            pats = ["same", "scalar-x", "scalar-y"] + ["%s-%s" % (p, s) for p in SIDED for s in "xy"]
            if op in ONE_WAY:
                pats = [p for p in pats if not p.endswith("-x") and not p.startswith("outer")]
            out |= {(op, dt, p) for p in pats}
        for op in EXPANDS:
            out |= {(op, dt, p) for p in ("same", "scalar-x", "row-x", "column-x", "middle-x", "leading-x")}
    return out


def classify(xs, ys):
    """The pattern of shapes xs, ys (x stretched: -x; y stretched: -y), or None."""
    n = lambda s: int(np.prod(s, dtype=np.int64))   # noqa: E731
    if xs == ys:
        return "same" if n(xs) > 1 else None
    if xs == () or ys == ():
        return ("scalar-x" if xs == () else "scalar-y") if n(xs) * n(ys) > 1 else None
    if len(xs) == len(ys) == 2 and xs[1] == 1 and ys[0] == 1 and xs[0] > 1 and ys[1] > 1:
        return "outer-y"
    if len(xs) == len(ys) == 2 and xs[0] == 1 and ys[1] == 1 and xs[1] > 1 and ys[0] > 1:
        return "outer-x"
    for side, small, big in (("x", xs, ys), ("y", ys, xs)):
        if len(small) < len(big) and big[len(big) - len(small):] == small and n(small) > 1:
            return "leading-" + side
        if len(small) == len(big) == 2 and big[0] > 1 and big[1] > 1:
            if small == (1, big[1]):
                return "row-" + side
            if small == (big[0], 1):
                return "column-" + side
        if len(small) == len(big) == 3 and big[1] > 1 and small == (big[0], 1, big[2]):
            return "middle-" + side
    return None


def kinds(vals, dtype):
    """The float edge kinds present in vals."""
    v = np.asarray(vals, dtype=np.float64 if dtype == "f64" else np.float32)
    bits = v.view("u8" if dtype == "f64" else "u4").astype(np.uint64)
    quiet = np.uint64(1 << (51 if dtype == "f64" else 22))
    sign = 1 << (63 if dtype == "f64" else 31)
    fi = np.finfo(v.dtype)
    with np.errstate(invalid="ignore"):
        found = {
            "+0": bool(((v == 0) & ~np.signbit(v)).any()), "-0": bool(((v == 0) & np.signbit(v)).any()),
            "subnormal": bool(((v != 0) & (np.abs(v) < fi.tiny)).any()),
            "max": bool((v == fi.max).any()), "-max": bool((v == -fi.max).any()),
            "inf": bool((v == np.inf).any()), "-inf": bool((v == -np.inf).any()),
            "nan-payload": bool((np.isnan(v) & ((bits & np.uint64(sign - 1)) != (
                np.uint64(0x7ff0000000000000 if dtype == "f64" else 0x7f800000) | quiet))).any()),
        }
    return {k for k, ok in found.items() if ok}


def present(args, dtype):
    """The required values of dtype (gen/fullrange_values.required) the operands' elements hold."""
    vals = np.concatenate([np.asarray(a.storage).reshape(-1) for a in args])
    if dtype in FLOAT_DTYPES:
        return kinds(vals, dtype) & set(fv.required(dtype))
    return set(int(v) for v in vals.tolist()) & set(fv.required(dtype))


def combination(rec):
    """(op, dtype, pattern) of a case that counts, else None."""
    if rec.mode != "value" or not any(oc.kind == "ok" for _, oc, _ in rec.expects):
        return None
    data = [a for a in rec.args if a.name in ("x", "y")]
    if not data or len({a.dtype for a in data}) != 1 or data[0].dtype not in INT_DTYPES + FLOAT_DTYPES:
        return None
    dtype = data[0].dtype
    if rec.op in EXPANDS:
        target = dict(rec.attrs).get("shape", "")
        target = tuple(int(t) for t in target.strip("()").split(",") if t)
        pat = "same" if data[0].shape == target and len(target) else classify(data[0].shape, target)
        pat = pat if pat in ("same", "scalar-x") or (pat or "").endswith("-x") else None
    elif len(data) == 2:
        pat = classify(data[0].shape, data[1].shape)
    else:
        return None
    if pat is None:
        return None
    return (rec.op, dtype, pat), present(data, dtype)


def covered(combo, seen):
    """A combination is covered when its cases' operands together hold every
    required value, and one case holds the dtype's two extremes (min and max;
    floats: -max and max) at once, or, for a 0-d input stretched by
    broadcast_to/expand (one value per case), when each extreme is in some case.
    (Together, not each: a 0-d operand holds one value, and an integer pow's
    exponent or a divisor leaves out negatives, zero or -1.)"""
    need = set(fv.required(combo[1]))
    ext = set(fv.required(combo[1])[:2]) if combo[1] in INT_DTYPES else {"max", "-max"}
    if not seen or not need <= set().union(*seen):
        return False
    return (combo[0] in EXPANDS and combo[2] == "scalar-x") or any(ext <= s for s in seen)


def main(argv):
    if not argv:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    seen = {}
    for path in argv:
        for rec in caseread.read_file(path):
            hit = combination(rec)
            if hit is not None:
                seen.setdefault(hit[0], []).append(hit[1])
    want = expected()
    missing = sorted(c for c in want if not covered(c, seen.get(c, [])))
    got = sum(1 for c in want for s in seen.get(c, []) if s == set(fv.required(c[1])))
    if missing:
        for op, dt, pat in missing:
            print("check_fullrange: no full-range multi-element case for %s %s %s" % (op, dt, pat))
        print("check_fullrange: %d of %d op x dtype x pattern combinations lack a full-range case"
              % (len(missing), len(want)))
        print("0 passed, 1 failed")
        return 1
    ints = sum(1 for c in want if c[1] in INT_DTYPES)
    print("check_fullrange: all %d op x dtype x pattern combinations (%d integer, %d float) have a "
          "full-range case (%d cases count)" % (len(want), ints, len(want) - ints, got))
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
