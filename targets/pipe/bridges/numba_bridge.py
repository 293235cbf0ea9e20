"""numba_bridge.py - numba behind the pipe protocol, two ways (registry: numba-njit, numba-vectorize).

  numba_bridge.py njit        each op is an @njit function written as a user would
                              (x + y, np.maximum(x, y), np.where(c, x, y), ...);
                              in-place is `x += y` (augmented assignment) inside @njit;
                              an op with no augmented assignment (comparisons, logical
                              ops, maximum/minimum) has no in-place form to write, and
                              such a case is answered `other` saying so (none is in
                              the default suite; numba-njit.txt states it)
  numba_bridge.py vectorize   each op is a lazy @vectorize ufunc of the scalar
                              expression (one per input dtypes, see per_signature);
                              numba's ufunc machinery broadcasts; in-place/out=
                              are the ufunc's out= argument

Operands are NumPy strided views (numpy_bridge.view). A 0-d result that numba
returns as a Python scalar is passed on as NumPy makes it (np.asarray), since
that is what a caller gets. Not declared, from numba's documentation: matmul
(`@`/np.dot only for contiguous 1-D/2-D float/complex arrays), expand, axis_add,
uni_add; for vectorize also the shape ops (a ufunc is scalar-wise).
Issue #25's ops: the ufuncs in SCALAR (both modes); np.clip with array bounds
in njit only (numba's "Other functions" list; np.clip of scalars does not
type, so a @vectorize clip is not something numba offers); not np.heaviside
(in no numba version's ufunc list) nor the torch/ONNX ops (div_trunc,
div_floor, lerp, addcmul, addcdiv, prelu, gemm_bias), which numba has no
function for. The new ops are value mode only (no in-place form declared).
The njit functions are in numba_njit_ops.py with cache=True: set
NUMBA_CACHE_DIR (targets/registry.tsv points it into $(BUILD)) and each
specialisation is compiled once per cache slot (claim_cache_slot), not once
per bridge process and run.
Numba's compile errors are answers like any other: class `other` unless the
text is a known broadcasting message (numba's "unable to broadcast argument N
to output array", or NumPy's).
"""

import inspect
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bcast_bridge as bb  # noqa: E402


def claim_cache_slot():
    """Point NUMBA_CACHE_DIR (if set) at a subdirectory slotK that no other live
    bridge uses, and hold it (flock) for this process's life; returns the lock's fd.
    Why: numba's cache is not safe for two processes saving to one directory at
    once. Both number their new entry from the index they read, and one's code
    lands under the other's signature: a full cold run with --jobs 2 sharing one
    directory got rank-2 code for rank-3 maximum(f64) calls (5 wrong shapes).
    Serial bridges reuse slot0 (and slot1 with --jobs 2), so runs stay warm.
    Must run before numba is imported: numba reads NUMBA_CACHE_DIR then."""
    base = os.environ.get("NUMBA_CACHE_DIR")
    if not base:
        return None
    import fcntl
    import time

    def try_slot(k):
        """Lock slotK and point numba at it: the lock's fd, or None if another bridge holds it."""
        d = os.path.join(base, "slot%d" % k)
        try:
            os.makedirs(d, exist_ok=True)
            fd = os.open(os.path.join(d, "lock"), os.O_CREAT | os.O_RDWR, 0o644)
        except OSError as exc:
            bb.fail("NUMBA_CACHE_DIR=%s: cannot use %s: %s" % (base, d, exc))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        os.environ["NUMBA_CACHE_DIR"] = d
        return fd

    try:
        existing = sorted(int(n[4:]) for n in os.listdir(base) if n.startswith("slot") and n[4:].isdigit())
    except OSError:
        existing = []
    # A bridge replaced after a timeout starts while its killed predecessor may
    # still hold its slot for a few ms (it dies by PR_SET_PDEATHSIG): wait up to
    # 1 s for a warm slot before opening a new, cold one.
    deadline = time.monotonic() + 1.0
    while existing:
        for k in existing:
            fd = try_slot(k)
            if fd is not None:
                return fd
        if time.monotonic() > deadline:
            break
        time.sleep(0.02)
    for k in range(256):
        if k not in existing:
            fd = try_slot(k)
            if fd is not None:
                return fd
    bb.fail("NUMBA_CACHE_DIR=%s: all 256 cache slots are in use by other bridges" % base)


