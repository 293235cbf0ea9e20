"""suite_exhaustive.py - every ordered pair of shapes of rank 0-3 over extents {0,1,2,3}, add/f32."""

from builder import make_case, operand, rng_for
from caseio import fmt_shape
from shapes import all_shapes, shape_pairs

SUITE = "exhaustive"


def cases():
    for a, b in shape_pairs(all_shapes()):
        cid = "exhaustive/add/f32/%sx%s" % (fmt_shape(a), fmt_shape(b))
        rng = rng_for(cid)
        args = [operand("x", "f32", a, rng), operand("y", "f32", b, rng)]
        yield make_case(cid, SUITE, "add", args, rules=("B1", "B2", "B3"))
