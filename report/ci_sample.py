"""ci_sample.py - which registered targets CI gates on a deterministic sample of the suite instead of all of it.

targets/ci-sample.tsv lists them, one per line, tab-separated: the target's
name (a line of targets/registry.tsv), N, and why (the measured full gate
time). `make reports REPORTS_SAMPLE=targets/ci-sample.tsv` (what .ci/run
runs) gates such a target on `bcast-run --shard 1/N`: the cases whose id's
hash is 0 mod N (the same cases on every run, whatever else is in the suite), against
its full expectations file. It fails on any unexpected failure in the sample
and leaves the target's committed report as it is (a sample cannot rewrite a
report of the whole suite). `make reports` without REPORTS_SAMPLE, or
`make report TARGET=name`, runs the whole suite and rewrites the report.
"""

import re

from runs import RunError


def read_sample(path, registered):
    """{target name: N} from a ci-sample file. registered: the registry's
    names; a line naming any other target, an N that is not a whole number
    in [2, 1000], or a line without a reason is an error naming the line."""
    sample = {}
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, start=1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            f = line.split("\t")
            where = "%s:%d" % (path, no)
            if len(f) != 3 or not f[2].strip():
                raise RunError("%s: expected 3 tab-separated columns (name, N, why), got %r" % (where, line))
            name, n = f[0].strip(), f[1].strip()
            if name not in registered:
                raise RunError("%s: %r is not a target of the registry" % (where, name))
            if not re.fullmatch(r"[0-9]+", n) or not 2 <= int(n) <= 1000:
                raise RunError("%s: N must be a whole number in [2, 1000], not %r" % (where, n))
            if name in sample:
                raise RunError("%s: %s is listed twice" % (where, name))
            sample[name] = int(n)
    return sample
