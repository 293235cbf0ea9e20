"""numba_njit_ops.py - the @njit functions of numba_bridge.py's njit mode, written out as a numba user writes them.

They live in a real source file, not exec'd strings, because numba's on-disk
cache (cache=True) needs a source file to key and stamp its entries: with
NUMBA_CACHE_DIR set (the registry points it into $(BUILD)), each
specialisation (dtypes x rank x layout) is compiled once per cache slot
(numba_bridge.claim_cache_slot) instead of once per bridge process, which is
what makes a full run fit the gate.
The bodies must stay the same expressions as numba_bridge.SCALAR/AUGMENTED
(numba_bridge checks that at start).
"""

import numpy as np
from numba import njit


# Value ops: op -> function of (a, b).
@njit(cache=True)
def add(a, b):
    return a + b


@njit(cache=True)
def sub(a, b):
    return a - b


@njit(cache=True)
def mul(a, b):
    return a * b


@njit(cache=True)
def div(a, b):
    return a / b


@njit(cache=True)
def floor_divide(a, b):
    return a // b


@njit(cache=True)
def remainder(a, b):
    return a % b


@njit(cache=True)
def pow(a, b):
    return a ** b


@njit(cache=True)
def maximum(a, b):
    return np.maximum(a, b)


@njit(cache=True)
def minimum(a, b):
    return np.minimum(a, b)


@njit(cache=True)
def eq(a, b):
    return a == b


@njit(cache=True)
def ne(a, b):
    return a != b


@njit(cache=True)
def lt(a, b):
    return a < b


@njit(cache=True)
def le(a, b):
    return a <= b


@njit(cache=True)
def gt(a, b):
    return a > b


@njit(cache=True)
def ge(a, b):
    return a >= b


@njit(cache=True)
def logical_and(a, b):
    return np.logical_and(a, b)


@njit(cache=True)
def logical_or(a, b):
    return np.logical_or(a, b)


@njit(cache=True)
def logical_xor(a, b):
    return np.logical_xor(a, b)


@njit(cache=True)
def bitwise_and(a, b):
    return a & b


@njit(cache=True)
def bitwise_or(a, b):
    return a | b


@njit(cache=True)
def bitwise_xor(a, b):
    return a ^ b


# Issue #25's ufuncs (numba_bridge.SCALAR says which numba supports).
@njit(cache=True)
def copysign(a, b):
    return np.copysign(a, b)


@njit(cache=True)
def atan2(a, b):
    return np.arctan2(a, b)


@njit(cache=True)
def hypot(a, b):
    return np.hypot(a, b)


@njit(cache=True)
def fmod(a, b):
    return np.fmod(a, b)


@njit(cache=True)
def logaddexp(a, b):
    return np.logaddexp(a, b)


@njit(cache=True)
def logaddexp2(a, b):
    return np.logaddexp2(a, b)


@njit(cache=True)
def nextafter(a, b):
    return np.nextafter(a, b)


@njit(cache=True)
def ldexp(a, b):
    return np.ldexp(a, b)


@njit(cache=True)
def gcd(a, b):
    return np.gcd(a, b)


@njit(cache=True)
def lcm(a, b):
    return np.lcm(a, b)


@njit(cache=True)
def left_shift(a, b):
    return np.left_shift(a, b)


@njit(cache=True)
def right_shift(a, b):
    return np.right_shift(a, b)


@njit(cache=True)
def float_power(a, b):
    return np.float_power(a, b)


@njit(cache=True)
def fmax(a, b):
    return np.fmax(a, b)


@njit(cache=True)
def fmin(a, b):
    return np.fmin(a, b)


@njit(cache=True)
def clip(a, lo, hi):
    return np.clip(a, lo, hi)


@njit(cache=True)
def where(c, a, b):
    return np.where(c, a, b)


@njit(cache=True)
def broadcast_to(a, s):
    return np.broadcast_to(a, s)


@njit(cache=True)
def broadcast_shapes(*s):
    return np.broadcast_shapes(*s)


# In-place ops: i<op>(a, b) is `a <op>= b`, a augmented in place.
@njit(cache=True)
def iadd(a, b):
    a += b


@njit(cache=True)
def isub(a, b):
    a -= b


@njit(cache=True)
def imul(a, b):
    a *= b


@njit(cache=True)
def idiv(a, b):
    a /= b


@njit(cache=True)
def ifloor_divide(a, b):
    a //= b


@njit(cache=True)
def iremainder(a, b):
    a %= b


@njit(cache=True)
def ipow(a, b):
    a **= b


@njit(cache=True)
def ibitwise_and(a, b):
    a &= b


@njit(cache=True)
def ibitwise_or(a, b):
    a |= b


@njit(cache=True)
def ibitwise_xor(a, b):
    a ^= b
