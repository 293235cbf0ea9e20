"""suite_sizes.py - arrays large enough to reach optimised libraries' fast paths
(SIMD bodies and tails, unrolled loops, cache blocking, multi-threaded
splitting, flattening of contiguous dims, scalar/row/column/outer kernels),
and cheap int64 overflow of shapes (B16).

Extents sit around the boundaries those paths use: 2^k-1, 2^k, 2^k+1 for k
up to 12 (1 ... 4097) and the primes 17, 31, 127, 257, 1031 (EXTENTS).
Operands are ramps over each dtype's whole range (sizes_operands.py), written
as `pattern ramp` lines; results of more than TINY elements are written as
`digest fnv1a64` lines, after NumPy's and torch's arrays were compared bit
for bit. Sweeps (each case is tagged with its sweep, pattern and layout):

  tail      every op x every dtype x extents <= 257 on 1-D same-shape and
            scalar-either-side operands (tag simd-tail): each kernel's vector
            body and tail.
  pattern   every PATTERN x every extent, dense, (op, dtype) pairs taken
            in turn from OPS x DTYPES, two per point below 1023 and one from
            1023 up (tags simd-tail / cache-block by extent).
  layout    every PATTERN x LAYOUT_EXTENTS x the layouts stride0, negative,
            offset, transposed (on x, or on x and y), in-place and out=, one
            (op, dtype) pair per point in turn.
  threaded  a few results of 64K to 1M elements (tag threaded): above the
            grain at which libraries split work across threads.
  matmul    batch broadcasting (B14) of cores with k around SIMD widths.
  overflow  element counts or byte sizes that overflow int64, given as
            stride-0 views (nothing allocated): B16 in both profiles.

Ops: add, mul, div, maximum, lt, eq, where (and matmul). Dtypes: all 8 in
every sweep (they differ in lane width and signedness, which is exactly what
SIMD kernels specialise on).
"""

import itertools

import numpy as np

from builder import claim, make_case, mine, shape_arg
from caseio import DTYPES, INT_DTYPES, fmt_shape
from sizes_operands import laid_out, ramp_of, result_ramp
import ramp
from zero_size_helpers import stride0

SUITE = "sizes"
TINY = 16  # results up to this many elements are written as values
THREAD_GRAIN = 65536  # results this large are tagged `threaded`

BOUNDARY = tuple(sorted({2 ** k + d for k in range(1, 13) for d in (-1, 0, 1)}))
PRIMES = (17, 31, 127, 257, 1031)
EXTENTS = tuple(sorted(set(BOUNDARY) | set(PRIMES)))
TAIL_EXTENTS = tuple(n for n in EXTENTS if n <= 257)
LAYOUT_EXTENTS = (7, 17, 64, 255, 1031, 2049)
OPS = ("add", "mul", "div", "maximum", "lt", "eq", "where")
PAIRS = tuple((op, dt) for dt in DTYPES for op in OPS)

# name -> (x shape, y shape) at extent n: the broadcast patterns libraries specialise.
PATTERNS = (
    ("same", lambda n: ((3, n), (3, n))),
    ("scalar-left", lambda n: ((), (3, n))),
    ("scalar-right", lambda n: ((3, n), ())),
    ("one-left", lambda n: ((1, 1), (3, n))),
    ("row", lambda n: ((1, n), (3, n))),
    ("row-right", lambda n: ((3, n), (n,))),
    ("column", lambda n: ((3, 1), (3, n))),
    ("column-right", lambda n: ((3, n), (3, 1))),
    ("outer", lambda n: ((3, 1), (1, n))),
    ("outer-tall", lambda n: ((n, 1), (1, 5))),
    ("middle", lambda n: ((2, 1, n), (2, 3, n))),
    ("leading", lambda n: ((3, n), (2, 3, n))),
)
TAIL_PATTERNS = (
    ("same", lambda n: ((n,), (n,))),
    ("scalar-left", lambda n: ((), (n,))),
    ("scalar-right", lambda n: ((n,), ())),
)
LAYOUTS = ("stride0", "negative", "offset", "transposed", "in-place", "out")
THREADED = (
    ("same", "add", "i8", (1024, 1024), (1024, 1024)),
    ("outer", "mul", "f32", (1031, 1), (1, 1031)),
    ("row", "maximum", "u8", (1, 257), (257, 257)),
    ("column", "add", "i64", (65, 1), (65, 1025)),
    ("scalar-right", "div", "f64", (65537,), ()),
    ("middle", "lt", "i16", (2, 1, 16385), (2, 2, 16385)),
    ("row-right", "where", "i8", (257, 256), (256,)),
    ("scalar-left", "eq", "bool", (), (65536,)),
)

