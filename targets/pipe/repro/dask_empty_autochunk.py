"""dask_empty_autochunk.py - dask.array's 'auto' chunking divides by zero on an empty array with one large extent.

Stand-alone reproduction (no bcast) of the ZeroDivisionError family in
targets/pipe/expectations/dask.txt. auto_chunks (dask/array/core.py) fixes
every extent below the ideal chunk edge as one chunk, the 0 extent included,
then divides the byte limit by the product of the fixed chunks, which is 0.
NumPy handles the same empty array (and broadcasts against it) without
complaint. Reported upstream as dask/dask#12537 (open).

Run: /usr/bin/python3 targets/pipe/repro/dask_empty_autochunk.py
Exit 0 and "reproduced" when dask raises ZeroDivisionError; exit 1 otherwise.
"""

import sys

import dask
import dask.array as da
import numpy as np


def main():
    # 128 MiB default chunk limit / 8-byte f64 = 2^24 elements: the ideal 2-D
    # chunk edge is 4096, so (0, 4096) is the smallest such shape in f64.
    x = np.empty((0, 4096), dtype=np.float64)
    print("dask", dask.__version__, "numpy", np.__version__)
    print("NumPy: np.add(x, 1).shape =", np.add(x, 1).shape)
    try:
        d = da.from_array(x)  # chunks='auto' is from_array's default
        print("dask: from_array succeeded, chunks", d.chunks, "- not reproduced")
        return 1
    except ZeroDivisionError as exc:
        print("dask: da.from_array(np.empty((0, 4096))) raised ZeroDivisionError:", exc)
        print("reproduced")
        return 0


if __name__ == "__main__":
    sys.exit(main())
