"""test_gen.py - tests of the case generators: enumeration, format writer, oracles, merging."""

import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import builder
import oracles
from caseio import Case, GenError, Operand, fmt_float, fmt_shape, CASE_SET_VERSION
from builder import make_case, operand, rng_for, shape_arg
from shapes import all_shapes, shape_pairs, broadcast

GEN = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(autouse=True)
def no_shard():
    builder.set_shard(0, 1)


# ---------------------------------------------------------------- a small reader

def parse(text):
    """Minimal reader of docs/case-format.md: returns (header, version comment, [record dict])."""
    lines = text.split("\n")
    assert lines[0] == "bcast-cases 1"
    setv = [l for l in lines if l.startswith("# case-set ")]
    recs, cur, pending = [], None, None
    for line in lines[1:]:
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key == "case":
            assert cur is None
            cur = {"id": rest, "args": [], "expects": [], "messages": []}
        elif key == "end":
            recs.append(cur)
            cur = None
        elif key == "arg":
            f = rest.split(" ")
            cur["args"].append({"name": f[0], "dtype": f[1], "shape": f[2], "strides": f[3],
                                "offset": int(f[4]), "storage": int(f[5])})
            pending = cur["args"][-1] if f[1] != "-" else None
        elif key == "expect":
            f = rest.split(" ")
            cur["expects"].append({"profile": f[0], "kind": f[1], "rest": f[2:]})
            pending = cur["expects"][-1] if f[1] == "ok" else None
        elif key in ("values", "pattern", "digest"):
            assert pending is not None, line
            pending["data"] = line.split(" ")[1:] if key == "values" else line
            pending = None
        elif key == "message":
            cur["messages"].append(rest)
        else:
            assert key in ("suite", "tags", "rules", "op", "mode", "source", "attr"), key
            cur[key] = rest
    assert cur is None
    return setv, recs


def shape_size(text):
    dims = [int(d) for d in text.strip("()").split(",") if d]
    return int(np.prod(dims, dtype=np.int64)) if dims else 1


# ---------------------------------------------------------------- enumeration

def test_exhaustive_enumeration_has_85_shapes_and_7225_pairs():
    shapes = all_shapes()
    assert len(shapes) == 85 and len(set(shapes)) == 85
    assert shapes[0] == () and max(len(s) for s in shapes) == 3
    assert len(shape_pairs(shapes)) == 7225


def test_python_broadcast_helper_follows_b1_b3():
    # B1/B2/B3 (used only to choose cases; expectations come from the oracles)
    assert broadcast((5, 1, 4, 1), (3, 1, 1)) == np.broadcast_shapes((5, 1, 4, 1), (3, 1, 1))
    assert broadcast((0,), (2, 2)) is None
    assert broadcast((1,), (0,)) == (0,)


# ---------------------------------------------------------------- format

def test_float_tokens_are_exact_hex():
    for v in (0.0, -0.0, 1.5, 0.1, 1e-310, float(np.float32(0.1)), -3.0):
        assert float.fromhex(fmt_float(v)) == v
        assert np.signbit(float.fromhex(fmt_float(v))) == np.signbit(v)
    assert fmt_float(float("nan")) == "nan" and fmt_float(float("-inf")) == "-inf"
    assert fmt_float(3.0) == "0x1.8p+1" and fmt_float(-0.0) == "-0x0p+0"


