"""test_sizes.py - tests of the `sizes` suite's generator: its plan (ids,
coverage of extents, patterns, layouts, ops and dtypes), its compact records
(pattern ramps in, digests out), the ramp and digest helpers against the
runner, and the large suite's huge-offset operands."""

import collections
import os
import subprocess

import numpy as np
import pytest

import builder
import digest
import ramp
import suite_large
import suite_sizes
from caseio import DTYPES, Operand, NP_DTYPE

GEN = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(GEN)
RUNNER = os.path.join(ROOT, "build", "bcast-run")
REF = os.path.join(ROOT, "build", "targets", "ref.so")
PLAN = list(suite_sizes.plan())
# What the suite must cover (issue 15), written out here rather than read from
# the module, so that a sweep dropped from the module fails a test.
REQUIRED_LAYOUTS = {"stride0", "negative", "offset", "transposed", "in-place", "out"}
REQUIRED_OPS = {"add", "mul", "div", "where", "lt", "eq", "maximum"}
REQUIRED_PATTERNS = {"same", "scalar-left", "scalar-right", "row", "column", "outer", "middle", "leading"}


@pytest.fixture(autouse=True)
def no_shard():
    builder.set_shard(0, 1)


def by(field, specs=PLAN):
    out = collections.defaultdict(list)
    for s in specs:
        out[getattr(s, field)].append(s)
    return out


# ---------------------------------------------------------------- the plan

def test_ids_are_unique_stable_and_readable():
    ids = [s.cid for s in PLAN]
    assert len(ids) == len(set(ids))
    assert all(i.startswith("sizes/") and " " not in i for i in ids)
    assert ids == [s.cid for s in suite_sizes.plan()]  # the same order every time: sharding relies on it


def test_extents_are_the_boundaries_and_primes():
    want = {2 ** k + d for k in range(1, 13) for d in (-1, 0, 1)} | {17, 31, 127, 257, 1031}
    assert set(suite_sizes.EXTENTS) == want
    pattern = [s for s in PLAN if "pattern" in s.tags]
    for name, _ in suite_sizes.PATTERNS:  # every pattern meets every extent, dense
        assert {s.n for s in pattern if s.pattern == name} == want, name
    tail = [s for s in PLAN if "tail" in s.tags]
    assert {s.n for s in tail} == {n for n in want if n <= 257}


def test_tail_sweep_is_every_op_and_dtype_at_every_small_extent():
    tail = [s for s in PLAN if "tail" in s.tags]
    seen = {(s.pattern, s.n, s.op, s.dtype) for s in tail}
    for pname, _ in suite_sizes.TAIL_PATTERNS:
        for n in suite_sizes.TAIL_EXTENTS:
            for op in suite_sizes.OPS:
                for dt in DTYPES:
                    assert (pname, n, op, dt) in seen


def test_every_pattern_meets_every_op_and_dtype():
    pattern = by("pattern", [s for s in PLAN if "pattern" in s.tags])
    assert set(pattern) >= REQUIRED_PATTERNS and set(suite_sizes.OPS) == REQUIRED_OPS
    for name, _ in suite_sizes.PATTERNS:
        assert {(s.op, s.dtype) for s in pattern[name]} == set(suite_sizes.PAIRS), name


def test_every_pattern_in_every_layout_and_each_layout_in_every_dtype():
    lay = [s for s in PLAN if "layout" in s.tags]
    points = {(s.pattern, s.layout) for s in lay}
    assert {s.layout for s in lay} == REQUIRED_LAYOUTS
    for name, pat in suite_sizes.PATTERNS:
        for layout in REQUIRED_LAYOUTS:
            xs, ys = pat(5)
            if layout == "in-place" and suite_sizes.broadcast(xs, ys) not in (xs, ys):
                continue  # outer patterns: no operand has the result's shape
            assert (name, layout) in points, (name, layout)
    for layout, specs in by("layout", lay).items():
        assert {s.dtype for s in specs} == set(DTYPES), layout
        ops = {s.op for s in specs}
        assert ops >= {"add", "mul", "div", "lt", "eq"}, layout
        if layout not in ("in-place", "out"):
            assert ops == set(suite_sizes.OPS), layout


