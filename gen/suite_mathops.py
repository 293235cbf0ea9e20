"""suite_mathops.py - the ops of issue #25 (docs/semantics.md B38-B45), value mode:
binary math, torch's division rounding modes, three-way ops with array operands
and ONNX's one-way ops, each over a covering set of shapes in its dtypes, plus
value grids of special values (x a column, y a row; three-way: x, lo/end, hi/weight
on three axes). Operands of one dtype; expectations from NumPy and torch (each
op's own oracles: an op one library lacks has the other's alone; ONNX's ops
are applied through NumPy by rule)."""

import numpy as np

from builder import make_case, operand, rng_for
from caseio import FLOAT_DTYPES, INT_DTYPES, NP_DTYPE, fmt_shape
from values import specials, nonzero, column

SUITE = "mathops"

FLOATS = FLOAT_DTYPES
INTS = INT_DTYPES
# op -> (dtypes, rule ids, compare). Transcendental results go through each
# library's libm or SIMD kernels (Sleef in torch): ulp 4.
BINARY = {
    "copysign": (FLOATS, ("B38",), "exact"), "atan2": (FLOATS, ("B38",), "ulp 4"),
    "hypot": (FLOATS, ("B38",), "ulp 4"), "fmod": (FLOATS + ("i32", "i64"), ("B38",), "exact"),
    "heaviside": (FLOATS, ("B39",), "exact"), "logaddexp": (FLOATS, ("B38",), "ulp 4"),
    "logaddexp2": (FLOATS, ("B38",), "ulp 4"), "nextafter": (FLOATS, ("B38",), "exact"),
    "fmax": (FLOATS + ("i32",), ("B38",), "exact"), "fmin": (FLOATS + ("i32",), ("B38",), "exact"),
    "gcd": (INTS, ("B40",), "exact"), "lcm": (INTS, ("B40",), "exact"),
    "left_shift": (INTS, ("B40",), "exact"), "right_shift": (INTS, ("B40",), "exact"),
    "float_power": (("i32", "f32", "f64"), ("B41",), "ulp 4"),
    "ldexp": (FLOATS, ("B41",), "exact"),
    "div_trunc": (FLOATS + ("i8", "i32", "i64"), ("B42",), "exact"),
    "div_floor": (FLOATS + ("i8", "i32", "i64"), ("B42",), "exact"),
    "prelu": (FLOATS, ("B45", "B7"), "exact"),
}
THREE = {
    "clip": (FLOATS + ("i8", "u8", "i32", "i64"), ("B43", "B4"), "exact"),
    "lerp": (FLOATS, ("B44", "B4"), "ulp 4"),
    "addcmul": (FLOATS + ("i32", "i64"), ("B44", "B4"), "ulp 4"),
    "addcdiv": (FLOATS, ("B44", "B4"), "ulp 4"),
}
PAIRS = [
    ((), ()), ((), (3,)), ((2, 3), ()), ((3,), (2, 3)), ((2, 1), (1, 3)), ((2, 3), (2, 1)),
    ((1, 3), (2, 3)), ((4, 1, 3), (2, 1)), ((0,), (1,)), ((2, 0), (2, 1)), ((2, 3), (4,)),
    ((2, 3), (3, 2)), ((3, 1, 2), (1, 2)), ((2, 1, 1), (1, 3, 1)), ((1, 1), (2, 1, 3)),
    ((5, 17), (17,)), ((17, 1), (1, 9)),
]
# prelu: the slope broadcasts one way, to x's shape (B7); the last three fail.
UNI_PAIRS = [
    ((2, 3), ()), ((2, 3), (3,)), ((2, 3), (2, 1)), ((4, 2, 3), (2, 1)), ((3,), (3,)),
    ((0, 3), (1,)), ((5, 17), (17,)), ((2, 3), (2,)), ((3,), (2, 3)), ((2, 1), (2, 3)),
]
TRIPLES = [
    ((), (), ()), ((2, 3), (), ()), ((), (3,), (2, 1)), ((2, 3), (3,), (2, 1)),
    ((4, 1, 3), (2, 1), (1,)), ((1, 3), (2, 1), (2, 3)), ((2, 0), (1,), (2, 1)),
    ((3, 1, 2), (1, 2), (3, 1, 1)), ((5, 17), (17,), (5, 1)), ((2, 3), (3,), (4,)),
    ((2, 3), (2, 1), (3, 3)),
]
# gemm_bias: A, B, C; C broadcasts one way to (M,N); the last four fail.
GEMM = [
    ((2, 3), (3, 4), (2, 4)), ((2, 3), (3, 4), (4,)), ((2, 3), (3, 4), (2, 1)),
    ((2, 3), (3, 4), ()), ((1, 5), (5, 1), (1,)), ((3, 2), (2, 5), (1, 5)), ((0, 2), (2, 3), (3,)),
    ((2, 0), (0, 3), (2, 3)), ((2, 3), (3, 4), (3,)), ((2, 3), (3, 4), (2, 2, 4)),
    ((2, 3), (2, 4), (4,)), ((3,), (3, 4), (4,)),
]


