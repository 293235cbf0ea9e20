"""numba_int_min_floordiv.py - numba's integer // gives 0 for INT64_MIN // -1; NumPy gives INT64_MIN (wrapped).

Stand-alone reproduction (no bcast) of numba-vectorize-0.68.txt F13 (values: wrapped, floor_divide i64):
a @vectorize ufunc (and @njit code) of `a // b` returns 0 for -2^63 // -1, where NumPy's floor_divide
wraps to -2^63 (both releases of NumPy). Runs with both interpreters.

Run: .venv/targets/bin/python targets/pipe/repro/numba_int_min_floordiv.py
Exit 0 and "reproduced" when numba's value differs from NumPy's; exit 1 otherwise.
"""

import sys
import warnings

import numba
import numpy as np
from numba import njit, vectorize


def main():
    warnings.simplefilter("ignore")
    print("numba", numba.__version__, "numpy", np.__version__)
    x, y = np.array([-2 ** 63], np.int64), np.array([-1], np.int64)
    with np.errstate(all="ignore"):
        want = np.floor_divide(x, y)
    vec = vectorize(lambda a, b: a // b)(x, y)
    jit = njit(lambda a, b: a // b)(x, y)
    print("int64 -2**63 // -1: NumPy %s; numba @vectorize %s, @njit %s" % (want.tolist(), vec.tolist(), jit.tolist()))
    differ = vec.tolist() != want.tolist() or jit.tolist() != want.tolist()
    print("reproduced" if differ else "not reproduced")
    return 0 if differ else 1


if __name__ == "__main__":
    sys.exit(main())
