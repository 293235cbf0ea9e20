"""suite_ops.py - every binary op x every dtype over a covering set of shape pairs,
plus value grids (x as a column, y as a row: every pair of special values)."""

from builder import make_case, operand, rng_for
from caseio import BINARY_OPS, DTYPES, fmt_shape, INT_DTYPES
from values import specials, nonzero, nonneg, column

SUITE = "ops"

# scalar, rank mismatch, 1-vs-n both ways, zero-size, errors.
PAIRS = [
    ((), ()), ((), (3,)), ((2, 3), ()), ((3,), (2, 3)), ((2, 1), (1, 3)),
    ((2, 3), (2, 1)), ((1, 3), (2, 3)), ((4, 1, 3), (2, 1)), ((0,), (1,)),
    ((2, 0), (2, 1)), ((1, 0), (3, 1)), ((2, 3), (4,)), ((2, 3), (3, 2)), ((0, 3), (2, 3)),
    ((1,), (3,)), ((3, 1, 2), (1, 2)), ((2, 1, 1), (1, 3, 1)), ((1, 1), (2, 1, 3)),
]

RULES = {
    "div": ("B18",), "floor_divide": ("B20",), "remainder": ("B20",), "pow": ("B20", "B21"),
    "maximum": ("B21",), "minimum": ("B21",),
}
VALUE_RULE = ("B18", "B20", "B21")


def compare_for(op, dtype):
    # Float pow: see builder.make_case (ulp 2).
    return "ulp 2" if op == "pow" and dtype in ("f32", "f64") else "exact"


def cases():
    for op in BINARY_OPS:
        for dt in DTYPES:
            rules = ("B1", "B2", "B3", "B18") + RULES.get(op, ())
            cmp = compare_for(op, dt)
            for a, b in PAIRS:
                cid = "ops/%s/%s/%sx%s" % (op, dt, fmt_shape(a), fmt_shape(b))
                rng = rng_for(cid)
                args = [operand("x", dt, a, rng), operand("y", dt, b, rng)]
                yield make_case(cid, SUITE, op, args, rules=rules, compare=cmp)
            # Value grids: x (n,1) against y (1,m) covers every pair of specials.
            sv = specials(dt)
            ys = sv
            if dt in ("i32", "i64") and op in ("floor_divide", "remainder"):
                # torch crashes (SIGFPE) on min by -1: that pair gets its own case.
                ys = [v for v in sv if v != -1]
                lo = min(sv)
                cid = "ops/%s/%s/min-by-minus-one" % (op, dt)
                args = [operand("x", dt, (2,), None, column([lo, 7], dt)),
                        operand("y", dt, (1,), None, column([-1], dt))]
                yield make_case(cid, SUITE, op, args, rules=("B20",), tags=("values",))
            grids = [("values", sv, ys)]
            if dt in INT_DTYPES and op in ("div", "floor_divide", "remainder"):
                grids.append(("values-nonzero-divisor", sv, nonzero(ys)))
            if dt in INT_DTYPES and op == "pow":
                grids.append(("values-nonneg-exponent", sv, nonneg(sv)))
            for name, xs, ys in grids:
                cid = "ops/%s/%s/%s" % (op, dt, name)
                args = [operand("x", dt, (len(xs), 1), None, column(xs, dt)),
                        operand("y", dt, (1, len(ys)), None, column(ys, dt))]
                yield make_case(cid, SUITE, op, args, rules=("B2",) + VALUE_RULE + RULES.get(op, ()),
                                compare=cmp, tags=("values",))
