"""caseio.py - the case record model and the writer for docs/case-format.md (version 1).

gen/ writes; runner/case/caseio.c reads. Everything here is deterministic: no wall
clock, no hash(), values formatted exactly (floats as C99 hex of the exact
value, f32 through float64 exactly).
"""

import math
import zlib

import numpy as np

FORMAT_HEADER = "bcast-cases 1"
# The case-set version: a date constant, bumped by hand when the set changes
# meaningfully. Reports use it instead of a wall clock.
CASE_SET_VERSION = "2026-11-22"

DTYPES = ("bool", "i8", "u8", "i16", "i32", "i64", "f32", "f64")
NP_DTYPE = {
    "bool": np.bool_, "i8": np.int8, "u8": np.uint8, "i16": np.int16,
    "i32": np.int32, "i64": np.int64, "f32": np.float32, "f64": np.float64,
}
NP_NAME = {np.dtype(v): k for k, v in NP_DTYPE.items()}
INT_DTYPES = ("i8", "u8", "i16", "i32", "i64")
# B34: weak scalars (a plain Python int/float/bool operand), stored as a 0-d
# i64/f64/bool; WEAK_PY turns the stored value back into the Python scalar.
WEAK_STORAGE = {"weak-int": "i64", "weak-float": "f64", "weak-bool": "bool"}
WEAK_PY = {"weak-int": int, "weak-float": float, "weak-bool": bool}
FLOAT_DTYPES = ("f32", "f64")

OPS = (
    "add", "sub", "mul", "div", "floor_divide", "remainder", "pow", "maximum", "minimum",
    "eq", "ne", "lt", "le", "gt", "ge",
    "logical_and", "logical_or", "logical_xor",
    "bitwise_and", "bitwise_or", "bitwise_xor",
    "where", "broadcast_to", "expand", "matmul", "broadcast_shapes", "axis_add", "uni_add",
    # issue #25, value mode only (docs/semantics.md B38-B45)
    "copysign", "atan2", "hypot", "fmod", "heaviside", "logaddexp", "logaddexp2", "nextafter",
    "ldexp", "gcd", "lcm", "left_shift", "right_shift", "float_power", "fmax", "fmin",
    "div_trunc", "div_floor", "clip", "lerp", "addcmul", "addcdiv", "prelu", "gemm_bias",
)
BINARY_OPS = OPS[:21]
ERROR_CLASSES = (
    "not-broadcastable", "inplace-shape", "overlap", "axis", "matmul-core",
    "rank-limit", "overflow", "invalid-shape", "division-by-zero", "dtype", "other",
)
SUITES = (
    "exhaustive", "ops", "ranks", "zero-size", "layouts", "inplace", "nary", "views",
    "matmul", "legacy", "promotion", "seeds", "sizes", "large", "grad", "explored", "weak",
    "mathops",
    "fullrange",
)


class GenError(Exception):
    """A generator bug or an oracle behaviour we refuse to guess about."""


def seed_of(case_id):
    """Stable per-case RNG seed (crc32, never Python's salted hash())."""
    return zlib.crc32(case_id.encode("utf-8"))


def fmt_shape(shape):
    """NumPy's spelling without spaces: (), (3,), (5,1,4)."""
    shape = tuple(int(d) for d in shape)
    if len(shape) == 1:
        return "(%d,)" % shape[0]
    return "(" + ",".join(str(d) for d in shape) + ")"


def fmt_float(v):
    """C99 hex of the exact value; nan/inf/-inf spelled out; trailing zeros trimmed."""
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    text = v.hex()  # e.g. 0x1.8000000000000p+1, -0x0.0p+0
    mant, exp = text.split("p")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    return mant + "p" + exp


def fmt_nan(bits, dtype):
    """A NaN's token from its bit pattern: `nan` for the default quiet NaN
    (sign clear, only the quiet bit set), else `[-]nan(0xP)`, P its mantissa
    bits (docs/case-format.md)."""
    mbits, top = (23, 31) if dtype == "f32" else (52, 63)
    mant = bits & ((1 << mbits) - 1)
    sign = "-" if bits >> top else ""
    if not sign and mant == 1 << (mbits - 1):
        return "nan"
    return "%snan(0x%x)" % (sign, mant)


def fmt_values(arr, dtype, payloads=False):
    """Every element of arr (already flat, in the order wanted) as format tokens;
    payloads: NaNs keep their sign and payload (args of suites that set
    Operand.nan_payloads; results are written `nan`: NaN == NaN when judged)."""
    if dtype in FLOAT_DTYPES and payloads:
        arr = np.asarray(arr, dtype=NP_DTYPE[dtype])
        bits = arr.view("u4" if dtype == "f32" else "u8").tolist()
        with np.errstate(invalid="ignore"):   # a signalling NaN widened
            wide = arr.astype(np.float64).tolist()
        return [fmt_nan(b, dtype) if math.isnan(v) else fmt_float(v)
                for v, b in zip(wide, bits)]
    if dtype in FLOAT_DTYPES:
        # f32 -> float64 is exact, so .hex() of the widened value is the f32's exact value.
        return [fmt_float(v) for v in np.asarray(arr, dtype=np.float64).tolist()]
    if dtype == "bool":
        return ["1" if v else "0" for v in np.asarray(arr).tolist()]
    return [str(int(v)) for v in np.asarray(arr).tolist()]


