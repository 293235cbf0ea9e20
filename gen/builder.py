"""builder.py - turns (op, operands) into a Case: runs the oracles, merges their outcomes.

Agreement (same dtype, shape and values bitwise with NaN==NaN, or the same
error class) gives one `expect *`; any difference gives `expect numpy` and
`expect torch` and the tag `divergent`.
"""

import numpy as np

from caseio import Case, GenError, Operand, Outcome, fmt_shape, fmt_values, seed_of, NP_DTYPE
import digest
import oracles

NUMPY_OPS = set(oracles.NP_FUNC) | {"where", "broadcast_to", "broadcast_shapes"}
TORCH_OPS = set(oracles.TORCH_FUNC) | {"where", "broadcast_to", "expand", "broadcast_shapes"}
RULE_OPS = {"axis_add", "uni_add", "prelu", "gemm_bias"}


def ulp_distance(a, b, dtype):
    """Largest distance in units in the last place between two equal-length token lists."""
    fa = np.array([float.fromhex(t) if t.startswith(("0x", "-0x")) else float(t) for t in a])
    fb = np.array([float.fromhex(t) if t.startswith(("0x", "-0x")) else float(t) for t in b])
    if len(fa) == 0:
        return 0
    if dtype == "f32":
        ia = fa.astype(np.float32).view(np.int32).astype(np.int64)
        ib = fb.astype(np.float32).view(np.int32).astype(np.int64)
        bias = 1 << 31
    else:
        ia = fa.view(np.int64).astype(object)
        ib = fb.view(np.int64).astype(object)
        bias = 1 << 63
    worst = 0
    for x, y, u, v in zip(fa, fb, ia, ib):
        if np.isnan(x) and np.isnan(y):
            continue
        if np.isnan(x) or np.isnan(y) or (np.isinf(x) or np.isinf(y)) and x != y:
            return float("inf")
        # Map sign-magnitude bit patterns onto a monotonic integer line.
        u = int(u) if int(u) >= 0 else -(int(u) + bias)
        v = int(v) if int(v) >= 0 else -(int(v) + bias)
        worst = max(worst, abs(u - v))
    return worst


def agree(a, b, compare):
    if a.kind != b.kind:
        return False
    if a.kind == "error":
        return a.cls == b.cls
    if a.array is not None or b.array is not None:
        if compare != "exact":
            raise GenError("a digested result is compared exactly, not %r" % compare)
        return a.dtype == b.dtype and a.shape == b.shape and not len(_differing(a, b))
    if compare.startswith("ulp") and a.dtype == b.dtype and a.shape == b.shape \
            and a.dtype in ("f32", "f64"):
        return ulp_distance(a.values, b.values, a.dtype) <= int(compare.split()[1])
    return a.key() == b.key()


def auto_tags(op, args, outcomes):
    """Tags that follow from the shapes alone."""
    tags = set()
    shaped = [a for a in args if a.name in ("x", "y", "cond", "self") or a.name.startswith("s")]
    ranks = {len(a.shape) for a in shaped}
    if any(len(a.shape) == 0 for a in shaped):
        tags.add("scalar")
    if len(ranks) > 1:
        tags.add("rank-mismatch")
    if any(0 in a.shape for a in args) or any(o.kind == "ok" and o.shape and 0 in o.shape for o in outcomes):
        tags.add("zero-size")
    if any(o.kind == "error" for o in outcomes):
        tags.add("error")
    # stretch: some operand's extent-1 (or missing) dim meets a larger one.
    if len(shaped) > 1:
        r = max(len(a.shape) for a in shaped)
        for k in range(1, r + 1):
            ext = [a.shape[-k] if k <= len(a.shape) else 1 for a in shaped]
            if 1 in ext and any(e != 1 for e in ext):
                tags.add("stretch")
    if any(s < 0 for a in args for s in a.strides) or any(
            a.strides != _contig(a.shape) or a.offset != 0 for a in args if a.dtype != "-"
            and not (a.name == "out")):
        tags.add("noncontiguous")
    return tags


def _contig(shape):
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= max(int(d), 1)
    return tuple(reversed(strides))


# Ids of cases dropped because an oracle's result dtype is none of the 8.
SKIPPED = []

# Sharding for parallel generation: worker k of n builds only the make_case
# calls whose running index is k mod n (the suites' call order is deterministic),
# and returns None for the others.
_SHARD = [0, 1, 0]  # k, n, running index


def set_shard(k, n):
    _SHARD[:] = [k, n, 0]


