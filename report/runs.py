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


class RunError(Exception):
    """A target the reports cannot run; the message says what and how to fix it."""


def read_registry(path):
    """The registry's lines as dicts (name, so, arg, expectations, needs), in file order.
    '-' columns become '' (and [] for needs)."""
    entries = []
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, start=1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            f = line.split("\t")
            if len(f) != 5:
                raise RunError("%s:%d: expected 5 tab-separated columns, got %d" % (path, no, len(f)))
            f = ["" if x.strip() == "-" else x.strip() for x in f]
            entries.append({"name": f[0], "so": f[1], "arg": f[2], "expectations": f[3],
                            "needs": [p for p in f[4].split(",") if p]})
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


def expand_arg(arg, python, build):
    """A registry target-arg with $(PYTHON) and $(BUILD) expanded (a pipe
    target's arg is a command line; it stays one argument for --target-arg)."""
    return arg.replace("$(PYTHON)", python).replace("$(BUILD)", build)


def run_target(runner, so, arg, expectations, cases, jobs, json_path):
    """Run bcast-run on the target; write its JSON to json_path; return its exit status.
    Exit 2 (target not loadable, bad expectations, ...) raises RunError with stderr."""
    cmd = [runner, "--target", so, "--format", "json", "--output", json_path,
           "--jobs", str(jobs), "--no-color"]
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


def normalise(run, name, target_arg, expectations, runner):
    """The reports' results.json from bcast-run's JSON `run`: target and
    versions, totals, counts per suite/tag/op for the heat maps and the index,
    and every case that did not simply pass or skip (with one-liners for the
    failures). No durations, so two runs give the same bytes."""
    counts = {}
    keep = []
    for c in run["cases"]:
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
        "totals": run.get("totals", {}),
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