MATMUL_BATCHES = (  # name, x's batch dims, y's (None: that operand is 1-D)
    ("batch-same", (4,), (4,)),
    ("batch-left", (1,), (4,)),
    ("batch-right", (4,), (1,)),
    ("batch-missing-left", (), (4,)),
    ("batch-missing-right", (4,), ()),
    ("batch-outer", (3, 1), (1, 4)),
    ("vector-left", None, (4,)),
    ("vector-right", (4,), None),
)
MATMUL_CORES = ((3, 17, 5), (16, 33, 17), (7, 64, 65), (4, 257, 3), (2, 1031, 2))  # (m, k, n)

# B16 shapes (operands are stride-0 views). Each operand's own byte size fits
# in int64 for every dtype it is given in, so the overflow is the result's,
# which both libraries check (NumPy's operand-creation check does not answer
# first); the one exception is the in-place self of (2^62,4), whose own count
# both libraries refuse. COUNT: the broadcast element count overflows int64 (2^63 is one
# past INT64_MAX); COUNT_1B only for 1-byte dtypes. BYTES: the count fits,
# the byte size does not. EMPTY: a 0 makes the result empty, but its extents
# multiply past int64 (NumPy) or uint64 (torch) before the 0, or only
# NumPy's product of the non-zero extents times the itemsize overflows.
# SHAPES_FIT: broadcast_shapes just inside int64, or empty.
COUNT_OVERFLOW = (
    ((2 ** 32, 1), (1, 2 ** 32)),
    ((2 ** 31, 1), (1, 2 ** 32)),
    ((2 ** 59, 1), (1, 16)),
    ((16, 1), (2 ** 58, 1, 3)),
    ((2 ** 32, 1, 1), (1, 2 ** 31, 2)),
)
COUNT_1B = (((2 ** 63 - 1, 1), (1, 2)), ((2 ** 62, 1), (1, 4)))
COUNT_OPS = (("add", "i8"), ("eq", "u8"), ("maximum", "f64"), ("mul", "i64"))
WHERE_OVERFLOW = (((2 ** 21, 1, 1), (1, 2 ** 21, 1), (1, 1, 2 ** 21)), ((2 ** 62, 1), (1, 4), ()))
VIEW_OVERFLOW = (((1, 1), (2 ** 62, 4)), ((3, 1), (2 ** 61, 3, 4)), ((1,), (2 ** 63 - 1, 2)))  # (x, target)
MATMUL_OVERFLOW = (((2 ** 31, 1, 2, 3), (1, 2 ** 32, 3, 2)), ((2 ** 32, 1, 2, 3), (1, 2 ** 32, 3, 2)))
BYTE_OVERFLOW = (  # x, y, op, dtype
    ((2 ** 61, 1), (1, 2), "add", "i16"),
    ((2 ** 31, 1), (1, 2 ** 31), "add", "i16"),
    ((2 ** 60, 1), (1, 2), "add", "f32"),
    ((2 ** 59, 1), (1, 2), "mul", "f64"),
    ((2 ** 59, 1), (1, 3), "add", "i64"),
)
EMPTY_OVERFLOW = (
    ((0, 2 ** 60, 1), (1, 1, 4), "f32"),
    ((0, 2 ** 62, 1), (1, 1, 4), "i8"),
    ((0, 2 ** 61, 1), (1, 1, 2), "i16"),
    ((2 ** 31, 1, 0), (1, 2 ** 32, 1), "bool"),
    ((2 ** 32, 1, 0), (1, 2 ** 32, 1), "i8"),
    ((2 ** 62, 1, 0), (1, 4, 1), "u8"),
)
# broadcast_shapes at the edges of int64: results that fit, empty results
# whose extents overflow before their 0, and non-empty results whose element
# count overflows, which torch's broadcast_shapes answers with a shape (it
# counts nothing) and NumPy refuses (B16). A shape-only result holds no data,
# so the runner takes an overflowing count from it (docs/target-abi.md).
SHAPES_FIT = (
    ((2 ** 62, 1), (1, 4)),
    ((2 ** 31, 1), (1, 2 ** 32)),
    ((2 ** 63 - 1, 1), (1, 2)),
    ((2 ** 32, 1, 1), (1, 2 ** 31, 1), (1, 1, 2)),
    ((2 ** 63 - 1, 1), (1, 1)),
    ((2 ** 31, 1), (1, 2 ** 32 - 1)),
    ((0, 2 ** 62, 1), (1, 1, 4)),
    ((2 ** 62, 1), (1, 4), (0, 1, 1)),
    ((2 ** 40, 1, 0), (1, 2 ** 40, 1)),
    ((2 ** 31, 1, 0), (1, 2 ** 32, 1)),
    ((2 ** 21, 1, 1), (1, 2 ** 21, 1), (1, 1, 2 ** 21 - 1)),
)


