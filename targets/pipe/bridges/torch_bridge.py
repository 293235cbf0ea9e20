"""torch_bridge.py - PyTorch itself behind the pipe protocol (targets/registry.tsv: torch-bridge).

Operands become torch.as_strided views over a private copy of the sent bytes.
torch has no negative strides, so such an operand is passed as what a torch
user would hold instead: the same logical values, positive strides (the
as_strided view with the negative dims flipped, which copies). In-place is
torch's own self.op_(y); out= is a plain contiguous tensor, which torch may
resize. torch's exceptions are mapped to the fixed classes by their text;
nothing is checked, emulated or fixed here.
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
}
# torch's in-place methods; torch 1.13 has no maximum_/minimum_.
INPLACE = {k: k + "_" for k in FUNC if k not in ("maximum", "minimum", "matmul")}
INPLACE.update(div="div_")

RULES = [(re.compile(rx), cls) for rx, cls in [
    (r"^The size of tensor a \(\d+\) must match the size of tensor b", "not-broadcastable"),
    (r"^Shape mismatch: objects cannot be broadcast to a single shape", "not-broadcastable"),
    (r"^output with shape \[.*\] doesn't match the broadcast shape", "inplace-shape"),
    (r"^unsupported operation: (some elements|more than one element)", "overlap"),
    (r"^The expanded size of the tensor \(-\d+\) must match the existing size", "invalid-shape"),
    (r"^The expanded size of the tensor \(\d+\) must match the existing size", "not-broadcastable"),
    (r"^The expanded size of the tensor \(-?\d+\) isn't allowed in a leading, non-existing dimension",
     "invalid-shape"),
    (r"^expand\(.*\): the number of sizes provided \(\d+\) must be greater or equal", "invalid-shape"),
    (r"^Trying to create tensor with negative dimension", "invalid-shape"),
    (r"^mat1 and mat2 shapes cannot be multiplied", "matmul-core"),
    (r"^both arguments to matmul need to be at least 1D", "matmul-core"),
    (r"^size mismatch, got", "matmul-core"),
    (r"^inconsistent tensor size, expected tensor", "matmul-core"),
    (r"^Expected size for first two dimensions of batch2 tensor", "matmul-core"),
    (r"^Storage size calculation overflowed", "overflow"),
    (r"^numel: integer multiplication overflow", "overflow"),
    (r"^ZeroDivisionError", "division-by-zero"),
    (r"not implemented for '\w+'", "dtype"),
    (r"^Subtraction, the `-` operator, with two bool tensors is not supported", "dtype"),
    (r"^result type \w+ can't be cast to the desired output type", "dtype"),
    (r"^expected scalar type \w+ but found \w+", "dtype"),
    (r"^expected (both vectors|m1 and m2) to have (the )?same dtype", "dtype"),
    (r"^where expected condition to be a boolean tensor", "dtype"),
    # grad mode: no input requires grad (B31: no floating-point input)
    (r"^element 0 of tensors does not require grad", "dtype"),
]]
# The ops whose gradient this bridge returns (docs/semantics.md B23-B31).
GRAD_OPS = ("add", "sub", "mul", "div", "pow", "maximum", "minimum", "where", "matmul", "broadcast_to", "expand")


def classify(exc, negative_target=False):
    msg = bb.one_line(exc) or type(exc).__name__
    for rx, cls in RULES:
        if rx.search(msg):
            # torch reports a negative expand/broadcast_to size as a numel
            # overflow; the fault is the negative size (B5/B6).
            if cls == "overflow" and negative_target:
                cls = "invalid-shape"
            return cls, msg
    return "other", "%s: %s" % (type(exc).__name__, msg)


def storage_of(arg):
    if not arg.data:
        return torch.empty(0, dtype=TORCH_DTYPE[arg.dtype])
    return torch.frombuffer(bytearray(arg.data), dtype=TORCH_DTYPE[arg.dtype])


def view(arg):
    """(storage, view) over a private copy of the sent span."""
    s = storage_of(arg)
    neg = [d for d, st in enumerate(arg.strides) if st < 0]
    if not neg:
        return s, torch.as_strided(s, arg.shape, arg.strides, arg.offset)
    start = arg.offset + sum((n - 1) * st for n, st in zip(arg.shape, arg.strides) if st < 0 and n > 0)
    pos = torch.as_strided(s, arg.shape, tuple(abs(st) for st in arg.strides), start)
    return s, pos.flip(neg).contiguous()


def tensor_bytes(t):
    return t.detach().contiguous().reshape(-1).numpy().tobytes()


def result(t):
    name = TORCH_NAME.get(t.dtype, str(t.dtype).replace("torch.", ""))
    if any(d < 0 for d in t.shape):   # torch 1.13 can return negative extents from expand
        return bb.reply_error("other", "torch returned a tensor of shape %s" % (tuple(t.shape),))
    return bb.reply_ok(name, tuple(t.shape), tensor_bytes(t))


def run_grad(case):
    """Grad mode: torch autograd itself. The floating-point inputs become
    leaves that require grad (integer and bool inputs, and where's cond, are
    constants: torch cannot require grad on them), the op runs, and
    backward(the incoming gradient) fills each leaf's .grad, which is
    returned as torch computed it."""
    op, args = case.op, case.args
    target = case.target or ()
    try:
        views = []
        for i, a in enumerate(args[:-1]):
            _, v = view(a)
            if a.dtype in ("f32", "f64") and not (op == "where" and i == 0):
                v = v.detach().clone().requires_grad_(True)
            views.append(v)
        _, g = view(args[-1])
        if op in FUNC:
            r = FUNC[op](*views)
        elif op == "where":
            r = torch.where(*views)
        elif op == "broadcast_to":
            r = torch.broadcast_to(views[0], target)
        elif op == "expand":
            r = views[0].expand(target)
        else:
            return bb.reply_error("other", "torch: no gradient of %s here" % op)
        r.backward(g)
        out = []
        for k, v in enumerate(views):
            if v.requires_grad and v.grad is not None:
                name = TORCH_NAME.get(v.grad.dtype, str(v.grad.dtype).replace("torch.", ""))
                out.append((k, name, tuple(v.grad.shape), tensor_bytes(v.grad)))
        return bb.reply_grads(out)
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        return bb.reply_error(*classify(exc, negative_target=any(d < 0 for d in target)))


def run(case):
    op, mode, args = case.op, case.mode, case.args
    if mode == "grad":
        return run_grad(case)
    target = case.target or ()
    storages, views = [], []
    try:
        for i, a in enumerate(args):
            if a.dtype == "-":
                storages.append(None)
                views.append(a.shape)
                continue
            if mode == "out" and i == len(args) - 1:
                _, v = view(a)
                v = v.contiguous().clone()   # a user's plain out tensor, which torch may resize
                s = v
            else:
                s, v = view(a)
            storages.append(s)
            views.append(v)
        if mode == "inplace":
            if op not in INPLACE:
                return bb.reply_error("other", "torch has no in-place %s" % op)
            before = storages[0].clone()
            try:
                getattr(views[0], INPLACE[op])(views[1])
            except Exception:
                if not torch.equal(before, storages[0]) and before.numpy().tobytes() != storages[0].numpy().tobytes():
                    v = views[0]
                    return bb.reply_wrote(args[0].dtype, tuple(v.shape), tensor_bytes(v)) + \
                        bb.reply_error(*classify(sys.exc_info()[1]))
                raise
            return result(views[0])
        if mode == "out":
            if op not in FUNC:
                return bb.reply_error("other", "torch.%s has no out=" % op)
            FUNC[op](*views[:-1], out=views[-1])
            return result(views[-1])
        if op in FUNC:
            return result(FUNC[op](*views))
        if op == "where":
            return result(torch.where(*views))
        if op == "broadcast_to":
            return result(torch.broadcast_to(views[0], target))
        if op == "expand":
            return result(views[0].expand(target))
        if op == "broadcast_shapes":
            return bb.reply_shape(tuple(torch.broadcast_shapes(*views)))
        return bb.reply_error("other", "torch has no %s" % op)
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        return bb.reply_error(*classify(exc, negative_target=any(d < 0 for d in target)))


def main():
    warnings.simplefilter("ignore")
    torch.set_num_threads(1)
    hello = bb.Hello("torch", torch.__version__, "torch",
                     ops=list(FUNC) + ["where", "broadcast_to", "expand", "broadcast_shapes"],
                     dtypes=bb.NAMES, max_rank=0, flags=("strided", "inplace", "out"), grad_ops=GRAD_OPS)
    bb.serve(hello, run)


if __name__ == "__main__":
    main()
