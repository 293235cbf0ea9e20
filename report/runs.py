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

import casefile

RESULTS_SCHEMA = "bcast-report-result 2"
# summary.json, the committed part of a report: results.json without the per-case details
SUMMARY_SCHEMA = "bcast-report-summary 1"
SUMMARY_REASON_MAX = 120   # characters of a case's one-line reason kept in summary.json
# A summary.json over this many bytes (a target with ten thousand failing cases) keeps each
# case's reason to SUMMARY_REASON_SHORT characters, so the committed report stays under 3 MB.
SUMMARY_MAX_BYTES = 1500000
COMMITTED_REPORT_MAX_BYTES = 3000000   # a committed report folder's tracked files, together (report/README.md)
SUMMARY_REASON_SHORT = 40
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
# in most runs and happens to equal NumPy's result in some. bcast-run counts such a
# case as the known failure it is whichever way the run went (docs/runner.md); the
# report replaces the run's details with fixed text. A crash or a timeout is still
# reported as such. The reason must say what was observed and why.
NONDETERMINISTIC_OUTCOME = "[nondeterministic outcome]"
VARYING_OUTCOME = {"expected": "", "first_mismatch": "", "diff": "", "detail": "",
                   "actual": "(wrong values or a pass: varies from run to run; see the known reason)",
                   "reason": "the outcome varies from run to run; see the known reason",
                   "error_class": "", "error_message": ""}


class RunError(Exception):
    """A target the reports cannot run; the message says what and how to fix it."""


REGISTRY_COLUMNS = ("name", "shared-object", "target-arg", "expectations", "needs", "timeout", "notes", "probe",
                    "shard")
# The notes, probe and shard columns are optional: lines with the first six (seven, eight) columns are accepted.
REGISTRY_REQUIRED = 6
# A needs entry "make:TARGET" is no Debian package but what `make TARGET` installs
# into the source tree; the file it leaves there (relative to the repository root)
# says whether it ran. js-bridges: npm's record of a finished `npm ci` in targets/js.
MAKE_NEEDS = {"js-bridges": "targets/js/node_modules/.package-lock.json"}
# A needs entry "venv:ENV" is the PyPI environment .venv/ENV that `sh .ci/install-deps`
# creates from .ci/python/ENV.lock; its interpreter says whether it exists.
VENV_NEEDS = {"oracles": ".venv/oracles/bin/python", "targets": ".venv/targets/bin/python"}
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


def parse_shard(text, where):
    """A registry shard: '-' (None: the whole default suite) or '1/N', N in [2, 1000]: the
    target's gate and report cover only the cases `bcast-run --shard 1/N` selects (the cases
    whose id hashes to 0 mod N), for a target too slow for the whole suite (its FINDINGS.md says why)."""
    if text == "-":
        return None
    m = re.fullmatch(r"1/([0-9]+)", text)
    if not m or not 2 <= int(m.group(1)) <= 1000:
        raise RunError("%s: shard column must be 1/N with N in [2, 1000], or -, not %r" % (where, text))
    return int(m.group(1))


def read_registry(path):
    """The registry's lines as dicts (name, so, arg, expectations, needs, timeout, notes,
    line), in file order. '-' columns become '' ([] for needs, None for timeout); a
    line without the 7th column has notes ''."""
    entries = []
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, start=1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            f = line.split("\t")
            if not REGISTRY_REQUIRED <= len(f) <= len(REGISTRY_COLUMNS):
                raise RunError("%s:%d: expected %d to %d tab-separated columns (%s[, %s]), got %d"
                               % (path, no, REGISTRY_REQUIRED, len(REGISTRY_COLUMNS),
                                  ", ".join(REGISTRY_COLUMNS[:REGISTRY_REQUIRED]),
                                  ", ".join(REGISTRY_COLUMNS[REGISTRY_REQUIRED:]), len(f)))
            if len(f) >= 8 and f[7].strip() not in ("probe", "-"):
                raise RunError("%s:%d: probe column must be 'probe' or -, not %r" % (path, no, f[7].strip()))
            shard = parse_shard(f[8].strip() if len(f) >= 9 else "-", "%s:%d" % (path, no))
            f = [x.strip() for x in f] + ["-"] * (len(REGISTRY_COLUMNS) - len(f))
            timeout = parse_timeout(f[5], "%s:%d" % (path, no))
            f = ["" if x == "-" else x for x in f]
            for need in f[4].split(","):
                if need.startswith("make:") and need[5:] not in MAKE_NEEDS:
                    raise RunError("%s:%d: needs column: unknown %r (make targets known: %s)"
                                   % (path, no, need, ", ".join(sorted(MAKE_NEEDS))))
                if need.startswith("venv:") and need[5:] not in VENV_NEEDS:
                    raise RunError("%s:%d: needs column: unknown %r (environments known: %s)"
                                   % (path, no, need, ", ".join(sorted(VENV_NEEDS))))
            entries.append({"name": f[0], "so": f[1], "arg": f[2], "expectations": f[3],
                            "needs": [p for p in f[4].split(",") if p], "timeout": timeout,
                            "notes": f[6], "probe": f[7] == "probe", "shard": shard, "line": "%s:%d" % (path, no)})
    return entries