def test_threaded_cases_pass_the_parallel_grains():
    sizes = [int(np.prod(suite_sizes.broadcast(xs, ys))) for _, _, _, xs, ys in suite_sizes.THREADED]
    assert min(sizes) >= 65536 and max(sizes) >= 2 ** 20


def test_matmul_broadcasts_batches_in_every_dtype():
    mm = [s for s in PLAN if s.op == "matmul" and "overflow" not in s.tags]
    assert {s.dtype for s in mm} == set(DTYPES)
    assert {s.pattern for s in mm} == {b[0] for b in suite_sizes.MATMUL_BATCHES}


def test_overflow_plan_counts_past_int64_without_memory():
    ov = [s for s in PLAN if "overflow" in s.tags]
    kinds = {s.tags[1] for s in ov}
    assert kinds == {"count", "bytes", "empty", "shapes"}
    for s in ov:
        for a in s.build():
            assert a.storage_len <= 8  # stride-0 views: one stored element (or a tiny dense out=)
            if a.dtype == "-" or s.mode == "inplace":
                continue
            # the result overflows, not an operand: NumPy's check on creating
            # an operand must not answer first
            size = int(np.prod([d for d in a.shape if d], dtype=object)) * np.dtype(NP_DTYPE[a.dtype]).itemsize
            assert size < 2 ** 63, (s.cid, a.name)


# ---------------------------------------------------------------- records

def record(cid):
    spec = next(s for s in PLAN if s.cid == cid)
    args = spec.build()
    case = builder.make_case(spec.cid, "sizes", spec.op, args, mode=spec.mode, attrs=spec.attrs,
                             tags=spec.tags + suite_sizes.threaded_tag(spec, args), rules=spec.rules,
                             digest_over=suite_sizes.TINY if spec.digest else None)
    return case, case.lines()


@pytest.mark.parametrize("cid", [
    "sizes/same/add/i8/(1024,1024)x(1024,1024)",
    "sizes/outer/mul/f32/(1031,1)x(1,1031)",
    "sizes/tail/scalar-right/maximum/u8/(257,)x()",
])
def test_records_are_compact(cid):
    case, lines = record(cid)
    assert len("\n".join(lines)) < 1500
    for a in case.args:
        assert a.data_line().startswith("pattern ramp ") or a.storage_len <= suite_sizes.TINY
    assert [oc.digest is not None and oc.values is None for _, oc, _ in case.expects] == [True] * len(case.expects)
    assert sum(l.startswith("digest fnv1a64 ") for l in lines) == len(case.expects)


def test_threaded_tag_follows_the_result_size():
    case, _ = record("sizes/same/add/i8/(1024,1024)x(1024,1024)")
    assert "threaded" in case.tags
    case, _ = record("sizes/tail/same/add/f32/(17,)x(17,)")
    assert "threaded" not in case.tags and "simd-tail" in case.tags


def test_integer_ramps_span_each_dtype():
    idx = np.arange(4097)
    for dt in ("i8", "u8", "i16", "i32"):
        v = ramp.values_at(idx, suite_sizes.ramp_of(dt, "x"), dt).astype(np.int64)
        info = np.iinfo(NP_DTYPE[dt])
        span = int(info.max) - int(info.min)
        assert v.min() <= info.min + span // 64 and v.max() >= info.max - span // 64, dt
        assert len(np.unique(v[:256])) == 256 or dt in ("i8", "u8"), dt  # no repeats within a tail
    v = ramp.values_at(idx, suite_sizes.ramp_of("i64", "x"), "i64")
    assert (np.abs(v) > 2 ** 40).mean() > 0.9  # far beyond +-2^32
    assert len(np.unique(v)) == len(v)


# ---------------------------------------------------------------- helpers

def test_ramp_is_the_formats_formula():
    for pat, dt in (((7, 3, 251, 125, 1), "i8"), ((suite_sizes.ramp_of("i64", "x")), "i64"),
                    ((5, 1, 12, 6, 4), "f32"), ((2, 1, 5, 3, 1), "bool"), ((3, 0, 2 ** 32, 2 ** 31, 1), "i32")):
        a, b, m, k, d = pat
        got = ramp.values_at(np.arange(300), pat, dt)
        want = [((i * a + b) % m) - k for i in range(300)]  # Python ints: exact
        if dt == "bool":
            want = [w != 0 for w in want]
        elif dt == "f32":
            want = [np.float32(w / d) for w in want]
        assert [x == y for x, y in zip(got.tolist(), np.array(want).astype(NP_DTYPE[dt]).tolist())] == [True] * 300


