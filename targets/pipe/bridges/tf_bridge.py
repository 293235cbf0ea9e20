"""tf_bridge.py - TensorFlow (CPU build) behind the pipe protocol (targets/registry.tsv: tensorflow).

Run with .venv/targets/bin/python (tensorflow-cpu, pinned in .ci/python/targets.lock). This
process imports TensorFlow only: TensorFlow and Paddle crash when imported into one process.

What the bridge translates (targets/pipe/findings/tensorflow.md says each in full):
- An operand: a tf.Tensor owns dense data and has no strided view, so the case's view is built
  with NumPy (as_strided over a private copy of the sent span, then a C-order copy) and handed to
  tf.constant. Size-1 dims are dropped before as_strided (their index is always 0) and tf.constant
  gets the case's shape, so ranks above NumPy's 64 reach TensorFlow too.
- The op: TensorFlow's own documented function for it (FUNC below), with its broadcasting, its
  dtype rule (it promotes nothing: mixed dtypes raise) and its errors. broadcast_shapes is
  tf.broadcast_dynamic_shape (two shapes) applied left to right over the case's shapes.
- In-place: tf.Tensor is immutable; a tf.Variable's assign_add / assign_sub are TensorFlow's
  in-place updates, so self becomes a tf.Variable and add/sub call them; every other op has no
  in-place form in TensorFlow and answers `other` saying so. No out=: TensorFlow has none.
- Gradients: tf.GradientTape watches every input (where's cond excepted), and
  tape.gradient(result, inputs, output_gradients=dy) is replied as TensorFlow returns it; an input
  TensorFlow gives no gradient (None: integer and bool inputs) gets none.
- Errors: TensorFlow's messages mapped to bcast's classes by RULES; anything else is `other`.
"""

import os
import re
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bcast_bridge as bb  # noqa: E402

try:
    import numpy as np
    import tensorflow as tf
except ImportError as exc:
    bb.fail("tensorflow is not importable: %s" % exc)

TF_DTYPE = {"bool": tf.bool, "i8": tf.int8, "u8": tf.uint8, "i16": tf.int16, "i32": tf.int32,
            "i64": tf.int64, "f32": tf.float32, "f64": tf.float64}
TF_NAME = {v: k for k, v in TF_DTYPE.items()}
NP_DTYPE = {"bool": np.bool_, "i8": np.int8, "u8": np.uint8, "i16": np.int16, "i32": np.int32,
            "i64": np.int64, "f32": np.float32, "f64": np.float64}
# Each bcast op as the function TensorFlow documents for it (tf.math, tf.bitwise, tf.linalg).
FUNC = {
    "add": tf.math.add, "sub": tf.math.subtract, "mul": tf.math.multiply, "div": tf.math.divide,
    "floor_divide": tf.math.floordiv, "remainder": tf.math.floormod, "pow": tf.math.pow,
    "maximum": tf.math.maximum, "minimum": tf.math.minimum,
    "eq": tf.math.equal, "ne": tf.math.not_equal, "lt": tf.math.less, "le": tf.math.less_equal,
    "gt": tf.math.greater, "ge": tf.math.greater_equal,
    "logical_and": tf.math.logical_and, "logical_or": tf.math.logical_or,
    "logical_xor": tf.math.logical_xor,
    "bitwise_and": tf.bitwise.bitwise_and, "bitwise_or": tf.bitwise.bitwise_or,
    "bitwise_xor": tf.bitwise.bitwise_xor,
    "matmul": tf.linalg.matmul, "where": tf.where,
    # issue #25 (docs/semantics.md B38, B40, B42, B43), value mode only: TensorFlow's documented
    # functions of the same semantics. fmod is tf.truncatemod (C fmod: "the result here is
    # consistent with a truncating divide"), div_trunc tf.truncatediv, div_floor tf.math.floordiv,
    # clip tf.clip_by_value (bounds "broadcastable to the shape of t": one way, a finding). Not
    # claimed: fmax/fmin (tf.math.maximum propagates NaN), and the tf.experimental.numpy functions
    # (targets/pipe/findings/tensorflow.md, "Issue #25 ops").
    "atan2": tf.math.atan2, "fmod": tf.truncatemod, "nextafter": tf.math.nextafter,
    "left_shift": tf.bitwise.left_shift, "right_shift": tf.bitwise.right_shift,
    "div_trunc": tf.truncatediv, "div_floor": tf.math.floordiv, "clip": tf.clip_by_value,
}
# tf.Variable's in-place updates (the only ones TensorFlow has for these ops).
ASSIGN = {"add": "assign_add", "sub": "assign_sub"}
GRAD_OPS = ("add", "sub", "mul", "div", "pow", "maximum", "minimum", "where", "matmul", "broadcast_to")

