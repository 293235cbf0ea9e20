"""numba_inplace_no_shape_check.py - numba's in-place ops do not check that y broadcasts to self's shape (B8).

Stand-alone reproduction (no bcast) of the in-place shape families: with @vectorize, ufunc(self, y, out=self)
for a 0-d self and a (1,) y succeeds (numba-vectorize*.txt, "self with fewer dims"), where NumPy raises
"non-broadcastable output operand"; with @njit, `a += b` for a (1,) self and a (2,) y succeeds
(numba-njit*.txt), where NumPy raises the same error. Runs with both interpreters.

Run: .venv/targets/bin/python targets/pipe/repro/numba_inplace_no_shape_check.py
Exit 0 and "reproduced" when numba accepts a shape NumPy refuses; exit 1 otherwise.
"""

import sys
import warnings

import numba
import numpy as np
from numba import njit, vectorize


def numpy_says(fn):
    try:
        fn()
        return "succeeds"
    except ValueError as exc:
        return "ValueError: %s" % exc


def main():
    warnings.simplefilter("ignore")
    print("numba", numba.__version__, "numpy", np.__version__)
    accepted = 0
    s, y = np.zeros((), np.float64), np.ones((1,), np.float64)
    add = vectorize(lambda a, b: a + b)
    want = numpy_says(lambda: np.add(s, y, out=s))
    got = numpy_says(lambda: add(s, y, out=s))
    print("self () += y (1,) as out=: NumPy %s; numba @vectorize %s" % (want, got))
    accepted += got == "succeeds" and want != "succeeds"

    def iadd(a, b):
        a += b
    s2, y2 = np.zeros((1,), np.float64), np.ones((2,), np.float64)
    want = numpy_says(lambda: np.add(s2.copy(), y2, out=s2.copy()))
    got = numpy_says(lambda: njit(iadd)(s2, y2))
    print("self (1,) += y (2,): NumPy %s; numba @njit `a += b` %s (self now %s)" % (want, got, s2.tolist()))
    accepted += got == "succeeds" and want != "succeeds"
    print("reproduced" if accepted else "not reproduced")
    return 0 if accepted else 1


if __name__ == "__main__":
    sys.exit(main())
