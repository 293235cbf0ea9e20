"""oneliners.py - the NumPy and torch one-liners of `bcast-run show` reproduce their cases (issue 13.9).

    /usr/bin/python3 tests/runner/oneliners.py BUILD [SAMPLE]
    .venv/oracles/bin/python tests/runner/oneliners.py BUILD [SAMPLE]

The interpreter decides the generation checked: under NumPy 1.x the `NumPy:`
and `torch:` one-liners against the numpy and torch expectations, under NumPy
2.x the `NumPy 2:` and `torch 2:` ones against numpy2 and torch2.

For a fixed sample of the default cases (every SAMPLE-th id, default 97, and
cases whose values hold -0, NaN, infinities and extreme floats), runs each
one-liner's code in this interpreter, catching what it prints, and compares it
with the case's own expectation for that library (the `expect numpy` /
`expect torch` / `expect *` line): the same dtype, shape and values, bit for
bit except NaN payloads and within the case's ulp tolerance; or, where the
case expects an error, an exception. A one-liner that writes -0 as `-0`
(which Python reads as the integer 0) or a float it cannot read back exactly
fails here. Last line: "N passed, N failed, N skipped".
"""

import math
import os
import warnings
import re
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXTRA = ["ops/maximum/f32/values", "ops/minimum/f64/values", "ops/remainder/f32/values", "ops/div/f64/values",
         "ops/sub/f32/values", "ops/pow/f64/values", "ops/floor_divide/f32/values",
         # grad mode: each op's formula and autograd one-liner, the ties and the singular points
         "grad/div/f32/(2,1)x(3,)", "grad/pow/f64/(3,)x(2,1)", "grad/maximum/f64/(2,1,1)x(3,)",
         "grad/where/f64/(2,1)x(3,)x()", "grad/matmul/f32/(2,1,2,3)x(3,4)", "grad/expand/f32/(3,1)->(2,3,3)",
         "grad/ties/maximum/f64/ties/(2,1)x(3,)", "grad/singular/pow/f64/x-stretched/y=0.0",
         "grad/dtypes/mul/i32,f32/(2,3)x(3,)"]


def read_cases(paths):
    """{id: {"expect": {profile: (kind, dtype, shape, cmp, values)}}} for the ids in paths' files."""
    cases = {}
    for path in paths:
        cur, pending = None, None
        for line in open(path, encoding="utf-8"):
            line = line.rstrip("\n")
            if line.startswith("case "):
                cur = cases.setdefault(line[5:], {"expect": {}, "file": path, "tags": []})
            elif cur is not None and line.startswith("tags"):
                cur["tags"] = line.split(" ")[1:]
            elif cur is not None and line.startswith("expect "):
                f = line.split(" ")
                if f[2] == "grad":   # grad mode: a list of gradients per profile, in input order
                    pending = (f[1], ("grad", f[4], f[5], " ".join(f[6:])), f[3])
                elif f[2] == "ok":
                    pending = (f[1], ("ok", f[3], f[4], " ".join(f[5:])))
                else:
                    cur["expect"][f[1]] = ("error", f[3], None, None, None)
            elif cur is not None and pending is not None and (line.startswith("values") or line.startswith("digest")):
                prof, (kind, dt, shape, cmp) = pending[:2]
                vals = line.split(" ")[1:] if line.startswith("values") else None
                if kind == "grad":
                    old = cur["expect"].get(prof)
                    grads = old[1] if old is not None and old[0] == "grads" else []
                    grads.append((pending[2], dt, shape, cmp, vals))
                    cur["expect"][prof] = ("grads", grads, None, None, None)
                else:
                    cur["expect"][prof] = (kind, dt, shape, cmp, vals)
                pending = None
    return cases


def parse_shape(s):
    return tuple(int(v) for v in s[1:-1].split(",") if v)


def value_of(tok, dt):
    if dt in ("f32", "f64"):
        return float(tok) if tok in ("nan", "inf", "-inf") else float.fromhex(tok)
    return int(tok)


def bits(v, dt):
    if dt == "f32":
        return struct.unpack("<I", struct.pack("<f", v))[0]
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def ulps(a, b, dt):
    def ordered(x):
        u = bits(x, dt)
        top = 1 << (31 if dt == "f32" else 63)
        return -(u & (top - 1)) if u & top else u
    return abs(ordered(a) - ordered(b))


def same(a, b, dt, cmp):
    if dt not in ("f32", "f64"):
        return a == b
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if bits(a, dt) == bits(b, dt):
        return True
    if cmp.startswith("ulp") and not (math.isinf(a) or math.isinf(b)):
        f = cmp.split()
        return ulps(a, b, dt) <= int(f[1]) or (len(f) == 4 and abs(a - b) <= float.fromhex(f[3]))
    return False


DTYPE_NAMES = {"bool": "bool", "int8": "i8", "uint8": "u8", "int16": "i16", "int32": "i32", "int64": "i64",
               "float32": "f32", "float64": "f64"}


def produced(obj):
    """(dtype, shape, flat values) of what a one-liner printed: a NumPy array or
    scalar, a torch tensor, or a shape (broadcast_shapes)."""
    if isinstance(obj, tuple) or type(obj).__name__ == "Size":
        return "-", tuple(int(v) for v in obj), []
    if type(obj).__module__.startswith("torch"):
        dt = str(obj.dtype).replace("torch.", "")
        return DTYPE_NAMES[dt], tuple(obj.shape), [v for v in obj.reshape(-1).tolist()]
    import numpy as np
    arr = np.asarray(obj)
    return DTYPE_NAMES[str(arr.dtype)], tuple(arr.shape), arr.reshape(-1).tolist()


