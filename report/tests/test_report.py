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
import notes               # noqa: E402
import findings_check      # noqa: E402
import findings_view as fv  # noqa: E402
import counts_check         # noqa: E402
from markup import to_markdown  # noqa: E402

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
    check("| fail | %d | 0 |" % len(fails) in md, "the summary table shows the fail count (none known)")
    for c in fails:
        check(c["id"] in md and c["id"] in ht, "failure %s is in both reports" % c["id"])
        kept = [k for k in res["cases"] if k["id"] == c["id"]]
        check(len(kept) == 1 and kept[0]["numpy_repro"].startswith("/usr/bin/python3 -c")
              and "import torch" in kept[0]["torch_repro"], "one-liners for %s" % c["id"])
        check(" ".join(c["shapes"]) in md and " ".join(c["strides"]) in md, "shapes and strides of %s" % c["id"])
    for f in run["findings"]:
        if f["kind"] != "failure":
            continue
        sec = md.split("### %s: " % f["id"])[1].split("\n### ")[0] if "### %s: " % f["id"] in md else ""
        check(sec and all("`%s`" % i in sec for i in f["cases"][:10]),
              "the cases of %s are listed under its heading" % f["id"])
    kept = [f for f in res["findings"] if f["kind"] == "failure"]
    check(kept and kept[0]["cases"] == run["findings"][0]["cases"] and kept[0]["numpy"]
          and kept[0]["numpy"] in md, "results.json keeps the findings, with what NumPy does on the smallest case")
    check(kept and kept[0]["divergent"] and "`NumPy: %s; torch: %s`" % (kept[0]["numpy"], kept[0]["torch"]) in md,
          "a divergent smallest case shows what NumPy and what torch do")
    check(all(r_ in md for c in fails for r_ in c["rules"]), "the rules the failures break")
    check("duration" not in read(os.path.join(out, "wrong_shape", "results.json")), "no durations in results.json")
    check(not re.search(r"<script|<link|src=|href=\"http|url\(", ht), "the HTML needs no external asset or script")


def fake_case(cid, finding, outcome="xfail", actual_outcome="fail", **kw):
    """A bcast-run JSON case record (docs/runner.md) for synthetic runs."""
    c = {"id": cid, "suite": "ops", "tags": ["stretch"], "rules": ["B2"], "op": "add", "mode": "value",
         "dtypes": ["f32", "f32"], "shapes": ["(2,1)", "(3,)"], "strides": ["(1,1)", "(1,)"],
         "outcome": outcome, "actual_outcome": actual_outcome, "expected_failure": outcome == "xfail",
         "unexpected_pass": False, "reason": "wrong shape: expected (2,3), got (3,)", "known_reason": "",
         "expected": "f32 (2,3) [1, 2, 3, 4, 5, 6]", "actual": "f32 (3,) [1, 2, 3]", "first_mismatch": "",
         "error_class": "", "error_message": "", "failure": "wrong-shape", "detail": "dim-dropped", "diff": "",
         "stderr_tail": "", "features": ["stretch:x"], "probed": False, "limit": "", "finding": finding,
         "file": "no-such.cases", "line": 1, "duration_ms": 1.5}
    if outcome == "xfail":
        c["known_reason"] = "fail: " + c["reason"]
    c.update(kw)
    return c


def fake_run(sizes):
    """A synthetic bcast-run result with one known failure finding per entry of sizes
    (its number of cases) and a skipped case under a declared limit."""
    cases, findings = [], []
    for k, n in enumerate(sizes):
        fid = "F%d" % (k + 1)
        ids = ["ops/add/f32/finding%03d/case%03d" % (k, i) for i in range(n)]
        cases += [fake_case(i, fid) for i in ids]
        findings.append({"id": fid, "kind": "failure", "name": "wrong result shape (kind %d): %d cases, add; f32"
                         % (k, n), "signature": "wrong-shape:k%d|" % k, "count": n, "known": n, "smallest": ids[0],
                         "ops": ["add"], "dtypes": ["f32"], "rules": ["B2"], "outcomes": ["fail"], "shrunk": "",
                         "cases": ids})
    cases.append(fake_case("ops/add/i16/skipped", "", outcome="skip", actual_outcome="skip",
                           reason="unsupported: dtype i16", known_reason=""))
    findings.append({"id": "L%d" % (len(sizes) + 1), "kind": "limit", "name": "declared limit (dtypes): 1 cases",
                     "signature": "dtypes", "count": 1, "known": 0, "smallest": "ops/add/i16/skipped",
                     "ops": ["add"], "dtypes": ["i16"], "rules": [], "outcomes": ["skip"], "shrunk": "", "cases": []})
    total = sum(sizes)
    zero = {"passed": 0, "failed": 0, "skipped": 0, "crashed": 0, "timed_out": 0, "violations": 0}
    totals = {"cases": total + 1, "passed": 0, "failed": 0, "skipped": 1, "crashed": 0, "timed_out": 0,
              "violations": 0, "expected_failures": total, "unexpected_passes": 0, "probed": 0,
              "unmatched_expectations": 0, "actual": dict(zero, failed=total, skipped=1),
              "known": dict(zero, failed=total)}
    return {"schema": "bcast-run-result 1", "bcast_version": "0.1.0", "case_set": "x", "profile": "numpy",
            "target": {"name": "fake", "version": "1", "profile": "numpy", "ops": ["add"], "dtypes": ["f32"],
                       "flags": [], "max_rank": 0}, "complete": True, "totals": totals,
            "unmatched_expectations": [], "findings": findings, "cases": sorted(cases, key=lambda c: c["id"])}


