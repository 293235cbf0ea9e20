"""test_weak.py - weak scalars (B34) in gen/: the arg line, the Python scalar the oracles get, their outcomes."""

import numpy as np
import pytest
import torch

import builder
import suite_weak
from builder import make_case, operand


@pytest.fixture(autouse=True)
def no_shard():
    builder.set_shard(0, 1)


def test_weak_arg_is_written_as_a_0d_python_value():
    w = suite_weak.weak("y", "weak-float", 1e300)
    assert w.line() == "arg y weak-float () () 0 1"
    assert w.data_line().startswith("values 0x1.7e43c88")
    assert w.weak_value() == 1e300 and isinstance(w.weak_value(), float)
    assert suite_weak.weak("y", "weak-int", 2 ** 63 - 1).weak_value() == 2 ** 63 - 1
    assert suite_weak.weak("y", "weak-bool", True).data_line() == "values 1"
    assert operand("x", "i8", (3,), None, [1, 2, 3]).weak_value() is None


def test_oracles_receive_a_python_scalar():
    """int8 + 1000: NumPy 1.24 widens by value (int16); NumPy 2 raises OverflowError (overflow);
    torch wraps in int8. The expectation comes from whichever generation runs this test."""
    c = make_case("t/weak", "weak", "add", [operand("x", "i8", (3,), None, [1, -2, 3]),
                                             suite_weak.weak("y", "weak-int", 1000)])
    np_out, torch_out = c.oracle_outcomes["numpy"], c.oracle_outcomes["torch"]
    if np.__version__.startswith("1."):
        assert (np_out.kind, np_out.dtype) == ("ok", "i16")
    else:
        assert (np_out.kind, np_out.cls) == ("error", "overflow")
    assert (torch_out.kind, torch_out.dtype, torch_out.values) == ("ok", "i8", ["-23", "-26", "-21"])


def test_torch_without_a_number_overload_is_other():
    c = make_case("t/weak2", "weak", "maximum", [operand("x", "i8", (3,), None, [1, -2, 3]),
                                                 suite_weak.weak("y", "weak-int", 3)])
    assert (c.oracle_outcomes["torch"].kind, c.oracle_outcomes["torch"].cls) == ("error", "other")
