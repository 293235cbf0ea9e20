"""paddle_matmul_zero_batch.py - paddle.matmul treats a 0 batch extent like a 1: it broadcasts 0 against 2,
and a 1 against 0 gives 1.

Stand-alone reproduction of the zero-size matmul families in targets/pipe/expectations/paddle.txt.
(0,2,0) @ (2,0,4): batch 0 against 2 does not broadcast (NumPy raises, torch raises "The size of tensor a
(0) must match the size of tensor b (2)"); Paddle 3.3.1 returns shape (0,2,4). (0,2,0) @ (2,1,0,4):
NumPy and torch give (2,0,2,4); Paddle returns (2,1,2,4), a non-empty result of zeros.

Run: .venv/targets/bin/python targets/pipe/repro/paddle_matmul_zero_batch.py
Exit 0 and "reproduced" when both differ from NumPy; exit 1 otherwise.
"""
import sys

from paddle_common import np, paddle, verdict


def numpy_shape(a, b):
    try:
        return np.matmul(np.zeros(a, np.float32), np.zeros(b, np.float32)).shape
    except ValueError as exc:
        return "ValueError: %s" % exc


def main():
    print("paddle", paddle.__version__)
    differ = 0
    for a, b in (((0, 2, 0), (2, 0, 4)), ((0, 2, 0), (2, 1, 0, 4))):
        want = numpy_shape(a, b)
        try:
            got = tuple(paddle.matmul(paddle.zeros(a), paddle.zeros(b)).shape)
        except Exception as exc:  # noqa: BLE001
            got = "%s: %s" % (type(exc).__name__, str(exc).splitlines()[0])
        print("%s @ %s: NumPy %s; Paddle %s" % (a, b, want, got))
        differ += got != want
    return verdict(differ == 2)


if __name__ == "__main__":
    sys.exit(main())