CACHE_SLOT = claim_cache_slot()   # the open fd is the claim; closed (released) at exit

try:
    import numba
    import numpy as np
    from numba import vectorize
except ImportError as exc:
    bb.fail("numba is not importable: %s" % exc)

import re  # noqa: E402

import numpy_bridge  # noqa: E402
from numpy_bridge import result, view  # noqa: E402

# numba's own texts; NumPy's (raised inside compiled code or by its ufunc
# machinery) are classified by numpy_bridge.
NUMBA_RULES = [(re.compile(rx), cls) for rx, cls in [
    (r"^unable to broadcast argument \d+ to output array", "not-broadcastable"),
]]


ANSI = re.compile(r"\x1b\[[0-9;]*m")
NO_IMPL = re.compile(r"No implementation of function .*?found for signature")


def classify(exc):
    """numba's TypingError opens with the same line for every failure ("Failed
    in nopython mode pipeline (step: nopython frontend)"); the line that names
    what failed ("No implementation of function Function(<built-in function
    and_>) found for signature") comes further down. That line is the message,
    followed by the header, so that a report tells one typing failure from
    another; the class is still decided by the rules (it is `other`)."""
    text = ANSI.sub("", str(exc))
    m = NO_IMPL.search(text)
    if type(exc).__name__ == "TypingError" and m:
        cls, msg = numpy_bridge.classify(exc, first=NUMBA_RULES)
        return cls, "TypingError: %s (%s)" % (" ".join(m.group(0).split()), msg.split(": ", 1)[-1])
    return numpy_bridge.classify(exc, first=NUMBA_RULES)

SCALAR = {  # op -> expression in a, b (and c for where)
    "add": "a + b", "sub": "a - b", "mul": "a * b", "div": "a / b", "floor_divide": "a // b",
    "remainder": "a % b", "pow": "a ** b", "maximum": "np.maximum(a, b)", "minimum": "np.minimum(a, b)",
    "eq": "a == b", "ne": "a != b", "lt": "a < b", "le": "a <= b", "gt": "a > b", "ge": "a >= b",
    "logical_and": "np.logical_and(a, b)", "logical_or": "np.logical_or(a, b)",
    "logical_xor": "np.logical_xor(a, b)",
    "bitwise_and": "a & b", "bitwise_or": "a | b", "bitwise_xor": "a ^ b",
    # issue #25: the NumPy ufuncs numba compiles, in @njit and @vectorize alike (numba's
    # "Supported NumPy features" page, Standard ufuncs; numba.np.ufunc_db in 0.56.4 and
    # 0.68.1 lists each). np.heaviside is in neither version's list, so not claimed.
    "copysign": "np.copysign(a, b)", "atan2": "np.arctan2(a, b)", "hypot": "np.hypot(a, b)",
    "fmod": "np.fmod(a, b)", "logaddexp": "np.logaddexp(a, b)", "logaddexp2": "np.logaddexp2(a, b)",
    "nextafter": "np.nextafter(a, b)", "ldexp": "np.ldexp(a, b)", "gcd": "np.gcd(a, b)",
    "lcm": "np.lcm(a, b)", "left_shift": "np.left_shift(a, b)", "right_shift": "np.right_shift(a, b)",
    "float_power": "np.float_power(a, b)", "fmax": "np.fmax(a, b)", "fmin": "np.fmin(a, b)",
}
AUGMENTED = {"add": "+=", "sub": "-=", "mul": "*=", "div": "/=", "floor_divide": "//=", "remainder": "%=",
             "pow": "**=", "bitwise_and": "&=", "bitwise_or": "|=", "bitwise_xor": "^="}


def compile_all(kind):
    """op -> callable. Sources are what a numba user writes for each op."""
    if kind == "njit":
        return njit_ops()
    fns, inplace = {}, {}
    for op, expr in SCALAR.items():
        ns = {"np": np}
        exec("def f(a, b):\n    return %s\n" % expr, ns)  # noqa: S102 - fixed table above
        fns[op] = per_signature(ns["f"])
    ns = {}
    exec("def w(c, a, b):\n    return a if c else b\n", ns)  # noqa: S102
    fns["where"] = per_signature(ns["w"])
    return fns, inplace


