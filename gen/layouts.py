"""layouts.py - builds non-contiguous operands with a given logical shape (B17)."""

import numpy as np

from caseio import Operand, contiguous_strides, NP_DTYPE
from builder import small_values

LAYOUTS = ("transposed", "step2", "negative", "offset", "stride0")


def strided(name, dtype, shape, layout, rng):
    """An operand of logical `shape` whose storage is laid out per `layout`:
    transposed (reversed dims in memory), step2 (every other element of a
    wider last dim), negative (every dim reversed: negative strides, offset at
    the far end), offset (3 leading unused elements), stride0 (the first
    dim of extent > 1 already expanded: stride 0)."""
    shape = tuple(shape)
    n = int(np.prod(shape, dtype=np.int64))
    r = len(shape)
    if layout == "transposed":
        rev = tuple(reversed(shape))
        strides = tuple(reversed(contiguous_strides(rev)))
        return Operand(name, dtype, shape, strides, 0, small_values(rng, dtype, n))
    if layout == "step2":
        if r == 0:
            return None
        big = shape[:-1] + (2 * shape[-1],)
        bs = contiguous_strides(big)
        strides = bs[:-1] + (2,)
        size = int(np.prod(big, dtype=np.int64))
        return Operand(name, dtype, shape, strides, 0, small_values(rng, dtype, size))
    if layout == "negative":
        cs = contiguous_strides(shape)
        if n == 0 or r == 0:
            return None
        off = sum((d - 1) * s for d, s in zip(shape, cs))
        return Operand(name, dtype, shape, tuple(-s for s in cs), off, small_values(rng, dtype, n))
    if layout == "offset":
        return Operand(name, dtype, shape, contiguous_strides(shape), 3, small_values(rng, dtype, n + 3))
    if layout == "stride0":
        ks = [k for k, d in enumerate(shape) if d > 1]
        if not ks:
            return None
        k = ks[0]
        coll = shape[:k] + (1,) + shape[k + 1:]
        cs = list(contiguous_strides(coll))
        cs[k] = 0
        size = int(np.prod(coll, dtype=np.int64))
        return Operand(name, dtype, shape, tuple(cs), 0, small_values(rng, dtype, size))
    raise ValueError(layout)
