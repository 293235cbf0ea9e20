"""paddle_broadcast_to_rank.py - paddle.broadcast_to / paddle.expand accept a target shape with fewer dims
than the tensor and return the tensor's own shape.

Stand-alone reproduction of the "succeeds with a shape the profile refuses" broadcast_to/expand family in
targets/pipe/expectations/paddle.txt. broadcast_to of a (0,) tensor to () must fail (NumPy: "cannot
broadcast a non-scalar to a scalar array"; torch: "the number of sizes provided (0) must be greater or
equal to the number of dimensions in the tensor (1)"). Paddle 3.3.1 returns a (0,) tensor, a shape other
than the one asked for; with a non-empty (3,) tensor it does raise ("The number of elements (0) of
'shape' for expand_v2 op must be greater than or equal to the rank (1)").

Run: .venv/targets/bin/python targets/pipe/repro/paddle_broadcast_to_rank.py
Exit 0 and "reproduced" when Paddle returns a result for the (0,) tensor; exit 1 otherwise.
"""
import sys

from paddle_common import np, paddle, verdict


def try_(f):
    try:
        return "shape %s" % (tuple(f().shape),)
    except Exception as exc:  # noqa: BLE001
        return "%s: %s" % (type(exc).__name__, str(exc).splitlines()[0])


def main():
    print("paddle", paddle.__version__)
    print("NumPy broadcast_to((0,), ()):", try_(lambda: np.broadcast_to(np.zeros(0, np.float32), ())))
    empty = try_(lambda: paddle.broadcast_to(paddle.zeros([0]), []))
    print("Paddle broadcast_to((0,), ()):", empty)
    print("Paddle expand((0,), ()):", try_(lambda: paddle.expand(paddle.zeros([0]), [])))
    print("Paddle broadcast_to((3,), ()):", try_(lambda: paddle.broadcast_to(paddle.zeros([3]), [])))
    return verdict(empty.startswith("shape"))


if __name__ == "__main__":
    sys.exit(main())
