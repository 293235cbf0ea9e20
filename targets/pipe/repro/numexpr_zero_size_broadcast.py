"""numexpr_zero_size_broadcast.py - numexpr does not broadcast a zero-size operand: the result takes its shape.

Stand-alone reproduction (no bcast) of the largest numexpr family (expectations numexpr.txt and
numexpr-2.14.txt, F1 and F3). As soon as one operand has no elements, ne.evaluate returns an empty
array shaped like that operand without checking the other shapes: (0,) + (2,) succeeds with shape (0,)
(NumPy: not broadcastable, B3), and (0,) + (1, 0) gives (0,) where NumPy gives (1, 0) (B2).
Runs with Debian's numexpr 2.8.4 (/usr/bin/python3) and the PyPI one (.venv/targets/bin/python).

Run: .venv/targets/bin/python targets/pipe/repro/numexpr_zero_size_broadcast.py
Exit 0 and "reproduced" when either shape is wrong; exit 1 otherwise.
"""

import sys

import numexpr as ne
import numpy as np


def main():
    print("numexpr", ne.__version__, "numpy", np.__version__)
    wrong = 0
    for xs, ys in (((0,), (2,)), ((0,), (1, 0))):
        x, y = np.zeros(xs, np.float32), np.zeros(ys, np.float32)
        try:
            want = "shape %s" % (np.add(x, y).shape,)
        except ValueError as exc:
            want = "ValueError: %s" % exc
        try:
            got = "shape %s" % (ne.evaluate("x + y").shape,)
        except ValueError as exc:
            got = "ValueError: %s" % exc
        print("%s + %s: NumPy %s; numexpr %s" % (xs, ys, want, got))
        wrong += got != want
    print("reproduced" if wrong else "not reproduced")
    return 0 if wrong else 1


if __name__ == "__main__":
    sys.exit(main())
