"""numexpr_maximum_float.py - numexpr's maximum and minimum (new in 2.13) return float64 for any operands.

Stand-alone reproduction (no bcast) of the maximum/minimum part of numexpr-2.14.txt F2 (a float instead
of an integer or bool: 754 cases; a wider float: 130): maximum(x, y) of two int16 (or bool, or f32)
arrays is float64, where NumPy keeps the operands' type. numexpr 2.8.4 has no maximum, so this runs
only with the PyPI release.

Run: .venv/targets/bin/python targets/pipe/repro/numexpr_maximum_float.py
Exit 0 and "reproduced" when numexpr's dtype differs from NumPy's; exit 1 otherwise (or without maximum).
"""

import sys

import numexpr as ne
import numpy as np


def main():
    print("numexpr", ne.__version__, "numpy", np.__version__)
    if tuple(int(p) for p in ne.__version__.split(".")[:2]) < (2, 13):
        print("numexpr %s has no maximum/minimum (added in 2.13.0): nothing to reproduce" % ne.__version__)
        return 1
    differ = 0
    for dt in (np.int16, np.bool_, np.float32):
        x, y = np.array([1, 0, 1], dt), np.array([0, 0, 1], dt)
        for fn in ("maximum", "minimum"):
            want, got = getattr(np, fn)(x, y), ne.evaluate("%s(x, y)" % fn)
            print("%s of two %s: NumPy %s %s; numexpr %s %s" % (fn, np.dtype(dt).name, want.dtype, want.tolist(),
                                                                  got.dtype, got.tolist()))
            differ += want.dtype != got.dtype
    print("reproduced" if differ else "not reproduced")
    return 0 if differ else 1


if __name__ == "__main__":
    sys.exit(main())
