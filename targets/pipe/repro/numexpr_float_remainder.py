"""numexpr_float_remainder.py - numexpr's float % and // differ from NumPy's at -0, inf and NaN.

Stand-alone reproduction (no bcast) of the values families of numexpr.txt (F11, F15) and
numexpr-2.14.txt (F10 signed-zero, F16 nan-invented, F15 nan-dropped): 1 % -1 gives +0 (NumPy -0: the
result takes the divisor's sign), 1 % inf gives NaN (NumPy 1), and, from numexpr 2.13 on, inf // 2
gives inf (NumPy NaN). Runs with both interpreters (// only where numexpr has it, >= 2.13).

Run: .venv/targets/bin/python targets/pipe/repro/numexpr_float_remainder.py
Exit 0 and "reproduced" when a result differs from NumPy's; exit 1 otherwise.
"""

import sys

import numexpr as ne
import numpy as np


def main():
    print("numexpr", ne.__version__, "numpy", np.__version__)
    x, y = np.array([1.0, 1.0, np.inf]), np.array([-1.0, np.inf, 2.0])
    exprs = ["x % y"] + (["x // y"] if tuple(int(p) for p in ne.__version__.split(".")[:2]) >= (2, 13) else [])
    differ = 0
    for expr in exprs:
        with np.errstate(all="ignore"):
            want = np.remainder(x, y) if "%" in expr else np.floor_divide(x, y)
        got = ne.evaluate(expr)
        print("x = %s, y = %s, %s: NumPy %s; numexpr %s" % (x.tolist(), y.tolist(), expr, want.tolist(), got.tolist()))
        same = all(a == b and np.signbit(a) == np.signbit(b) or (np.isnan(a) and np.isnan(b)) for a, b in zip(want, got))
        differ += not same
    print("reproduced" if differ else "not reproduced")
    return 0 if differ else 1


if __name__ == "__main__":
    sys.exit(main())
