"""grad_builder.py - turns (op, inputs, incoming gradient) into a grad-mode Case (B23-B31).

Runs both oracles (grad_oracles.py), sets each gradient's comparison, and
merges: the same error class, or the same gradients (names, dtypes, shapes,
values under the comparison) give one `expect *` set; anything else gives a
`numpy` and a `torch` set and the tag `divergent`.

Comparison (docs/semantics.md B23, "Order and tolerance"): the suite's values
are small dyadic rationals, so the linear ops' gradients (add, sub, mul,
maximum, minimum, where, matmul, expand, broadcast_to) are exact in any
summation order and compare `exact`; gen checks that torch and NumPy agree
bit for bit there (outside the ties and singular subsets), so a wrong
assumption stops generation. div and pow round: `ulp 0 abs A` with
A = 2^ceil(log2((n + 8) * eps * max S)), where S is the sum of the terms'
magnitudes per gradient element and n the most terms any element sums: a
bound on the error of any summation order plus a few roundings per term.
"""

import math

import numpy as np

import builder
import digest
import grad_oracles
from caseio import Case, GenError, Outcome, fmt_values

EXACT_OPS = {"add", "sub", "mul", "maximum", "minimum", "where", "matmul", "expand", "broadcast_to"}
EPS = {"f32": 2.0 ** -23, "f64": 2.0 ** -52}
ROUNDINGS = 8  # roundings per term allowed for (pow's libm calls, the products)


def tolerance(op, grad, terms_per_element):
    """The comparison of one gradient: `exact`, or `ulp 0 abs A` (see above)."""
    if op in EXACT_OPS or grad.abs_sum is None or grad.abs_sum.size == 0:
        return "exact"
    s = grad.abs_sum[np.isfinite(grad.abs_sum)]
    top = float(s.max()) if s.size else 0.0
    if top == 0.0:
        return "exact"
    eps = max(EPS[grad.dtype], EPS.get(grad.compute, EPS[grad.dtype]))   # the coarser of the two
    bound = (terms_per_element + ROUNDINGS) * eps * top
    return "ulp 0 abs %s" % float.hex(2.0 ** math.ceil(math.log2(bound))).replace("0x1.0000000000000p", "0x1p")


def _abs_tol(compare):
    return float.fromhex(compare.split()[3]) if compare.startswith("ulp 0 abs") else 0.0


def _same(a, b, dtype, compare):
    """Two gradient arrays agree under compare (NaN == NaN; infinities exact)."""
    a = np.asarray(a, np.float64).reshape(-1)
    b = np.asarray(b, np.float64).reshape(-1)
    both_nan = np.isnan(a) & np.isnan(b)
    if compare == "exact":
        eq = (a.view(np.int64) == b.view(np.int64)) | both_nan
        if dtype == "f32":
            eq = (a.astype(np.float32).view(np.int32) == b.astype(np.float32).view(np.int32)) | both_nan
        return bool(eq.all())
    fin = np.isfinite(a) & np.isfinite(b)
    with np.errstate(invalid="ignore"):   # inf - inf where one side is infinite: judged by a == b
        ok = both_nan | (a == b) | (fin & (np.abs(a - b) <= _abs_tol(compare)))
    return bool(ok.all())


def _agree(a, b):
    """numpy's and torch's outcomes agree (each gradient under its comparison)."""
    if a.kind != b.kind:
        return False
    if a.kind == "error":
        return a.cls == b.cls
    if [(g.name, g.dtype, g.shape) for g in a.grads] != [(g.name, g.dtype, g.shape) for g in b.grads]:
        return False
    return all(_same(x.array, y.array, x.dtype, x.compare) for x, y in zip(a.grads, b.grads))


def _terms_per_element(op, args, grad, arg):
    """The most terms one gradient element of args[arg] sums (B23, B29)."""
    r = int(np.prod(grad.shape, dtype=np.int64))
    e = int(np.prod(args[arg].shape, dtype=np.int64))
    n = r // e if e else 0
    if op == "matmul":
        x, y = args[0].shape, args[1].shape
        n *= (y[-1] if len(y) > 1 else 1) if arg == 0 else (x[-2] if len(x) > 1 else 1)
    return max(n, 1)


def _set_compares(op, args, grad, oc, source):
    """Each gradient's comparison, from the NumPy oracle's magnitudes (torch's
    gradients take NumPy's comparison: one per input)."""
    if oc.kind != "grads":
        return
    for g in oc.grads:
        i = [a.name for a in args].index(g.name)
        g.compare = source.get(g.name) or tolerance(op, g, _terms_per_element(op, args, grad, i))
        source[g.name] = g.compare


def _write(oc, digest_over):
    """A gradient's values tokens, or its digest when it has more than digest_over elements."""
    if oc.kind != "grads":
        return
    for g in oc.grads:
        flat = g.array.reshape(-1)
        if digest_over is not None and len(flat) > digest_over:
            if g.compare != "exact":
                raise GenError("a digested gradient must compare exactly (%s: %s)" % (g.name, g.compare))
            g.digest, g.values = digest.fnv1a64(g.array), None
        else:
            g.values, g.digest = fmt_values(flat, g.dtype), None


def make_grad_case(case_id, suite, op, args, grad, attrs=(), tags=(), rules=(), libs=None,
                   expect_agree=True, digest_over=None, comments=(), form=None):
    """The grad-mode Case for op over args with the incoming gradient `grad`
    (None when another shard owns it). expect_agree: the values are chosen so
    that torch and NumPy must agree (GenError otherwise); the ties and
    singular subsets pass False and get `divergent` where they differ.
    form (B46): None (the value call), "inplace" (args self, other) or "out"
    (args x, y, out): the call form differentiated, `mode grad FORM`."""
    if not builder.claim():
        return None
    if libs is None:
        libs = ("torch",) if op == "expand" else ("numpy", "torch")
    outs = {}
    for lib in libs:
        if lib == "numpy":
            outs["numpy"] = grad_oracles.run_numpy_grad(op, args, grad, attrs, form)
        else:
            outs["torch"] = grad_oracles.run_torch_grad(op, args, grad, attrs, form)
    compares = {}
    if "numpy" in outs:
        _set_compares(op, args, grad, outs["numpy"], compares)
    if "torch" in outs:
        if outs["torch"].kind == "grads" and "numpy" not in outs:   # expand: torch alone, its own magnitudes
            for g in outs["torch"].grads:
                g.abs_sum = None
        _set_compares(op, args, grad, outs["torch"], compares)
    tags = set(tags) | {"grad"}
    names = list(outs)
    if len(names) == 2 and not _agree(outs["numpy"], outs["torch"]):
        if expect_agree and op in EXACT_OPS and outs["numpy"].kind == outs["torch"].kind == "grads":
            raise GenError("%s: torch and NumPy disagree where the values make the gradient exact: %r vs %r"
                           % (case_id, outs["numpy"], outs["torch"]))
        tags.add("divergent")
        expects = [(lib, outs[lib], None) for lib in names]
    else:
        expects = [("*", outs[names[0]], None)]
    messages = [(lib, oc.message) for lib, oc in outs.items() if oc.kind == "error" and oc.message]
    for _, oc, _ in expects:
        _write(oc, digest_over)
    everything = list(args) + [grad]
    tags |= builder.auto_tags(op, list(args), [Outcome("ok", shape=grad.shape)] +
                              [o for o in outs.values() if o.kind == "error"])
    return Case(case_id, suite, op, everything, tags=tags, rules=rules, mode="grad" + (" " + form if form else ""), source=names,
                attrs=attrs, expects=expects, messages=messages, comments=list(comments))
