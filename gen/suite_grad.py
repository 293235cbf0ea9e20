"""suite_grad.py - the gradient of broadcasting (grad mode, docs/semantics.md B23-B31).

Each case carries the op's inputs and an incoming gradient of the result's
shape, and expects one gradient per floating-point input (or an error), from
torch autograd and from the NumPy formulas (grad_oracles.py). Subsets:

  shapes     the exhaustive suite's shape space (rank <= 3, extents 0..3):
             every broadcastable ordered pair twice, once with add (f32 and
             f64 in turn) and once with another op (sub, mul, div, pow,
             maximum, minimum, each dtype, in turn); every tenth
             non-broadcastable pair once (the forward error, B23).
  where      where(cond, x, y) over three-way shape triples.
  matmul     batch broadcasting (B29) over the matmul suite's batch shapes.
  views      expand and broadcast_to (B30).
  sizes      the sizes suite's patterns and boundary extents for add and
             mul (ramps; gradients of more than 16 elements as digests),
             and its matmul batch shapes.
  dtypes     mixed f32/f64, integer and bool inputs (B31), 0-d operands;
             forward errors with non-float operands (the forward error wins).
  layouts    every op in both float dtypes with its inputs, or its incoming
             gradient, transposed, step-2, negative-strided, offset or stride-0.
  values     every op in both float dtypes over a few broadcast patterns.
  ties       maximum/minimum at ties, signed zeros and NaN (tag ties, B27).
  singular   pow at x = 0, y <= 0 and around (B26); every op at infinities,
             NaN, signed zeros and its own singular points (tag singular).
  where-cond where with f32, f64, i32, i64 and u8 conds (NumPy: cond != 0).
  inplace    B46: `mode grad inplace`, self.op_(other) on a non-leaf copy of
             self, for the ops torch has an in-place method of (add sub mul
             div pow), f32 and f64: other as a row, a column, 0-d, with
             leading dims missing, of self's own shape; self or the incoming
             gradient strided; mixed dtypes; ties and singular points; and the
             errors: other that would make self grow (the forward in-place
             error wins), shapes that do not broadcast, an integer self.
  out        B46: `mode grad out`, op(x, y, out=out) for the binary
             element-wise grad ops: NumPy's formulas after its out= checks;
             torch refuses autograd through out= whenever an input requires
             grad (class other), else the forward error or B31.

Values are small nonzero dyadic rationals chosen away from the points where
a derivative does not exist (no ties for maximum/minimum, x > 0 for pow,
|y| >= 1/2 for div), except in the ties and singular subsets.
"""

import itertools

import numpy as np

from builder import operand, rng_for
from caseio import fmt_shape
from grad_builder import make_grad_case
import ramp
from shapes import all_shapes, broadcast, shape_pairs
import suite_matmul
import suite_sizes

SUITE = "grad"
OTHER_OPS = ("sub", "mul", "div", "pow", "maximum", "minimum")
ALL_OPS = ("add",) + OTHER_OPS
DTYPES = ("f32", "f64")
TINY = 16  # gradients of more elements are written as digests (sizes subset)

QUARTERS = [k / 4 for k in range(-12, 13) if k != 0]          # nonzero, |v| <= 3
VALUES = {
    "any": QUARTERS,
    "divisor": [v for v in QUARTERS if abs(v) >= 0.5],        # away from y = 0
    "base": [k / 4 for k in range(1, 13)],                    # pow: x > 0
    "exponent": [k / 4 for k in range(-8, 9) if k != 0],      # pow: |y| <= 2, y != 0 (B26)
    "odd8": [k / 8 for k in range(-23, 24, 2)],               # never equal to a multiple of 1/4: no ties
}
# Which value set each input of each op draws from.
ROLE_VALUES = {"div": ("any", "divisor"), "pow": ("base", "exponent"), "maximum": ("odd8", "any"),
               "minimum": ("odd8", "any")}
RULES = {"add": "B25", "sub": "B25", "mul": "B25", "div": "B25", "pow": "B26", "maximum": "B27",
         "minimum": "B27", "where": "B28", "matmul": "B29", "expand": "B30", "broadcast_to": "B30"}


def values(rng, kind, shape):
    n = int(np.prod(shape, dtype=np.int64)) if shape else 1
    pool = VALUES[kind]
    return [pool[i] for i in rng.randint(0, len(pool), n)]


def rules_for(op, shapes):
    r = {"B1", "B2", "B23", RULES[op]}
    if any(len(s) == 0 or 0 in s for s in shapes):
        r.add("B24")
    if op == "matmul":
        r |= {"B12", "B13", "B14"}
    if op in ("expand", "broadcast_to"):
        r.add("B6" if op == "expand" else "B5")
    if op == "where":
        r.add("B4")
    return tuple(sorted(r))


def grad_arg(rng, dtype, shape):
    return operand("grad", dtype, shape, rng, values(rng, "any", shape))


