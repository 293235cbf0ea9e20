"""grad_oracles.py - the two oracles of grad mode (docs/semantics.md B23-B31).

torch: autograd as installed. Each floating-point input becomes a leaf that
requires grad, the op runs, and `result.backward(grad)` gives each leaf's
gradient. NumPy has no autodiff: its oracle is the derivative formula of
each op evaluated with NumPy (float64), times the incoming gradient, summed
explicitly over the stretched axes and reshaped to the operand's shape
(sum_to). Both return an Outcome: an error (classified like value mode's), or
kind "grads" holding one Grad per floating-point input.

The NumPy formulas are the plain textbook derivatives, evaluated with IEEE
arithmetic and no special cases (B26: pow at x = 0 gives what the formula
gives); maximum and minimum send the gradient to the operand np.maximum /
np.minimum returns (B27). torch's choices are its own (derivatives.yaml).
"""

import warnings

import numpy as np
import torch

from caseio import GenError, NP_DTYPE, Operand, Outcome
import oracles

FLOATS = ("f32", "f64")
# torch's refusal to differentiate when no input requires grad (B31), and the
# forward errors value mode already classifies.
NO_GRAD_MESSAGE = "element 0 of tensors does not require grad"
# B46: torch's refusal of autograd through out= (torch 1.13 and 2.15 alike).
OUT_AUTOGRAD_MESSAGE = "functions with out=... arguments don't support automatic differentiation"
FORMS = (None, "inplace", "out")   # B46: the call form differentiated (None: the value call)


class Grad:
    """One input's gradient: its name, dtype, shape and C-order array; abs_sum
    is the same sum taken over the terms' magnitudes (float64), from which the
    case's tolerance is set (NumPy oracle only)."""

    def __init__(self, name, dtype, array, abs_sum=None):
        self.name = name
        self.dtype = dtype
        shape = tuple(int(d) for d in np.shape(array))
        self.array = np.array(array, copy=True, order="C").reshape(shape)   # ascontiguousarray makes 0-d 1-d
        self.shape = shape
        self.abs_sum = abs_sum
        self.compute = dtype   # the dtype the terms were computed in


def differentiable(op, args):
    """Indices of the inputs that get a gradient (B31): floating-point ones;
    where's cond never."""
    return [i for i, a in enumerate(args) if a.dtype in FLOATS and not (op == "where" and i == 0)]


def _grads_outcome(grads):
    oc = Outcome("grads")
    oc.grads = grads
    return oc


# ---------------------------------------------------------------- torch

def _torch_forward(op, views, target, form):
    """The forward call in its form (B46): op(...), self.op_(other) on a
    non-leaf copy of self, or op(x, y, out=out) with out a plain tensor.
    Returns the tensor to call backward on."""
    if form == "inplace":
        if op not in oracles.TORCH_INPLACE:
            raise GenError("torch has no in-place %s" % op)
        s = views[0].clone()   # a non-leaf copy: the leaf keeps self's original value
        getattr(s, oracles.TORCH_INPLACE[op])(views[1])
        return s
    if form == "out":
        o = views[2].detach().clone(memory_format=torch.contiguous_format)   # a plain tensor, as value mode's out=
        oracles.TORCH_FUNC[op](views[0], views[1], out=o)
        return o
    if op in oracles.TORCH_FUNC:
        return oracles.TORCH_FUNC[op](*views)
    if op == "where":
        return torch.where(*views)
    if op == "broadcast_to":
        return torch.broadcast_to(views[0], target)
    if op == "expand":
        return views[0].expand(target)
    raise GenError("torch: no grad mode for op %s" % op)


