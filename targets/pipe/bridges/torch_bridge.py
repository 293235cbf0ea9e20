"""torch_bridge.py - PyTorch itself behind the pipe protocol (targets/registry.tsv: torch-bridge).

Operands become torch.as_strided views over a private copy of the sent bytes;
out= is such a view too, over a torch-owned copy of out's span, so torch sees
out's real strides and may resize it as it does a user's tensor. torch has no
negative strides (torch.as_strided refuses them), so an operand, self or out
with a negative stride is passed as what a torch user would hold instead: a
contiguous tensor with the same logical values (a copy); for self and out the
bridge replies that tensor's values, and the pipe target writes them back
through the case's strides. In-place is torch's own self.op_(y); out= is
torch's out= argument. The reply for in-place and out= is the view's contents
in C order (docs/pipe-protocol.md), or, when a failed call changed them, a
`wrote` line before the error (B22). torch's exceptions are mapped to the
fixed classes by their text with targets/torch_errors.tsv, the table the
libtorch target uses too; nothing is checked, emulated or fixed here.
"""

import os
import re
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bcast_bridge as bb  # noqa: E402

try:
    import torch
except ImportError as exc:
    bb.fail("torch is not importable: %s" % exc)

TORCH_DTYPE = {"bool": torch.bool, "i8": torch.int8, "u8": torch.uint8, "i16": torch.int16,
               "i32": torch.int32, "i64": torch.int64, "f32": torch.float32, "f64": torch.float64}
TORCH_NAME = {v: k for k, v in TORCH_DTYPE.items()}
FUNC = {
    "add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.true_divide,
    "floor_divide": torch.floor_divide, "remainder": torch.remainder, "pow": torch.pow,
    "maximum": torch.maximum, "minimum": torch.minimum,
    "eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le, "gt": torch.gt, "ge": torch.ge,
    "logical_and": torch.logical_and, "logical_or": torch.logical_or, "logical_xor": torch.logical_xor,
    "bitwise_and": torch.bitwise_and, "bitwise_or": torch.bitwise_or, "bitwise_xor": torch.bitwise_xor,
    "matmul": torch.matmul,
    # issue #25 (docs/semantics.md B38-B44), value mode only: torch's own functions;
    # div_trunc/div_floor are torch.div's rounding modes, clip is torch.clamp.
    "copysign": torch.copysign, "atan2": torch.atan2, "hypot": torch.hypot, "fmod": torch.fmod,
    "heaviside": torch.heaviside, "logaddexp": torch.logaddexp, "logaddexp2": torch.logaddexp2,
    "nextafter": torch.nextafter, "ldexp": torch.ldexp, "gcd": torch.gcd, "lcm": torch.lcm,
    "left_shift": torch.bitwise_left_shift, "right_shift": torch.bitwise_right_shift,
    "float_power": torch.float_power, "fmax": torch.fmax, "fmin": torch.fmin,
    "div_trunc": lambda x, y, **kw: torch.div(x, y, rounding_mode="trunc", **kw),
    "div_floor": lambda x, y, **kw: torch.div(x, y, rounding_mode="floor", **kw),
    "clip": torch.clamp, "lerp": torch.lerp, "addcmul": torch.addcmul, "addcdiv": torch.addcdiv,
}
ERRORS_TSV = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "torch_errors.tsv")
# The ops whose gradient this bridge returns (docs/semantics.md B23-B31).
GRAD_OPS = ("add", "sub", "mul", "div", "pow", "maximum", "minimum", "where", "matmul", "broadcast_to", "expand")


def load_rules(path):
    """[(compiled regex, class)] from targets/torch_errors.tsv (CLASS <tab> REGEX lines)."""
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
    bb.fail("cannot read the torch message table %s: %s" % (ERRORS_TSV, exc))


def classify(exc):
    """(class, message) by the exception's first line alone; `other` when no rule matches."""
    msg = bb.one_line(exc) or type(exc).__name__
    for rx, cls in RULES:
        if rx.search(msg):
            return cls, msg
    return "other", "%s: %s" % (type(exc).__name__, msg)


def storage_of(arg, owned=False):
    """The sent span as a 1-d tensor: over a private bytearray, or torch-owned
    (resizable, as a user's tensor is) when owned."""
    if not arg.data:
        return torch.empty(0, dtype=TORCH_DTYPE[arg.dtype])
    s = torch.frombuffer(bytearray(arg.data), dtype=TORCH_DTYPE[arg.dtype])
    return s.clone() if owned else s


def view(arg, owned=False):
    """The case's view as torch holds it: as_strided over the storage, or, with
    a negative stride, a contiguous copy of the same logical values."""
    s = storage_of(arg, owned)
    neg = [d for d, st in enumerate(arg.strides) if st < 0]
    if not neg:
        return torch.as_strided(s, arg.shape, arg.strides, arg.offset)
    # the lowest address the view touches; an empty view touches none (its
    # negative strides could otherwise put the start before the storage)
    empty = any(n == 0 for n in arg.shape)
    start = 0 if empty else arg.offset + sum((n - 1) * st for n, st in zip(arg.shape, arg.strides) if st < 0)
    pos = torch.as_strided(s, arg.shape, tuple(abs(st) for st in arg.strides), start)
    return pos.flip(neg).contiguous()


