"""suite_weak.py - weak scalars (B34): an array combined with a plain Python
bool, int or float (`x + 1`, `where(c, x, 0.5)`), which has no dtype of its
own. Every element-wise op and dtype with a scalar on either side; values at
the edges of each dtype (an int that does not fit int8, a negative int with
an unsigned array, a float with an integer array, a float beyond f32, bool
with each); in value, in-place and out= modes, and `where` with scalar
branches. Runs under both generations' interpreters: NumPy 1.24 treats the
scalar as np.asarray(value) (B19), NumPy 2 by NEP 50, torch as a wrapped
number."""

import numpy as np

from builder import make_case, operand, rng_for
from caseio import BINARY_OPS, DTYPES, WEAK_STORAGE, NP_DTYPE, Operand, fmt_shape

SUITE = "weak"
TAGS = ("weak-scalar",)
RULES = ("B34",)
# One ordinary value of each kind: every op x dtype x side.
PLAIN = (("weak-int", 3), ("weak-float", 1.5), ("weak-bool", True))
# The edges: ints that fit only wider (or no unsigned) types, floats beyond
# f32 or without an integer value, the other bool.
EDGES = (("weak-int", 1000), ("weak-int", -1), ("weak-int", 200), ("weak-int", -129),
         ("weak-int", 2 ** 40), ("weak-int", 2 ** 63 - 1), ("weak-int", 0),
         ("weak-float", 1e300), ("weak-float", -0.0), ("weak-float", float("inf")),
         ("weak-float", float("nan")), ("weak-float", 0.1), ("weak-bool", False))
EDGE_OPS = ("add", "sub", "mul", "div", "floor_divide", "remainder", "pow", "maximum",
            "eq", "lt", "bitwise_and", "logical_or")
EDGE_OPS_LEFT = ("add", "sub", "lt")
INPLACE_OPS = ("add", "sub", "mul", "div", "floor_divide", "bitwise_or", "lt")
INPLACE_VALUES = (("weak-int", 3), ("weak-int", 1000), ("weak-int", -1), ("weak-float", 1.5),
                  ("weak-float", 1e300), ("weak-bool", True))
OUT_OPS = ("add", "mul", "div", "eq")
WHERE_VALUES = (("weak-int", 3), ("weak-int", 1000), ("weak-int", -1), ("weak-float", 1.5),
                ("weak-float", 1e300), ("weak-bool", True))


def weak(name, kind, value):
    """A weak-scalar arg: shape (), its value stored as a 0-d i64/f64/bool."""
    return Operand(name, kind, (), storage=np.asarray([value], dtype=NP_DTYPE[WEAK_STORAGE[kind]]))


def vid(kind, value):
    """The scalar as the case id spells it: weak-int=1000, weak-float=1e+300."""
    return "%s=%r" % (kind, value)


def binary(op, dt, kind, value, left, mode="value"):
    """op between a (3,) array of dt and the scalar, the scalar on the left when left."""
    side = "%s,%s" % ((vid(kind, value), dt) if left else (dt, vid(kind, value)))
    shapes = "()x(3,)" if left else "(3,)x()"
    cid = "weak/%s/%s/%s%s" % (op, side, shapes, "" if mode == "value" else "/" + mode)
    rng = rng_for(cid)
    arr = operand("self" if mode == "inplace" else "x" if not left else "y", dt, (3,), rng)
    sc = weak("x" if left else "y", kind, value)
    args = [sc, arr] if left else [arr, sc]
    if mode == "out":
        args.append(operand("out", "bool" if op in ("eq", "ne", "lt", "le", "gt", "ge") else dt, (3,), rng))
    return make_case(cid, SUITE, op, args, mode=mode, tags=TAGS, rules=RULES)


def where_cases():
    """where(cond, x, y) with a scalar branch on either side, and both branches scalars."""
    for dt in DTYPES:
        for kind, value in WHERE_VALUES:
            for left in (False, True):
                cid = "weak/where/bool,%s/(3,)x%s" % (
                    "%s,%s" % ((vid(kind, value), dt) if left else (dt, vid(kind, value))),
                    "()x(3,)" if left else "(3,)x()")
                rng = rng_for(cid)
                cond = operand("cond", "bool", (3,), None, [True, False, True])
                arr = operand("y" if left else "x", dt, (3,), rng)
                sc = weak("x" if left else "y", kind, value)
                yield make_case(cid, SUITE, "where", [cond, sc, arr] if left else [cond, arr, sc],
                                tags=TAGS, rules=RULES)
    for kx, vx in WHERE_VALUES:
        for ky, vy in WHERE_VALUES:
            cid = "weak/where/bool,%s,%s/(3,)x()x()" % (vid(kx, vx), vid(ky, vy))
            cond = operand("cond", "bool", (3,), None, [True, False, True])
            yield make_case(cid, SUITE, "where", [cond, weak("x", kx, vx), weak("y", ky, vy)],
                            tags=TAGS, rules=RULES)


def cases():
    for op in BINARY_OPS:
        for dt in DTYPES:
            for kind, value in PLAIN:
                for left in (False, True):
                    yield binary(op, dt, kind, value, left)
    for op in EDGE_OPS:
        for dt in DTYPES:
            for kind, value in EDGES:
                yield binary(op, dt, kind, value, False)
                if op in EDGE_OPS_LEFT:
                    yield binary(op, dt, kind, value, True)
    for op in INPLACE_OPS:
        for dt in DTYPES:
            for kind, value in INPLACE_VALUES:
                yield binary(op, dt, kind, value, False, mode="inplace")
    for op in OUT_OPS:
        for dt in DTYPES:
            for kind, value in INPLACE_VALUES:
                yield binary(op, dt, kind, value, False, mode="out")
    for c in where_cases():
        yield c