def run_torch_grad(op, args, grad, attrs=(), form=None):
    """torch autograd: leaves for the floating-point inputs, op (in its call
    form, B46: out= never requires grad), backward(grad)."""
    diff = [i for i in differentiable(op, args) if not (form == "out" and i == 2)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        target = oracles.parse_target(attrs) if op in ("broadcast_to", "expand") else ()
        try:
            views = []
            for i, a in enumerate(args):
                _, v, _ = oracles.torch_view(a)
                if i in diff:
                    v = v.detach().clone().requires_grad_(True)   # a leaf holding the view's values
                views.append(v)
            _, g, _ = oracles.torch_view(grad)
            r = _torch_forward(op, views, target, form)
            r.backward(g)
        except GenError:
            raise
        except Exception as exc:  # noqa: BLE001 - every torch error is an answer
            msg = oracles.first_line(exc)
            if msg.startswith(NO_GRAD_MESSAGE):
                return Outcome("error", cls="dtype", message=msg)
            if OUT_AUTOGRAD_MESSAGE in msg:   # B46: no class of its own
                return Outcome("error", cls="other", message=msg)
            cls, msg = oracles.classify("torch", exc, negative_target=any(d < 0 for d in target))
            return Outcome("error", cls=cls, message=msg)
        out = []
        for i in diff:
            t = views[i].grad
            if t is None:
                raise GenError("torch gave no gradient for input %s" % args[i].name)
            name = oracles.TORCH_NAME.get(t.dtype)
            if name != args[i].dtype:
                raise GenError("torch's gradient of %s is %s, not its operand's %s" % (args[i].name, name, args[i].dtype))
            arr = np.empty(0, NP_DTYPE[name]) if 0 in t.shape else t.detach().contiguous().numpy()
            out.append(Grad(args[i].name, name, arr.reshape(tuple(t.shape))))
        return _grads_outcome(out)


# ---------------------------------------------------------------- NumPy

def sum_to(t, shape):
    """B23: t summed to shape: over the leading dims shape lacks and the dims
    where shape has 1 and t does not, then reshaped (torch's sum_to_size).
    An operand of the result's own shape takes the terms themselves (a -0
    stays -0); every real sum starts from +0, as np.sum's does."""
    lead = t.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape)
                                      if d == 1 and t.shape[lead + i] != 1)
    if not axes:
        return np.array(t).reshape(shape)
    return np.sum(t, axis=axes, keepdims=True).reshape(shape)


def _as(op_arg, dtype):
    _, v = oracles.np_view(op_arg)
    return np.asarray(v, dtype=dtype)


def local_terms(op, which, x, y, g, c=None):
    """B25-B28: g times the derivative of op's result with respect to input
    `which` (its argument index), elementwise at the result's shape, float64.
    Zeros are +0 (np.where, never g * 0)."""
    with np.errstate(all="ignore"):
        if op in ("add", "broadcast_to", "expand"):
            return np.broadcast_to(g, g.shape).copy()
        if op == "sub":
            return g.copy() if which == 0 else -g
        if op == "mul":
            return g * (y if which == 0 else x)
        if op == "div":
            return g / y if which == 0 else -g * x / y ** 2
        if op == "pow":
            return g * y * x ** (y - 1) if which == 0 else g * x ** y * np.log(x)
        if op in ("maximum", "minimum"):
            x_wins = np.isnan(x) | ((x > y) if op == "maximum" else (x < y))
            return np.where(x_wins if which == 0 else ~x_wins, g, 0.0)
        if op == "where":
            return np.where(c if which == 1 else ~c, g, 0.0)
    raise GenError("numpy: no derivative for op %s" % op)