def notes_path(notes, expectations, where):
    """The target's FINDINGS.md: `notes` when given (it must exist: the error names
    `where`, the registry line or option that gave it), else FINDINGS.md beside the
    expectations file when there is one, else ''."""
    if notes:
        if not os.path.isfile(notes):
            raise RunError("%s: notes file %s does not exist (give a path to the target's FINDINGS.md, or -)"
                           % (where, notes))
        return notes
    if expectations:
        guess = os.path.join(os.path.dirname(expectations), "FINDINGS.md")
        if os.path.isfile(guess):
            return guess
    return ""


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
    debs = missing_packages([p for p in needs if not p.startswith(("make:", "venv:"))])
    if debs:
        why.append("Debian packages missing: %s" % " ".join(debs))
    for need in needs:
        if need.startswith("make:") and not os.path.exists(os.path.join(root, MAKE_NEEDS[need[5:]])):
            why.append("%s missing: run `make %s`" % (MAKE_NEEDS[need[5:]], need[5:]))
        if need.startswith("venv:") and not os.path.exists(os.path.join(root, VENV_NEEDS[need[5:]])):
            why.append("%s missing: run `sh .ci/install-deps` (it installs .ci/python/%s.lock)"
                       % (VENV_NEEDS[need[5:]], need[5:]))
    return "; ".join(why)


def expand_arg(arg, python, build):
    """A registry target-arg with $(PYTHON) and $(BUILD) expanded (a pipe
    target's arg is a command line; it stays one argument for --target-arg)."""
    return arg.replace("$(PYTHON)", python).replace("$(BUILD)", build)


def run_target(runner, so, arg, expectations, cases, jobs, json_path, timeout=None, probe=False, shard=None):  # noqa: PLR0913
    """Run bcast-run on the target; write its JSON to json_path; return its exit status.
    timeout: per-case seconds (--timeout), None for bcast-run's default; probe: also
    run the cases its declared limits exclude (--probe-limits; never part of the gate);
    shard: N to run only the cases --shard 1/N selects (the CI sample, report/ci_sample.py).
    Exit 2 (target not loadable, bad expectations, ...) raises RunError with stderr."""
    cmd = [runner, "--target", so, "--format", "json", "--output", json_path,
           "--jobs", str(jobs), "--no-color"] + (["--probe-limits"] if probe else [])
    if timeout is not None:
        cmd += ["--timeout", str(timeout)]
    if shard is not None:
        cmd += ["--shard", "1/%d" % shard]
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


def one_liners(runner, case_ids_by_file, gen2=False):
    """NumPy and torch one-liners for each case id, from `bcast-run show`
    (gen2: those of NumPy 2 and torch 2, for a numpy2/torch2 run).
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
            _parse_show(r.stdout.decode("utf-8", "replace"), set(ids), found, gen2)
    return found


def _parse_show(text, wanted, found, gen2=False):
    """Collect the 'NumPy:' and 'torch:' lines (gen2: 'NumPy 2:', 'torch 2:') of
    the wanted cases in show's output."""
    np_label, torch_label = ("NumPy 2: ", "torch 2: ") if gen2 else ("NumPy: ", "torch: ")
    cur = None
    for line in text.split("\n"):
        if line.startswith("case "):
            cid = line[5:].split(" ", 1)[0]
            cur = cid if cid in wanted else None
            if cur:
                found.setdefault(cur, {})
        elif cur and line.startswith(np_label):
            found[cur]["numpy"] = line[len(np_label):]
        elif cur and line.startswith(torch_label):
            found[cur]["torch"] = line[len(torch_label):]


