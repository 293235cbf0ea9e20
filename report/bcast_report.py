#!/usr/bin/env python3
"""bcast_report.py - generates bcast's conformance reports and edge-case catalogue (report/report.mk drives it).

  target     run one target: a registry name -> reports/NAME/ and reports/index.*; a .so path
             -> BUILD/reports/NAME/ and its index (NAME: --name, else the target's describe() name)
  all        every registered target (`make reports`; the regression gate)
  index      reports/index.md|html from reports/*/summary.json
  render     reports/NAME/ from an existing bcast-run JSON (no run; tests use it)
  edge-cases reports/edge-cases.md|html from cases/ (`make docs`)
  check      regenerate the committed reports into a temp dir and diff (`make reports-check`)

Python standard library only. Exit 0 on success, 1 when the gate or the check
fails, 2 on a usage or run error (the message says what was wrong).
"""

import argparse
import difflib
import json
import os
import re
import shlex
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import casefile            # noqa: E402
import ci_sample           # noqa: E402
import edge_cases          # noqa: E402
import findings_check      # noqa: E402
import index_report        # noqa: E402
import notes               # noqa: E402
import runs                # noqa: E402
import target_report       # noqa: E402


def write_text(path, text):
    """Write atomically, so an interrupted run never leaves half a report."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)


def check_writable(out_dir, name):
    """Fail (RunError naming the directory) unless a file can be created in out_dir/name
    and in out_dir (the index): checked before a run, so a long run is never lost."""
    for d in (os.path.join(out_dir, name), out_dir):
        try:
            os.makedirs(d, exist_ok=True)
            fd, probe = tempfile.mkstemp(dir=d, prefix=".write-check-")
            os.close(fd)
            os.remove(probe)
        except OSError as err:
            raise runs.RunError("cannot write the report into %s (%s): fix the directory, or choose another "
                                "with --out-dir; nothing was run" % (d, err.strerror or err))


def write_target(out_dir, doc, command):
    """reports/NAME/{index.md,index.html,summary.json,results.json} from a normalised doc.
    summary.json is the committed record; results.json (every case in full) is git-ignored.
    An explore.json beside them that still holds bcast-run's per-case records is rewritten
    in its trimmed form (notes.trim_explore), the one that is committed."""
    d = os.path.join(out_dir, doc["name"])
    os.makedirs(d, exist_ok=True)
    runs.write_json(os.path.join(d, "results.json"), doc)
    runs.write_json(os.path.join(d, "summary.json"), runs.summary(doc))
    md, ht = target_report.render(doc, command, notes.load_explore(d, trim=True))
    write_text(os.path.join(d, "index.md"), md)
    write_text(os.path.join(d, "index.html"), ht)
    print("report: wrote %s/index.md, index.html, summary.json, results.json" % d)


def write_index(out_dir):
    docs = index_report.load_all(out_dir)
    md, ht = index_report.render(docs, "make reports")
    write_text(os.path.join(out_dir, "index.md"), md)
    write_text(os.path.join(out_dir, "index.html"), ht)
    print("report: wrote %s/index.md, index.html (%d targets)" % (out_dir, len(docs)))


def resolve(args, target):
    """(name, .so path, target-arg as written, target-arg expanded, expectations, needs,
    per-case timeout or None, notes) for a registry name or a .so path (the name is then
    the file's base name). --expectations, --timeout and --notes override the registry's
    columns; notes defaults to FINDINGS.md beside the expectations file."""
    if "/" not in target and not target.endswith(".so"):
        for e in runs.read_registry(args.registry):
            if e["name"] == target:
                expect = args.expectations or e["expectations"]
                given = getattr(args, "notes", "")
                return (e["name"], os.path.join(args.build, e["so"]), e["arg"],
                        runs.expand_arg(e["arg"], args.python, args.build), expect, e["needs"],
                        args.timeout if args.timeout is not None else e["timeout"],
                        runs.notes_path(given or e["notes"], expect,
                                        "--notes" if given else e["line"] + " (notes column)"),
                        e["probe"] or getattr(args, "probe", False), e["shard"])
        raise runs.RunError("%s: no target named %r (use a .so path, or add a line to the registry)"
                            % (args.registry, target))
    name = getattr(args, "name", "") or ""      # "" : the target's describe() name, known after the run
    arg = args.target_arg or ""
    expect = args.expectations or ""
    return (name, target, arg, runs.expand_arg(arg, args.python, args.build), expect, [],
            args.timeout, runs.notes_path(getattr(args, "notes", ""), expect, "--notes"), getattr(args, "probe", False),
            None)


def registered(target):
    """A registry name (not a path to a shared object)?"""
    return "/" not in target and not target.endswith(".so")


def dir_name(name):
    """A report folder's name from a target's describe() name or NAME=: letters, digits and
    . _ + - kept, every other run of characters one '-' ('mylib 2.0/fast' -> 'mylib-2.0-fast')."""
    return re.sub(r"[^A-Za-z0-9._+-]+", "-", name).strip(".-") or "target"


def report_command(target, name, arg=""):
    """The command a report names as the one that regenerates it."""
    if registered(target):   # the same words whichever make target ran, for reports-check
        return "make report TARGET=%s` or `make reports" % target
    return "make report TARGET=%s%s%s" % (target, " TARGET_ARG=%s" % shlex.quote(arg) if arg else "",
                                          " NAME=%s" % name if name else "")


def run_one(args, target, out_dir, command):
    """Run and report one target; return bcast-run's exit status (0 or 1).
    command (None: derived from target) is the regenerating command the report names.
    A target given as a path is named by --name, else by its describe() name (a bridge's
    handshake name), never by its file name: every bridge runs as pipe.so."""
    name, so, arg_written, arg, expect, _, timeout, notes_file, probe, shard = resolve(args, target)
    if command is None:
        command = report_command(target, name, arg_written)
    if not os.path.exists(so):
        raise runs.RunError("%s: not built (run `make` first, or check the target's build messages)" % so)
    check_writable(out_dir, dir_name(name) if name else "")
    print("report: %s (%s)" % (name or "(named after the run)", so))
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "run.json")
        status = runs.run_target(args.runner, so, arg, expect, args.cases, args.jobs, raw, timeout, probe, shard)
        with open(raw, encoding="utf-8") as fh:
            run = json.load(fh)
    # the gate's wall time goes to the log only: reports stay byte for byte reproducible
    name = dir_name(name or run.get("target", {}).get("name", ""))
    print("report: %s: gate run took %.0f s (--jobs %d)" % (name, time.monotonic() - t0, args.jobs))
    doc = runs.normalise(run, name, arg_written, expect, args.runner, notes_file, shard)
    write_target(out_dir, doc, command)
    return status


def cmd_target(args):
    """One target's report and the index of its folder. A registered target's report goes to
    reports/ (committed); any other (a path) to BUILD/reports/, git-ignored, so that a report
    of one's own library never touches the committed reports or reports/index.*."""
    if args.out_dir is None:
        args.out_dir = "reports" if registered(args.target) else os.path.join(args.build, "reports")
    status = run_one(args, args.target, args.out_dir, None)
    write_index(args.out_dir)
    return status if args.gate else 0


def gate_sample(args, name, n):
    """The CI gate of a target listed in the sample file: its cases of --shard 1/n
    against its expectations; returns bcast-run's status. Writes no report."""
    _, so, _, arg, expect, _, timeout, _, _, shard = resolve(args, name)
    n *= shard or 1        # a sample of the registry's shard 1/S: shard 1/(S*n) is inside it
    print("reports: SAMPLE %s: the cases of --shard 1/%d (its report is not rewritten: "
          "`make report TARGET=%s` runs all the cases its report covers)" % (name, n, name))
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        status = runs.run_target(args.runner, so, arg, expect, args.cases, args.jobs,
                                 os.path.join(tmp, "run.json"), timeout, False, shard=n)
    print("report: %s: sample gate run took %.0f s (--jobs %d)" % (name, time.monotonic() - t0, args.jobs))
    return status


def cmd_all(args):
    """Every registered target whose .so is built and whose packages are installed;
    fails (1) when any run has unexpected failures (bcast-run exit 1) or cannot run.
    With --sample FILE, the targets it lists are gated on a sample (gate_sample)."""
    bad = []
    entries = runs.read_registry(args.registry)
    sample = ci_sample.read_sample(args.sample, {e["name"] for e in entries}) if args.sample else {}
    for e in entries:
        so = os.path.join(args.build, e["so"])
        if not os.path.exists(so):
            print("reports: SKIP %s: %s not built" % (e["name"], so))
            continue
        missing = runs.missing_needs(e["needs"])
        if missing:
            print("reports: SKIP %s: %s" % (e["name"], missing))
            continue
        try:
            if e["name"] in sample:
                if gate_sample(args, e["name"], sample[e["name"]]) != 0:
                    bad.append("%s (unexpected failures in the CI sample; `make report TARGET=%s` shows them)"
                               % (e["name"], e["name"]))
            elif run_one(args, e["name"], args.out_dir, None) != 0:
                bad.append("%s (unexpected failures; see %s/%s/index.md)" % (e["name"], args.out_dir, e["name"]))
        except runs.RunError as err:
            print("reports: %s: %s" % (e["name"], err), file=sys.stderr)
            bad.append("%s (could not run)" % e["name"])
    write_index(args.out_dir)
    if bad:
        print("reports: REGRESSION: %s" % "; ".join(bad))
        return 1
    print("reports: every built target matches its expectations")
    return 0


def cmd_render(args):
    with open(args.run_json, encoding="utf-8") as fh:
        run = json.load(fh)
    expect = args.expectations or ""
    doc = runs.normalise(run, args.name, args.target_arg or "", expect,
                         args.runner if args.one_liners else None, runs.notes_path(args.notes, expect, "--notes"))
    write_target(args.out_dir, doc, args.command)
    write_index(args.out_dir)
    return 0


def cmd_index(args):
    write_index(args.out_dir)
    return 0


def cmd_edge_cases(args):
    cases, case_set = casefile.read_case_set(args.cases)
    rules = edge_cases.read_rules(args.semantics)
    md, ht = edge_cases.render(cases, case_set, rules, "make docs")
    os.makedirs(args.out_dir, exist_ok=True)
    write_text(os.path.join(args.out_dir, "edge-cases.md"), md)
    write_text(os.path.join(args.out_dir, "edge-cases.html"), ht)
    print("docs: wrote %s/edge-cases.md, edge-cases.html (%d cases)" % (args.out_dir, len(cases)))
    return 0


def cmd_findings_check(args):
    """reports/findings-vs-hand.md: the automatic findings against the hand families."""
    page = findings_check.render(findings_check.collect(runs.read_registry(args.registry), args.out_dir))
    write_text(os.path.join(args.out_dir, "findings-vs-hand.md"), page)
    print("docs: wrote %s/findings-vs-hand.md" % args.out_dir)
    return 0


def cmd_check(args):
    """Regenerate the committed reports (args.names, the edge-case catalogue and the
    index) in a temp dir and compare byte for byte with args.out_dir."""
    committed = args.out_dir
    with tempfile.TemporaryDirectory() as tmp:
        for d in sorted(os.listdir(committed)):
            src = os.path.join(committed, d, "summary.json")
            if os.path.isfile(src) and d not in args.names:
                os.makedirs(os.path.join(tmp, d))
                shutil.copy(src, os.path.join(tmp, d, "summary.json"))
        for name in args.names:
            explore = os.path.join(committed, name, "explore.json")   # committed, not regenerated here
            if os.path.isfile(explore):
                os.makedirs(os.path.join(tmp, name), exist_ok=True)
                shutil.copy(explore, os.path.join(tmp, name, "explore.json"))
            run_one(args, name, tmp, None)
        write_index(tmp)
        args.out_dir = tmp
        cmd_edge_cases(args)
        files = ["index.md", "index.html", "edge-cases.md", "edge-cases.html"]
        for name in args.names:
            files += ["%s/%s" % (name, f) for f in ("index.md", "index.html", "summary.json")]
        bad = []
        for f in files:
            new, old = os.path.join(tmp, f), os.path.join(committed, f)
            if not os.path.exists(old):
                bad.append(f)
                print("reports-check: %s/%s is missing (run make reports && make docs)" % (committed, f))
                continue
            with open(new, encoding="utf-8") as a, open(old, encoding="utf-8") as b:
                na, ob = a.read(), b.read()
            if na != ob:
                bad.append(f)
                diff = list(difflib.unified_diff(ob.split("\n"), na.split("\n"), "committed/" + f,
                                                 "regenerated/" + f, n=1, lineterm=""))
                print("\n".join(diff[:40]))
    if bad:
        print("reports-check: regenerated reports differ from the committed ones: %s" % " ".join(bad))
        print("reports-check: run `make reports docs` and commit reports/, or find the nondeterminism")
        return 1
    print("reports-check: reports/ matches a fresh generation (%d files)" % len(files))
    return 0


def timeout_arg(text):
    """argparse type for --timeout: the registry's rule (whole seconds), so both say the same."""
    try:
        return runs.parse_timeout(text, "--timeout")
    except runs.RunError as err:
        raise argparse.ArgumentTypeError(str(err))


def main(argv):
    ap = argparse.ArgumentParser(prog="bcast_report.py", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)

    def common(p, run=True, out_dir="reports"):
        p.add_argument("--out-dir", default=out_dir)
        p.add_argument("--cases", nargs="+", default=["cases"])
        if run:
            p.add_argument("--runner", default="build/bcast-run")
            p.add_argument("--build", default="build")
            p.add_argument("--python", default="/usr/bin/python3")
            p.add_argument("--registry", default="targets/registry.tsv")
            p.add_argument("--jobs", type=int, default=2)
            p.add_argument("--target-arg", default="")
            p.add_argument("--expectations", default="")
            p.add_argument("--timeout", default=None, type=timeout_arg,
                           help="per-case seconds for bcast-run (default: the registry's column)")

    notes_help = "the target's FINDINGS.md (default: the registry's notes column, else FINDINGS.md beside " \
                 "the expectations file)"
    p = sub.add_parser("target")
    common(p, out_dir=None)
    p.add_argument("--notes", default="", help=notes_help)
    p.add_argument("--target", required=True)
    p.add_argument("--name", default="", help="the report's name for a target given as a path (default: its "
                   "describe() name); its folder is OUT_DIR/NAME (default OUT_DIR: BUILD/reports)")
    p.add_argument("--gate", action="store_true", help="exit 1 when bcast-run finds unexpected failures")
    p.add_argument("--probe", action="store_true", help="also run the cases the target's declared limits exclude "
                   "(bcast-run --probe-limits; the registry's probe column does this for a registered target)")
    p = sub.add_parser("all")
    common(p)
    p.add_argument("--sample", default="", help="a ci-sample file (targets/ci-sample.tsv): gate the targets it "
                   "lists on a deterministic sample of the cases and leave their reports as they are")
    p = sub.add_parser("check")
    common(p)
    p.add_argument("--names", nargs="+", default=["ref"])
    p.add_argument("--semantics", default="docs/semantics.md")
    p = sub.add_parser("render")
    common(p)
    p.add_argument("--notes", default="", help=notes_help)
    p.add_argument("--run-json", required=True)
    p.add_argument("--name", required=True)
    p.add_argument("--command", default="bcast_report.py render")
    p.add_argument("--one-liners", action="store_true", help="ask `bcast-run show` for one-liners")
    p = sub.add_parser("index")
    common(p, run=False)
    p = sub.add_parser("edge-cases")
    common(p, run=False)
    p.add_argument("--semantics", default="docs/semantics.md")
    p = sub.add_parser("findings-check")
    common(p, run=False)
    p.add_argument("--registry", default="targets/registry.tsv")
    args = ap.parse_args(argv)
    fn = {"target": cmd_target, "all": cmd_all, "check": cmd_check, "render": cmd_render,
          "index": cmd_index, "edge-cases": cmd_edge_cases, "findings-check": cmd_findings_check}[args.cmd]
    try:
        return fn(args)
    except (runs.RunError, casefile.CaseFileError, ValueError, OSError) as err:
        print("bcast_report.py %s: %s" % (args.cmd, err), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
