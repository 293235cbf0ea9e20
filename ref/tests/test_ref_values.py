"""test_ref_values.py - holds ref's values, dtypes and error classes against NumPy 1.24 and torch 1.13.

Every case runs through ref (the build's ref-eval driver, path in $REF_EVAL)
and through the profile's library; results must agree exactly (NaN equals
NaN), except float pow, where both libraries may use vectorized pow
(ULP_POW). Covers every binary op x every dtype pair x both profiles with
corner values (B18-B21), 0-d value-based promotion (B19), where's 3-way
broadcast, in-place and out= (B8, B22), matmul (B12-B14) and views (B5, B6)."""
import math
import os
import subprocess

import numpy as np
import pytest
import torch

from oracle_util import NP_DT, NP_NAME, TH_NAME, NP_FUNC, TH_FUNC, classify, quiet

ULP_POW = 2
REF_EVAL = os.environ.get("REF_EVAL", "build/ref-eval")
INF, NAN = math.inf, math.nan
CORNERS = {
    "bool": [0, 1],
    "i8": [0, 1, -1, 2, -2, 3, -7, 127, -128, 5],
    "u8": [0, 1, 2, 3, 7, 128, 255, 5],
    "i16": [0, 1, -1, 2, -3, 7, 32767, -32768, 300, -300],
    "i32": [0, 1, -1, 2, -3, 7, 2**31 - 1, -2**31, 100000, -70000],
    "i64": [0, 1, -1, 2, -3, 7, 2**63 - 1, -2**63, 2**40, -5],
    "f32": [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.5, INF, -INF, NAN, 1e30, 3.0, 7.0, 1e-40, -4.0],
    "f64": [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.5, INF, -INF, NAN, 1e300, 3.0, 7.0, 5e-324, -4.0],
}
# Divisors/exponents without 0 and -1 (torch raises on /0 and traps on MIN // -1).
SAFE = {"bool": [1], "i8": [1, 2, 3, -2, -7, 5], "u8": [1, 2, 3, 7, 5], "i16": [1, 2, 3, -3, 7],
        "i32": [1, 2, 3, -3, 7], "i64": [1, 2, 3, -3, 7], "f32": [1.0, -2.0, 0.5, 3.0],
        "f64": [1.0, -2.0, 0.5, 3.0]}
NONNEG = {k: [v for v in vals if not (isinstance(v, (int, float)) and (v < 0 or v != v))]
          for k, vals in CORNERS.items()}
DTYPES = list(NP_DT)
BINARY = ["add", "sub", "mul", "div", "floor_divide", "remainder", "pow", "maximum", "minimum",
          "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
          "bitwise_and", "bitwise_or", "bitwise_xor"]


class Arg:
    """An operand: values laid out contiguously (or with given strides/offset over a storage)."""
    def __init__(self, dtype, shape, values, strides=None, offset=0, storage=None):
        self.dtype, self.shape = dtype, tuple(shape)
        if storage is None:
            storage = list(values)
            st, acc = [], 1
            for d in reversed(self.shape):
                st.insert(0, acc)
                acc *= max(d, 1)
            strides = st
        self.strides, self.offset, self.storage = tuple(strides), offset, storage

    def overlapping(self):
        return any(s == 0 and d > 1 for d, s in zip(self.shape, self.strides))

    def np(self):
        """The view; one with internal overlap stays a read-only view, as NumPy's
        broadcast_to gives it (B9), anything else is a writable copy."""
        if not self.storage:
            return np.zeros(self.shape, NP_DT[self.dtype])
        buf = np.array(self.storage, dtype=NP_DT[self.dtype])
        it = buf.itemsize
        v = np.lib.stride_tricks.as_strided(buf[self.offset:], self.shape,
                                            [s * it for s in self.strides],
                                            writeable=not self.overlapping())
        return v if self.overlapping() else v.copy()

    def torch(self):
        """torch's view: as_strided over the storage when it overlaps (expand's shape)."""
        if self.overlapping():
            buf = torch.tensor(np.array(self.storage, dtype=NP_DT[self.dtype]))
            return torch.as_strided(buf, self.shape, self.strides, self.offset)
        return torch.from_numpy(self.np())

    def tokens(self):
        def fmt(v):
            if self.dtype in ("f32", "f64"):
                return float(v).hex()
            return str(int(v))
        return [self.dtype, str(len(self.shape))] + [str(d) for d in self.shape] + \
            [str(s) for s in self.strides] + [str(self.offset), str(len(self.storage))] + \
            [fmt(v) for v in self.storage]


def line(op, mode, profile, args, axis=0, target=()):
    toks = [op, mode, profile, str(axis), str(len(target))] + [str(t) for t in target] + [str(len(args))]
    for a in args:
        toks += a.tokens()
    return " ".join(toks)


