#!/usr/bin/python3
"""check_semantics_examples.py - runs every example of docs/semantics.md through NumPy and torch.

Each ```pycon block in docs/semantics.md is a doctest: the `>>>` lines are run
with `np` (numpy) and `torch` in scope and their printed output, or the
exception type and its exact message, must match what the block says. So no
outcome in that document is typed from memory: a block that disagrees with the
installed libraries fails here.

The document states the behaviour of NumPy 1.24 and torch 1.13 (the Debian 12
packages). With other versions the outcomes legitimately differ (NumPy 2's
NEP 50 promotion, newer torch messages), so the check then reports a clear
skip instead of failures.

Usage: /usr/bin/python3 gen/check_semantics_examples.py [-v] [PATH]
Last line: "N passed, N failed" (", N skipped" when skipped). Exit 1 on failure.
"""
import doctest
import os
import re
import sys
import warnings

DOC_VERSIONS = {"numpy": "1.24", "torch": "1.13"}
DEFAULT_DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "semantics.md")

FENCE_OPEN = re.compile(r"^```pycon\s*$")
FENCE_CLOSE = re.compile(r"^```\s*$")
HEADING = re.compile(r"^#+\s+(B\d+)\b")


def skip(reason):
    print("skipped: " + reason)
    print("0 passed, 0 failed, 1 skipped")
    sys.exit(0)


def blocks(text):
    """Yields (rule id or '-', first line number, block text) for each pycon block."""
    rule, inside, start, lines = "-", False, 0, []
    for n, line in enumerate(text.splitlines(), 1):
        if not inside:
            m = HEADING.match(line)
            if m:
                rule = m.group(1)
            elif FENCE_OPEN.match(line):
                inside, start, lines = True, n + 1, []
        elif FENCE_CLOSE.match(line):
            inside = False
            yield rule, start, "\n".join(lines) + "\n"
        else:
            lines.append(line)
    if inside:
        raise SystemExit("error: unterminated ```pycon block starting at line %d" % (start - 1))


def main(argv):
    verbose = "-v" in argv
    paths = [a for a in argv if a != "-v"]
    path = paths[0] if paths else DEFAULT_DOC
    try:
        import numpy as np
        import torch
    except ImportError as e:
        skip("numpy/torch not importable by %s (%s); install python3-numpy python3-torch" % (sys.executable, e))
    for name, mod in (("numpy", np), ("torch", torch)):
        have = ".".join(mod.__version__.split(".")[:2])
        if have != DOC_VERSIONS[name]:
            skip("docs/semantics.md describes %s %s, this is %s" % (name, DOC_VERSIONS[name], mod.__version__))
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
    for rule, line, src in blocks(text):
        name = "%s:%d (%s)" % (os.path.basename(path), line, rule)
        test = parser.get_doctest(src, {"np": np, "torch": torch}, name, path, line - 1)
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
        print("error: no ```pycon blocks found in " + path)
        failed = 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
