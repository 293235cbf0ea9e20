"""numba_int_fmod.py - numba's np.fmod on signed integers gives other values than NumPy's (C's truncated remainder).

Stand-alone reproduction (no bcast) of the fmod families (numba-*.txt, mathops suite): np.fmod(x, y) of
int64 / int32 values inside @njit and in a @vectorize ufunc, against NumPy's np.fmod, whose result has the
sign of x (fmod(-3, -9) is -3). Runs with both interpreters (numba 0.56.4 on /usr/bin/python3, 0.68.1 on
.venv/targets/bin/python).

Run: .venv/targets/bin/python targets/pipe/repro/numba_int_fmod.py
Exit 0 and "reproduced" when numba's values differ from NumPy's; exit 1 otherwise.
"""

import sys
import warnings

import numba
import numpy as np
from numba import njit, vectorize


@njit
def fmod_njit(a, b):
    return np.fmod(a, b)


def main():
    warnings.simplefilter("ignore")
    print("numba", numba.__version__, "numpy", np.__version__)
    fmod_vec = vectorize(lambda a, b: np.fmod(a, b))
    x = np.array([-3, 7, -7, 5, -8], np.int64)
    y = np.array([-9, -3, 3, 5, 3], np.int64)
    differs = 0
    for dt in (np.int64, np.int32):
        a, b = x.astype(dt), y.astype(dt)
        want = np.fmod(a, b)
        for how, fn in (("@njit", fmod_njit), ("@vectorize", fmod_vec)):
            got = fn(a, b)
            print("np.fmod(%s, %s) %s: NumPy %s; numba %s %s" % (a.tolist(), b.tolist(), np.dtype(dt).name,
                                                               want.tolist(), how, np.asarray(got).tolist()))
            differs += not np.array_equal(want, got)
    print("reproduced" if differs else "not reproduced")
    return 0 if differs else 1


if __name__ == "__main__":
    sys.exit(main())
