"""paddle_bridge.py - PaddlePaddle (CPU) behind the pipe protocol (targets/registry.tsv: paddle).

Each operand is built the way a Paddle user builds a tensor from host data:
the case's view is taken with NumPy (np.lib.stride_tricks.as_strided over a
private copy of the sent bytes) and handed to paddle.to_tensor, which copies
it into a dense Paddle tensor. That is a translation, said so in
targets/pipe/paddle/FINDINGS.md: Paddle sees the view's values, never its
strides, so a self that overlaps itself (B9) reaches Paddle as a dense copy.
The op is Paddle's own public function (OPS below; the mapping is in
FINDINGS.md), in-place is Paddle's own method `x.<name>_(y)` (add_,
subtract_, ...; an op without one raises AttributeError, answered as
`other`), out= is the function's own `out=` keyword, gradients come from
paddle.grad. Paddle's exceptions are mapped to the fixed classes by their
first line with targets/pipe/paddle/paddle_errors.tsv; nothing is checked,
emulated or fixed here.
"""

import os
import re
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bcast_bridge as bb  # noqa: E402

# Paddle logs one glog WARNING per mixed-dtype call ("Got different data type,
# run type promotion automatically") and warns once that ccache is missing;
# both would flood stderr. glog level 2 drops INFO (0) and WARNING (1), keeps ERROR (2) and FATAL (3).
os.environ.setdefault("GLOG_minloglevel", "2")
os.environ.setdefault("OMP_NUM_THREADS", "1")
warnings.filterwarnings("ignore", message="No ccache found")

try:
    import numpy as np
    import paddle
except ImportError as exc:
    bb.fail("paddle is not importable: %s" % exc)

NP_DTYPE = {"bool": np.bool_, "i8": np.int8, "u8": np.uint8, "i16": np.int16, "i32": np.int32,
            "i64": np.int64, "f32": np.float32, "f64": np.float64}
PADDLE_NAME = {"bool": "bool", "int8": "i8", "uint8": "u8", "int16": "i16", "int32": "i32",
               "int64": "i64", "float32": "f32", "float64": "f64"}
# bcast op -> Paddle's public function of that name (paddle.<name>); in-place
# is the Tensor method <name>_ where Paddle has one.
OPS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "div": "divide",
    "floor_divide": "floor_divide", "remainder": "remainder", "pow": "pow",
    "maximum": "maximum", "minimum": "minimum",
    "eq": "equal", "ne": "not_equal", "lt": "less_than", "le": "less_equal",
    "gt": "greater_than", "ge": "greater_equal",
    "logical_and": "logical_and", "logical_or": "logical_or", "logical_xor": "logical_xor",
    "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor",
    "matmul": "matmul", "where": "where",
    # issue #25 (docs/semantics.md B38-B44), value mode only: Paddle's functions of the same
    # semantics. Not claimed (targets/pipe/paddle/FINDINGS.md, "Issue #25 ops"): fmod (paddle.mod
    # and remainder are floor modulo, Python's %), clip (its min/max must be numbers or 0-D tensors),
    # prelu (weight is per channel of dim 1, not ONNX's one-way broadcast), logaddexp2, float_power,
    # addcmul, addcdiv (Paddle 3.3.1 has none).
    "copysign": "copysign", "atan2": "atan2", "hypot": "hypot", "logaddexp": "logaddexp",
    "nextafter": "nextafter", "ldexp": "ldexp", "gcd": "gcd", "lcm": "lcm",
    "left_shift": "bitwise_left_shift", "right_shift": "bitwise_right_shift",
    "fmax": "fmax", "fmin": "fmin", "heaviside": "heaviside", "lerp": "lerp",
}
# div_trunc/div_floor: paddle.divide's rounding_mode (as torch.div's, B42).
ROUNDING = {"div_trunc": "trunc", "div_floor": "floor"}
# The ops whose gradient this bridge asks paddle.grad for (docs/semantics.md B23-B31).
GRAD_OPS = ("add", "sub", "mul", "div", "pow", "maximum", "minimum", "where", "matmul", "broadcast_to", "expand")
ERRORS_TSV = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "paddle", "paddle_errors.tsv")


def load_rules(path):
    """[(compiled regex, class)] from a CLASS <tab> REGEX table (# comments)."""
    rules = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                cls, rx = line.split("\t")
                rules.append((re.compile(rx), cls))
    return rules


try:
    RULES = load_rules(ERRORS_TSV)
except (OSError, ValueError, re.error) as exc:
    bb.fail("cannot read the Paddle message table %s: %s" % (ERRORS_TSV, exc))


def classify(exc):
    """(class, message) by the exception's first line alone; `other` when no rule matches."""
    msg = bb.one_line(exc) or type(exc).__name__
    for rx, cls in RULES:
        if rx.search(msg):
            return cls, msg
    return "other", "%s: %s" % (type(exc).__name__, msg)


def host_view(arg):
    """The case's view over a private copy of the sent span, as NumPy sees it."""
    dt = NP_DTYPE[arg.dtype]
    storage = np.frombuffer(bytearray(arg.data), dtype=dt)
    size = np.dtype(dt).itemsize
    if any(n == 0 for n in arg.shape):
        return np.zeros(arg.shape, dtype=dt)
    return np.lib.stride_tricks.as_strided(storage[arg.offset:], arg.shape, [s * size for s in arg.strides])


