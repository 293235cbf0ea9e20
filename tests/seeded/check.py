"""check.py - the default suite catches every seeded-bug variant of ref (issue #25 item 6).

    python3 tests/seeded/check.py BCAST_RUN SEEDED_DIR [CASES]

For each variant of tests/seeded/variants.txt, runs BCAST_RUN over the
default suite (CASES, default cases/) against SEEDED_DIR/NAME.so, under the
profiles numpy, torch, numpy2, torch2 in turn until one run has a failing
case. A variant none of the four runs fails is MISSED: a defect of the suite,
to be fixed by a case, never by removing the variant. Prints one line per
variant and the closing "N passed, N failed" (one test per variant).
"""

import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from patch import variants  # noqa: E402

PROFILES = ("numpy", "torch", "numpy2", "torch2")


def run(runner, so, profile, cases):
    """(failed count, the first failing case id or '') of one run."""
    cmd = [runner, "--target", so, "--profile", profile, "--jobs", "2", "--timeout", "5",
           "--verbose", cases]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    m = re.findall(r"^(\d+) passed, (\d+) failed", p.stdout, re.M)
    if not m:
        raise SystemExit("check.py: %s printed no summary (exit %d):\n%s" % (" ".join(cmd), p.returncode,
                                                                           p.stdout[-2000:]))
    first = re.search(r"^\s*(?:FAIL|fail)\S*\s+(\S+)", p.stdout, re.M)
    return int(m[-1][1]), first.group(1) if first else ""


def main(argv):
    if len(argv) not in (2, 3):
        raise SystemExit("usage: check.py BCAST_RUN SEEDED_DIR [CASES]")
    runner, sdir = argv[:2]
    cases = argv[2] if len(argv) == 3 else "cases"
    caught = missed = 0
    t0 = time.time()
    for v in variants():
        so = os.path.join(sdir, v["name"] + ".so")
        if not os.path.exists(so):
            raise SystemExit("check.py: %s is not built (make builds it)" % so)
        for prof in PROFILES:
            nfail, first = run(runner, so, prof, cases)
            if nfail:
                break
        if nfail:
            caught += 1
            print("caught %-28s profile %-6s %5d failing cases, e.g. %s" % (v["name"], prof, nfail, first))
        else:
            missed += 1
            print("MISSED %-28s (%s, %s): no case of the default suite fails in any profile"
                  % (v["name"], v["file"], v["models"]))
    print("seeded bugs: %d of %d variants caught by the default suite in %.1f s"
          % (caught, caught + missed, time.time() - t0))
    print("%d passed, %d failed" % (caught, missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
