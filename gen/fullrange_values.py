"""fullrange_values.py - the full-range value sets of the fullrange suite (issue #25 item 1).

Each integer dtype's set holds its minimum and maximum and their neighbours;
i32 and i64 add values that straddle +-2^31 (and, for i64, +-2^32) and pairs
that differ only in their high or only in their low half, placed next to each
other so that a same-shape case compares them in both orders. The float set
holds +-0, subnormals, the largest finite values, +-inf and NaNs with
payloads (a signalling NaN among them), written as `nan(0xP)` tokens
(docs/case-format.md). gen/check_fullrange.py checks the cases for these
values (REQUIRED).
"""

import numpy as np

from caseio import NP_DTYPE

FLOATS = ("f32", "f64")


def _halves(half):
    """Pairs of values that differ only in the high half, then only in the low
    half (its top bit set, so a low-half signed compare flips), of a
    2*half-bit word."""
    lo_top = 1 << (half - 1)
    return [(3 << half) | 7, (5 << half) | 7,            # high half differs
            (3 << half) | 7, (3 << half) | lo_top | 7,   # low half differs
            -((3 << half) | 7), -((3 << half) | lo_top | 7)]


def ints(dtype):
    """The integer set, in the order it is laid out (adjacent pairs matter)."""
    info = np.iinfo(NP_DTYPE[dtype])
    lo, hi = int(info.min), int(info.max)
    if dtype == "u8":
        return [0, hi, 1, hi - 1, 127, 128, 2, 0x80 | 7, 0x10 | 7]
    vals = [lo, hi]
    if dtype == "i64":   # the negative required values first: a short operand holds them
        vals += [-(1 << 31) - 1, -(1 << 32)]
    vals += [lo + 1, hi - 1, -1, 0, 1, -2, 2]
    if dtype == "i32":
        vals += _halves(16)
    if dtype == "i64":
        vals += [(1 << 31) - 1, 1 << 31, -(1 << 31), -(1 << 32) - 1,
                 (1 << 32) - 1, 1 << 32, (1 << 32) + 1]
        vals += _halves(32)
    return vals


def floats(dtype):
    """The float set as a numpy array of dtype (NaN payloads set bit by bit)."""
    fi = np.finfo(NP_DTYPE[dtype])
    sub = float(fi.smallest_subnormal)
    vals = np.array([0.0, -0.0, sub, -sub, float(fi.tiny) - sub, float(fi.max), -float(fi.max),
                     float("inf"), float("-inf"), float("nan"), 1.0, -1.0, float(fi.tiny),
                     float(np.nextafter(fi.max, 0, dtype=NP_DTYPE[dtype])), 0.0, 0.0],
                    dtype=NP_DTYPE[dtype])
    width = "u4" if dtype == "f32" else "u8"
    bits = vals.view(width)
    mbits = 23 if dtype == "f32" else 52
    exp = ((1 << (31 if dtype == "f32" else 63)) - 1) ^ ((1 << mbits) - 1)
    sign = 1 << (31 if dtype == "f32" else 63)
    bits[14] = exp | 1                                   # signalling NaN, payload 1
    bits[15] = sign | exp | (1 << (mbits - 1)) | 0x5a5   # -NaN, quiet, payload 0x5a5
    return vals


def values(dtype):
    """The set as a numpy array of dtype."""
    if dtype in FLOATS:
        return floats(dtype)
    return np.array(ints(dtype), dtype=NP_DTYPE[dtype])


def scalars(dtype):
    """The values a 0-d operand takes, one case each: the extremes, a sign and
    (i32, i64) a value past the low half."""
    if dtype in FLOATS:
        v = floats(dtype)
        return [v[i:i + 1] for i in (1, 7, 15, 2, 5)]   # -0, inf, -NaN payload, subnormal, max
    info = np.iinfo(NP_DTYPE[dtype])
    vals = [int(info.min), int(info.max), 128 if dtype == "u8" else -1]
    if dtype == "i32":
        vals.append(-(1 << 16) - 1)
    if dtype == "i64":
        vals += [1 << 32, -(1 << 31) - 1, -(1 << 32)]
    return [np.array([v], dtype=NP_DTYPE[dtype]) for v in vals]


def required(dtype):
    """Values every full-range case of dtype must hold among its args' elements
    (gen/check_fullrange.py); floats as their bit patterns' kinds."""
    if dtype in FLOATS:
        return ("+0", "-0", "subnormal", "max", "-max", "inf", "-inf", "nan-payload")
    info = np.iinfo(NP_DTYPE[dtype])
    req = [int(info.min), int(info.max)]
    if dtype == "i32":
        req += _halves(16)[:4]
    if dtype == "i64":
        req += [(1 << 31) - 1, 1 << 31, -(1 << 31) - 1, (1 << 32) - 1, 1 << 32, -(1 << 32)] + _halves(32)[:4]
    return tuple(req)
