"""mlx_int_min_div_sigfpe.py - MLX's floor_divide and remainder of INT_MIN by -1 kill the process with SIGFPE.

Stand-alone reproduction (no bcast) of the crash family in targets/pipe/expectations/mlx.txt
(ops/floor_divide/i32/min-by-minus-one and its i64 and remainder siblings): on MLX's CPU build,
mx.floor_divide(int32 min, -1) and mx.remainder(int32 min, -1), and the int64 ones, are evaluated
with the machine's integer division, which traps; the interpreter dies with SIGFPE instead of
raising. NumPy 2.4.6 returns INT_MIN (floor_divide, with an overflow warning) and 0 (remainder).

Run: .venv/targets/bin/python targets/pipe/repro/mlx_int_min_div_sigfpe.py
Each call runs in a child interpreter (it kills the process). Exit 0 and "reproduced" when
every child died by SIGFPE; exit 1 otherwise.
"""

import signal
import subprocess
import sys

import numpy as np

CHILD = """
import mlx.core as mx
x = mx.array([{lo}], dtype=mx.{dt}); y = mx.array([-1], dtype=mx.{dt})
r = mx.{fn}(x, y); mx.eval(r); print(r.tolist())
"""


def main():
    dead = 0
    for dt, lo in (("int32", -2**31), ("int64", -2**63)):
        for fn in ("floor_divide", "remainder"):
            p = subprocess.run([sys.executable, "-c", CHILD.format(lo=lo, dt=dt, fn=fn)],
                               capture_output=True, text=True)
            with np.errstate(all="ignore"):
                ref = getattr(np, fn)(np.array([lo], dtype=dt), np.array([-1], dtype=dt)).tolist()
            sig = -p.returncode if p.returncode < 0 else 0
            what = "killed by %s" % signal.Signals(sig).name if sig else "returned %s" % p.stdout.strip()
            print("mlx %s(%s %d, -1): %s; NumPy: %s" % (fn, dt, lo, what, ref))
            dead += sig == signal.SIGFPE
    print("reproduced" if dead == 4 else "not reproduced")
    sys.exit(0 if dead == 4 else 1)


if __name__ == "__main__":
    main()
