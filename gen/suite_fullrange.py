"""suite_fullrange.py - full-range values on every broadcast path (issue #25 item 1).

For every element-wise op (and broadcast_to, expand) and every integer and
float dtype, one case per broadcast pattern that libraries give a path of its
own: same shape, a 0-d operand on either side (one case per scalar value),
row, column, outer, stretched middle dim and leading missing dims, each with
the stretched operand on either side. The operands cycle through the dtype's
full-range set (gen/fullrange_values.py: min, max, values straddling +-2^31
and +-2^32, pairs differing in one half only; floats: +-0, subnormals, the
largest finite values, +-inf, NaN payloads), the other operand shifted by one
so adjacent pairs meet in both orders. Rows are 19 elements (35 for 8-bit
dtypes): a SIMD body and a tail. gen/check_fullrange.py (make test) counts
the cases per op x dtype x pattern.
"""

import numpy as np

from builder import make_case, operand
from caseio import BINARY_OPS, INT_DTYPES, NP_DTYPE, FLOAT_DTYPES, fmt_shape
import fullrange_values as fv

SUITE = "fullrange"
DIGEST_OVER = 24   # results above this many elements are digested (file size)
INT_ONLY = ("bitwise_and", "bitwise_or", "bitwise_xor")
DIVISIONS = ("div", "floor_divide", "remainder")


def row_len(dtype):
    return 35 if np.dtype(NP_DTYPE[dtype]).itemsize == 1 else 19


def patterns(n):
    """(name, x shape, y shape): each pattern with the stretched operand on either side."""
    out = [("same", (2, n), (2, n))]
    for name, big, small in (("row", (3, n), (1, n)), ("column", (4, n), (4, 1)),
                             ("middle", (2, 3, 7), (2, 1, 7)), ("leading", (3, n), (n,))):
        out += [(name + "-y", big, small), (name + "-x", small, big)]
    out += [("outer-y", (8, 1), (1, n)), ("outer-x", (1, n), (8, 1))]
    return out


def fill(shape, dtype, shift, keep=None):
    """C-order values of shape: the dtype's set (less what keep rejects),
    cycled from position shift."""
    vals = fv.values(dtype)
    if keep is not None:
        vals = vals[keep(vals)]
    n = int(np.prod(shape, dtype=np.int64))
    idx = (np.arange(n) + shift) % len(vals)
    return vals[idx]


def y_filter(op, dtype):
    """Values the second operand must avoid: an integer zero divisor (torch
    raises for the whole case), -1 beside the minimum in i32/i64 floor
    division (torch 1.13 dies: ops suite's min-by-minus-one case covers it),
    negative integer exponents (NumPy raises)."""
    if dtype in FLOAT_DTYPES:
        return None
    if op in DIVISIONS:
        if dtype in ("i32", "i64") and op != "div":
            return lambda v: (v != 0) & (v != -1)
        return lambda v: v != 0
    if op == "pow":
        return lambda v: v >= 0
    return None


def ops_for(dtype):
    ops = [o for o in BINARY_OPS if not (dtype in FLOAT_DTYPES and o in INT_ONLY)]
    return ops + ["where", "uni_add", "axis_add"]


def _args(op, dtype, xs, ys, x_vals=None, y_vals=None):
    """The case's operands (where gets a cond of the result's shape,
    alternating, so both branches reach every position class)."""
    keep = y_filter(op, dtype)
    # y one ahead of x, so that a same-shape case meets adjacent pairs in both orders
    xv = fill(xs, dtype, 0) if x_vals is None else x_vals
    yv = fill(ys, dtype, 1, keep) if y_vals is None else y_vals
    if len(xs) == 2 and 1 in xs and 1 in ys and xs != ys:
        yv = _rest(xv, ys, dtype, keep)
    x = operand("x", dtype, xs, None, xv)
    y = operand("y", dtype, ys, None, yv)
    for a in (x, y):
        a.nan_payloads = True
    if op != "where":
        return [x, y]
    out = np.broadcast_shapes(xs, ys)
    cond = np.arange(int(np.prod(out, dtype=np.int64))).reshape(out) % 3 != 1
    return [operand("cond", "bool", out, None, cond), x, y]