CASE_KEYS = ("id", "suite", "tags", "rules", "op", "mode", "dtypes", "shapes", "strides",
             "outcome", "actual_outcome", "reason", "known_reason", "expected", "actual",
             "first_mismatch", "error_class", "error_message", "file", "line",
             "failure", "detail", "diff", "stderr_tail", "features", "probed", "limit", "finding")
FINDING_KEYS = ("id", "kind", "name", "signature", "signatures", "count", "known", "smallest", "ops", "dtypes",
                "rules", "outcomes", "shrunk", "cases")
# Text a target printed (a crash's stderr tail) may hold pointers and process ids
# that change with every run; they are replaced so results.json stays reproducible.
HEX_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{4,}\b")
# A finding of [nondeterministic outcome] cases (bcast-run names it so, runner/cli/cmd_run.c) counts this
# run's outcomes in a parenthesis before ": N cases"; the split changes from run to run.
VARYING_NAME = "the outcome varies from run to run"
VARYING_SPLIT = re.compile(r" \([^()]*\)(?=: [0-9]+ cases)")
SANITIZER_PID = re.compile(r"==[0-9]+==")
# The checkout's own path, as a bridge's Python traceback prints it (faulthandler's "File
# /.../targets/pipe/bridges/x.py"): the report shows paths relative to it, so a report does
# not depend on where the repository was cloned.
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def limit_key(reason):
    """The declared limit a skip reason names ('unsupported: dtype i16' -> 'dtypes'),
    or None: the same mapping as bcast-run's limit findings (runner/results/findings.c,
    limit_of), so probed cases can be counted under their limit."""
    if not reason.startswith("unsupported: "):
        return None
    r = reason[len("unsupported: "):]
    for prefix, key in (("op ", "ops"), ("dtype ", "dtypes"), ("result dtype ", "dtypes"),
                        ("strided", "strided"), ("in-place", "inplace"), ("out=", "out")):
        if r.startswith(prefix):
            return key
    return "max_rank" if "max_rank" in r else None


def _stable_case(c):
    """One kept case: the fields the reports show, with what changes from run to run
    (fault addresses, pointers and pids in stderr, [nondeterministic values]) replaced."""
    kept = {k: c.get(k) for k in CASE_KEYS}
    for k in ("depends_on", "rerun"):   # the re-run's (docs/runner.md "Re-run"), only when bcast-run set them
        if c.get(k):
            kept[k] = c[k]
    for k in ("reason", "actual", "detail", "stderr_tail"):
        if isinstance(kept.get(k), str):
            # A fault address changes with every run (ASLR); the page it hit is what matters.
            kept[k] = FAULT_ADDRESS.sub("fault at <address>", kept[k])
    kept["stderr_tail"] = SANITIZER_PID.sub("==<pid>==", HEX_ADDRESS.sub("0x<address>", kept["stderr_tail"] or ""))
    for k in ("actual", "error_message", "reason"):   # a library's repr of a function object ("at 0x7f15...")
        if isinstance(kept.get(k), str):
            kept[k] = HEX_ADDRESS.sub("0x<address>", kept[k])
    for k in ("reason", "actual", "detail", "error_message", "stderr_tail"):
        if isinstance(kept.get(k), str):
            kept[k] = kept[k].replace(REPO_ROOT, "")
    if (kept.get("known_reason") or "").startswith(NONDETERMINISTIC_OUTCOME) and kept.get("actual_outcome") in ("pass", "fail"):
        kept.update(VARYING_OUTCOME)
    if (kept.get("known_reason") or "").startswith(NONDETERMINISTIC):
        kept["actual"] = VALUES_TAIL.sub(VARYING, kept.get("actual") or "")
        if kept.get("first_mismatch"):
            kept["first_mismatch"] = "(varies from run to run)"
        if kept.get("diff"):
            kept["diff"] = "(varies from run to run)"
        if (kept.get("reason") or "").startswith("wrong values"):
            kept["reason"] = "wrong values (they vary from run to run; see the known reason)"
    return kept


