"""suite_large.py - opt-in (`make cases-large`): outputs over 2^31 elements with
pattern inputs and digest outputs, and shapes whose element count overflows (B16).

The digest is FNV-1a 64 over the output's little-endian bytes, computed by
streaming row blocks (NumPy and torch each compute every block; they must
agree byte for byte) into the small C helper gen/fnv1a64.c ($BCAST_FNV1A64)."""

import os
import subprocess

import numpy as np
import torch

from builder import claim, make_case
from caseio import Case, Operand, Outcome, GenError, NP_DTYPE
from zero_size_helpers import stride0

SUITE = "large"
BLOCK_ROWS = 1024


def ramp(n, a, b, m, k, dtype):
    """Storage of `pattern ramp A B M K 1` (integer/bool dtypes only)."""
    i = np.arange(n, dtype=np.int64)
    v = ((i * a + b) % m) - k
    if dtype == "bool":
        return v != 0
    return v.astype(NP_DTYPE[dtype])  # wraps, as the format says


def digest_outer(op, dtype, rows, cols, px, py):
    """Runs x (rows,1) op y (1,cols) in row blocks through NumPy and torch,
    hashes the C-order bytes. Returns (hex, elements, result dtype)."""
    helper = os.environ.get("BCAST_FNV1A64")
    if not helper or not os.path.exists(helper):
        raise GenError("the large suite needs the digest helper: set BCAST_FNV1A64 (make cases-large builds it)")
    x = ramp(rows, *px, dtype).reshape(rows, 1)
    y = ramp(cols, *py, dtype).reshape(1, cols)
    tx, ty = torch.from_numpy(x), torch.from_numpy(y)
    npf = {"add": np.add, "logical_or": np.logical_or}[op]
    tf = {"add": torch.add, "logical_or": torch.logical_or}[op]
    proc = subprocess.Popen([helper], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    rdt = None
    for r0 in range(0, rows, BLOCK_ROWS):
        nb = npf(x[r0:r0 + BLOCK_ROWS], y)
        tb = tf(tx[r0:r0 + BLOCK_ROWS], ty).numpy()
        if nb.dtype != tb.dtype or nb.tobytes() != tb.tobytes():
            raise GenError("large %s: numpy and torch differ in rows %d.." % (op, r0))
        rdt = nb.dtype
        proc.stdin.write(nb.astype(nb.dtype.newbyteorder("<")).tobytes())
    proc.stdin.close()
    out = proc.stdout.read().decode().split()
    if proc.wait() != 0:
        raise GenError("fnv1a64 helper failed")
    return out[0], int(out[1]) // rdt.itemsize, rdt


def cases():
    from caseio import NP_NAME
    for op, dtype, rows, cols in (("add", "i8", 65536, 65536), ("logical_or", "bool", 65536, 32769)):
        px, py = (1, 0, 251, 125), (7, 3, 256, 128)
        cid = "large/%s/%s/(%d,1)x(1,%d)" % (op, dtype, rows, cols)
        if not claim():
            continue
        hexd, n, rdt = digest_outer(op, dtype, rows, cols, px, py)
        args = [Operand("x", dtype, (rows, 1), (1, 0), 0, pattern=px + (1,), storage_len=rows),
                Operand("y", dtype, (1, cols), (0, 1), 0, pattern=py + (1,), storage_len=cols)]
        oc = Outcome("ok", NP_NAME[rdt], (rows, cols), digest=(hexd, n))
        yield Case(cid, SUITE, op, args, tags=("large", "stretch"), rules=("B2", "B17"),
                   source=("numpy", "torch"), expects=[("*", oc, "exact")],
                   comments=["digest: NumPy and torch computed every row block; both agreed byte for byte"])
    # Broadcast results whose element count overflows int64 (B16): each operand's
    # own count fits in int64 (a reader refuses operands that do not), only the
    # result overflows; stride-0 views, nothing allocated.
    for a, b in (((2 ** 32, 1, 1), (1, 2 ** 31, 2 ** 31)), ((2 ** 62, 1), (1, 4)),
                 ((2 ** 63 - 1, 1), (1, 2)), ((3, 1), (2 ** 61, 1, 2))):
        for op, dt in (("add", "i8"), ("eq", "bool")):
            cid = "large/%s/%s/(%s)x(%s)/overflow" % (op, dt, ",".join(map(str, a)), ",".join(map(str, b)))
            yield make_case(cid, SUITE, op, [stride0("x", dt, a, 1), stride0("y", dt, b, 2)],
                            rules=("B16", "B17"), tags=("large", "overflow"))