def test_first_screen_and_caps():
    """Issue 14.5/14.6: the findings table comes first; the first 40 lines of index.md say
    how many root causes there are and name every one (the smallest share the table's
    last row when they do not fit); Markdown lists 10 cases per finding and says how many
    more, HTML names them all up to its cap and results.json keeps them all; index.md stays
    within 600 lines and index.html within its caps."""
    doc = runs.normalise(fake_run([25, 3]), "fake", "", "", None)
    md, ht = target_report.render(doc, "make x")
    lines = md.split("\n")
    heads = [l for l in lines if l.startswith("## ")]
    check(heads[0] == "## Findings: 2 root causes of 28 failures (all known), 1 declared limit",
          "the first section is the findings: %s" % heads[:2])
    first = "\n".join(lines[:40])
    check(all("| %s |" % f["id"] in first and f["name"] in first for f in doc["findings"] if f["kind"] == "failure"),
          "the first 40 lines name every finding")
    check([l for l in lines if l.startswith("|")][0].startswith("| finding | cases | what goes wrong | smallest case"),
          "Markdown: the findings table is the first table")
    check(ht.index("<table") == ht.index('<table class="findings">'), "HTML: the findings table is the first table")
    f1 = [c for c in doc["findings"][0]["cases"]]
    shown = [i for i in f1 if "`%s`" % i in md.split("### F1:")[1].split("### F2:")[0]]
    check(len(shown) == 10, "Markdown shows 10 of the 25 cases of F1: %d" % len(shown))
    check("... and 15 more (25 in all): index.html names them; summary.json lists every case" in md,
          "Markdown says how many more and where they are")
    check(all(i in ht for i in f1), "HTML lists all 25 cases of F1")
    check(len(doc["findings"][0]["cases"]) == 25, "results.json keeps the full case list of F1")
    check(ht.count("<details><summary>all ") == 2, "HTML: each finding's cases collapsed in a <details>")
    big = runs.normalise(fake_run([40] * 60), "big", "", "", None)
    md, ht = target_report.render(big, "make x")
    n = md.count("\n")
    check(n <= target_report.MD_MAX_LINES, "60 findings of 40 cases: index.md has %d lines (<= 600)" % n)
    first = "\n".join(md.split("\n")[:40])
    check("60 root causes" in first and all(f["id"] in first for f in big["findings"] if f["kind"] == "failure"),
          "60 findings: the first 40 lines give the count and every finding's id")
    check(all(c["id"] in ht for c in big["cases"]), "60 findings: HTML lists every case")
    huge = runs.normalise(fake_run([1000]), "huge", "", "", None)
    _, ht = target_report.render(huge, "make x")
    ids = huge["findings"][0]["cases"]
    named = sum(1 for i in ids if ">%s<" % i in ht)
    check(named == fv.HTML_ROWS + fv.HTML_IDS and "... and %d more: summary.json" % (1000 - named) in ht,
          "1000 cases in a finding: HTML names %d (of %d rows and ids) and says where the rest are"
          % (named, fv.HTML_ROWS + fv.HTML_IDS))
    r = fake_run([3])
    lost = r["cases"][0]["id"]
    r["cases"][0]["finding"] = ""
    r["findings"][0]["cases"].remove(lost)
    md, _ = target_report.render(runs.normalise(r, "lost", "", "", None), "make x")
    check("### Failures in no finding (1)" in md and "`%s`" % lost in md.split("in no finding")[1],
          "a failure bcast-run put in no finding is still listed")


def test_stderr_reproducible():
    """A crash's stderr tail is kept, with pointers and sanitizer pids replaced: two runs
    that differ only in them give the same results.json."""
    def run(ptr, pid):
        r = fake_run([1])
        r["cases"][0].update(outcome="crash", actual_outcome="crash", reason="crashed with SIGABRT (signal 6)",
                             failure="crash", detail="SIGABRT", actual="",
                             stderr_tail="==%d==ERROR: AddressSanitizer: heap-use-after-free on address %s\n"
                             "lib.h:12: check failed: p != NULL (p=%s)" % (pid, ptr, ptr))
        return runs.normalise(r, "t", "", "", None)
    a, b = run("0x602000000010", 4242), run("0x7ffd9a3c0b18", 977)
    check(a == b, "stderr tails differing in pointers and pids normalise the same")
    tail = a["cases"][0]["stderr_tail"]
    check("0x<address>" in tail and "==<pid>==" in tail and "check failed: p != NULL" in tail,
          "the tail keeps its text: " + tail)
    check(runs.normalise(fake_run([1]), "t", "", "", None)["cases"][0].get("duration_ms") is None,
          "no durations in results.json")


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
    """A case marked [nondeterministic outcome] (bcast-run counts it as a known
    failure whichever way the run went, docs/runner.md) normalises the same
    whether this run passed or failed it; an unmarked one keeps what happened,
    and a marked crash stays a crash."""
    def run(actual, known):
        failed = actual == "fail"
        case = {"id": "matmul/f32/(2,0)x(2,0,4)", "suite": "matmul", "tags": ["zero-size"], "rules": ["B14"],
                "op": "matmul", "mode": "value", "dtypes": ["f32", "f32"], "shapes": ["(2,0)", "(2,0,4)"],
                "strides": ["(1,1)", "(4,4,1)"], "outcome": "xfail", "actual_outcome": "fail" if actual == "pass" else actual,
                "reason": "the outcome varies from run to run (this run: %s)" % actual, "known_reason": known,
                "expected": "f32 (2,2,4) [0, 0]" if failed else "", "actual": "f32 (2,2,4) [0, 7]" if failed else "",
                "first_mismatch": "(1,0,0)" if failed else "", "detail": "nan-invented" if failed else "",
                "file": "x.cases", "line": 1}
        totals = {"cases": 1, "passed": 0, "failed": 0, "expected_failures": 1}
        return runs.normalise({"cases": [case], "totals": totals}, "t", "", "", None)
    marked = runs.NONDETERMINISTIC_OUTCOME + " K = 0 leaves memory unwritten"
    a, b = run("pass", marked), run("fail", marked)
    check(a["cases"] == b["cases"], "marked case: a pass and a failure normalise the same")
    check(run("pass", "K = 0")["cases"] != run("fail", "K = 0")["cases"], "an unmarked case keeps what happened")
    check(run("crash", marked)["cases"][0]["actual_outcome"] == "crash", "a marked crash is still a crash")
    check(run("pass", marked)["cases"][0]["reason"] == runs.VARYING_OUTCOME["reason"], "the run's own reason is replaced")
    check(run("fail", marked)["cases"][0]["detail"] == "", "the run's value classification (detail) is dropped")
    # the finding's name counts this run's split of outcomes: that part goes
    names = []
    for split in ("(-: 5, other: 6, nan-invented: 4)", "(other: 11, nan-invented: 4)"):
        r = fake_run([15])
        r["findings"][0]["name"] = ("the outcome varies from run to run (listed as nondeterministic), where the "
                                    "profile succeeds %s: 15 cases, matmul; f32" % split)
        names.append(runs.normalise(r, "t", "", "", None)["findings"][0]["name"])
    check(names[0] == names[1] and "other" not in names[0] and names[0].endswith(": 15 cases, matmul; f32"),
          "a varying outcome finding's name does not hold the run's split: %s" % names)
    # a library's message with an object's address (numba: "<function where at 0x7f15f6561b20>")
    r = fake_run([1])
    r["cases"][0]["error_message"] = "TypingError: No implementation of function Function(<function where at 0x7f15f6561b20>)"
    r["cases"][0]["actual"] = "error other: " + r["cases"][0]["error_message"]
    kept = runs.normalise(r, "t", "", "", None)["cases"][0]
    check("0x7f15" not in kept["error_message"] + kept["actual"] and "0x<address>" in kept["error_message"],
          "pointer addresses in a library's message are masked")