def result_shape(op, shapes):
    """The forward result's shape, or () when the forward op fails (the incoming
    gradient then only has to exist: the case expects the forward error)."""
    if op == "matmul":
        try:
            return tuple(np.matmul(np.empty(shapes[0]), np.empty(shapes[1])).shape)
        except ValueError:
            return ()
    out = broadcast(*shapes)
    return out if out is not None else ()


def binary_case(op, dtype, a, b, tags=(), cid=None, kinds=None):
    cid = cid or "grad/%s/%s/%sx%s" % (op, dtype, fmt_shape(a), fmt_shape(b))
    rng = rng_for(cid)
    kx, ky = kinds or ROLE_VALUES.get(op, ("any", "any"))
    args = [operand("x", dtype, a, rng, values(rng, kx, a)), operand("y", dtype, b, rng, values(rng, ky, b))]
    return make_grad_case(cid, SUITE, op, args, grad_arg(rng, dtype, result_shape(op, (a, b))),
                          tags=tags, rules=rules_for(op, (a, b)))


def shapes_cases():
    """Every broadcastable pair with add and with one other op; every tenth error pair."""
    pairs = shape_pairs(all_shapes())
    ok = [p for p in pairs if broadcast(*p) is not None]
    bad = [p for p in pairs if broadcast(*p) is None]
    for i, (a, b) in enumerate(ok):
        dt = DTYPES[i % 2]
        yield binary_case("add", dt, a, b, ("shapes",))
        yield binary_case(OTHER_OPS[i % len(OTHER_OPS)], DTYPES[1 - i % 2], a, b, ("shapes",))
    for i, (a, b) in enumerate(bad[::10]):
        yield binary_case(ALL_OPS[i % len(ALL_OPS)], DTYPES[i % 2], a, b, ("shapes",))


WHERE_SHAPES = ((), (1,), (3,), (2, 1), (1, 3), (2, 3), (0,), (1, 0))


def where_cases():
    """where(cond, x, y): every broadcastable triple of WHERE_SHAPES, dtypes in turn."""
    i = 0
    for c, a, b in itertools.product(WHERE_SHAPES, repeat=3):
        if broadcast(c, a, b) is None:
            continue
        dt = DTYPES[i % 2]
        i += 1
        cid = "grad/where/%s/%sx%sx%s" % (dt, fmt_shape(c), fmt_shape(a), fmt_shape(b))
        rng = rng_for(cid)
        args = [operand("cond", "bool", c, rng, rng.randint(0, 2, int(np.prod(c, dtype=np.int64)))),
                operand("x", dt, a, rng, values(rng, "any", a)), operand("y", dt, b, rng, values(rng, "any", b))]
        yield make_grad_case(cid, SUITE, "where", args, grad_arg(rng, dt, broadcast(c, a, b)),
                             tags=("where",), rules=rules_for("where", (c, a, b)))


MATMUL_BATCHES = ((), (1,), (2,), (2, 1), (1, 2), (0,), (3, 1, 1))
MATMUL_CORES = (((2, 3), (3, 4)), ((3,), (3, 4)), ((2, 3), (3,)), ((3,), (3,)), ((2, 0), (0, 4)),
                ((0, 3), (3, 4)), ((2, 3), (4, 5)))


def matmul_cases():
    """Batch broadcasting of matmul (B29): the batch shapes against each other."""
    i = 0
    for bx, by, (cx, cy) in itertools.product(MATMUL_BATCHES, MATMUL_BATCHES, MATMUL_CORES):
        if (len(cx) == 1 and bx) or (len(cy) == 1 and by):
            continue
        x, y = bx + cx, by + cy
        dt = DTYPES[i % 2]
        i += 1
        yield binary_case("matmul", dt, x, y, ("matmul",))


VIEW_TARGETS = ((3,), (2, 3), (3, 1), (2, 3, 3), (1, 0, 3), (0,), (2, -1))


def view_cases():
    """expand and broadcast_to (B30): every shape of rank <= 2 to each target."""
    i = 0
    for x in all_shapes(2):
        for t in VIEW_TARGETS:
            for op in ("broadcast_to", "expand"):
                if -1 in t and op == "broadcast_to":
                    continue
                dt = DTYPES[i % 2]
                i += 1
                cid = "grad/%s/%s/%s->%s" % (op, dt, fmt_shape(x), fmt_shape(t))
                rng = rng_for(cid)
                res = tuple(x[len(x) - len(t) + k] if d == -1 and len(x) - len(t) + k >= 0 else d
                            for k, d in enumerate(t))
                ok = broadcast(x, res) == res and len(res) >= len(x) and min(res, default=0) >= 0
                args = [operand("x", dt, x, rng, values(rng, "any", x))]
                yield make_grad_case(cid, SUITE, op, args, grad_arg(rng, dt, res if ok else ()),
                                     attrs=(("shape", fmt_shape(t)),), tags=("views",),
                                     rules=rules_for(op, (x,)))


