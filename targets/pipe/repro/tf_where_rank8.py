"""tf_where_rank8.py - tf.where (SelectV2) cannot broadcast operands of more than 8 dims, even all-ones ones.

Stand-alone reproduction (no bcast) of the explore finding in targets/pipe/findings/tensorflow.md.
tf.where(cond, x, y) broadcasts its three operands (TensorFlow's API: "x and y must be broadcastable"),
but SelectV2's CPU kernel instantiates its broadcast for ranks up to 8 only: a (1,)*11 condition with a
(1,)*8 x and a (1,1,1,1) y raises UnimplementedError "Broadcast between [1,1,1,1,1,1,1,1,1,1,1] and
[1,1,1,1,1,1,1,1] is not supported yet." NumPy's np.where returns the (1,)*11 result; tf.math.add of
the same shapes works (its kernel collapses the dims first).

Run: .venv/targets/bin/python targets/pipe/repro/tf_where_rank8.py
Exit 0 and "reproduced" when tf.where raises that error; exit 1 otherwise.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np          # noqa: E402
import tensorflow as tf     # noqa: E402


def main():
    shapes = [(1,) * 11, (1,) * 8, (1,) * 4]
    print("tensorflow", tf.__version__, "numpy", np.__version__)
    print("NumPy: np.where(...).shape =", np.where(np.ones(shapes[0], bool), np.ones(shapes[1]), np.zeros(shapes[2])).shape)
    print("TensorFlow: tf.math.add of the last two =", tf.math.add(tf.ones(shapes[1]), tf.zeros(shapes[2])).shape)
    try:
        r = tf.where(tf.ones(shapes[0], tf.bool), tf.ones(shapes[1]), tf.zeros(shapes[2]))
        print("TensorFlow: tf.where(...).shape =", r.shape, "- not reproduced")
        return 1
    except tf.errors.UnimplementedError as exc:
        print("TensorFlow: tf.where raises %s: %s" % (type(exc).__name__, str(exc).splitlines()[0][-120:]))
        print("reproduced")
        return 0


if __name__ == "__main__":
    sys.exit(main())
