"""test_oracle_drift.py - oracle_drift.py names each kind of difference between two versions of a case."""

import oracle_drift


def parse(tmp_path, name, body):
    p = tmp_path / name
    p.write_text("bcast-cases 1\n# c\n\ncase c1\nsuite s\nop add\n" + body + "end\n")
    return oracle_drift.read_cases(str(p))["c1"]


OK_F32 = "expect * ok f32 (2,) exact\nvalues 0x1p+0 0x1p+1\n"


def test_same_case_is_same(tmp_path):
    a = parse(tmp_path, "a", OK_F32)
    assert oracle_drift.kind_of(a, parse(tmp_path, "b", OK_F32), "numpy") == "same"


def test_star_expect_splits_into_a_dtype_change_for_one_profile(tmp_path):
    a = parse(tmp_path, "a", OK_F32)
    b = parse(tmp_path, "b", "expect numpy ok f64 (2,) exact\nvalues 0x1p+0 0x1p+1\n"
                             "expect torch ok f32 (2,) exact\nvalues 0x1p+0 0x1p+1\n")
    assert oracle_drift.kind_of(a, b, "numpy") == "dtype"
    assert oracle_drift.kind_of(a, b, "torch") == "same"


def test_error_to_ok_error_class_values_and_message(tmp_path):
    err = parse(tmp_path, "e", "expect * error not-broadcastable\nmessage numpy m1\n")
    assert oracle_drift.kind_of(err, parse(tmp_path, "a", OK_F32), "numpy") == "error->ok"
    other = parse(tmp_path, "o", "expect * error other\nmessage numpy m1\n")
    assert oracle_drift.kind_of(err, other, "numpy") == "error class"
    msg = parse(tmp_path, "m", "expect * error not-broadcastable\nmessage numpy m2\n")
    assert oracle_drift.kind_of(err, msg, "numpy") == "message"
    assert oracle_drift.kind_of(err, msg, "torch") == "same"
    vals = parse(tmp_path, "v", "expect * ok f32 (2,) exact\nvalues 0x1p+0 0x1p+2\n")
    assert oracle_drift.kind_of(parse(tmp_path, "a2", OK_F32), vals, "torch") == "values"
