"""paddle_mathops_values.py - paddle.fmax/fmin of integers, paddle.hypot and paddle.logaddexp at edge values.

Stand-alone reproduction of three mathops families in targets/pipe/expectations/paddle.txt
(mathops/fmax/i32/values, mathops/hypot/f64/values, mathops/logaddexp/f64/values, ...):
- fmax/fmin of int32/int64 go through floating point: fmax(2147483647, 0) is -2147483648 and
  fmax(2**62 + 1, 0) is 2**62 (NumPy and torch return the integer);
- hypot is sqrt(x*x + y*y): hypot(DBL_MAX, 1) is inf, hypot(1e-310, 1e-310) is 0, hypot(inf, nan) is nan
  (C99 hypot, NumPy and torch: DBL_MAX, 1.41e-310, inf);
- logaddexp(-inf, -inf) and logaddexp(inf, inf) are nan (NumPy and torch: -inf, inf).

Run: .venv/targets/bin/python targets/pipe/repro/paddle_mathops_values.py
Exit 0 and "reproduced" when Paddle differs from NumPy in all three; exit 1 otherwise.
"""
import sys

from paddle_common import np, paddle, verdict


def compare(name, pfn, nfn, x, y):
    got = pfn(paddle.to_tensor(x), paddle.to_tensor(y)).numpy()
    want = nfn(x, y)
    print("%s(%s, %s): Paddle %s; NumPy %s" % (name, x.tolist(), y.tolist(), got.tolist(), want.tolist()))
    return not np.array_equal(got, want, equal_nan=True)


def main():
    print("paddle", paddle.__version__)
    inf, nan = float("inf"), float("nan")
    a = compare("fmax", paddle.fmax, np.fmax, np.array([2147483647, -5], np.int32), np.array([0, -7], np.int32))
    a = compare("fmax", paddle.fmax, np.fmax, np.array([2 ** 62 + 1], np.int64), np.array([0], np.int64)) or a
    b = compare("hypot", paddle.hypot, np.hypot, np.array([1.7976931348623157e308, 1e-310, inf]),
                np.array([1.0, 1e-310, nan]))
    c = compare("logaddexp", paddle.logaddexp, np.logaddexp, np.array([-inf, inf, 1.0]), np.array([-inf, inf, 2.0]))
    return verdict(a and b and c)


if __name__ == "__main__":
    sys.exit(main())
