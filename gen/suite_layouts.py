"""suite_layouts.py - the same computations with non-contiguous operands:
transposed, stepped, negative strides, offsets, stride-0 inputs (B17)."""

import numpy as np

from builder import make_case, operand, rng_for
from caseio import fmt_shape, seed_of
from layouts import LAYOUTS, strided
from shapes import all_shapes, broadcast

SUITE = "layouts"
OPS = (("add", "f32"), ("mul", "i32"), ("maximum", "f64"), ("lt", "i16"), ("sub", "u8"))


def pairs():
    """40 broadcastable and 3 non-broadcastable pairs of rank 1-3 shapes, chosen
    deterministically from extents {1,2,3}."""
    shapes = [s for s in all_shapes(3, (1, 2, 3)) if len(s) >= 1]
    rng = np.random.RandomState(seed_of("layouts/pairs"))
    good, bad = [], []
    order = rng.permutation(len(shapes) * len(shapes))
    for idx in order:
        a, b = shapes[idx // len(shapes)], shapes[idx % len(shapes)]
        if broadcast(a, b) is None:
            if len(bad) < 3:
                bad.append((a, b))
        elif len(good) < 40 and a != b:
            good.append((a, b))
    return good + bad


def cases():
    for a, b in pairs():
        for layout in LAYOUTS:
            for where in ("x", "y", "xy"):
                for op, dt in OPS:
                    cid = "layouts/%s/%s/%sx%s/%s-%s" % (op, dt, fmt_shape(a), fmt_shape(b), layout, where)
                    rng = rng_for(cid)
                    x = strided("x", dt, a, layout, rng) if "x" in where else operand("x", dt, a, rng)
                    y = strided("y", dt, b, layout, rng) if "y" in where else operand("y", dt, b, rng)
                    if x is None or y is None:
                        continue
                    yield make_case(cid, SUITE, op, [x, y], rules=("B1", "B2", "B3", "B17"),
                                    tags=("noncontiguous",))