def tensor_bytes(t):
    """t's values in C order. Through a clone: .numpy() on t itself would make
    t's storage unresizable, and torch may still resize an out= tensor. An
    empty t has no bytes: torch 1.13 cannot reshape an empty tensor whose
    other extents multiply past int64 ("Expected !is_symbolic()")."""
    if t.numel() == 0:
        return b""
    return t.detach().clone().reshape(-1).numpy().tobytes()


def result(t):
    name = TORCH_NAME.get(t.dtype, str(t.dtype).replace("torch.", ""))
    if any(d < 0 for d in t.shape):
        # torch 1.13 can return negative extents from expand; the protocol's
        # shapes cannot carry them (the libtorch target's alloc_output refuses them too).
        return bb.reply_error("other", "torch returned a tensor of shape %s" % (tuple(t.shape),))
    return bb.reply_ok(name, tuple(t.shape), tensor_bytes(t))


def call(op, args, target, **kw):
    """torch's own function for op."""
    if op in FUNC:
        return FUNC[op](*args, **kw)
    if op == "where":
        return torch.where(*args, **kw)
    if op == "broadcast_to":
        return torch.broadcast_to(args[0], target, **kw)
    if op == "expand":
        return args[0].expand(target, **kw)
    return torch.broadcast_shapes(*args, **kw)


def write_call(case, views, wi):
    """In-place (self.op_(y), torch's method) or out= (the function's out=)
    into the writable view views[wi]. B22: a call that raised after changing
    it is answered with `wrote` (its contents) before the error; one that
    resized out and then raised cannot be (`wrote` carries out's own shape)."""
    w, arg = views[wi], case.args[wi]
    before = tensor_bytes(w)
    try:
        if case.mode == "inplace":
            getattr(w, case.op + "_")(views[1])   # AttributeError where torch has none (maximum_)
        else:
            call(case.op, views[:-1], case.target, out=w)
    except Exception:
        exc = sys.exc_info()[1]
        if tuple(w.shape) == arg.shape and tensor_bytes(w) != before:
            return bb.reply_wrote(arg.dtype, arg.shape, tensor_bytes(w)) + bb.reply_error(*classify(exc))
        raise
    return result(w)


def grad_forward(case, views):
    """The forward call in the case's call form (B46): op(...); self.op_(other)
    on a non-leaf copy of self (`grad-inplace`: the leaf keeps self's
    original value, and torch's in-place autograd does the rest); or
    op(x, y, out=out) with out a plain tensor that never requires grad
    (`grad-out`: torch decides whether autograd allows it)."""
    if case.mode == "grad-inplace":
        s = views[0].clone()
        getattr(s, case.op + "_")(views[1])   # AttributeError where torch has none
        return s
    if case.mode == "grad-out":
        o = views[2].detach().clone()
        call(case.op, views[:2], case.target or (), out=o)
        return o
    return call(case.op, views, case.target or ())


def run_grad(case):
    """Grad mode: torch autograd itself. The floating-point inputs become
    leaves that require grad (integer and bool inputs, and where's cond, are
    constants: torch cannot require grad on them; out= never does), the op
    runs in the case's call form, and backward(the incoming gradient) fills
    each leaf's .grad, which is returned as torch computed it."""
    op, args = case.op, case.args
    try:
        views = []
        for i, a in enumerate(args[:-1]):
            v = view(a)
            if a.dtype in ("f32", "f64") and not (op == "where" and i == 0) and \
                    not (case.mode == "grad-out" and i == 2):
                v = v.detach().clone().requires_grad_(True)
            views.append(v)
        if op not in GRAD_OPS:
            return bb.reply_error("other", "torch: no gradient of %s here" % op)
        r = grad_forward(case, views)
        r.backward(view(args[-1]))
        out = []
        for k, v in enumerate(views):
            if v.requires_grad and v.grad is not None:
                name = TORCH_NAME.get(v.grad.dtype, str(v.grad.dtype).replace("torch.", ""))
                out.append((k, name, tuple(v.grad.shape), tensor_bytes(v.grad)))
        return bb.reply_grads(out)
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        return bb.reply_error(*classify(exc))


def run(case):
    op, mode, args = case.op, case.mode, case.args
    if mode in ("grad", "grad-inplace", "grad-out"):
        return run_grad(case)
    try:
        views = []
        for i, a in enumerate(args):
            if a.dtype == "-":
                views.append(a.shape)
            elif a.weak_value() is not None:
                views.append(a.weak_value())   # B34: a weak scalar is handed over as the Python scalar
            else:
                views.append(view(a, owned=(mode == "out" and i == len(args) - 1)))
        if mode in ("inplace", "out"):
            return write_call(case, views, 0 if mode == "inplace" else len(args) - 1)
        r = call(op, views, case.target or ())
        if op == "broadcast_shapes":
            return bb.reply_shape(tuple(r))
        return result(r)
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        return bb.reply_error(*classify(exc))


def main():
    warnings.simplefilter("ignore")
    torch.set_num_threads(1)
    hello = bb.Hello("torch", torch.__version__, "torch",
                     ops=list(FUNC) + ["where", "broadcast_to", "expand", "broadcast_shapes"],
                     dtypes=bb.NAMES, max_rank=0, flags=("strided", "inplace", "out", "weak", "gradforms"),
                     grad_ops=GRAD_OPS)
    bb.serve(hello, run)


if __name__ == "__main__":
    main()
