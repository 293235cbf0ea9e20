"""test_grad.py - tests of grad-mode generation: the NumPy formulas and sum_to, torch's oracle,
the comparisons, merging into divergent cases, and the writer's `expect P grad` lines (B23-B31)."""

import numpy as np
import pytest

import builder
import grad_builder
import grad_oracles
import suite_grad
from builder import operand, rng_for
from caseio import GenError


@pytest.fixture(autouse=True)
def no_shard():
    builder.set_shard(0, 1)


def args_of(dt, xs, xv, ys, yv, gs, gv):
    rng = rng_for("t")
    return [operand("x", dt, xs, rng, xv), operand("y", dt, ys, rng, yv)], operand("grad", dt, gs, rng, gv)


def grads(oc):
    assert oc.kind == "grads", oc
    return {g.name: g for g in oc.grads}


# ---------------------------------------------------------------- B23 sum_to

def test_sum_to_sums_leading_and_stretched_dims_and_keeps_ones():
    t = np.arange(24.0).reshape(2, 3, 4)
    assert grad_oracles.sum_to(t, (3, 1)).tolist() == t.sum(axis=(0, 2)).reshape(3, 1).tolist()
    assert grad_oracles.sum_to(t, (4,)).tolist() == t.sum(axis=(0, 1)).tolist()
    assert grad_oracles.sum_to(t, ()).tolist() == float(t.sum())
    assert grad_oracles.sum_to(np.zeros((0, 3)), (1, 3)).tolist() == [[0.0, 0.0, 0.0]]   # an empty sum: +0


def test_sum_to_keeps_terms_when_nothing_is_reduced():
    t = np.array([[-0.0, 1.0]])
    assert np.signbit(grad_oracles.sum_to(t, (1, 2))[0, 0])       # no reduction: the term itself
    assert not np.signbit(grad_oracles.sum_to(t, (2,))[0])          # a real sum starts from +0


# ---------------------------------------------------------------- the oracles agree (B25, B29, B30)

@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "pow", "maximum", "minimum"])
def test_numpy_formula_and_torch_autograd_agree_on_a_broadcast(op):
    x = [0.5, 1.25] if op != "maximum" and op != "minimum" else [0.375, 1.125]
    a, g = args_of("f64", (2, 1), x, (3,), [0.75, 1.5, 2.0], (2, 3), [1, -2, 0.5, 3, 0.25, -1])
    n, t = grad_oracles.run_numpy_grad(op, a, g), grad_oracles.run_torch_grad(op, a, g)
    gn, gt = grads(n), grads(t)
    for name, shape in (("x", (2, 1)), ("y", (3,))):
        assert gn[name].shape == gt[name].shape == shape
        assert np.allclose(gn[name].array, gt[name].array, rtol=1e-13, atol=0)


def test_matmul_batch_dims_are_summed():
    rng = rng_for("mm")
    a = [operand("x", "f32", (2, 1, 2, 3), rng, [0.25 * k for k in range(1, 13)]),
         operand("y", "f32", (4, 3, 2), rng, [0.5] * 24)]
    g = operand("grad", "f32", (2, 4, 2, 2), rng, [1.0] * 32)
    n, t = grads(grad_oracles.run_numpy_grad("matmul", a, g)), grads(grad_oracles.run_torch_grad("matmul", a, g))
    assert n["x"].shape == (2, 1, 2, 3) and n["y"].shape == (4, 3, 2)
    assert np.array_equal(n["x"].array, t["x"].array) and np.array_equal(n["y"].array, t["y"].array)
    assert float(n["x"].array[0, 0, 0, 0]) == 4 * 2 * 0.5   # 4 batches x 2 columns of y


def test_expand_gradient_is_sum_to_size():
    rng = rng_for("e")
    a = [operand("x", "f32", (3, 1), rng, [1, 2, 3])]
    g = operand("grad", "f32", (2, 3, 4), rng, [1.0] * 24)
    t = grads(grad_oracles.run_torch_grad("expand", a, g, (("shape", "(2,-1,4)"),)))
    assert t["x"].array.tolist() == [[8.0], [8.0], [8.0]]


# ---------------------------------------------------------------- B26 B27 B31: where the oracles differ

