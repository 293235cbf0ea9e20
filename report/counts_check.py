#!/usr/bin/env python3
"""counts_check.py - keeps the case counts a target's write-up states in step with its expectations file (`make test`).

The convention it checks (report/README.md, "Counts in expectations files and FINDINGS.md"):

- An expectations file's family block opens with a comment line that states its size,
  `# N cases: REASON` (curated; `# N cases (LABEL): REASON` too) or `# N x fail ...`
  (written by bcast-run --write-expectations and grouped by hand). The block's entries
  run to the next such line, and there must be exactly N of them.
- A FINDINGS.md family table is a table whose first header cell starts with `family`.
  Each row states the family's size in its `count` (or `cases`) column, when the table has
  one, as a leading number; else its first cell states it as the first parenthesised group
  after its name, `NAME (N...)`: N (e.g. `overflow (15)`, `result dtype (2,854)`), `N + M`
  (two blocks), or `LABEL N, LABEL M` for a FINDINGS.md two targets share (eigen,
  eigen-ndebug: the label is the registry name's last word). Each such N must be the
  stated size of a block of that target's expectations file (of one of the targets, for an
  unlabelled count in a shared FINDINGS.md). A row that states no number (a behaviour that
  passes, say) is not checked.

Usage: counts_check.py [REGISTRY]   (from the repository root; default targets/registry.tsv)
Prints one line per mismatch, then "N passed, N failed" (one check per block and per stated count).
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import runs                # noqa: E402

BLOCK = re.compile(r"#\s*([\d,]+)\s+(?:cases?(?:\s*\([^)]*\))?:|x\s)")
SYMPTOM = re.compile(r"#\s+[\d,]+ of them")
# A block as bcast-run --write-expectations heads it: "# F3: NAME...: 156 cases, OPS; DTYPES".
RUNNER_BLOCK = re.compile(r"#\s*(F\d+):.*:\s*(\d[\d,]*) cases?,")
# A family cell that names the blocks it sums: "(970: F2-F5, F14)".
BLOCK_IDS = re.compile(r"^(.*):\s*(F\d+(?:-F\d+)?(?:\s*,\s*F\d+(?:-F\d+)?)*)$")
FAMILY_CELL = re.compile(r"^[^(]*\(([^()]*)\)")
NUMBER = r"\d[\d,]*"


def number(text):
    return int(text.replace(",", ""))


def blocks(path):
    """[(stated size, entries, line number)] for each family block of an expectations file.
    A block is a comment group that states a size and the entries after it, up to the next
    group that states one. A group after a blank line that states none (e.g. a later
    `# hand family:` section of another suite) ends it too, and its entries are not counted;
    a group right after an entry (a `# hand family:` marker splitting the block) or one that
    opens with `#   N of them` (a symptom of the block) continues it. A block headed the
    way bcast-run writes it (`# F3: ...: N cases, ...`) also carries its finding id."""
    return [tuple(b[:3]) for b in _blocks(path)]


def block_ids(path):
    """{finding id: stated size} of the blocks bcast-run headed (`# F3: ...: N cases, ...`)."""
    return {b[3]: b[0] for b in _blocks(path) if b[3]}


def _blocks(path):
    out, current, prev = [], None, "blank"
    with open(path, encoding="utf-8") as fh:
        for i, line in enumerate(fh, 1):
            kind = "comment" if line.startswith("#") else "entry" if line.strip() else "blank"
            m, r = BLOCK.match(line), RUNNER_BLOCK.match(line)
            if m or r:
                current = [number(m.group(1)), 0, i, None] if m else [number(r.group(2)), 0, i, r.group(1)]
                out.append(current)
            elif kind == "comment" and prev == "blank" and not SYMPTOM.match(line):
                current = None
            elif kind == "entry" and current is not None:
                current[1] += 1
            prev = kind
    return out


def cited_blocks(cell):
    """(cell without the ids, [finding ids]) when a family cell names the blocks it sums,
    as in "name (970: F2-F5, F14)"; (cell, []) otherwise. F2-F5 is F2, F3, F4, F5."""
    m = FAMILY_CELL.match(cell)
    ids = BLOCK_IDS.match(m.group(1).strip()) if m else None
    if not ids:
        return cell, []
    out = []
    for part in re.split(r"\s*,\s*", ids.group(2)):
        lo, _, hi = part.partition("-")
        out += ["F%d" % k for k in range(int(lo[1:]), int((hi or lo)[1:]) + 1)]
    return cell[:m.start(1)] + ids.group(1) + ")", out


def stated_counts(cell):
    """[(label or '', N)] from a family row's first cell; [] when it states none."""
    m = FAMILY_CELL.match(cell)
    if not m:
        return []
    inner = m.group(1).strip()
    labelled = re.findall(r"([A-Za-z][\w-]*)\s+(%s)(?=\s*(?:,|$))" % NUMBER, inner)
    if labelled and re.fullmatch(r"[A-Za-z][\w-]*\s+%s(\s*,\s*[A-Za-z][\w-]*\s+%s)*" % (NUMBER, NUMBER), inner):
        return [(label, number(n)) for label, n in labelled]
    m = re.match(r"(%s(?:\s*\+\s*%s)*)(?![\d,]*\d)" % (NUMBER, NUMBER), inner)
    return [("", number(n)) for n in re.split(r"\s*\+\s*", m.group(1))] if m else []