def test_writer_round_trips_through_a_reader(tmp_path):
    rng = rng_for("t")
    cases = [
        make_case("t/add/f32/(2,1)x(3,)", "exhaustive", "add",
                  [operand("x", "f32", (2, 1), rng), operand("y", "f32", (3,), rng)]),
        make_case("t/add/f32/(2,3)x(4,)", "exhaustive", "add",
                  [operand("x", "f32", (2, 3), rng), operand("y", "f32", (4,), rng)]),
        make_case("t/div/i32/(3,)x(3,)", "ops", "div",
                  [operand("x", "i32", (3,), rng), operand("y", "i32", (3,), rng)]),
        make_case("t/broadcast_shapes/2", "nary", "broadcast_shapes",
                  [shape_arg("s0", (2, 1)), shape_arg("s1", (3,))]),
    ]
    path = tmp_path / "t.cases"
    sys.path.insert(0, GEN)
    import make_cases
    make_cases.write_suite(str(path), "exhaustive",
                           [(c.id, "\n".join(c.lines()) + "\n") for c in cases])
    setv, recs = parse(path.read_text())
    assert setv == ["# case-set " + CASE_SET_VERSION]
    assert [r["id"] for r in recs] == sorted(c.id for c in cases)
    by = {r["id"]: r for r in recs}
    ok = by["t/add/f32/(2,1)x(3,)"]
    assert ok["expects"][0]["profile"] == "*" and ok["expects"][0]["rest"][:2] == ["f32", "(2,3)"]
    assert len(ok["expects"][0]["data"]) == 6
    for a in ok["args"]:
        assert len(a["data"]) == a["storage"]
    x = np.array([float.fromhex(t) for t in ok["args"][0]["data"]], np.float32).reshape(2, 1)
    y = np.array([float.fromhex(t) for t in ok["args"][1]["data"]], np.float32)
    got = np.array([float.fromhex(t) for t in ok["expects"][0]["data"]], np.float32)
    assert np.array_equal(got, (x + y).reshape(-1))
    err = by["t/add/f32/(2,3)x(4,)"]
    assert err["expects"][0]["rest"] == ["not-broadcastable"]
    assert any(m.startswith("numpy operands could not be broadcast") for m in err["messages"])
    assert by["t/broadcast_shapes/2"]["expects"][0]["rest"] == ["-", "(2,3)", "exact"]
    assert by["t/broadcast_shapes/2"]["expects"][0]["data"] == []


def test_view_outside_storage_is_refused():
    with pytest.raises(GenError):
        Operand("x", "f32", (2, 3), (3, 1), 1, np.zeros(6, np.float32))


# ---------------------------------------------------------------- oracles

def test_oracle_wrappers_success_matches_direct_calls():
    x = Operand("x", "i16", (2, 1), storage=np.array([1, -2], np.int16))
    y = Operand("y", "i16", (3,), storage=np.array([5, 6, 7], np.int16))
    n = oracles.run_numpy("add", "value", [x, y])
    t, _ = oracles.run_torch("add", "value", [x, y])
    direct = np.array([1, -2], np.int16).reshape(2, 1) + np.array([5, 6, 7], np.int16)
    assert (n.kind, n.dtype, n.shape) == ("ok", "i16", direct.shape)
    assert n.values == [str(v) for v in direct.reshape(-1)]
    tdir = torch.tensor([[1], [-2]], dtype=torch.int16) + torch.tensor([5, 6, 7], dtype=torch.int16)
    assert t.values == [str(v) for v in tdir.reshape(-1).tolist()]


def test_oracle_wrappers_error_is_classified_with_the_library_message():
    x = Operand("x", "f32", (2, 3), storage=np.zeros(6, np.float32))
    y = Operand("y", "f32", (4,), storage=np.zeros(4, np.float32))
    n = oracles.run_numpy("add", "value", [x, y])
    t, _ = oracles.run_torch("add", "value", [x, y])
    with pytest.raises(ValueError) as e:
        np.zeros((2, 3)) + np.zeros(4)
    assert (n.kind, n.cls) == ("error", "not-broadcastable") and n.message == " ".join(str(e.value).split())
    assert (t.kind, t.cls) == ("error", "not-broadcastable") and t.message.startswith("The size of tensor a")


def test_failed_inplace_reports_self_unchanged():
    s = Operand("self", "f32", (1, 3, 1), storage=np.arange(3, dtype=np.float32))
    y = Operand("y", "f32", (3, 1, 7), storage=np.ones(21, np.float32))
    c = make_case("t/inplace", "inplace", "add", [s, y], mode="inplace")
    assert [e[1].cls for e in c.expects] == ["inplace-shape"]
    assert "self-unchanged" in c.tags