def test_pow_at_zero_differs_and_is_recorded():
    a, g = args_of("f64", (), [0.0], (2,), [0.0, 0.0], (2,), [1.0, 1.0])
    n, t = grads(grad_oracles.run_numpy_grad("pow", a, g)), grads(grad_oracles.run_torch_grad("pow", a, g))
    assert np.isnan(n["x"].array) and float(t["x"].array) == 0.0          # 0 * 0^-1 vs torch's mask
    assert np.isneginf(n["y"].array).all() and (t["y"].array == 0).all()  # 1 * log 0 vs torch's mask


def test_max_tie_goes_to_y_in_numpy_and_is_halved_in_torch():
    a, g = args_of("f64", (1,), [2.0], (1,), [2.0], (1,), [4.0])
    n, t = grads(grad_oracles.run_numpy_grad("maximum", a, g)), grads(grad_oracles.run_torch_grad("maximum", a, g))
    assert (n["x"].array.tolist(), n["y"].array.tolist()) == ([0.0], [4.0])
    assert (t["x"].array.tolist(), t["y"].array.tolist()) == ([2.0], [2.0])


def test_integer_inputs_get_no_gradient_and_none_float_is_dtype():
    rng = rng_for("i")
    a = [operand("x", "i32", (2,), rng, [1, 2]), operand("y", "f32", (), rng, [3.0])]
    g = operand("grad", "f32", (2,), rng, [1.0, 1.0])
    assert list(grads(grad_oracles.run_torch_grad("mul", a, g))) == ["y"]
    a[1] = operand("y", "i32", (), rng, [3])
    for oc in (grad_oracles.run_torch_grad("mul", a, g), grad_oracles.run_numpy_grad("mul", a, g)):
        assert oc.kind == "error" and oc.cls == "dtype"


def test_forward_errors_are_value_modes():
    a, g = args_of("f32", (2,), [1, 2], (3,), [1, 2, 3], (), [1.0])
    for oc in (grad_oracles.run_torch_grad("add", a, g), grad_oracles.run_numpy_grad("add", a, g)):
        assert oc.kind == "error" and oc.cls == "not-broadcastable"


# ---------------------------------------------------------------- comparisons and merging

def test_exact_ops_compare_exactly_and_rounding_ops_get_an_abs_bound():
    a, g = args_of("f32", (2, 1), [0.5, 1.25], (3,), [0.75, 1.5, 2.0], (2, 3), [1, -2, 0.5, 3, 0.25, -1])
    c = grad_builder.make_grad_case("t/mul", "grad", "mul", a, g)
    assert all(line.endswith("exact") for line in c.lines() if line.startswith("expect"))
    c = grad_builder.make_grad_case("t/div", "grad", "div", a, g)
    tols = [line.split()[-1] for line in c.lines() if line.startswith("expect")]
    assert all(t.startswith("0x1p-") for t in tols), tols
    assert "divergent" not in c.tags


def test_tolerance_bound_grows_with_terms_and_magnitude():
    g = grad_oracles.Grad("x", "f32", np.zeros(2), abs_sum=np.array([1.0, 4.0]))
    small = float.fromhex(grad_builder.tolerance("div", g, 1).split()[-1])
    big = float.fromhex(grad_builder.tolerance("div", g, 100).split()[-1])
    assert small >= 9 * 2.0 ** -23 * 4 and big > small
    assert grad_builder.tolerance("add", g, 100) == "exact"


def test_ties_are_divergent_and_exact_ops_refuse_to_disagree(monkeypatch):
    a, g = args_of("f64", (1,), [2.0], (1,), [2.0], (1,), [4.0])
    c = grad_builder.make_grad_case("t/tie", "grad", "maximum", a, g, expect_agree=False)
    assert "divergent" in c.tags
    assert [l.split()[1] for l in c.lines() if l.startswith("expect")] == ["numpy", "numpy", "torch", "torch"]
    with pytest.raises(GenError):
        grad_builder.make_grad_case("t/tie2", "grad", "maximum", a, g)   # ties outside the ties subset


def test_writer_emits_one_expect_grad_line_per_input():
    a, g = args_of("f32", (), [0.5], (2,), [1.0, 2.0], (2,), [1.0, 1.0])
    lines = grad_builder.make_grad_case("t/w", "grad", "add", a, g).lines()
    assert "mode grad" in lines
    assert [l for l in lines if l.startswith("arg")][-1].startswith("arg grad f32 (2,)")
    exp = [l for l in lines if l.startswith("expect")]
    assert exp == ["expect * grad x f32 () exact", "expect * grad y f32 (2,) exact"]
    assert lines[lines.index(exp[0]) + 1] == "values 0x1p+1"


