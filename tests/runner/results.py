"""results.py - reads bcast-run JSON results for tests/runner/e2e.sh.

  results.py table FILE.json            print "ID<TAB>OUTCOME<TAB>REASON", one case a line, sorted
  results.py field FILE.json KEY...     print a top-level field (dotted path), e.g. complete, profile
  results.py check FILE.json [--rest OUTCOME] ID=OUTCOME[~TEXT] ...
        every listed id must have OUTCOME (and, with ~TEXT, a reason containing
        TEXT, case-insensitive); every other case must have the --rest outcome
        (default pass). Prints each mismatch; exit 1 if any.
  results.py junit FILE.xml TESTS FAILURES SKIPPED
        parses FILE.xml with junitparser (a real JUnit consumer) and checks the counts.

The JSON schema is docs/runner.md's "bcast-run-result 1"; outcomes are
pass fail skip crash timeout violation xfail xpass.
"""
import json
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


OUTCOMES = {"pass", "fail", "skip", "crash", "timeout", "violation", "xfail", "xpass"}


def case_list(doc):
    if doc.get("schema") != "bcast-run-result 1" or not isinstance(doc.get("cases"), list):
        raise SystemExit("results.py: not a 'bcast-run-result 1' document with a 'cases' list")
    return doc["cases"]


def rows(path):
    """id -> (outcome, reason + error message), checked against the schema's outcome names."""
    out = {}
    for c in case_list(load(path)):
        if c.get("outcome") not in OUTCOMES:
            raise SystemExit("results.py: %s: unknown outcome %r" % (c.get("id"), c.get("outcome")))
        reason = " | ".join(str(c[k]) for k in ("reason", "error_message", "known_reason") if c.get(k))
        out[c["id"]] = (c["outcome"], reason)
    return out


def cmd_table(args):
    for cid, (outcome, reason) in sorted(rows(args[0]).items()):
        print("%s\t%s\t%s" % (cid, outcome, reason))
    return 0


def cmd_field(args):
    doc = load(args[0])
    for key in args[1:]:
        v = doc
        for part in key.split("."):
            v = v.get(part) if isinstance(v, dict) else None
        print(json.dumps(v) if isinstance(v, (dict, list, bool)) or v is None else v)
    return 0


def cmd_check(args):
    path, rest, want = args[0], ("pass", ""), {}
    i = 1
    while i < len(args):
        if args[i] == "--rest":
            outcome, _, text = args[i + 1].partition("~")
            rest = (outcome, text)
            i += 2
            continue
        cid, _, spec = args[i].rpartition("=")
        outcome, _, text = spec.partition("~")
        want[cid] = (outcome, text)
        i += 1
    got = rows(path)
    bad = 0
    for cid in want:
        if cid not in got:
            print("  %s: not in the results" % cid)
            bad += 1
    for cid, (outcome, reason) in sorted(got.items()):
        w_outcome, w_text = want.get(cid, rest)
        if outcome != w_outcome:
            print("  %s: outcome %s, expected %s (reason: %s)" % (cid, outcome, w_outcome, reason))
            bad += 1
        elif w_text and w_text.lower() not in reason.lower():
            print("  %s: reason %r lacks %r" % (cid, reason, w_text))
            bad += 1
    return 1 if bad else 0


def cmd_junit(args):
    from junitparser import JUnitXml, Failure, Error, Skipped
    xml = JUnitXml.fromfile(args[0])
    tests = failures = skipped = 0
    suites = [xml] if xml._tag == "testsuite" else list(xml)
    for suite in suites:
        for case in suite:
            tests += 1
            kinds = {type(r) for r in case.result}
            if Failure in kinds or Error in kinds:
                failures += 1
            elif Skipped in kinds:
                skipped += 1
    want = tuple(int(a) for a in args[1:4])
    if (tests, failures, skipped) != want:
        print("  junit: %d tests, %d failed/errored, %d skipped; expected %d, %d, %d"
              % ((tests, failures, skipped) + want))
        return 1
    return 0


def main(argv):
    cmds = {"table": cmd_table, "field": cmd_field, "check": cmd_check, "junit": cmd_junit}
    if len(argv) < 3 or argv[1] not in cmds:
        print(__doc__, file=sys.stderr)
        return 2
    return cmds[argv[1]](argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
