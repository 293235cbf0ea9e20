"""The full-range count check (gen/check_fullrange.py) passes on cases/ and
fails when a combination loses its case; NaN payload tokens round-trip."""

import os

import numpy as np

import caseio
import caseread
import check_fullrange
import fullrange_values as fv

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
FILE = os.path.join(ROOT, "cases", "fullrange.cases")


def test_committed_cases_cover_every_combination(capsys):
    assert check_fullrange.main([FILE]) == 0


def test_a_missing_combination_fails(tmp_path, capsys):
    """Dropping the cases of one op x dtype x pattern makes the check fail, naming it."""
    text = open(FILE).read()
    head, _, body = text.partition("\ncase ")
    kept = [r for r in ("case " + body).split("\ncase ")
            if not r.lstrip("case ").startswith("fullrange/lt/i64/column-y/")]
    out = tmp_path / "less.cases"
    out.write_text(head + "\n" + "\ncase ".join(kept).replace("case case ", "case ", 1))
    assert check_fullrange.main([str(out)]) == 1
    assert "lt i64 column-y" in capsys.readouterr().out


def test_nan_payload_tokens_round_trip():
    for dt in ("f32", "f64"):
        vals = fv.values(dt)
        toks = caseio.fmt_values(vals, dt, payloads=True)
        assert any(t.startswith("nan(0x") for t in toks) and any(t.startswith("-nan(0x") for t in toks)
        back = caseread.parse_values(toks, dt, "test")
        width = "u4" if dt == "f32" else "u8"
        assert back.view(width).tolist() == vals.view(width).tolist()
        assert caseio.fmt_values(vals, dt) == [("nan" if "nan" in t else t) for t in toks]


def test_classify():
    c = check_fullrange.classify
    assert c((2, 19), (2, 19)) == "same" and c((), (2, 3)) == "scalar-x" and c((2, 3), ()) == "scalar-y"
    assert c((3, 19), (1, 19)) == "row-y" and c((4, 1), (4, 19)) == "column-x"
    assert c((8, 1), (1, 19)) == "outer-y" and c((2, 1, 7), (2, 3, 7)) == "middle-x"
    assert c((3, 19), (19,)) == "leading-y" and c((1,), (1,)) is None and np is not None