def test_target_gate_expectations(tmp):
    """`target --gate`: exit 1 on new failures; an expectations file turns them into
    expected failures (exit 0), and a listed id that passes is an unexpected pass."""
    so = os.path.join(TEST_SO, "ignores_zero_size.so")
    out = os.path.join(tmp, "gate")
    r = gen(["target"] + RUN_ARGS + ["--target", so, "--name", os.path.basename(so)[:-3], "--out-dir", out, "--cases", FIXTURE, "--gate"])
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
    r = gen(["target"] + RUN_ARGS + ["--target", so, "--name", os.path.basename(so)[:-3], "--out-dir", out, "--cases", FIXTURE, "--gate",
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
    test_ci_sample(tmp, reg, out)
    test_make_needs(tmp, reg, rel)


def test_ci_sample(tmp, reg, out):
    """`all --sample FILE`: a listed target is gated on --shard 1/N (fewer cases, still
    failing on a regression) and its report is left as it was; bad sample lines are
    errors naming the line."""
    sample = os.path.join(tmp, "ci-sample.tsv")
    md_before = read(os.path.join(out, "broken", "index.md"))
    os.utime(os.path.join(out, "broken", "index.md"), (1, 1))
    with open(sample, "w") as fh:
        fh.write("# name N why\nmagic\t3\ttest\nbroken\t2\ttest\n")
    r = gen(["all"] + RUN_ARGS + ["--registry", reg, "--out-dir", out, "--cases", FIXTURE, "--sample", sample])
    check(r.returncode == 1 and "SAMPLE magic: the cases of --shard 1/3" in r.stdout
          and "broken (unexpected failures in the CI sample" in r.stdout,
          "sampled targets are gated on their shard, and a regression in it fails: " + r.stdout[-400:])
    check(os.stat(os.path.join(out, "broken", "index.md")).st_mtime == 1
          and read(os.path.join(out, "broken", "index.md")) == md_before, "a sampled target's report is not rewritten")
    for line, what in (("nosuch\t2\twhy\n", "is not a target of the registry"),
                       ("magic\t1\twhy\n", "N must be a whole number in [2, 1000]"),
                       ("magic\t2\n", "expected 3 tab-separated columns"),
                       ("magic\t2\twhy\nmagic\t4\twhy\n", "magic is listed twice")):
        with open(sample, "w") as fh:
            fh.write(line)
        r = gen(["all"] + RUN_ARGS + ["--registry", reg, "--out-dir", out, "--cases", FIXTURE, "--sample", sample])
        check(r.returncode == 2 and what in r.stdout and sample + ":" in r.stdout,
              "bad sample line %r: %s" % (line, r.stdout[-300:]))


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
    why = runs.missing_needs(["venv:targets"], root=root)
    check("sh .ci/install-deps" in why and ".venv/targets/bin/python" in why, "a missing venv says what to run: " + why)
    with open(reg, "w") as fh:
        fh.write("py\t%s/needs_arg.so\tmagic\t-\tvenv:nosuch\t-\n" % rel)
    r = gen(["all"] + RUN_ARGS + ["--registry", reg, "--out-dir", os.path.join(tmp, "needs"), "--cases", FIXTURE])
    check(r.returncode == 2 and "%s:1: needs column" % reg in r.stdout and "venv:nosuch" in r.stdout,
          "an unknown venv: need is rejected, naming the line: " + r.stdout[-300:])
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
    check(r.returncode == 2 and "%s:1: expected 6 to 9 tab-separated columns" % reg in r.stdout,
          "a five-column line is rejected: " + r.stdout[-300:])
    with open(reg, "w") as fh:
        fh.write("hang\t%s/hang.so\t-\t-\t-\t-\t-\t-\t1/1\n" % rel)
    r = gen(["all"] + RUN_ARGS + ["--registry", reg, "--out-dir", out, "--cases", FIXTURE])
    check(r.returncode == 2 and "shard column must be 1/N" in r.stdout and "'1/1'" in r.stdout,
          "a bad shard column is rejected, naming it: " + r.stdout[-300:])
    with open(reg, "w") as fh:
        fh.write("magic\t%s/needs_arg.so\tmagic\t-\t-\t-\t-\t-\t1/3\n" % rel)
    r = gen(["target"] + RUN_ARGS + ["--registry", reg, "--target", "magic", "--out-dir", out, "--cases", FIXTURE])
    res = json.load(open(os.path.join(out, "magic", "results.json"))) if r.returncode == 0 else {}
    md = read(os.path.join(out, "magic", "index.md")) if r.returncode == 0 else ""
    ran = res.get("totals", {}).get("passed", 0)
    check(r.returncode == 0 and res.get("shard") == 3 and 0 < ran <= 17 and "`bcast-run --shard 1/3`" in md,
          "a registry shard 1/3 runs a third of the cases and the report says so: %s %s" % (ran, r.stdout[-300:]))
    with open(reg, "w") as fh:
        fh.write("hang\t%s/hang.so\t-\t-\t-\t-\t-\tyes\n" % rel)
    r = gen(["all"] + RUN_ARGS + ["--registry", reg, "--out-dir", out, "--cases", FIXTURE])
    check(r.returncode == 2 and "probe column must be 'probe' or -" in r.stdout,
          "a bad probe column is rejected: " + r.stdout[-300:])
    r = gen(["target"] + RUN_ARGS + ["--registry", reg, "--target", "x.so", "--out-dir", out, "--timeout", "-3"])
    check(r.returncode == 2 and "--timeout" in r.stdout and "'-3'" in r.stdout,
          "a bad --timeout is a usage error: " + r.stdout[-300:])


def test_known_crash_counts(tmp):
    """Issue 13.7: a known crash is counted as a crash everywhere (summary table, the line
    under the findings, the index), with how many are known shown beside it."""
    so = os.path.join(TEST_SO, "crash.so")
    exp = os.path.join(tmp, "crash-expect.txt")
    subprocess.run([RUNNER, "--target", so, "--write-expectations", exp, FIXTURE], cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    out = os.path.join(tmp, "known-crash")
    r = gen(["target"] + RUN_ARGS + ["--target", so, "--name", os.path.basename(so)[:-3], "--out-dir", out, "--cases", FIXTURE, "--expectations", exp,
                                      "--gate"])
    check(r.returncode == 0, "the crash is known: the gate passes: " + r.stdout[-300:])
    md = read(os.path.join(out, "crash", "index.md"))
    ht = read(os.path.join(out, "crash", "index.html"))
    idx = read(os.path.join(out, "index.md"))
    res = json.load(open(os.path.join(out, "crash", "results.json")))
    check(res["totals"]["crashed"] == 0 and res["totals"]["known"]["crashed"] == 1,
          "bcast-run counts the known crash apart: %s" % res["totals"])
    check("| crash | 1 | 1 |" in md, "summary table: crash 1, of which 1 known")
    check("<td>crash</td><td class=\"num\">1</td><td>1</td>" in ht, "HTML summary table: crash 1, 1 known")
    check("1 crashed" in md.split("## Declared limits")[0], "the line under the findings says 1 crashed")
    check("| 30/0/1/0/0/0 (1 known) |" in idx, "the index counts the known crash as a crash: " +
          [l for l in idx.split("\n") if l.startswith("| crash")][0])
    check("## Findings: 1 root cause of 1 failure (all known)" in md, "the finding is known")
    f = res["findings"][0]
    row = [l for l in md.split("\n") if l.startswith("| F1 |")]
    check(not f["divergent"] and f["numpy"].startswith("i32 (3,2,3) [") and row and "`%s`" % f["numpy"] in row[0]
          and "NumPy: " not in row[0], "a case NumPy and torch agree on shows their one answer: %s" % row)


def test_notes(tmp):
    """The registry's optional 7th column names a target's FINDINGS.md; without it (or
    with -) FINDINGS.md beside the expectations file is used; 6- and 7-column lines mix;
    a notes path that does not exist is an error naming the line. The report shows the
    notes and the expectations file's header comments."""
    rel = os.path.relpath(TEST_SO, BUILD)
    d = os.path.join(tmp, "notes-exp")
    os.makedirs(d)
    exp = os.path.join(d, "expect.txt")
    with open(exp, "w") as fh:
        fh.write("# HEADER-MARKER: what this file lists\n# second header line\n\n# a family comment\n")
    with open(os.path.join(d, "FINDINGS.md"), "w") as fh:
        fh.write("# Findings of the magic target\n\nDEFAULT-NOTES-MARKER: `code` and a table:\n\n"
                 "| family | verdict |\n| --- | --- |\n| a | b |\n")
    other = os.path.join(tmp, "other-notes.md")
    with open(other, "w") as fh:
        fh.write("EXPLICIT-NOTES-MARKER\n")
    reg = os.path.join(tmp, "notes.tsv")
    with open(reg, "w") as fh:
        fh.write("six\t%s/needs_arg.so\tmagic\t%s\t-\t-\n" % (rel, exp))
        fh.write("dash\t%s/needs_arg.so\tmagic\t%s\t-\t-\t-\n" % (rel, exp))
        fh.write("seven\t%s/needs_arg.so\tmagic\t%s\t-\t-\t%s\n" % (rel, exp, other))
        fh.write("none\t%s/needs_arg.so\tmagic\t-\t-\t-\n" % rel)
        fh.write("missing\t%s/needs_arg.so\tmagic\t-\t-\t-\t%s/no-such-notes.md\n" % (rel, tmp))
    entries = runs.read_registry(reg)
    check([e["notes"] for e in entries] == ["", "", other, "", tmp + "/no-such-notes.md"],
          "6- and 7-column lines read together: %s" % [e["notes"] for e in entries])
    out = os.path.join(tmp, "notes")
    for name, marker in (("six", "DEFAULT-NOTES-MARKER"), ("dash", "DEFAULT-NOTES-MARKER"),
                         ("seven", "EXPLICIT-NOTES-MARKER")):
        r = gen(["target"] + RUN_ARGS + ["--registry", reg, "--target", name, "--out-dir", out, "--cases", FIXTURE])
        md = read(os.path.join(out, name, "index.md")) if r.returncode == 0 else ""
        ht = read(os.path.join(out, name, "index.html")) if r.returncode == 0 else ""
        check(marker in md and marker in ht, "%s: the report shows its notes (%s): %s" % (name, marker, r.stdout[-200:]))
        check("HEADER-MARKER: what this file lists" in md and "a family comment" not in md,
              "%s: the expectations file's header comments, not its family comments" % name)
        check(md.index("## Target notes") < md.index("## Target\n") and md.index("## Declared limits") <
              md.index("## Target notes"), "%s: notes after the findings and limits, before the target" % name)
    check("<tr><th>family</th><th>verdict</th></tr>\n<tr><td>a</td><td>b</td></tr>" in
          read(os.path.join(out, "six", "index.html")),
          "FINDINGS.md's table becomes an HTML table")
    check("\n### Findings of the magic target\n" in read(os.path.join(out, "six", "index.md")),
          "FINDINGS.md's headings are demoted under the notes section")
    r = gen(["target"] + RUN_ARGS + ["--registry", reg, "--target", "none", "--out-dir", out, "--cases", FIXTURE])
    check(r.returncode == 0 and "## Target notes" not in read(os.path.join(out, "none", "index.md")),
          "no expectations file, no notes: no notes section")
    r = gen(["target"] + RUN_ARGS + ["--registry", reg, "--target", "missing", "--out-dir", out, "--cases", FIXTURE])
    check(r.returncode == 2 and "%s:5 (notes column): notes file" % reg in r.stdout and "no-such-notes.md" in r.stdout,
          "a missing notes file is an error naming the line: " + r.stdout[-300:])


def test_results_round_trip(tmp):
    """results.json is schema 2: what bcast-run said (totals, findings with full case
    lists, unmatched expectations, the per-case fields) survives, rendering from the
    written file gives the same report, and the index reads it."""
    so = os.path.join(TEST_SO, "wrong_shape.so")
    raw = os.path.join(tmp, "rt-raw.json")
    exp = os.path.join(tmp, "rt-expect.txt")
    with open(exp, "w") as fh:
        fh.write("no/such/case/* listed but matches nothing\n")
    raw_run(so, raw, ["--expectations", exp])
    run = json.load(open(raw))
    out = os.path.join(tmp, "rt")
    r = gen(["render", "--run-json", raw, "--name", "ws", "--out-dir", out, "--expectations", exp])
    check(r.returncode == 0, "render exits 0: " + r.stdout[-300:])
    path = os.path.join(out, "ws", "results.json")
    res = json.load(open(path))
    check(res["schema"] == "bcast-report-result 2", "schema 2: %s" % res["schema"])
    check(res["totals"] == run["totals"], "totals kept (actual, known, probed, unmatched)")
    check(res["unmatched_expectations"] == run["unmatched_expectations"] and len(res["unmatched_expectations"]) == 1,
          "unmatched expectations kept: %s" % res["unmatched_expectations"])
    check([(f["id"], f["cases"]) for f in res["findings"]] == [(f["id"], f["cases"]) for f in run["findings"]],
          "findings kept with their full case lists")
    fail = [c for c in res["cases"] if c["finding"]][0]
    check(all(k in fail for k in ("failure", "detail", "diff", "stderr_tail", "features", "probed", "limit", "finding"))
          and "duration_ms" not in fail, "per-case fields kept, duration dropped")
    md1 = read(os.path.join(out, "ws", "index.md"))
    md2, _ = target_report.render(json.load(open(path)), "bcast_report.py render")
    check(md1 == md2, "rendering from the written results.json gives the same index.md")
    check("no/such/case/*" in md1, "the report lists the unmatched expectation")
    runs.write_json(os.path.join(tmp, "again.json"), res)
    check(read(os.path.join(tmp, "again.json")) == read(path), "results.json rewrites byte for byte")
    check("| ws |" in read(os.path.join(out, "index.md")), "the index reads schema 2")
    summ = json.load(open(os.path.join(out, "ws", "summary.json")))
    check(summ["schema"] == runs.SUMMARY_SCHEMA and summ["totals"] == res["totals"]
          and [c["id"] for c in summ["cases"]] == [c["id"] for c in res["cases"] if not c.get("probed")]
          and all(set(c) == {"id", "outcome", "finding", "reason"} for c in summ["cases"])
          and all("cases" not in f for f in summ["findings"]),
          "summary.json: the totals and findings, each case by id, outcome, finding and reason only")
    os.makedirs(os.path.join(out, "old"))
    with open(os.path.join(out, "old", "summary.json"), "w") as fh:
        json.dump({"schema": "bcast-report-result 1"}, fh)
    r = gen(["index", "--out-dir", out])
    check(r.returncode == 0 and "SKIP" in r.stdout and "old/summary.json" in r.stdout,
          "an old-schema summary.json is left out of the index with a message: " + r.stdout[-300:])


def test_probed_limits(tmp):
    """Declared limits: what the target does not claim and how many cases that excludes;
    with --probe-limits, what those cases did (not counted as failures)."""
    raw = os.path.join(tmp, "tiny.json")
    raw_run(os.path.join(TEST_SO, "tiny.so"), raw, ["--probe-limits"])
    run = json.load(open(raw))
    out = os.path.join(tmp, "probed")
    r = gen(["render", "--run-json", raw, "--name", "tiny", "--out-dir", out])
    md = read(os.path.join(out, "tiny", "index.md")) if r.returncode == 0 else ""
    lim = [f for f in run["findings"] if f["kind"] == "limit"]
    probed = [c for c in run["cases"] if c["probed"]]
    check(lim and probed and run["totals"]["probed"] == len(probed), "tiny.so declares limits; cases were probed")
    check("## Declared limits (%d)" % len(lim) in md, "the limits section counts the limits")
    rank = [f for f in lim if f["signature"] == "max_rank"]
    row = [l for l in md.split("\n") if rank and l.startswith("| %s | max\\_rank |" % rank[0]["id"])]
    want = len([c for c in probed if "max_rank" in c["limit"] and c["actual_outcome"] == "pass"])
    check(row and row[0].endswith("| %d passed |" % want), "the max_rank limit says what its probed cases did: %s" % row)
    check("## Findings: none (no case failed)" in md and "| fail | 0 | 0 |" in md,
          "probed cases are not failures")
    bad = [c["id"] for c in probed if c["actual_outcome"] != "pass"]
    check(bad and all("`%s`" % i in md for i in bad[:10]), "the probed cases that did not pass are listed")
    # `target --probe` (make report PROBE=1, or the registry's probe column) probes in the gate run
    out2 = os.path.join(tmp, "probed2")
    r = gen(["target"] + RUN_ARGS + ["--target", os.path.join(TEST_SO, "tiny.so"), "--name", "tiny", "--out-dir", out2,
                                      "--cases", FIXTURE, "--probe"])
    res = json.load(open(os.path.join(out2, "tiny", "results.json"))) if r.returncode == 0 else {}
    check(res.get("totals", {}).get("probed", 0) > 0, "target --probe runs the excluded cases: %s" % r.stdout[-300:])


def test_unwritable_out_dir(tmp):
    """Issue 13.4: the output directory is checked before bcast-run runs: when a file
    cannot be created in reports/<name>/, the run fails at once naming the directory."""
    out = os.path.join(tmp, "unwritable")
    os.makedirs(out)
    with open(os.path.join(out, "hang"), "w") as fh:     # reports/hang is a file: no directory there
        fh.write("in the way\n")
    so = os.path.join(TEST_SO, "hang.so")                # a run would take 10 s (its timeout)
    r = gen(["target"] + RUN_ARGS + ["--target", so, "--name", os.path.basename(so)[:-3], "--out-dir", out, "--cases", FIXTURE])
    want = "cannot write the report into %s" % os.path.join(out, "hang")
    check(r.returncode == 2 and want in r.stdout and "nothing was run" in r.stdout,
          "a clear message naming the directory: " + r.stdout[-300:])
    check("report: hang (" not in r.stdout, "bcast-run did not run")
    if os.geteuid() != 0:                                 # root writes anywhere: the file case above covers it
        ro = os.path.join(tmp, "readonly")
        os.makedirs(os.path.join(ro, "hang"))
        os.chmod(os.path.join(ro, "hang"), 0o555)
        r = gen(["target"] + RUN_ARGS + ["--target", so, "--name", os.path.basename(so)[:-3], "--out-dir", ro, "--cases", FIXTURE])
        os.chmod(os.path.join(ro, "hang"), 0o755)
        check(r.returncode == 2 and "cannot write the report into %s" % os.path.join(ro, "hang") in r.stdout,
              "a read-only reports/<name>/ is refused: " + r.stdout[-300:])


def test_determinism(tmp):
    """Two runs of the same target give byte-identical files."""
    so = os.path.join(TEST_SO, "crash.so")
    outs = []
    for k in ("d1", "d2"):
        out = os.path.join(tmp, k)
        gen(["target"] + RUN_ARGS + ["--target", so, "--name", os.path.basename(so)[:-3], "--out-dir", out, "--cases", FIXTURE])
        gen(["edge-cases", "--out-dir", out, "--cases", FIXTURE])
        outs.append(out)
    for f in ("crash/index.md", "crash/index.html", "crash/results.json", "crash/summary.json", "index.md", "index.html",
              "edge-cases.md", "edge-cases.html"):
        a, b = os.path.join(outs[0], f), os.path.join(outs[1], f)
        check(os.path.exists(a) and read(a) == read(b), "%s is the same twice" % f)
    md = read(os.path.join(outs[0], "crash/index.md"))
    check("## Findings: 1 root cause of 1 failure (1 new)" in md and "| crash | 1 | 0 |" in md,
          "the crash is a finding and counted as a crash")


def test_judged_against(tmp):
    """The report's header names the oracle of the profile checked, and whether it is the declared one."""
    line = target_report.judged_against({"profile": "numpy2", "target": {"profile": "numpy2"}})
    check(line == "Judged against NumPy 2.4.6 (profile `numpy2`), the generation it declares.", line)
    line = target_report.judged_against({"profile": "numpy", "target": {"profile": "torch"}})
    check(line == "Judged against NumPy 1.24.2 (profile `numpy`), overriding its declared `torch`.", line)
    check("torch 1.13.1 (profile `torch`)" in target_report.judged_against({"profile": "torch", "target": {}}),
          "torch's oracle named")
    cases, _ = casefile.read_case_set([os.path.join(ROOT, "cases", "promotion.cases")])
    changed = [c for c in cases if "generation-changed" in c["tags"]]
    n, t, div = casefile.reference(changed[0], "numpy2")
    n1, _, _ = casefile.reference(changed[0], "numpy")
    check(changed and n != n1 and div, "reference() under numpy2 gives NumPy 2's outcome: %s vs %s" % (n, n1))


def test_edge_cases(tmp):
    """The catalogue has every category with its rules, 3-8 representatives where the
    category has 3 cases, and every divergent case."""
    cases, _ = casefile.read_case_set([os.path.join(ROOT, FIXTURE)])
    rules = edge_cases.read_rules(os.path.join(ROOT, "docs", "semantics.md"))
    top = max(int(r[1:]) for r in rules)   # B1..Bn, none missing, each with its text (45 when written)
    check(top >= 45 and len(rules) == top and all(rules["B%d" % i][1] for i in range(1, top + 1)),
          "B1-B%d with text: %s" % (top, sorted(rules, key=lambda r: int(r[1:]))))
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
    gen(["target"] + RUN_ARGS + ["--target", so, "--name", os.path.basename(so)[:-3], "--out-dir", out, "--cases", FIXTURE])
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


def test_long_repro_not_inlined():
    """A one-liner holding a large case's every value is replaced by the command that prints it."""
    short = "/usr/bin/python3 -c 'print(1)'"
    check(runs._inline_repro("a", short) == short, "a short one-liner is kept")
    long_ = "x" * (runs.REPRO_MAX + 1)
    r = runs._inline_repro("sizes/add/f32/(3,1031)x(3,1031)", long_)
    check(len(r) < 200 and "bcast-run show 'sizes/add/f32/(3,1031)x(3,1031)'" in r and str(len(long_)) in r,
          "a long one-liner becomes a pointer to bcast-run show: " + r)


def tree_state(root):
    """{path: (size, mtime)} of every file under root: what a run must leave alone."""
    st = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            st[p] = (os.path.getsize(p), os.path.getmtime(p))
    return st


def test_user_report(tmp):
    """Issue #26 item 1: a report of a target given as a path (one's own library, a bridge through
    pipe.so) is named after the library (its describe() name, or --name / NAME=), never after the
    file, and goes to BUILD/reports/NAME/ with its own index: the committed reports/ is untouched."""
    build = os.path.join(tmp, "userbuild")
    os.makedirs(build)
    before = tree_state(os.path.join(ROOT, "reports"))
    args = ["--runner", RUNNER, "--build", build, "--python", sys.executable, "--jobs", "2", "--cases", FIXTURE]
    r = gen(["target"] + args + ["--target", os.path.join(TEST_SO, "crash.so")])
    check(r.returncode == 0 and os.path.isfile(os.path.join(build, "reports", "broken-crash", "index.md"))
          and os.path.isfile(os.path.join(build, "reports", "index.md")),
          "a .so path's report is BUILD/reports/<describe() name>/, with its index: " + r.stdout[-300:])
    check("make report TARGET=%s" % os.path.join(TEST_SO, "crash.so") in
          read(os.path.join(build, "reports", "broken-crash", "index.md")), "the report names the command")
    pipe = os.path.join(BUILD, "targets", "pipe.so")
    bridge = os.path.join(tmp, "mini_bridge.py")
    with open(bridge, "w") as fh:   # a bridge that refuses every shape: a library with one answer
        fh.write("import sys\nout = sys.stdout\nout.write('bcast-pipe 1\\nname my lib/v2\\nversion 0.1\\n"
                 "profile numpy\\nops add\\ndtypes f32\\nmax_rank 0\\nflags strided\\nready\\n')\nout.flush()\n"
                 "while True:\n    h = sys.stdin.buffer.readline().split()\n    if not h:\n        break\n"
                 "    for _ in range(int(h[4])):\n        sys.stdin.buffer.read(int(sys.stdin.buffer.readline().split()[5]))\n"
                 "    out.write('error other no\\n')\n    out.flush()\n")
    for name, want in (([], "my-lib-v2"), (["--name", "mine"], "mine")):
        r = gen(["target"] + args + ["--target", pipe, "--target-arg", "%s %s" % (sys.executable, bridge)] + name)
        check(r.returncode == 0 and os.path.isfile(os.path.join(build, "reports", want, "summary.json"))
              and not os.path.exists(os.path.join(build, "reports", "pipe")),
              "a bridge's report is named %r, never pipe: %s" % (want, r.stdout[-300:]))
    check(tree_state(os.path.join(ROOT, "reports")) == before, "the committed reports/ is untouched")
    idx = read(os.path.join(build, "reports", "index.md"))
    check("| my-lib-v2 |" in idx and "| mine |" in idx and "| numpy-bridge |" not in idx,
          "the user's index lists the user's reports only")


def test_counts_check(tmp):
    """counts_check: a block whose stated size is not its number of entries fails, and so does a
    FINDINGS.md family count that no block states; the same files with true counts pass."""
    d = os.path.join(tmp, "counts")
    os.makedirs(d)
    exp, notes = os.path.join(d, "expectations"), os.path.join(d, "FINDINGS.md")
    reg = os.path.join(d, "registry.tsv")
    with open(reg, "w") as fh:
        fh.write("t\tt.so\t-\t%s\t-\t-\n" % exp)

    def run(block_size, family_size, grad_size):
        with open(exp, "w") as fh:
            fh.write("# header\n\n# %d cases: cause one\na/1 r\na/2 r\n# hand family: split\na/3 r\n\n"
                     "#   1 of them: a symptom\na/4 r\n\n# 2 x fail sub\nb/1 r\nb/2 r\n\n# hand family: later\nc/1 r\n"
                     % block_size)
        with open(notes, "w") as fh:
            fh.write("| family (cases) | smallest |\n| --- | --- |\n| cause one (%d, of which 1 crash) | `a/1` |\n"
                     "| passes | `x` |\n\n| family | count |\n| --- | --- |\n| sub | %d (all) |\n"
                     % (family_size, grad_size))
        return counts_check.check(runs.read_registry(reg))
    passed, bad = run(4, 4, 2)
    check(passed == 4 and not bad, "true counts pass (2 blocks, 2 stated counts): %s %s" % (passed, bad))
    _, bad = run(5, 5, 2)
    check(len(bad) == 1 and "says 5 cases and holds 4" in bad[0], "a block's wrong size fails: %s" % bad)
    _, bad = run(4, 3, 2)
    check(len(bad) == 1 and "states 3 cases" in bad[0], "a FINDINGS.md count no block states fails: %s" % bad)
    _, bad = run(4, 4, 7)
    check(len(bad) == 1 and "states 7 cases" in bad[0], "a count column is checked too: %s" % bad)
    check(counts_check.stated_counts("x (eigen 38, ndebug 41)") == [("eigen", 38), ("ndebug", 41)]
          and counts_check.stated_counts("x (57 + 19)") == [("", 57), ("", 19)]
          and counts_check.stated_counts("x (2,854)") == [("", 2854)], "count forms: labelled, summed, thousands")


def test_summary_size_ladder(tmp):
    """summary.json keeps SUMMARY_REASON_MAX characters of each reason, and only
    SUMMARY_REASON_SHORT (saying so in reason_max) when it would pass SUMMARY_MAX_BYTES."""
    reason = "raises other: " + " ".join("word%d" % i for i in range(60))
    def doc(n):
        return {"name": "t", "findings": [], "cases": [
            {"id": "s/add/f32/%d" % i, "outcome": "fail", "finding": "F1", "reason": reason} for i in range(n)]}

    def cut_at_word(r, limit):
        """r is reason's first words within limit characters, then '...' (never half a word)."""
        head = r[:-3]
        return r.endswith("...") and len(r) <= limit and reason.startswith(head) and reason[len(head)] == " " \
            and len(r) > limit - 10
    small = runs.summary(doc(10))
    check("reason_max" not in small and cut_at_word(small["cases"][0]["reason"], runs.SUMMARY_REASON_MAX),
          "a small summary keeps %d characters of a reason, cut at a word end: %r"
          % (runs.SUMMARY_REASON_MAX, small["cases"][0]["reason"]))
    n = runs.SUMMARY_MAX_BYTES // 150
    big = runs.summary(doc(n))
    check(big.get("reason_max") == runs.SUMMARY_REASON_SHORT
          and cut_at_word(big["cases"][0]["reason"], runs.SUMMARY_REASON_SHORT) and len(big["cases"]) == n,
          "a summary over %d bytes cuts every reason to %d characters at a word end and keeps every case" % (
              runs.SUMMARY_MAX_BYTES, runs.SUMMARY_REASON_SHORT))
    check(runs._cut("x" * 50, 40) == "x" * 37 + "...", "one word longer than the limit is cut (nothing else fits)")
    huge = runs.summary(doc(runs.SUMMARY_MAX_BYTES // 60))
    check(huge.get("reason_max") == 0 and huge["cases"][0]["reason"] == "" and huge["cases"][0]["finding"] == "F1",
          "a summary still over %d bytes at %d characters keeps no reasons (each case still names its finding)"
          % (runs.SUMMARY_MAX_BYTES, runs.SUMMARY_REASON_SHORT))


def test_committed_reports_small():
    """Every committed report folder (reports/NAME: the files git tracks there) is under
    runs.COMMITTED_REPORT_MAX_BYTES together, as report/README.md promises."""
    r = subprocess.run(["git", "ls-files", "-z", "reports"], cwd=ROOT, stdout=subprocess.PIPE, check=False)
    if r.returncode != 0 or not r.stdout:
        skip("committed report sizes: not a git checkout with reports/")
        return
    per = {}
    for path in r.stdout.decode("utf-8").split("\0"):
        parts = path.split("/")
        if len(parts) == 3 and os.path.exists(os.path.join(ROOT, path)):
            per[parts[1]] = per.get(parts[1], 0) + os.path.getsize(os.path.join(ROOT, path))
    big = sorted("%s %d bytes" % (n, b) for n, b in per.items() if b > runs.COMMITTED_REPORT_MAX_BYTES)
    check(len(per) > 10 and not big, "committed reports over %d bytes: %s (of %d folders)"
          % (runs.COMMITTED_REPORT_MAX_BYTES, ", ".join(big) or "none", len(per)))


def test_paths_relative_to_checkout():
    """A bridge's traceback names files by absolute path (faulthandler): the report shows them
    relative to the checkout, so it is the same wherever the repository is cloned."""
    tail = 'File "%stargets/pipe/bridges/torch_bridge.py", line 131 in call' % runs.REPO_ROOT
    kept = runs._stable_case({"id": "a", "outcome": "crash", "stderr_tail": tail, "reason": "crashed in " + tail})
    check(kept["stderr_tail"] == 'File "targets/pipe/bridges/torch_bridge.py", line 131 in call'
          and runs.REPO_ROOT not in kept["reason"], "the checkout's path is dropped: %r" % kept["stderr_tail"])


def test_counts_check_cited_blocks(tmp):
    """counts_check: a family cell that cites bcast-run's blocks ("(3: F1, F2)") must state their
    total; a wrong total, an unknown id and a block whose entries differ from its header fail."""
    d = os.path.join(tmp, "cited")
    os.makedirs(d)
    exp, notes = os.path.join(d, "expectations"), os.path.join(d, "FINDINGS.md")
    reg = os.path.join(d, "registry.tsv")
    with open(reg, "w") as fh:
        fh.write("t\tt.so\t-\t%s\t-\t-\n" % exp)

    def run(f1_size, cell):
        with open(exp, "w") as fh:
            fh.write("# header\n\n# F1: one: wrong values, where the profile succeeds: %d cases, add; f32\n"
                     "a/1 r\na/2 r\n\n# F2: two: raises dtype: %d case, sub; i8\nb/1 r\n" % (f1_size, 1))
        with open(notes, "w") as fh:
            fh.write("| family (cases) | smallest |\n| --- | --- |\n| %s | `a/1` |\n" % cell)
        return counts_check.check(runs.read_registry(reg))
    passed, bad = run(2, "both (3: F1-F2)")
    check(passed == 3 and not bad, "cited blocks summed, ranges expanded: %s %s" % (passed, bad))
    _, bad = run(2, "both (2 + 2: F1, F2)")
    check(len(bad) == 1 and "states 4 cases, and its blocks F1,F2" in bad[0], "a wrong total fails: %s" % bad)
    _, bad = run(2, "both (3: F1, F9)")
    check(len(bad) == 1 and "cites F9" in bad[0], "an unknown block id fails: %s" % bad)
    _, bad = run(3, "both (4: F1, F2)")
    check(len(bad) == 1 and "says 3 cases and holds 2" in bad[0], "a runner block's header is checked too: %s" % bad)
    check(counts_check.cited_blocks("x (970: F2-F4, F9)") == ("x (970)", ["F2", "F3", "F4", "F9"]),
          "cited_blocks splits the count from the ids")


def test_hand_families(tmp):
    """findings_check reads curated family headers, with or without a label after the count; an
    indented "N of them" line is a note inside a family, not a new one."""
    path = os.path.join(tmp, "hand.txt")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("# header words\n# 2 cases: first cause\n#   1 of them: a symptom\na/1 r\na/2 r\n\n"
                 "# 1 cases (G1): second cause\nb/1 r\n")
    fam = findings_check.hand_families(path)
    check(fam == {"a/1": "first cause", "a/2": "first cause", "b/1": "second cause"},
          "hand families: %r" % fam)


def test_explore_section(tmp):
    """The Explore section shows explore.json's totals, every finding with its smallest case and shrunk
    case, and says which ones the committed cases also find (same signature) and which only exploration does."""
    raw, ex_json = os.path.join(tmp, "gate.json"), os.path.join(tmp, "explore.json")
    so = os.path.join(TEST_SO, "wrong_shape.so")
    check(raw_run(so, raw) == 1, "wrong_shape fails on the fixture")
    r = subprocess.run([RUNNER, "explore", "--target", so, "--seed", "3", "--cases", "3000", "--jobs", "1",
                        "--format", "json", "--output", ex_json], cwd=ROOT, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
    check(r.returncode == 1, "explore finds wrong_shape's flaw (exit 1)")
    doc = runs.normalise(json.load(open(raw)), "wrong_shape", "", "", None)
    ex = json.load(open(ex_json))
    fs = [f for f in ex["findings"] if f["kind"] == "failure"]
    check(fs and all(f.get("shrunk") for f in fs), "explore.json has failure findings with shrunk cases")
    md, ht = target_report.render(doc, "make x", ex)
    sec = md.split("## Explore")[1].split("\n## ")[0] if "## Explore" in md else ""
    check("%d cases: %d passed, %d failed" % (ex["totals"]["cases"], ex["totals"]["passed"], ex["totals"]["failed"]) in sec,
          "the section gives explore's totals")
    check(all("`%s`" % f["smallest"] in sec and f["shrunk"].split("\n")[0] in sec for f in fs),
          "every finding's smallest case and shrunk case are shown")
    gate = {f["signature"] for f in doc["findings"]}
    check(any(f["signature"] in gate for f in fs) and "yes (F" in sec,
          "a finding the committed cases also find names the gate's finding")
    odd = dict(fs[0], id="F99", signature="crashes with SIGSEGV | expected ok")
    md2, _ = target_report.render(doc, "make x", dict(ex, findings=fs + [odd]))
    check("only exploration found it" in md2.split("## Explore")[1].split("\n## ")[0],
          "a finding only exploration has is said to be new")
    merged = dict(doc, findings=[dict(doc["findings"][0], signatures=[doc["findings"][0]["signature"], "raises other: x | expected ok"])]
                  + doc["findings"][1:])
    other = dict(fs[0], id="F98", signature="raises other: x | expected ok")
    md4, _ = target_report.render(merged, "make x", dict(ex, findings=[other]))
    check("yes (%s)" % doc["findings"][0]["id"] in md4.split("## Explore")[1].split("\n## ")[0],
          "a signature among those a gate finding was merged from counts as found by the committed cases")
    check(all(isinstance(f.get("signatures"), list) and f["signatures"][0] == f["signature"]
              for f in doc["findings"] if f["kind"] == "failure"),
          "results.json findings list the signatures they were merged from, their own first")
    md3, _ = target_report.render(doc, "make x", None)
    check("No exploration results" in md3, "without explore.json the section says so")
    check("F1" in ht.split("Explore")[1] if "Explore" in ht else False, "the HTML has the section too")
    rep = os.path.join(tmp, "trim")
    os.makedirs(rep)
    shutil.copy(ex_json, os.path.join(rep, "explore.json"))
    trimmed = notes.load_explore(rep, trim=True)
    again = read(os.path.join(rep, "explore.json"))
    notes.load_explore(rep, trim=True)
    check("cases" not in trimmed and all("cases" not in f for f in trimmed["findings"])
          and trimmed["totals"] == ex["totals"] and len(again) < os.path.getsize(ex_json)
          and read(os.path.join(rep, "explore.json")) == again,
          "explore.json is trimmed of its per-case records once, keeping totals and findings")
    check(target_report.render(doc, "make x", trimmed)[0] == md, "the trimmed explore.json renders the same report")
    capped = to_markdown(notes.explore_section(doc, ex, 0))
    check("shrunk: the smallest case" not in capped and "explore.cases" in capped,
          "a Markdown rung that shows no shrunk case points to explore.cases instead")


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
        test_first_screen_and_caps()
        test_stderr_reproducible()
        test_nondeterministic_values()
        test_nondeterministic_outcome()
        test_long_repro_not_inlined()
        test_paths_relative_to_checkout()
        test_committed_reports_small()
        for t in (test_chromium_skip, test_render_broken_target, test_target_gate_expectations, test_registry_all,
                  test_registry_timeout, test_known_crash_counts, test_notes, test_results_round_trip, test_probed_limits,
                  test_unwritable_out_dir, test_determinism, test_judged_against, test_edge_cases, test_hand_families, test_explore_section, test_reports_check, test_user_report, test_counts_check, test_counts_check_cited_blocks, test_summary_size_ladder, test_chromium):
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