class Spec:
    """One planned case: its id, op, dtype (of x), tags, mode, and build(),
    which makes the args (called only by the shard that owns the case:
    ramps of thousands of elements are not free). n, pattern and layout say
    where the case sits in the sweeps (for the tests)."""

    def __init__(self, cid, op, dtype, build, tags, mode="value", rules=None, attrs=(),
                 digest=True, n=None, pattern=None, layout="dense"):
        self.cid, self.op, self.dtype, self.build = cid, op, dtype, build
        self.tags, self.mode, self.attrs, self.digest = tuple(tags), mode, attrs, digest
        self.rules = rules if rules is not None else rules_for(op, dtype, mode)
        self.n, self.pattern, self.layout = n, pattern, layout


def broadcast(*shapes):
    return tuple(np.broadcast_shapes(*shapes))


def extent_tags(n):
    if n <= 257:
        return ("simd-tail",)
    return ("cache-block",) if n >= 511 else ()


def rules_for(op, dtype, mode="value"):
    rules = ["B1", "B2", "B17", "B18"]
    if dtype in ("f32", "f64"):
        rules.append("B21")
    elif dtype in INT_DTYPES:
        rules.append("B20")
    if op == "where":
        rules.append("B4")
    if mode != "value":
        rules.append("B8")
    return tuple(rules)


def value_args(op, dtype, xs, ys, layout="dense", where="x", k=0):
    """The args of op over the pattern shapes xs, ys; layout applies to x
    (where="x") or to x and y (where="xy"). where(cond, x, y) takes cond and
    y at xs and x at ys, so cond is stretched wherever x of the pattern is."""
    full = broadcast(xs, ys)
    lx = layout
    ly = layout if where == "xy" else "dense"
    if op == "where":
        return [laid_out("cond", "bool", xs, lx, full, k), laid_out("x", dtype, ys, ly, full, k + 1),
                laid_out("y", dtype, xs, lx, full, k + 2)]
    return [laid_out("x", dtype, xs, lx, full, k), laid_out("y", dtype, ys, ly, full, k + 1)]


def shapes_id(shapes):
    return "x".join(fmt_shape(s) for s in shapes)


def dense_spec(sweep, pname, op, dtype, xs, ys, n, k):
    """A dense value case of op over the pattern shapes (tail, pattern, threaded sweeps)."""
    shapes = (xs, ys, xs) if op == "where" else (xs, ys)
    prefix = "sizes/tail/" if sweep == "tail" else "sizes/"
    return Spec("%s%s/%s/%s/%s" % (prefix, pname, op, dtype, shapes_id(shapes)), op, dtype,
                lambda: value_args(op, dtype, xs, ys, k=k), (sweep, pname, "dense") + extent_tags(n),
                n=n, pattern=pname)


def tail_plan():
    """Every op x dtype on 1-D same-shape and scalar-either-side operands, n <= 257."""
    for (pname, pat), n, dtype, op in itertools.product(TAIL_PATTERNS, TAIL_EXTENTS, DTYPES, OPS):
        xs, ys = pat(n)
        yield dense_spec("tail", pname, op, dtype, xs, ys, n, n + len(op))


def pattern_plan():
    """Every pattern x every extent, dense, (op, dtype) pairs in turn: two per
    point below 1023, one from 1023 up (those hold most of the elements)."""
    for p, (pname, pat) in enumerate(PATTERNS):
        slot = 0  # 62 slots per pattern; a step of 9 (prime to 56) meets every pair in 56
        for n in EXTENTS:
            xs, ys = pat(n)
            for _ in range(2 if n < 1023 else 1):
                op, dtype = PAIRS[(7 * p + 9 * slot) % len(PAIRS)]
                yield dense_spec("pattern", pname, op, dtype, xs, ys, n, slot)
                slot += 1


def layout_pair(turn, layout):
    """The (op, dtype) pair for a layout point: the next one in turn that the
    mode can run (where has no in-place or out= form, torch no maximum_; an
    integer or bool self cannot hold a true division: a dtype error, no kernel)."""
    while True:
        op, dtype = PAIRS[turn % len(PAIRS)]
        if not ((layout in ("in-place", "out") and op == "where") or
                (layout == "in-place" and (op == "maximum" or (op == "div" and dtype not in ("f32", "f64"))))):
            return op, dtype
        turn += 1


