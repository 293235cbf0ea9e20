"""oracles.py - runs one case through NumPy and through torch, and classifies their errors.

Each oracle gets its own copy of every operand's storage, builds the strided
view the case describes, runs the op, and returns an Outcome: the result
(dtype, shape, values in C order) or the error class plus the exception's
first line. An exception no rule below recognises stops generation
(GenError): a new message must be looked at and classified by a person.
"""

import re
import warnings

import numpy as np
import torch

from caseio import NP_DTYPE, NP_NAME, GenError, Outcome, fmt_values

torch.set_num_threads(1)

# The oracles' names in comments the generators write ("NumPy 1.24", "torch
# 2.15"): make_cases.py runs under both generations' interpreters.
NUMPY_LABEL = "NumPy " + ".".join(np.__version__.split(".")[:2])
TORCH_LABEL = "torch " + ".".join(torch.__version__.split("+")[0].split(".")[:2])
NUMPY_MAJOR = int(np.__version__.split(".")[0])
TORCH_MAJOR = int(torch.__version__.split(".")[0])
# NumPy's most dimensions: 32 in 1.x, 64 in 2.x (B33).
NUMPY_MAXDIMS = 32 if NUMPY_MAJOR < 2 else 64

TORCH_DTYPE = {
    "bool": torch.bool, "i8": torch.int8, "u8": torch.uint8, "i16": torch.int16,
    "i32": torch.int32, "i64": torch.int64, "f32": torch.float32, "f64": torch.float64,
}
TORCH_NAME = {v: k for k, v in TORCH_DTYPE.items()}

NP_FUNC = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
    "floor_divide": np.floor_divide, "remainder": np.remainder, "pow": np.power,
    "maximum": np.maximum, "minimum": np.minimum,
    "eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
    "gt": np.greater, "ge": np.greater_equal,
    "logical_and": np.logical_and, "logical_or": np.logical_or, "logical_xor": np.logical_xor,
    "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
    "matmul": np.matmul,
    # Issue #25 (docs/semantics.md B38-B43): NumPy's own functions, value mode only.
    "copysign": np.copysign, "atan2": np.arctan2, "hypot": np.hypot, "fmod": np.fmod,
    "heaviside": np.heaviside, "logaddexp": np.logaddexp, "logaddexp2": np.logaddexp2,
    "nextafter": np.nextafter, "ldexp": np.ldexp, "gcd": np.gcd, "lcm": np.lcm,
    "left_shift": np.left_shift, "right_shift": np.right_shift, "float_power": np.float_power,
    "fmax": np.fmax, "fmin": np.fmin, "clip": np.clip,
}
TORCH_FUNC = {
    "add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.true_divide,
    "floor_divide": torch.floor_divide, "remainder": torch.remainder, "pow": torch.pow,
    "maximum": torch.maximum, "minimum": torch.minimum,
    "eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le, "gt": torch.gt, "ge": torch.ge,
    "logical_and": torch.logical_and, "logical_or": torch.logical_or,
    "logical_xor": torch.logical_xor,
    "bitwise_and": torch.bitwise_and, "bitwise_or": torch.bitwise_or,
    "bitwise_xor": torch.bitwise_xor,
    "matmul": torch.matmul,
    # Issue #25 (B38-B44): torch's own functions, value mode only; div_trunc and
    # div_floor are torch.div's rounding modes, clip is torch.clamp with tensor bounds.
    "copysign": torch.copysign, "atan2": torch.atan2, "hypot": torch.hypot, "fmod": torch.fmod,
    "heaviside": torch.heaviside, "logaddexp": torch.logaddexp, "logaddexp2": torch.logaddexp2,
    "nextafter": torch.nextafter, "ldexp": torch.ldexp, "gcd": torch.gcd, "lcm": torch.lcm,
    "left_shift": torch.bitwise_left_shift, "right_shift": torch.bitwise_right_shift,
    "float_power": torch.float_power, "fmax": torch.fmax, "fmin": torch.fmin,
    "div_trunc": lambda x, y, **kw: torch.div(x, y, rounding_mode="trunc", **kw),
    "div_floor": lambda x, y, **kw: torch.div(x, y, rounding_mode="floor", **kw),
    "clip": torch.clamp, "lerp": torch.lerp, "addcmul": torch.addcmul, "addcdiv": torch.addcdiv,
}
# torch's in-place methods (self.op_(y)); ops missing here (maximum, minimum)
# have no in-place form in torch 1.13.
TORCH_INPLACE = {
    "add": "add_", "sub": "sub_", "mul": "mul_", "div": "div_", "floor_divide": "floor_divide_",
    "remainder": "remainder_", "pow": "pow_", "eq": "eq_", "ne": "ne_", "lt": "lt_", "le": "le_",
    "gt": "gt_", "ge": "ge_", "logical_and": "logical_and_", "logical_or": "logical_or_",
    "logical_xor": "logical_xor_", "bitwise_and": "bitwise_and_", "bitwise_or": "bitwise_or_",
    "bitwise_xor": "bitwise_xor_",
}

