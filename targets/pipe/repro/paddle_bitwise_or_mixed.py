"""paddle_bitwise_or_mixed.py - paddle.bitwise_and/or/xor of two integer dtypes reach their kernels
unpromoted and fail inside them.

Stand-alone reproduction of the bitwise_or family in targets/pipe/expectations/paddle.txt
(promotion/bitwise_or/...). Paddle 3.3.1's paddle.add refuses int8 with uint8 up front ("(InvalidType)
Type promotion only support calculations between floating-point numbers ..."), its documented rule; the
bitwise ops go on into the kernel, which raises "(InvalidArgument) The type of data we are trying to
retrieve (uint8) does not match the type of data (int8) currently contained in the container": no dtype
check before the kernel reads the second operand as the first's type. NumPy and torch promote to int16.

Run: .venv/targets/bin/python targets/pipe/repro/paddle_bitwise_or_mixed.py
Exit 0 and "reproduced" when bitwise_or fails inside its kernel where add gives the type-promotion error.
"""
import sys

from paddle_common import np, paddle, verdict


def first_line(f):
    try:
        r = f()
        return "ok %s %s" % (r.dtype, r.numpy().tolist())
    except Exception as exc:  # noqa: BLE001
        return "%s: %s" % (type(exc).__name__, str(exc).splitlines()[0][:120])


def main():
    a, b = np.array([12, -9], np.int8), np.array([5, 200], np.uint8)
    print("paddle", paddle.__version__, "NumPy bitwise_or:", np.bitwise_or(a, b).dtype, np.bitwise_or(a, b).tolist())
    got = {}
    for op in ("add", "bitwise_and", "bitwise_xor", "bitwise_or"):
        got[op] = first_line(lambda: getattr(paddle, op)(paddle.to_tensor(a), paddle.to_tensor(b)))
        print("Paddle %s(int8, uint8): %s" % (op, got[op]))
    return verdict("Type promotion" in got["add"] and "type of data we are trying" in got["bitwise_or"])


if __name__ == "__main__":
    sys.exit(main())