def layout_plan():
    """Every pattern x layout x LAYOUT_EXTENTS, one (op, dtype) pair in turn.
    In-place needs an operand of the result's shape: none in outer patterns."""
    turn = 0
    for (pname, pat), layout, n in itertools.product(PATTERNS, LAYOUTS, LAYOUT_EXTENTS):
        xs, ys = pat(n)
        turn += 1
        op, dtype = layout_pair(turn * 5, layout)
        tags = ("layout", pname, layout) + extent_tags(n)
        if layout == "in-place":
            spec = inplace_spec(pname, op, dtype, xs, ys, tags)
        elif layout == "out":
            spec = out_spec(pname, op, dtype, xs, ys, tags)
        else:
            where = "xy" if turn % 2 else "x"
            spec = Spec("sizes/%s/%s/%s/%sx%s/%s-%s" % (pname, op, dtype, fmt_shape(xs), fmt_shape(ys), layout, where),
                        op, dtype, lambda op=op, dtype=dtype, xs=xs, ys=ys, lay=layout, w=where, k=turn:
                        value_args(op, dtype, xs, ys, lay, w, k), tags + ("noncontiguous",))
        if spec is not None:
            spec.n, spec.pattern, spec.layout = n, pname, layout
            yield spec


def inplace_spec(pname, op, dtype, xs, ys, tags):
    """self op= other, self the pattern operand that has the result's shape."""
    full = broadcast(xs, ys)
    if full not in (xs, ys):
        return None
    ss, os_ = (xs, ys) if xs == full else (ys, xs)
    return Spec("sizes/%s/%s/%s/self%s/y%s" % (pname, op, dtype, fmt_shape(ss), fmt_shape(os_)), op, dtype,
                lambda: [result_ramp("self", dtype, ss), laid_out("y", dtype, os_, "dense", full, 1)],
                tags, mode="inplace")


def out_spec(pname, op, dtype, xs, ys, tags):
    """op(x, y, out=out), out dense of the result's shape in NumPy's result dtype."""
    full = broadcast(xs, ys)
    od = "bool" if op in ("lt", "eq") else "f64" if op == "div" and dtype not in ("f32", "f64") else dtype
    return Spec("sizes/%s/%s/%s/%sx%s/out%s" % (pname, op, dtype, fmt_shape(xs), fmt_shape(ys), fmt_shape(full)),
                op, dtype, lambda: [laid_out("x", dtype, xs, "dense", full, 0),
                                    laid_out("y", dtype, ys, "dense", full, 1), result_ramp("out", od, full)],
                tags + ("out",), mode="out")


def threaded_plan():
    """Results of 64K to 1M elements, one per pattern family."""
    for pname, op, dtype, xs, ys in THREADED:
        yield dense_spec("threaded", pname, op, dtype, xs, ys, max(max(xs, default=1), max(ys, default=1)), 0)


def matmul_args(dtype, xs, ys):
    """Ramps for x @ y. Float values are small integers, so every sum is exact
    in any order; integer ones span the dtype (products wrap, in any order alike)."""
    if dtype in ("f32", "f64"):
        px, py = (5, 1, 17, 8, 1), (3, 2, 13, 6, 1)
    else:
        px, py = ramp_of(dtype, "x"), ramp_of(dtype, "y")
    return [ramp.operand("x", dtype, xs, px), ramp.operand("y", dtype, ys, py)]


def matmul_plan():
    """Every batch pattern x MATMUL_CORES: all dtypes on the first core, two in
    turn on the others (k around SIMD widths and a blocking size)."""
    turn = 0
    for (bname, bx, by), (m, k, n) in itertools.product(MATMUL_BATCHES, MATMUL_CORES):
        dts = DTYPES if (m, k, n) == MATMUL_CORES[0] else (DTYPES[turn % 8], DTYPES[(turn + 3) % 8])
        turn += 1
        xs = (k,) if bx is None else bx + (m, k)
        ys = (k,) if by is None else by + (k, n)
        for dtype in dts:
            yield Spec("sizes/matmul/%s/%s/%s" % (bname, dtype, shapes_id((xs, ys))), "matmul", dtype,
                       lambda dtype=dtype, xs=xs, ys=ys: matmul_args(dtype, xs, ys),
                       ("matmul", bname, "dense") + extent_tags(k), rules=("B12", "B13", "B14", "B17", "B18"),
                       n=k, pattern=bname)