# (library, exception type name or None for any, message regex, class).
# Order matters: the first match wins.
_RULES = [
    ("numpy", None, r"^operands could not be broadcast together", "not-broadcastable"),
    ("numpy", None, r"^shape mismatch: objects cannot be broadcast to a single shape", "not-broadcastable"),
    ("numpy", None, r"^non-broadcastable output operand with shape", "inplace-shape"),
    ("numpy", None, r"^output array is read-only", "overlap"),
    # broadcast_to to a target of lower rank than the source (B5).
    ("numpy", None, r"^input operand has more dimensions than allowed by the axis remapping", "invalid-shape"),
    ("numpy", None, r"^cannot broadcast a non-scalar to a scalar array", "invalid-shape"),
    ("numpy", None, r"^all elements of broadcast shape must be non-negative", "invalid-shape"),
    ("numpy", None, r"^negative dimensions are not allowed", "invalid-shape"),
    ("numpy", None, r"^matmul: Input operand \d+ has a mismatch in its core dimension", "matmul-core"),
    ("numpy", None, r"^matmul: Input operand \d+ does not have enough dimensions", "matmul-core"),
    # NumPy 1.x: 32 dims; NumPy 2.x: 64 dims (B33), but np.broadcast_shapes still 32.
    ("numpy", None, r"^maximum supported dimension for an ndarray is (currently )?(32|64)", "rank-limit"),
    ("numpy", None, r"^number of dimensions must be within \[0, (32|64)\]", "rank-limit"),
    ("numpy", None, r"^this function only supports up to 32 dimensions but the array has \d+", "rank-limit"),
    ("numpy", None, r"^broadcast dimensions too large", "overflow"),
    ("numpy", None, r"^array is too big", "overflow"),
    ("numpy", None, r"^iterator is too large", "overflow"),
    ("numpy", None, r"^numpy boolean subtract", "dtype"),
    ("numpy", None, r"^ufunc '\w+' not supported for the input types", "dtype"),
    ("numpy", None, r"^ufunc '\w+' did not contain a loop with signature matching types", "dtype"),
    ("numpy", None, r"^Cannot cast ufunc '\w+' output from", "dtype"),
    # Deliberate `other`: NumPy refuses integer ** negative integer as a value
    # error (torch computes it); no class of the fixed list fits better.
    ("numpy", "ValueError", r"^Integers to negative integer powers are not allowed", "other"),
    ("torch", None, r"^The size of tensor a \(\d+\) must match the size of tensor b", "not-broadcastable"),
    ("torch", None, r"^Shape mismatch: objects cannot be broadcast to a single shape", "not-broadcastable"),
    ("torch", None, r"^output with shape \[.*\] doesn't match the broadcast shape", "inplace-shape"),
    ("torch", None, r"^unsupported operation: (some elements|more than one element)", "overlap"),
    ("torch", None, r"^The expanded size of the tensor \(-\d+\) must match the existing size", "invalid-shape"),
    ("torch", None, r"^The expanded size of the tensor \(\d+\) must match the existing size", "not-broadcastable"),
    ("torch", None, r"^The expanded size of the tensor \(-?\d+\) isn't allowed in a leading, non-existing dimension", "invalid-shape"),
    ("torch", None, r"^expand\(.*\): the number of sizes provided \(\d+\) must be greater or equal", "invalid-shape"),
    ("torch", None, r"^Trying to create tensor with negative dimension", "invalid-shape"),
    ("torch", None, r"^(mm: )?mat1 and mat2 shapes cannot be multiplied", "matmul-core"),
    ("torch", None, r"^both arguments to matmul need to be at least 1D", "matmul-core"),
    ("torch", None, r"^size mismatch, got", "matmul-core"),
    ("torch", None, r"^inconsistent tensor size, expected tensor", "matmul-core"),
    ("torch", None, r"^Expected size for first two dimensions of batch2 tensor", "matmul-core"),
    ("torch", None, r"^Attempting to broadcast a dimension of length \d+ at -?\d+! Mismatching argument", "not-broadcastable"),
    ("torch", None, r"^(Storage size|Stride) calculation overflowed", "overflow"),
    ("torch", None, r"^numel: integer multiplication overflow", "overflow"),
    ("torch", None, r"^ZeroDivisionError", "division-by-zero"),
    ("torch", None, r"not implemented for '\w+'", "dtype"),
    ("torch", None, r"^Subtraction, the `-` operator, with two bool tensors is not supported", "dtype"),
    ("torch", None, r"^Subtraction, the `-` operator, with a bool tensor is not supported", "dtype"),
    ("torch", None, r"^result type \w+ can't be cast to the desired output type", "dtype"),
    ("torch", None, r"^expected scalar type \w+ but found \w+", "dtype"),
    ("torch", None, r"^expected (both vectors|m1 and m2) to have (the )?same dtype", "dtype"),
    ("torch", None, r"^dot : expected both vectors to have same dtype", "dtype"),
    ("torch", None, r"^addmv input tensors must have the same dtype", "dtype"),   # torch 2: an empty mixed mv
    ("torch", None, r"^where expected condition to be a boolean tensor", "dtype"),
    ("torch", None, r"^Integers to negative integer powers are not allowed", "other"),
    # B34, weak scalars: NumPy 2 refuses a Python int outside the array's
    # integer dtype (NEP 50); torch.where refuses a scalar its result dtype
    # cannot hold. Both are a value too large for its type: overflow.
    ("numpy", "OverflowError", r"^Python integer -?\d+ out of bounds for \w+", "overflow"),
    ("torch", None, r"^value cannot be converted to type \w+ without overflow", "overflow"),
    # B34: torch functions without a Scalar overload (maximum, minimum, the
    # logical ops) refuse a Python number as an argument: a TypeError of the
    # Python binding, no class of the fixed list fits better than `other`.
    ("torch", "TypeError", r"^\w+\(\): argument '\w+' \(position \d+\) must be Tensor, not \w+", "other"),
    ("torch", "TypeError", r"^\w+\(\) received an invalid combination of arguments", "other"),
]
_COMPILED = [(lib, t, re.compile(rx), cls) for lib, t, rx, cls in _RULES]