def _matmul_grads(x, y, g, which):
    """B29: x @ y's gradients (B12: a 1-D x is (1,K), a 1-D y (K,1)), each
    summed over the batch dims its operand was stretched along. Returns
    (gradient, its magnitudes' sum) at the operand's shape, float64."""
    x2 = x[None, :] if x.ndim == 1 else x
    y2 = y[:, None] if y.ndim == 1 else y
    if x.ndim == 1 and y.ndim == 1:
        g2 = g.reshape(1, 1)
    elif x.ndim == 1:
        g2 = np.expand_dims(g, -2)
    elif y.ndim == 1:
        g2 = np.expand_dims(g, -1)
    else:
        g2 = g
    if which == 0:
        full = g2 @ np.swapaxes(y2, -1, -2)
        mag = np.abs(g2) @ np.swapaxes(np.abs(y2), -1, -2)
        target = x2.shape
    else:
        full = np.swapaxes(x2, -1, -2) @ g2
        mag = np.swapaxes(np.abs(x2), -1, -2) @ np.abs(g2)
        target = y2.shape
    shape = x.shape if which == 0 else y.shape
    return sum_to(full, target).reshape(shape), sum_to(mag, target).reshape(shape)


def _contiguous_copy(a):
    """A contiguous Operand holding a's values (B46: the form's self/out copy)."""
    _, v = oracles.np_view(a)
    return Operand(a.name, a.dtype, a.shape, None, 0, np.array(v, copy=True).reshape(-1))


def run_numpy_grad(op, args, grad, attrs=(), form=None):
    """The NumPy oracle: the forward op through NumPy (its errors are value
    mode's, B23; B46: in its call form, on a copy of self / out, whose errors
    come first), then each floating-point input's formula, summed to its
    shape. out= never gets a gradient (its old values do not reach the result)."""
    if form is not None:
        fargs = [_contiguous_copy(args[0]), args[1]] if form == "inplace" else \
            [args[0], args[1], _contiguous_copy(args[2])]
        ffwd = oracles.run_numpy(op, form, fargs, attrs)
        if ffwd.kind == "error":
            return ffwd
        held = args[0].dtype if form == "inplace" else args[2].dtype   # the dtype the result is held in
        args = list(args[:2])
    fwd = oracles.run_numpy(op, "value", args, attrs)
    if fwd.kind == "error":
        return fwd
    diff = differentiable(op, args)
    if not diff:
        return Outcome("error", cls="dtype", message="B31: no floating-point input, nothing to differentiate")
    out = []
    for i in diff:
        a = args[i]
        s = _formula(op, args, grad, i, NP_DTYPE[fwd.dtype], fwd.shape)   # in the result's dtype
        mag = _formula(op, args, grad, i, np.float64, fwd.shape, magnitudes=True)
        g = Grad(a.name, a.dtype, s.astype(NP_DTYPE[a.dtype]), mag)
        g.compute = fwd.dtype
        if form is not None and "f32" in (held, fwd.dtype):
            # B46: torch computes a gradient through the held result (pow_'s
            # exponent: result * log(self)) in self's / out's dtype
            g.compute = "f32"
        out.append(g)
    return _grads_outcome(out)


def _formula(op, args, grad, i, dtype, shape, magnitudes=False):
    """Input i's gradient by the formula, every value in dtype (the forward
    result's: NumPy computes the op in it); magnitudes: the sum of |terms|."""
    g = _as(grad, dtype)
    if tuple(g.shape) != tuple(shape):
        raise GenError("the incoming gradient %s is not the result's shape %s" % (g.shape, shape))
    # where's cond is read as NumPy reads it, cond != 0 in its own dtype (NaN is true, -0.0 false)
    vals = [oracles.np_view(a)[1].astype(bool) if a.dtype == "bool" or (op == "where" and k == 0)
            else _as(a, dtype) for k, a in enumerate(args)]
    with np.errstate(all="ignore"):
        if op == "matmul":
            s, mag = _matmul_grads(vals[0], vals[1], g, i)
            return mag if magnitudes else s
        if op == "where":
            c, x, y = vals
        else:
            c, x, y = None, vals[0], vals[1] if len(vals) > 1 else None
        if x is not None and y is not None:
            x, y = np.broadcast_arrays(x, y)
        t = np.broadcast_to(local_terms(op, i, x, y, g, c), g.shape)
        return sum_to(np.abs(t) if magnitudes else t, args[i].shape)
