"""mlx_as_strided_abort.py - mx.as_strided with an extent past 2^31-1 aborts the interpreter instead of raising.

Stand-alone reproduction (no bcast), found while choosing how mlx_bridge.py builds strided operands
(targets/pipe/mlx/FINDINGS.md): mx.array(...).reshape((2**40, 0)) raises OverflowError ("Integer value
1099511627776 is outside the supported range"), but mx.as_strided(a, (2**40, 0), (0, 1)) lets that
same Python exception escape through C++ ("terminate called after throwing an instance of
'nanobind::abi1::python_error'") and the process aborts (SIGABRT). NumPy's as_strided builds the view.

Run: .venv/targets/bin/python targets/pipe/repro/mlx_as_strided_abort.py
The call runs in a child interpreter. Exit 0 and "reproduced" when it died by SIGABRT; exit 1 otherwise.
"""

import signal
import subprocess
import sys

import numpy as np

CHILD = """
import mlx.core as mx
try:
    r = mx.as_strided(mx.zeros((0,)), (2**40, 0), (0, 1), 0); mx.eval(r); print("shape", r.shape)
except Exception as exc:
    print("raised", type(exc).__name__, exc)
"""


def main():
    p = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True)
    sig = -p.returncode if p.returncode < 0 else 0
    print("mlx as_strided((2**40, 0)): %s" % ("killed by %s; stderr: %s" % (signal.Signals(sig).name, p.stderr.strip()[:160])
                                            if sig else p.stdout.strip()))
    v = np.lib.stride_tricks.as_strided(np.zeros(0, np.float32), (2**40, 0), (0, 4))
    print("NumPy as_strided: shape %s" % (v.shape,))
    print("reproduced" if sig == signal.SIGABRT else "not reproduced")
    sys.exit(0 if sig == signal.SIGABRT else 1)


if __name__ == "__main__":
    main()
