"""suite_zero_size.py - every way a 0 meets a 1, a 0 and an n (B2/B3), and zero-size
against huge extents given as stride-0 views (B17: nothing may be allocated)."""

import itertools

import numpy as np

from builder import make_case, operand, rng_for
from caseio import fmt_shape
from zero_size_helpers import stride0

SUITE = "zero-size"
EXT = (0, 1, 2, 5)


def shapes(max_rank):
    for r in range(max_rank + 1):
        yield from itertools.product(EXT, repeat=r)


HUGE = [
    ((0, 1), (1, 2 ** 40)), ((1, 2 ** 40), (0, 1)), ((0,), (2 ** 40, 1)), ((2 ** 40, 1), (0,)),
    ((0, 2 ** 31), (2 ** 31, 1)), ((2 ** 62, 0), (1,)), ((0, 1, 1), (1, 2 ** 30, 2 ** 30)),
    ((2 ** 40, 0), (2 ** 40, 1)), ((0, 1), (1, 2 ** 62)),
]


def cases():
    every = list(shapes(2))
    for x in every:
        for y in every:
            if 0 not in x and 0 not in y:
                continue
            cid = "zero-size/add/f32/%sx%s" % (fmt_shape(x), fmt_shape(y))
            rng = rng_for(cid)
            yield make_case(cid, SUITE, "add", [operand("x", "f32", x, rng), operand("y", "f32", y, rng)],
                            rules=("B1", "B2", "B3"), tags=("zero-size",))
    for a, b in HUGE:
        for op, dt in (("add", "f32"), ("eq", "i64"), ("bitwise_or", "bool")):
            cid = "zero-size/%s/%s/%sx%s/stride0" % (op, dt, fmt_shape(a), fmt_shape(b))
            xs = operand("x", dt, a, rng_for(cid)) if np.prod(a, dtype=object) == 0 else stride0("x", dt, a, 1)
            ys = operand("y", dt, b, rng_for(cid)) if np.prod(b, dtype=object) == 0 else stride0("y", dt, b, 1)
            yield make_case(cid, SUITE, op, [xs, ys], rules=("B2", "B16", "B17"),
                            tags=("zero-size", "huge"))
