"""paddle_matmul_grad_batch.py - paddle.grad through paddle.matmul fails when one operand's batch dims are
broadcast from a lower rank.

Stand-alone reproduction of the matmul gradient family in targets/pipe/expectations/paddle.txt
(grad/matmul/f32/(2,1,2,3)x(1,3,4) and others). The forward (2,1,2,3) @ (1,3,4) gives (2,1,2,4) in Paddle
3.3.1 as in NumPy and torch; its backward raises "(InvalidArgument) Input dimension size should be equal
to 2, but received dimension size is 3." torch returns gradients of shapes (2,1,2,3) and (1,3,4).

Run: .venv/targets/bin/python targets/pipe/repro/paddle_matmul_grad_batch.py
Exit 0 and "reproduced" when paddle.grad raises; exit 1 otherwise.
"""
import sys

from paddle_common import np, paddle, verdict


def main():
    x = paddle.to_tensor(np.ones((2, 1, 2, 3), np.float32), stop_gradient=False)
    y = paddle.to_tensor(np.ones((1, 3, 4), np.float32), stop_gradient=False)
    r = paddle.matmul(x, y)
    print("paddle", paddle.__version__, "forward:", tuple(r.shape), "(NumPy:", np.matmul(np.ones((2, 1, 2, 3)), np.ones((1, 3, 4))).shape, ")")
    try:
        gx, gy = paddle.grad([r], [x, y], grad_outputs=[paddle.ones(r.shape)])
        print("Paddle gradients:", tuple(gx.shape), tuple(gy.shape), "(torch: (2, 1, 2, 3) (1, 3, 4))")
        return verdict(False)
    except Exception as exc:  # noqa: BLE001
        print("Paddle paddle.grad raised %s: %s" % (type(exc).__name__, str(exc).splitlines()[0]))
        return verdict(True)


if __name__ == "__main__":
    sys.exit(main())
