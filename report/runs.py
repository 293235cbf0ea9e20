"""runs.py - runs a target through bcast-run and turns its JSON into the reports' normalised results.

bcast-run (docs/runner.md) does the running, judging and the NumPy/torch
one-liners (`bcast-run show`); this module only drives it, reads the
registry (targets/registry.tsv) and keeps what the reports need, without
durations or paths that change from machine to machine, so the committed
results.json is byte-for-byte reproducible.
"""

import json
import os
import re
import subprocess

RESULTS_SCHEMA = "bcast-report-result 1"
NOT_PASSING = ("fail", "crash", "timeout", "violation")
FAULT_ADDRESS = re.compile(r"fault at 0x[0-9a-f]+")
# An expectations reason starting with this marks a case whose outcome is stable but
# whose values are not (e.g. oneDNN's threads racing on a stride-0 dst): the report
# keeps the dtype and shape the target returned and replaces the values, so the
# committed results.json regenerates byte for byte. The reason itself must give
# the values observed and why they vary; that is where the finding is recorded.
NONDETERMINISTIC = "[nondeterministic values]"
VALUES_TAIL = re.compile(r" \[[^\[\]]*\]$")
VARYING = " [values vary from run to run; see the known reason]"
# A reason starting with this marks a case whose outcome itself varies: the library
# returns memory it never wrote (ONNX Runtime's MatMul with K = 0), which is wrong
# in most runs and happens to equal NumPy's result in some. The report records the
# case as the expected failure it is, whichever way this run went (a pass, an xpass
# or an xfail), with the run's details replaced by fixed text; a crash or a timeout
# is still reported as such. The reason must say what was observed and why.
NONDETERMINISTIC_OUTCOME = "[nondeterministic outcome]"
VARYING_OUTCOME = {"outcome": "xfail", "actual_outcome": "varies", "expected": "", "first_mismatch": "",
                   "actual": "(wrong values or a pass: varies from run to run; see the known reason)",
                   "reason": "the outcome varies from run to run; see the known reason",
                   "error_class": "", "error_message": ""}


class RunError(Exception):
    """A target the reports cannot run; the message says what and how to fix it."""


REGISTRY_COLUMNS = ("name", "shared-object", "target-arg", "expectations", "needs", "timeout")
# A needs entry "make:TARGET" is no Debian package but what `make TARGET` installs
# into the source tree; the file it leaves there (relative to the repository root)
# says whether it ran. js-bridges: npm's record of a finished `npm ci` in targets/js.
MAKE_NEEDS = {"js-bridges": "targets/js/node_modules/.package-lock.json"}
MAX_TIMEOUT = 86400     # bcast-run's own bound for --timeout (docs/runner.md)


def parse_timeout(text, where):
    """A registry timeout: '-' (None: bcast-run's default) or whole seconds in
    [1, MAX_TIMEOUT]. Whole seconds, because the report quotes it ("timed out
    after 60s") and a fraction would only invite load-dependent results."""
    if text == "-":
        return None
    if not re.fullmatch(r"[0-9]+", text) or not 1 <= int(text) <= MAX_TIMEOUT:
        raise RunError("%s: timeout column must be whole seconds in [1, %d] or -, not %r"
                       % (where, MAX_TIMEOUT, text))
    return int(text)


def read_registry(path):
    """The registry's lines as dicts (name, so, arg, expectations, needs, timeout),
    in file order. '-' columns become '' ([] for needs, None for timeout)."""
    entries = []
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, start=1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            f = line.split("\t")
            if len(f) != len(REGISTRY_COLUMNS):
                raise RunError("%s:%d: expected %d tab-separated columns (%s), got %d"
                               % (path, no, len(REGISTRY_COLUMNS), ", ".join(REGISTRY_COLUMNS), len(f)))
            f = [x.strip() for x in f]
            timeout = parse_timeout(f[5], "%s:%d" % (path, no))
            f = ["" if x == "-" else x for x in f]
            for need in f[4].split(","):
                if need.startswith("make:") and need[5:] not in MAKE_NEEDS:
                    raise RunError("%s:%d: needs column: unknown %r (make targets known: %s)"
                                   % (path, no, need, ", ".join(sorted(MAKE_NEEDS))))
            entries.append({"name": f[0], "so": f[1], "arg": f[2], "expectations": f[3],
                            "needs": [p for p in f[4].split(",") if p], "timeout": timeout})
    return entries


