"""numpy2_ipow_writes_before_error.py - NumPy's in-place integer power writes into self, then raises.

Stand-alone reproduction (no bcast) of an explore finding of numpy2-bridge and
array-api-strict (`x **= y` is np.ndarray.__ipow__). A negative integer
exponent raises "Integers to negative integer powers are not allowed", but
self has already been changed: bcast's B22 (a failed in-place op leaves self
untouched) is broken.

Run: .venv/oracles/bin/python targets/pipe/repro/numpy2_ipow_writes_before_error.py
Exit 0 and "reproduced" when self changed; exit 1 otherwise.
"""

import sys

import numpy as np


def main():
    x = np.array(0, dtype=np.int8)
    y = np.array(-2, dtype=np.int64)
    print("numpy", np.__version__, "; before: self =", int(x))
    try:
        np.power(x, y, out=x)
        print("no error")
    except ValueError as e:
        print("ValueError:", e)
    print("after: self =", int(x))
    if int(x) != 0:
        print("reproduced: the failed call changed self")
        return 0
    print("not reproduced")
    return 1


if __name__ == "__main__":
    sys.exit(main())
