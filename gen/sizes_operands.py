"""sizes_operands.py - operands of the `sizes` suite: full-range ramps per dtype,
extreme 0-d values, and the layouts (B17) a ramp operand can be given in.

Ramps, not constants, so that a swapped, skipped or repeated element changes
the result. Integer ramps cover the dtype's whole range (i64: +-2^52, far
beyond the +-2^32 where 32-bit-half emulation of 64-bit lanes goes wrong); a
0-d or one-element operand takes the dtype's extremes (INT64_MIN, UINT8_MAX,
...) from SCALARS, so a kernel's scalar-broadcast path sees them too.
"""

import numpy as np

from builder import operand as listed_operand
from caseio import NP_DTYPE, Operand, contiguous_strides
import ramp

G32 = 2654435761            # odd, ~0.618 * 2^32: consecutive elements land far apart
G53 = 5566755429629081      # odd, ~0.618 * 2^53

# dtype: ramps (A, B, M, K, D) for the roles x, y and a third operand
# (where's cond is bool; out= and self start from this one).
RAMPS = {
    "bool": ((1, 0, 3, 1, 1), (1, 1, 2, 0, 1), (2, 1, 5, 3, 1)),
    "i8": ((73, 5, 256, 128, 1), (151, 90, 256, 128, 1), (29, 17, 256, 128, 1)),
    "u8": ((73, 5, 256, 0, 1), (151, 90, 256, 0, 1), (29, 17, 256, 0, 1)),
    "i16": ((40503, 7, 1 << 16, 1 << 15, 1), (25033, 1234, 1 << 16, 1 << 15, 1),
            (9973, 77, 1 << 16, 1 << 15, 1)),
    "i32": ((G32, 11, 1 << 32, 1 << 31, 1), (1597334677, 99991, 1 << 32, 1 << 31, 1),
            (2246822519, 5, 1 << 32, 1 << 31, 1)),
    "i64": ((G53, 13, 1 << 53, 1 << 52, 1), (3602879701896397, 7, 1 << 53, 1 << 52, 1),
            (1125899906842597, 3, 1 << 53, 1 << 52, 1)),
    # f32: multiples of 1/256 in [-8192, 8192), exact in float32.
    "f32": ((G32 % (1 << 22), 3, 1 << 22, 1 << 21, 256), (1597334677 % (1 << 22), 9, 1 << 22, 1 << 21, 256),
            (12345, 1, 1 << 22, 1 << 21, 256)),
    # f64: multiples of 2^-20 in [-2^32, 2^32), exact in float64.
    "f64": ((G53, 5, 1 << 53, 1 << 52, 1 << 20), (3602879701896397, 1, 1 << 53, 1 << 52, 1 << 20),
            (1125899906842597, 8, 1 << 53, 1 << 52, 1 << 20)),
}
ROLE = {"x": 0, "y": 1, "cond": 2, "self": 0, "out": 2}

# Values of 0-d and one-element operands, taken in turn.
SCALARS = {
    "bool": (True, False),
    "i8": (127, -128, -1, 85),
    "u8": (255, 128, 1, 170),
    "i16": (32767, -32768, -1, 21845),
    "i32": (2 ** 31 - 1, -2 ** 31, -1, 1431655765),
    "i64": (2 ** 63 - 1, -2 ** 63, 2 ** 32 + 1, -(2 ** 32) - 1, 2 ** 53 + 1),
    "f32": (0.5, -3.25, 1e30, -0.0),
    "f64": (0.5, -3.25, 1e300, 2.0 ** -1000),
}

LAYOUTS = ("dense", "stride0", "negative", "offset", "transposed")
OFFSET = 3  # unused leading elements: every dtype's data then starts misaligned


def ramp_of(dtype, role):
    return RAMPS["bool" if role == "cond" else dtype][ROLE[role]]


def scalar_operand(name, dtype, shape, k, strides=None):
    """An operand of one stored element, SCALARS[dtype][k mod len] (a values
    line): 0-d, one-element, or (strides all 0) that element expanded."""
    vals = SCALARS[dtype]
    if strides is None:
        return listed_operand(name, dtype, shape, None, [vals[k % len(vals)]])
    return Operand(name, dtype, shape, strides, 0, np.array([vals[k % len(vals)]], dtype=NP_DTYPE[dtype]))


def laid_out(name, dtype, shape, layout, full, k=0):
    """An operand of logical `shape` (broadcasting to `full`) in `layout`:

    dense       contiguous ramp (one-element shapes: a scalar from SCALARS);
    negative    every dim reversed (negative strides, offset at the far end);
    offset      contiguous after OFFSET unused elements;
    transposed  dims reversed in memory (column-major); rank < 2 stays dense;
    stride0     given at the full shape, already expanded: stride 0 in every
                dim it stretches along; an operand that stretches nowhere gets
                stride 0 in its first dim of extent > 1 (its storage then holds
                one slice, as after an expand)."""
    shape = tuple(shape)
    pat = ramp_of(dtype, "cond" if name == "cond" else name)
    size = int(np.prod(shape, dtype=np.int64))
    if layout == "stride0":
        return _expanded(name, dtype, shape, tuple(full), pat, k)
    if size == 1:
        return scalar_operand(name, dtype, shape, k)
    if layout in ("dense", "transposed") and (layout == "dense" or len(shape) < 2):
        return ramp.operand(name, dtype, shape, pat)
    cs = contiguous_strides(shape)
    if layout == "negative":
        off = sum((d - 1) * s for d, s in zip(shape, cs))
        return ramp.operand(name, dtype, shape, pat, tuple(-s for s in cs), off)
    if layout == "offset":
        return ramp.operand(name, dtype, shape, pat, cs, OFFSET)
    if layout == "transposed":
        return ramp.operand(name, dtype, shape, pat, tuple(reversed(contiguous_strides(shape[::-1]))))
    raise ValueError(layout)


def _expanded(name, dtype, shape, full, pat, k):
    """`shape` given at `full` with stride 0 where it stretches (see laid_out)."""
    lead = len(full) - len(shape)
    own = contiguous_strides(shape)
    strides = [0] * lead + [0 if d == 1 and f != 1 else s for d, s, f in zip(shape, own, full[lead:])]
    if int(np.prod(shape, dtype=np.int64)) == 1:
        return scalar_operand(name, dtype, full, k, (0,) * len(full))
    if shape == full:
        ks = [i for i, d in enumerate(full) if d > 1]
        coll = list(full)
        coll[ks[0]] = 1
        strides = list(contiguous_strides(tuple(coll)))
        strides[ks[0]] = 0
    return ramp.operand(name, dtype, full, pat, tuple(strides))


def result_ramp(name, dtype, shape):
    """A dense operand of the result's shape (self, out=), starting from the third ramp."""
    return ramp.operand(name, dtype, shape, RAMPS[dtype][ROLE["out"]])