def _count(counts, c):
    """Adds case c to the heat-map cells of its suite and tags (by what happened: a known
    crash counts as a crash; `known`: how many the expectations file listed; `probed`:
    run only with --probe-limits, outside the target's claim)."""
    for dim, keys in (("suite", [c["suite"]]), ("tag", c["tags"])):
        for k in keys:
            cell = counts.setdefault(dim, {}).setdefault(k, {}).setdefault(c["op"], {})
            out = "probed" if c.get("probed") else c.get("actual_outcome") or c["outcome"]
            cell[out] = cell.get(out, 0) + 1
            if c["outcome"] == "xfail":
                cell["known"] = cell.get("known", 0) + 1


def _case_files(paths):
    """{path: {id: case}} for the case files that exist (a missing file gives {})."""
    found = {}
    for path in sorted(paths):
        try:
            cases, _ = casefile.read_file(path)
        except (OSError, casefile.CaseFileError):
            cases = []
        found[path] = {c["id"]: c for c in cases}
    return found


def _findings(run, kept_by_id):
    """bcast-run's findings with what the reports add: for a failure, what NumPy and
    torch do on its smallest case (from the case file), the case file's comments on it,
    how many are new and the most common known reason (numpy, torch, divergent,
    case_comments, new, known_reason); for a declared limit, the skip
    reasons it covers and, with --probe-limits, what the probed cases did."""
    findings = [{k: f.get(k) for k in FINDING_KEYS} for f in run.get("findings", [])]
    smallest = [kept_by_id[f["smallest"]] for f in findings
                if f["kind"] == "failure" and f["smallest"] in kept_by_id]
    files = _case_files({c["file"] for c in smallest})
    skips, probed = {}, {}
    for c in run["cases"]:
        why = c.get("limit") or "" if c.get("probed") else c["reason"] if c["actual_outcome"] == "skip" else ""
        key = limit_key(why)
        if key is None:
            continue
        skips.setdefault(key, {}).setdefault(why, 0)
        skips[key][why] += 1
        if c.get("probed"):
            cell = probed.setdefault(key, {})
            cell[c["actual_outcome"]] = cell.get(c["actual_outcome"], 0) + 1
    for f in findings:
        if f["kind"] == "failure" and f["name"].startswith(VARYING_NAME):
            # how this run's outcomes split (wrong values, errors, passes) varies: not in the name
            f["name"] = VARYING_SPLIT.sub("", f["name"])
            f["signatures"] = [f["signature"]]   # the groups it was merged from vary with the outcomes too
        if f["kind"] == "limit":
            reasons = skips.get(f["signature"], {})
            f["excluded"] = [[r, reasons[r]] for r in sorted(reasons, key=lambda r: (-reasons[r], r))]
            f["probed"] = probed.get(f["signature"], {})
            continue
        c = kept_by_id.get(f["smallest"])
        case = files.get(c["file"], {}).get(c["id"]) if c else None
        missing = "(case not found in %s)" % (c or {}).get("file")
        f["numpy"], f["torch"], f["divergent"] = (casefile.reference(case, run.get("profile", "numpy")) if case
                                                  else (missing, missing, False))
        f["case_comments"] = case["comments"] if case else []
        reasons = {}
        for cid in f["cases"]:
            r = kept_by_id[cid]["known_reason"] if cid in kept_by_id else ""
            if r:
                reasons[r] = reasons.get(r, 0) + 1
        f["known_reason"] = sorted(reasons, key=lambda r: (-reasons[r], r))[0] if reasons else ""
        f["new"] = f["count"] - f["known"]
    return findings


REPRO_MAX = 4000   # characters of a one-liner kept inline; a sizes case's values can run to 100 KB


def _inline_repro(case_id, line):
    """The one-liner, or, when it is longer than REPRO_MAX (every value of a large case), a pointer to
    the command that prints it: results.json and the reports stay readable."""
    if len(line) <= REPRO_MAX:
        return line
    return "# %d characters, too long to inline: bcast-run show '%s' prints it" % (len(line), case_id)


