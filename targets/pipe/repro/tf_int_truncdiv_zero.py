"""tf_int_truncdiv_zero.py - integer tf.truncatediv / tf.truncatemod by zero raise an InternalError that says
"only integer div and mod should have errors" (which they are).

Stand-alone reproduction of the mathops/div_trunc/i32/zero-divisor and mathops/fmod/i32/zero-divisor
entries in targets/pipe/expectations/tensorflow.txt: tf.math.floordiv and tf.math.floormod of the same
int32 operands raise InvalidArgumentError "Integer division by zero"; tf.truncatediv and tf.truncatemod
raise InternalError "Unexpected error in binary operator (only integer div and mod should have errors)"
(NumPy's fmod returns 0; torch raises ZeroDivisionError).
Run: .venv/targets/bin/python targets/pipe/repro/tf_int_truncdiv_zero.py
Exit 0 and "reproduced" when truncatediv's error is an InternalError.
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

x, y = tf.constant([7, -7], tf.int32), tf.constant([2, 0], tf.int32)
kinds = {}
for name, fn in (("floordiv", tf.math.floordiv), ("floormod", tf.math.floormod),
                 ("truncatediv", tf.truncatediv), ("truncatemod", tf.truncatemod)):
    try:
        print("%s: %s" % (name, fn(x, y).numpy().tolist()))
        kinds[name] = None
    except Exception as exc:  # noqa: BLE001 - the error is what is shown
        kinds[name] = type(exc).__name__
        print("%s: %s: %s" % (name, type(exc).__name__, str(exc).splitlines()[0]))
ok = kinds["truncatediv"] == "InternalError"
print("reproduced" if ok else "not reproduced")
sys.exit(0 if ok else 1)
