"""paddle_matmul_mixed.py - paddle.matmul of a float64 and an int64 tensor reaches its kernel
unpromoted and fails inside it.

Stand-alone reproduction of the matmul entry of the mixed-dtype kernel family in
targets/pipe/expectations/paddle.txt (grad/dtypes/matmul/f64,i64/...). Paddle 3.3.1's paddle.add
refuses float64 with int64 up front ("(InvalidType) Type promotion only support calculations between
floating-point numbers ..."), its documented rule; paddle.matmul goes on into the kernel, which raises
"(InvalidArgument) The type of data we are trying to retrieve (int64) does not match the type of data
(float64) currently contained in the container": no dtype check before the kernel reads the second
operand as the first's type. NumPy and torch promote to float64 (torch: matmul refuses mixed dtypes
with "expected m1 and m2 to have the same dtype", a clear dtype error).

Run: .venv/targets/bin/python targets/pipe/repro/paddle_matmul_mixed.py
Exit 0 and "reproduced" when matmul fails inside its kernel where add gives the type-promotion error.
"""
import sys

from paddle_common import np, paddle, verdict


def first_line(f):
    try:
        r = f()
        return "ok %s %s" % (r.dtype, r.numpy().tolist())
    except Exception as exc:  # noqa: BLE001
        return "%s: %s" % (type(exc).__name__, str(exc).strip().splitlines()[0][:160])


def main():
    a, b = np.array([[1.5, 2.0, -1.0], [0.5, 1.0, 3.0]]), np.array([[1, 2], [3, 4], [5, 6]], np.int64)
    print("paddle", paddle.__version__, "NumPy matmul(float64, int64):", np.matmul(a, b).dtype, np.matmul(a, b).tolist())
    got = {}
    for op in ("add", "matmul"):
        x, y = (a, b) if op == "matmul" else (a[:, :2], b[:2])
        got[op] = first_line(lambda: getattr(paddle, op)(paddle.to_tensor(x), paddle.to_tensor(y)))
        print("Paddle %s(float64, int64): %s" % (op, got[op]))
    return verdict("Type promotion" in got["add"] and "type of data we are trying" in got["matmul"])


if __name__ == "__main__":
    sys.exit(main())
