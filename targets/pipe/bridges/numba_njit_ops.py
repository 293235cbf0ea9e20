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
