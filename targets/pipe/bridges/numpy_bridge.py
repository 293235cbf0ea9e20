"""numpy_bridge.py - NumPy itself behind the pipe protocol (targets/registry.tsv: numpy-bridge on
NumPy 1.24, profile numpy; numpy2-bridge on NumPy 2.x, .venv/oracles, profile numpy2).

The adapter only adapts the calling convention: operands become strided views
over a private copy of the sent bytes (np.lib.stride_tricks.as_strided), the
op is NumPy's own function, in-place is the ufunc with out=self, and NumPy's
exceptions are mapped to the fixed error classes by their text. Nothing is
checked, emulated or fixed here. A self or out= whose elements overlap (B9)
is what a NumPy user actually holds: np.broadcast_to's read-only view.
"""

import os
import re
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bcast_bridge as bb  # noqa: E402

try:
    import numpy as np
except ImportError as exc:  # the pipe target reports this as init failure
    bb.fail("numpy is not importable: %s" % exc)

NP_DTYPE = {"bool": np.bool_, "i8": np.int8, "u8": np.uint8, "i16": np.int16, "i32": np.int32,
            "i64": np.int64, "f32": np.float32, "f64": np.float64}
NP_NAME = {np.dtype(v): k for k, v in NP_DTYPE.items()}
UFUNC = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
    "floor_divide": np.floor_divide, "remainder": np.remainder, "pow": np.power,
    "maximum": np.maximum, "minimum": np.minimum,
    "eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
    "gt": np.greater, "ge": np.greater_equal,
    "logical_and": np.logical_and, "logical_or": np.logical_or, "logical_xor": np.logical_xor,
    "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
    "matmul": np.matmul,
    # issue #25 (docs/semantics.md B38-B43), value mode only: NumPy's own functions.
    "copysign": np.copysign, "atan2": np.arctan2, "hypot": np.hypot, "fmod": np.fmod,
    "heaviside": np.heaviside, "logaddexp": np.logaddexp, "logaddexp2": np.logaddexp2,
    "nextafter": np.nextafter, "ldexp": np.ldexp, "gcd": np.gcd, "lcm": np.lcm,
    "left_shift": np.left_shift, "right_shift": np.right_shift, "float_power": np.float_power,
    "fmax": np.fmax, "fmin": np.fmin, "clip": np.clip,
}

# NumPy's exception texts -> class (first match wins). Unknown texts are `other`.
RULES = [(re.compile(rx), cls) for rx, cls in [
    (r"^operands could not be broadcast together", "not-broadcastable"),
    (r"^shape mismatch: objects cannot be broadcast to a single shape", "not-broadcastable"),
    (r"^non-broadcastable output operand with shape", "inplace-shape"),
    (r"^output array is read-only", "overlap"),
    (r"^input operand has more dimensions than allowed by the axis remapping", "invalid-shape"),
    (r"^cannot broadcast a non-scalar to a scalar array", "invalid-shape"),
    (r"^all elements of broadcast shape must be non-negative", "invalid-shape"),
    (r"^negative dimensions are not allowed", "invalid-shape"),
    (r"^matmul: Input operand \d+ has a mismatch in its core dimension", "matmul-core"),
    (r"^matmul: Input operand \d+ does not have enough dimensions", "matmul-core"),
    (r"^maximum supported dimension for an ndarray is (currently )?\d+", "rank-limit"),   # 1.24: 32, 2.x: 64
    (r"^number of dimensions must be within \[0, \d+\]", "rank-limit"),
    (r"^this function only supports up to \d+ dimensions", "rank-limit"),   # 2.x broadcast_shapes: 32
    (r"^broadcast dimensions too large", "overflow"),
    (r"^array is too big", "overflow"),
    (r"^iterator is too large", "overflow"),
    (r"^numpy boolean subtract", "dtype"),
    (r"^ufunc '\w+' not supported for the input types", "dtype"),
    (r"^ufunc '\w+' did not contain a loop with signature matching types", "dtype"),
    (r"^Cannot cast ufunc '\w+' output from", "dtype"),
    # B34 (NumPy 2, NEP 50): a Python int outside the array's integer dtype
    (r"^Python integer -?\d+ out of bounds for \w+", "overflow"),
]]


