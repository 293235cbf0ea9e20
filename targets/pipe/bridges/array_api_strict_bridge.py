"""array_api_strict_bridge.py - array-api-strict behind the pipe protocol (targets/registry.tsv: array-api-strict).

array-api-strict is the Array API standard's reference implementation: a thin
layer over NumPy that allows only what the standard specifies (its default
api_version is 2025.12). The bridge translates and nothing more:

- An operand is a NumPy strided view over a private copy of the sent bytes
  (numpy_bridge.view, np.lib.stride_tricks.as_strided) handed to xp.asarray.
  The standard has no strided constructor; array-api-strict wraps a NumPy
  array, and xp.asarray(view) keeps the view (it shares memory with the
  bytes: checked in FINDINGS.md), so strides, offsets and stride-0 operands
  reach the library as they are. A self whose elements overlap (B9) is a
  read-only view, what xp.broadcast_to gives a user.
- The op is the standard's function (xp.add, ..., xp.broadcast_to,
  xp.broadcast_shapes, xp.where, xp.matmul), with the library's promotion,
  dtype rules and errors.
- In-place is the standard's in-place operator on the xp array (`x += y`;
  standard, "Array object", section "In-place Operators"); an op with no
  in-place operator in the standard (maximum, comparisons, logical_*) answers
  `other` saying so. The standard has no out= (no flag) and no autodiff (no
  grad_ops).
- Results are read back with np.from_dlpack (the standard's interchange).
- Errors: array-api-strict's own texts (RULES) first, then NumPy's, whose
  errors it passes through (numpy_bridge.classify); unknown texts are `other`.
"""

import operator
import os
import re
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bcast_bridge as bb  # noqa: E402

try:
    import array_api_strict as xp
    import numpy as np
except ImportError as exc:  # the pipe target reports this as init failure
    bb.fail("array_api_strict is not importable: %s" % exc)

import numpy_bridge  # noqa: E402
from numpy_bridge import result, view  # noqa: E402

FUNC = {
    "add": xp.add, "sub": xp.subtract, "mul": xp.multiply, "div": xp.divide,
    "floor_divide": xp.floor_divide, "remainder": xp.remainder, "pow": xp.pow,
    "maximum": xp.maximum, "minimum": xp.minimum,
    "eq": xp.equal, "ne": xp.not_equal, "lt": xp.less, "le": xp.less_equal,
    "gt": xp.greater, "ge": xp.greater_equal,
    "logical_and": xp.logical_and, "logical_or": xp.logical_or, "logical_xor": xp.logical_xor,
    "bitwise_and": xp.bitwise_and, "bitwise_or": xp.bitwise_or, "bitwise_xor": xp.bitwise_xor,
    "matmul": xp.matmul, "where": xp.where,
    # issue #25 (docs/semantics.md B38, B40, B43), value mode only: the standard's own functions.
    "copysign": xp.copysign, "atan2": xp.atan2, "hypot": xp.hypot, "nextafter": xp.nextafter,
    "logaddexp": xp.logaddexp, "left_shift": xp.bitwise_left_shift,
    "right_shift": xp.bitwise_right_shift, "clip": xp.clip,
}

# The standard's in-place operators (Array object, "In-place Operators"): `x op= y`.
INPLACE = {
    "add": operator.iadd, "sub": operator.isub, "mul": operator.imul, "div": operator.itruediv,
    "floor_divide": operator.ifloordiv, "remainder": operator.imod, "pow": operator.ipow,
    "bitwise_and": operator.iand, "bitwise_or": operator.ior, "bitwise_xor": operator.ixor,
    "matmul": operator.imatmul,
}

# array-api-strict's own texts (it raises NumPy's for broadcasting and matmul).
RULES = [(re.compile(rx), cls) for rx, cls in [
    (r"cannot be type promoted together", "dtype"),
    (r"^Only [\w -]+ dtypes are allowed in", "dtype"),
    (r"^`condition` must be have a boolean data type", "dtype"),
    (r"^Cannot perform __i\w+__ with dtypes", "dtype"),
]]


def classify(exc):
    """(error class, message): array-api-strict's texts, then NumPy's."""
    return numpy_bridge.classify(exc, first=RULES)


def read(a):
    """A library array as a NumPy array, through the standard's DLPack interchange."""
    return np.from_dlpack(a)


def run_inplace(case, storages, views):
    """`self op= y` with the standard's operator; the reply is what self's
    array holds afterwards (B22: what a failed call left behind, then the error)."""
    if case.op not in INPLACE:
        return bb.reply_error("other", "the Array API standard has no in-place operator for %s" % case.op)
    x, y = xp.asarray(views[0]), xp.asarray(views[1])
    before = storages[0].tobytes()
    try:
        INPLACE[case.op](x, y)
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        if storages[0].tobytes() != before:
            return numpy_bridge.reply_wrote_then_error(case.args[0].dtype, views[0], exc, classify)
        return bb.reply_error(*classify(exc))
    return result(read(x))


def run(case):
    try:
        if case.op == "broadcast_shapes":
            return bb.reply_shape(xp.broadcast_shapes(*[a.shape for a in case.args]))
        storages, views = [], []
        for i, a in enumerate(case.args):
            s, v = view(a, readonly=(case.mode == "inplace" and i == 0 and a.overlaps()))
            storages.append(s)
            views.append(v)
        if case.mode == "inplace":
            return run_inplace(case, storages, views)
        xs = [xp.asarray(v) for v in views]
        if case.op in FUNC:
            return result(read(FUNC[case.op](*xs)))
        if case.op == "broadcast_to":
            return result(read(xp.broadcast_to(xs[0], case.target)))
        return bb.reply_error("other", "the Array API standard has no %s" % case.op)
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        return bb.reply_error(*classify(exc))


def main():
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    # profile numpy2: NumPy 2.4.6, which array-api-strict wraps (the standard is not one of bcast's profiles;
    # where it deliberately differs from NumPy, the expectations file says so).
    hello = bb.Hello("array-api-strict", xp.__version__, "numpy2",
                     ops=list(FUNC) + ["broadcast_to", "broadcast_shapes"], dtypes=bb.NAMES,
                     max_rank=0, flags=("strided", "inplace"))
    bb.serve(hello, run)


if __name__ == "__main__":
    main()
