"""tf_broadcast_overflow_abort.py - TensorFlow aborts the process when a broadcast's element count overflows int64.

Stand-alone reproduction (no bcast) of the crash family in targets/pipe/expectations/tensorflow.txt.
tf.math.add of an empty (2^62, 1, 0) uint8 tensor and a (1, 4, 1) one broadcasts to (2^62, 4, 0); the
binary op's kernel builds a TensorShape of the broadcast's dims before it counts elements, and
TensorShape's constructor CHECK-fails ("Encountered overflow when multiplying 4611686018427387904
with 4"), which aborts the whole Python process with SIGABRT instead of raising an error. tf.where of
three (2^21,1,1)-like operands (2^63 elements) does the same. NumPy raises a ValueError for both.

Run: .venv/targets/bin/python targets/pipe/repro/tf_broadcast_overflow_abort.py
Each TensorFlow call runs in a child process (an abort would end this one). Exit 0 and
"reproduced" when a child dies of SIGABRT; exit 1 otherwise.
"""

import os
import signal
import subprocess
import sys

import numpy as np

CALLS = {
    "tf.math.add((2^62,1,0) u8, (1,4,1) u8)":
        "x = tf.constant(np.zeros(0, np.uint8), shape=[2**62, 1, 0]); "
        "y = tf.constant(np.zeros(4, np.uint8), shape=[1, 4, 1]); r = tf.math.add(x, y)",
    "tf.where((2^21,1,1) bool, (1,2^21,1) i16, (1,1,2^21) i16)":
        "n = 2**21; c = tf.zeros([n, 1, 1], tf.bool); x = tf.zeros([1, n, 1], tf.int16); "
        "y = tf.zeros([1, 1, n], tf.int16); r = tf.where(c, x, y)",
}


def numpy_answer(shapes):
    """What NumPy does with operands of these shapes (zero-copy stride-0 views)."""
    views = [np.lib.stride_tricks.as_strided(np.zeros(1, np.uint8), s, [0] * len(s)) for s in shapes]
    try:
        return "shape %s" % (np.broadcast(*views).shape,)
    except ValueError as exc:
        return "ValueError: %s" % exc


def main():
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    print("numpy", np.__version__)
    print("NumPy, same shapes:", numpy_answer([(2**62, 1, 0), (1, 4, 1)]), "|",
          numpy_answer([(2**21, 1, 1), (1, 2**21, 1), (1, 1, 2**21)]))
    aborted = 0
    for name, code in CALLS.items():
        prog = "import numpy as np, tensorflow as tf; print('tensorflow', tf.__version__); %s; " \
               "print('result shape', r.shape)" % code
        p = subprocess.run([sys.executable, "-c", prog], env=env, capture_output=True, text=True)
        last = [ln for ln in p.stderr.splitlines() if "Check failed" in ln or "Error" in ln][-1:]
        print("TensorFlow %s: %s exit %d %s" % (name, p.stdout.strip().replace("\n", "; "), p.returncode,
                                                 last[0].strip()[:200] if last else ""))
        aborted += p.returncode == -signal.SIGABRT
    print("reproduced" if aborted else "not reproduced")
    return 0 if aborted else 1


if __name__ == "__main__":
    sys.exit(main())
