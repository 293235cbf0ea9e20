"""suite_matmul.py - matmul: batch broadcasting (B14), 1-D operands (B12), core
mismatch and 0-d operands (B13), zero-size batch and contraction."""

from builder import make_case, operand, rng_for
from caseio import DTYPES, fmt_shape

SUITE = "matmul"
BATCHES = [(), (1,), (2,), (3,), (2, 1), (1, 2), (0,), (3, 1, 1)]


def core_pairs():
    return [((2, 3), (3, 4)), ((3,), (3, 4)), ((2, 3), (3,)), ((3,), (3,)), ((1, 3), (3, 1)),
            ((2, 0), (0, 4)), ((0, 3), (3, 4)), ((2, 3), (3, 0)), ((2, 3), (4, 5)), ((3,), (4,)),
            ((2, 3), (2,)), ((4,), (3, 4)), ((2, 1), (3, 4))]


def cases():
    seen = set()
    for bx in BATCHES:
        for by in BATCHES:
            for cx, cy in core_pairs():
                # 1-D operands take no batch dims of their own.
                if (len(cx) == 1 and bx) or (len(cy) == 1 and by):
                    continue
                x, y = bx + cx, by + cy
                cid = "matmul/f32/%sx%s" % (fmt_shape(x), fmt_shape(y))
                seen.add(cid)
                rng = rng_for(cid)
                yield make_case(cid, SUITE, "matmul", [operand("x", "f32", x, rng), operand("y", "f32", y, rng)],
                                rules=("B12", "B13", "B14"))
    for dt in DTYPES:
        for x, y in (((2, 3), (3, 4)), ((2, 2, 3), (3,)), ((3,), (3,)), ((), (3,)), ((3,), ()),
                     ((), ()), ((2, 1, 2, 3), (3, 3, 2))):
            cid = "matmul/%s/%sx%s" % (dt, fmt_shape(x), fmt_shape(y))
            if cid in seen:
                continue  # already in the enumeration above
            rng = rng_for(cid)
            yield make_case(cid, SUITE, "matmul", [operand("x", dt, x, rng), operand("y", dt, y, rng)],
                            rules=("B12", "B13", "B14", "B18"))
