"""values.py - per-dtype special values that hit the corners of each op (B18-B21)."""

import numpy as np

from caseio import NP_DTYPE

INFO = {d: np.iinfo(NP_DTYPE[d]) for d in ("i8", "u8", "i16", "i32", "i64")}


def specials(dtype):
    """Values that exercise wraparound, signs, zeros and IEEE corners."""
    if dtype == "bool":
        return [False, True]
    if dtype in ("f32", "f64"):
        return [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 7.0, -0.5, 3.0,
                float("inf"), float("-inf"), float("nan"),
                float(np.finfo(NP_DTYPE[dtype]).max), float(np.finfo(NP_DTYPE[dtype]).tiny)]
    i = INFO[dtype]
    if dtype == "u8":
        return [0, 1, 2, 3, 7, 127, 128, 254, 255]
    return [0, 1, -1, 2, -2, 3, -7, 7, int(i.max), int(i.min), int(i.max) - 1, int(i.min) + 1]


def nonzero(vals):
    return [v for v in vals if v != 0]


def nonneg(vals):
    return [v for v in vals if v >= 0]


def column(vals, dtype):
    return np.array(vals, dtype=NP_DTYPE[dtype])