def x_values(op, dt, n, rng):
    """Values for x; None gives the builder's small random values."""
    return None


def y_values(op, dt, n, rng):
    """Values for y that keep every element inside the op's defined domain:
    shift counts in [0, bits), non-zero integer divisors (a zero divisor has
    its own case), ldexp's exponent an i32 in [-9, 9]."""
    if op in ("left_shift", "right_shift"):
        return rng.randint(0, 8 * np.dtype(NP_DTYPE[dt]).itemsize, n)
    if dt in INTS and op in ("fmod", "div_trunc", "div_floor"):
        v = rng.randint(1, 10, n) * rng.choice([-1, 1], n) if dt != "u8" else rng.randint(1, 10, n)
        return v
    return None


def y_dtype(op, dt):
    return "i32" if op == "ldexp" else dt


def binary_cases(op, dtypes, rules, cmp):
    pairs = UNI_PAIRS if op == "prelu" else PAIRS
    for dt in dtypes:
        for a, b in pairs:
            cid = "mathops/%s/%s/%sx%s" % (op, dt, fmt_shape(a), fmt_shape(b))
            rng = rng_for(cid)
            nb = int(np.prod(b, dtype=np.int64))
            args = [operand("x", dt, a, rng),
                    operand("y", y_dtype(op, dt), b, rng, y_values(op, dt, nb, rng))]
            yield make_case(cid, SUITE, op, args, rules=("B1", "B2", "B3") + rules, compare=cmp)
        yield from grid_case(op, dt, rules, cmp)


