"""dask_bridge.py - dask.array behind the pipe protocol (targets/registry.tsv: dask).

Operands are NumPy strided views (see numpy_bridge.view) wrapped with
da.from_array (default 'auto' chunking); the op is dask.array's own function,
computed with the synchronous scheduler. No in-place or out= capability is
declared: dask's out= (dask/array/core.py, handle_out) and item assignment
rebind the dask Array to a new task graph and never write into the memory the
array was made from ("Truly in-place operations would not be appropriate,
since Dask tasks are functional", dask/dask#5199); docs/pipe-protocol.md
records dask as the library without in-place. dask.array has no public
broadcast_shapes, so that op is not declared either. Errors are classified like NumPy's (dask raises
NumPy's texts for broadcasting), unknown ones are `other`.
"""

import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bcast_bridge as bb  # noqa: E402

try:
    import dask
    import dask.array as da
    import numpy as np
except ImportError as exc:
    bb.fail("dask.array is not importable: %s" % exc)

import re  # noqa: E402

import numpy_bridge  # noqa: E402
from numpy_bridge import result, view  # noqa: E402

# dask.array's own texts (it raises NumPy's for most broadcasting errors). Its
# broadcast_to says "cannot broadcast shape A to shape B" for every bad target,
# so that maps to the best guess, not-broadcastable.
DASK_RULES = [(re.compile(rx), cls) for rx, cls in [
    (r"^cannot broadcast shape", "not-broadcastable"),
    (r"^Parameters of such types are not supported by", "dtype"),
    (r"^`matmul` does not support scalars", "matmul-core"),
]]


def classify(exc):
    return numpy_bridge.classify(exc, first=DASK_RULES)

FUNC = {
    "add": da.add, "sub": da.subtract, "mul": da.multiply, "div": da.true_divide,
    "floor_divide": da.floor_divide, "remainder": da.remainder, "pow": da.power,
    "maximum": da.maximum, "minimum": da.minimum,
    "eq": da.equal, "ne": da.not_equal, "lt": da.less, "le": da.less_equal,
    "gt": da.greater, "ge": da.greater_equal,
    "logical_and": da.logical_and, "logical_or": da.logical_or, "logical_xor": da.logical_xor,
    "bitwise_and": da.bitwise_and, "bitwise_or": da.bitwise_or, "bitwise_xor": da.bitwise_xor,
    "matmul": da.matmul, "where": da.where,
    # issue #25 (docs/semantics.md B38-B43), value mode only: dask.array's own functions
    # (it has no heaviside, gcd or lcm).
    "copysign": da.copysign, "atan2": da.arctan2, "hypot": da.hypot, "fmod": da.fmod,
    "logaddexp": da.logaddexp, "logaddexp2": da.logaddexp2, "nextafter": da.nextafter,
    "ldexp": da.ldexp, "left_shift": da.left_shift, "right_shift": da.right_shift,
    "float_power": da.float_power, "fmax": da.fmax, "fmin": da.fmin, "clip": da.clip,
}


def run(case):
    try:
        xs = [da.from_array(view(a)[1], chunks="auto") for a in case.args]
        if case.op in FUNC:
            r = FUNC[case.op](*xs)
        elif case.op == "broadcast_to":
            r = da.broadcast_to(xs[0], case.target)
        else:
            return bb.reply_error("other", "dask.array has no %s" % case.op)
        return result(np.asarray(r.compute(scheduler="sync")))
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        return bb.reply_error(*classify(exc))


def main():
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    hello = bb.Hello("dask.array", dask.__version__, numpy_bridge.numpy_profile(), ops=list(FUNC) + ["broadcast_to"],
                     dtypes=bb.NAMES, max_rank=0, flags=("strided",))
    bb.serve(hello, run)


if __name__ == "__main__":
    main()
