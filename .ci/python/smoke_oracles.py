"""smoke_oracles.py - checks that the `oracles` environment's NumPy 2 and torch 2 import and compute on the CPU.

    .venv/oracles/bin/python .ci/python/smoke_oracles.py

Each check prints `ok NAME` or `FAILED NAME: why`; the last line is
`N passed, N failed` (tests/run-tests.sh adds it up) and the exit status is 1
when any check failed. The checks are what the 2.x oracles will need:
broadcasting add, where, batched matmul and the gradient of a broadcast add
(B23: summed over the stretched dims), each against values worked out by
hand, and NumPy 2's NEP 50 promotion (a NumPy 1.x would fail it).
"""

import sys
import time

results = []


def check(name, fn):
    """Runs fn(); an exception or a False result is a failure named `name`."""
    try:
        got = fn()
        ok = got is not False
        why = "" if ok else "returned False"
    except Exception as e:  # noqa: BLE001 - any failure is reported, not raised
        ok, why = False, "%s: %s" % (type(e).__name__, e)
    results.append(ok)
    print("ok %s" % name if ok else "FAILED %s: %s" % (name, why))


def main():
    t0 = time.time()
    try:
        import numpy as np
        import torch
    except Exception as e:  # noqa: BLE001
        print("FAILED import: %s: %s" % (type(e).__name__, e))
        print("0 passed, 1 failed")
        return 1
    print("numpy %s, torch %s, imported in %.1f s, %s"
          % (np.__version__, torch.__version__, time.time() - t0, sys.executable))
    check("numpy is 2.x", lambda: np.__version__.startswith("2."))
    check("torch is 2.x", lambda: torch.__version__.startswith("2."))
    # NEP 50: a NumPy scalar is not value-cast any more: u8 array + i64 scalar -> i64 (1.24: u8... u16).
    check("numpy NEP 50 promotion",
          lambda: (np.array([1], np.uint8) + np.int64(300)).dtype == np.int64)
    check("numpy add broadcasts (2,1)+(3,)",
          lambda: (np.arange(2.0).reshape(2, 1) + np.arange(3.0)).tolist() == [[0, 1, 2], [1, 2, 3]])
    check("torch add broadcasts (2,1)+(3,)",
          lambda: (torch.arange(2.0).reshape(2, 1) + torch.arange(3.0)).tolist() == [[0, 1, 2], [1, 2, 3]])
    check("torch where broadcasts",
          lambda: torch.where(torch.tensor([[True], [False]]), torch.zeros(3), torch.ones(1)).tolist()
          == [[0, 0, 0], [1, 1, 1]])
    check("torch matmul batches (4,2,3)@(3,5)",
          lambda: torch.matmul(torch.ones(4, 2, 3), torch.ones(3, 5)).shape == (4, 2, 5)
          and torch.matmul(torch.ones(4, 2, 3), torch.ones(3, 5))[3, 1, 4].item() == 3.0)

    def grad():
        x = torch.ones(2, 1, requires_grad=True)
        y = torch.ones(3, requires_grad=True)
        (x + y).backward(torch.arange(6.0).reshape(2, 3))
        return x.grad.tolist() == [[3.0], [12.0]] and y.grad.tolist() == [3.0, 5.0, 7.0]
    check("torch autograd sums a broadcast add's gradient (B23)", grad)
    check("torch runs on the CPU", lambda: (torch.ones(1) + 1).device.type == "cpu")
    passed = sum(results)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