# (show's label, the profile, the interpreter the one-liner names) per library, per generation.
GENERATIONS = {1: ((("NumPy", "numpy"), ("torch", "torch")), "/usr/bin/python3"),
               2: ((("NumPy 2", "numpy2"), ("torch 2", "torch2")), ".venv/oracles/bin/python")}


def generation():
    """The generation of this interpreter's NumPy: 1 or 2."""
    import numpy
    return 2 if int(numpy.__version__.split(".")[0]) >= 2 else 1


def run_one_liner(line):
    """What the one-liner printed, or the exception it raised."""
    m = re.match(r'^%s -c "(.*)"$' % re.escape(GENERATIONS[generation()][1]), line)
    if not m:
        raise ValueError("not a one-liner: %s" % line[:80])
    got = []
    ns = {"print": lambda *a: got.append(a[0]), "repr": lambda x: x}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")   # NumPy's divide-by-zero warnings are expected here
            exec(m.group(1), ns)   # noqa: S102 - the code bcast-run wrote for this case
    except Exception as e:     # the library raised: compared with an expected error
        return e
    return got[0] if got else None


def check_case(cid, case, lines):
    """'' when both one-liners reproduce the case, else why not; None to skip."""
    why = []
    for lib, prof in GENERATIONS[generation()][0]:
        if lib.startswith("torch") and "torch-simd" in case["tags"]:
            continue   # the expectation is torch's scalar path; the one-liner runs its vector path (B21)
        if lib.startswith("torch") and "torch-invalid" in case["tags"]:
            continue   # torch's answer is not a valid result, so the case carries NumPy's for both (gen/builder.py)
        exp = case["expect"].get(prof) or case["expect"].get("*")
        line = lines.get(lib)
        if exp is None or line is None or "too large for a one-liner" in line:
            continue
        kind, dt, shape, cmp, vals = exp
        if kind == "ok" and vals is None:
            continue   # a digest: the values are not in the case file
        got = run_one_liner(line)
        if kind == "grads":   # the one-liner printed the tuple of gradients, in input order
            grads = dt
            if isinstance(got, Exception) or not isinstance(got, tuple) or len(got) != len(grads):
                why.append("%s: expected %d gradients, got %r" % (lib, len(grads), got))
                continue
            for (name, gdt, gshape, gcmp, gvals), obj in zip(grads, got):
                if gvals is None:
                    continue
                pdt, pshape, pvals = produced(obj)
                if pdt != gdt or pshape != parse_shape(gshape):
                    why.append("%s: gradient of %s is %s %s, expected %s %s" % (lib, name, pdt, pshape, gdt, gshape))
                    continue
                want = [value_of(t, gdt) for t in gvals]
                bad = [i for i, (a, b) in enumerate(zip(want, pvals)) if not same(a, float(b), gdt, gcmp)]
                if bad:
                    why.append("%s: gradient of %s: %d values differ, first at flat %d: expected %r, got %r"
                               % (lib, name, len(bad), bad[0], want[bad[0]], pvals[bad[0]]))
            continue
        if kind == "error":
            if not isinstance(got, Exception):
                why.append("%s: expected an error, the one-liner gave %s" % (lib, type(got).__name__))
            continue
        if isinstance(got, Exception):
            why.append("%s: raised %s: %s" % (lib, type(got).__name__, " ".join(str(got).split())[:100]))
            continue
        gdt, gshape, gvals = produced(got)
        if dt != "-" and gdt != dt or gshape != parse_shape(shape):
            why.append("%s: got %s %s, expected %s %s" % (lib, gdt, gshape, dt, shape))
            continue
        want = [value_of(t, dt) for t in vals]
        bad = [i for i, (a, b) in enumerate(zip(want, gvals)) if not same(a, float(b) if dt in ("f32", "f64") else int(b), dt, cmp)]
        if bad:
            i = bad[0]
            why.append("%s: %d values differ, first at flat %d: expected %r, got %r" % (lib, len(bad), i, want[i], gvals[i]))
    return "; ".join(why)


def show(build, cid, path):
    r = subprocess.run([os.path.join(build, "bcast-run"), "show", cid, path], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, check=False)
    lines = {}
    for l in r.stdout.decode("utf-8", "replace").split("\n"):
        for lib, _ in GENERATIONS[generation()][0]:
            if l.startswith(lib + ": "):
                lines[lib] = l[len(lib) + 2:]
    return lines


def main(argv):
    build = argv[1] if len(argv) > 1 else "build"
    every = int(argv[2]) if len(argv) > 2 else 97
    try:
        import numpy  # noqa: F401
        import torch  # noqa: F401
    except ImportError:
        print("SKIP oneliners: NumPy and torch are not importable by %s" % sys.executable)
        print("0 passed, 0 failed, 1 skipped")
        return 0
    files = sorted(os.path.join(ROOT, "cases", f) for f in os.listdir(os.path.join(ROOT, "cases"))
                   if f.endswith(".cases") and f != "large.cases")
    cases = read_cases(files)
    ids = sorted(cases)
    sample = [c for i, c in enumerate(ids) if i % every == 0] + [c for c in EXTRA if c in cases]
    passed = failed = skipped = 0
    for cid in sample:
        lines = show(build, cid, cases[cid]["file"])
        if not lines:
            skipped += 1
            continue
        why = check_case(cid, cases[cid], lines)
        if why:
            failed += 1
            print("FAIL %s: %s" % (cid, why))
        else:
            passed += 1
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
