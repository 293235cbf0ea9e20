"""crosscheck.py - runs freshly generated cases through bcast-run against the
reference target in the four profiles (numpy, torch,
numpy2, torch2) and prints the id of every failing case.

    /usr/bin/python3 gen/crosscheck.py BCAST_RUN TARGET_SO CASEFILE|DIR...

A failure is a disagreement between ref and the oracles: a bug in ref or in
gen/, to be resolved, never hidden. Exit 0 when every case passed in every
profile, 1 otherwise, 2 when the runner could not run."""

import json
import os
import subprocess
import sys
import tempfile


def run_profile(runner, target, paths, profile):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "result.json")
        # every file's suite named, so that an opt-in suite (large) among paths is checked too
        suites = [a for p in paths for a in ("--suite", os.path.basename(p)[:-len(".cases")]) if p.endswith(".cases")]
        proc = subprocess.run([runner, "--target", target, "--profile", profile, "--jobs", "2",
                               "--format", "json", "--output", out] + suites + paths,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        last = (proc.stdout.strip().splitlines() or ["(no output)"])[-1]
        if proc.returncode not in (0, 1) or not os.path.exists(out):
            print("crosscheck: %s profile: bcast-run exited %d: %s %s"
                  % (profile, proc.returncode, last, proc.stderr.strip()[:500]))
            return None, last
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
    bad = [c for c in doc.get("cases", []) if c.get("outcome") not in ("pass", "skip", "xfail")]
    return bad, last


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    runner, target, paths = argv[1], argv[2], argv[3:]
    status = 0
    for profile in ("numpy", "torch", "numpy2", "torch2"):
        bad, last = run_profile(runner, target, paths, profile)
        if bad is None:
            status = 2
            continue
        print("crosscheck %s profile: %s" % (profile, last))
        for c in bad:
            print("  %s %s: %s" % (c.get("outcome"), c.get("id"), c.get("reason", "")[:200]))
        if bad:
            status = max(status, 1)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