def missing_packages(packages):
    """The Debian packages of `packages` that dpkg does not report installed."""
    missing = []
    for p in packages:
        try:
            r = subprocess.run(["dpkg-query", "-W", "-f=${Status}", p],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
            ok = r.returncode == 0 and b"install ok installed" in r.stdout
        except OSError:
            ok = True             # no dpkg: let bcast-run find out
        if not ok:
            missing.append(p)
    return missing


def missing_needs(needs, root="."):
    """Why a registry line's needs are not met, as one message ('' when they are):
    its Debian packages dpkg does not report installed, and its make:TARGET entries
    whose file (MAKE_NEEDS, under root) is missing, each with the command to run."""
    why = []
    debs = missing_packages([p for p in needs if not p.startswith("make:")])
    if debs:
        why.append("Debian packages missing: %s" % " ".join(debs))
    for need in needs:
        if need.startswith("make:") and not os.path.exists(os.path.join(root, MAKE_NEEDS[need[5:]])):
            why.append("%s missing: run `make %s`" % (MAKE_NEEDS[need[5:]], need[5:]))
    return "; ".join(why)


def expand_arg(arg, python, build):
    """A registry target-arg with $(PYTHON) and $(BUILD) expanded (a pipe
    target's arg is a command line; it stays one argument for --target-arg)."""
    return arg.replace("$(PYTHON)", python).replace("$(BUILD)", build)


def run_target(runner, so, arg, expectations, cases, jobs, json_path, timeout=None):
    """Run bcast-run on the target; write its JSON to json_path; return its exit status.
    timeout: per-case seconds (--timeout), None for bcast-run's default.
    Exit 2 (target not loadable, bad expectations, ...) raises RunError with stderr."""
    cmd = [runner, "--target", so, "--format", "json", "--output", json_path,
           "--jobs", str(jobs), "--no-color"]
    if timeout is not None:
        cmd += ["--timeout", str(timeout)]
    if arg:
        cmd += ["--target-arg", arg]
    if expectations:
        cmd += ["--expectations", expectations]
    cmd += cases
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if r.returncode not in (0, 1):
        raise RunError("bcast-run exited %d on %s:\n%s" % (r.returncode, so,
                       r.stderr.decode("utf-8", "replace").strip()))
    lines = r.stdout.decode("utf-8", "replace").strip().split("\n")
    print("  " + lines[-1])
    return r.returncode


def one_liners(runner, case_ids_by_file):
    """NumPy and torch one-liners for each case id, from `bcast-run show`.
    case_ids_by_file: {case file: set of ids}. A file with few ids is asked id
    by id; one with many is shown whole ('*') and filtered, which is faster."""
    found = {}
    for path in sorted(case_ids_by_file):
        ids = sorted(case_ids_by_file[path])
        if not os.path.exists(path):
            continue
        queries = ["*"] if len(ids) > 20 else ids
        for q in queries:
            r = subprocess.run([runner, "show", q, path], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, check=False)
            _parse_show(r.stdout.decode("utf-8", "replace"), set(ids), found)
    return found


def _parse_show(text, wanted, found):
    """Collect the 'NumPy:' and 'torch:' lines of the wanted cases in show's output."""
    cur = None
    for line in text.split("\n"):
        if line.startswith("case "):
            cid = line[5:].split(" ", 1)[0]
            cur = cid if cid in wanted else None
            if cur:
                found.setdefault(cur, {})
        elif cur and line.startswith("NumPy: "):
            found[cur]["numpy"] = line[len("NumPy: "):]
        elif cur and line.startswith("torch: "):
            found[cur]["torch"] = line[len("torch: "):]


CASE_KEYS = ("id", "suite", "tags", "rules", "op", "mode", "dtypes", "shapes", "strides",
             "outcome", "actual_outcome", "reason", "known_reason", "expected", "actual",
             "first_mismatch", "error_class", "error_message", "file", "line")


def steady_outcomes(run):
    """(cases, totals) of bcast-run's JSON `run` with each case marked
    NONDETERMINISTIC_OUTCOME that passed or was an expected failure recorded
    as VARYING_OUTCOME, and the totals moved to match (bcast-run counts an
    unexpected pass among `passed`, an expected failure only in
    `expected_failures`)."""
    totals = dict(run.get("totals", {}))
    cases = []
    for c in run["cases"]:
        if (c.get("known_reason") or "").startswith(NONDETERMINISTIC_OUTCOME) and c["outcome"] in ("pass", "xpass", "xfail"):
            if c["outcome"] != "xfail":
                totals["passed"] = totals.get("passed", 0) - 1
                totals["expected_failures"] = totals.get("expected_failures", 0) + 1
                if c["outcome"] == "xpass":
                    totals["unexpected_passes"] = totals.get("unexpected_passes", 0) - 1
            c = dict(c, **VARYING_OUTCOME)
        cases.append(c)
    return cases, totals


def normalise(run, name, target_arg, expectations, runner):
    """The reports' results.json from bcast-run's JSON `run`: target and
    versions, totals, counts per suite/tag/op for the heat maps and the index,
    and every case that did not simply pass or skip (with one-liners for the
    failures). No durations, so two runs give the same bytes."""
    cases, totals = steady_outcomes(run)
    counts = {}
    keep = []
    for c in cases:
        out = c["outcome"]
        for dim, keys in (("suite", [c["suite"]]), ("tag", c["tags"])):
            for k in keys:
                cell = counts.setdefault(dim, {}).setdefault(k, {}).setdefault(c["op"], {})
                cell[out] = cell.get(out, 0) + 1
        if out not in ("pass", "skip"):
            kept = {k: c.get(k) for k in CASE_KEYS}
            # A fault address changes with every run (ASLR); the page it hit is what matters.
            for k in ("reason", "actual"):
                if isinstance(kept.get(k), str):
                    kept[k] = FAULT_ADDRESS.sub("fault at <address>", kept[k])
            if (kept.get("known_reason") or "").startswith(NONDETERMINISTIC):
                kept["actual"] = VALUES_TAIL.sub(VARYING, kept.get("actual") or "")
                if kept.get("first_mismatch"):
                    kept["first_mismatch"] = "(varies from run to run)"
                if (kept.get("reason") or "").startswith("wrong values"):
                    kept["reason"] = "wrong values (they vary from run to run; see the known reason)"
            keep.append(kept)
    by_file = {}
    for c in keep:
        if c["outcome"] in NOT_PASSING:
            by_file.setdefault(c["file"], set()).add(c["id"])
    lines = one_liners(runner, by_file) if runner else {}
    for c in keep:
        ol = lines.get(c["id"], {})
        c["numpy_repro"] = ol.get("numpy", "")
        c["torch_repro"] = ol.get("torch", "")
    skips = {}
    for c in run["cases"]:
        if c["outcome"] == "skip":
            skips[c["reason"]] = skips.get(c["reason"], 0) + 1
    return {
        "schema": RESULTS_SCHEMA,
        "name": name,
        "bcast_version": run.get("bcast_version", ""),
        "case_set": run.get("case_set", ""),
        "profile": run.get("profile", ""),
        "target": run.get("target", {}),
        "target_arg": target_arg,
        "expectations": expectations,
        "complete": run.get("complete", True),
        "totals": totals,
        "counts": counts,
        "skip_reasons": skips,
        "cases": keep,
    }


def write_json(path, doc):
    """Stable JSON: sorted keys, fixed indentation, trailing newline."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=1, sort_keys=True, ensure_ascii=True)
        fh.write("\n")
    os.replace(tmp, path)
