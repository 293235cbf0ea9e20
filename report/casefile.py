"""casefile.py - reads the metadata of bcast case files (docs/case-format.md) for the reports.

Only what the reports show is kept: id, suite, tags, rules, op, mode, source,
attrs, each arg's name/dtype/shape/strides, each expectation (profile, ok or
error, dtype, shape, class, and the first few expected values), the oracles'
messages and the comment lines inside the record. Other data lines are
skipped: the runner (bcast-run), not the reports, checks values.
"""

import glob
import os
import struct

PREVIEW = 8               # values shown per result, as bcast-run's summaries show them


class CaseFileError(Exception):
    """A case file the reports cannot read: the message is 'FILE:LINE: what'."""


def read_case_set(paths):
    """Return (cases, case_set): every case of the given files or directories,
    sorted by id, and the `# case-set` version ('' when no file gives one).
    A directory means its *.cases files; the opt-in `large` suite is kept."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            files.extend(sorted(glob.glob(os.path.join(p, "*.cases"))))
        else:
            files.append(p)
    if not files:
        raise CaseFileError("no case files in %s" % " ".join(paths))
    cases, case_set = [], ""
    for f in files:
        got, version = read_file(f)
        cases.extend(got)
        case_set = case_set or version
    cases.sort(key=lambda c: c["id"])
    return cases, case_set


def read_file(path):
    """Parse one case file; return (cases, case_set version or '')."""
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    if not lines or lines[0] != "bcast-cases 1":
        raise CaseFileError("%s:1: not a bcast-cases 1 file (first line %r)"
                            % (path, lines[0][:40] if lines else ""))
    cases, cur, version, key = [], None, "", ""
    for no, line in enumerate(lines[1:], start=2):
        if line.startswith("# case-set "):
            version = line[len("# case-set "):].strip()
            continue
        if not line:
            continue
        if line.startswith("#"):
            if cur is not None:
                cur["comments"].append(line[1:].strip())
            continue
        prev = key
        key, _, rest = line.partition(" ")
        if key == "case":
            if cur is not None:
                raise CaseFileError("%s:%d: case %s opened before the previous one ended"
                                    % (path, no, rest))
            cur = {"id": rest, "suite": "", "tags": [], "rules": [], "op": "", "mode": "value",
                   "source": [], "attrs": {}, "args": [], "expects": [], "messages": {},
                   "comments": [], "file": path, "line": no}
        elif cur is None:
            raise CaseFileError("%s:%d: %r outside a case record" % (path, no, key))
        elif key == "end":
            cases.append(cur)
            cur = None
        elif key == "suite":
            cur["suite"] = rest
        elif key in ("tags", "rules", "source"):
            cur[key] = rest.split()
        elif key in ("op", "mode"):
            cur[key] = rest
        elif key == "attr":
            name, _, value = rest.partition(" ")
            cur["attrs"][name] = value
        elif key == "arg":
            f = rest.split(" ")
            if len(f) != 6:
                raise CaseFileError("%s:%d: arg needs 6 fields, got %d" % (path, no, len(f)))
            cur["args"].append({"name": f[0], "dtype": f[1], "shape": f[2], "strides": f[3]})
        elif key == "expect":
            f = rest.split(" ")
            if len(f) >= 4 and f[1] == "ok":
                cur["expects"].append({"profile": f[0], "kind": "ok", "dtype": f[2], "shape": f[3]})
            elif len(f) >= 5 and f[1] == "grad":   # mode grad: one gradient per input
                cur["expects"].append({"profile": f[0], "kind": "ok", "grad": f[2], "dtype": f[3], "shape": f[4]})
            elif len(f) == 3 and f[1] == "error":
                cur["expects"].append({"profile": f[0], "kind": "error", "class": f[2]})
            else:
                raise CaseFileError("%s:%d: malformed expect line" % (path, no))
        elif key == "message":
            lib, _, text = rest.partition(" ")
            cur["messages"][lib] = text
        elif key in ("values", "digest") and prev == "expect" and cur["expects"][-1]["kind"] == "ok":
            # the expectation's data line: keep a preview (None for a digest)
            # (at most PREVIEW + 1 tokens, the last one then standing for "more")
            cur["expects"][-1]["values"] = [t for t in rest.split(" ", PREVIEW) if t] if key == "values" else None
        elif key in ("values", "pattern", "digest"):
            pass
        else:
            raise CaseFileError("%s:%d: unknown key %r" % (path, no, key))
    if cur is not None:
        raise CaseFileError("%s: case %s has no end line" % (path, cur["id"]))
    return cases, version


PROFILES = ("numpy", "torch", "numpy2", "torch2")
# The oracle whose expectations each profile holds (make cases: Debian 12's
# python3-numpy and python3-torch; .ci/python/oracles.lock's NumPy and torch).
ORACLES = {"numpy": "NumPy 1.24.2", "torch": "torch 1.13.1", "numpy2": "NumPy 2.4.6", "torch2": "torch 2.15.0"}
# The profiles of each generation (docs/case-format.md, "Profiles and generations").
GEN1, GEN2 = ("numpy", "torch"), ("numpy2", "torch2")


def source_profiles(case):
    """The profiles an `expect *` of the case covers, from its source line:
    `rule` all four; numpy/torch/ref generation 1; numpy2/torch2 generation 2
    (no oracle named: generation 1), as runner/case/caseio.c reads it."""
    words = set(case.get("source") or ())
    if "rule" in words:
        return set(PROFILES)
    out = set(GEN1) if words & {"numpy", "torch", "ref"} else set()
    if words & set(GEN2):
        out |= set(GEN2)
    return out or set(GEN1)


def expectation(case, profile):
    """The expect record that applies under profile (numpy, torch, numpy2 or torch2), or None."""
    for e in case["expects"]:
        if e["profile"] == profile or (e["profile"] == "*" and profile in source_profiles(case)):
            return e
    return None


def _format_value(token, dtype):
    """One case-file value as bcast-run prints it (%.9g for f32, %.17g for f64, integers as is)."""
    if dtype not in ("f32", "f64"):
        return token
    if token.lstrip("-").startswith("nan("):   # a NaN with a payload (docs/case-format.md)
        return "nan"
    x = float.fromhex(token) if "0x" in token.lower() else float(token)
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    if dtype == "f32":
        x = struct.unpack("<f", struct.pack("<f", x))[0]
        return "%.9g" % x
    return "%.17g" % x


def describe(expect, message=""):
    """An expectation as bcast-run summarises results: 'f32 (2,3) [1, 2, ...]',
    'f32 (2,3) digest' or 'error CLASS: message'."""
    if expect is None:
        return "(no expectation)"
    if expect["kind"] == "error":
        return "error %s%s" % (expect["class"], ": " + message if message else "")
    if "grad" in expect:   # grad mode: the first gradient the profile expects
        return "gradient of %s: %s" % (expect["grad"], describe(dict((k, v) for k, v in expect.items() if k != "grad")))
    if expect["dtype"] == "-":
        return "- %s" % expect["shape"]
    vals = expect.get("values")
    if vals is None:
        return "%s %s%s" % (expect["dtype"], expect["shape"], " digest" if "values" in expect else "")
    shown = [_format_value(v, expect["dtype"]) for v in vals[:PREVIEW]]
    more = ", ..." if len(vals) > PREVIEW else ""
    return "%s %s [%s%s]" % (expect["dtype"], expect["shape"], ", ".join(shown), more)


def reference(case, profile="numpy"):
    """What NumPy and torch of profile's generation do on the case, from its
    expectations and the oracles' messages: (numpy, torch, divergent), numpy and
    torch as describe() gives them; divergent when the two profiles expect
    different outcomes (the messages of a shared error expectation may still differ)."""
    libs = GEN2 if profile in GEN2 else GEN1
    np_e, th_e = expectation(case, libs[0]), expectation(case, libs[1])
    return (describe(np_e, case["messages"].get(libs[0], "")), describe(th_e, case["messages"].get(libs[1], "")),
            np_e is not th_e)
