"""jax_bridge.py - jax.numpy on the CPU, 64-bit types enabled, behind the pipe protocol (targets/registry.tsv: jax).

Every op is jax.numpy's own function, with JAX's broadcasting, type promotion
and errors; gradients are jax.vjp's. JAX has no strided views and its arrays
are immutable, so the bridge translates the protocol's (shape, strides,
offset, data) operand into what a JAX user would hold: NumPy builds the view
over a private copy of the sent span (as_strided) and jnp.asarray copies its
values into a JAX array. Above NumPy's 64 dims, size-1 dims are left out of
the NumPy view and put back by JAX's own reshape, so that such an operand
still reaches JAX (size-1 dims address nothing). No in-place or out=
capability is declared: jnp functions take no out= ("The out argument ... is
not supported", NotImplementedError) and JAX's documented substitute,
x.at[idx].set(y), returns a new array and never writes into x
(targets/pipe/FINDINGS-jax.md). 0-d operands are 0-d JAX arrays of their
dtype (strongly typed), not Python scalars. JAX's exceptions are mapped to
the fixed classes by their text (RULES); nothing is checked, emulated or
fixed here.
"""

import os
import re
import sys
import warnings

os.environ.setdefault("JAX_PLATFORMS", "cpu")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bcast_bridge as bb  # noqa: E402

try:
    import numpy as np
    import jax
    import jax.numpy as jnp
except ImportError as exc:
    bb.fail("jax is not importable: %s" % exc)

NP_DTYPE = {"bool": np.bool_, "i8": np.int8, "u8": np.uint8, "i16": np.int16, "i32": np.int32,
            "i64": np.int64, "f32": np.float32, "f64": np.float64}
NP_NAME = {np.dtype(v): k for k, v in NP_DTYPE.items()}
NP_MAXDIMS = 64  # NumPy 2's limit on an ndarray's dims (NPY_MAXDIMS): only the bridge's NumPy side has it
FUNC = {
    "add": jnp.add, "sub": jnp.subtract, "mul": jnp.multiply, "div": jnp.true_divide,
    "floor_divide": jnp.floor_divide, "remainder": jnp.remainder, "pow": jnp.power,
    "maximum": jnp.maximum, "minimum": jnp.minimum,
    "eq": jnp.equal, "ne": jnp.not_equal, "lt": jnp.less, "le": jnp.less_equal,
    "gt": jnp.greater, "ge": jnp.greater_equal,
    "logical_and": jnp.logical_and, "logical_or": jnp.logical_or, "logical_xor": jnp.logical_xor,
    "bitwise_and": jnp.bitwise_and, "bitwise_or": jnp.bitwise_or, "bitwise_xor": jnp.bitwise_xor,
    "matmul": jnp.matmul, "where": jnp.where,
    # issue #25 (docs/semantics.md B38-B41, B43), value mode only: jax.numpy's functions of
    # NumPy's names (the 17 numpy-bridge claims). Not claimed: div_trunc, div_floor, lerp,
    # addcmul, addcdiv (torch's; jax.numpy has none), prelu (jax.nn has none; leaky_relu's slope
    # broadcasts both ways), gemm_bias (targets/pipe/FINDINGS-jax.md, "Issue #25 ops").
    "copysign": jnp.copysign, "atan2": jnp.arctan2, "hypot": jnp.hypot, "fmod": jnp.fmod,
    "heaviside": jnp.heaviside, "logaddexp": jnp.logaddexp, "logaddexp2": jnp.logaddexp2,
    "nextafter": jnp.nextafter, "ldexp": jnp.ldexp, "gcd": jnp.gcd, "lcm": jnp.lcm,
    "left_shift": jnp.left_shift, "right_shift": jnp.right_shift, "float_power": jnp.float_power,
    "fmax": jnp.fmax, "fmin": jnp.fmin, "clip": jnp.clip,
}
# The ops whose gradient this bridge returns (docs/semantics.md B23-B31); JAX has no expand.
GRAD_OPS = ("add", "sub", "mul", "div", "pow", "maximum", "minimum", "where", "matmul", "broadcast_to")

# JAX's (and XLA's) exception texts -> class; first match wins; unknown texts are `other`.
RULES = [(re.compile(rx), cls) for rx, cls in [
    (r"^Incompatible shapes for broadcasting", "not-broadcastable"),
    (r"^\w+ got incompatible shapes for broadcasting", "not-broadcastable"),
    (r"^Incompatible types for broadcasting: input type=\S+ and requested type=\S*-", "invalid-shape"),
    (r"^Incompatible types for broadcasting", "not-broadcastable"),
    (r"^Cannot broadcast to shape with fewer dimensions", "invalid-shape"),
    (r"^Only non-negative indices are allowed when broadcasting static shapes", "invalid-shape"),
    (r"negative dimensions are not allowed", "invalid-shape"),
    (r"^broadcast_in_dim shape must have every element be nonnegative", "invalid-shape"),
    (r"^matmul input operand \d+ must have ndim at least 1", "matmul-core"),
    (r"^dot_general requires contracting dimensions to have the same shape", "matmul-core"),
    (r"^Incompatible types for matmul arguments", "matmul-core"),
    (r"does not accept dtype \w+ at position \d+", "dtype"),
    (r"^Arguments to jax\.numpy\.\w+ must be integers", "dtype"),   # jnp.gcd / jnp.lcm of floats
    (r"^array is too big", "overflow"),
    (r"overflow in static extent product", "overflow"),
    (r"^grad requires real- or complex-valued inputs", "dtype"),
]]


