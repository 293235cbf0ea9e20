"""smoke_targets.py - checks that the `targets` environment's libraries import and broadcast on the CPU.

    .venv/targets/bin/python .ci/python/smoke_targets.py

For each library bcast tests from PyPI (.ci/python/targets.in): it imports,
says its version, and adds a (2,1) and a (3,) operand into the (2,3) result
worked out by hand. Each check prints `ok NAME` or `FAILED NAME: why`; the
last line is `N passed, N failed` and the exit status is 1 when any failed.
Each library runs in a process of its own, as each bridge does (TensorFlow
and PaddlePaddle in one process crash: their bundled protobuf runtimes clash).
The bridges' own tests and reports judge the libraries; this only says the
install works.
"""

import os
import subprocess
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

EXPECTED = [[0.0, 1.0, 2.0], [1.0, 2.0, 3.0]]
results = []


def check(name, fn):
    """Runs fn() -> (version, result as nested lists); the check passes when
    the result is EXPECTED. Any exception is a failure named `name`."""
    t0 = time.time()
    try:
        version, got = fn()
        ok = got == EXPECTED
        why = "" if ok else "got %r" % (got,)
    except Exception as e:  # noqa: BLE001 - any failure is reported, not raised
        ok, version, why = False, "?", "%s: %s" % (type(e).__name__, e)
    results.append(ok)
    took = time.time() - t0
    print("ok %s %s (%.1f s)" % (name, version, took) if ok else "FAILED %s: %s" % (name, why))


def numpy_():
    import numpy as np
    return np.__version__, (np.arange(2.0).reshape(2, 1) + np.arange(3.0)).tolist()


def jax_():
    import jax
    import jax.numpy as jnp
    return jax.__version__, (jnp.arange(2.0).reshape(2, 1) + jnp.arange(3.0)).tolist()


def tensorflow_():
    import tensorflow as tf
    a = tf.reshape(tf.range(2.0), (2, 1))
    return tf.__version__, tf.math.add(a, tf.range(3.0)).numpy().tolist()


def paddle_():
    import paddle
    paddle.set_device("cpu")
    a = paddle.arange(2.0).reshape([2, 1])
    return paddle.__version__, paddle.add(a, paddle.arange(3.0)).numpy().tolist()


def mlx_():
    import mlx.core as mx
    from importlib.metadata import version
    a = mx.arange(2.0).reshape(2, 1)
    return version("mlx"), (a + mx.arange(3.0)).tolist()


def array_api_strict_():
    import array_api_strict as xp
    a = xp.reshape(xp.arange(2.0), (2, 1))
    return xp.__version__, [[float(v) for v in row] for row in (a + xp.arange(3.0)).__array__().tolist()]


def dask_():
    import dask
    import dask.array as da
    import numpy as np
    a = da.from_array(np.arange(2.0).reshape(2, 1))
    return dask.__version__, (a + da.from_array(np.arange(3.0))).compute().tolist()


def numexpr_():
    import numexpr
    import numpy as np
    a, b = np.arange(2.0).reshape(2, 1), np.arange(3.0)
    return numexpr.__version__, numexpr.evaluate("a + b").tolist()


def numba_():
    import numba
    import numpy as np

    @numba.njit
    def add(a, b):
        return a + b
    return numba.__version__, add(np.arange(2.0).reshape(2, 1), np.arange(3.0)).tolist()


CHECKS = {"numpy": numpy_, "jax": jax_, "tensorflow": tensorflow_, "paddle": paddle_, "mlx": mlx_,
          "array-api-strict": array_api_strict_, "dask": dask_, "numexpr": numexpr_, "numba": numba_}


def main(argv):
    """No argument: every check, each in a child process (this script with
    the check's name); one argument: that check, in this process."""
    if len(argv) == 2:
        check(argv[1], CHECKS[argv[1]])
        return 0 if results[0] else 1
    for name in CHECKS:
        child = subprocess.run([sys.executable, __file__, name], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        lines = [ln for ln in child.stdout.splitlines() if ln.startswith(("ok ", "FAILED "))]
        if child.returncode == 0 and lines:
            print(lines[-1])
            results.append(True)
        else:
            tail = " | ".join(child.stderr.strip().splitlines()[-3:])
            print(lines[-1] if lines else "FAILED %s: exit %d: %s" % (name, child.returncode, tail))
            results.append(False)
    passed = sum(results)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
