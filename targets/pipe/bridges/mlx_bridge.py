"""mlx_bridge.py - Apple's MLX (mlx.core, its Linux CPU build) behind the pipe protocol (targets/registry.tsv: mlx).

Each operand is built in two steps, both translation: NumPy's as_strided view
of the sent bytes (the case's strides, negative ones included), then
mx.array(view, dtype=...) -- MLX's constructor copies it into an MLX-owned
dense array; MLX has no public way to wrap foreign strided memory. The dtype
is passed explicitly because mx.array turns a NumPy float64 array into
float32 unless told otherwise. The op is mlx.core's own function (OPS, the
mapping in targets/pipe/mlx/FINDINGS.md), with MLX's broadcasting, type
promotion and errors. MLX arrays are lazy: mx.eval runs the graph inside the
same try as the call, so an error raised at evaluation is the case's answer.
Gradients are mlx.core.vjp of the same function with respect to every input
but where's cond, with the incoming gradient as the cotangent. MLX arrays are immutable (no in-place, no out=): neither is
declared. MLX's messages are mapped to bcast's classes by MLX_RULES; nothing
is checked, emulated or fixed here.
"""

import os
import re
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bcast_bridge as bb  # noqa: E402

try:
    import mlx.core as mx
    import numpy as np
except ImportError as exc:
    bb.fail("mlx.core is not importable (it needs the mlx[cpu] extra on Linux): %s" % exc)

MX_DTYPE = {"bool": mx.bool_, "i8": mx.int8, "u8": mx.uint8, "i16": mx.int16, "i32": mx.int32,
            "i64": mx.int64, "f32": mx.float32, "f64": mx.float64}
MX_NAME = {v: k for k, v in MX_DTYPE.items()}
NP_DTYPE = {"bool": np.bool_, "i8": np.int8, "u8": np.uint8, "i16": np.int16, "i32": np.int32,
            "i64": np.int64, "f32": np.float32, "f64": np.float64}
OPS = {
    "add": mx.add, "sub": mx.subtract, "mul": mx.multiply, "div": mx.divide,
    "floor_divide": mx.floor_divide, "remainder": mx.remainder, "pow": mx.power,
    "maximum": mx.maximum, "minimum": mx.minimum,
    "eq": mx.equal, "ne": mx.not_equal, "lt": mx.less, "le": mx.less_equal,
    "gt": mx.greater, "ge": mx.greater_equal,
    "logical_and": mx.logical_and, "logical_or": mx.logical_or, "logical_xor": mx.logical_xor,
    "bitwise_and": mx.bitwise_and, "bitwise_or": mx.bitwise_or, "bitwise_xor": mx.bitwise_xor,
    "matmul": mx.matmul, "where": mx.where,
    # issue #25 (docs/semantics.md B38, B40, B42, B43), value mode only: mlx.core's functions of the
    # same semantics. div_floor is floor_divide (torch.floor_divide is div(rounding_mode='floor'), the
    # torch2 profile MLX declares). Not claimed (targets/pipe/mlx/FINDINGS.md, "Issue #25 ops"):
    # fmod (mx.remainder is floor modulo), prelu (mlx.nn.prelu broadcasts both ways, not ONNX's one
    # way); MLX 0.32.4 has no copysign, hypot, logaddexp2, nextafter, ldexp, gcd, lcm, float_power,
    # fmax, fmin, heaviside, div_trunc, lerp, addcmul, addcdiv.
    "atan2": mx.arctan2, "logaddexp": mx.logaddexp, "left_shift": mx.left_shift,
    "right_shift": mx.right_shift, "div_floor": mx.floor_divide, "clip": mx.clip,
}
# The ops whose gradient mlx.core.vjp gives here (docs/semantics.md B23-B31).
GRAD_OPS = ("add", "sub", "mul", "div", "pow", "maximum", "minimum", "where", "matmul", "broadcast_to")

# MLX's messages -> bcast's classes, by the text alone (first match wins); the
# message each rule was written from is beside it. Unknown texts are `other`.
MLX_RULES = [(re.compile(rx), cls) for rx, cls in [
    # "[broadcast_shapes] Shapes (2,3) and (4) cannot be broadcast."
    (r"^\[broadcast_shapes\] Shapes .* cannot be broadcast", "not-broadcastable"),
    # "Cannot broadcast array of shape (3) into shape (2,4)." (broadcast_to: the broadcast of
    # the two shapes is not the target; also said for a target of lower rank)
    (r"^Cannot broadcast array of shape", "not-broadcastable"),
    # "[broadcast_to] Negative dimensions not allowed."
    (r"Negative dimensions not allowed", "invalid-shape"),
    # "[matmul] Last dimension of first input with shape (2,3) must match second to last dimension ..."
    (r"^\[matmul\] Last dimension of first input", "matmul-core"),
    # "[matmul] Got 0 dimension input. Inputs must have at least one dimension."
    (r"^\[matmul\] Got 0 dimension input", "matmul-core"),
    # "[matmul] Only inexact types are supported but int32 and int32 were provided ..."
    (r"^\[matmul\] Only inexact types are supported", "dtype"),
    # "[bitwise_and] Only allowed on integer or boolean types but got types float32 and float32."
    (r"^\[\w+\] Only allowed on integer or boolean types", "dtype"),
    # "Integer value 1099511627776 is outside the supported range [-2147483648, 2147483647]."
    # (an extent past MLX's 32-bit shape elements)
    (r"^Integer value -?\d+ is outside the supported range", "overflow"),
    # "Shape dimension 4611686018427387904 is outside the supported range" (likewise)
    (r"^(\[\w+\] )?Shape dimension -?\d+ is outside the supported range", "overflow"),
]]