class Operand:
    """One `arg`: a strided view (strides and offset in elements) into a storage.

    storage is a flat numpy array of the dtype (None for shape-only args and for
    pattern args, which carry `pattern` = (A, B, M, K, D) instead)."""

    def __init__(self, name, dtype, shape, strides=None, offset=0, storage=None,
                 pattern=None, storage_len=None):
        self.name = name
        self.dtype = dtype
        self.shape = tuple(int(d) for d in shape)
        if strides is None:
            strides = contiguous_strides(self.shape)
        self.strides = tuple(int(s) for s in strides)
        self.offset = int(offset)
        self.storage = storage
        self.pattern = pattern
        self.nan_payloads = False   # write NaNs with their payloads (fmt_values)
        if storage_len is None:
            storage_len = 0 if storage is None else len(storage)
        self.storage_len = int(storage_len)
        if len(self.strides) != len(self.shape):
            raise GenError("operand %s: %d strides for rank %d" % (name, len(self.strides), len(self.shape)))
        check_bounds(self)

    def line(self):
        return "arg %s %s %s %s %d %d" % (
            self.name, self.dtype, fmt_shape(self.shape), fmt_shape(self.strides),
            self.offset, self.storage_len)

    def data_line(self):
        if self.dtype == "-":
            return None
        if self.pattern is not None:
            return "pattern ramp " + " ".join(str(int(p)) for p in self.pattern)
        return " ".join(["values"] + fmt_values(self.storage, WEAK_STORAGE.get(self.dtype, self.dtype),
                                                self.nan_payloads))

    def weak_value(self):
        """B34: the Python scalar a weak arg stands for, or None for any other arg."""
        if self.dtype not in WEAK_PY:
            return None
        return WEAK_PY[self.dtype](np.asarray(self.storage).reshape(-1)[0].item())


def contiguous_strides(shape):
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= max(int(d), 1)
    return tuple(reversed(strides))


def check_bounds(op):
    """Every element the view can address must lie in [0, storage) (the format's rule)."""
    if any(d == 0 for d in op.shape):
        return
    lo = hi = op.offset
    for d, s in zip(op.shape, op.strides):
        if s > 0:
            hi += (d - 1) * s
        else:
            lo += (d - 1) * s
    if lo < 0 or hi >= op.storage_len:
        raise GenError("operand %s addresses [%d,%d] outside storage %d" % (op.name, lo, hi, op.storage_len))


class Outcome:
    """What one oracle did: ok (dtype, shape, values tokens or digest) or error (class, message)."""

    def __init__(self, kind, dtype=None, shape=None, values=None, cls=None, message=None,
                 digest=None, self_unchanged=None, array=None, out_unchanged=None):
        self.kind = kind
        self.dtype = dtype
        self.shape = None if shape is None else tuple(int(d) for d in shape)
        self.values = values
        self.cls = cls
        self.message = message
        self.digest = digest  # (hex, n) for large outputs
        self.self_unchanged = self_unchanged  # in-place errors: did the oracle leave self alone?
        self.out_unchanged = out_unchanged  # out= errors: did the oracle leave out's memory alone?
        self.array = array  # the raw C-order result, until builder turns it into values or a digest

    def key(self):
        """Equality key: dtype, shape and values bitwise (NaN==NaN via the 'nan' token), or class."""
        if self.kind == "ok":
            return ("ok", self.dtype, self.shape, tuple(self.values or ()), self.digest)
        return ("error", self.cls)

    def __repr__(self):
        if self.kind == "ok":
            return "Outcome(ok %s %s)" % (self.dtype, self.shape)
        return "Outcome(error %s: %s)" % (self.cls, self.message)


class Case:
    """One record. expects: list of (profile, Outcome, compare)."""

    def __init__(self, case_id, suite, op, args, tags=(), rules=(), mode="value",
                 source=(), attrs=(), expects=(), messages=(), comments=()):
        if " " in case_id:
            raise GenError("case id has a space: %r" % case_id)
        if suite not in SUITES:
            raise GenError("unknown suite %r" % suite)
        if op not in OPS:
            raise GenError("unknown op %r" % op)
        self.id = case_id
        self.suite = suite
        self.op = op
        self.args = list(args)
        self.tags = list(tags)
        self.rules = list(rules)
        self.mode = mode
        self.source = list(source)
        self.attrs = list(attrs)
        self.expects = list(expects)
        self.messages = list(messages)
        self.comments = list(comments)

    def lines(self):
        out = ["case " + self.id]
        out += ["# " + c for c in self.comments]
        out.append("suite " + self.suite)
        out.append(" ".join(["tags"] + sorted(set(self.tags))))
        out.append(" ".join(["rules"] + sorted(set(self.rules), key=lambda r: int(r[1:]))))
        out.append("op " + self.op)
        out.append("mode " + self.mode)
        out.append(" ".join(["source"] + self.source))
        for key, val in self.attrs:
            out.append("attr %s %s" % (key, val))
        for a in self.args:
            out.append(a.line())
            d = a.data_line()
            if d is not None:
                out.append(d)
        for profile, oc, compare in self.expects:
            if oc.kind == "grads":   # grad mode: one line per gradient, each with its comparison
                for g in oc.grads:
                    out.append("expect %s grad %s %s %s %s" % (profile, g.name, g.dtype, fmt_shape(g.shape), g.compare))
                    if g.digest is not None:
                        out.append("digest fnv1a64 %s %d" % g.digest)
                    else:
                        out.append(" ".join(["values"] + list(g.values)))
            elif oc.kind == "ok":
                out.append("expect %s ok %s %s %s" % (profile, oc.dtype, fmt_shape(oc.shape), compare))
                if oc.digest is not None:
                    out.append("digest fnv1a64 %s %d" % oc.digest)
                else:
                    out.append(" ".join(["values"] + list(oc.values or ())))
            else:
                if oc.cls not in ERROR_CLASSES:
                    raise GenError("unknown error class %r" % oc.cls)
                out.append("expect %s error %s" % (profile, oc.cls))
        for lib, text in self.messages:
            out.append("message %s %s" % (lib, text))
        out.append("end")
        return out
