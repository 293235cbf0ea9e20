"""digest.py - the `digest fnv1a64` of an expected output (docs/case-format.md).

FNV-1a 64 over the output's little-endian bytes in C order, NaNs canonical.
Python is far too slow for a byte-serial hash, so the bytes go to the C helper
gen/fnv1a64.c, one persistent `--frames` process per generator worker. The
helper is found through $BCAST_FNV1A64 (gen/gen.mk sets it) or at
build/gen/fnv1a64 (built by `make`).
"""

import os
import struct
import subprocess

import numpy as np

from caseio import GenError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_PROC = []  # the worker's helper process, started on first use

CANONICAL_NAN = {np.dtype(np.float32): np.uint32(0x7fc00000),
                 np.dtype(np.float64): np.uint64(0x7ff8000000000000)}


def helper_path():
    """The fnv1a64 helper, or a GenError saying how to build it."""
    path = os.environ.get("BCAST_FNV1A64") or os.path.join(ROOT, "build", "gen", "fnv1a64")
    if not os.path.exists(path):
        raise GenError("digest helper %s not found: run `make` (it builds build/gen/fnv1a64) "
                       "or set BCAST_FNV1A64" % path)
    return path


def canonical_bytes(arr):
    """arr's C-order little-endian bytes with every NaN replaced by the canonical one."""
    arr = np.ascontiguousarray(arr)
    if arr.dtype in CANONICAL_NAN:
        bits = arr.view(CANONICAL_NAN[arr.dtype].dtype).copy()
        bits[np.isnan(arr)] = CANONICAL_NAN[arr.dtype]
        arr = bits
    return arr.astype(arr.dtype.newbyteorder("<"), copy=False).tobytes()


def fnv1a64(arr):
    """(hex digest, element count) of arr as a `digest fnv1a64` line gives them."""
    data = canonical_bytes(arr)
    if not _PROC or _PROC[0].poll() is not None:
        _PROC[:] = [subprocess.Popen([helper_path(), "--frames"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE)]
    proc = _PROC[0]
    proc.stdin.write(struct.pack("<Q", len(data)))
    proc.stdin.write(data)
    proc.stdin.flush()
    line = proc.stdout.readline().decode().split()
    if len(line) != 2 or int(line[1]) != len(data):
        raise GenError("fnv1a64 helper answered %r for %d bytes" % (line, len(data)))
    return line[0], int(np.asarray(arr).size)


def fnv1a64_py(data):
    """The same hash in plain Python, for tests on a few bytes."""
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h
