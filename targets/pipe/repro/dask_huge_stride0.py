"""dask_huge_stride0.py - dask.array materialises a huge stride-0 operand that NumPy broadcasts for free.

Stand-alone reproduction (no bcast) of the "huge extents, x stretched" family of
targets/pipe/expectations/dask.txt (F6) and dask-2026.txt (F7). x is a (2^40,) f32 view of one element
(stride 0, as np.broadcast_to makes it); y is (0, 1). NumPy broadcasts (2^40,) with (0, 1) to the
empty (0, 2^40) result without touching x. dask.array wraps x with
from_array and allocates it whole (4 TiB): MemoryError. Runs with both interpreters.

Run: .venv/targets/bin/python targets/pipe/repro/dask_huge_stride0.py
Exit 0 and "reproduced" when dask raises MemoryError; exit 1 otherwise.
"""

import sys

import dask
import dask.array as da
import numpy as np


def main():
    print("dask", dask.__version__, "numpy", np.__version__)
    x = np.broadcast_to(np.ones((), np.float32), (1 << 40,))   # 4 TiB of f32, one element stored
    y = np.ones((0, 1), np.float32)
    print("NumPy: (x + y).shape =", (x + y).shape)
    try:
        r = da.add(da.from_array(x, chunks="auto"), da.from_array(y, chunks="auto")).compute(scheduler="sync")
        print("dask: succeeded with shape", r.shape, "- not reproduced")
        return 1
    except MemoryError as exc:
        print("dask: da.add(from_array(x), from_array(y)) raised MemoryError:", exc)
        print("reproduced")
        return 0


if __name__ == "__main__":
    sys.exit(main())