def classify(exc):
    """(class, message) by the exception's first line alone; `other` when no rule matches."""
    msg = bb.one_line(exc) or type(exc).__name__
    for rx, cls in RULES:
        if rx.search(msg):
            return cls, msg
    return "other", "%s: %s" % (type(exc).__name__, msg)


def operand(arg):
    """The case's view as a JAX array: NumPy's as_strided over a private copy
    of the span, copied by jnp.asarray (the bridge's translation: JAX has no
    views). Above NumPy's 64 dims the view is built without its size-1 dims
    (they address nothing) and JAX's own reshape restores the case's shape."""
    storage = np.frombuffer(bytearray(arg.data), dtype=NP_DTYPE[arg.dtype])
    item = storage.itemsize
    big = len(arg.shape) > NP_MAXDIMS
    if big and any(n == 0 for n in arg.shape):
        dense = np.empty((0,), dtype=storage.dtype)
    else:
        kept = [(n, s) for n, s in zip(arg.shape, arg.strides) if n != 1 or not big]
        dense = np.lib.stride_tricks.as_strided(
            storage[arg.offset:], shape=tuple(n for n, _ in kept),
            strides=tuple(s * item for _, s in kept), writeable=False)
    x = jnp.asarray(dense)
    return jnp.reshape(x, arg.shape) if big else x


def array_bytes(a):
    """a's values in C order, little-endian; above NumPy's 64 dims flattened
    by JAX first, so that such a result can be read."""
    if a.size == 0:
        return b""
    flat = np.asarray(jnp.reshape(a, (-1,)) if a.ndim > NP_MAXDIMS else a)
    return np.ascontiguousarray(flat).astype(flat.dtype.newbyteorder("<")).tobytes()


def dtype_name(a):
    return NP_NAME.get(np.dtype(a.dtype), str(a.dtype))


def result(a):
    return bb.reply_ok(dtype_name(a), tuple(a.shape), array_bytes(a))


def call(op, xs, target):
    """jax.numpy's own function for op."""
    if op in FUNC:
        return FUNC[op](*xs)
    if op == "broadcast_to":
        return jnp.broadcast_to(xs[0], target)
    return jnp.broadcast_shapes(*xs)


def run_grad(case):
    """Grad mode: jax.vjp itself. The f32/f64 inputs (not where's cond) are the
    primals; the others are constants closed over by the function (B31: JAX
    differentiates floating inputs only; with none, jax.vjp has no primal and
    the bridge answers dtype, as jax.grad's TypeError would). The incoming
    gradient is the cotangent, passed as sent; the vjp's results are returned
    as JAX computed them. The pullback runs under jax.jit (one XLA compile per
    case instead of one per primitive: 0.44 s against 0.80 s a case, measured)."""
    op, args = case.op, case.args
    try:
        xs = [operand(a) for a in args[:-1]]
        diff = [i for i, a in enumerate(args[:-1]) if a.dtype in ("f32", "f64") and not (op == "where" and i == 0)]
        if not diff:
            fwd = call(op, xs, case.target or ())  # the forward error, if any, comes first
            return bb.reply_error("dtype", "jax: no floating-point input to differentiate (%s)" % dtype_name(fwd))

        def f(*primals):
            ys = list(xs)
            for i, p in zip(diff, primals):
                ys[i] = p
            return call(op, ys, case.target or ())

        def pull(cotangent, *primals):
            return jax.vjp(f, *primals)[1](cotangent)

        grads = jax.jit(pull)(operand(args[-1]), *[xs[i] for i in diff])
        return bb.reply_grads([(i, dtype_name(g), tuple(g.shape), array_bytes(g)) for i, g in zip(diff, grads)])
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        return bb.reply_error(*classify(exc))


def run(case):
    if case.mode == "grad":
        return run_grad(case)
    try:
        xs = [a.shape if a.dtype == "-" else operand(a) for a in case.args]
        r = call(case.op, xs, case.target or ())
        if case.op == "broadcast_shapes":
            return bb.reply_shape(tuple(r))
        return result(r)
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        return bb.reply_error(*classify(exc))


def main():
    warnings.simplefilter("ignore")
    jax.config.update("jax_enable_x64", True)
    hello = bb.Hello("jax.numpy", jax.__version__, "numpy2",
                     ops=list(FUNC) + ["broadcast_to", "broadcast_shapes"],
                     dtypes=bb.NAMES, max_rank=0, flags=("strided",), grad_ops=GRAD_OPS)
    bb.serve(hello, run)


if __name__ == "__main__":
    main()