def classify(exc, first=()):
    """(error class, message) for a library exception: the rules in first (a
    bridge's own library, compiled regexes) before NumPy's; 'other' otherwise."""
    msg = bb.one_line(exc) or type(exc).__name__
    for rx, cls in (*first, *RULES):
        if rx.search(msg):
            return cls, msg
    return "other", "%s: %s" % (type(exc).__name__, msg)


def reply_wrote_then_error(dtype, w, exc, classify_fn=classify):
    """B22: the reply for a call that wrote into the writable view w and then
    raised exc -- what it left behind, then the error."""
    return bb.reply_wrote(dtype, w.shape, np.ascontiguousarray(w).tobytes()) + bb.reply_error(*classify_fn(exc))


def view(arg, readonly=False):
    """(storage, view): a writable private copy of the sent span, viewed as the case says."""
    storage = np.frombuffer(bytearray(arg.data), dtype=NP_DTYPE[arg.dtype])
    item = storage.itemsize
    return storage, np.lib.stride_tricks.as_strided(
        storage[arg.offset:], shape=arg.shape, strides=tuple(s * item for s in arg.strides),
        writeable=not readonly)


def result(arr):
    arr = np.asarray(arr)
    name = NP_NAME.get(arr.dtype, str(arr.dtype))
    return bb.reply_ok(name, arr.shape, np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes())


def run(case):
    op, mode, args = case.op, case.mode, case.args
    storages, views = [], []
    wi = 0 if mode == "inplace" else len(args) - 1 if mode == "out" else -1
    try:
        for i, a in enumerate(args):
            if a.dtype == "-" or a.weak_value() is not None:
                storages.append(None)   # B34: a weak scalar is handed over as the Python scalar
                views.append(a.shape if a.dtype == "-" else a.weak_value())
                continue
            s, v = view(a, readonly=(i == wi and a.overlaps()))
            storages.append(s)
            views.append(v)
        if mode in ("inplace", "out"):
            if op not in UFUNC:
                return bb.reply_error("other", "numpy.%s has no out= parameter" % op)
            before = storages[wi].tobytes()
            try:
                if mode == "inplace":
                    UFUNC[op](views[0], views[1], out=views[0])
                else:
                    UFUNC[op](*views[:-1], out=views[-1])
            except Exception:
                if storages[wi].tobytes() != before:   # B22: show what the failed call left behind
                    return reply_wrote_then_error(args[wi].dtype, views[wi], sys.exc_info()[1])
                raise
            return result(views[wi])
        if op in UFUNC:
            return result(UFUNC[op](*views))
        if op == "where":
            return result(np.where(*views))
        if op == "broadcast_to":
            return result(np.broadcast_to(views[0], case.target))
        if op == "broadcast_shapes":
            return bb.reply_shape(np.broadcast_shapes(*views))
        return bb.reply_error("other", "numpy has no %s" % op)
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        return bb.reply_error(*classify(exc))


def numpy_profile():
    """The generation this NumPy is: numpy2 (NumPy 2.4.6's semantics, NEP 50 promotion, 64
    dimensions) on NumPy 2.x, numpy (NumPy 1.24) before. numpy2-bridge and numpy-bridge declare
    it, and so do the bridges whose library computes with NumPy's promotion (dask, numexpr,
    numba): one bridge serves Debian's release (NumPy 1.24) and the PyPI one (.venv/targets)."""
    return "numpy2" if int(np.__version__.split(".")[0]) >= 2 else "numpy"


def main():
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    hello = bb.Hello("numpy", np.__version__, numpy_profile(),
                     ops=list(UFUNC) + ["where", "broadcast_to", "broadcast_shapes"],
                     dtypes=bb.NAMES,
                     # NumPy's dimension limit (NPY_MAXDIMS: 32, 64 in 2.x) is NOT declared: raising
                     # rank-limit above it is NumPy's behaviour under test (B15).
                     max_rank=0, flags=("strided", "inplace", "out", "weak"))
    bb.serve(hello, run)


if __name__ == "__main__":
    main()
