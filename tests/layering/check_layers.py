#!/usr/bin/env python3
"""check_layers.py - runner/'s layer rule, file-level circles, and function length (issue 27).

    python3 tests/layering/check_layers.py [ROOT]        check the tree at ROOT (default .)
    python3 tests/layering/check_layers.py --self-test   the checks must catch tests/layering/bad/

Three checks, each printing PASS/FAIL lines, ending in "N passed, N failed":
  includes   every quoted #include in runner/ names its folder ("case/caseio.h")
             and points down the LAYERS table below (or at include/);
  circles    no circle of includes between runner/'s modules (x.c and x.h are
             one module), so no two files call each other;
  length     no C or Python function in runner/, ref/, targets/, gen/ is over
             MAX_LINES lines (first line to closing brace, or def to last line).
"""
import ast
import os
import re
import sys

# The one rule table (docs/runner.md "Layers"): a folder of runner/ and the
# folders its files may include, besides itself and include/.
LAYERS = {
    "base": [],
    "case": ["base"],
    "target": ["case", "base"],
    "isolate": ["target", "case", "base"],
    "results": ["case", "base"],
    "judge": ["results", "isolate", "target", "case", "base"],
    "explore": ["judge", "results", "isolate", "target", "case", "base"],
    "cli": ["explore", "judge", "results", "isolate", "target", "case", "base"],
    "tests": ["cli", "explore", "judge", "results", "isolate", "target", "case", "base"],
}
MAX_LINES = 80
LENGTH_DIRS = ("runner", "ref", "targets", "gen")
SKIP_DIRS = {"node_modules", "__pycache__", ".git"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def runner_files(root):
    """Paths (relative to root/runner) of every .c and .h file under runner/."""
    base = os.path.join(root, "runner")
    out = []
    for d, dirs, names in os.walk(base):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
        for n in sorted(names):
            if n.endswith((".c", ".h")):
                out.append(os.path.relpath(os.path.join(d, n), base))
    return out


def includes(root, rel):
    """The quoted includes of runner/rel, as written."""
    with open(os.path.join(root, "runner", rel), encoding="utf-8") as f:
        return INCLUDE.findall(f.read())


def check_includes(root, files):
    """Problems with runner/'s includes: a bare or unknown name, or an arrow
    that goes up or sideways in LAYERS. Returns a list of messages."""
    problems = []
    known = set(files)
    public = set(os.listdir(os.path.join(root, "include"))) if os.path.isdir(os.path.join(root, "include")) else set()
    for rel in files:
        folder = rel.split(os.sep)[0]
        if folder not in LAYERS:
            problems.append("runner/%s: folder '%s' is not in the layer table" % (rel, folder))
            continue
        for inc in includes(root, rel):
            if inc in public or (folder == "tests" and "/" not in inc and os.path.exists(os.path.join(root, "tests", inc))):
                continue
            if inc not in known:
                problems.append("runner/%s: #include \"%s\" names no runner/ file with its folder" % (rel, inc))
                continue
            to = inc.split("/")[0]
            if to != folder and to not in LAYERS[folder]:
                problems.append("runner/%s: #include \"%s\": %s/ may not include %s/ (allowed: %s)"
                                % (rel, inc, folder, to, ", ".join(LAYERS[folder]) or "base only itself"))
    return problems


def module(rel):
    """A file's module: its path without .c/.h (x.c and x.h are one)."""
    return os.path.splitext(rel)[0]


def find_circles(root, files):
    """Strongly connected sets of more than one module in the include graph
    (Tarjan). Returns a list of sorted module lists."""
    known = set(files)
    graph = {}
    for rel in files:
        edges = graph.setdefault(module(rel), set())
        for inc in includes(root, rel):
            if inc in known and module(inc) != module(rel):
                edges.add(module(inc))
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def strip_c(text):
    """C source with comments, strings and character literals blanked (newlines kept)."""
    pat = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return pat.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def c_functions(text):
    """(name, first line, last line) of each function definition at file
    scope: a top-level brace block whose opening follows a parameter list."""
    src = strip_c(text)
    out, depth, line, start = [], 0, 1, None
    head_re = re.compile(r"(\w+)\s*\([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*\)\s*$")
    for i, ch in enumerate(src):
        if ch == "\n":
            line += 1
        elif ch == "{":
            if depth == 0:
                head = src[max(0, i - 2000):i]
                m = head_re.search(head)
                start = (m.group(1), line - m.group(0).count("\n")) if m else None
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0 and start:
                out.append((start[0], start[1], line))
                start = None
    return out


def py_functions(text):
    """(name, first line, last line) of every function and method."""
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            out.append((node.name, first, node.end_lineno))
    return out


def long_functions(root, dirs=LENGTH_DIRS):
    """'path:line: name is N lines' for each function over MAX_LINES lines."""
    out = []
    for top in dirs:
        for d, subdirs, names in os.walk(os.path.join(root, top)):
            subdirs[:] = sorted(x for x in subdirs if x not in SKIP_DIRS)
            for n in sorted(names):
                path = os.path.join(d, n)
                if n.endswith((".c", ".h", ".cpp", ".cc")):
                    funcs = c_functions(open(path, encoding="utf-8", errors="replace").read())
                elif n.endswith(".py"):
                    funcs = py_functions(open(path, encoding="utf-8").read())
                else:
                    continue
                for name, first, last in funcs:
                    if last - first + 1 > MAX_LINES:
                        out.append("%s:%d: %s is %d lines (at most %d)"
                                   % (os.path.relpath(path, root), first, name, last - first + 1, MAX_LINES))
    return out


def report(name, problems, tally):
    """Prints PASS/FAIL name (and each problem), counting into tally."""
    print(("PASS " if not problems else "FAIL ") + name)
    for p in problems:
        print("  " + p)
    tally[0 if not problems else 1] += 1


def check_tree(root, tally):
    """The three checks on the tree at root."""
    files = runner_files(root)
    report("includes follow the layer table", check_includes(root, files), tally)
    report("no circle between runner/ modules",
           ["circle: " + " <-> ".join(c) for c in find_circles(root, files)], tally)
    report("no function over %d lines" % MAX_LINES, long_functions(root), tally)


def self_test(tally):
    """Each check must fail on tests/layering/bad/, a tree with one of each flaw."""
    bad = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bad")
    files = runner_files(bad)
    probs = check_includes(bad, files)
    report("self-test: an upward include is caught",
           [] if any("case/ may not include judge/" in p for p in probs) else ["not caught: %s" % probs], tally)
    report("self-test: a bare include is caught",
           [] if any("names no runner/ file" in p for p in probs) else ["not caught: %s" % probs], tally)
    circles = find_circles(bad, files)
    report("self-test: a circle is caught",
           [] if ["judge/a", "judge/b"] in circles else ["not caught: %s" % circles], tally)
    longs = long_functions(bad, ("runner", "gen"))
    want = ["runner/judge/b.c:", "gen/long.py:"]
    report("self-test: long C and Python functions are caught, short ones are not",
           [] if len(longs) == 2 and all(any(x.startswith(w) for x in longs) for w in want)
           else ["found: %s" % longs], tally)


def main(argv):
    """Runs the self-test or the checks; exit 1 when anything failed."""
    tally = [0, 0]
    if argv[1:2] == ["--self-test"]:
        self_test(tally)
    else:
        check_tree(argv[1] if len(argv) > 1 else ".", tally)
    print("%d passed, %d failed" % (tally[0], tally[1]))
    return 1 if tally[1] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
