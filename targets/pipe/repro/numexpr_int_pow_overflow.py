"""numexpr_int_pow_overflow.py - numexpr 2.14's integer ** gives INT_MIN on overflow; NumPy wraps.

Stand-alone reproduction (no bcast) of numexpr-2.14.txt F17 (values: saturated): numexpr computes an
integer power through a double and converts the result back, so any result outside int32 comes back as
INT_MIN (-2147483648), where NumPy's integer power wraps modulo 2^32 (3^30 -> -1010140999). numexpr 2.8.4
raised "TypeError: '<' not supported between instances of 'str' and 'int'" on integer ** (numexpr.txt).
Runs with both interpreters.

Run: .venv/targets/bin/python targets/pipe/repro/numexpr_int_pow_overflow.py
Exit 0 and "reproduced" when numexpr's values differ from NumPy's; exit 1 otherwise.
"""

import sys

import numexpr as ne
import numpy as np


def main():
    print("numexpr", ne.__version__, "numpy", np.__version__)
    x, y = np.array([3, 46341, 2], np.int32), np.array([30, 2, 40], np.int32)
    want = x ** y
    try:
        got = ne.evaluate("x ** y")
    except Exception as exc:  # noqa: BLE001 - what numexpr raises is the answer
        print("x = %s, y = %s, x ** y: NumPy %s; numexpr raised %s: %s" % (x.tolist(), y.tolist(), want.tolist(),
                                                                          type(exc).__name__, exc))
        print("not reproduced (this release raises instead)")
        return 1
    print("x = %s, y = %s, x ** y: NumPy %s; numexpr %s" % (x.tolist(), y.tolist(), want.tolist(), got.tolist()))
    differ = got.tolist() != want.tolist()
    print("reproduced" if differ else "not reproduced")
    return 0 if differ else 1


if __name__ == "__main__":
    sys.exit(main())
