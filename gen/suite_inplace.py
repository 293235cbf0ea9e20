"""suite_inplace.py - self op= other (B8, B9, B22) and out= (mode out)."""

import numpy as np

from builder import make_case, operand, rng_for
from caseio import DTYPES, Operand, fmt_shape, NP_DTYPE
from layouts import strided
from shapes import all_shapes

SUITE = "inplace"
OPS = ("add", "sub", "mul", "div", "floor_divide", "remainder", "pow",
       "bitwise_and", "bitwise_or", "bitwise_xor")
PAIRS = [((2, 3), (3,)), ((2, 3), (2, 3)), ((2, 3), ()), ((3,), (2, 3)), ((2, 1), (1, 3)), ((), (1,))]
RULES = ("B8", "B22")


def expanded_self(shape, strides, rng, dtype="f32"):
    """A self whose stride-0 dims make several indices share one element (B9)."""
    span = 1 + sum((d - 1) * s for d, s in zip(shape, strides) if d > 0)
    return Operand("self", dtype, shape, strides, 0, (rng.randint(-8, 9, span) / 2.0).astype(NP_DTYPE[dtype]))


def cases():
    # Every self/other pair over rank 0-3 shapes of extents {1,2}, plus a few 3s
    # (each failure costs torch ~4 ms: the full {1,2,3} grid would not fit the time budget).
    shapes = all_shapes(3, (1, 2)) + [(3,), (2, 3), (3, 1), (1, 3), (3, 2, 1)]
    for s in shapes:
        for o in shapes:
            cid = "inplace/add/f32/self%s/y%s" % (fmt_shape(s), fmt_shape(o))
            rng = rng_for(cid)
            yield make_case(cid, SUITE, "add", [operand("self", "f32", s, rng), operand("y", "f32", o, rng)],
                            mode="inplace", rules=RULES)
    for op in OPS:
        for dt in DTYPES:
            if (op, dt) == ("add", "f32"):
                continue  # covered by the full enumeration above
            for s, o in PAIRS:
                cid = "inplace/%s/%s/self%s/y%s" % (op, dt, fmt_shape(s), fmt_shape(o))
                rng = rng_for(cid)
                yield make_case(cid, SUITE, op, [operand("self", dt, s, rng), operand("y", dt, o, rng)],
                                mode="inplace", rules=RULES + ("B18",))
    # Mixed dtypes: the result must be castable to self's dtype.
    for sd in DTYPES:
        for yd in DTYPES:
            cid = "inplace/add/%s+=%s/self(2,3)/y(3,)" % (sd, yd)
            rng = rng_for(cid)
            yield make_case(cid, SUITE, "add", [operand("self", sd, (2, 3), rng), operand("y", yd, (3,), rng)],
                            mode="inplace", rules=RULES + ("B19",))
    # Writes through an expanded self (B9); extent-1 stride-0 dims do not overlap.
    for shape, strides in (((3,), (0,)), ((2, 3), (0, 1)), ((2, 3), (1, 0)), ((1, 3), (0, 1)),
                           ((2, 3, 1), (0, 1, 0)), ((4, 1), (0, 1)), ((1,), (0,))):
        for o in ((), (3,), (2, 3), (1,), (4, 3)):
            cid = "inplace/add/f32/self%s-strides%s/y%s" % (fmt_shape(shape), fmt_shape(strides), fmt_shape(o))
            rng = rng_for(cid)
            yield make_case(cid, SUITE, "add", [expanded_self(shape, strides, rng), operand("y", "f32", o, rng)],
                            mode="inplace", rules=("B8", "B9", "B22"), tags=("noncontiguous",))
    # Non-contiguous selves that may be written.
    for layout in ("transposed", "step2", "negative", "offset"):
        for s, o in (((2, 3), (3,)), ((3, 2), (3, 1)), ((2, 3), (2, 1, 3))):
            cid = "inplace/mul/i32/self%s-%s/y%s" % (fmt_shape(s), layout, fmt_shape(o))
            rng = rng_for(cid)
            me = strided("self", "i32", s, layout, rng)
            yield make_case(cid, SUITE, "mul", [me, operand("y", "i32", o, rng)], mode="inplace",
                            rules=RULES + ("B17",))
    # out=: NumPy requires out to have the broadcast shape (or broadcasts the
    # inputs up to out's); torch resizes a wrongly shaped out. (1,3): the right
    # rank, an extent 1 where the result has 2 (seeded bug out-numpy-rank-only).
    for x, y, out in (((2, 3), (3,), (2, 3)), ((2, 3), (3,), (3,)), ((3,), (3,), (2, 3)),
                      ((2, 1), (1, 3), (2, 3)), ((2, 1), (1, 3), (3, 2)), ((2, 3), (3,), (6,)),
                      ((2, 3), (3,), (0,)), ((), (), (2,)), ((2, 3), (4,), (2, 3)),
                      ((2, 3), (3,), (1, 3))):
        for op, dt in (("add", "f32"), ("mul", "i64"), ("eq", "bool")):
            cid = "inplace/%s/%s/%sx%s/out%s" % (op, dt, fmt_shape(x), fmt_shape(y), fmt_shape(out))
            rng = rng_for(cid)
            od = "bool" if op == "eq" else dt
            yield make_case(cid, SUITE, op, [operand("x", dt, x, rng), operand("y", dt, y, rng),
                                             operand("out", od, out, rng)],
                            mode="out", rules=("B8",), tags=("out",))
    # out= calls that fail after writing (B22): torch's integer floor_divide and
    # remainder raise on a zero divisor after storing the quotients before it,
    # NumPy's integer ** raises on a negative exponent after storing the powers
    # before it (measured in both generations); the divisor or exponent goes
    # bad at element 1, so a partial write shows. gen tags such cases out-modified.
    for op, bad in (("floor_divide", 0), ("remainder", 0), ("pow", -1)):
        for dt in ("i32", "i64"):
            for y in ((3,), (2, 3)):
                cid = "inplace/%s/%s/(2,3)x%s/out(2,3)" % (op, dt, fmt_shape(y))
                rng = rng_for(cid)
                yv = [1, bad, 2] * (2 if len(y) == 2 else 1)
                yield make_case(cid, SUITE, op, [operand("x", dt, (2, 3), rng, values=range(10, 16)),
                                                 operand("y", dt, y, rng, values=yv),
                                                 operand("out", dt, (2, 3), rng, values=[7] * 6)],
                                mode="out", rules=("B8", "B20", "B22"), tags=("out",))
