"""paddle_floordiv_int_min.py - paddle.floor_divide / paddle.remainder of INT_MIN by -1 kills the process with SIGFPE.

Stand-alone reproduction of the crash family in targets/pipe/expectations/paddle.txt. Paddle 3.3.1's
integer floor division checks for a zero divisor (it raises "Integer division by zero") but not for
INT_MIN / -1, whose quotient does not fit: the x86 idiv traps and the whole Python process dies.
remainder's broadcasting path does not check for a zero divisor either: remainder(0-d 0, (1,) [0]) in
int64 dies of SIGFPE too (found by bcast-run explore), where remainder of equal shapes raises "Integer
division by zero" (torch 2.15 raises ZeroDivisionError, NumPy 2.4 warns and gives 0).
NumPy wraps (np.floor_divide(int32 min, -1) is int32 min, remainder 0); torch 1.13 and 2.15 return
the same values (the case ops/floor_divide/i32/min-by-minus-one expects [-2147483648, -7]).

Run: .venv/targets/bin/python targets/pipe/repro/paddle_floordiv_int_min.py
Exit 0 and "reproduced" when the child running Paddle dies of SIGFPE; exit 1 otherwise.
"""
import signal
import subprocess
import sys

import numpy as np

CHILD = """
import os, sys
sys.path.insert(0, %r)
import paddle_common
import paddle
if sys.argv[1] == 'remainder-by-zero-broadcast':
    x = paddle.to_tensor(0, dtype='int64')      # 0-d
    y = paddle.to_tensor([0], dtype='int64')    # (1,): the broadcast path
    try:
        print('paddle', paddle.__version__, paddle.remainder(x, y).numpy().tolist())
    except Exception as exc:
        print('raised', str(exc).splitlines()[0][:100])
    sys.exit(0)
op = getattr(paddle, sys.argv[1])
x = paddle.to_tensor([-2**31, 7], dtype='int32')
y = paddle.to_tensor([-1, -1], dtype='int32')
print('paddle', paddle.__version__, sys.argv[1], op(x, y).numpy().tolist())
"""


def main():
    with np.errstate(over="ignore"):
        x, y = np.array([-2**31, 7], np.int32), np.array([-1, -1], np.int32)
        print("NumPy: floor_divide", np.floor_divide(x, y).tolist(), "remainder", np.remainder(x, y).tolist())
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    crashed = True
    for op in ("floor_divide", "remainder", "remainder-by-zero-broadcast"):
        p = subprocess.run([sys.executable, "-c", CHILD % here, op], capture_output=True, text=True)
        fatal = [ln for ln in p.stderr.splitlines() if "FatalError" in ln or "SIGFPE" in ln]
        print("Paddle %s: exit status %d %s %s" % (op, p.returncode, p.stdout.strip(), " ".join(fatal)))
        crashed = crashed and p.returncode == -signal.SIGFPE
    print("reproduced" if crashed else "not reproduced")
    return 0 if crashed else 1


if __name__ == "__main__":
    sys.exit(main())