# TensorFlow's messages (first line, after its "{{function_node ...}}" prefix) -> class.
RULES = [(re.compile(rx), cls) for rx, cls in [
    (r"Incompatible shapes", "not-broadcastable"),
    (r"must have compatible batch dimensions", "not-broadcastable"),
    (r"must be broadcastable", "not-broadcastable"),
    (r"Rank of input \(\d+\) must be no greater than rank of output shape", "invalid-shape"),
    (r"Dimension -?\d+ must be >= 0", "invalid-shape"),
    (r"Matrix size-incompatible", "matmul-core"),
    (r"ndims must be >= 2|ndims must be == 2|In\[0\] and In\[1\] has different ndims", "matmul-core"),
    (r"Unable to broadcast tensor of shape", "not-broadcastable"),
    # tf.clip_by_value's "Shapes (2, 1) and (2, 2) are incompatible": a bound that would broadcast t larger
    (r"^Shapes \(.*\) and \(.*\) are incompatible", "not-broadcastable"),
    (r"Broadcast between .* is not supported yet", "rank-limit"),
    (r"Cannot update variable with shape .* using a Tensor with shape", "inplace-shape"),
    (r"Integer division by zero", "division-by-zero"),
    (r"was expected to be a \w+ tensor but is a \w+ tensor", "dtype"),
    (r"Value for attr '\w+' of \w+ is not in the list of allowed values", "dtype"),
    (r"must have the same dtype|Tensor conversion requested dtype", "dtype"),
    (r"No OpKernel was registered to support Op", "dtype"),
    (r"Invalid dtype tf\.\w+ in __\w+__", "dtype"),
    (r"Could not find device for node|No registered '\w+' OpKernel", "dtype"),
    (r"Encountered overflow|would have more than 2\*\*63 - 1 elements", "overflow"),
]]


def classify(exc):
    """(class, message): TensorFlow's first line without its function-node prefix."""
    msg = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", bb.one_line(exc)) or type(exc).__name__
    for rx, cls in RULES:
        if rx.search(msg):
            return cls, msg
    return "other", "%s: %s" % (type(exc).__name__, msg)


def dense(arg):
    """The case's view as a flat C-order NumPy array (a copy), built with NumPy because
    TensorFlow has no strided views. The bridge sets no size limit: a view whose copy cannot be
    allocated (a huge stride-0 operand of the sizes suite) fails with NumPy's own MemoryError,
    which is the case's answer (class other; findings/tensorflow.md, Operands)."""
    dt = NP_DTYPE[arg.dtype]
    if any(d == 0 for d in arg.shape) or not arg.data:
        return np.zeros(0, dtype=dt)
    storage = np.frombuffer(bytearray(arg.data), dtype=dt)
    kept = [(d, s) for d, s in zip(arg.shape, arg.strides) if d != 1]
    v = np.lib.stride_tricks.as_strided(storage[arg.offset:], shape=[d for d, _ in kept],
                                        strides=[s * storage.itemsize for _, s in kept])
    return np.ascontiguousarray(v).reshape(-1)


