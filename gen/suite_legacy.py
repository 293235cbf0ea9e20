"""suite_legacy.py - axis_add (Paddle elementwise axis / ONNX Add opset<7, B10/B11)
and uni_add (ONNX unidirectional, B7). Neither library has them: the rule of
docs/semantics.md is applied through NumPy (source rule)."""

from builder import make_case, operand, rng_for
from caseio import fmt_shape
from shapes import all_shapes

SUITE = "legacy"

# Paddle's documented examples (seed 003) first, then a sweep.
PADDLE = [((2, 1, 4), (3, 1), 1), ((2, 3, 4, 5), (4, 5), 1), ((2, 3, 4, 5), (3,), 1)]
X_SHAPES = [(2, 3, 4, 5), (2, 1, 4), (2, 3, 4), (3, 4), (4,), (), (2, 0, 3)]


def y_shapes(x):
    """Every contiguous run of x's dims, with each run also given with 1s in
    place of its dims, and a few strangers."""
    out = set()
    for i in range(len(x) + 1):
        for j in range(i, len(x) + 1):
            run = x[i:j]
            out.add(run)
            out.add(tuple(1 for _ in run))
            out.add(run + (1,))
    out |= {(5,), (7,), (3, 1), (1, 4, 1), (2, 3, 4, 5, 6)}
    return sorted(out, key=lambda s: (len(s), s))


def cases():
    seen = set()
    for x, y, axis in PADDLE:
        cid = "legacy/axis_add/f32/%sx%s/axis%d" % (fmt_shape(x), fmt_shape(y), axis)
        seen.add(cid)
        rng = rng_for(cid)
        yield make_case(cid, SUITE, "axis_add", [operand("x", "f32", x, rng), operand("y", "f32", y, rng)],
                        attrs=(("axis", str(axis)),), rules=("B10", "B11"), tags=("paddle-doc",))
    for x in X_SHAPES:
        for y in y_shapes(x):
            for axis in range(-2, len(x) + 1):
                cid = "legacy/axis_add/f32/%sx%s/axis%d" % (fmt_shape(x), fmt_shape(y), axis)
                if cid in seen:
                    continue
                seen.add(cid)
                rng = rng_for(cid)
                yield make_case(cid, SUITE, "axis_add", [operand("x", "f32", x, rng), operand("y", "f32", y, rng)],
                                attrs=(("axis", str(axis)),), rules=("B10", "B11"))
    shapes = all_shapes(2, (0, 1, 2, 3))
    for a in shapes:
        for b in shapes:
            cid = "legacy/uni_add/f32/%sx%s" % (fmt_shape(a), fmt_shape(b))
            rng = rng_for(cid)
            yield make_case(cid, SUITE, "uni_add", [operand("x", "f32", a, rng), operand("y", "f32", b, rng)],
                            rules=("B7",))