def oracle(op, mode, profile, args, target=()):
    """('ok', dtype, shape, flat ndarray) or ('error', cls)."""
    with quiet():
        try:
            if profile == "numpy":
                v = [a.np() for a in args]
                if mode == "inplace":
                    NP_FUNC[op](v[0], v[1], out=v[0])
                    r = v[0]
                elif mode == "out":
                    NP_FUNC[op](v[0], v[1], out=v[2])
                    r = v[2]
                elif op == "where":
                    r = np.where(*v)
                elif op == "broadcast_to":
                    r = np.broadcast_to(v[0], target)
                else:
                    r = np.asarray(NP_FUNC[op](*v))
                if r.dtype not in NP_NAME:
                    return ("error", "dtype")  # e.g. uint16 from value-based casting
                return ("ok", NP_NAME[r.dtype], tuple(r.shape), np.ascontiguousarray(r).reshape(-1))
            t = [a.torch() for a in args]
            if mode == "out":  # a plain tensor of its own, so torch may resize it
                t[2] = t[2].contiguous().clone()
            if mode == "inplace":
                r = getattr(t[0], op + "_")(t[1])
            elif mode == "out":
                r = TH_FUNC[op](t[0], t[1], out=t[2])
            elif op == "expand":
                r = t[0].expand(*target)
            else:
                r = TH_FUNC[op](*t)
            return ("ok", TH_NAME[r.dtype], tuple(r.shape), r.contiguous().numpy().reshape(-1))
        except Exception as exc:  # the class is what is compared
            return ("error", classify(exc))


def parse_ref(text):
    parts = text.split()
    if parts[0] == "error":
        return ("error", parts[1], parts[2])
    dt, shape = parts[1], tuple(int(d) for d in parts[2].strip("()").split(",") if d)
    vals = parts[3:]
    if dt in ("f32", "f64"):
        arr = np.array([float.fromhex(v) if v not in ("nan", "-nan", "inf", "-inf") else float(v)
                        for v in vals], dtype=NP_DT[dt])
    else:
        arr = np.array([int(v) for v in vals], dtype=NP_DT[dt])
    return ("ok", dt, shape, arr)


def same_values(a, b, ulp=0):
    if a.dtype.kind == "f":
        an, bn = np.isnan(a), np.isnan(b)
        if not np.array_equal(an, bn):
            return False
        a, b = a[~an], b[~bn]
        if ulp == 0:
            return a.tobytes() == b.tobytes()
        ia = a.view(np.int32 if a.dtype == np.float32 else np.int64).astype(np.int64)
        ib = b.view(np.int32 if b.dtype == np.float32 else np.int64).astype(np.int64)
        same_sign = np.signbit(a) == np.signbit(b)
        return bool(np.all((a == b) | (same_sign & (np.abs(ia - ib) <= ulp))))
    return a.tobytes() == b.tobytes()


CASES = []


def take(vals, n):
    """n values cycling through vals."""
    return [vals[i % len(vals)] for i in range(n)]


def case(name, op, mode, profile, args, axis=0, target=(), ulp=0):
    CASES.append((name, op, mode, profile, args, axis, target, ulp))


def _binary_cases(profile):
    """Every binary op over every dtype pair, on corner values."""
    for op in BINARY:
        for dx in DTYPES:
            for dy in DTYPES:
                xs = CORNERS[dx]
                if profile == "torch" and op in ("maximum", "minimum"):
                    # torch's vectorized and scalar paths break +-0 ties differently.
                    xs = [v for v in xs if not (v == 0 and math.copysign(1, v) < 0)]
                ulp = ULP_POW if op == "pow" else 0
                ys = {"floor_divide": SAFE, "remainder": SAFE}.get(op, CORNERS)[dy] \
                    if profile == "torch" else CORNERS[dy]
                if profile == "torch" and op in ("maximum", "minimum"):
                    ys = [v for v in ys if not (v == 0 and math.copysign(1, v) < 0)]
                case("%s/%s/%s/%s" % (profile, op, dx, dy), op, "value", profile,
                     [Arg(dx, (len(xs), 1), xs), Arg(dy, (len(ys),), ys)], ulp=ulp)
                if op in ("pow", "floor_divide", "remainder"):
                    ys = NONNEG[dy] if op == "pow" else SAFE[dy]
                    case("%s/%s/%s/%s/safe" % (profile, op, dx, dy), op, "value", profile,
                         [Arg(dx, (len(xs), 1), xs), Arg(dy, (len(ys),), ys)], ulp=ulp)


