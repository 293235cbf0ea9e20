"""mlx_int_pow_negative.py - MLX's integer power with a negative exponent returns 0, also for a base of 1 or -1.

Stand-alone reproduction (no bcast) of the integer pow family in targets/pipe/expectations/mlx.txt
(ops/pow/i32/()x() and siblings): mx.power of int32 arrays [1, -1, 2, 1, -1] ** [-1, -1, -1, -2, -2]
gives [0, 0, 0, 0, 0]; the exact integer results of 1 ** -n and (-1) ** -n are 1 and +-1, which torch
2.15 returns ([1, -1, 0, 1, 1]); NumPy 2.4.6 raises ("Integers to negative integer powers are not
allowed").

Run: .venv/targets/bin/python targets/pipe/repro/mlx_int_pow_negative.py
Exit 0 and "reproduced" when MLX's 1 ** -1 is 0; exit 1 otherwise.
"""

import sys

import mlx.core as mx
import numpy as np

BASE, EXP = [1, -1, 2, 1, -1], [-1, -1, -1, -2, -2]


def main():
    got = mx.power(mx.array(BASE, dtype=mx.int32), mx.array(EXP, dtype=mx.int32)).tolist()
    print("mlx   %s ** %s = %s" % (BASE, EXP, got))
    print("exact: [1, -1, 0 (2**-1 truncated), 1, 1] (torch 2.15 gives these)")
    try:
        print("NumPy: %s" % np.power(np.array(BASE, np.int32), np.array(EXP, np.int32)).tolist())
    except ValueError as exc:
        print("NumPy: ValueError: %s" % exc)
    print("reproduced" if got[0] == 0 else "not reproduced")
    sys.exit(0 if got[0] == 0 else 1)


if __name__ == "__main__":
    main()