def tensor(arg, grad=False):
    """paddle.to_tensor of the view (a dense Paddle copy of its values)."""
    # np.array, not np.ascontiguousarray: the latter turns a 0-d view into shape (1,)
    return paddle.to_tensor(np.array(host_view(arg), order="C"), stop_gradient=not grad)


def dtype_name(t):
    name = str(t.dtype).replace("paddle.", "")
    return PADDLE_NAME.get(name, name)


def tensor_bytes(t):
    """t's values in C order."""
    if t.size == 0:
        return b""
    return np.array(t.numpy(), order="C").tobytes()


def result(t):
    return bb.reply_ok(dtype_name(t), tuple(t.shape), tensor_bytes(t))


def call(case, ts, **kw):
    """Paddle's own function for the case's op."""
    op, target = case.op, list(case.target or ())
    if op in OPS:
        return getattr(paddle, OPS[op])(*ts, **kw)
    if op in ROUNDING:
        return paddle.divide(*ts, rounding_mode=ROUNDING[op])
    if op == "broadcast_to":
        return paddle.broadcast_to(ts[0], target)
    if op == "expand":
        return paddle.expand(ts[0], target)
    if op == "axis_add":
        # the seed's elementwise_add(x, y, axis) is gone (FINDINGS.md, "Legacy axis");
        # its successor paddle.add is asked with the legacy keyword, and answers for itself
        return paddle.add(*ts, axis=case.axis)
    return paddle.broadcast_shapes(*ts)


def write_call(case, ts, wi):
    """In-place (Paddle's x.<name>_(y)) or out= (the function's out=) into
    ts[wi]. B22: a call that raised after changing it is answered with
    `wrote` (its contents) before the error; one that changed its shape or
    dtype (Paddle's out= can retype out) cannot be, and is the error alone."""
    w, arg = ts[wi], case.args[wi]
    before = tensor_bytes(w)
    try:
        if case.mode == "inplace":
            getattr(w, OPS[case.op] + "_")(ts[1])
        else:
            call(case, ts[:-1], out=w)
    except Exception:
        exc = sys.exc_info()[1]
        if tuple(w.shape) == arg.shape and dtype_name(w) == arg.dtype and tensor_bytes(w) != before:
            return bb.reply_wrote(arg.dtype, arg.shape, tensor_bytes(w)) + bb.reply_error(*classify(exc))
        raise
    return result(w)


def grad_forward(case, ts):
    """The forward call in the case's call form (B46): the op; Paddle's own
    in-place method on a clone of self (`grad-inplace`: a non-leaf copy, as
    Paddle refuses in-place on a leaf that needs a gradient); or the op's own
    out= keyword into a plain tensor (`grad-out`). Paddle answers for itself."""
    if case.mode == "grad-inplace":
        s = ts[0].clone()
        getattr(s, OPS[case.op] + "_")(ts[1])
        return s
    if case.mode == "grad-out":
        o = ts[2]
        call(case, ts[:2], out=o)
        return o
    return call(case, ts)


def run_grad(case):
    """Grad mode: paddle.grad itself. The floating-point inputs (not where's
    cond) are tensors with stop_gradient=False, the others constants; the op
    runs, and paddle.grad(result, those inputs, the incoming gradient)
    returns one gradient per input, replied as Paddle computed it. With no
    floating-point input the list is empty and Paddle answers for itself."""
    op, args = case.op, case.args
    try:
        if op not in GRAD_OPS:
            return bb.reply_error("other", "paddle: no gradient of %s here" % op)
        ts, leaves = [], []
        for i, a in enumerate(args[:-1]):
            diff = a.dtype in ("f32", "f64") and not (op == "where" and i == 0) and \
                not (case.mode == "grad-out" and i == 2)   # B46: out= is a plain tensor
            ts.append(tensor(a, grad=diff))
            if diff:
                leaves.append(i)
        r = grad_forward(case, ts)
        grads = paddle.grad([r], [ts[i] for i in leaves], grad_outputs=[tensor(args[-1])])
        out = [(k, dtype_name(g), tuple(g.shape), tensor_bytes(g)) for k, g in zip(leaves, grads) if g is not None]
        return bb.reply_grads(out)
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        return bb.reply_error(*classify(exc))


def run(case):
    mode, args = case.mode, case.args
    if mode in ("grad", "grad-inplace", "grad-out"):
        return run_grad(case)
    try:
        ts = [a.shape if a.dtype == "-" else tensor(a) for a in args]
        if mode in ("inplace", "out"):
            return write_call(case, ts, 0 if mode == "inplace" else len(args) - 1)
        r = call(case, ts)
        if case.op == "broadcast_shapes":
            return bb.reply_shape(tuple(r))
        return result(r)
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        return bb.reply_error(*classify(exc))


def main():
    paddle.set_device("cpu")
    hello = bb.Hello("paddle", paddle.__version__, "torch2",
                     ops=list(OPS) + list(ROUNDING) + ["broadcast_to", "expand", "broadcast_shapes", "axis_add"],
                     dtypes=bb.NAMES, max_rank=0, flags=("strided", "inplace", "out", "gradforms"),
                     grad_ops=GRAD_OPS)
    bb.serve(hello, run)


if __name__ == "__main__":
    main()
