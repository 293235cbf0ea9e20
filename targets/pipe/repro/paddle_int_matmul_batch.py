"""paddle_int_matmul_batch.py - paddle.matmul of integer tensors whose batch dims broadcast on both sides
returns a result with the wrong batch shape, and corrupts the heap.

Stand-alone reproduction of the int32/int64 matmul family in targets/pipe/expectations/paddle.txt.
(2,1,2,3) @ (3,3,2) broadcasts the batch dims (2,1) and (3,) to (2,3): NumPy and torch give (2,3,2,2).
Paddle 3.3.1 returns (2,1,2,2) for int32 and int64 (float32 is right), and the process then aborts or
hangs in glibc ("malloc(): invalid size (unsorted)", "malloc(): unsorted double linked list corrupted"):
the kernel writes past the buffer it allocated. Each call runs in a child process with a time limit.

Run: .venv/targets/bin/python targets/pipe/repro/paddle_int_matmul_batch.py
Exit 0 and "reproduced" when Paddle's int32 call gives a wrong shape, dies or hangs; exit 1 otherwise.
"""
import subprocess
import sys

import numpy as np

CHILD = """
import sys
sys.path.insert(0, %r)
from paddle_common import np, paddle
a = np.arange(12).reshape(2, 1, 2, 3).astype(sys.argv[1])
b = np.arange(18).reshape(3, 3, 2).astype(sys.argv[1])
print(tuple(paddle.matmul(paddle.to_tensor(a), paddle.to_tensor(b)).shape), flush=True)
"""


def run(dt, here):
    try:
        p = subprocess.run([sys.executable, "-c", CHILD % here, dt], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        return "shape %s, then hung (killed after 60 s)" % out.strip(), True
    err = " ".join(ln for ln in p.stderr.splitlines() if "malloc" in ln or "corrupt" in ln)
    text = "shape %s, exit status %d %s" % (p.stdout.strip(), p.returncode, err)
    return text, p.returncode != 0 or p.stdout.strip() != "(2, 3, 2, 2)"


def main():
    want = np.matmul(np.zeros((2, 1, 2, 3), np.int32), np.zeros((3, 3, 2), np.int32)).shape
    print("NumPy: (2,1,2,3) @ (3,3,2) ->", want)
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    bad = {}
    for dt in ("int32", "int64", "float32"):
        text, bad[dt] = run(dt, here)
        print("Paddle %s: %s" % (dt, text))
    print("reproduced" if bad["int32"] else "not reproduced")
    return 0 if bad["int32"] else 1


if __name__ == "__main__":
    sys.exit(main())
