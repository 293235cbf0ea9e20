"""oracle_util.py - shared helpers for ref's oracle tests: run NumPy/torch, classify their errors."""
import re
import warnings

import numpy as np
import torch

NP_DT = {"bool": np.bool_, "i8": np.int8, "u8": np.uint8, "i16": np.int16,
         "i32": np.int32, "i64": np.int64, "f32": np.float32, "f64": np.float64}
NP_NAME = {np.dtype(v): k for k, v in NP_DT.items()}
TH_NAME = {torch.bool: "bool", torch.int8: "i8", torch.uint8: "u8", torch.int16: "i16",
           torch.int32: "i32", torch.int64: "i64", torch.float32: "f32", torch.float64: "f64"}

NP_FUNC = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
           "floor_divide": np.floor_divide, "remainder": np.remainder, "pow": np.power,
           "maximum": np.maximum, "minimum": np.minimum, "eq": np.equal, "ne": np.not_equal,
           "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
           "logical_and": np.logical_and, "logical_or": np.logical_or,
           "logical_xor": np.logical_xor, "bitwise_and": np.bitwise_and,
           "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor, "matmul": np.matmul}
TH_FUNC = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div,
           "floor_divide": torch.floor_divide, "remainder": torch.remainder, "pow": torch.pow,
           "maximum": torch.maximum, "minimum": torch.minimum, "eq": torch.eq, "ne": torch.ne,
           "lt": torch.lt, "le": torch.le, "gt": torch.gt, "ge": torch.ge,
           "logical_and": torch.logical_and, "logical_or": torch.logical_or,
           "logical_xor": torch.logical_xor, "bitwise_and": torch.bitwise_and,
           "bitwise_or": torch.bitwise_or, "bitwise_xor": torch.bitwise_xor,
           "matmul": torch.matmul, "where": torch.where}

# (regex over the first line of the message, class); first match wins.
RULES = [
    (r"operands could not be broadcast together|[Ss]hape mismatch: objects cannot be broadcast"
     r"|The size of tensor a \(\d+\) must match", "not-broadcastable"),
    (r"non-broadcastable output operand|output with shape \[.*\] doesn't match the broadcast shape",
     "inplace-shape"),
    (r"read-only|unsupported operation: (some elements|more than one element)", "overlap"),
    (r"The expanded size of the tensor \(-\d+\) must match", "invalid-shape"),
    (r"The expanded size of the tensor \(\d+\) must match", "not-broadcastable"),
    (r"isn't allowed in a leading, non-existing dimension|the number of sizes provided"
     r"|negative dimension|must be non-negative|more dimensions than allowed by the axis remapping",
     "invalid-shape"),
    (r"^matmul: Input operand|mat1 and mat2 shapes|both arguments to matmul|size mismatch"
     r"|inconsistent tensor size|Expected size for first two dimensions", "matmul-core"),
    (r"maximum supported dimension", "rank-limit"),
    (r"too large|too big|overflow", "overflow"),
    (r"ZeroDivisionError", "division-by-zero"),
    (r"Integers to negative integer powers", "other"),
    (r"boolean subtract|not supported for the input types|did not contain a loop|Cannot cast ufunc"
     r"|not implemented for|Subtraction, the `-` operator|can't be cast to the desired output type"
     r"|expected scalar type|to have the same dtype|to have same dtype|where expected condition", "dtype"),
]


def classify(exc):
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    for rx, cls in RULES:
        if re.search(rx, text):
            return cls
    raise AssertionError("unclassified exception %s: %s" % (type(exc).__name__, text))


def quiet():
    """Context manager silencing NumPy/torch warnings."""
    class Q:
        def __enter__(self):
            self.w = warnings.catch_warnings()
            self.w.__enter__()
            warnings.simplefilter("ignore")
            self.e = np.errstate(all="ignore")
            self.e.__enter__()

        def __exit__(self, *a):
            self.e.__exit__(*a)
            self.w.__exit__(*a)
    return Q()
