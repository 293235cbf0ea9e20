"""jax_extent_overflow_abort.py - JAX aborts the whole process (C++ terminate) on a shape whose element count overflows int64.

Stand-alone reproduction (no bcast) of the crash family in targets/pipe/expectations/jax.txt.
jnp.broadcast_to of a (1,) array to (2^62, 2), or jnp.zeros((2^62, 0)) broadcast against (1,):
XLA's shape check returns INVALID_ARGUMENT "overflow in static extent product", and jaxlib reads
the failed absl::StatusOr without checking it, so std::terminate aborts Python (SIGABRT) instead of
raising (the (2^62, 0) shape holds no element at all). NumPy raises ValueError for the same
calls ("iterator is too large", "array is too big"): an error a caller can catch.

Run: .venv/targets/bin/python targets/pipe/repro/jax_extent_overflow_abort.py
Each call runs in a child process (the abort would end this one). Exit 0 and "reproduced" when a
child dies of SIGABRT; exit 1 otherwise.
"""

import os
import signal
import subprocess
import sys

CALLS = [
    "jnp.broadcast_to(jnp.zeros((1,)), (2**62, 2))",
    "jnp.add(jnp.zeros((2**62, 0)), jnp.zeros((1,)))",
]
CHILD = ("import os; os.environ['JAX_PLATFORMS'] = 'cpu'\n"
         "import jax, jax.numpy as jnp\n"
         "jax.config.update('jax_enable_x64', True)\n"
         "try:\n    r = %s\n    print('  returned shape', r.shape)\n"
         "except Exception as e:\n    print('  raised', type(e).__name__, str(e).splitlines()[0])\n")


def main():
    import jax
    import numpy as np
    print("jax", jax.__version__, "numpy", np.__version__)
    aborted = 0
    for call in CALLS:
        print("JAX:", call)
        p = subprocess.run([sys.executable, "-c", CHILD % call], capture_output=True, text=True)
        print(p.stdout.rstrip() or "  (no output)")
        tail = [ln for ln in p.stderr.splitlines() if "what()" in ln or "terminate" in ln]
        if p.returncode == -signal.SIGABRT:
            aborted += 1
            print("  the process died of SIGABRT:", " / ".join(tail))
        else:
            print("  exit status", p.returncode)
    for call in ("np.broadcast_to(np.zeros((1,)), (2**62, 2))", "np.add(np.zeros((2**62, 0)), np.zeros((1,))).shape"):
        try:
            print("NumPy:", call, "->", eval(call))
        except Exception as e:  # noqa: BLE001 - the point is what NumPy raises
            print("NumPy:", call, "raised", type(e).__name__, str(e).splitlines()[0])
    if aborted:
        print("reproduced (%d of %d calls aborted the process)" % (aborted, len(CALLS)))
        return 0
    print("not reproduced")
    return 1


if __name__ == "__main__":
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    sys.exit(main())
