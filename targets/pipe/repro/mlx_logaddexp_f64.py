"""mlx_logaddexp_f64.py - mlx.core.logaddexp of float64 arrays is accurate to float32 only.

Stand-alone reproduction of the mathops/logaddexp/f64 family in targets/pipe/expectations/mlx.txt:
mx.logaddexp(1.0, 3.0) in float64 is 3.126928009505688 where NumPy (and torch) give
3.1269280110429727 (3,461,657 ulp apart: about float32's precision); the result's dtype is float64.
Measured 2026-11-26 (MLX 0.32.4, CPU); the ties (x == y) come out exact.
Run: .venv/targets/bin/python targets/pipe/repro/mlx_logaddexp_f64.py
Exit 0 and "reproduced" when MLX's float64 logaddexp differs from NumPy's by more than 4 ulp.
"""
import sys

import mlx.core as mx
import numpy as np

x, y = np.array([1.0, -2.0, 0.5]), np.array([3.0, 0.25, 0.5])
got = np.array(mx.logaddexp(mx.array(x, dtype=mx.float64), mx.array(y, dtype=mx.float64)), dtype=np.float64)
want = np.logaddexp(x, y)
print("mlx", mx.__version__, "logaddexp(%s, %s) float64:" % (x.tolist(), y.tolist()))
print("  MLX  ", got.tolist())
print("  NumPy", want.tolist())
ulp = np.abs(got.view(np.int64) - want.view(np.int64))
print("  ulp apart:", ulp.tolist())
print("reproduced" if ulp.max() > 4 else "not reproduced")
sys.exit(0 if ulp.max() > 4 else 1)