def test_sizes_gradients_are_digested_and_exact():
    c = next(c for c in suite_grad.sizes_cases() if c is not None and "4097" in c.id)
    lines = c.lines()
    assert any(l.startswith("digest fnv1a64") for l in lines)
    assert all(l.endswith("exact") for l in lines if l.startswith("expect"))


def test_suite_values_avoid_kinks():
    assert 0 not in suite_grad.VALUES["any"] and min(abs(v) for v in suite_grad.VALUES["divisor"]) >= 0.5
    assert min(suite_grad.VALUES["base"]) > 0 and 0 not in suite_grad.VALUES["exponent"]
    assert not set(suite_grad.VALUES["odd8"]) & set(suite_grad.VALUES["any"])


# ---------------------------------------------------------------- the committed suite's reach (issue #25)

GRAD_OPS = ("add", "sub", "mul", "div", "pow", "maximum", "minimum", "where", "matmul", "broadcast_to", "expand")


def _shape(text):
    return tuple(int(d) for d in text.strip("()").split(",") if d)


def _grad_records(path):
    """(id, op, args [(name, dtype, shape, strides, offset, data line)], grad expects
    [(name, shape)]) of each record of a grad case file, read as text."""
    rec, pending = None, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            key, _, rest = line.rstrip("\n").partition(" ")
            if pending is not None:
                rec[2].append(pending + (line.strip(),))
                pending = None
            elif key == "case":
                rec = [rest, "", [], []]
            elif key == "op":
                rec[1] = rest
            elif key == "arg":
                n, dt, sh, st, off, _ = rest.split(" ")
                pending = (n, dt, _shape(sh), _shape(st), int(off))
            elif key == "expect" and rest.split(" ")[1] == "grad":
                rec[3].append((rest.split(" ")[2], _shape(rest.split(" ")[4])))
            elif key == "end":
                yield rec


def _layout_kinds(shape, strides, offset):
    """The non-contiguous traits of an operand: negative, stride0, offset, noncontiguous."""
    from caseio import contiguous_strides
    kinds = set()
    if any(s < 0 for s in strides):
        kinds.add("negative")
    if any(s == 0 and d > 1 for s, d in zip(strides, shape)):
        kinds.add("stride0")
    if offset and not kinds:
        kinds.add("offset")
    if tuple(strides) != tuple(contiguous_strides(shape)) and not kinds & {"negative", "stride0"}:
        kinds.add("noncontiguous")
    return kinds


def test_committed_grad_suite_reaches_every_layout_dtype_and_op():
    """Every grad op in both float dtypes has a case with gradient values (not only
    zero-size or error outcomes), inputs with negative strides, stride 0, an
    offset and another non-contiguous layout, and an incoming gradient in each
    of those layouts; where has non-bool conds; the sizes subset's ramp
    incoming gradients are positive (their partial sums never cancel)."""
    import os
    path = os.path.join(os.path.dirname(__file__), "..", "..", "cases", "grad.cases")
    kinds = ("negative", "stride0", "offset", "noncontiguous")
    want = {(op, dt): {"values"} | {"in-" + k for k in kinds} | {"grad-" + k for k in kinds}
            for op in GRAD_OPS for dt in ("f32", "f64")}
    conds = set()
    for cid, op, args, expects in _grad_records(path):
        *inputs, g = args
        if op == "where":
            conds.add(inputs[0][1])
        if cid.startswith("grad/sizes/") and g[5].startswith("pattern ramp"):
            assert int(g[5].split()[5]) < 0 < int(g[5].split()[6]), cid   # (v - K) / D > 0 for v >= 0
        dts = {a[1] for a in inputs} - {"bool"}
        if len(dts) != 1 or (op, next(iter(dts))) not in want:
            continue
        got = want[(op, next(iter(dts)))]
        if any(int(np.prod(sh, dtype=np.int64)) for _, sh in expects):
            got.discard("values")
        for a in inputs:
            got -= {"in-" + k for k in _layout_kinds(*a[2:5])}
        got -= {"grad-" + k for k in _layout_kinds(*g[2:5])}
    missing = {k: sorted(v) for k, v in want.items() if v}
    assert not missing, missing
    assert {"f32", "f64", "i32", "i64", "u8"} <= conds