def grid_values(op, dt):
    """(xs, ys) for the value grid: every pair of the dtype's specials, with
    the op's domain limits applied to y."""
    xs = specials(dt)
    ys = xs
    if op in ("left_shift", "right_shift"):
        bits = 8 * np.dtype(NP_DTYPE[dt]).itemsize
        ys = [0, 1, 2, bits // 2, bits - 2, bits - 1]
    elif op == "ldexp":
        ys = [0, 1, -1, 3, -3, 20, -20, 100, -100]
    elif dt in INTS and op in ("fmod", "div_trunc", "div_floor"):
        ys = [v for v in nonzero(xs) if v != -1]
    elif op in ("fmax", "fmin") and dt in FLOATS:
        # B38: a tie of -0.0 and +0.0 is unspecified: NumPy 1.24 returns y,
        # NumPy 2's SIMD loops either, torch x (measured); no grid holds one.
        xs = ys = [v for v in xs if not (v == 0 and np.signbit(v))]
    elif op in ("gcd", "lcm"):
        xs = ys = [v for v in xs if abs(v) < 1000]
    return xs, ys


def grid_case(op, dt, rules, cmp):
    xs, ys = grid_values(op, dt)
    cid = "mathops/%s/%s/values" % (op, dt)
    args = [operand("x", dt, (len(xs), 1), None, column(xs, dt)),
            operand("y", y_dtype(op, dt), (1, len(ys)), None, column(ys, y_dtype(op, dt)))]
    if op == "prelu":   # the slope broadcasts one way: x holds every pair
        args = [operand("x", dt, (len(xs), len(ys)), None, column([v for v in xs for _ in ys], dt)),
                operand("y", dt, (1, len(ys)), None, column(ys, dt))]
    yield make_case(cid, SUITE, op, args, rules=("B2",) + rules, compare=cmp, tags=("values",))


def zero_divisor_cases():
    """An integer zero divisor: NumPy's fmod gives 0, torch raises (B38, B42)."""
    for op in ("fmod", "div_trunc", "div_floor"):
        cid = "mathops/%s/i32/zero-divisor" % op
        args = [operand("x", "i32", (2, 3), None, column([1, -2, 3, 4, 5, -6], "i32")),
                operand("y", "i32", (3,), None, column([1, 0, 2], "i32"))]
        yield make_case(cid, SUITE, op, args, rules=("B38" if op == "fmod" else "B42",), tags=("values",))


def three_cases(op, dtypes, rules, cmp):
    for dt in dtypes:
        for a, b, c in TRIPLES:
            cid = "mathops/%s/%s/%sx%sx%s" % (op, dt, fmt_shape(a), fmt_shape(b), fmt_shape(c))
            rng = rng_for(cid)
            args = [operand("x", dt, a, rng), operand("y", dt, b, rng), operand("z", dt, c, rng)]
            if op == "addcdiv":   # a divisor without zeros
                nz = int(np.prod(c, dtype=np.int64))
                args[2] = operand("z", dt, c, None, rng.choice([-2.0, -0.5, 0.25, 1.0, 4.0], nz))
            yield make_case(cid, SUITE, op, args, rules=("B1", "B2", "B3") + rules, compare=cmp)
        sv = specials(dt)
        small = sv[:6] + sv[9:12] if dt in FLOATS else sv[:6]
        cid = "mathops/%s/%s/values" % (op, dt)
        args = [operand("x", dt, (len(sv), 1, 1), None, column(sv, dt)),
                operand("y", dt, (1, len(small), 1), None, column(small, dt)),
                operand("z", dt, (1, 1, len(small)), None, column(small, dt))]
        yield make_case(cid, SUITE, op, args, rules=("B2",) + rules, compare=cmp, tags=("values",))


def gemm_cases():
    for dt in FLOATS:
        for a, b, c in GEMM:
            cid = "mathops/gemm_bias/%s/%sx%sx%s" % (dt, fmt_shape(a), fmt_shape(b), fmt_shape(c))
            rng = rng_for(cid)
            args = [operand("x", dt, a, rng), operand("y", dt, b, rng), operand("z", dt, c, rng)]
            yield make_case(cid, SUITE, "gemm_bias", args, rules=("B45", "B7", "B12"))
    cid = "mathops/gemm_bias/f32-f64/(2,3)x(3,4)x(4,)"
    rng = rng_for(cid)
    args = [operand("x", "f32", (2, 3), rng), operand("y", "f32", (3, 4), rng), operand("z", "f64", (4,), rng)]
    yield make_case(cid, SUITE, "gemm_bias", args, rules=("B45",))


def dtype_error_cases():
    """Integer-only ops refuse floats in both libraries (B40)."""
    for op in ("gcd", "lcm", "left_shift", "right_shift"):
        cid = "mathops/%s/f64/refused" % op
        rng = rng_for(cid)
        args = [operand("x", "f64", (2, 3), rng), operand("y", "f64", (3,), rng)]
        yield make_case(cid, SUITE, op, args, rules=("B40",))


def cases():
    for op, (dts, rules, cmp) in BINARY.items():
        yield from binary_cases(op, dts, rules, cmp)
    for op, (dts, rules, cmp) in THREE.items():
        yield from three_cases(op, dts, rules, cmp)
    yield from gemm_cases()
    yield from zero_divisor_cases()
    yield from dtype_error_cases()
