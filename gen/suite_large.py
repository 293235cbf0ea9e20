"""suite_large.py - opt-in (`make cases-large`, `bcast-run --suite large`):
cases that need gigabytes, and shape-only answers the runner cannot take yet.

Each case, with what running it needs (the runner materialises every selected
case's pattern storage in its parent before the workers start, and sizes each
worker's output arena for the largest selected result; generation figures are
NumPy + torch + digest on this project's 2-core machine):

  large/add/i8/(65536,1)x(1,65536)           2^32 outputs: 4 GiB output per worker
  large/add/i8/(65537,1)x(1,65537)           2^32 + 2^17 + 1 outputs (a 32-bit
                                             count wraps to 131073): 4 GiB output
  large/logical_or/bool/(65536,1)x(1,32769)  2^31 + 2^16 outputs: 2 GiB output
      (the outer cases take minutes each to generate: both libraries compute
      every row block, the C helper hashes the bytes)
  large/offset/...                           one operand whose storage is 2-4 GiB
      and whose view starts at a byte offset of 2^31 (f32), straddles 2^31
      with a negative stride (i16), or reaches 2^32 - 512 through a row
      stride of ~2^31 bytes (i32): storage 2, 2 and 4 GiB in the runner's
      parent; outputs are small. Generation computes only the addressed
      elements (seconds).
  large/.../overflow                         B16 with stride-0 views: no memory
      (the default `sizes` suite has the same kinds of case).

The digest is FNV-1a 64 over the output's little-endian bytes, computed by
streaming row blocks (NumPy and torch each compute every block; they must
agree byte for byte) into the small C helper gen/fnv1a64.c ($BCAST_FNV1A64).

Measured on this project's 2-core, 24 GiB machine (under load from others):
`make cases-large` 140 s, 0.5 GB. `bcast-run --suite large --jobs 1
--timeout 900 --profile numpy` on ref: 18 passed in 281 s, 16.8 GB peak RSS
(the 8 GiB of offset storages and the 4 GiB output arena are live together);
the three outer cases alone (`--id 'large/add/*' --id 'large/logical_or/*'`):
100 s, 4.2 GB. The default --timeout of 10 s is too short for ref's 2^32-
element cases here (they time out); give --timeout 300 or more.
"""

import os
import subprocess

import numpy as np
import torch

from builder import claim, make_case, mine
from caseio import Case, Operand, Outcome, GenError, NP_DTYPE, fmt_shape
from sizes_operands import ramp_of
import ramp
from zero_size_helpers import stride0

SUITE = "large"
BLOCK_ROWS = 1024


def digest_outer(op, dtype, rows, cols, px, py):
    """Runs x (rows,1) op y (1,cols) in row blocks through NumPy and torch,
    hashes the C-order bytes. Returns (hex, elements, result dtype)."""
    helper = os.environ.get("BCAST_FNV1A64")
    if not helper or not os.path.exists(helper):
        raise GenError("the large suite needs the digest helper: set BCAST_FNV1A64 (make cases-large builds it)")
    x = ramp.values_at(np.arange(rows), px + (1,), dtype).reshape(rows, 1)
    y = ramp.values_at(np.arange(cols), py + (1,), dtype).reshape(1, cols)
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


# (name, dtype, shape, strides, element offset, storage, op, y shape): x is a
# view deep inside a huge ramp storage; y a small dense ramp.
OFFSETS = (
    ("byte-offset-2^31", "f32", (3, 4097), (4097, 1), 1 << 29, (1 << 29) + 3 * 4097, "add", (4097,)),
    ("negative-straddles-2^31", "i16", (3000,), (-1,), (1 << 30) + 1499, (1 << 30) + 1500, "mul", ()),
    ("row-stride-2^31", "i32", (3, 17), ((1 << 29) - 64, 1), 0, 2 * ((1 << 29) - 64) + 17, "eq", (17,)),
)


def offset_case(name, dtype, shape, strides, offset, storage, op, ys):
    """x as written: a ramp over `storage` elements viewed at `offset`; the
    oracles get a compact copy of the same logical values (computed only at
    the addressed indices), so nothing of gigabytes is allocated here."""
    pat = ramp_of(dtype, "x")
    idx = offset + sum(np.indices(shape, dtype=np.int64)[k] * s for k, s in enumerate(strides)) \
        if shape else np.array(offset, dtype=np.int64)
    vals = ramp.values_at(np.asarray(idx).reshape(-1), pat, dtype)
    compact = Operand("x", dtype, shape, None, 0, storage=vals)
    written = Operand("x", dtype, shape, strides, offset, storage=None, pattern=pat, storage_len=storage)
    y = ramp.operand("y", dtype, ys, ramp_of(dtype, "y"))
    cid = "large/offset/%s/%s/%s/%sx%s" % (name, op, dtype, fmt_shape(shape), fmt_shape(ys))
    return make_case(cid, SUITE, op, [compact, y], written=[written, y], digest_over=16,
                     rules=("B2", "B17"), tags=("large", "offset", "noncontiguous"),
                     comments=["x's view reaches byte offset %d of a %d-byte storage"
                               % (max(int(np.max(idx)), offset) * NP_DTYPE[dtype]().itemsize,
                                  storage * NP_DTYPE[dtype]().itemsize)])


def cases():
    from caseio import NP_NAME
    for op, dtype, rows, cols in (("add", "i8", 65536, 65536), ("add", "i8", 65537, 65537),
                                  ("logical_or", "bool", 65536, 32769)):
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
    for spec in OFFSETS:
        if not mine():
            claim()
            continue
        yield offset_case(*spec)
