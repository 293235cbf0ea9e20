"""numba_clip_bounds.py - numba's np.clip in @njit with array bounds: the result has a's shape, not the broadcast shape (B43).

Stand-alone reproduction (no bcast) of the njit clip families (numba-njit*.txt): np.clip(a, lo, hi)
with a (1,3) a and (2,1)/(2,3) bounds, where NumPy broadcasts all three to (2,3), and with 0-d arrays.
Runs with both interpreters (numba 0.56.4 on /usr/bin/python3, 0.68.1 on .venv/targets/bin/python).

Run: .venv/targets/bin/python targets/pipe/repro/numba_clip_bounds.py
Exit 0 and "reproduced" when numba's result differs from NumPy's; exit 1 otherwise.
"""

import sys
import warnings

import numba
import numpy as np
from numba import njit


@njit
def clip(a, lo, hi):
    return np.clip(a, lo, hi)


def attempt(fn, *args):
    """repr of fn's result, or the exception's type and first line."""
    try:
        return repr(fn(*args))
    except Exception as exc:  # noqa: BLE001 - printing what happens
        return "%s: %s" % (type(exc).__name__, (str(exc).strip().splitlines() or [""])[0][:160])


def main():
    warnings.simplefilter("ignore")
    print("numba", numba.__version__, "numpy", np.__version__)
    trials = [
        ("a (1,3), lo (2,1), hi (2,3) f64",
         (np.array([[0.5, 3.0, -2.0]]), np.array([[0.0], [1.0]]), np.full((2, 3), 2.0))),
        ("a (3,), lo (2,1), hi () i64",
         (np.array([1, 5, -3]), np.array([[0], [2]]), np.array(4))),
        ("0-d a, lo, hi u8", (np.array(1, np.uint8), np.array(5, np.uint8), np.array(4, np.uint8))),
        ("0-d a, lo, hi f64", (np.array(0.75), np.array(-0.75), np.array(3.5))),
    ]
    differs = 0
    for what, args in trials:
        want, got = attempt(np.clip, *args), attempt(clip, *args)
        print("%s:\n  NumPy:        %s\n  numba @njit:  %s" % (what, want, got))
        differs += want != got
    print("reproduced" if differs else "not reproduced")
    return 0 if differs else 1


if __name__ == "__main__":
    sys.exit(main())
