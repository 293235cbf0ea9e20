"""numexpr_int_remainder_large.py - numexpr's integer % is wrong for divisors near the type's limits.

Stand-alone reproduction (no bcast) of numexpr-2.14.txt F12 (values: other, remainder i32/i64): 1 % 2147483647
in int32 gives -1 with numexpr 2.14.2 (NumPy 1): its fix-up of C's sign rule overflows near INT_MAX. The
2022 release (2.8.4) used C's rule outright (2 % -2147483648 gives 2, NumPy -2147483646) and got more of
the values tables wrong (numexpr.txt F8, 27 cases; 23 of them are right in 2.14.2).
Runs with both interpreters.

Run: .venv/targets/bin/python targets/pipe/repro/numexpr_int_remainder_large.py
Exit 0 and "reproduced" when a value differs from NumPy's; exit 1 otherwise.
"""

import sys

import numexpr as ne
import numpy as np


def main():
    print("numexpr", ne.__version__, "numpy", np.__version__)
    x = np.array([1, 2, -1, 2147483646], np.int32)
    y = np.array([2147483647, -2147483648, 2147483647, -2147483647], np.int32)
    want, got = np.remainder(x, y), ne.evaluate("x % y")
    print("x = %s, y = %s, x %% y: NumPy %s; numexpr %s" % (x.tolist(), y.tolist(), want.tolist(), got.tolist()))
    differ = want.tolist() != got.tolist()
    print("reproduced" if differ else "not reproduced")
    return 0 if differ else 1


if __name__ == "__main__":
    sys.exit(main())
