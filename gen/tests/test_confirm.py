"""test_confirm.py - the promotion of explored cases: reading case files back (caseread.py), checking ref's
answers against the oracles (confirm.py) and the explored suite built from the confirmed inputs."""

import numpy as np
import pytest

import builder
import caseread
import confirm
import suite_explored
from builder import make_case, operand, rng_for
from caseio import FORMAT_HEADER


@pytest.fixture(autouse=True)
def no_shard():
    builder.set_shard(0, 1)


def write(tmp_path, records, name="x.cases"):
    p = tmp_path / name
    p.write_text(FORMAT_HEADER + "\n" + "\n".join(records) + "\n", encoding="utf-8")
    return str(p)


# A case as bcast-run explore writes it: expectations from ref, source ref.
EXPLORED = """case explore/1/000000007
suite explore
tags explored stretch
rules B2 B3 B18
op add
mode value
source ref
arg x f32 (2,1) (1,1) 0 2
values 0x1p+0 -0x0p+0
arg y f32 (3,) (1,) 0 3
values 0x1p+1 nan -inf
expect * ok f32 (2,3) exact
values 0x1.8p+1 nan -inf 0x1p+1 nan -inf
end"""


def test_reader_reads_operands_and_expectations_exactly(tmp_path):
    rec = caseread.read_file(write(tmp_path, [EXPLORED]))[0]
    assert rec.id == "explore/1/000000007" and rec.op == "add" and rec.source == ["ref"]
    x, y = rec.args
    assert x.shape == (2, 1) and x.strides == (1, 1) and x.storage.dtype == np.float32
    assert np.signbit(x.storage[1]) and x.storage[1] == 0
    assert np.isnan(y.storage[1]) and y.storage[2] == -np.inf
    oc, cmp = rec.expect_for("torch")
    assert cmp == "exact" and oc.kind == "ok" and oc.shape == (2, 3)
    assert oc.values == ["0x1.8p+1", "nan", "-inf", "0x1p+1", "nan", "-inf"]
    assert rec.text[0] == "case explore/1/000000007" and rec.text[-1] == "end"


def test_reader_round_trips_what_gen_writes(tmp_path):
    c = make_case("t/one", "ops", "floor_divide",
                  [operand("x", "i32", (2, 3), rng_for("a")), operand("y", "i32", (3,), rng_for("b"))])
    rec = caseread.read_file(write(tmp_path, ["\n".join(c.lines())]))[0]
    again = make_case("t/one", "ops", rec.op, rec.args)
    assert again.lines() == c.lines()


def test_agreeing_case_is_confirmed(tmp_path):
    rec = caseread.read_file(write(tmp_path, [EXPLORED]))[0]
    assert confirm.judge(rec) == ("confirmed", None)


def test_wrong_expectation_is_a_ref_bug(tmp_path):
    wrong = EXPLORED.replace("values 0x1.8p+1 nan -inf 0x1p+1", "values 0x1.8p+1 nan -inf 0x1p+2")
    rec = caseread.read_file(write(tmp_path, [wrong]))[0]
    verdict, detail = confirm.judge(rec)
    assert verdict == "bug"
    assert {d[0] for d in detail} == {"numpy", "torch"}


def test_wrong_error_class_is_a_ref_bug(tmp_path):
    wrong = EXPLORED.replace("expect * ok f32 (2,3) exact\nvalues 0x1.8p+1 nan -inf 0x1p+1 nan -inf",
                             "expect * error not-broadcastable")
    rec = caseread.read_file(write(tmp_path, [wrong]))[0]
    assert confirm.judge(rec)[0] == "bug"


def test_main_exits_1_on_a_bug_and_promotes_nothing(tmp_path, capsys):
    wrong = EXPLORED.replace("0x1p+1 nan -inf\nend", "0x1p+2 nan -inf\nend")
    inputs = str(tmp_path / "inputs.cases")
    assert confirm.main(["--jobs", "1", "--inputs", inputs, write(tmp_path, [wrong])]) == 1
    assert "REF BUG: explore/1/000000007" in capsys.readouterr().out
    assert not (tmp_path / "inputs.cases").exists()


def test_confirmed_cases_become_the_explored_suite_once(tmp_path):
    inputs = str(tmp_path / "inputs.cases")
    path = write(tmp_path, [EXPLORED])
    assert confirm.main(["--jobs", "1", "--inputs", inputs, path]) == 0
    assert confirm.main(["--jobs", "1", "--inputs", inputs, path]) == 0   # not appended twice
    cases = list(suite_explored.cases(inputs))
    assert len(cases) == 1
    c = cases[0]
    assert c.suite == "explored" and c.id.startswith("explored/add/f32,f32/(2,1)x(3,)/")
    assert sorted(c.source) == ["numpy", "torch"] and "explored" in c.tags
    assert [p for p, _, _ in c.expects] == ["*"]