def test_failed_out_call_tags_out_modified_only_when_an_oracle_wrote_out():
    # torch's integer floor_divide stores 10 // 1 into out, then raises at the 0 divisor (B22)
    x = Operand("x", "i32", (3,), storage=np.array([10, 11, 12], np.int32))
    y = Operand("y", "i32", (3,), storage=np.array([1, 0, 2], np.int32))
    out = Operand("out", "i32", (3,), storage=np.full(3, 7, np.int32))
    t, _ = oracles.run_torch("floor_divide", "out", [x, y, out])
    assert (t.kind, t.cls, t.out_unchanged) == ("error", "division-by-zero", False)
    c = make_case("t/out-fd", "inplace", "floor_divide", [x, y, out], mode="out")
    assert "out-modified" in c.tags
    # a shape error leaves out alone in both: no tag (a missing out-modified means unchanged)
    y4 = Operand("y", "i32", (4,), storage=np.ones(4, np.int32))
    n = oracles.run_numpy("add", "out", [x, y4, out])
    assert (n.kind, n.out_unchanged) == ("error", True)
    c = make_case("t/out-shape", "inplace", "add", [x, y4, out], mode="out")
    assert "out-modified" not in c.tags and not any("out-" in tg and tg != "out" for tg in c.tags)


def test_expanded_self_is_overlap_in_both_profiles():
    s = Operand("self", "f32", (3,), (0,), 0, np.zeros(1, np.float32))
    y = Operand("y", "f32", (3,), storage=np.ones(3, np.float32))
    c = make_case("t/overlap", "inplace", "add", [s, y], mode="inplace")
    assert [(p, e.cls) for p, e, _ in c.expects] == [("*", "overlap")]
    assert any("read-only" in m for _, m in c.messages)


def test_unclassified_exception_stops_generation():
    with pytest.raises(GenError):
        oracles.classify("numpy", RuntimeError("something nobody has seen"))


def test_torch_crash_inputs_are_kept_away_from_torch():
    x = Operand("x", "i32", (1,), storage=np.array([np.iinfo(np.int32).min], np.int32))
    y = Operand("y", "i32", (1,), storage=np.array([-1], np.int32))
    c = make_case("t/fd", "ops", "floor_divide", [x, y])
    assert c.source == ["numpy"] and "torch-crash" in c.tags


# ---------------------------------------------------------------- merging

def test_divergence_gives_two_expects_and_the_tag():
    # NumPy's true division of int32 gives float64, torch's float32 (B18).
    x = Operand("x", "i32", (2,), storage=np.array([1, 3], np.int32))
    y = Operand("y", "i32", (), storage=np.array([2], np.int32))
    c = make_case("t/div", "ops", "div", [x, y])
    assert "divergent" in c.tags
    assert [(p, e.dtype) for p, e, _ in c.expects] == [("numpy", "f64"), ("torch", "f32")]


def test_agreement_gives_one_star_expect():
    x = Operand("x", "f64", (2,), storage=np.array([1, 3], np.float64))
    c = make_case("t/add", "ops", "add", [x, Operand("y", "f64", (), storage=np.array([2.0]))])
    assert [p for p, _, _ in c.expects] == ["*"] and "divergent" not in c.tags


def test_torch_simd_values_are_replaced_by_the_scalar_path():
    # B21 policy: torch's vector pow gives inf for DBL_MAX ** 1 in a 16-element
    # row; its scalar path (and NumPy) give DBL_MAX. The case keeps the scalar
    # value, agrees with NumPy, and records the vector value in a comment.
    big = np.finfo(np.float64).max
    x = Operand("x", "f64", (16,), storage=np.full(16, big))
    y = Operand("y", "f64", (16,), storage=np.ones(16))
    vec, _ = oracles.run_torch("pow", "value", [x, y])
    assert vec.values[0] == "inf"
    c = make_case("t/pow-simd", "ops", "pow", [x, y])
    assert "torch-simd" in c.tags and "divergent" not in c.tags
    assert [p for p, _, _ in c.expects] == ["*"]
    assert c.expects[0][1].values[0] == fmt_float(big)
    assert any(m.startswith("torch 1.13 vectorized path gave: (0)=inf") for m in c.comments)


