"""suite_nary.py - where(cond, x, y) three-way broadcasting and broadcast_shapes
with 0, 1, 2, 32, 33 and 100 operands (B4)."""

from builder import make_case, operand, rng_for, shape_arg
from caseio import DTYPES, fmt_shape
from shapes import all_shapes

SUITE = "nary"


def shapes_sets():
    """(name, shapes) for broadcast_shapes."""
    out = [("none", [])]
    for n in (1, 2, 32, 33, 100):
        out.append(("ones", [(1,)] * n))
        out.append(("mixed", [(2, 1), (1, 3)] * (n // 2) + [(3,)] * (n % 2)))
        out.append(("rank-ladder", [(1,) * (k % 5) + (2,) for k in range(n)]))
        out.append(("mismatch-last", [(1, 3)] * (n - 1) + [(4,)]))
        out.append(("zero", [(0, 1)] + [(1, 1)] * (n - 1)))
        out.append(("scalars", [()] * n))
    return out


def cases():
    shapes = all_shapes(2, (1, 2)) + [(3,), (0,), (2, 0)]
    for c in shapes:
        for a in shapes:
            for b in shapes:
                cid = "nary/where/f32/%sx%sx%s" % (fmt_shape(c), fmt_shape(a), fmt_shape(b))
                rng = rng_for(cid)
                yield make_case(cid, SUITE, "where",
                                [operand("cond", "bool", c, rng), operand("x", "f32", a, rng),
                                 operand("y", "f32", b, rng)], rules=("B1", "B2", "B3", "B4"))
    # where with every pair of x/y dtypes (promotion, B19) and non-bool conditions.
    for xd in DTYPES:
        for yd in DTYPES:
            cid = "nary/where/%s,%s/(2,1)x(3,)x()" % (xd, yd)
            rng = rng_for(cid)
            yield make_case(cid, SUITE, "where", [operand("cond", "bool", (2, 1), rng),
                                                  operand("x", xd, (3,), rng), operand("y", yd, (), rng)],
                            rules=("B4", "B19"))
    for cd in DTYPES:
        if cd == "bool":
            continue
        cid = "nary/where/cond-%s/(2,1)x(3,)x(1,)" % cd
        rng = rng_for(cid)
        yield make_case(cid, SUITE, "where", [operand("cond", cd, (2, 1), rng),
                                              operand("x", "f32", (3,), rng), operand("y", "f32", (1,), rng)],
                        rules=("B4",))
    for name, shs in shapes_sets():
        cid = "nary/broadcast_shapes/%d/%s" % (len(shs), name)
        yield make_case(cid, SUITE, "broadcast_shapes",
                        [shape_arg("s%d" % i, s) for i, s in enumerate(shs)], rules=("B4",))
