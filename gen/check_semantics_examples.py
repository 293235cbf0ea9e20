#!/usr/bin/python3
"""check_semantics_examples.py - runs every example of docs/semantics.md through NumPy and torch.

Each ```pycon block in docs/semantics.md is a doctest: the `>>>` lines are run
with `np` (numpy) and `torch` in scope and their printed output, or the
exception type and its exact message, must match what the block says. So no
outcome in that document is typed from memory: a block that disagrees with the
installed libraries fails here.

The document states the behaviour of both generations of oracles: ```pycon
blocks that of NumPy 1.24 and torch 1.13 (the Debian 12 packages), ```pycon2
blocks that of NumPy 2.4 and torch 2.15 (.venv/oracles, `sh .ci/install-deps`).
The interpreter running the check decides which blocks run: its NumPy's
generation; with other versions than the document's the outcomes
legitimately differ, so the check then reports a clear skip instead of
failures.

The section "The Array API standard and NumPy 2" has ```pycon array-api
blocks instead, run with `xp` (array_api_strict) and `np` in scope under
.venv/targets/bin/python (array-api-strict 2.6 on NumPy 2.4, the
environment of `sh .ci/install-deps`): `--array-api` checks those, re-running
itself with that interpreter, and skips saying so when it is missing.

Usage: /usr/bin/python3 gen/check_semantics_examples.py [-v] [--array-api] [PATH]
       .venv/oracles/bin/python gen/check_semantics_examples.py [-v] [PATH]
Last line: "N passed, N failed" (", N skipped" when skipped). Exit 1 on failure.
"""
import doctest
import os
import re
import subprocess
import sys
import warnings

# The versions each generation's blocks were written for, and their fence.
DOC_VERSIONS = {1: {"numpy": "1.24", "torch": "1.13"}, 2: {"numpy": "2.4", "torch": "2.15"}}
FENCE = {1: "pycon", 2: "pycon2"}
ARRAY_API_FENCE = "pycon array-api"
ARRAY_API_VERSIONS = {"array_api_strict": "2.6", "numpy": "2.4"}
ARRAY_API_PYTHON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".venv", "targets", "bin", "python")
DEFAULT_DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "semantics.md")

FENCE_OPEN = re.compile(r"^```(pycon2?|pycon array-api)\s*$")
FENCE_CLOSE = re.compile(r"^```\s*$")
HEADING = re.compile(r"^#+\s+(B\d+)\b")


def skip(reason):
    print("skipped: " + reason)
    print("0 passed, 0 failed, 1 skipped")
    sys.exit(0)


def blocks(text, fence="pycon"):
    """Yields (rule id or '-', first line number, block text) for each block
    fenced ```FENCE (pycon: generation 1, pycon2: generation 2, pycon array-api:
    the Array API standard's section)."""
    rule, inside, start, lines, kind = "-", False, 0, [], None
    for n, line in enumerate(text.splitlines(), 1):
        if not inside:
            m = HEADING.match(line)
            if m:
                rule = m.group(1)
            elif line.startswith("#"):
                rule = "-"   # a heading that is no rule (Generation differences, The Array API standard)
            elif FENCE_OPEN.match(line):
                inside, start, lines, kind = True, n + 1, [], FENCE_OPEN.match(line).group(1)
        elif FENCE_CLOSE.match(line):
            inside = False
            if kind == fence:
                yield rule, start, "\n".join(lines) + "\n"
        else:
            lines.append(line)
    if inside:
        raise SystemExit("error: unterminated ```pycon block starting at line %d" % (start - 1))


def run_blocks(path, fence, globs, verbose):
    """Runs every block of path opened by fence as a doctest with globs; prints
    the totals and returns the exit status (1 on a failure or no block)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise SystemExit("error: cannot read %s: %s" % (path, e))

    warnings.simplefilter("ignore")  # NumPy's divide-by-zero RuntimeWarnings are not output
    parser = doctest.DocTestParser()
    flags = doctest.NORMALIZE_WHITESPACE  # NumPy ends some messages with a space
    runner = doctest.DocTestRunner(optionflags=flags, verbose=False)
    passed = failed = 0
    for rule, line, src in blocks(text, fence):
        name = "%s:%d (%s)" % (os.path.basename(path), line, rule)
        test = parser.get_doctest(src, dict(globs), name, path, line - 1)
        if not test.examples:
            continue
        before = runner.failures
        runner.run(test, out=sys.stdout.write, clear_globs=True)
        if runner.failures > before:
            failed += 1
            print("FAIL " + name)
        else:
            passed += 1
            if verbose:
                print("ok   %s (%d examples)" % (name, len(test.examples)))
    if passed + failed == 0:
        print("error: no ```%s blocks found in %s" % (fence, path))
        failed = 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def check_versions(modules, wanted, fence):
    """Skips (exits) unless each module's major.minor is the one the ```fence blocks describe."""
    for name, mod in modules:
        have = ".".join(mod.__version__.split("+")[0].split(".")[:2])
        if have != wanted[name]:
            skip("docs/semantics.md's ```%s blocks describe %s %s, this is %s"
                 % (fence, name, wanted[name], mod.__version__))


def main_array_api(argv, path, verbose):
    """--array-api: the ```pycon array-api blocks, under .venv/targets' interpreter."""
    try:
        import array_api_strict as xp
        import numpy as np
    except ImportError as e:
        # (a venv's python is a symlink to the system one: a variable, not the path, marks the re-run)
        if os.path.exists(ARRAY_API_PYTHON) and not os.environ.get("BCAST_ARRAY_API_RERUN"):
            env = dict(os.environ, BCAST_ARRAY_API_RERUN="1")
            return subprocess.call([ARRAY_API_PYTHON, os.path.abspath(__file__)] + argv, env=env)
        skip("array_api_strict not importable by %s (%s) and no %s; run sh .ci/install-deps"
             % (sys.executable, e, os.path.normpath(ARRAY_API_PYTHON)))
    check_versions((("array_api_strict", xp), ("numpy", np)), ARRAY_API_VERSIONS, ARRAY_API_FENCE)
    return run_blocks(path, ARRAY_API_FENCE, {"np": np, "xp": xp}, verbose)


def main(argv):
    verbose = "-v" in argv
    paths = [a for a in argv if a not in ("-v", "--array-api")]
    path = paths[0] if paths else DEFAULT_DOC
    if "--array-api" in argv:
        return main_array_api(argv, path, verbose)
    try:
        import numpy as np
        import torch
    except ImportError as e:
        skip("numpy/torch not importable by %s (%s); install python3-numpy python3-torch" % (sys.executable, e))
    gen = 2 if int(np.__version__.split(".")[0]) >= 2 else 1
    check_versions((("numpy", np), ("torch", torch)), DOC_VERSIONS[gen], FENCE[gen])
    return run_blocks(path, FENCE[gen], {"np": np, "torch": torch}, verbose)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