def family_rows(path):
    """[(line number, text stating the count)] of every row of the FINDINGS.md family tables:
    the row's `count` (or `cases`) cell, as `(N ...)`, when the table has that column, else
    its first cell."""
    rows, col = [], None
    with open(path, encoding="utf-8") as fh:
        for i, line in enumerate(fh, 1):
            if not line.startswith("|"):
                col = None
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0].startswith("---"):
                continue
            if cells[0].lower().startswith("family"):
                heads = [c.lower() for c in cells]
                col = next((k for k, h in enumerate(heads) if h in ("count", "cases")), 0)
            elif col is not None and col < len(cells):
                if col == 0:
                    rows.append((i, cells[0]))
                else:                    # "536 (add 184, ...)" states 536
                    m = re.match(NUMBER, cells[col])
                    rows.append((i, "%s (%s)" % (cells[0].replace("(", "[").replace(")", "]"), m.group(0) if m else "")))
    return rows


def check(entries):
    """(passed, failures) over the registry entries: every block's size, every stated count."""
    passed, bad, by_notes = 0, [], {}
    for e in entries:
        exp = e["expectations"]
        if not exp or not os.path.isfile(exp):
            continue
        sizes = []
        for stated, n, line in blocks(exp):
            sizes.append(stated)
            if stated == n:
                passed += 1
            else:
                bad.append("%s:%d: the block says %d cases and holds %d entries" % (exp, line, stated, n))
        notes = e["notes"] or os.path.join(os.path.dirname(exp), "FINDINGS.md")
        if os.path.isfile(notes):
            by_notes.setdefault(notes, []).append((e["name"], exp, sizes))
    for notes, targets in sorted(by_notes.items()):
        for line, cell in family_rows(notes):
            cell, ids = cited_blocks(cell)
            if ids:
                ok, msg = _check_cited(cell, ids, targets)
                passed += ok
                bad += [] if ok else ["%s:%d: %s" % (notes, line, msg)]
                continue
            for label, n in stated_counts(cell):
                chosen = [t for t in targets if not label or t[0].split("-")[-1] == label]
                if not chosen:
                    bad.append("%s:%d: %r names no target (%s)" % (notes, line, label, ", ".join(t[0] for t in targets)))
                elif any(n in t[2] for t in chosen):   # a shared FINDINGS.md has a table per target
                    passed += 1
                else:
                    bad.append("%s:%d: %s states %d cases, and no block of %s says %d" % (
                        notes, line, cell[:60], n, " or ".join(t[1] for t in chosen), n))
    return passed, bad


def _check_cited(cell, ids, targets):
    """(True, '') when the count a family cell states (summed: "502 + 12") is the total of
    the blocks it cites in its one target's expectations file; (False, why) otherwise."""
    counts = stated_counts(cell)
    if not counts or len(targets) != 1:
        return False, "%s cites blocks %s but states no count, or its FINDINGS.md serves %d targets" % (
            cell[:60], ",".join(ids), len(targets))
    known = block_ids(targets[0][1])
    missing = [i for i in ids if i not in known]
    if missing:
        return False, "%s cites %s, which %s has no block for" % (cell[:60], ",".join(missing), targets[0][1])
    stated, total = sum(n for _, n in counts), sum(known[i] for i in ids)
    if stated != total:
        return False, "%s states %d cases, and its blocks %s in %s hold %d" % (
            cell[:60], stated, ",".join(ids), targets[0][1], total)
    return True, ""


def main(argv):
    passed, bad = check(runs.read_registry(argv[0] if argv else "targets/registry.tsv"))
    for b in bad:
        print("FAIL: " + b)
    print("%d passed, %d failed" % (passed, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