def test_torch_scalar_path_divergence_stays_divergent():
    # maximum(0.0, -0.0): torch's scalar code returns the first operand (0.0),
    # NumPy -0.0: a real divergence, whatever the vector code did.
    x = Operand("x", "f64", (16,), storage=np.zeros(16))
    y = Operand("y", "f64", (16,), storage=np.full(16, -0.0))
    c = make_case("t/max-zero", "ops", "maximum", [x, y])
    assert "divergent" in c.tags
    got = {p: e.values[0] for p, e, _ in c.expects}
    assert got == {"numpy": "-0x0p+0", "torch": "0x0p+0"}


def test_shape_errors_are_remembered_only_for_identical_calls():
    x = Operand("x", "f32", (2, 3), storage=np.zeros(6, np.float32))
    y = Operand("y", "f32", (4,), storage=np.zeros(4, np.float32))
    first = make_case("t/memo-1", "ops", "add", [x, y])
    y2 = Operand("y", "f32", (4,), storage=np.ones(4, np.float32))
    again = make_case("t/memo-2", "ops", "add", [x, y2])
    assert first.expects[0][1].cls == again.expects[0][1].cls == "not-broadcastable"
    key = ("add", "value", (), (("x", "f32", (2, 3), (3, 1)), ("y", "f32", (4,), (1,))))
    assert key in builder._TORCH_SHAPE_ERRORS
    y3 = Operand("y", "f32", (3,), storage=np.zeros(3, np.float32))
    assert make_case("t/memo-3", "ops", "add", [x, y3]).expects[0][1].kind == "ok"


def test_seeds_suite_builds_from_documented_fields():
    import suite_seeds
    stand_in = [
        dict(name="t-broadcast", seed="s.txt", quote="q", kind="broadcast", shapes=[(5, 1, 4, 1), (3, 1, 1)],
             axis=None, op="add", dtype="f32", claim="(5,3,4,1)"),
        dict(name="t-values", seed="s.txt", quote="q", kind="values", shapes=[(6,), (2, 6)], axis=None,
             op="mul", dtype="i64", claim="...", values=[list(range(6)), [list(range(6)), list(range(6, 12))]]),
        dict(name="t-inplace", seed="s.txt", quote="q", kind="inplace", shapes=[(1, 3, 1), (3, 1, 7)],
             axis=None, op="add", dtype="f32", claim="error"),
        dict(name="t-axis", seed="s.txt", quote="q", kind="axis", shapes=[(2, 1, 4), (3, 1)], axis=1,
             op="axis_add", dtype="f32", claim="(2,3,4)"),
        dict(name="t-dot", seed="s.txt", quote="q", kind="dot", shapes=[(3, 4), (5, 6)], axis=None,
             op="matmul", dtype="f64", claim="error"),
    ]
    got = {c.id: c for c in suite_seeds.cases(stand_in)}
    assert got["seeds/t-broadcast"].expects[0][1].shape == np.broadcast_shapes((5, 1, 4, 1), (3, 1, 1))
    vals = got["seeds/t-values"].expects[0][1].values
    assert vals == [str(v) for v in (np.arange(6) * np.arange(12).reshape(2, 6)).reshape(-1)]
    assert got["seeds/t-inplace"].expects[0][1].cls == "inplace-shape"
    assert got["seeds/t-axis"].expects[0][1].shape == (2, 3, 4)
    assert got["seeds/t-dot"].expects[0][1].cls == "matmul-core"


# ---------------------------------------------------------------- determinism

def test_generation_is_deterministic_across_runs_and_sharding(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for out, jobs in ((a, "1"), (b, "2")):
        subprocess.run([sys.executable, os.path.join(GEN, "make_cases.py"), "--out", str(out),
                        "--suite", "seeds", "--suite", "matmul", "--jobs", jobs],
                       check=True, stdout=subprocess.DEVNULL)
    for name in ("seeds.cases", "matmul.cases"):
        assert (a / name).read_bytes() == (b / name).read_bytes()
