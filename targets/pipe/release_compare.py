#!/usr/bin/env python3
"""release_compare.py - the 2022 findings of a library against its current release, case by case (issue #23).

Usage: release_compare.py OLD.json NEW.json NUMPY2.json [--name NEW-NAME]

  OLD.json     bcast-run --format json results of the Debian (2022) release, e.g. reports/dask/results.json
               from `make report TARGET=dask`; or its committed reports/NAME/summary.json (every failing
               case with its finding and reason, cut at ~100 characters: a case is then "still there"
               when the current release's reason starts with the same text)
  NEW.json     the same cases run against the current release with the same --profile (numpy)
  NUMPY2.json  the same cases run by numpy_bridge.py under NumPy 2.4.6 with --profile numpy: what NumPy 2
               itself does differently from NumPy 1.24 (NEP 50 promotion, 64 dimensions)

Prints a Markdown table: one row per finding of OLD (its id, behaviour, case count) and what the current
release does on those same cases: fixed (passes), still there (fails with the same behaviour), changed
(fails another way, named), not run (skipped); a case the current release fails exactly as NumPy 2.4.6
does is counted as "NumPy 2", not as a library difference. Then the current release's failures on
cases OLD passed, grouped by behaviour, with the same NumPy 2 split. Standard library only.
"""

import collections
import json
import re
import sys

# A crash's behaviour names the bridge's command line (/usr/bin/python3 ..., .venv/targets/bin/python ...),
# cut at a fixed length: not a difference.
INTERPRETER = re.compile(r"bcast pipe target \(.*")


def load(path):
    """{case id: case record} of a bcast-run JSON results file; exits 2 naming the file if it is not one."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        cases = {c["id"]: c for c in data["cases"]}
        for c in cases.values():            # a summary.json lists failing cases only, as outcome xfail/fail
            c.setdefault("actual_outcome", "fail")
        return data, cases
    except (OSError, ValueError, KeyError, TypeError) as exc:
        sys.exit("release_compare.py: %s is not a bcast-run JSON results file: %s" % (path, exc))


def failing(c):
    return c is not None and c["actual_outcome"] not in ("pass", "skip")


def behaviour(c):
    return INTERPRETER.sub("bcast pipe target", c["behaviour"] or c["reason"])


def same_failure(a, b):
    """Do two case records fail the same way (outcome and behaviour, numbers normalised)? A summary.json
    record (no behaviour) matches when the other's reason starts with its reason, cut where it was cut."""
    if not (failing(a) and failing(b)):
        return False
    if "behaviour" not in a or "behaviour" not in b:
        short, full = (a, b) if "behaviour" not in a else (b, a)
        return full["reason"].startswith(short["reason"].rstrip(".").rstrip())
    return a["actual_outcome"] == b["actual_outcome"] and \
        (behaviour(a), a["detail"]) == (behaviour(b), b["detail"])


def verdict(old, new, np2):
    """One case of an OLD finding: fixed, still there, numpy2 (fails as NumPy 2 does), changed, not run."""
    if new is None or new["actual_outcome"] == "skip":
        return "not run", ""
    if new["actual_outcome"] == "pass":
        return "fixed", ""
    if same_failure(new, np2) or (failing(new) and failing(np2) and new["actual"] == np2["actual"]):
        return "as NumPy 2", behaviour(new)
    if same_failure(old, new):
        return "still there", ""
    return "changed", "%s: %s" % (new["actual_outcome"], behaviour(new))


def cell(counter):
    return ", ".join("%d %s" % (n, v) for v, n in counter.most_common()) or "-"


def esc(text):
    return text.replace("|", "\\|").replace("\n", " ")


def old_rows(old_data, old, new, np2):
    """Table rows for every finding of the OLD run."""
    rows = []
    for f in old_data["findings"]:
        if f.get("kind") != "failure":      # a declared limit (ops not claimed): nothing failed
            continue
        ids = [i for i, c in old.items() if c.get("finding") == f["id"] and failing(c)]
        verdicts, changes = collections.Counter(), collections.Counter()
        for i in ids:
            v, how = verdict(old[i], new.get(i), np2.get(i))
            verdicts[v] += 1
            if how:
                changes["%s (%s)" % (how[:90], v)] += 1
        rows.append("| %s | %s | %d | %s | %s |" % (
            f["id"], esc(f["name"][:160]), len(ids), cell(verdicts), esc(cell(changes)[:300])))
    return rows


def new_rows(old, new, np2):
    """Rows for the cases OLD passed (`new`) or did not run (`newly run`: an op the old release's bridge
    did not declare) and the current release fails, by behaviour. A summary.json OLD lists no passing
    case: its rows say `new (passed or not run)`."""
    groups = collections.defaultdict(collections.Counter)
    summary = any("behaviour" not in c for c in old.values())
    for i, c in new.items():
        if failing(c) and not failing(old.get(i)):
            if summary:
                np2_same = failing(np2.get(i)) and (same_failure(c, np2[i]) or c["actual"] == np2[i]["actual"])
                groups[("new (passed or not run)", "%s: %s" % (c["actual_outcome"], behaviour(c)))][
                    "as NumPy 2" if np2_same else "library"] += 1
                continue
            np2_same = failing(np2.get(i)) and (same_failure(c, np2[i]) or c["actual"] == np2[i]["actual"])
            ran = old.get(i) is not None and old[i]["actual_outcome"] == "pass"
            key = ("new" if ran else "newly run", "%s: %s" % (c["actual_outcome"], behaviour(c)))
            groups[key]["as NumPy 2" if np2_same else "library"] += 1
    return ["| %s | %s | %d | %s | |" % (k[0], esc(k[1][:160]), sum(n.values()), cell(n))
            for k, n in sorted(groups.items(), key=lambda kv: (kv[0][0], -sum(kv[1].values())))]


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    (old_data, old), (_, new), (_, np2) = (load(p) for p in argv)
    print("| 2022 finding | behaviour in 2022 | cases | the current release on the same cases | how the changed ones fail |")
    print("| --- | --- | --- | --- | --- |")
    for row in old_rows(old_data, old, new, np2) + new_rows(old, new, np2):
        print(row)


if __name__ == "__main__":
    main(sys.argv[1:])
