"""numexpr_int_min_div.py - INT_MIN % -1 (and, from 2.13, INT_MIN // -1) kills the process with SIGFPE.

Stand-alone reproduction (no bcast) of numexpr's torch-crash family (numexpr.txt F13, numexpr-2.14.txt
F11): the integer kernels use C's % and / directly, and INT_MIN / -1 traps on x86. NumPy returns 0 for
the remainder and INT_MIN (wrapped) for the floor division. Each expression runs in a child process so
that the crash can be observed. Runs with both interpreters (// only where numexpr has it, >= 2.13).

Run: .venv/targets/bin/python targets/pipe/repro/numexpr_int_min_div.py
Exit 0 and "reproduced" when a child dies of SIGFPE; exit 1 otherwise.
"""

import signal
import subprocess
import sys

import numexpr as ne
import numpy as np

CHILD = ("import numexpr as ne, numpy as np; x = np.array([-2**31], np.int32); y = np.array([-1], np.int32); "
         "print(ne.evaluate(%r))")


def main():
    print("numexpr", ne.__version__, "numpy", np.__version__)
    x, y = np.array([-2 ** 31], np.int32), np.array([-1], np.int32)
    crashed = 0
    exprs = ["x % y"] + (["x // y"] if tuple(int(p) for p in ne.__version__.split(".")[:2]) >= (2, 13) else [])
    for expr in exprs:
        with np.errstate(all="ignore"):
            want = np.remainder(x, y) if "%" in expr else np.floor_divide(x, y)
        r = subprocess.run([sys.executable, "-c", CHILD % expr], capture_output=True, text=True)
        got = "killed by SIGFPE" if r.returncode == -signal.SIGFPE else "exit %d: %s" % (r.returncode, r.stdout.strip())
        print("int32 %s with x = INT_MIN, y = -1: NumPy %s; numexpr %s" % (expr, want, got))
        crashed += r.returncode == -signal.SIGFPE
    print("reproduced" if crashed else "not reproduced")
    return 0 if crashed else 1


if __name__ == "__main__":
    sys.exit(main())
