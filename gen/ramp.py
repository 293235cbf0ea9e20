"""ramp.py - operands whose storage is a `pattern ramp A B M K D` (docs/case-format.md).

Element i of the storage is (((i*A + B) mod M) - K) / D: wrapped to the dtype
for integers, != 0 for bool, float64 division rounded to the dtype for floats.
The values computed here are exactly the runner's (runner/case/caseio.c,
br_materialize), so the oracles see what a target will see.
"""

import numpy as np

from caseio import GenError, Operand, NP_DTYPE, contiguous_strides

LIMIT = 1 << 53  # the reader's bound on M and |K|


def check(pat, dtype):
    """Refuses a ramp the reader would refuse, or that this module cannot compute exactly."""
    a, b, m, k, d = (int(p) for p in pat)
    if not (1 <= m <= LIMIT) or abs(k) > LIMIT or d == 0:
        raise GenError("ramp %r: M must be in [1, 2^53], |K| <= 2^53, D != 0" % (pat,))
    if dtype not in ("f32", "f64") and d != 1:
        raise GenError("ramp %r: D must be 1 for %s" % (pat, dtype))
    if a < 0 or b < 0:
        raise GenError("ramp %r: A and B must be >= 0" % (pat,))


def values_at(idx, pat, dtype):
    """The ramp's values at storage indices idx (an int64 array), as dtype.

    (i*A + B) mod M is exact: for M a power of two through wrapping uint64
    arithmetic (2^64 is a multiple of M); otherwise i*A + B must fit in int64."""
    check(pat, dtype)
    a, b, m, k, d = (int(p) for p in pat)
    idx = np.asarray(idx, dtype=np.int64)
    if m & (m - 1) == 0:
        with np.errstate(over="ignore"):
            v = ((idx.astype(np.uint64) * np.uint64(a) + np.uint64(b)) & np.uint64(m - 1)).astype(np.int64)
    else:
        top = int(idx.max()) if idx.size else 0
        if top * a + b >= 1 << 63:
            raise GenError("ramp %r: i*A + B overflows int64 at i = %d (M not a power of two)" % (pat, top))
        v = (idx * a + b) % m
    x = v - k
    if dtype == "bool":
        return x != 0
    if dtype in ("f32", "f64"):
        return (x.astype(np.float64) / float(d)).astype(NP_DTYPE[dtype])
    return x.astype(NP_DTYPE[dtype])  # wraps, as the format says


def operand(name, dtype, shape, pat, strides=None, offset=0, storage_len=None):
    """A view over a ramp storage; the storage defaults to exactly what a
    contiguous view (or the given strides and offset) addresses."""
    shape = tuple(int(s) for s in shape)
    if strides is None:
        strides = contiguous_strides(shape)
    if storage_len is None:
        storage_len = span(shape, strides, offset)
    vals = values_at(np.arange(storage_len, dtype=np.int64), pat, dtype)
    return Operand(name, dtype, shape, strides, offset, storage=vals, pattern=tuple(pat))


def span(shape, strides, offset):
    """1 + the largest storage index a view addresses (0 for an empty view)."""
    if any(d == 0 for d in shape):
        return offset
    return offset + 1 + sum((d - 1) * s for d, s in zip(shape, strides) if s > 0)