def first_line(exc):
    """The exception's first line, whitespace runs collapsed (the format separates by single spaces)."""
    text = str(exc).strip().splitlines()
    line = text[0] if text else type(exc).__name__
    return " ".join(line.split())


def classify(lib, exc, negative_target=False):
    """Maps an exception to (class, message). Unknown exceptions are a GenError.

    negative_target: the op's target shape holds a negative entry. torch
    computes numel with it and reports "numel: integer multiplication
    overflow"; the real fault is the negative size (B5/B6: invalid-shape)."""
    msg = first_line(exc)
    tname = type(exc).__name__
    for rlib, rtype, rx, cls in _COMPILED:
        if rlib == lib and (rtype is None or rtype == tname) and rx.search(msg):
            if cls == "overflow" and negative_target:
                cls = "invalid-shape"
            return cls, msg
    raise GenError("unclassified %s exception %s: %s" % (lib, tname, msg))


# ---------------------------------------------------------------- operands

def np_view(op, readonly=False):
    """A fresh copy of op's storage viewed with op's shape/strides/offset."""
    storage = np.array(op.storage, dtype=NP_DTYPE[op.dtype], copy=True)
    item = storage.itemsize
    base = storage[op.offset:] if op.offset < len(storage) else storage[len(storage):]
    view = np.lib.stride_tricks.as_strided(
        base, shape=op.shape, strides=tuple(s * item for s in op.strides),
        writeable=not readonly)
    return storage, view


def has_internal_overlap(op):
    """B9: some element is reachable through two indices (a stride-0 dim of extent > 1)."""
    return any(s == 0 and d > 1 for d, s in zip(op.shape, op.strides))


