"""mlx_size_overflow_segv.py - MLX builds arrays whose size overflows or cannot be allocated, then segfaults evaluating them.

Stand-alone reproduction (no bcast) of sizes/overflow/count/where/i16/(2097152,1,1)x(1,2097152,1)x(1,1,2097152)
in targets/pipe/expectations/mlx.txt. mx.where on operands of shapes (2^21,1,1), (1,2^21,1), (1,1,2^21)
returns an array of shape (2^21,2^21,2^21): size 2^63, nbytes 0 (the byte count wrapped); no error
is raised (NumPy 2.4.6 and torch raise on the element count: B16); mx.eval of it kills the process
with SIGSEGV. An array that is merely too big to allocate (int16 (1,2^21,2^21), 8 TiB) segfaults on
mx.eval too, where NumPy raises MemoryError.

Run: .venv/targets/bin/python targets/pipe/repro/mlx_size_overflow_segv.py
Each evaluation runs in a child interpreter. Exit 0 and "reproduced" when both children died by
SIGSEGV; exit 1 otherwise.
"""

import signal
import subprocess
import sys

WHERE = """
import mlx.core as mx
n = 2**21
r = mx.where(mx.zeros((n, 1, 1), dtype=mx.bool_), mx.zeros((1, n, 1), dtype=mx.int16), mx.zeros((1, 1, n), dtype=mx.int16))
print("shape", r.shape, "size", r.size, "nbytes", r.nbytes, flush=True)
mx.eval(r); print("evaluated")
"""
BIG = """
import mlx.core as mx
r = mx.zeros((1, 1, 2**21), dtype=mx.int16) * mx.zeros((1, 2**21, 1), dtype=mx.int16)
print("shape", r.shape, "nbytes", r.nbytes, flush=True)
mx.eval(r); print("evaluated")
"""


def main():
    dead = 0
    for name, code in (("where, 2^63 elements", WHERE), ("multiply, 8 TiB", BIG)):
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        sig = -p.returncode if p.returncode < 0 else 0
        print("%s: %s; then %s" % (name, p.stdout.strip().replace("\n", "; "),
                                   "killed by %s" % signal.Signals(sig).name if sig else "exit %d" % p.returncode))
        dead += sig == signal.SIGSEGV
    try:
        import numpy as np
        n = 2**21
        np.broadcast_shapes((n, 1, 1), (1, n, 1), (1, 1, n))
        print("NumPy: no error")
    except ValueError as exc:
        print("NumPy: ValueError: %s" % exc)
    print("reproduced" if dead == 2 else "not reproduced")
    sys.exit(0 if dead == 2 else 1)


if __name__ == "__main__":
    main()
