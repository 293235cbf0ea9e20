"""dask_matmul_chunks.py - dask.array's matmul fails inside dask ("Chunks do not add up to shape") on mismatched shapes.

Stand-alone reproduction (no bcast) of the matmul family of targets/pipe/expectations/dask.txt (F2) and
dask-2026.txt (F2). Where NumPy reports the mismatched core dimension (or batch dimensions that do not
broadcast), dask.array.matmul builds its graph first and fails while rechunking. Runs with Debian's dask
(/usr/bin/python3) and the PyPI release (.venv/targets/bin/python).

Run: .venv/targets/bin/python targets/pipe/repro/dask_matmul_chunks.py
Exit 0 and "reproduced" when dask raises "Chunks do not add up to shape"; exit 1 otherwise.
"""

import sys

import dask
import dask.array as da
import numpy as np


def main():
    print("dask", dask.__version__, "numpy", np.__version__)
    x, y = np.ones((3,), np.float32), np.ones((4,), np.float32)   # bcast case matmul/f32/(3,)x(4,)
    try:
        np.matmul(x, y)
    except ValueError as exc:
        print("NumPy: np.matmul((3,), (4,)) raised ValueError:", exc)
    try:
        r = da.matmul(da.from_array(x), da.from_array(y)).compute(scheduler="sync")
        print("dask: succeeded with", r, "- not reproduced")
        return 1
    except ValueError as exc:
        print("dask: da.matmul((3,), (4,)) raised ValueError:", exc)
        if "Chunks do not add up to shape" in str(exc):
            print("reproduced")
            return 0
        print("not reproduced (another error)")
        return 1


if __name__ == "__main__":
    sys.exit(main())
