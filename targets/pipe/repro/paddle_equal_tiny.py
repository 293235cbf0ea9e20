"""paddle_equal_tiny.py - paddle.equal / paddle.not_equal call 0 and the smallest normal float equal.

Stand-alone reproduction of the eq/ne values family in targets/pipe/expectations/paddle.txt
(ops/eq/f32/values, ops/eq/f64/values, ops/ne/...): 0.0 == 2**-126 (float32's smallest normal, also
compared in float64) is True in Paddle 3.3.1, and not_equal False; NumPy and torch compare exactly
(False / True). Paddle's float comparison is not exact equality.

Run: .venv/targets/bin/python targets/pipe/repro/paddle_equal_tiny.py
Exit 0 and "reproduced" when Paddle's equal differs from NumPy's; exit 1 otherwise.
"""
import sys

from paddle_common import np, paddle, verdict


def main():
    print("paddle", paddle.__version__)
    differ = False
    for dt in (np.float32, np.float64):
        x, y = np.array([0.0, -0.0, 1.0], dt), np.array([2.0 ** -126, 2.0 ** -126, 1.0], dt)
        want = np.equal(x, y).tolist()
        got = paddle.equal(paddle.to_tensor(x), paddle.to_tensor(y)).numpy().tolist()
        ne = paddle.not_equal(paddle.to_tensor(x), paddle.to_tensor(y)).numpy().tolist()
        print("%s: [0, -0, 1] == [2**-126, 2**-126, 1]: NumPy %s; Paddle equal %s, not_equal %s"
              % (np.dtype(dt).name, want, got, ne))
        differ = differ or got != want
    return verdict(differ)


if __name__ == "__main__":
    sys.exit(main())