def tensor(arg):
    """tf.constant of the operand's values with the case's shape."""
    return tf.constant(dense(arg), dtype=TF_DTYPE[arg.dtype], shape=list(arg.shape))


def to_reply(t):
    """(dtype name, shape, C-order bytes) of a TensorFlow tensor, as TensorFlow gives them. An
    empty tensor has no bytes to read; one of more dims than NumPy's 64 is read flat."""
    name = TF_NAME.get(t.dtype, t.dtype.name)
    shape = tuple(int(d) for d in t.shape)
    if t.shape.num_elements() == 0:
        return name, shape, b""
    arr = np.asarray((t if len(shape) <= 64 else tf.reshape(t, [-1])).numpy())
    return name, shape, np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes()


def call(case, xs):
    """TensorFlow's own function for the case's op on the built tensors."""
    if case.op in FUNC:
        return FUNC[case.op](*xs)
    if case.op == "broadcast_to":
        return tf.broadcast_to(xs[0], list(case.target))
    raise ValueError("the bridge has no TensorFlow function for %s" % case.op)


def broadcast_shapes(case):
    """tf.broadcast_dynamic_shape over the case's shapes, left to right."""
    shapes = [tf.constant(list(a.shape), dtype=tf.int64, shape=[len(a.shape)]) for a in case.args]
    r = shapes[0] if shapes else tf.constant([], dtype=tf.int64)
    for s in shapes[1:]:
        r = tf.broadcast_dynamic_shape(r, s)
    return bb.reply_shape(tuple(int(d) for d in r.numpy()))


def run_inplace(case):
    """self.assign_add(y) / self.assign_sub(y) on a tf.Variable holding self; B22: a failed
    call that changed the variable is answered with `wrote` first."""
    if case.op not in ASSIGN:
        return bb.reply_error("other", "TensorFlow has no in-place %s (tf.Variable has assign_add and "
                              "assign_sub only)" % case.op)
    var = tf.Variable(tensor(case.args[0]))
    before = to_reply(var.value())[2]
    try:
        getattr(var, ASSIGN[case.op])(tensor(case.args[1]))
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        if to_reply(var.value())[2] != before:
            return bb.reply_wrote(*to_reply(var.value())) + bb.reply_error(*classify(exc))
        return bb.reply_error(*classify(exc))
    return bb.reply_ok(*to_reply(var.value()))


def run_grad(case):
    """tf.GradientTape on TensorFlow's op; dy (the last arg) is the output gradient."""
    xs = [tensor(a) for a in case.args[:-1]]
    watched = [k for k in range(len(xs)) if not (case.op == "where" and k == 0)]
    with tf.GradientTape() as tape:
        for k in watched:
            tape.watch(xs[k])
        r = call(case, xs)
    grads = tape.gradient(r, [xs[k] for k in watched], output_gradients=tensor(case.args[-1]))
    out = [(k, *to_reply(g)) for k, g in zip(watched, grads) if g is not None]
    return bb.reply_grads(out)


def run(case):
    try:
        if case.op == "broadcast_shapes":
            return broadcast_shapes(case)
        if case.mode == "inplace":
            return run_inplace(case)
        if case.mode == "grad":
            return run_grad(case)
        return bb.reply_ok(*to_reply(call(case, [tensor(a) for a in case.args])))
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        return bb.reply_error(*classify(exc))


def main():
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.get_logger().setLevel("ERROR")
    # numpy2: TensorFlow follows NumPy's broadcasting and promotes nothing (targets/pipe/findings/tensorflow.md)
    hello = bb.Hello("tensorflow", tf.__version__, "numpy2",
                     ops=list(FUNC) + ["broadcast_to", "broadcast_shapes"], dtypes=bb.NAMES,
                     # no max_rank: TensorFlow documents none for these ops (TensorShape's own
                     # limit, 254 dims, is above every case)
                     max_rank=0, flags=("strided", "inplace"), grad_ops=GRAD_OPS)
    bb.serve(hello, run)


if __name__ == "__main__":
    main()
