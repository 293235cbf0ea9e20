"""numba_inplace_cast_internal_error.py - @njit `a += b` that needs an unsafe cast (bool self, float32 y)
fails inside numba's typing with an internal AttributeError instead of a TypingError.

Stand-alone reproduction of the numba-njit-0.68 family "in-place unsafe cast: AttributeError"
(targets/pipe/expectations/numba-njit-0.68.txt). numba 0.68.1 raises
"AttributeError: 'NoneType' object has no attribute 'args'" from numba/core/typing/npydecl.py
(`assert len(sig.args) == 3` on a signature its ufunc typing did not find); numba 0.56.4 raised a
TypingError ("No implementation of function ...") for the same call. NumPy raises
"Cannot cast ufunc 'add' output from dtype('float32') to dtype('bool') with casting rule 'same_kind'"
(UFuncTypeError). bcast's run of numba 0.68.1 got the same AttributeError for a read-only self (the
bridge passes an overlapping, stride-0 self read-only, as np.broadcast_to gives it).

Run: .venv/targets/bin/python targets/pipe/repro/numba_inplace_cast_internal_error.py
     (or /usr/bin/python3 for numba 0.56.4)
Exit 0 and "reproduced" when numba raises AttributeError; exit 1 otherwise.
"""
import sys

import numba
import numpy as np


@numba.njit
def iadd(a, b):
    a += b


def main():
    a, b = np.zeros((2, 3), np.bool_), np.ones(3, np.float32)
    try:
        np.add(a.copy(), b, out=a.copy())
        print("NumPy %s: no error" % np.__version__)
    except TypeError as exc:
        print("NumPy %s: %s: %s" % (np.__version__, type(exc).__name__, exc))
    try:
        iadd(a, b)
        print("numba %s: no error, self = %s" % (numba.__version__, a.tolist()))
        got = None
    except Exception as exc:  # noqa: BLE001 - what numba raises is the point
        got = type(exc).__name__
        print("numba %s: %s: %s" % (numba.__version__, got, str(exc).splitlines()[0][:160]))
    print("reproduced" if got == "AttributeError" else "not reproduced")
    return 0 if got == "AttributeError" else 1


if __name__ == "__main__":
    sys.exit(main())