def _scalar_cases(profile):
    """B19: 0-d operands against every dtype."""
    # B19: 0-d operands (value-based in NumPy, category-based in torch).
    scal = {"bool": [1], "i8": [-1, 100], "u8": [200], "i16": [300, -129], "i32": [70000],
            "i64": [-1, 5, 300, 100000, 2**40], "f32": [1.5], "f64": [1.5, 1e300, NAN]}
    for dx in DTYPES:
        for dy, vals in scal.items():
            for v in vals:
                for op in ("add", "lt", "div", "maximum"):
                    x = Arg(dx, (3,), take(CORNERS[dx], 3))
                    case("%s/0d/%s/%s/%s=%r" % (profile, op, dx, dy, v), op, "value", profile,
                         [x, Arg(dy, (), [v])])
                    case("%s/0d-first/%s/%s/%s=%r" % (profile, op, dx, dy, v), op, "value", profile,
                         [Arg(dy, (), [v]), x])


def _where_cases(profile):
    """where: cond dtypes, promotion of x and y, three-way broadcast (B4)."""
    # where: cond dtypes, promotion of x and y, three-way broadcast (B4).
    for dc in ("bool", "u8", "i8", "f32"):
        for dx, dy in (("f32", "f64"), ("i8", "u8"), ("bool", "i64"), ("i32", "f32"), ("f64", "f64")):
            case("%s/where/%s/%s/%s" % (profile, dc, dx, dy), "where", "value", profile,
                 [Arg(dc, (3, 1, 1), take(CORNERS[dc], 3)),
                  Arg(dx, (1, 2, 1), take(CORNERS[dx], 2)), Arg(dy, (4,), take(CORNERS[dy], 4))])
            case("%s/where0d/%s/%s/%s" % (profile, dc, dx, dy), "where", "value", profile,
                 [Arg(dc, (2,), [1, 0]), Arg(dx, (2,), CORNERS[dx][:2]),
                  Arg(dy, (), [CORNERS[dy][1]])])


def _inplace_out_cases(profile):
    """In-place (B8, B22) and out= over dtype pairs."""
    # In-place (B8, B22) and out= over dtype pairs.
    for op in ("add", "sub", "mul", "div", "floor_divide", "remainder", "pow", "bitwise_and",
               "logical_and", "eq", "lt"):
        for dx in DTYPES:
            for dy in DTYPES:
                xs, ys = take(CORNERS[dx], 3), take(SAFE[dy], 3)
                if profile == "torch" and not hasattr(torch.Tensor, op + "_"):
                    continue
                case("%s/inplace/%s/%s/%s" % (profile, op, dx, dy), op, "inplace", profile,
                     [Arg(dx, (3, 3), xs * 3), Arg(dy, (3,), ys)],
                     ulp=ULP_POW if op == "pow" else 0)
        case("%s/inplace-shape/%s" % (profile, op), op, "inplace", profile,
             [Arg("f32", (1, 3, 1), [1.0, 2.0, 3.0]), Arg("f32", (3, 1, 7), [1.0] * 21)])
        case("%s/inplace-divzero/%s" % (profile, op), op, "inplace", profile,
             [Arg("i32", (2, 2), [5, 6, 7, 8]), Arg("i32", (2,), [1, 0])])
        case("%s/overlap/%s" % (profile, op), op, "inplace", profile,
             [Arg("f32", (3, 2), None, strides=(0, 1), offset=0, storage=[1.0, 2.0]),
              Arg("f32", (2,), [1.0, 2.0])])
    for os_ in ((2, 3), (3,), (5,), (2, 2), (1, 2, 3)):
        for dout in ("f32", "f64", "i32", "bool"):
            case("%s/out/%s/%s" % (profile, os_, dout), "add", "out", profile,
                 [Arg("f32", (2, 1), [1.0, 2.0]), Arg("f32", (3,), [0.5, 1.5, 2.5]),
                  Arg(dout, os_, [0] * int(np.prod(os_)))])


def _matmul_cases(profile):
    """matmul (B12-B14)."""
    # matmul (B12-B14).
    mm = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 1, 2, 3), (5, 3, 2)),
          ((2, 3), (4, 2)), ((4,), (3,)), ((0, 3), (3, 2)), ((2, 0), (0, 3)), ((), (3,)),
          ((3, 2, 3), (2, 3, 1))]
    for dx, dy in (("f64", "f64"), ("i32", "i32"), ("i8", "i8"), ("bool", "bool"),
                   ("f32", "f64"), ("i64", "i64")):
        for sx, sy in mm:
            nx, ny = int(np.prod(sx)), int(np.prod(sy))
            case("%s/matmul/%s/%s/%s/%s" % (profile, dx, dy, sx, sy), "matmul", "value", profile,
                 [Arg(dx, sx, [(i % 5) - 2 for i in range(nx)]),
                  Arg(dy, sy, [(i % 3) - 1 for i in range(ny)])], ulp=4)


