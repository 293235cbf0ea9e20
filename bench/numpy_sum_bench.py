"""numpy_sum_bench.py - times NumPy's sum(axis=..., keepdims=True) on the reductions bench/sum_bench.c times for ref.

    /usr/bin/python3 bench/numpy_sum_bench.py [--runs N]

Prints tab-separated lines, read by bench/report.py:
    npsum  NAME  OUT_MEDIAN_NS  RUNS
OUT: np.sum with a preallocated out= (what ref does: it sums into a buffer
the caller owns). The data is sum_bench.c's: ((i*7 + 3) mod 101 - 50) / 8.
"""

import argparse
import statistics
import time

import numpy as np


def fill(shape, dtype):
    n = int(np.prod(shape))
    return ((np.arange(n, dtype=np.int64) * 7 + 3) % 101 - 50).astype(np.float64).__truediv__(8.0) \
        .astype(dtype).reshape(shape)


# name -> (input shape, summed axes, dtype); the names match SUMS in sum_bench.c.
CASES = [
    ("sum_f32_4096x4096->4096x1", (4096, 4096), (1,), np.float32),
    ("sum_f32_4096x4096->1x4096", (4096, 4096), (0,), np.float32),
    ("sum_f32_4096x4096->()", (4096, 4096), (0, 1), np.float32),
    ("sum_f32_64x128x256->64x1x256", (64, 128, 256), (1,), np.float32),
    ("sum_f32_64x128x256->1x128x1", (64, 128, 256), (0, 2), np.float32),
    ("sum_f64_4096x4096->4096x1", (4096, 4096), (1,), np.float64),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    for name, shape, axes, dt in CASES:
        g = fill(shape, dt)
        out = np.sum(g, axis=axes, keepdims=True)
        t = []
        for _ in range(a.runs):
            t0 = time.perf_counter_ns()
            np.sum(g, axis=axes, keepdims=True, out=out)
            t.append(time.perf_counter_ns() - t0)
        print("npsum\t%s\t%.0f\t%d" % (name, statistics.median(t), a.runs), flush=True)


if __name__ == "__main__":
    main()