def classify(exc):
    """(class, message) by MLX's text; `other` (with the exception's type) when no rule matches."""
    msg = bb.one_line(exc) or type(exc).__name__
    for rx, cls in MLX_RULES:
        if rx.search(msg):
            return cls, msg
    return "other", "%s: %s" % (type(exc).__name__, msg)


def operand(arg):
    """The case's view as an MLX array of the arg's dtype: NumPy's as_strided
    view of a private copy of the sent span, given to mx.array, which copies
    it into an MLX-owned array. mx.array refuses negative strides ("Cannot
    convert DLPack arrays with negative strides"), so such a view is first
    copied to a fresh C-order array (the same values); NumPy holds at most 32
    dims and refuses some zero-size shapes MLX is to judge ("array is too
    big"), so a deeper or an empty view takes gathered().
    """
    storage = np.frombuffer(bytearray(arg.data), dtype=NP_DTYPE[arg.dtype])
    if len(arg.shape) > 32 or 0 in arg.shape:
        return gathered(storage, arg)
    item = storage.itemsize
    v = np.lib.stride_tricks.as_strided(storage[arg.offset:], shape=arg.shape,
                                        strides=tuple(s * item for s in arg.strides), writeable=False)
    if any(s < 0 for s in arg.strides):
        v = v.copy(order="C")
    return mx.array(v, dtype=MX_DTYPE[arg.dtype])


def gathered(storage, arg):
    """A view of more than 32 dims: its elements gathered in C order (offset +
    sum(index * stride)) into a flat mx.array, which MLX's reshape gives the
    view's shape."""
    n = 1
    for d in arg.shape:
        n *= d
    flat = np.arange(n, dtype=np.int64)
    index, inner = np.full(n, arg.offset, dtype=np.int64), 1
    for d, s in zip(reversed(arg.shape), reversed(arg.strides)):
        index += (flat // inner) % d * s
        inner *= d
    return mx.array(storage[index], dtype=MX_DTYPE[arg.dtype]).reshape(arg.shape)


def array_reply(r):
    """An evaluated MLX array as the protocol's `ok`: its dtype name, shape and C-order bytes."""
    name = MX_NAME.get(r.dtype, str(r.dtype).replace("mlx.core.", ""))
    if name not in NP_DTYPE:
        return bb.reply_ok(name, tuple(r.shape), b"")
    if r.nbytes != r.size * r.itemsize:   # MLX's byte count wrapped (FINDINGS.md): no result to send
        return bb.reply_error("other", "mlx returned an array of shape %s and %d elements holding %d bytes"
                              % (tuple(r.shape), r.size, r.nbytes))
    return bb.reply_ok(name, tuple(r.shape), c_bytes(r))


def c_bytes(r):
    """An evaluated MLX array's elements in C order, read through a flat
    reshape (NumPy cannot hold MLX's deeper arrays)."""
    return b"" if r.size == 0 else np.array(r.reshape(-1)).tobytes()


def call(op, xs, target):
    """mlx.core's own function for op on the MLX arrays xs."""
    if op in OPS:
        return OPS[op](*xs)
    if op == "broadcast_to":
        return mx.broadcast_to(xs[0], target)
    return None


def run_value(case):
    """Value mode: the op on MLX arrays, evaluated (mx.eval) inside the try."""
    try:
        if case.op == "broadcast_shapes":
            return bb.reply_shape(mx.broadcast_shapes(*[a.shape for a in case.args]))
        xs = [operand(a) for a in case.args]
        r = call(case.op, xs, case.target or ())
        mx.eval(r)
        return array_reply(r)
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        return bb.reply_error(*classify(exc))


def run_grad(case):
    """Grad mode: mlx.core.vjp of the op with respect to every input but
    where's cond (a selector, not a value), with the incoming gradient as the
    cotangent. MLX decides what an integer or bool input's gradient is (it
    returns one: FINDINGS.md); each vjp is returned with its dtype and shape."""
    try:
        xs = [operand(a) for a in case.args[:-1]]
        wrt = [k for k in range(len(xs)) if not (case.op == "where" and k == 0)]

        def f(*primals):
            ys = list(xs)
            for k, p in zip(wrt, primals):
                ys[k] = p
            return call(case.op, ys, case.target or ())

        _, vjps = mx.vjp(f, [xs[k] for k in wrt], [operand(case.args[-1])])
        mx.eval(vjps)
        out = []
        for k, g in zip(wrt, vjps):
            name = MX_NAME.get(g.dtype, str(g.dtype).replace("mlx.core.", ""))
            out.append((k, name, tuple(g.shape), c_bytes(g)))
        return bb.reply_grads(out)
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        return bb.reply_error(*classify(exc))


def run(case):
    return run_grad(case) if case.mode == "grad" else run_value(case)


def main():
    warnings.simplefilter("ignore")
    mx.set_default_device(mx.cpu)
    # torch2: MLX's promotion matches torch 2.15's (494 of 512 dtype pairs x 8 ops) more than NumPy's (440);
    # targets/pipe/mlx/FINDINGS.md, "Profile".
    hello = bb.Hello("mlx", mx.__version__, "torch2",
                     ops=list(OPS) + ["broadcast_to", "broadcast_shapes"],
                     dtypes=bb.NAMES,
                     # no max_rank: MLX documents none; flags: MLX arrays are immutable
                     # (no in-place, no out=); strided operands are copied (see above).
                     max_rank=0, flags=("strided",), grad_ops=GRAD_OPS)
    bb.serve(hello, run)


if __name__ == "__main__":
    main()