def _rest(xv, ys, dtype, keep):
    """An outer product meets every pair anyway: y holds first what x lacks,
    so that together they hold the set."""
    vals = fv.values(dtype)
    if keep is not None:
        vals = vals[keep(vals)]
    have = set(xv.view("u%d" % xv.itemsize).tolist())
    first = [i for i, b in enumerate(vals.view("u%d" % vals.itemsize).tolist()) if b not in have]
    order = np.array(first + [i for i in range(len(vals)) if i not in first])
    return vals[order[np.arange(int(np.prod(ys))) % len(order)]]


def _attrs(op):
    return (("axis", "-1"),) if op == "axis_add" else ()


def _compare(op, dtype):
    # builder.make_case compares every pow `ulp 2` (exact for integers), and a
    # digest is compared exactly: pow results are listed.
    return "ulp 2" if op == "pow" else "exact"


def _one(op, dtype, pat, xs, ys, x_vals=None, y_vals=None):
    if op in ("uni_add", "axis_add") and (pat.endswith("-x") or pat == "scalar-x"):
        return None   # x never stretches under the one-way rules (B7, B10): not a value path
    cid = "fullrange/%s/%s/%s/%sx%s" % (op, dtype, pat, fmt_shape(xs), fmt_shape(ys))
    if x_vals is not None or y_vals is not None:
        v = (x_vals if x_vals is not None else y_vals)[0]
        cid += "/" + ("%r" % v.item()).replace(" ", "")
    cmp = _compare(op, dtype)
    return make_case(cid, SUITE, op, _args(op, dtype, xs, ys, x_vals, y_vals), attrs=_attrs(op),
                     rules=("B1", "B2", "B18", "B20", "B21"), compare=cmp, tags=("values", "full-range"),
                     digest_over=None if cmp != "exact" else DIGEST_OVER)


def _scalar_cases(op, dtype, n):
    keep = y_filter(op, dtype)
    for s in fv.scalars(dtype):
        yield _one(op, dtype, "scalar-x", (), (2, n), x_vals=s)
        if keep is None or keep(s)[0]:
            yield _one(op, dtype, "scalar-y", (2, n), (), y_vals=s)
    if op == "pow" and dtype in INT_DTYPES:
        yield _one(op, dtype, "scalar-y", (2, n), (), y_vals=np.array([3], dtype=NP_DTYPE[dtype]))


def _expand_cases(dtype, n):
    """broadcast_to and expand: the input stretched along each pattern."""
    m = len(fv.values(dtype))   # the input holds the whole set
    pats = [("same", (2, m), (2, m)), ("row-x", (1, m), (3, m)), ("column-x", (m, 1), (m, 3)),
            ("middle-x", (2, 1, m), (2, 3, m)), ("leading-x", (m,), (3, m))]
    # a 0-d input holds one value: one case per value of the set
    pats += [("scalar-x/%d" % k, (), (2, n)) for k in range(len(fv.values(dtype)))]
    for pat, src, dst in pats:
        k = int(pat.split("/")[1]) if "/" in pat else None
        x = operand("x", dtype, src, None, fill(src, dtype, 0) if k is None else fv.values(dtype)[k:k + 1])
        x.nan_payloads = True
        for op in ("broadcast_to", "expand"):
            cid = "fullrange/%s/%s/%s/%sx%s" % (op, dtype, pat, fmt_shape(src), fmt_shape(dst))
            yield make_case(cid, SUITE, op, [x], attrs=(("shape", fmt_shape(dst)),),
                            rules=("B5",) if op == "broadcast_to" else ("B6",),
                            tags=("values", "full-range"), digest_over=DIGEST_OVER)


def cases():
    for dtype in INT_DTYPES + FLOAT_DTYPES:
        n = row_len(dtype)
        for op in ops_for(dtype):
            for pat, xs, ys in patterns(n):
                yield _one(op, dtype, pat, xs, ys)
            yield from _scalar_cases(op, dtype, n)
        yield from _expand_cases(dtype, n)
