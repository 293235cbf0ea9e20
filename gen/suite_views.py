"""suite_views.py - broadcast_to (NumPy, B5) and expand (torch, B6): new leading
dims, -1 entries, 1 -> 0, invalid targets."""

from builder import make_case, operand, rng_for
from caseio import fmt_shape
from shapes import all_shapes

SUITE = "views"


def targets_with_minus(src):
    """Targets holding -1 (keep a dim / on a new leading dim) and other negatives."""
    out = []
    for k in range(len(src)):
        t = list(src)
        t[k] = -1
        out.append(tuple(t))
        out.append((2,) + tuple(t))
    out.append((-1,) + tuple(src))
    out.append((2, -1) + tuple(src))
    if src:
        out.append(tuple(src[:-1]) + (-2,))
    out.append((-3,) + tuple(src))
    return out


def cases():
    sources = all_shapes(2, (0, 1, 3))
    targets = all_shapes(3, (0, 1, 3))
    for op, rule in (("broadcast_to", "B5"), ("expand", "B6")):
        for s in sources:
            ts = list(targets) + [t for t in targets_with_minus(s) if t not in targets]
            for t in ts:
                cid = "views/%s/f32/%s->%s" % (op, fmt_shape(s), fmt_shape(t))
                rng = rng_for(cid)
                yield make_case(cid, SUITE, op, [operand("x", "f32", s, rng)],
                                attrs=(("shape", fmt_shape(t)),), rules=(rule, "B17"))
        # every dtype through one stretching view
        for dt in ("bool", "i8", "u8", "i16", "i32", "i64", "f64"):
            cid = "views/%s/%s/(3,1)->(2,3,4)" % (op, dt)
            yield make_case(cid, SUITE, op, [operand("x", dt, (3, 1), rng_for(cid))],
                            attrs=(("shape", "(2,3,4)"),), rules=(rule, "B17"))