def _strided_cases(profile):
    """Strided, offset and negative-stride operands, and rows longer than ref's cast chunk (B17)."""
    # Strided, offset, negative-stride operands (B17).
    case("%s/strided" % profile, "sub", "value", profile,
         [Arg("i16", (2, 3), None, strides=(-3, 2), offset=7, storage=list(range(10))),
          Arg("i16", (3, 1), None, strides=(2, 5), offset=1, storage=list(range(6)))])
    # Rows longer than ref's cast chunk, with casts, negative strides and offsets (B17).
    n = 600
    case("%s/long-rows/cast" % profile, "add", "value", profile,
         [Arg("i16", (3, n), None, strides=(-n, 1), offset=2 * n, storage=take([1, -2, 300], 3 * n)),
          Arg("f32", (n,), None, strides=(-2,), offset=2 * n - 2, storage=take([0.5, -1.5, 2.0], 2 * n))])
    case("%s/long-rows/inplace-cast" % profile, "mul", "inplace", profile,
         [Arg("f64", (2, n), take([1.5, -2.0], 2 * n)), Arg("i32", (n,), take([3, -7, 11], n))])
    case("%s/long-rows/where" % profile, "where", "value", profile,
         [Arg("bool", (n,), take([1, 0, 0], n)), Arg("i8", (2, 1), [5, -5]),
          Arg("f32", (n,), take([0.25, 8.0], n))])


def _order_cases(profile):
    """Which error wins when a case fails two ways (dtype vs shape vs overlap)."""
    # Which error wins when a case fails two ways (dtype vs shape vs overlap).
    for op, dx, dy in (("floor_divide", "bool", "bool"), ("bitwise_and", "f32", "f32"),
                       ("sub", "bool", "bool"), ("add", "i8", "f32")):
        case("%s/order/%s/%s/value" % (profile, op, dx), op, "value", profile,
             [Arg(dx, (2, 3), take([1, 0], 6)), Arg(dy, (4,), take([1, 0], 4))])
        case("%s/order/%s/%s/inplace" % (profile, op, dx), op, "inplace", profile,
             [Arg(dx, (3, 2), None, strides=(0, 1), offset=0, storage=[1, 0]),
              Arg(dy, (4,), take([1, 0], 4))])
        case("%s/order/%s/%s/inplace-shape" % (profile, op, dx), op, "inplace", profile,
             [Arg(dx, (1, 2), [1, 0]), Arg(dy, (3, 2), take([1, 1], 6))])
    case("%s/order/where-cond" % profile, "where", "value", profile,
         [Arg("i8", (2,), [1, 0]), Arg("f32", (3,), [1.0, 2.0, 3.0]), Arg("f32", (3,), [4.0, 5.0, 6.0])])


def build_cases():
    """Every case of this test, both profiles, in a fixed order."""
    for profile in ("numpy", "torch"):
        _binary_cases(profile)
        _scalar_cases(profile)
        _where_cases(profile)
        _inplace_out_cases(profile)
        _matmul_cases(profile)
        _strided_cases(profile)
        _order_cases(profile)
    for target in ((2, 3), (4, 2, 3), (3,), (2, -1), (0, 3), (2, 0)):
        src = Arg("i8", (1, 3), [1, 2, 3])
        case("numpy/broadcast_to/%s" % (target,), "broadcast_to", "value", "numpy", [src], target=target)
        case("torch/expand/%s" % (target,), "expand", "value", "torch", [src], target=target)


build_cases()
_RESULTS = {}


def ref_results():
    if not _RESULTS:
        text = "\n".join(line(c[1], c[2], c[3], c[4], c[5], c[6]) for c in CASES) + "\n"
        out = subprocess.run([REF_EVAL], input=text, capture_output=True, text=True, check=True).stdout
        lines = out.splitlines()
        assert len(lines) == len(CASES), "ref-eval answered %d of %d cases" % (len(lines), len(CASES))
        for c, l in zip(CASES, lines):
            _RESULTS[c[0]] = l
    return _RESULTS


@pytest.mark.parametrize("c", CASES, ids=[c[0] for c in CASES])
def test_ref_matches_oracle(c):
    name, op, mode, profile, args, axis, target, ulp = c
    want = oracle(op, mode, profile, args, target)
    got = parse_ref(ref_results()[name])
    if want[0] == "error":
        assert got[:2] == want, "ref %s, %s says %s" % (got, profile, want)
        assert got[2] == "unchanged", "a failed in-place op changed self (B22)"
        return
    assert got[0] == "ok", "ref %s, %s says ok %s %s" % (got, profile, want[1], want[2])
    assert got[1:3] == want[1:3], "ref %s %s, %s says %s %s" % (got[1], got[2], profile, want[1], want[2])
    assert same_values(got[3], want[3], ulp), "values differ:\nref    %s\n%s %s" % (
        got[3].tolist(), profile, want[3].tolist())
