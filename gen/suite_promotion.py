"""suite_promotion.py - mixed dtypes under broadcasting (B19): dimensioned pairs
over the whole 8x8 table, and 0-d operands, where NumPy 1.24 (value-based) and
torch (category-based) differ."""

import numpy as np

from builder import make_case, operand, rng_for
from caseio import DTYPES, NP_DTYPE, INT_DTYPES, fmt_shape

SUITE = "promotion"
OPS = ("add", "mul", "div", "maximum", "eq", "floor_divide", "bitwise_or")
SCALAR_VALUES = {
    "bool": [True],
    "f32": [1.5, -0.0],
    "f64": [1.5, 1e40, 0.1],
}
INT_CANDIDATES = [-1, 5, 127, 200, 300, 70000, -129, 2 ** 40]


def scalar_values(dt):
    if dt in SCALAR_VALUES:
        return SCALAR_VALUES[dt]
    info = np.iinfo(NP_DTYPE[dt])
    return [v for v in INT_CANDIDATES if info.min <= v <= info.max]


def vid(v):
    return ("%r" % v).replace(" ", "")


def cases():
    for xd in DTYPES:
        for yd in DTYPES:
            for op in OPS:
                cid = "promotion/%s/%s,%s/(2,3)x(3,)" % (op, xd, yd)
                rng = rng_for(cid)
                yield make_case(cid, SUITE, op, [operand("x", xd, (2, 3), rng), operand("y", yd, (3,), rng)],
                                rules=("B19",))
            # 0-d y with chosen values, both operand orders; and both 0-d.
            for v in scalar_values(yd):
                for op in ("add", "div"):
                    cid = "promotion/%s/%s,0d-%s=%s/(3,)x()" % (op, xd, yd, vid(v))
                    rng = rng_for(cid)
                    yield make_case(cid, SUITE, op, [operand("x", xd, (3,), rng),
                                                     operand("y", yd, (), None, [v])], rules=("B19",))
                cid = "promotion/add/0d-%s=%s,%s/()x(2,1)" % (yd, vid(v), xd)
                rng = rng_for(cid)
                yield make_case(cid, SUITE, "add", [operand("x", yd, (), None, [v]),
                                                    operand("y", xd, (2, 1), rng)], rules=("B19",))
            cid = "promotion/add/%s,%s/()x()" % (xd, yd)
            rng = rng_for(cid)
            yield make_case(cid, SUITE, "add", [operand("x", xd, (), rng), operand("y", yd, (), rng)],
                            rules=("B19",))