def mine():
    """True when the next make_case (or claim) call belongs to this shard. Consumes
    nothing: a suite that skips a case it does not own must still call claim()."""
    return _SHARD[2] % _SHARD[1] == _SHARD[0]


def claim():
    """True when this shard owns the next case (for suites that build Cases themselves)."""
    idx = _SHARD[2]
    _SHARD[2] += 1
    return idx % _SHARD[1] == _SHARD[0]


def _pick_libs(op, mode, args, libs, tags, comments):
    """The oracles that run for this case: libs, or by default those that can
    express op in mode, less those that would crash or could not be given the
    args as they are (each such drop is tagged or commented)."""
    if libs is None:
        if op in RULE_OPS:
            libs = ("rule",)
        else:
            libs = tuple(l for l, ops in (("numpy", NUMPY_OPS), ("torch", TORCH_OPS)) if op in ops)
            if mode == "inplace" and op not in oracles.TORCH_INPLACE:
                libs = tuple(l for l in libs if l != "torch")
    if oracles.numpy_would_crash(args) and ("numpy" in libs or "rule" in libs):
        libs = tuple(l for l in libs if l not in ("numpy", "rule"))
        tags.add("numpy-crash")
        comments.append(oracles.NUMPY_LABEL + " aborts building a view of more than 65 dimensions; "
                        "only torch could run this case")
    if "torch" in libs and oracles.torch_uses_numpy_views(mode, args):
        libs = tuple(l for l in libs if l != "torch")
        tags.add("numpy-crash")
    if "torch" in libs and mode == "out" and (args[-1].strides != _contig(args[-1].shape) or args[-1].offset):
        # run_torch hands torch a fresh contiguous out= (so that torch may resize it):
        # a strided or overlapping out= is not what torch would be given.
        libs = tuple(l for l in libs if l != "torch")
        comments.append("out= is strided: gen's torch oracle passes out= as a contiguous tensor, "
                        "so only NumPy ran")
    if "torch" in libs and mode == "inplace" and oracles.has_internal_overlap(args[0]) \
            and any(st < 0 for st in args[0].strides):
        # torch has no negative strides: torch_view gives torch a contiguous copy of
        # self, which no longer overlaps itself (B9), so torch cannot run this case.
        libs = tuple(l for l in libs if l != "torch")
        comments.append("self overlaps itself and has a negative stride: torch cannot hold it")
    if "torch" in libs and oracles.torch_would_crash(op, mode, args):
        libs = tuple(l for l in libs if l != "torch")
        tags.add("torch-crash")
        comments.append(oracles.TORCH_LABEL + " dies with SIGFPE on this input (int minimum by -1); "
                        "NumPy's wrapped result is expected in both profiles")
    return libs


def _run_oracles(case_id, op, mode, args, attrs, libs, raw, tags, comments):
    """Each oracle's Outcome by name, or None when the case cannot be
    represented (it is then listed in SKIPPED)."""
    outs = {}
    try:
        for lib in libs:
            if lib == "numpy":
                outs["numpy"] = oracles.run_numpy(op, mode, args, attrs, raw)
            elif lib == "torch":
                try:
                    oc, mat = _run_torch_memo(op, mode, args, attrs, raw)
                except oracles.TorchInvalid as exc:
                    tags.add("torch-invalid")
                    comments.append("%s: not a valid result, so NumPy's expectation applies to both "
                                    "profiles" % exc)
                    continue
                outs["torch"] = oc
                if mat:
                    comments.append("torch has no negative strides: torch was given a contiguous "
                                    "copy of the same values")
            elif lib == "rule":
                outs["rule"] = oracles.run_rule(op, args, attrs)
            else:
                raise GenError("unknown oracle %s" % lib)
    except oracles.Unrepresentable:
        SKIPPED.append(case_id)
        return None
    return outs


def _expectations(outs, mode, compare, tags, comments):
    """The expect lines (one shared by both profiles unless NumPy and torch
    disagree) and each library's error message; errors and self's fate are
    tagged and commented."""
    names = list(outs)
    expects, messages = [], []
    if len(names) == 2 and not agree(outs["numpy"], outs["torch"], compare):
        tags.add("divergent")
        for lib in names:
            expects.append((lib, outs[lib], compare))
    else:
        expects.append(("*", outs[names[0]], compare))
    for lib in names:
        oc = outs[lib]
        if oc.kind == "error":
            if lib != "rule":
                messages.append((lib, oc.message))
            else:
                comments.append("rule: " + oc.message)
            if mode == "inplace" and oc.self_unchanged is not None:
                if oc.self_unchanged:
                    tags.add("self-unchanged")
                else:
                    tags.add("self-modified")
                    comments.append("%s MODIFIED self before raising" % lib)
            if mode == "out" and oc.out_unchanged is False:
                # No tag when out is left alone: a missing out-modified means unchanged.
                tags.add("out-modified")
                comments.append("%s MODIFIED out before raising" % lib)
    return names, expects, messages