def torch_view(op):
    """(storage tensor, view tensor, materialised). torch has no negative
    strides: such a view is given to torch as a contiguous copy of the same
    logical values (materialised=True)."""
    storage = torch.from_numpy(np.array(op.storage, dtype=NP_DTYPE[op.dtype], copy=True))
    if any(s < 0 for s in op.strides):
        _, v = np_view(op)
        flat = np.array(v).reshape(-1).copy()  # fresh positive strides, whatever numpy keeps for extent-1 dims
        return storage, torch.from_numpy(flat).reshape(op.shape), True
    view = torch.as_strided(storage, op.shape, op.strides, op.offset)
    return storage, view, False


class Unrepresentable(GenError):
    """The oracle's result dtype is none of the format's 8 (e.g. NumPy's
    value-based u8 + 0-d 300 -> u16): the case cannot be written."""


def np_outcome(arr, raw=False):
    """The Outcome of a NumPy result: its values as tokens, or (raw) the array itself."""
    arr = np.asarray(arr)
    name = NP_NAME.get(arr.dtype)
    if name is None:
        raise Unrepresentable("numpy produced dtype %s outside the 8 dtypes" % arr.dtype)
    if raw:
        return Outcome("ok", name, arr.shape, array=np.ascontiguousarray(arr).copy())
    return Outcome("ok", name, arr.shape, fmt_values(np.ascontiguousarray(arr).reshape(-1), name))


class TorchInvalid(GenError):
    """torch returned something that is not a valid result (a negative extent)."""


def torch_outcome(t, raw=False):
    """The Outcome of a torch result: its values as tokens, or (raw) a NumPy copy."""
    if any(d < 0 for d in t.shape):
        # torch 1.13: zeros(0).expand(-3, 0) "succeeds" with shape (-3, 0).
        raise TorchInvalid("torch returned a tensor of shape %s" % (tuple(t.shape),))
    name = TORCH_NAME.get(t.dtype)
    if name is None:
        raise Unrepresentable("torch produced dtype %s outside the 8 dtypes" % t.dtype)
    # Flatten in torch: NumPy cannot hold more than 32 dimensions. An empty
    # result is not reshaped: torch 1.13's reshape(-1) multiplies the other
    # extents in int64 and trips an internal assertion ("Expected
    # !is_symbolic()") when they overflow, e.g. for shape (2^31, 2^32, 0).
    if 0 in t.shape:
        arr = np.empty(0, dtype=NP_DTYPE[name])
    else:
        arr = t.detach().contiguous().reshape(-1).numpy()
    if raw:
        return Outcome("ok", name, tuple(t.shape), array=arr.copy().reshape(tuple(t.shape)))
    return Outcome("ok", name, tuple(t.shape), fmt_values(arr, name))


def parse_target(attrs):
    for k, v in attrs:
        if k == "shape":
            return tuple(int(d) for d in v.strip("()").split(",") if d != "")
    raise GenError("missing attr shape")


# ---------------------------------------------------------------- numpy

