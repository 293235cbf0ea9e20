"""oracle_drift.py - counts how the expectations of two case sets differ, by suite and by kind of difference.

    python3 gen/oracle_drift.py OLD_DIR NEW_DIR [SUITE ...]

Written to measure what moving the oracles from NumPy 1.24 / torch 1.13 to
NumPy 2.x / torch 2.x would change: generate the suites again with the 2.x
interpreter (`$(PYTHON2) gen/make_cases.py --out NEW_DIR`), then compare NEW_DIR
with cases/. Standard library only. Each case present in both sets is
compared once per profile (numpy, torch: an `expect *` counts for both), and
gets the first kind that applies:

    error->ok, ok->error   one set errs where the other returns a result
    error class            both err, with different classes
    dtype, shape           both return, with another result dtype / shape
    values                 same dtype and shape, other values or digest
    compare                same result, another comparison rule (ulp N ...)
    message                same outcome, another `message` text for that library
    same                   nothing differs

Cases only in one set are counted apart. Prints one table per profile (rows:
suites, columns: kinds) and a few example ids per kind.
"""

import os
import sys
from collections import OrderedDict, defaultdict

KINDS = ("error->ok", "ok->error", "error class", "dtype", "shape", "values", "compare", "message", "same")


def read_cases(path):
    """{case id: {"numpy": [expect lines + data lines], "torch": [...],
    "msg numpy": text, "msg torch": text}} of one .cases file."""
    cases, cur, last = OrderedDict(), None, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("case "):
                cur = {"numpy": [], "torch": [], "msg numpy": "", "msg torch": ""}
                cases[line[5:]] = cur
                last = None
            elif cur is None or line.startswith("#"):
                continue
            elif line == "end":
                cur, last = None, None
            elif line.startswith("expect "):
                profile = line.split()[1]
                last = ["numpy", "torch"] if profile == "*" else [profile]
                for p in last:
                    cur[p].append(line.split(None, 2)[2])
            elif line.startswith(("values", "digest")) and last:
                for p in last:
                    cur[p].append(line)
            elif line.startswith("message "):
                lib, _, text = line[8:].partition(" ")
                cur["msg " + lib] = text
                last = None
            else:
                last = None
    return cases


def kind_of(old, new, profile):
    """The first kind of difference (KINDS) between one case's two versions under profile."""
    a, b = old[profile], new[profile]
    if a == b:
        return "same" if old["msg " + profile] == new["msg " + profile] else "message"
    ha, hb = a[0].split(), b[0].split()
    if ha[0] != hb[0]:
        return "error->ok" if ha[0] == "error" else "ok->error"
    if ha[0] == "error":
        return "error class"
    # ok DTYPE SHAPE COMPARE... / grad NAME DTYPE SHAPE COMPARE...
    off = 1 if ha[0] == "ok" else 2
    if len(a) != len(b):
        return "shape"
    for la, lb in zip(a, b):
        xa, xb = la.split(), lb.split()
        if xa[:1] in (["ok"], ["grad"]):
            if xa[off] != xb[off]:
                return "dtype"
            if xa[off + 1] != xb[off + 1]:
                return "shape"
    for la, lb in zip(a, b):
        if la.startswith(("values", "digest")) and la != lb:
            return "values"
    return "compare"


def compare_dirs(old_dir, new_dir, suites):
    """{profile: {suite: {kind: [ids]}}} and {suite: (only old, only new)}."""
    table = {p: defaultdict(lambda: defaultdict(list)) for p in ("numpy", "torch")}
    only = {}
    for s in suites:
        old = read_cases(os.path.join(old_dir, s + ".cases"))
        new = read_cases(os.path.join(new_dir, s + ".cases"))
        only[s] = (sorted(set(old) - set(new)), sorted(set(new) - set(old)))
        for cid in old:
            if cid in new:
                for p in ("numpy", "torch"):
                    table[p][s][kind_of(old[cid], new[cid], p)].append(cid)
    return table, only


def print_report(table, only, suites):
    """The tables and examples, as Markdown."""
    for p in ("numpy", "torch"):
        print("\n### %s profile\n" % p)
        print("| suite | " + " | ".join(KINDS) + " | changed | only old | only new |")
        print("|---" * (len(KINDS) + 4) + "|")
        tot = defaultdict(int)
        for s in suites:
            row = [len(table[p][s][k]) for k in KINDS]
            changed = sum(row) - row[-1]
            for k, n in zip(KINDS, row):
                tot[k] += n
            tot["changed"] += changed
            tot["old"] += len(only[s][0])
            tot["new"] += len(only[s][1])
            print("| %s | %s | %d | %d | %d |" % (s, " | ".join(map(str, row)), changed,
                                                  len(only[s][0]), len(only[s][1])))
        print("| total | %s | %d | %d | %d |" % (" | ".join(str(tot[k]) for k in KINDS),
                                                 tot["changed"], tot["old"], tot["new"]))
        print()
        for k in KINDS[:-1]:
            ids = [i for s in suites for i in table[p][s][k]]
            if ids:
                print("- %s (%d), e.g. %s" % (k, len(ids), ", ".join("`%s`" % i for i in ids[:3])))


def main(argv):
    if len(argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    old_dir, new_dir = argv[0], argv[1]
    suites = argv[2:] or sorted(f[:-6] for f in os.listdir(new_dir) if f.endswith(".cases")
                                and os.path.exists(os.path.join(old_dir, f)))
    table, only = compare_dirs(old_dir, new_dir, suites)
    print_report(table, only, suites)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
