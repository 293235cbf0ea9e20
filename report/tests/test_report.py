#!/usr/bin/env python3
"""test_report.py - tests of the report generator (report/), run by `make test`: last line "N passed, N failed, N skipped".

Usage: test_report.py BUILD_DIR. Needs BUILD_DIR/bcast-run and the broken test
targets BUILD_DIR/targets/test/*.so. Fixture cases: tests/runner/fixtures/real.
The Chromium check renders a report headless and SKIPs (with a line saying
so) when the Debian package `chromium` is not installed.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

import edge_cases          # noqa: E402
import casefile            # noqa: E402
import runs                # noqa: E402
import target_report       # noqa: E402

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
RUNNER = os.path.join(BUILD, "bcast-run")
TEST_SO = os.path.join(BUILD, "targets", "test")
FIXTURE = "tests/runner/fixtures/real"
GEN = [sys.executable, os.path.join(ROOT, "report", "bcast_report.py")]
RUN_ARGS = ["--runner", RUNNER, "--build", BUILD, "--python", sys.executable, "--jobs", "2"]
COUNTS = {"passed": 0, "failed": 0, "skipped": 0}


def check(cond, what):
    """One assertion: counted, and named on failure."""
    if cond:
        COUNTS["passed"] += 1
    else:
        COUNTS["failed"] += 1
        print("FAIL: %s" % what)


def skip(what):
    COUNTS["skipped"] += 1
    print("SKIP: %s" % what)


def gen(args, **kw):
    return subprocess.run(GEN + args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, check=False, **kw)


def read(path):
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def raw_run(so, out_json, extra=()):
    """bcast-run on the fixture, JSON to out_json; returns its exit status."""
    r = subprocess.run([RUNNER, "--target", so, "--format", "json", "--output", out_json]
                       + list(extra) + [FIXTURE], cwd=ROOT, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
    return r.returncode


def test_render_broken_target(tmp):
    """A target with known flaws: every failure is listed with its fields, one-liners and rules."""
    raw = os.path.join(tmp, "raw.json")
    check(raw_run(os.path.join(TEST_SO, "wrong_shape.so"), raw) == 1, "wrong_shape fails on the fixture")
    run = json.load(open(raw))
    out = os.path.join(tmp, "out")
    r = gen(["render", "--run-json", raw, "--name", "wrong_shape", "--out-dir", out,
             "--one-liners", "--runner", RUNNER])
    check(r.returncode == 0, "render exits 0: " + r.stdout)
    md = read(os.path.join(out, "wrong_shape", "index.md"))
    ht = read(os.path.join(out, "wrong_shape", "index.html"))
    res = json.load(open(os.path.join(out, "wrong_shape", "results.json")))
    fails = [c for c in run["cases"] if c["outcome"] == "fail"]
    check(len(fails) == run["totals"]["failed"] > 0, "the fixture run has failures")
    check(res["totals"] == run["totals"], "results.json keeps bcast-run's totals")
    check("| fail | %d |" % len(fails) in md, "the summary table shows the fail count")
    for c in fails:
        check(c["id"] in md and c["id"] in ht, "failure %s is in both reports" % c["id"])
        kept = [k for k in res["cases"] if k["id"] == c["id"]]
        check(len(kept) == 1 and kept[0]["numpy_repro"].startswith("/usr/bin/python3 -c")
              and "import torch" in kept[0]["torch_repro"], "one-liners for %s" % c["id"])
        check(" ".join(c["shapes"]) in md and " ".join(c["strides"]) in md, "shapes and strides of %s" % c["id"])
    check("### fail: wrong shape (%d)" % len(fails) in md, "failures grouped under their cause")
    check(all(r_ in md for c in fails for r_ in c["rules"]), "the rules the failures break")
    check("duration" not in read(os.path.join(out, "wrong_shape", "results.json")), "no durations in results.json")
    check(not re.search(r"<script|<link|src=|href=\"http|url\(", ht), "the HTML needs no external asset or script")


def test_cause_grouping():
    """Case-specific parts of a reason do not split a cause; different classes do."""
    a = {"outcome": "fail", "reason": "unexpected error other: shape (2,3) too big"}
    b = {"outcome": "fail", "reason": "unexpected error other: rank 70"}
    c = {"outcome": "fail", "reason": "unexpected error not-broadcastable: (2,3) (4,)"}
    d = {"outcome": "fail", "reason": "wrong values: first mismatch at index (0,1) (flat 1): expected 1, got 2"}
    check(target_report.cause(a) == target_report.cause(b), "same class, same cause")
    check(target_report.cause(a) != target_report.cause(c), "different class, different cause")
    check(target_report.cause(d) == "fail: wrong values", "values mismatches group: " + target_report.cause(d))


def test_nondeterministic_values():
    """An expectations reason marked [nondeterministic values] makes the kept case's
    values stable (dtype and shape stay); an unmarked case keeps what the target
    returned, so two runs that differ only in those values differ in results.json."""
    def run(values, known):
        case = {"id": "inplace/add/f32/x", "suite": "inplace", "tags": ["in-place"], "rules": ["B9"],
                "op": "add", "mode": "inplace", "dtypes": ["f32", "f32"], "shapes": ["(3,)", "()"],
                "strides": ["(0,)", "()"], "outcome": "xfail", "actual_outcome": "fail",
                "reason": "expected error overlap, but the call succeeded", "known_reason": known,
                "expected": "error overlap", "actual": "f32 (3,) [%s]" % values, "first_mismatch": "",
                "file": "x.cases", "line": 1}
        return runs.normalise({"cases": [case], "totals": {}}, "t", "", "", None)
    marked = runs.NONDETERMINISTIC + " threads race; observed -1.75, -0.5, 0.75"
    a, b = run("-0.5, -0.5, -0.5", marked), run("-1.75, -1.75, -1.75", marked)
    check(a == b, "marked case: two runs with different values normalise the same")
    check(a["cases"][0]["actual"] == "f32 (3,)" + runs.VARYING, "dtype and shape kept: " + a["cases"][0]["actual"])
    a, b = run("-0.5, -0.5, -0.5", "threads race"), run("-1.75, -1.75, -1.75", "threads race")
    check(a != b and a["cases"][0]["actual"] == "f32 (3,) [-0.5, -0.5, -0.5]", "unmarked case keeps its values")


def test_nondeterministic_outcome():
    """A case marked [nondeterministic outcome] normalises the same whether this run
    passed it (xpass) or failed it (xfail), with the totals moved to match; an
    unmarked one keeps what happened, and a marked crash stays a crash."""
    def run(outcome, known):
        failed = outcome == "xfail"
        case = {"id": "matmul/f32/(2,0)x(2,0,4)", "suite": "matmul", "tags": ["zero-size"], "rules": ["B14"],
                "op": "matmul", "mode": "value", "dtypes": ["f32", "f32"], "shapes": ["(2,0)", "(2,0,4)"],
                "strides": ["(1,1)", "(4,4,1)"], "outcome": outcome, "actual_outcome": outcome[1:],
                "reason": "wrong values: first mismatch at index (1,0,0)" if failed else "", "known_reason": known,
                "expected": "f32 (2,2,4) [0, 0]" if failed else "", "actual": "f32 (2,2,4) [0, 7]" if failed else "",
                "first_mismatch": "(1,0,0)" if failed else "", "file": "x.cases", "line": 1}
        totals = {"cases": 1, "passed": 0 if failed else 1, "failed": 0, "crashed": int(outcome == "crash"),
                  "expected_failures": int(failed), "unexpected_passes": int(outcome == "xpass")}
        return runs.normalise({"cases": [case], "totals": totals}, "t", "", "", None)
    marked = runs.NONDETERMINISTIC_OUTCOME + " K = 0 leaves memory unwritten"
    a, b = run("xpass", marked), run("xfail", marked)
    check(a == b, "marked case: a pass and a failure normalise the same")
    check(a["cases"][0]["outcome"] == "xfail" and a["totals"]["passed"] == 0 and a["totals"]["unexpected_passes"] == 0
          and a["totals"]["expected_failures"] == 1, "recorded as an expected failure: %s" % a["totals"])
    check(run("xpass", "K = 0") != run("xfail", "K = 0"), "an unmarked case keeps its outcome")
    check(run("crash", marked)["cases"][0]["outcome"] == "crash", "a marked crash is still a crash")


def test_target_gate_expectations(tmp):
    """`target --gate`: exit 1 on new failures; an expectations file turns them into
    expected failures (exit 0), and a listed id that passes is an unexpected pass."""
    so = os.path.join(TEST_SO, "ignores_zero_size.so")
    out = os.path.join(tmp, "gate")
    r = gen(["target"] + RUN_ARGS + ["--target", so, "--out-dir", out, "--cases", FIXTURE, "--gate"])
    check(r.returncode == 1, "gate fails without expectations: " + r.stdout[-300:])
    exp = os.path.join(tmp, "expect.txt")
    subprocess.run([RUNNER, "--target", so, "--write-expectations", exp, FIXTURE], cwd=ROOT,
                   stdout=subprocess.DEVNULL, check=False)
    raw = json.load(open(os.path.join(out, "ignores_zero_size", "results.json")))
    full = os.path.join(tmp, "full.json")
    raw_run(so, full)
    passing = [c["id"] for c in json.load(open(full))["cases"] if c["outcome"] == "pass"][0]
    with open(exp, "a") as fh:
        fh.write("%s listed but passes\n" % passing)
    r = gen(["target"] + RUN_ARGS + ["--target", so, "--out-dir", out, "--cases", FIXTURE, "--gate",
                                      "--expectations", exp])
    check(r.returncode == 0, "gate passes with the expectations file: " + r.stdout[-300:])
    res = json.load(open(os.path.join(out, "ignores_zero_size", "results.json")))
    md = read(os.path.join(out, "ignores_zero_size", "index.md"))
    xf = [c["id"] for c in res["cases"] if c["outcome"] == "xfail"]
    check(len(xf) == raw["totals"]["failed"] and xf, "every failure became expected: %s" % xf)
    check("## Unexpected passes (1)" in md and passing in md, "the unexpected pass is listed")
    check(exp in md, "the expectations file in use is named")
    check(os.path.exists(os.path.join(out, "index.md")), "target also writes the index")


def test_registry_all(tmp):
    """`all` over a registry: skips unbuilt targets and missing packages with a message,
    expands $(PYTHON) in a target-arg (a pipe target's command), and gates on failures."""
    check(runs.expand_arg("$(PYTHON) targets/pipe/np.py --x", "/usr/bin/python3", "b")
          == "/usr/bin/python3 targets/pipe/np.py --x", "$(PYTHON) expanded in a target-arg")
    reg = os.path.join(tmp, "registry.tsv")
    rel = os.path.relpath(TEST_SO, BUILD)
    with open(reg, "w") as fh:
        fh.write("# test registry\n")
        fh.write("magic\t%s/needs_arg.so\tmagic\t-\t-\t-\n" % rel)
        fh.write("pipe\ttargets/not-built-pipe.so\t$(PYTHON) bridge.py\t-\tpython3-numpy\t-\n")
        fh.write("nopkg\t%s/needs_arg.so\tmagic\t-\tno-such-debian-package-bcast\t-\n" % rel)
    out = os.path.join(tmp, "all")
    r = gen(["all"] + RUN_ARGS + ["--registry", reg, "--out-dir", out, "--cases", FIXTURE])
    check(r.returncode == 0, "all passes when every built target passes: " + r.stdout[-400:])
    check("SKIP pipe" in r.stdout and "not built" in r.stdout, "unbuilt target skipped with a message")
    check("SKIP nopkg" in r.stdout and "no-such-debian-package-bcast" in r.stdout, "missing package skipped")
    res = json.load(open(os.path.join(out, "magic", "results.json")))
    check(res["target_arg"] == "magic" and res["totals"]["passed"] > 0, "the target-arg reached init()")
    with open(reg, "a") as fh:
        fh.write("broken\t%s/wrong_strides.so\t-\t-\t-\t-\n" % rel)
    r = gen(["all"] + RUN_ARGS + ["--registry", reg, "--out-dir", out, "--cases", FIXTURE])
    check(r.returncode == 1 and "REGRESSION: broken" in r.stdout, "all fails on a regression: " + r.stdout[-300:])
    idx = read(os.path.join(out, "index.md"))
    check("| broken |" in idx and "| magic |" in idx, "the index lists every report")
    test_make_needs(tmp, reg, rel)


def test_make_needs(tmp, reg, rel):
    """A needs entry make:TARGET is met when the file `make TARGET` leaves exists; the
    SKIP message says what to run; an unknown make:TARGET is an error naming the line."""
    root = os.path.join(tmp, "needs-root")
    why = runs.missing_needs(["make:js-bridges"], root=root)
    check("`make js-bridges`" in why and "targets/js/node_modules" in why, "missing js-bridges says what to run: " + why)
    stamp = os.path.join(root, runs.MAKE_NEEDS["js-bridges"])
    os.makedirs(os.path.dirname(stamp))
    open(stamp, "w").close()
    check(runs.missing_needs(["make:js-bridges"], root=root) == "", "a finished js-bridges meets the need")
    with open(reg, "w") as fh:
        fh.write("js\t%s/needs_arg.so\tmagic\t-\tmake:no-such-step\t-\n" % rel)
    r = gen(["all"] + RUN_ARGS + ["--registry", reg, "--out-dir", os.path.join(tmp, "needs"), "--cases", FIXTURE])
    check(r.returncode == 2 and "%s:1: needs column" % reg in r.stdout and "make:no-such-step" in r.stdout,
          "an unknown make: need is rejected, naming the line: " + r.stdout[-300:])


def test_registry_timeout(tmp):
    """The registry's timeout column reaches bcast-run as --timeout (the hanging target's
    mul case times out after 1 s, not the default 10 s), --timeout overrides it, and a
    bad value, or a line with the old five columns, is an error naming the line."""
    rel = os.path.relpath(TEST_SO, BUILD)
    reg = os.path.join(tmp, "timeout.tsv")
    out = os.path.join(tmp, "timeout")

    def hang_case(name):
        res = json.load(open(os.path.join(out, name, "results.json")))
        return [c for c in res["cases"] if c["outcome"] == "timeout"]

    with open(reg, "w") as fh:
        fh.write("# comment\nhang\t%s/hang.so\t-\t-\t-\t1\n" % rel)
    r = gen(["target"] + RUN_ARGS + ["--registry", reg, "--target", "hang", "--out-dir", out, "--cases", FIXTURE])
    t = hang_case("hang")
    check(r.returncode == 0 and len(t) == 1 and t[0]["reason"] == "timed out after 1s",
          "registry timeout 1 reaches bcast-run: %s %s" % ([c["reason"] for c in t], r.stdout[-300:]))
    r = gen(["target"] + RUN_ARGS + ["--registry", reg, "--target", "hang", "--out-dir", out, "--cases", FIXTURE,
                                      "--timeout", "2"])
    t = hang_case("hang")
    check(r.returncode == 0 and len(t) == 1 and t[0]["reason"] == "timed out after 2s",
          "--timeout overrides the registry: %s" % [c["reason"] for c in t])
    for bad in ("0", "1.5", "ten", "", "86401"):
        with open(reg, "w") as fh:
            fh.write("# comment\nhang\t%s/hang.so\t-\t-\t-\t%s\n" % (rel, bad))
        r = gen(["all"] + RUN_ARGS + ["--registry", reg, "--out-dir", out, "--cases", FIXTURE])
        check(r.returncode == 2 and "%s:2: timeout column" % reg in r.stdout and repr(bad) in r.stdout,
              "timeout %r rejected, naming the line: %s" % (bad, r.stdout[-300:]))
    with open(reg, "w") as fh:
        fh.write("hang\t%s/hang.so\t-\t-\t-\n" % rel)
    r = gen(["all"] + RUN_ARGS + ["--registry", reg, "--out-dir", out, "--cases", FIXTURE])
    check(r.returncode == 2 and "%s:1: expected 6 tab-separated columns" % reg in r.stdout,
          "a five-column line is rejected: " + r.stdout[-300:])
    r = gen(["target"] + RUN_ARGS + ["--registry", reg, "--target", "x.so", "--out-dir", out, "--timeout", "-3"])
    check(r.returncode == 2 and "--timeout" in r.stdout and "'-3'" in r.stdout,
          "a bad --timeout is a usage error: " + r.stdout[-300:])


def test_determinism(tmp):
    """Two runs of the same target give byte-identical files."""
    so = os.path.join(TEST_SO, "crash.so")
    outs = []
    for k in ("d1", "d2"):
        out = os.path.join(tmp, k)
        gen(["target"] + RUN_ARGS + ["--target", so, "--out-dir", out, "--cases", FIXTURE])
        gen(["edge-cases", "--out-dir", out, "--cases", FIXTURE])
        outs.append(out)
    for f in ("crash/index.md", "crash/index.html", "crash/results.json", "index.md", "index.html",
              "edge-cases.md", "edge-cases.html"):
        a, b = os.path.join(outs[0], f), os.path.join(outs[1], f)
        check(os.path.exists(a) and read(a) == read(b), "%s is the same twice" % f)
    check("## Failures (1)" in read(os.path.join(outs[0], "crash/index.md")), "the crash is a failure")


def test_edge_cases(tmp):
    """The catalogue has every category with its rules, 3-8 representatives where the
    category has 3 cases, and every divergent case."""
    cases, _ = casefile.read_case_set([os.path.join(ROOT, FIXTURE)])
    rules = edge_cases.read_rules(os.path.join(ROOT, "docs", "semantics.md"))
    check(len(rules) == 22 and all(rules["B%d" % i][1] for i in range(1, 23)), "22 rules with text")
    md, ht = edge_cases.render(cases, "x", rules, "make docs")
    for title, rule_ids, pred in edge_cases.CATEGORIES:
        check("## " + title in md, "category " + title)
        check(all("**%s " % r in md for r in rule_ids), "rules of " + title)
        n = sum(1 for c in cases if pred(c))
        reps = edge_cases.pick_representatives([c for c in cases if pred(c)])
        check(min(n, 3) <= len(reps) <= 8, "%s: %d representatives of %d" % (title, len(reps), n))
    for c in cases:
        if "divergent" in c["tags"]:
            check(c["id"] in md and c["id"] in ht, "divergent case %s listed" % c["id"])
    msgs = [c["messages"]["numpy"] for c in cases if "numpy" in c["messages"]]
    check(bool(msgs), "fixture has NumPy messages")


def test_reports_check(tmp):
    """`check` passes on freshly generated reports and fails, naming the file, on a changed one."""
    out = os.path.join(tmp, "committed")
    gen(["target"] + RUN_ARGS + ["--target", "ref", "--out-dir", out, "--cases", FIXTURE])
    gen(["edge-cases", "--out-dir", out, "--cases", FIXTURE])
    r = gen(["check"] + RUN_ARGS + ["--out-dir", out, "--cases", FIXTURE])
    check(r.returncode == 0, "check passes on fresh reports: " + r.stdout[-300:])
    p = os.path.join(out, "ref", "index.md")
    with open(p, "a") as fh:
        fh.write("edited by hand\n")
    r = gen(["check"] + RUN_ARGS + ["--out-dir", out, "--cases", FIXTURE])
    check(r.returncode == 1 and "ref/index.md" in r.stdout, "check fails on an edit: " + r.stdout[-300:])


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium(args, tmp):
    """Run headless Chromium with a fresh profile; (exit status, stdout, stderr)."""
    prof = tempfile.mkdtemp(dir=tmp, prefix="chromium-profile-")
    r = subprocess.run([shutil.which("chromium")] + CHROMIUM_FLAGS + ["--user-data-dir=" + prof] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                       timeout=120, check=False)
    return r.returncode, r.stdout, r.stderr


def console_messages(stderr):
    """Every line Chromium logs for the page's console (`...:CONSOLE:N] "text", source: URL`).
    Chromium logs console.error, uncaught exceptions and failed loads all at INFO
    level, so any console line counts: the reports have no scripts and must log nothing."""
    return [line for line in stderr.split("\n") if ":CONSOLE" in line]


def test_chromium(tmp):
    """Headless Chromium: the report loads (--dump-dom has the summary heading, the
    pass count and a failure id), a PNG screenshot is written, and the page logs
    no console message; pages with a script error and a console.error prove
    the console check can fail. (External assets are ruled out by the render
    test's check of the HTML text: a missing file:// image logs nothing.)"""
    if not shutil.which("chromium"):
        skip("chromium check: the Debian package `chromium` is not installed (apt-get install chromium)")
        return
    out = os.path.join(tmp, "chromium")
    so = os.path.join(TEST_SO, "wrong_shape.so")
    gen(["target"] + RUN_ARGS + ["--target", so, "--out-dir", out, "--cases", FIXTURE])
    page = os.path.join(out, "wrong_shape", "index.html")
    res = json.load(open(os.path.join(out, "wrong_shape", "results.json")))
    url = "file://" + os.path.abspath(page)
    rc, dom, err = chromium(["--dump-dom", url], tmp)
    check(rc == 0, "chromium --dump-dom exits 0")
    check('<h2 id="summary">Summary</h2>' in dom, "the rendered DOM has the summary heading")
    check("<td>pass</td><td class=\"num\">%d</td>" % res["totals"]["passed"] in dom,
          "the rendered DOM has the pass count")
    first_fail = [c["id"] for c in res["cases"] if c["outcome"] == "fail"][0]
    check(first_fail.replace("(", "") .replace(")", "") in dom.replace("(", "").replace(")", ""),
          "the rendered DOM has a failure id")
    shot_dir = os.path.join(BUILD, "report-tests")
    os.makedirs(shot_dir, exist_ok=True)
    shot = os.path.abspath(os.path.join(shot_dir, "screenshot.png"))
    if os.path.exists(shot):
        os.remove(shot)
    rc, _, err = chromium(["--enable-logging=stderr", "--v=0", "--window-size=1280,1600",
                           "--screenshot=" + shot, url], tmp)
    ok = os.path.exists(shot) and open(shot, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    check(rc == 0 and ok and os.path.getsize(shot) > 10000, "screenshot written: " + shot)
    check(not console_messages(err), "no console messages: %s" % console_messages(err)[:3])
    for body in ("<script>noSuchFunction();</script>", "<script>console.error('boom');</script>"):
        bad = os.path.join(tmp, "bad.html")
        with open(bad, "w") as fh:
            fh.write("<!DOCTYPE html><html><body><p>x</p>%s</body></html>" % body)
        _, _, err = chromium(["--enable-logging=stderr", "--v=0", "--dump-dom", "file://" + bad], tmp)
        check(bool(console_messages(err)), "the console check sees %s (it can fail)" % body)
    print("chromium: screenshot of the fixture report at %s" % shot)


def test_chromium_skip(tmp):
    """Without chromium on PATH the check prints a clear SKIP line and counts a skip."""
    env = dict(os.environ, PATH=os.path.join(tmp, "no-such-dir"))
    r = subprocess.run([sys.executable, os.path.abspath(__file__), BUILD, "--chromium-only"], cwd=ROOT,
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                       check=False)
    check("SKIP: chromium check: the Debian package `chromium` is not installed" in r.stdout
          and r.stdout.rstrip().endswith("0 passed, 0 failed, 1 skipped"), "SKIP without chromium: " + r.stdout)


def main():
    if not os.access(os.path.join(ROOT, RUNNER) if not os.path.isabs(RUNNER) else RUNNER, os.X_OK):
        print("test_report.py: %s not built (run make first)" % RUNNER)
        print("0 passed, 1 failed")
        return 1
    only_chromium = "--chromium-only" in sys.argv
    with tempfile.TemporaryDirectory() as tmp:
        if only_chromium:
            test_chromium(tmp)
            print("%d passed, %d failed, %d skipped" % (COUNTS["passed"], COUNTS["failed"], COUNTS["skipped"]))
            return 1 if COUNTS["failed"] else 0
        test_cause_grouping()
        test_nondeterministic_values()
        test_nondeterministic_outcome()
        for t in (test_chromium_skip, test_render_broken_target, test_target_gate_expectations, test_registry_all,
                  test_registry_timeout, test_determinism, test_edge_cases, test_reports_check, test_chromium):
            try:
                t(tmp)
            except Exception as e:  # a crashing test is a failed test, named
                COUNTS["failed"] += 1
                print("FAIL: %s raised %s: %s" % (t.__name__, type(e).__name__, e))
    print("%d passed, %d failed, %d skipped" % (COUNTS["passed"], COUNTS["failed"], COUNTS["skipped"]))
    return 1 if COUNTS["failed"] else 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