def overflow_plan():
    """B16 without memory: operands are stride-0 views of one element, so only
    shapes are big. Element counts and byte sizes just past and far past
    int64, in every op kind; empty results whose extents overflow before their
    0 (or only in NumPy's non-zero product); broadcast_shapes at the edges."""
    def spec(kind, op, dtype, build, shapes, mode="value", attrs=()):
        cid = "sizes/overflow/%s/%s/%s/%s%s" % (kind, op, dtype, shapes_id(shapes),
                                                "" if mode == "value" else "/" + mode)
        rules = ("B2", "B16", "B17") + (("B8",) if mode != "value" else ()) + (("B4",) if kind == "shapes" else ())
        return Spec(cid, op, dtype, build, ("overflow", kind), mode=mode, rules=rules, attrs=attrs, digest=False)
    views = lambda dtype, *shapes: [stride0(nm, dtype, sh, 3 + i) for i, (nm, sh) in enumerate(zip("xy", shapes))]
    for (xs, ys), (op, dtype) in itertools.product(COUNT_OVERFLOW, COUNT_OPS):
        yield spec("count", op, dtype, lambda dtype=dtype, xs=xs, ys=ys: views(dtype, xs, ys), (xs, ys))
    for (xs, ys), (op, dtype) in itertools.product(COUNT_1B, COUNT_OPS[:2]):
        yield spec("count", op, dtype, lambda dtype=dtype, xs=xs, ys=ys: views(dtype, xs, ys), (xs, ys))
    for xs, ys, op, dtype in BYTE_OVERFLOW:
        yield spec("bytes", op, dtype, lambda dtype=dtype, xs=xs, ys=ys: views(dtype, xs, ys), (xs, ys))
    for shapes in WHERE_OVERFLOW:
        yield spec("count", "where", "i16", lambda shapes=shapes: [stride0("cond", "bool", shapes[0], 1)]
                   + [stride0(nm, "i16", sh, 3 + i) for i, (nm, sh) in enumerate(zip("xy", shapes[1:]))], shapes)
    for op, (xs, target) in itertools.product(("broadcast_to", "expand"), VIEW_OVERFLOW):
        yield spec("count", op, "f32", lambda xs=xs: [ramp.operand("x", "f32", xs, ramp_of("f32", "x"))],
                   (xs, target), attrs=(("shape", fmt_shape(target)),))
    for xs, ys in MATMUL_OVERFLOW:
        yield spec("count", "matmul", "f32", lambda xs=xs, ys=ys: views("f32", xs, ys), (xs, ys))
    yield spec("count", "add", "i8", lambda: [stride0("self", "i8", (2 ** 62, 4), 3), stride0("y", "i8", (), 5)],
               ((2 ** 62, 4), ()), mode="inplace")
    yield spec("count", "add", "i8", lambda: views("i8", (2 ** 62, 1), (1, 4)) + [result_ramp("out", "i8", (2, 4))],
               ((2 ** 62, 1), (1, 4), (2, 4)), mode="out")
    for xs, ys, dtype in EMPTY_OVERFLOW:
        yield spec("empty", "add", dtype, lambda dtype=dtype, xs=xs, ys=ys: views(dtype, xs, ys), (xs, ys))
    for shapes in SHAPES_FIT:
        yield spec("shapes", "broadcast_shapes", "-",
                   lambda shapes=shapes: [shape_arg("s%d" % i, t) for i, t in enumerate(shapes)], shapes)


def plan():
    """Every case of the suite, in a fixed order (sharding counts on it)."""
    yield from tail_plan()
    yield from pattern_plan()
    yield from layout_plan()
    yield from threaded_plan()
    yield from matmul_plan()
    yield from overflow_plan()


def threaded_tag(spec, args):
    """`threaded` for an element-wise result of THREAD_GRAIN elements or more."""
    if not spec.digest or spec.op == "matmul":
        return ()
    n = int(np.prod(broadcast(*[a.shape for a in args]), dtype=np.int64))
    return ("threaded",) if n >= THREAD_GRAIN else ()


def cases():
    for spec in plan():
        if not mine():
            claim()
            yield None
            continue
        args = spec.build()
        yield make_case(spec.cid, SUITE, spec.op, args, mode=spec.mode, attrs=spec.attrs,
                        tags=spec.tags + threaded_tag(spec, args), rules=spec.rules,
                        digest_over=TINY if spec.digest else None)
