"""test_bcast_shape_oracle.py - bcast-shape against what NumPy 1.24 and torch 1.13 actually do.

Every shape example below is taken from the libraries' own documentation
(cited per group); each is run through the bcast-shape program (path in
$BCAST_SHAPE) in the library's profile and through the library itself, and
the two must agree: the same result shape, or an error of the same class."""
import os
import subprocess

import numpy as np
import pytest
import torch

from oracle_util import classify, quiet

BIN = os.environ.get("BCAST_SHAPE", "build/bcast-shape")

# (kind, shapes, source). Shapes as tuples; broadcast_to/expand: (source, target).
EXAMPLES = [
    # numpy.broadcast_shapes docstring
    ("broadcast", [(1, 2), (3, 1), (3, 2)], "np.broadcast_shapes doc"),
    ("broadcast", [(6, 7), (5, 6, 1), (7,), (5, 1, 7)], "np.broadcast_shapes doc"),
    # numpy user guide, basics.broadcasting
    ("broadcast", [(256, 256, 3), (3,)], "numpy basics.broadcasting"),
    ("broadcast", [(8, 1, 6, 1), (7, 1, 5)], "numpy basics.broadcasting"),
    ("broadcast", [(5, 4), (1,)], "numpy basics.broadcasting"),
    ("broadcast", [(5, 4), (4,)], "numpy basics.broadcasting"),
    ("broadcast", [(15, 3, 5), (15, 1, 5)], "numpy basics.broadcasting"),
    ("broadcast", [(15, 3, 5), (3, 5)], "numpy basics.broadcasting"),
    ("broadcast", [(15, 3, 5), (3, 1)], "numpy basics.broadcasting"),
    ("broadcast", [(3,), (4,)], "numpy basics.broadcasting"),
    ("broadcast", [(2, 1), (8, 4, 3)], "numpy basics.broadcasting"),
    ("broadcast", [(4, 3), (3,)], "numpy basics.broadcasting"),
    ("broadcast", [(4, 3), (4,)], "numpy basics.broadcasting"),
    ("broadcast", [(4, 1), (3,)], "numpy basics.broadcasting"),
    ("broadcast", [(4,), ()], "numpy basics.broadcasting (scalar)"),
    # torch "Broadcasting semantics" note
    ("broadcast", [(5, 7, 3), (5, 7, 3)], "torch broadcasting note"),
    ("broadcast", [(0,), (2, 2)], "torch broadcasting note"),
    ("broadcast", [(5, 3, 4, 1), (3, 1, 1)], "torch broadcasting note"),
    ("broadcast", [(5, 2, 4, 1), (3, 1, 1)], "torch broadcasting note"),
    ("broadcast", [(5, 1, 4, 1), (3, 1, 1)], "torch broadcasting note"),
    ("broadcast", [(1,), (3, 1, 7)], "torch broadcasting note"),
    ("broadcast", [(4, 1), (4,)], "torch broadcasting note (backwards compatibility)"),
    ("inplace", [(5, 3, 4, 1), (3, 1, 1)], "torch broadcasting note (in-place)"),
    ("inplace", [(1, 3, 1), (3, 1, 7)], "torch broadcasting note (in-place)"),
    # torch.broadcast_shapes / torch.broadcast_tensors docs
    ("broadcast", [(2,), (3, 1), (1, 1, 1)], "torch.broadcast_shapes doc"),
    ("broadcast", [(1, 3), (2, 1)], "torch.broadcast_tensors doc"),
    # broadcast_to / expand docs
    ("broadcast_to", [(3,), (3, 3)], "np.broadcast_to / torch.broadcast_to doc"),
    ("expand", [(3, 1), (3, 4)], "torch.Tensor.expand doc"),
    ("expand", [(3, 1), (-1, 4)], "torch.Tensor.expand doc"),
    # matmul docs
    ("matmul", [(3,), (3,)], "torch.matmul doc (vector x vector)"),
    ("matmul", [(3, 4), (4,)], "torch.matmul doc (matrix x vector)"),
    ("matmul", [(10, 3, 4), (4,)], "torch.matmul doc (batched matrix x broadcasted vector)"),
    ("matmul", [(10, 3, 4), (10, 4, 5)], "torch.matmul doc (batched x batched)"),
    ("matmul", [(10, 3, 4), (4, 5)], "torch.matmul doc (batched x broadcasted matrix)"),
    ("matmul", [(9, 5, 7, 4), (9, 5, 4, 3)], "np.matmul doc"),
    ("matmul", [(2, 2), (2,)], "np.matmul doc"),
    ("matmul", [(2, 2, 2), (2, 2, 2)], "np.matmul doc"),
    ("matmul", [(2,), (2, 2)], "np.matmul doc"),
    ("matmul", [(2,), ()], "np.matmul doc (scalar operands are not allowed)"),
    ("matmul", [(2, 3), (4, 2)], "np.matmul doc (core dimension mismatch)"),
    # np.where doc
    ("where", [(2, 2), (2, 2), (2, 2)], "np.where doc"),
    ("where", [(3, 4), (3, 1), (4,)], "np.where doc"),
    # ONNX unidirectional broadcasting (docs/Broadcasting.md), held against np.broadcast_to
    ("onnx_uni", [(2, 3, 4, 5), ()], "ONNX Broadcasting.md"),
    ("onnx_uni", [(2, 3, 4, 5), (5,)], "ONNX Broadcasting.md"),
    ("onnx_uni", [(2, 3, 4, 5), (2, 1, 1, 5)], "ONNX Broadcasting.md"),
    ("onnx_uni", [(2, 3, 4, 5), (1, 3, 1, 5)], "ONNX Broadcasting.md"),
]