def normalise(run, name, target_arg, expectations, runner, notes="", shard=None):
    """The reports' results.json (schema 2) from bcast-run's JSON `run`: target and
    versions, totals (by what happened, and the known part), counts per suite/tag/op
    for the heat maps and the index, the findings with their full case lists, every
    case that did not simply pass or skip (with one-liners for new failures and each
    finding's smallest case), and the unmatched expectations. notes: the target's
    FINDINGS.md ('' for none). No durations, so two runs give the same bytes.shard: N when the run covered only --shard 1/N of the cases (the registry's shard column).
    """
    counts, keep, skips = {}, [], {}
    for c in run["cases"]:
        _count(counts, c)
        if c["outcome"] == "skip":
            skips[c["reason"]] = skips.get(c["reason"], 0) + 1
        elif c["outcome"] != "pass":
            keep.append(_stable_case(c))
    kept_by_id = {c["id"]: c for c in keep}
    findings = _findings(run, kept_by_id)
    by_file = {}
    # one-liners for the gate's failures and each finding's smallest case; a probed case (run past a
    # declared limit) is summarised by its limit finding, whose smallest case has them
    wanted = [c for c in keep if c["outcome"] in NOT_PASSING and not c.get("probed")]
    wanted += [kept_by_id[f["smallest"]] for f in findings if f["kind"] == "failure" and f["smallest"] in kept_by_id]
    for c in wanted:
        by_file.setdefault(c["file"], set()).add(c["id"])
    lines = one_liners(runner, by_file, run.get("profile") in casefile.GEN2) if runner else {}
    for c in keep:
        ol = lines.get(c["id"], {})
        c["numpy_repro"] = _inline_repro(c["id"], ol.get("numpy", ""))
        c["torch_repro"] = _inline_repro(c["id"], ol.get("torch", ""))
    return {
        "schema": RESULTS_SCHEMA,
        "name": name,
        "bcast_version": run.get("bcast_version", ""),
        "case_set": run.get("case_set", ""),
        "profile": run.get("profile", ""),
        "target": run.get("target", {}),
        "target_arg": target_arg,
        "expectations": expectations,
        "notes": notes,
        "complete": run.get("complete", True),
        "shard": shard,
        "totals": run.get("totals", {}),
        "counts": counts,
        "skip_reasons": skips,
        "findings": findings,
        "unmatched_expectations": run.get("unmatched_expectations", []),
        "cases": keep,
    }


def summary(doc):
    """summary.json from a results.json doc: what the index, findings-vs-hand and a reader of
    the committed tree need, small enough to commit (every committed report under 3 MB).
    Everything but the cases is kept, except each finding's case list (a case names its
    finding). Each case that did not simply pass, skip or get probed past a declared limit
    (its limit finding counts those) keeps its id, outcome, finding and one-line reason, cut
    to SUMMARY_REASON_MAX characters, or to SUMMARY_REASON_SHORT when the summary would
    otherwise exceed SUMMARY_MAX_BYTES, or to none when even that would (then "reason_max" says so:
    40 or 0; the case's finding still names its cause). The full per-case record
    (diffs, stderr, one-liners, probed cases) stays in results.json, which `make report`
    writes and git ignores."""
    s = _summary(doc, SUMMARY_REASON_MAX)
    for shorter in (SUMMARY_REASON_SHORT, 0):   # 0: no reasons (each case still names its finding)
        if len(json.dumps(s, indent=1, sort_keys=True)) <= SUMMARY_MAX_BYTES:
            break
        s = _summary(doc, shorter)
        s["reason_max"] = shorter
    return s


def _summary(doc, reason_max):
    s = {k: v for k, v in doc.items() if k != "cases"}
    s["schema"] = SUMMARY_SCHEMA
    s["findings"] = [{k: v for k, v in f.items() if k != "cases"} for f in doc.get("findings", [])]
    s["cases"] = [dict({"id": c["id"], "outcome": c["outcome"], "finding": c.get("finding", ""),
                        "reason": _cut(c.get("reason", ""), reason_max)},
                       **({"depends_on": c["depends_on"]} if c.get("depends_on") else {}))
                  for c in doc.get("cases", []) if not c.get("probed")]
    return s


def _cut(text, limit):
    """text, or its first words within limit characters followed by "...": never a
    word cut in two (a single word longer than the limit is cut, as nothing else fits)."""
    if len(text) <= limit:
        return text
    if limit < 4:
        return ""
    head = text[:limit - 3]
    if text[limit - 3] != " " and " " in head:
        head = head.rsplit(" ", 1)[0]
    return head.rstrip(" ,;:") + "..."


def write_json(path, doc, indent=1):
    """Stable JSON: sorted keys, fixed indentation, trailing newline."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=indent, sort_keys=True, ensure_ascii=True)
        fh.write("\n")
    os.replace(tmp, path)
