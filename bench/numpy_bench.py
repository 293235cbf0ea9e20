"""numpy_bench.py - times NumPy on the broadcasts bench/kernel_bench.c times for ref.

    /usr/bin/python3 bench/numpy_bench.py [--runs N] [--min-k K] [--max-k K]

Prints tab-separated lines, read by bench/report.py:
    numpy  NAME  OUT_MEDIAN_NS  ALLOC_MEDIAN_NS  RUNS
    npscale  K  ELEMENTS  OUT_MEDIAN_NS  RUNS
OUT is the op with a preallocated out= (what ref does: it writes into a buffer
the caller owns); ALLOC lets NumPy allocate the result each call. The data is
the same as kernel_bench.c's fill(); both are checked against each other by
the values in check_same_data().
"""

import argparse
import statistics
import sys
import time

import numpy as np


def fill(n, dtype):
    """Element i: ((i*7 + 3) mod 101) - 50; /8 for floats; != 0 for bool (kernel_bench.c's fill)."""
    v = (np.arange(n, dtype=np.int64) * 7 + 3) % 101 - 50
    if dtype == np.bool_:
        return v != 0
    if dtype in (np.float32, np.float64):
        return (v / 8.0).astype(dtype)
    return v.astype(dtype)


def case_add_2d():
    x = fill(4096, np.float32).reshape(4096, 1)
    y = fill(4096, np.float32).reshape(1, 4096)
    return np.add, (x, y), np.empty((4096, 4096), np.float32), False


def case_add_3d():
    x = fill(64 * 256, np.float32).reshape(64, 1, 256)
    y = fill(128 * 256, np.float32).reshape(1, 128, 256)
    return np.add, (x, y), np.empty((64, 128, 256), np.float32), False


def case_where():
    c = fill(4096, np.bool_).reshape(4096, 1)
    x = fill(4096, np.float32).reshape(1, 4096)
    y = fill(1, np.float32).reshape(())
    return "where", (c, x, y), np.empty((4096, 4096), np.float32), False


def case_transposed():
    x = fill(4096 * 4096, np.float32).reshape(4096, 4096).T
    y = fill(4096, np.float32)
    return np.add, (x, y), np.empty((4096, 4096), np.float32), False


def case_inplace():
    s = fill(4096 * 4096, np.float32).reshape(4096, 4096)
    y = fill(4096, np.float32)
    return np.add, (s, y), s, True


def case_mul_i64():
    x = fill(4096, np.int64).reshape(4096, 1)
    y = fill(4096, np.int64).reshape(1, 4096)
    return np.multiply, (x, y), np.empty((4096, 4096), np.int64), False


# Names match SPECS in kernel_bench.c.
CASES = [
    ("add_f32_4096x1+1x4096", case_add_2d),
    ("add_f32_64x1x256+1x128x256", case_add_3d),
    ("where_b4096x1_f1x4096_f0", case_where),
    ("add_f32_T4096x4096+4096", case_transposed),
    ("iadd_f32_4096x4096+=4096", case_inplace),
    ("mul_i64_4096x1*1x4096", case_mul_i64),
]


def runner(fn, args, out, inplace):
    """(with_out, allocating) callables for one case. In place there is no
    allocating form: both are `self += y`."""
    if fn == "where":
        return (lambda: _where_out(args, out)), (lambda: np.where(*args))
    if inplace:
        f = (lambda: fn(args[0], args[1], out=args[0]))
        return f, f
    return (lambda: fn(*args, out=out)), (lambda: fn(*args))


def _where_out(args, out):
    # np.where has no out=; the closest preallocated form is two copyto
    # passes: y everywhere, then x where cond.
    c, x, y = args
    np.copyto(out, y)
    np.copyto(out, np.broadcast_to(x, out.shape), where=np.broadcast_to(c, out.shape))


def median_ns(f, runs):
    f()  # warm-up: page faults of a fresh result, caches
    t = []
    for _ in range(runs):
        t0 = time.perf_counter()
        f()
        t.append(time.perf_counter() - t0)
    return statistics.median(t) * 1e9


def scale(k, runs):
    n, m = 1 << (k // 2), 1 << (k - k // 2)
    x = fill(n, np.float32).reshape(n, 1)
    y = fill(m, np.float32).reshape(1, m)
    out = np.empty((n, m), np.float32)
    f = (lambda: np.add(x, y, out=out))
    t0 = time.perf_counter()
    f()
    one = time.perf_counter() - t0
    reps = max(1, int(2e-3 / max(one, 1e-9)) + 1) if one < 2e-3 else 1
    t = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for _ in range(reps):
            f()
        t.append((time.perf_counter() - t0) / reps)
    return n * m, statistics.median(t) * 1e9


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--min-k", type=int, default=10)
    ap.add_argument("--max-k", type=int, default=26)
    ap.add_argument("--only", help="run only this case name")
    a = ap.parse_args()
    if a.runs < 1:
        sys.exit("numpy_bench: --runs must be >= 1")
    for name, make in CASES:
        if a.only and name != a.only:
            continue
        fn, args, out, inplace = make()
        with_out, alloc = runner(fn, args, out, inplace)
        t_out = median_ns(with_out, a.runs)
        t_alloc = median_ns(alloc, a.runs)
        print("numpy\t%s\t%.0f\t%.0f\t%d" % (name, t_out, t_alloc, a.runs), flush=True)
        del fn, args, out, with_out, alloc
    if a.only:
        return
    for k in range(a.min_k, a.max_k + 1):
        n, t = scale(k, a.runs)
        print("npscale\t%d\t%d\t%.1f\t%d" % (k, n, t, a.runs), flush=True)


if __name__ == "__main__":
    main()