def run_numpy(op, mode, args, attrs=(), raw=False):
    """Runs the case through NumPy 1.24. Returns an Outcome (raw: holding the result array)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        storages, views = [], []
        self_before = out_before = None
        try:
            for i, a in enumerate(args):
                if a.dtype == "-" or a.weak_value() is not None:
                    storages.append(None)   # B34: a weak scalar is passed as the Python scalar
                    views.append(a.shape if a.dtype == "-" else a.weak_value())
                    continue
                # In-place through a self with internal overlap: what a NumPy
                # user has is np.broadcast_to's view, which is read-only. A
                # writable as_strided stride-0 view would silently write each
                # element several times; that is not NumPy's broadcasting
                # semantics, so the read-only view is the one we test (B9).
                readonly = (mode == "inplace" and i == 0 and has_internal_overlap(a)) or \
                           (mode == "out" and i == len(args) - 1 and has_internal_overlap(a))
                s, v = np_view(a, readonly=readonly)
                storages.append(s)
                views.append(v)
            if mode == "inplace":
                self_before = storages[0].copy()
                NP_FUNC[op](views[0], views[1], out=views[0])
                return np_outcome(views[0].copy(), raw)
            if mode == "out":
                out_before = storages[-1].copy()
                NP_FUNC[op](*views[:-1], out=views[-1])
                return np_outcome(views[-1].copy(), raw)
            if op in NP_FUNC:
                return np_outcome(NP_FUNC[op](*views), raw)
            if op == "where":
                return np_outcome(np.where(*views), raw)
            if op == "broadcast_to":
                return np_outcome(np.broadcast_to(views[0], parse_target(attrs)).copy(), raw)
            if op == "broadcast_shapes":
                return Outcome("ok", "-", np.broadcast_shapes(*views), [])
            raise GenError("numpy cannot express op %s" % op)
        except GenError:
            raise
        except Exception as exc:  # classified below; unknown ones raise GenError
            cls, msg = classify("numpy", exc)
            oc = Outcome("error", cls=cls, message=msg)
            if self_before is not None:
                oc.self_unchanged = bool(np.array_equal(self_before, storages[0], equal_nan=False)
                                         or self_before.tobytes() == storages[0].tobytes())
            if out_before is not None:
                oc.out_unchanged = out_before.tobytes() == storages[-1].tobytes()
            return oc


# ---------------------------------------------------------------- torch

def torch_would_crash(op, mode, args):
    """torch 1.13 dies with SIGFPE (C++ signed overflow) on int32/int64
    floor_divide and remainder of the minimum by -1, in or out of place.
    Such cases cannot be run through torch at all. torch 2.x returns the
    wrapped minimum (measured with torch 2.15, 1 to 65 elements, in and out of
    place, 0-d and strided operands)."""
    if TORCH_MAJOR >= 2 or op not in ("floor_divide", "remainder") or len(args) < 2:
        return False
    x, y = args[0], args[1]
    if x.dtype not in ("i32", "i64") or y.dtype == "-" or y.storage is None or x.storage is None:
        return False
    lo = np.iinfo(NP_DTYPE[x.dtype]).min
    return bool((np.asarray(x.storage) == lo).any() and (np.asarray(y.storage) == -1).any())


def numpy_would_crash(args):
    """NumPy 1.24 dies ("stack smashing detected", SIGABRT) when as_strided builds
    a view of 66 or more dimensions (measured: 33-65 raise "number of dimensions
    must be within [0, 32]", 66 and above abort), so an operand of that rank
    cannot be built for NumPy (or the rule, which goes through NumPy) at all.
    NumPy 2.x raises "number of dimensions must be within [0, 64]" instead
    (measured with 2.4.6 at 66 dims)."""
    return NUMPY_MAJOR < 2 and any(a.dtype != "-" and len(a.shape) > 65 for a in args)


def torch_uses_numpy_views(mode, args):
    """run_torch builds out= and negative-stride operands through np_view, so
    NumPy's limit (NUMPY_MAXDIMS; 1.x aborts above 65) applies to them too."""
    return any(a.dtype != "-" and len(a.shape) > NUMPY_MAXDIMS and
               ((mode == "out" and i == len(args) - 1) or any(st < 0 for st in a.strides))
               for i, a in enumerate(args))


def run_torch(op, mode, args, attrs=(), raw=False):
    """Runs the case through torch 1.13. Returns (Outcome, materialised): raw
    keeps the result array in the Outcome; materialised says a negative-stride
    operand had to be passed as a contiguous copy."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        storages, views, mat = [], [], False
        self_before = out_before = None
        target = parse_target(attrs) if op in ("broadcast_to", "expand") else ()
        try:
            for i, a in enumerate(args):
                if a.dtype == "-" or a.weak_value() is not None:
                    storages.append(None)   # B34: a weak scalar is passed as the Python scalar
                    views.append(a.shape if a.dtype == "-" else a.weak_value())
                    continue
                if mode == "out" and i == len(args) - 1:
                    # out= as a plain contiguous tensor holding the same values,
                    # so torch may resize it as it does for a user's tensor.
                    _, nv = np_view(a)
                    v = torch.from_numpy(np.array(nv).reshape(-1).copy()).reshape(a.shape).clone()
                    s, m = v, False
                else:
                    s, v, m = torch_view(a)
                mat = mat or m
                storages.append(s)
                views.append(v)
            if mode == "inplace":
                if op not in TORCH_INPLACE:
                    raise GenError("torch has no in-place %s" % op)
                self_before = storages[0].clone()
                getattr(views[0], TORCH_INPLACE[op])(views[1])
                return torch_outcome(views[0], raw), mat
            if mode == "out":
                out_before = storages[-1].clone()
                TORCH_FUNC[op](*views[:-1], out=views[-1])
                return torch_outcome(views[-1], raw), mat
            if op in TORCH_FUNC:
                return torch_outcome(TORCH_FUNC[op](*views), raw), mat
            if op == "where":
                return torch_outcome(torch.where(*views), raw), mat
            if op == "broadcast_to":
                return torch_outcome(torch.broadcast_to(views[0], target), raw), mat
            if op == "expand":
                return torch_outcome(views[0].expand(target), raw), mat
            if op == "broadcast_shapes":
                return Outcome("ok", "-", tuple(torch.broadcast_shapes(*views)), []), mat
            raise GenError("torch cannot express op %s" % op)
        except GenError:
            raise
        except Exception as exc:  # classified below; unknown ones raise GenError
            cls, msg = classify("torch", exc, negative_target=any(d < 0 for d in target))
            oc = Outcome("error", cls=cls, message=msg)
            if self_before is not None:
                oc.self_unchanged = bool(torch.equal(self_before, storages[0])
                                         or self_before.numpy().tobytes() == storages[0].numpy().tobytes())
            if out_before is not None:
                # A resize (torch resizes a wrongly shaped out, then may still
                # raise) counts as changed: out's old storage is gone.
                after = storages[-1]
                oc.out_unchanged = (tuple(after.shape) == tuple(out_before.shape)
                                    and out_before.numpy().tobytes() == after.numpy().tobytes())
            return oc, mat


def contiguous(shape):
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= max(int(d), 1)
    return tuple(reversed(strides))


# ---------------------------------------------------------------- rule ops

def run_rule(op, args, attrs=()):
    """Ops neither library has, computed by docs/semantics.md through NumPy.

    axis_add (B10/B11): y's dims line up with x's starting at axis (-1 means
    rank(x)-rank(y)); y is reshaped with leading/trailing 1s to x's rank and
    np.add broadcasts per B2/B3. uni_add (B7): y must broadcast to x's shape
    (np.broadcast_to, so its errors are classified as broadcast_to's, B5)."""
    if any(len(a.shape) > 32 for a in args):
        raise GenError("%s: the rule runs through NumPy, whose arrays hold at most 32 dims" % op)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        _, x = np_view(args[0])
        _, y = np_view(args[1])
        if op == "uni_add":
            try:
                yb = np.broadcast_to(y, x.shape)
            except ValueError as exc:
                cls, msg = classify("numpy", exc)
                return Outcome("error", cls=cls, message=msg)
            return np_outcome(np.add(x, yb))
        if op == "axis_add":
            axis = None
            for k, v in attrs:
                if k == "axis":
                    axis = int(v)
            r, ry = x.ndim, y.ndim
            if ry > r:
                return Outcome("error", cls="axis", message="rank(y) %d > rank(x) %d" % (ry, r))
            if axis == -1:
                axis = r - ry
            if axis < 0 or axis > r - ry:
                return Outcome("error", cls="axis",
                               message="axis %d out of range for rank(x) %d, rank(y) %d" % (axis, r, ry))
            aligned = (1,) * axis + y.shape + (1,) * (r - axis - ry)
            try:
                return np_outcome(np.add(x, y.reshape(aligned)))
            except ValueError as exc:
                cls, msg = classify("numpy", exc)
                return Outcome("error", cls=cls, message=msg)
        if op in ("prelu", "gemm_bias"):
            return _onnx_rule(op, args)
        raise GenError("no rule for op %s" % op)


def _onnx_rule(op, args):
    """B45: ONNX's one-way broadcasting inside PRelu and Gemm, through NumPy.
    prelu: slope y broadcasts to x (np.broadcast_to), then x < 0 ? x * y : x.
    gemm_bias: x (M,K) @ y (K,N), then + z broadcast to (M,N). ONNX's type
    constraint T: every operand has one dtype (else error class dtype)."""
    views = [np_view(a)[1] for a in args]
    if len({v.dtype for v in views}) != 1:
        return Outcome("error", cls="dtype", message="%s: operands of different dtypes (ONNX T)" % op)
    try:
        if op == "prelu":
            x, slope = views
            return np_outcome(np.where(x < 0, x * np.broadcast_to(slope, x.shape), x))
        a, b, c = views
        if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
            return Outcome("error", cls="matmul-core",
                           message="gemm_bias: A %s and B %s are not 2-D with A's columns B's rows"
                           % (a.shape, b.shape))
        return np_outcome(np.matmul(a, b) + np.broadcast_to(c, (a.shape[0], b.shape[1])))
    except ValueError as exc:
        cls, msg = classify("numpy", exc)
        return Outcome("error", cls=cls, message=msg)


# ---------------------------------------------------------------- torch's scalar path
#
# Policy for torch's SIMD quirks (docs/semantics.md, B21). torch 1.13's CPU
# kernels run a contiguous inner loop in chunks of 2 x Vectorized<T>::size()
# elements with vector code (AVX2 max/min, Sleef pow, vector fmod/floor) and
# the remainder of the row, and every non-contiguous loop, with the scalar C++
# code. The two paths disagree on a few float corners: maximum/minimum of
# +0.0/-0.0, pow(DBL_MAX, 1) (inf from Sleef), floor_divide/remainder of huge
# magnitudes (nan). Which element lands in which path depends only on its
# position in the row, not on its value, so the vector results are an accident
# of layout. bcast takes torch's SCALAR path as torch's semantics: for every
# float element-wise call, gen/ also runs the same call in a layout that forces
# the scalar path (below); where the two differ, the scalar value is torch's
# expectation, the case is tagged `torch-simd` and the vector values are kept
# in a `# torch 1.13 vectorized path gave: INDEX=VALUE ...` comment. Whether
# torch then agrees with NumPy is decided as for any other case: agreement
# gives `expect *`, a difference is a real divergence (`expect numpy` +
# `expect torch`), and ref follows torch's scalar semantics in the torch profile.

SIMD_OPS = {"add", "sub", "mul", "div", "floor_divide", "remainder", "pow", "maximum", "minimum",
            # issue #25 (B38-B44): torch's vectorized fmod, div_floor, float_power,
            # logaddexp2 differ from its scalar path on huge or tied values
            "copysign", "atan2", "hypot", "fmod", "heaviside", "logaddexp", "logaddexp2",
            "nextafter", "ldexp", "float_power", "fmax", "fmin", "div_trunc", "div_floor",
            "clip", "lerp", "addcmul", "addcdiv"}


def _scalar_layout(t, shape, n):
    """t broadcast to shape, flattened to n elements that sit 2 apart in a
    scratch buffer: an inner stride of 2 keeps cpu_kernel_vec off its
    vectorized loop (it needs every operand contiguous or stride 0) and on
    basic_loop, the scalar op. A 0-d operand stays 0-d so that dtype
    promotion (B19), which treats 0-d operands apart, is unchanged."""
    if not torch.is_tensor(t) or t.dim() == 0:
        return t   # B34: a weak scalar stays the Python scalar
    buf = torch.empty((n, 2), dtype=t.dtype)
    buf[:, 0] = t.broadcast_to(shape).reshape(-1)
    return buf[:, 0]


def run_torch_scalar_path(op, mode, args, result, raw=False):
    """Reruns a successful float element-wise torch call (result: its Outcome)
    on the scalar path and returns that Outcome (same dtype and shape)."""
    shape, n = result.shape, int(np.prod(result.shape, dtype=np.int64))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        views = [torch_view(a)[1] if a.weak_value() is None else a.weak_value() for a in args]
        if mode == "inplace":
            self2 = _scalar_layout(views[0].reshape(-1) if views[0].dim() else views[0],
                                   (n,) if views[0].dim() else (), n)
            getattr(self2, TORCH_INPLACE[op])(_scalar_layout(views[1], shape, n))
            out = self2
        elif mode == "out":
            out = torch.empty((n, 2), dtype=views[-1].dtype)[:, 0]
            if len(shape) == 0:
                out = torch.empty((), dtype=views[-1].dtype)
            TORCH_FUNC[op](*[_scalar_layout(v, shape, n) for v in views[:-1]], out=out)
        else:
            # into a strided out= of the result's dtype: torch copies an input of
            # another dtype to a contiguous one of the common dtype, which would
            # put the call back on the vectorized loop; a strided output cannot be
            out = torch.empty((n, 2), dtype=TORCH_DTYPE[result.dtype])[:, 0]
            TORCH_FUNC[op](*[_scalar_layout(v, shape, n) for v in views], out=out)
        return torch_outcome(out.reshape(shape), raw)
