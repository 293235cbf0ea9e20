"""test_lock.py - unit tests of the lock tools (lock.py, envcheck.py) and of the committed oracles.lock.

    /usr/bin/python3 .ci/python/tests/test_lock.py

Standard library only (the tools themselves need nothing else), so it runs on
any machine; each test_* function is run, a failure is printed with its
reason, and the last line is `N passed, N failed` (tests/run-tests.sh).
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import envcheck  # noqa: E402
import lock  # noqa: E402

ORACLES_LOCK = os.path.join(os.path.dirname(HERE), "oracles.lock")
ORACLES_IN = os.path.join(os.path.dirname(HERE), "oracles.in")


class raises:
    """`with raises(Exc, match=text):` fails unless the block raises Exc with text in its message."""

    def __init__(self, exc, match):
        self.exc, self.match = exc, match

    def __enter__(self):
        return self

    def __exit__(self, typ, val, tb):
        if typ is None:
            raise AssertionError("%s was not raised" % self.exc.__name__)
        if not issubclass(typ, self.exc) or self.match not in str(val):
            return False
        return True


def test_parse_lock_reads_pins_and_normalises_names():
    pins = envcheck.parse_lock("# c\n\nJinja2==3.1.6 --hash=sha256:ab\ntyping_extensions==4.1 --hash=sha256:cd\n")
    assert pins == {"jinja2": "3.1.6", "typing-extensions": "4.1"}


def test_parse_lock_rejects_an_unpinned_line():
    with raises(ValueError, match="line 2"):
        envcheck.parse_lock("a==1\nb>=2\n")


def test_parse_lock_rejects_a_name_pinned_twice():
    with raises(ValueError, match="second time"):
        envcheck.parse_lock("Foo==1\nfoo==1\n")


def test_compare_reports_missing_wrong_and_extra_but_not_pip():
    missing, wrong, extra = envcheck.compare({"a": "1", "b": "2", "c": "3"},
                                             {"a": "1", "b": "2.1", "pip": "23.0.1", "six": "1"})
    assert missing == ["c"]
    assert wrong == [("b", "2", "2.1")]
    assert extra == ["six"]


def test_compare_of_an_exact_match_is_empty():
    assert envcheck.compare({"a": "1"}, {"a": "1", "pip": "9"}) == ([], [], [])


def test_parse_input_splits_requirements_and_omissions():
    reqs, omit = lock.parse_input("# x\nnumpy>=2,<3\nomit Nvidia_CUSOLVER  # why\n\ntorch>=2\n")
    assert reqs == ["numpy>=2,<3", "torch>=2"]
    assert omit == {"nvidia-cusolver": "why"}


def test_render_leaves_omitted_out_and_sorts():
    text = lock.render("e", [("Zed", "1", "z.whl", "aa"), ("triton", "3", "t.whl", "bb"),
                             ("alpha", "2", "a.whl", "cc")], {"triton": "GPU only"})
    pinned = [l for l in text.splitlines() if not l.startswith("#")]
    assert pinned == ["alpha==2 --hash=sha256:cc", "zed==1 --hash=sha256:aa"]
    assert "# omitted: triton==3 (GPU only)" in text


def test_render_refuses_a_stale_omission():
    with raises(SystemExit, match="gone"):
        lock.render("e", [("a", "1", "a.whl", "aa")], {"gone": ""})


def test_committed_oracles_lock_pins_numpy2_torch2_with_sha256_hashes():
    with open(ORACLES_LOCK, encoding="utf-8") as f:
        text = f.read()
    pins = envcheck.parse_lock(text)
    assert pins["numpy"].startswith("2.") and pins["torch"].startswith("2.")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            assert re.fullmatch(r"[a-z0-9-]+==\S+ --hash=sha256:[0-9a-f]{64}", line), line


def test_committed_oracles_lock_pins_nothing_its_input_omits():
    with open(ORACLES_IN, encoding="utf-8") as f:
        _, omit = lock.parse_input(f.read())
    with open(ORACLES_LOCK, encoding="utf-8") as f:
        pins = envcheck.parse_lock(f.read())
    assert omit and not set(omit) & set(pins)


def main():
    """Runs every test_* function of this module in order; prints failures and the summary line."""
    tests = [(n, f) for n, f in globals().items() if n.startswith("test_") and callable(f)]
    failed = 0
    for name, fn in tests:
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - every failure is reported
            failed += 1
            print("FAILED %s: %s: %s" % (name, type(e).__name__, e))
    print("%d passed, %d failed" % (len(tests) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