# ---------------------------------------------------------------- sizes

# Ramps of nonzero values (A even, B odd, M even, K even: (v - K) is odd):
# x in +-1/4..+-7/4, y in +-1/2..+-7/2. mul's terms are multiples of 1/8
# below 14, so even 12,291 of them sum exactly in f32.
# The incoming gradient is positive (1/2..4): its partial sums never cancel, so a
# row sum that drops or repeats a run of terms is visible whatever its length
# (a +-ramp's 8-term period sums to 0). mul's terms stay multiples of 1/8 below 14.
SIZE_RAMPS = {"x": (6, 1, 16, 8, 4), "y": (10, 3, 16, 8, 2), "grad": (14, 5, 16, -1, 4)}


def sizes_cases():
    """The sizes suite's patterns at its boundary extents, add and mul in
    turn, f32 and f64 in turn; then its matmul batch shapes."""
    k = 0
    for (pname, pat), n in itertools.product(suite_sizes.PATTERNS, suite_sizes.EXTENTS):
        xs, ys = pat(n)
        op, dt = ("add", "mul")[k % 2], DTYPES[(k // 2) % 2]
        k += 1
        cid = "grad/sizes/%s/%s/%s/%sx%s" % (pname, op, dt, fmt_shape(xs), fmt_shape(ys))
        res = broadcast(xs, ys)
        args = [ramp.operand("x", dt, xs, SIZE_RAMPS["x"]), ramp.operand("y", dt, ys, SIZE_RAMPS["y"])]
        yield make_grad_case(cid, SUITE, op, args, ramp.operand("grad", dt, res, SIZE_RAMPS["grad"]),
                             tags=("sizes", pname), rules=rules_for(op, (xs, ys)), digest_over=TINY)
    for name, bx, by in suite_sizes.MATMUL_BATCHES:
        m, kk, n = suite_sizes.MATMUL_CORES[0]
        x = (kk,) if bx is None else bx + (m, kk)
        y = (kk,) if by is None else by + (kk, n)
        for dt in DTYPES:
            yield binary_case("matmul", dt, x, y, ("sizes", "matmul", name),
                              cid="grad/sizes/matmul/%s/%s/%sx%s" % (name, dt, fmt_shape(x), fmt_shape(y)))


# ---------------------------------------------------------------- dtypes, layouts

def mixed_case(op, dx, dy, a, b):
    cid = "grad/dtypes/%s/%s,%s/%sx%s" % (op, dx, dy, fmt_shape(a), fmt_shape(b))
    rng = rng_for(cid)
    kx, ky = ROLE_VALUES.get(op, ("any", "any"))

    def arg(name, dt, shape, kind):
        if dt in DTYPES:
            return operand(name, dt, shape, rng, values(rng, kind, shape))
        return operand(name, dt, shape, rng, rng.randint(1, 4, int(np.prod(shape, dtype=np.int64))))

    args = [arg("x", dx, a, kx), arg("y", dy, b, ky)]
    gdt = "f64" if "f64" in (dx, dy) else "f32"   # the result's dtype when an input is a float
    return make_grad_case(cid, SUITE, op, args, grad_arg(rng, gdt, result_shape(op, (a, b))), tags=("dtypes",),
                          rules=rules_for(op, (a, b)) + ("B18", "B19", "B31"), expect_agree=False)


def dtype_cases():
    """B31 and promotion: f32 with f64, integer and bool inputs, no float input."""
    for op in ("add", "mul", "div", "maximum"):
        yield mixed_case(op, "f32", "f64", (2, 1), (3,))
        yield mixed_case(op, "f64", "f32", (), (2, 2))
        yield mixed_case(op, "i32", "f32", (2, 3), (3,))
        yield mixed_case(op, "f64", "u8", (3,), (2, 1))
        yield mixed_case(op, "i32", "i32", (2, 1), (3,))
    yield mixed_case("pow", "f32", "f64", (2, 1), (3,))
    yield mixed_case("sub", "i64", "f64", (1, 3), (2, 1))
    for x, y in (("bool", "f32"), ("f64", "i8"), ("i32", "i32")):
        cid = "grad/dtypes/where/%s,%s/(2,1)x(3,)x()" % (x, y)
        rng = rng_for(cid)
        mk = lambda n, d, s: operand(n, d, s, rng, values(rng, "any", s) if d in DTYPES else
                                     rng.randint(0, 2, int(np.prod(s, dtype=np.int64))))
        args = [operand("cond", "bool", (2, 1), rng, [1, 0]), mk("x", x, (3,)), mk("y", y, ())]
        gdt = "f64" if "f64" in (x, y) else "f32"
        yield make_grad_case(cid, SUITE, "where", args, grad_arg(rng, gdt, (2, 3)), tags=("dtypes",),
                             rules=rules_for("where", ((2, 1), (3,), ())) + ("B31",), expect_agree=False)


def layout_cases():
    """Inputs and incoming gradients that are not plain contiguous arrays: the
    gradient still has the operand's logical shape (B23)."""
    from caseio import Operand
    for op, dt in (("add", "f32"), ("mul", "f64"), ("pow", "f32"), ("where", "f64")):
        cid = "grad/layouts/%s/%s/transposed-x,stride0-y,offset-grad" % (op, dt)
        rng = rng_for(cid)
        kx, ky = ROLE_VALUES.get(op, ("any", "any"))
        xs = np.array(values(rng, kx, (6,)), dtype=np.float64)
        x = Operand("x", dt, (2, 3), (1, 2), 0, xs.astype(np.float32 if dt == "f32" else np.float64))
        y = Operand("y", dt, (2, 3), (0, 1), 0, np.array(values(rng, ky, (3,)), dtype=x.storage.dtype))
        gv = np.array([0.5] + values(rng, "any", (6,)), dtype=x.storage.dtype)
        g = Operand("grad", dt, (2, 3), (3, 1), 1, gv)
        args = [x, y]
        if op == "where":
            args = [operand("cond", "bool", (2, 1), rng, [1, 0])] + args
        yield make_grad_case(cid, SUITE, op, args, g, tags=("layouts",),
                             rules=rules_for(op, ((2, 3), (2, 3))) + ("B17",))


# ---------------------------------------------------------------- ties, singular points

def tie_cases():
    """B27: maximum/minimum where operands are equal (a tie: +0 and -0 too)
    and where one is NaN; each tie summed through a stretched operand."""
    nan = float("nan")
    specs = (
        ("ties", (2, 1), [1.0, 2.0], (3,), [1.0, 2.0, 2.0]),
        ("signed-zero", (2,), [0.0, -0.0], (2, 1), [-0.0, 0.0]),
        ("nan", (3,), [nan, 1.0, nan], (), [1.0]),
        ("nan-y", (2, 1), [1.0, -1.0], (2,), [nan, 0.5]),
        ("all-tie", (), [1.5], (2, 2), [1.5, 1.5, 1.5, 1.5]),
    )
    for op, dt, (name, a, av, b, bv) in itertools.product(("maximum", "minimum"), DTYPES, specs):
        cid = "grad/ties/%s/%s/%s/%sx%s" % (op, dt, name, fmt_shape(a), fmt_shape(b))
        rng = rng_for(cid)
        args = [operand("x", dt, a, rng, av), operand("y", dt, b, rng, bv)]
        yield make_grad_case(cid, SUITE, op, args, grad_arg(rng, dt, broadcast(a, b)), tags=("ties",),
                             rules=rules_for(op, (a, b)), expect_agree=False)


SINGULAR_Y = (-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0)


def singular_cases():
    """B26: pow at x = 0 for y <= 0 and around it, the base stretched (its
    gradient sums two equal terms) or the exponent stretched."""
    for dt, v in itertools.product(DTYPES, SINGULAR_Y):
        for name, (a, av), (b, bv) in (("x-stretched", ((), [0.0]), ((2,), [v, v])),
                                       ("y-stretched", ((2,), [0.0, 0.0]), ((), [v]))):
            cid = "grad/singular/pow/%s/%s/y=%s" % (dt, name, float(v))
            rng = rng_for(cid)
            args = [operand("x", dt, a, rng, av), operand("y", dt, b, rng, bv)]
            yield make_grad_case(cid, SUITE, "pow", args, operand("grad", dt, (2,), rng, [1.0, 0.5]),
                                 tags=("singular",), rules=rules_for("pow", (a, b)), expect_agree=False)
        if v == 0.0:   # y = 0 at x > 0: the formula's g * 0 * x^-1 keeps g's sign, torch's masked 0 is +0
            cid = "grad/singular/pow/%s/x-positive/y=0.0" % dt
            rng = rng_for(cid)
            args = [operand("x", dt, (2,), rng, [2.0, 0.5]), operand("y", dt, (), rng, [0.0])]
            yield make_grad_case(cid, SUITE, "pow", args, operand("grad", dt, (2,), rng, [-1.0, 1.0]),
                                 tags=("singular",), rules=rules_for("pow", ((2,), ())), expect_agree=False)


# ---------------------------------------------------------------- every layout, every op

# Per op: the inputs' shapes (each input stretched somewhere) and the attrs.
LAYOUT_OPS = (
    ("add", ((2, 1, 4), (3, 1)), ()), ("sub", ((2, 1, 4), (3, 1)), ()),
    ("mul", ((2, 1, 4), (3, 1)), ()), ("div", ((2, 1, 4), (3, 1)), ()),
    ("pow", ((2, 1, 4), (3, 1)), ()), ("maximum", ((2, 1, 4), (3, 1)), ()),
    ("minimum", ((2, 1, 4), (3, 1)), ()), ("where", ((3, 1), (2, 1, 4), (3, 1)), ()),
    ("matmul", ((1, 2, 3), (2, 3, 2)), ()), ("broadcast_to", ((3, 1),), (("shape", "(2,3,4)"),)),
    ("expand", ((3, 1),), (("shape", "(2,-1,4)"),)),
)


def _kinds(op, nargs):
    """The value set of each input of op (where's cond: None)."""
    if op == "where":
        return (None, "any", "any")
    return ROLE_VALUES.get(op, ("any", "any"))[:nargs]


def laid_out(name, dtype, shape, layout, rng, kind):
    """An operand of `shape` in `layout` (gen/layouts.py) holding values of
    `kind` (a bool cond for kind None): contiguous when layout is None or
    does not apply to the shape."""
    from layouts import strided
    o = strided(name, dtype, shape, layout, rng) if layout else None
    n = int(np.prod(shape, dtype=np.int64))
    if o is None:
        return operand(name, dtype, shape, rng, values(rng, kind, shape) if kind else rng.randint(0, 2, n))
    size = len(o.storage)
    o.storage = np.asarray(values(rng, kind, (size,)) if kind else rng.randint(0, 2, size),
                           dtype=o.storage.dtype)
    return o


def every_layout_cases():
    """Every grad op in both float dtypes with (a) every input in each layout
    (transposed, step2, negative strides, offset, stride 0), or (b) the
    incoming gradient in that layout, the inputs contiguous (B17, B23)."""
    from layouts import LAYOUTS
    for (op, shapes, attrs), dt, lay, where in itertools.product(LAYOUT_OPS, DTYPES, LAYOUTS,
                                                                   ("inputs", "grad")):
        cid = "grad/layouts/%s/%s/%s-%s" % (op, dt, where, lay)
        rng = rng_for(cid)
        kinds = _kinds(op, len(shapes))
        args = [laid_out(n, "bool" if k is None else dt, s, lay if where == "inputs" else None, rng, k)
                for n, s, k in zip(("cond", "x", "y") if op == "where" else ("x", "y"), shapes, kinds)]
        res = (2, 3, 4) if op != "matmul" else (2, 2, 2)
        g = laid_out("grad", dt, res, lay if where == "grad" else None, rng, "any")
        yield make_grad_case(cid, SUITE, op, args, g, attrs=attrs, tags=("layouts", lay),
                             rules=rules_for(op, shapes) + ("B17",))


# ---------------------------------------------------------------- values in every dtype

VALUE_PAIRS = (((2, 1), (3,)), ((3,), ()), ((2, 3), (2, 3)), ((1, 3), (2, 1)), ((), (2, 2)),
               ((2, 1, 3), (2, 3)))
VALUE_VIEWS = (((3,), "(2,3)"), ((2, 1), "(2,2)"), ((), "(3,)"), ((1, 2), "(3,1,2)"))


def value_cases():
    """Every op in both float dtypes, each over a few broadcast patterns with
    values (the shapes subset gives some ops values in one dtype only)."""
    for op, dt in itertools.product(ALL_OPS, DTYPES):
        for a, b in VALUE_PAIRS:
            yield binary_case(op, dt, a, b, ("values",), cid="grad/values/%s/%s/%sx%s"
                              % (op, dt, fmt_shape(a), fmt_shape(b)))
    for dt in DTYPES:
        for a, b in (((2, 1, 3), (3, 2)), ((3,), (2, 3, 1)), ((1, 2), (3, 2, 2))):
            yield binary_case("matmul", dt, a, b, ("values",), cid="grad/values/matmul/%s/%sx%s"
                              % (dt, fmt_shape(a), fmt_shape(b)))
        for c, a, b in (((2, 1), (3,), ()), ((3,), (2, 1), (1, 3))):
            cid = "grad/values/where/%s/%sx%sx%s" % (dt, fmt_shape(c), fmt_shape(a), fmt_shape(b))
            rng = rng_for(cid)
            args = [laid_out("cond", "bool", c, None, rng, None), laid_out("x", dt, a, None, rng, "any"),
                    laid_out("y", dt, b, None, rng, "any")]
            yield make_grad_case(cid, SUITE, "where", args, grad_arg(rng, dt, broadcast(c, a, b)),
                                 tags=("values",), rules=rules_for("where", (c, a, b)))
        for op, (x, t) in itertools.product(("broadcast_to", "expand"), VALUE_VIEWS):
            cid = "grad/values/%s/%s/%s->%s" % (op, dt, fmt_shape(x), t)
            rng = rng_for(cid)
            res = tuple(int(d) for d in t.strip("()").split(",") if d)
            yield make_grad_case(cid, SUITE, op, [operand("x", dt, x, rng, values(rng, "any", x))],
                                 grad_arg(rng, dt, res), attrs=(("shape", t),), tags=("values",),
                                 rules=rules_for(op, (x,)))


# ---------------------------------------------------------------- special values, conds, errors

INF, NAN = float("inf"), float("nan")
# Per op: x's shape and values, y's, the incoming gradient's values (of the
# broadcast shape): infinities, NaN, signed zeros and each op's singular points.
SPECIALS = (
    ("add", "inf-nan-zero", (2, 1), [1.0, 2.0], (3,), [0.5, -1.0, 2.0], [INF, -INF, 1.0, -0.0, -0.0, NAN]),
    ("sub", "inf-nan-zero", (2, 1), [1.0, 2.0], (3,), [0.5, -1.0, 2.0], [INF, 1.0, -0.0, -0.0, -0.0, NAN]),
    ("mul", "inf-times-zero", (2, 1), [INF, 0.0], (3,), [0.0, -0.0, INF], [1.0, -1.0, 0.5, 2.0, -0.0, 1.0]),
    ("div", "zero-divisor", (2, 1), [1.0, 0.0], (3,), [0.0, -0.0, 2.0], [1.0, -1.0, 0.5, 2.0, 1.0, -0.5]),
    ("div", "inf-operands", (3,), [INF, -2.0, 0.0], (2, 1), [INF, -0.0], [1.0, 1.0, 1.0, -1.0, 0.5, 2.0]),
    ("pow", "negative-base", (2, 1), [-2.0, -0.5], (3,), [0.5, 2.0, -1.0], [1.0, -1.0, 0.5, 2.0, 1.0, 1.0]),
    ("pow", "inf-base", (2, 1), [INF, 1.0], (3,), [0.0, 2.0, -1.0], [1.0, 1.0, 0.5, 2.0, 1.0, -1.0]),
    ("maximum", "inf-ties", (2, 1), [INF, -INF], (3,), [INF, -INF, 0.0], [1.0, 2.0, 4.0, 8.0, 16.0, 32.0]),
    ("minimum", "inf-ties", (2, 1), [INF, -INF], (3,), [INF, -INF, 0.0], [1.0, 2.0, 4.0, 8.0, 16.0, 32.0]),
    ("matmul", "inf-times-zero", (2, 2), [INF, 1.0, 0.0, 2.0], (2, 3), [0.0, 1.0, -1.0, 2.0, 0.0, 1.0],
     [1.0, 0.5, -1.0, 2.0, 1.0, -0.0]),
)


def special_cases():
    """Each op at infinities, NaN, signed zeros and its singular points, in
    both float dtypes (tag singular: NumPy's formula and torch may differ)."""
    for (op, name, a, av, b, bv, gv), dt in itertools.product(SPECIALS, DTYPES):
        cid = "grad/singular/%s/%s/%s/%sx%s" % (op, dt, name, fmt_shape(a), fmt_shape(b))
        rng = rng_for(cid)
        args = [operand("x", dt, a, rng, av), operand("y", dt, b, rng, bv)]
        yield make_grad_case(cid, SUITE, op, args, operand("grad", dt, result_shape(op, (a, b)), rng, gv),
                             tags=("singular",), rules=rules_for(op, (a, b)), expect_agree=False)
    for op, dt in itertools.product(("where", "broadcast_to", "expand"), DTYPES):
        cid = "grad/singular/%s/%s/inf-nan-zero-grad" % (op, dt)
        rng = rng_for(cid)
        gv = [INF, -INF, 1.0, -0.0, -0.0, NAN]
        if op == "where":
            args = [operand("cond", "bool", (2, 1), rng, [1, 0]), operand("x", dt, (3,), rng, [INF, NAN, 1.0]),
                    operand("y", dt, (), rng, [-0.0])]
            attrs, shapes = (), ((2, 1), (3,), ())
        else:
            args, attrs, shapes = [operand("x", dt, (1, 3), rng, [1.0, NAN, -INF])], (("shape", "(2,3)"),), ((1, 3),)
        yield make_grad_case(cid, SUITE, op, args, operand("grad", dt, (2, 3), rng, gv), attrs=attrs,
                             tags=("singular",), rules=rules_for(op, shapes), expect_agree=False)


COND_VALUES = {"f32": [0.0, -0.0, NAN, 2.0], "f64": [-0.0, 0.5, 0.0, -INF], "i32": [0, 5, -1, 0],
               "u8": [0, 255, 1, 0], "i64": [1, 0, 0, -7], "i8": [0, -128, 127, 0]}


def nonbool_cond_cases():
    """where with a cond of a non-bool dtype (NumPy reads it as cond != 0, NaN
    and -0.0 included; torch accepts uint8 conds only in some versions)."""
    for (cdt, cv), dt in itertools.product(sorted(COND_VALUES.items()), DTYPES):
        cid = "grad/where-cond/%s/%s/(4,1)x(3,)x(1,)" % (cdt, dt)
        rng = rng_for(cid)
        args = [operand("cond", cdt, (4, 1), rng, cv), operand("x", dt, (3,), rng, values(rng, "any", (3,))),
                operand("y", dt, (1,), rng, values(rng, "any", (1,)))]
        yield make_grad_case(cid, SUITE, "where", args, grad_arg(rng, dt, (4, 3)), tags=("where", "dtypes"),
                             rules=rules_for("where", ((4, 1), (3,), (1,))) + ("B31",), expect_agree=False)


ERROR_DTYPES = (("add", "i32", "i32", (2, 3), (4,)), ("mul", "i32", "f32", (2, 3), (4,)),
                ("sub", "bool", "f64", (3,), (2,)), ("div", "u8", "u8", (2, 1, 3), (2, 2)),
                ("maximum", "i64", "f64", (0,), (2,)), ("pow", "f32", "i8", (3, 2), (3,)),
                ("matmul", "i32", "i32", (2, 3), (4, 5)), ("matmul", "f64", "i64", (2, 2, 3), (3, 3, 4)))


def forward_error_cases():
    """A forward error together with non-float operands (B23 against B31):
    the forward op's error wins over 'nothing to differentiate'."""
    for op, dx, dy, a, b in ERROR_DTYPES:
        yield mixed_case(op, dx, dy, a, b)
    for x, y in (("i8", "bool"), ("bool", "f32")):
        cid = "grad/dtypes/where/%s,%s/(2,1)x(3,)x(4,)" % (x, y)
        rng = rng_for(cid)
        args = [operand("cond", "bool", (2, 1), rng, [1, 0]), operand("x", x, (3,), rng, [1, 0, 1]),
                operand("y", y, (4,), rng, [0, 1, 1, 0])]
        yield make_grad_case(cid, SUITE, "where", args, grad_arg(rng, "f32", ()), tags=("dtypes",),
                             rules=rules_for("where", ((2, 1), (3,), (4,))) + ("B31",), expect_agree=False)
    for op in ("broadcast_to", "expand"):
        cid = "grad/dtypes/%s/i32/(2,)->(3,)" % op
        rng = rng_for(cid)
        yield make_grad_case(cid, SUITE, op, [operand("x", "i32", (2,), rng, [1, 2])], grad_arg(rng, "f32", ()),
                             attrs=(("shape", "(3,)"),), tags=("dtypes",), rules=rules_for(op, ((2,),)) + ("B31",),
                             expect_agree=False)


# ---------------------------------------------------------------- B46: in-place and out= call forms

INPLACE_OPS = ("add", "sub", "mul", "div", "pow")
OUT_OPS = INPLACE_OPS + ("maximum", "minimum")
# (pattern, self's shape, other's shape): other broadcast onto self in place.
INPLACE_PATTERNS = (("same", (2, 3), (2, 3)), ("row", (2, 3), (3,)), ("row1", (2, 3), (1, 3)),
                    ("column", (2, 3), (2, 1)), ("scalar", (2, 3), ()), ("leading", (2, 2, 3), (2, 3)),
                    ("leading1", (2, 2, 3), (1, 1, 3)), ("zero-size", (0, 3), (3,)))
# Forward errors: other would make self grow (B8: the in-place error wins), no broadcast at all.
INPLACE_ERRORS = (("grow", (3,), (2, 3)), ("grow1", (1, 3), (2, 3)), ("grow-scalar", (), (2,)),
                  ("not-broadcastable", (2, 3), (4,)))


def form_case(form, op, dts, shapes, name, tags=(), layouts=(None, None, None), vals=None, out_dt=None):
    """A B46 case: op in call form `form` over inputs of dtypes dts and shapes
    (self/x, other/y), the out= arg of the broadcast shape (form out), an
    incoming gradient of the form's result; layouts: of self/x, other/y and the
    incoming gradient (gen/layouts.py names, or None: contiguous); vals: the
    inputs' values (default: the op's value sets)."""
    a, b = shapes
    cid = "grad/%s/%s/%s/%s/%sx%s" % (form, op, ",".join(dts) if dts[0] != dts[1] else dts[0], name,
                                      fmt_shape(a), fmt_shape(b))
    rng = rng_for(cid)
    kinds = ROLE_VALUES.get(op, ("any", "any"))
    args = []
    for k, (n, dt, sh) in enumerate(zip(("x", "y"), dts, shapes)):
        if vals is not None:
            args.append(operand(n, dt, sh, rng, vals[k]))
        elif dt in DTYPES:
            args.append(laid_out(n, dt, sh, layouts[k], rng, kinds[k]))
        else:
            args.append(operand(n, dt, sh, rng, rng.randint(1, 4, int(np.prod(sh, dtype=np.int64)))))
    res = broadcast(a, b)
    fdt = "f64" if "f64" in dts else "f32"   # the value call's result dtype when an input is a float
    if form == "inplace":
        gshape, gdt = (a if res == a else ()), dts[0] if dts[0] in DTYPES else fdt
    else:
        gshape, gdt = (res if res is not None else ()), out_dt or fdt
        oshape = res if res is not None else (2, 3)
        args.append(operand("out", out_dt or fdt, oshape, rng, [0] * int(np.prod(oshape, dtype=np.int64))))
    g = laid_out("grad", gdt, gshape, layouts[2], rng, "any")
    return make_grad_case(cid, SUITE, op, args, g, tags=(form,) + tuple(tags), form=form, expect_agree=False,
                          rules=rules_for(op, shapes) + ("B46",) + (("B8",) if res != a or form == "out" else ()))


def inplace_cases():
    """B46, in place: every op, both float dtypes, every pattern of other;
    self or the incoming gradient in each layout; mixed dtypes; the errors."""
    from layouts import LAYOUTS
    for op, dt in itertools.product(INPLACE_OPS, DTYPES):
        for name, a, b in INPLACE_PATTERNS + INPLACE_ERRORS:
            yield form_case("inplace", op, (dt, dt), (a, b), name)
        for lay in LAYOUTS:
            yield form_case("inplace", op, (dt, dt), ((2, 3), (3,)), "self-" + lay, ("layouts", lay),
                            layouts=(lay, None, None))
            yield form_case("inplace", op, (dt, dt), ((2, 3), (2, 1)), "grad-" + lay, ("layouts", lay),
                            layouts=(None, lay, lay))
    for op in INPLACE_OPS:
        for dts in (("f32", "f64"), ("f64", "f32"), ("f32", "i32"), ("i32", "f32"), ("i32", "i32"), ("f64", "u8")):
            yield form_case("inplace", op, dts, ((2, 3), (3,)), "dtypes", ("dtypes",))
        yield form_case("inplace", op, ("f32", "f64"), ((3,), (2, 3)), "dtypes-grow", ("dtypes",))


def form_special_cases():
    """B46 at the ops' singular points, in place and through out=: SPECIALS
    with self holding x's values at the result's shape; pow at 0 ** y <= 0."""
    for (op, name, a, av, b, bv, gv), dt in itertools.product(SPECIALS, DTYPES):
        if op not in INPLACE_OPS:
            continue
        res = broadcast(a, b)
        selfv = list(np.broadcast_to(np.array(av).reshape(a), res).reshape(-1))
        yield form_case("inplace", op, (dt, dt), (res, b), name, ("singular",), vals=(selfv, bv))
        yield form_case("out", op, (dt, dt), (a, b), name, ("singular",), vals=(av, bv))
    for dt, v in itertools.product(DTYPES, SINGULAR_Y):
        yield form_case("inplace", "pow", (dt, dt), ((2,), ()), "zero-base-y=%s" % float(v), ("singular",),
                        vals=([0.0, 0.0], [v]))
    for op, dt in itertools.product(("maximum", "minimum"), DTYPES):
        yield form_case("out", op, (dt, dt), ((2, 1), (3,)), "ties", ("ties",), vals=([1.0, 2.0], [1.0, 2.0, 2.0]))


def out_cases():
    """B46, out=: every binary grad op, both float dtypes, the patterns; the
    inputs in a layout; an out= of another shape or an integer dtype;
    integer inputs (nothing requires grad: torch's forward, then B31)."""
    for op, dt in itertools.product(OUT_OPS, DTYPES):
        for name, a, b in INPLACE_PATTERNS[1:6]:
            yield form_case("out", op, (dt, dt), (b, a) if name == "column" else (a, b), name)
        yield form_case("out", op, (dt, dt), ((2, 3), (4,)), "not-broadcastable")
        yield form_case("out", op, (dt, dt), ((2, 1), (3,)), "inputs-transposed", ("layouts",),
                        layouts=("transposed", "negative", "step2"))
    for op in ("add", "mul", "div"):
        yield form_case("out", op, ("f32", "f32"), ((2, 3), (3,)), "int-out", ("dtypes",), out_dt="i32")
        yield form_case("out", op, ("f64", "f32"), ((2, 1), (3,)), "dtypes", ("dtypes",))
        yield form_case("out", op, ("i32", "i32"), ((2, 1), (3,)), "dtypes", ("dtypes",), out_dt="f32")
        yield form_case("out", op, ("i32", "i32"), ((2, 3), (4,)), "dtypes-not-broadcastable", ("dtypes",),
                        out_dt="f32")


def cases():
    yield from shapes_cases()
    yield from where_cases()
    yield from matmul_cases()
    yield from view_cases()
    yield from sizes_cases()
    yield from dtype_cases()
    yield from layout_cases()
    yield from tie_cases()
    yield from singular_cases()
    yield from every_layout_cases()
    yield from value_cases()
    yield from special_cases()
    yield from nonbool_cond_cases()
    yield from forward_error_cases()
    yield from inplace_cases()
    yield from form_special_cases()
    yield from out_cases()