def fmt(shape):
    return "(%s)" % (",".join(str(d) for d in shape) + ("," if len(shape) == 1 else ""))


def numpy_outcome(kind, shapes):
    e = lambda s, dt=np.uint8: np.empty(s, dt)
    if kind == "broadcast":
        return fmt(np.broadcast_shapes(*shapes))
    if kind == "inplace":
        a = e(shapes[0])
        np.add(a, e(shapes[1]), out=a)
        return fmt(a.shape)
    if kind == "broadcast_to":
        return fmt(np.broadcast_to(e(shapes[0]), shapes[1]).shape)
    if kind == "matmul":
        return fmt(np.matmul(e(shapes[0]), e(shapes[1])).shape)
    if kind == "where":
        return fmt(np.where(e(shapes[0], bool), e(shapes[1]), e(shapes[2])).shape)
    if kind == "onnx_uni":
        return fmt(np.broadcast_to(e(shapes[1]), shapes[0]).shape)
    return None


def torch_outcome(kind, shapes):
    e = lambda s, dt=torch.float32: torch.empty(s, dtype=dt)
    if kind == "broadcast":
        return fmt(torch.broadcast_shapes(*shapes))
    if kind == "inplace":
        return fmt(e(shapes[0]).add_(e(shapes[1])).shape)
    if kind == "broadcast_to":
        return fmt(torch.broadcast_to(e(shapes[0]), shapes[1]).shape)
    if kind == "expand":
        return fmt(e(shapes[0]).expand(*shapes[1]).shape)
    if kind == "matmul":
        return fmt(torch.matmul(e(shapes[0]), e(shapes[1])).shape)
    if kind == "where":
        return fmt(torch.where(e(shapes[0], torch.bool), e(shapes[1]), e(shapes[2])).shape)
    if kind == "onnx_uni":
        return fmt(torch.broadcast_to(e(shapes[1]), shapes[0]).shape)
    return None


def oracle(lib, kind, shapes):
    with quiet():
        try:
            return (numpy_outcome if lib == "numpy" else torch_outcome)(kind, shapes)
        except Exception as exc:  # the class is compared
            return "error: %s" % classify(exc)


CASES = [(lib, kind, shapes, src) for kind, shapes, src in EXAMPLES for lib in ("numpy", "torch")
         if not (lib == "numpy" and kind == "expand")]


@pytest.mark.parametrize("lib,kind,shapes,src", CASES,
                         ids=["%s-%s-%s" % (c[0], c[1], "x".join(fmt(s) for s in c[2])) for c in CASES])
def test_bcast_shape_matches_library(lib, kind, shapes, src):
    want = oracle(lib, kind, shapes)
    run = subprocess.run([BIN, kind] + [fmt(s) for s in shapes] + ["--profile", lib],
                         capture_output=True, text=True)
    got = run.stdout.strip()
    if want.startswith("error: "):
        assert run.returncode == 1, "%s (%s): %s says %s, bcast-shape printed %r" % (
            src, kind, lib, want, got)
        assert got.startswith(want + ":"), "%s: %s says %s, bcast-shape printed %r" % (src, lib, want, got)
    else:
        assert run.returncode == 0 and got == want, "%s: %s says %s, bcast-shape printed %r (exit %d)" % (
            src, lib, want, got, run.returncode)