def test_ramp_refuses_what_the_reader_refuses():
    with pytest.raises(Exception):
        ramp.values_at(np.arange(3), (1, 0, 2 ** 54, 0, 1), "i64")
    with pytest.raises(Exception):
        ramp.values_at(np.arange(3), (1, 0, 7, 0, 2), "i32")


def test_digest_helper_matches_plain_fnv1a64():
    for arr in (np.arange(10, dtype=np.int16), np.array([1.5, -0.0], np.float64), np.zeros(0, np.uint8),
                np.arange(3000, dtype=np.int64).reshape(30, 100)):
        hexd, n = digest.fnv1a64(arr)
        assert hexd == digest.fnv1a64_py(np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes())
        assert n == arr.size


def test_digest_canonicalises_nan():
    a = np.array([np.nan, 1.0], np.float32)
    b = a.copy()
    b.view(np.uint32)[0] = 0xffc00001  # another NaN
    assert digest.fnv1a64(a) == digest.fnv1a64(b)
    assert digest.fnv1a64(a) != digest.fnv1a64(np.array([2.0, 1.0], np.float32))


def test_digested_divergence_is_found_bitwise():
    x = Operand("x", "i32", (40,), storage=np.arange(40, dtype=np.int32))
    y = Operand("y", "i32", (), storage=np.array([3], np.int32))
    c = builder.make_case("t/div-digest", "sizes", "div", [x, y], digest_over=16)
    assert "divergent" in c.tags  # f64 in NumPy, f32 in torch (B18)
    assert [e.digest[1] for _, e, _ in c.expects] == [40, 40]


@pytest.mark.skipif(not (os.path.exists(RUNNER) and os.path.exists(REF)),
                    reason="needs build/bcast-run and build/targets/ref.so (run make)")
def test_ramps_and_digests_agree_with_the_runner(tmp_path):
    # Two real records pass on ref; the same record with a wrong digest fails.
    import make_cases
    neg = next(s.cid for s in PLAN if s.layout == "negative" and s.dtype == "f32")
    items = []
    for cid in ("sizes/tail/same/mul/i64/(33,)x(33,)", neg):
        case, lines = record(cid)
        items.append((case.id, "\n".join(lines) + "\n"))
    _, lines = record("sizes/tail/same/mul/i64/(33,)x(33,)")
    lines = ["case t/bad-digest" if l.startswith("case ") else
             "digest fnv1a64 0123456789abcdef 33" if l.startswith("digest ") else l for l in lines]
    items.append(("t/bad-digest", "\n".join(lines) + "\n"))
    path = str(tmp_path / "s.cases")
    make_cases.write_suite(path, "sizes", items)
    out = subprocess.run([RUNNER, "--target", REF, path], capture_output=True, text=True)
    assert out.stdout.strip().splitlines()[-1].startswith("2 passed, 1 failed"), out.stdout[-800:]
    assert "t/bad-digest" in out.stdout


def test_large_offset_operand_holds_the_views_values():
    # offset_case gives the oracles a compact copy; here a small storage lets
    # the real strided view be built and compared.
    for name, dt, shape, strides, off, storage in (("neg", "i16", (30,), (-1,), 40, 41),
                                                   ("rows", "i32", (3, 5), (11, 1), 4, 31)):
        pat = suite_sizes.ramp_of(dt, "x")
        real = ramp.operand("x", dt, shape, pat, strides, off, storage)
        view = np.lib.stride_tricks.as_strided(
            real.storage[off:], shape, [s * real.storage.itemsize for s in strides])
        idx = off + sum(np.indices(shape, dtype=np.int64)[k] * s for k, s in enumerate(strides))
        assert np.array_equal(ramp.values_at(idx.reshape(-1), pat, dt), np.array(view).reshape(-1)), name
    for _, dt, shape, strides, off, storage, _, _ in suite_large.OFFSETS:
        hi = off + sum((d - 1) * s for d, s in zip(shape, strides) if s > 0)
        assert hi * np.dtype(NP_DTYPE[dt]).itemsize >= 2 ** 31 and hi < storage  # past 2^31 bytes, in bounds
