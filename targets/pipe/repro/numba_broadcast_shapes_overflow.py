"""numba_broadcast_shapes_overflow.py - numba's np.broadcast_shapes returns a shape of more than 2^63 elements.

Stand-alone reproduction (no bcast) of the broadcast_shapes overflow family in
targets/pipe/expectations/numba-njit.txt: inside @njit, np.broadcast_shapes((2**31, 1), (1, 2**32))
returns (2147483648, 4294967296), 2^63 elements, without an element-count check; NumPy 1.24 raises
ValueError ("broadcast dimensions too large.").

Run: /usr/bin/python3 targets/pipe/repro/numba_broadcast_shapes_overflow.py
Exit 0 and "reproduced" when numba returns the shape and NumPy raises; exit 1 otherwise.
"""

import sys

import numba
import numpy as np


@numba.njit
def shapes(a, b):
    """np.broadcast_shapes as a numba user writes it."""
    return np.broadcast_shapes(a, b)


def main():
    a, b = (2**31, 1), (1, 2**32)
    got = shapes(a, b)
    try:
        np.broadcast_shapes(a, b)
        ref = "no error"
    except ValueError as exc:
        ref = "ValueError: %s" % exc
    print("numba %s: %s; NumPy %s: %s" % (numba.__version__, got, np.__version__, ref))
    ok = tuple(got) == (2**31, 2**32) and ref.startswith("ValueError")
    print("reproduced" if ok else "not reproduced")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