def make_case(case_id, suite, op, args, mode="value", attrs=(), tags=(), rules=(),
              compare="exact", libs=None, comments=(), digest_over=None, written=None):
    """Runs the oracles that can express op and builds the Case (None when another
    shard owns it).

    libs: override which oracles run (e.g. ("torch",) for expand, ("rule",)).
    digest_over: a result of more elements than this is written as a `digest
    fnv1a64` line, a smaller one as values; the oracles' result arrays are
    compared bitwise (NaN == NaN) before either is written.
    written: the args as the file gives them, when the oracles ran on compact
    copies holding the same logical values (a huge storage of which the view
    addresses a few elements)."""
    if op == "pow" and compare == "exact":
        # Float pow goes through libm and torch's own kernels, which round
        # differently by up to 1 ulp (measured over the ops value grids);
        # 2 leaves margin. Integer results stay exact under `ulp N`.
        compare = "ulp 2"
    idx = _SHARD[2]
    _SHARD[2] += 1
    if idx % _SHARD[1] != _SHARD[0]:
        return None
    comments = list(comments)
    tags = set(tags)
    raw = digest_over is not None
    libs = _pick_libs(op, mode, args, libs, tags, comments)
    outs = _run_oracles(case_id, op, mode, args, attrs, libs, raw, tags, comments)
    if outs is None:
        return None
    if not outs and op == "expand":
        # torch, the only oracle for expand, gave an invalid tensor: B6 decides
        # (a negative size other than -1 is invalid-shape).
        outs["rule"] = Outcome("error", cls="invalid-shape",
                               message="B6: negative size other than -1 in the target")
    if not outs:
        raise GenError("%s: no oracle produced an outcome" % case_id)
    if "torch" in outs:
        _scalar_path(op, mode, args, outs, tags, comments, raw)
    names, expects, messages = _expectations(outs, mode, compare, tags, comments)
    for _, oc, _ in expects:
        _write_array(oc, digest_over)
    if written is not None:
        _check_written(args, written)
        args = written
    tags |= auto_tags(op, args, list(outs.values()))
    if mode == "inplace":
        tags.add("in-place")
    case = Case(case_id, suite, op, args, tags=tags, rules=rules, mode=mode,
                source=names, attrs=attrs, expects=expects, messages=messages,
                comments=comments)
    case.oracle_outcomes = outs  # each oracle's own outcome (gen/confirm.py compares ref with them)
    return case


# Error classes torch decides from shapes, strides, dtypes and attributes
# alone, before it reads or writes an element: the same call with other values
# fails the same way, with the same message.
SHAPE_CLASSES = {"not-broadcastable", "inplace-shape", "rank-limit", "invalid-shape", "axis",
                 "matmul-core"}
_TORCH_SHAPE_ERRORS = {}


def _run_torch_memo(op, mode, args, attrs, raw=False):
    """oracles.run_torch, remembering the shape-class errors (per process).

    Each torch exception costs ~4 ms (c10::Error captures and symbolises a
    C++ backtrace), and many cases differ from an earlier failing one only in
    their values or offsets. A call whose key (op, mode, attrs, and each
    operand's role, dtype, shape and strides) already gave a shape-class error
    gets that outcome again without running torch; any other call, and every
    first occurrence, runs through torch. Generation stays deterministic: a
    remembered outcome is exactly what torch returned for the same key."""
    key = (op, mode, tuple(attrs), tuple((a.name, a.dtype, a.shape, a.strides) for a in args))
    hit = _TORCH_SHAPE_ERRORS.get(key)
    if hit is not None:
        return hit
    oc, mat = oracles.run_torch(op, mode, args, attrs, raw)
    if oc.kind == "error" and oc.cls in SHAPE_CLASSES:
        _TORCH_SHAPE_ERRORS[key] = (oc, mat)
    return oc, mat


def _unravel(k, shape):
    """The C-order multi-index of flat index k (np.unravel_index stops at 32 dims)."""
    idx = []
    for d in reversed(shape):
        idx.append(k % d)
        k //= d
    return tuple(reversed(idx))


