"""make_cases4.py - `make cases`: every suite through both generations' oracles, merged into one record per case.

    python3 gen/make_cases4.py --python1 PY1 --python2 PY2 --out DIR [--suite NAME ...] [--jobs N]

Runs gen/make_cases.py under PY1 (NumPy 1.24, torch 1.13: profiles numpy,
torch) and under PY2 (NumPy 2, torch 2: numpy2, torch2) at the same time, each
into its own temporary directory, then merges the two with
gen/merge_generations.py into DIR. Deterministic: each generation's files are,
and so is the merge. PY2 missing is an error (the generation-2 expectations
would be missing): never writes generation-1-only files.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import merge_generations  # noqa: E402

INSTALL_HINT = ("the NumPy 2 / torch 2 oracles (profiles numpy2, torch2) run in .venv/oracles: "
                "install it with `sh .ci/install-deps`")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python1", required=True)
    ap.add_argument("--python2", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--suite", action="append")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes per generation")
    ap.add_argument("--large", action="store_true")
    opt = ap.parse_args(argv)
    for py in (opt.python1, opt.python2):
        if shutil.which(py) is None:
            print("make_cases4: error: interpreter %s not found: %s" % (py, INSTALL_HINT
                  if py == opt.python2 else "NumPy 1.24 and torch 1.13 come from Debian's python3"),
                  file=sys.stderr)
            return 1
    extra = ["--jobs", str(opt.jobs)] + (["--large"] if opt.large else [])
    for s in opt.suite or ():
        extra += ["--suite", s]
    t0 = time.time()
    tmp = tempfile.mkdtemp(prefix="bcast-cases4-")
    try:
        procs = []
        for gen, py in (("gen1", opt.python1), ("gen2", opt.python2)):
            log = open(os.path.join(tmp, gen + ".log"), "w")
            procs.append((gen, log, subprocess.Popen(
                [py, os.path.join(HERE, "make_cases.py"), "--out", os.path.join(tmp, gen)] + extra,
                stdout=log, stderr=subprocess.STDOUT)))
        failed = []
        for gen, log, p in procs:
            p.wait()
            log.close()
            if p.returncode != 0:
                failed.append(gen)
                with open(log.name) as f:
                    sys.stderr.write("make_cases4: %s (%s) failed:\n%s" % (gen, p.args[0], f.read()[-3000:]))
        if failed:
            return 1
        suites = sorted({f[:-6] for g in ("gen1", "gen2") for f in os.listdir(os.path.join(tmp, g))
                         if f.endswith(".cases")})
        os.makedirs(opt.out, exist_ok=True)
        rc = merge_generations.main([os.path.join(tmp, "gen1"), os.path.join(tmp, "gen2"), opt.out] + suites)
        print("make_cases4: both generations and the merge in %.1f s" % (time.time() - t0))
        return rc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except merge_generations.MergeError as e:
        print("make_cases4: error: %s" % e, file=sys.stderr)
        sys.exit(1)