def njit_ops():
    """(op -> @njit function, op -> in-place @njit function) from numba_njit_ops.py,
    whose functions are cache=True so NUMBA_CACHE_DIR keeps their compiled code
    between bridge processes and runs. Their bodies must be this module's SCALAR
    and AUGMENTED expressions (checked here, so the two tables cannot drift)."""
    import numba_njit_ops as ops   # only njit mode: it defines the cache=True functions
    fns, inplace = {}, {}
    for op, expr in SCALAR.items():
        fns[op] = getattr(ops, op)
        if inspect.getsource(fns[op].py_func).rstrip().split("\n")[-1].strip() != "return " + expr:
            bb.fail("numba_njit_ops.%s is not `return %s`" % (op, expr))
    for op in ("where", "broadcast_to", "broadcast_shapes", "clip"):
        fns[op] = getattr(ops, op)
    for op, aug in AUGMENTED.items():
        inplace[op] = getattr(ops, "i" + op)
        if inspect.getsource(inplace[op].py_func).rstrip().split("\n")[-1].strip() != "a %s b" % aug:
            bb.fail("numba_njit_ops.i%s is not `a %s b`" % (op, aug))
    return fns, inplace


def per_signature(pyfunc):
    """A lazy @vectorize ufunc per combination of input dtypes. One DUFunc for
    all calls would make results depend on call order: once it holds a loop
    for (f32, f32), a later (i8, i8) call reuses that loop by safe casting
    instead of compiling its own, and returns f32. A fresh DUFunc per input
    dtypes is what a user calling it with those dtypes first gets, and keeps
    the run deterministic whatever the case order or --jobs."""
    cache = {}

    def call(*args, **kw):
        key = tuple(np.asarray(a).dtype for a in args)
        if key not in cache:
            cache[key] = vectorize(pyfunc)
        return cache[key](*args, **kw)
    return call


def make_run(kind, fns, inplace):
    def run(case):
        args, mode = case.args, case.mode
        wi = 0 if mode == "inplace" else len(args) - 1 if mode == "out" else -1
        try:
            views = []
            for i, a in enumerate(args):
                views.append((None, a.shape) if a.dtype == "-" else view(a, readonly=(i == wi and a.overlaps())))
            vs = [v for _, v in views]
            if mode == "value":
                if case.op == "broadcast_to":
                    return result(fns["broadcast_to"](vs[0], tuple(case.target)))
                if case.op == "broadcast_shapes":
                    return bb.reply_shape(fns["broadcast_shapes"](*[tuple(s) for s in vs]))
                return result(np.asarray(fns[case.op](*vs)))
            storage, w = views[wi]
            before = storage.tobytes()
            try:
                if kind == "njit":
                    if mode != "inplace" or case.op not in inplace:
                        return bb.reply_error("other", "no numba in-place form for %s" % case.op)
                    inplace[case.op](vs[0], vs[1])
                else:
                    fns[case.op](*vs[:-1], out=w) if mode == "out" else fns[case.op](vs[0], vs[1], out=w)
            except Exception:
                if storage.tobytes() != before:
                    return numpy_bridge.reply_wrote_then_error(args[wi].dtype, w, sys.exc_info()[1], classify)
                raise
            return result(w)
        except Exception as exc:  # noqa: BLE001 - every library error is an answer
            return bb.reply_error(*classify(exc))
    return run


def main():
    kind = sys.argv[1] if len(sys.argv) > 1 else ""
    if kind not in ("njit", "vectorize"):
        bb.fail("usage: numba_bridge.py njit|vectorize")
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    fns, inplace = compile_all(kind)
    flags = ("strided", "inplace") if kind == "njit" else ("strided", "inplace", "out")
    hello = bb.Hello("numba-" + kind, numba.__version__, numpy_bridge.numpy_profile(), ops=list(fns), dtypes=bb.NAMES,
                     max_rank=0, flags=flags)
    bb.serve(hello, make_run(kind, fns, inplace))


if __name__ == "__main__":
    main()