def _scalar_path(op, mode, args, outs, tags, comments, raw=False):
    """torch's SIMD quirks (policy in oracles.py, above SIMD_OPS; docs/semantics.md
    B21): replaces torch's vectorized-path values by its scalar-path ones where
    they differ, tags the case `torch-simd` and records the vector values (the
    first DIFF_SHOWN of them for a digested result)."""
    tc = outs["torch"]
    if tc.kind != "ok" or op not in oracles.SIMD_OPS or tc.dtype not in ("f32", "f64") \
            or int(np.prod(tc.shape, dtype=np.int64)) <= 1:
        return  # one element never reaches the vector loop
    if args[0].weak_value() is not None:
        # B34: torch has no out= overload with a Number first (remainder(Number, Tensor)),
        # so the scalar-path rerun cannot be made; the vectorized values stand.
        comments.append("torch's scalar path not rerun: the Python scalar is the first operand")
        return
    sc = oracles.run_torch_scalar_path(op, mode, args, tc, raw)
    if sc.dtype != tc.dtype or sc.shape != tc.shape:
        raise GenError("torch's scalar path changed the result's dtype or shape: %r vs %r" % (sc, tc))
    ks = _differing(sc, tc)
    if not len(ks):
        return
    vals = tc.values if tc.array is None else fmt_values(tc.array.reshape(-1)[ks[:DIFF_SHOWN]], tc.dtype)
    shown = ks if tc.array is None else ks[:DIFF_SHOWN]
    diff = ["(%s)=%s" % (",".join(str(int(i)) for i in _unravel(int(k), tc.shape)),
                         vals[k] if tc.array is None else vals[j]) for j, k in enumerate(shown)]
    if len(shown) < len(ks):
        diff.append("... (%d elements in all)" % len(ks))
    tags.add("torch-simd")
    comments.append(oracles.TORCH_LABEL + " vectorized path gave: " + " ".join(diff))
    outs["torch"] = sc


DIFF_SHOWN = 16


def _differing(a, b):
    """Flat C-order indices where two ok Outcomes of one shape differ bitwise (NaN == NaN)."""
    if a.array is None and b.array is None:
        return [k for k, (v, w) in enumerate(zip(a.values, b.values)) if v != w]
    if a.array is None or b.array is None or a.array.dtype != b.array.dtype:
        raise GenError("comparing a digested result with a listed one")
    width = "u%d" % a.array.dtype.itemsize
    ba = np.frombuffer(digest.canonical_bytes(a.array), dtype=width)
    bb = np.frombuffer(digest.canonical_bytes(b.array), dtype=width)
    return np.flatnonzero(ba != bb)


def _write_array(oc, digest_over):
    """Turns a raw result array into its values tokens, or its digest when it
    has more than digest_over elements."""
    if oc.kind != "ok" or oc.array is None:
        return
    flat = oc.array.reshape(-1)
    if len(flat) <= digest_over:
        oc.values = fmt_values(flat, oc.dtype)
    else:
        oc.digest = digest.fnv1a64(oc.array)
    oc.array = None


def _check_written(args, written):
    """The written args must show the oracles' args: same names, dtypes, shapes."""
    if [(a.name, a.dtype, a.shape) for a in args] != [(w.name, w.dtype, w.shape) for w in written]:
        raise GenError("written args differ from the oracles' args")


# ---------------------------------------------------------------- data

def rng_for(case_id):
    return np.random.RandomState(seed_of(case_id))


def small_values(rng, dtype, n):
    """Short, exactly representable values: they keep files small and sums exact."""
    if dtype == "bool":
        return rng.randint(0, 2, n).astype(np.bool_)
    if dtype == "u8":
        return rng.randint(0, 10, n).astype(np.uint8)
    if dtype in ("i8", "i16", "i32", "i64"):
        return rng.randint(-9, 10, n).astype(NP_DTYPE[dtype])
    return (rng.randint(-16, 17, n) / 4.0).astype(NP_DTYPE[dtype])


def operand(name, dtype, shape, rng, values=None):
    """A contiguous operand with small random values (or the given ones)."""
    n = int(np.prod(shape, dtype=np.int64)) if len(shape) else 1
    if values is None:
        values = small_values(rng, dtype, n)
    values = np.asarray(values, dtype=NP_DTYPE[dtype]).reshape(-1)
    if len(values) != n:
        raise GenError("operand %s: %d values for shape %s" % (name, len(values), fmt_shape(shape)))
    return Operand(name, dtype, shape, storage=values)


def shape_arg(name, shape):
    """A shape-only arg (broadcast_shapes): strides all 0 over a 1-element storage,
    so every index addresses element 0 whatever the extents."""
    return Operand(name, "-", shape, strides=(0,) * len(shape), offset=0, storage=None,
                   storage_len=1)
