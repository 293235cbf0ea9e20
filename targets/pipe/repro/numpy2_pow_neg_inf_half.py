"""numpy2_pow_neg_inf_half.py - NumPy 2.4.6's power ufunc gives nan for (-inf) ** 0.5.

Stand-alone reproduction (no bcast) of an explore finding of numpy2-bridge and
array-api-strict (xp.pow calls np.power). C99/IEEE 754 pow(-inf, y) for y > 0
not an odd integer is +inf (Python's math.pow agrees), and so does NumPy 1.24
and NumPy 2.4.6's own scalar np.float64(-inf) ** 0.5; the np.power ufunc of
NumPy 2.4.6 gives nan for exponent 0.5, in float32 and float64, while
(-inf) ** 1.5 and ** 2.5 are +inf (it looks like a sqrt fast path for 0.5:
sqrt(-inf) is nan).

Run: .venv/oracles/bin/python targets/pipe/repro/numpy2_pow_neg_inf_half.py
  (or .venv/targets/bin/python: it imports array_api_strict too when present)
Exit 0 and "reproduced" when some element is nan; exit 1 otherwise.
"""

import math
import sys

import warnings

import numpy as np


def main():
    warnings.simplefilter("ignore")   # NumPy's "invalid value" RuntimeWarning is not the point
    print("numpy", np.__version__, "; C pow(-inf, 0.5) =", math.pow(-math.inf, 0.5))
    x = np.zeros(16, dtype=np.float32)
    x[9] = -np.inf
    r = np.power(x, np.float32(0.5))
    print("np.power(float32[16] with -inf at 9, 0.5)[9] =", r[9], "; np.float64(-inf) ** 0.5 =", np.float64(-np.inf) ** 0.5)
    print("np.power(float32[1] [-inf], 0.5) =", np.power(np.array([-np.inf], np.float32), np.float32(0.5))[0])
    print("np.power(float64[16] ..., 0.5)[9] =", np.power(x.astype(np.float64), 0.5)[9])
    try:
        import array_api_strict as xp
        print("array_api_strict", xp.__version__, "xp.pow:", np.from_dlpack(xp.pow(xp.asarray(x), xp.asarray(np.float32(0.5))))[9])
    except ImportError:
        pass
    if math.isnan(r[9]):
        print("reproduced: nan where IEEE pow gives +inf")
        return 0
    print("not reproduced")
    return 1


if __name__ == "__main__":
    sys.exit(main())
