"""merge_generations.py - merges two generations' case files into one record per case (four oracles).

    python3 gen/merge_generations.py GEN1_DIR GEN2_DIR OUT_DIR SUITE...

GEN1_DIR holds the suites as gen/make_cases.py wrote them under NumPy 1.24 and
torch 1.13 (profiles numpy, torch), GEN2_DIR the same suites under NumPy 2 and
torch 2 (written with the same profile names, read here as numpy2, torch2).
Standard library only; deterministic (the output depends on the inputs only).
Per case (docs/case-format.md, "Cases from four oracles"):

- source names every oracle that ran: gen-1's words, then gen-2's with
  numpy -> numpy2 and torch -> torch2 (`rule` stays `rule`: ref's own rule,
  applied through each generation's NumPy);
- all four profiles expect the same outcome: one `expect *` set (gen-1's
  lines); otherwise a complete set per profile, numpy torch numpy2 torch2;
- tag `generation-changed` when numpy != numpy2 or torch != torch2; rule
  B32 (NEP 50) or B33 (64 dims) is cited when NumPy's change has that cause;
- `message` lines keep one per library: numpy, torch, numpy2, torch2;
- a case only one generation wrote (an oracle's result has no dtype of the
  8 there) keeps only that generation's expectations.
Outcomes compare as text, except `ulp N [abs A]` results, whose values may
differ by that much (gen-1's values are then written for all four).
"""

import math
import os
import struct
import sys
from collections import OrderedDict

PROFILES = ("numpy", "torch", "numpy2", "torch2")
GEN2_NAME = {"numpy": "numpy2", "torch": "torch2"}
HEAD_KEYS = ("suite", "tags", "rules", "op", "mode", "source")


class MergeError(Exception):
    """The two generations' files do not describe the same cases."""


class Record:
    """One case as text: comments, head fields, body (attr/arg/data lines),
    expectation sets per profile (gen-local names) and messages."""

    def __init__(self, case_id):
        self.id = case_id
        self.comments = []
        self.head = {}
        self.body = []
        self.expects = []        # [(profile, [lines])]: each expect line with its data line
        self.messages = OrderedDict()

    def outcome(self, profile):
        """The lines (without `expect PROFILE`) that apply under profile, in order."""
        out = []
        for p, lines in self.expects:
            if p in ("*", profile):
                out.append(lines[0].split(None, 2)[2])
                out.extend(lines[1:])
        return out


def read_records(path):
    """(header lines, OrderedDict id -> Record) of one .cases file."""
    header, recs, cur = [], OrderedDict(), None
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if cur is None:
                if line.startswith("case "):
                    cur = Record(line[5:])
                    if cur.id in recs:
                        raise MergeError("%s:%d: duplicate case %s" % (path, no, cur.id))
                elif line and not recs:
                    header.append(line)
                continue
            key = line.split(" ", 1)[0]
            if line == "end":
                recs[cur.id], cur = cur, None
            elif line.startswith("# "):
                cur.comments.append(line[2:])
            elif key in HEAD_KEYS:
                cur.head[key] = line[len(key) + 1:]
            elif key == "expect":
                cur.expects.append((line.split()[1], [line]))
            elif key in ("values", "digest") and cur.expects:   # an expectation's data line
                cur.expects[-1][1].append(line)
            elif key == "message":
                lib, _, text = line[8:].partition(" ")
                cur.messages[lib] = text
            else:
                cur.body.append(line)
    if cur is not None:
        raise MergeError("%s: case %s has no end line" % (path, cur.id))
    return header, recs


def _bits(token, dtype):
    """A float token's bit pattern on a monotonic integer line (for ulp distances)."""
    x = float.fromhex(token) if "0x" in token else float(token)
    if dtype == "f32":
        u = struct.unpack("<i", struct.pack("<f", x))[0]
        return u if u >= 0 else -(u + (1 << 31))
    u = struct.unpack("<q", struct.pack("<d", x))[0]
    return u if u >= 0 else -(u + (1 << 63))


def _close(a, b, dtype, ulp, abs_tol):
    """Whether two value tokens agree within ulp units in the last place or abs_tol."""
    if a == b:
        return True
    if dtype not in ("f32", "f64") or "nan" in (a, b) or "inf" in a or "inf" in b:
        return False
    fa = float.fromhex(a) if "0x" in a else float(a)
    fb = float.fromhex(b) if "0x" in b else float(b)
    return abs(_bits(a, dtype) - _bits(b, dtype)) <= ulp or abs(fa - fb) <= abs_tol


def _tolerance(head):
    """(dtype, ulp, abs) of an ok/grad line's comparison, or None when exact."""
    t = head.split()
    k = 1 if t[0] == "ok" else 2
    dtype, cmp = t[k], t[k + 2:]
    if not cmp or cmp[0] != "ulp":
        return None
    return dtype, int(cmp[1]), float.fromhex(cmp[3]) if len(cmp) > 3 and "0x" in cmp[3] else \
        float(cmp[3]) if len(cmp) > 3 else 0.0


def same_outcome(a, b):
    """Whether two profiles' outcome lines agree: equal text, or equal but for
    values within the line's `ulp N [abs A]` tolerance."""
    if a == b:
        return True
    if len(a) != len(b):
        return False
    tol = None
    for la, lb in zip(a, b):
        if la.startswith(("ok ", "grad ", "error ")):
            if la != lb:
                return False
            tol = _tolerance(la) if not la.startswith("error ") else None
        elif la != lb:
            if tol is None or not la.startswith("values ") or not lb.startswith("values "):
                return False
            ta, tb = la.split()[1:], lb.split()[1:]
            if len(ta) != len(tb) or not all(_close(x, y, *tol) for x, y in zip(ta, tb)):
                return False
    return True


def _source(r1, r2):
    """The merged source line: every oracle of both generations."""
    words = list(r1.head["source"].split()) if r1 else []
    for w in (r2.head["source"].split() if r2 else ()):
        w = GEN2_NAME.get(w, w)
        if w not in words:
            words.append(w)
    return " ".join(words)


def _max_rank(lines):
    """The largest rank among shape tokens `(...)` in lines (args and results)."""
    best = 0
    for line in lines:
        for tok in line.split():
            if tok.startswith("(") and tok.endswith(")") and tok != "()":
                best = max(best, tok.count(",") + (0 if tok.endswith(",)") else 1))
    return best


def _cause_rules(r1, o1, o2):
    """Rule ids that explain NumPy's change between generations: B33 when a
    shape has more than 32 dims, else B34 when an operand is a weak scalar,
    else B32 when an operand is 0-d (NEP 50)."""
    if same_outcome(o1, o2):
        return set()
    if _max_rank(r1.body + o1 + o2) > 32:
        return {"B33"}
    if any(l.startswith("arg ") and l.split()[2].startswith("weak-") for l in r1.body):
        return {"B34"}   # a weak scalar operand (docs/case-format.md, weak scalars): its own rule
    if any(l.startswith("arg ") and l.split()[3] == "()" and l.split()[2] != "-" for l in r1.body):
        return {"B32"}
    return set()


def _check_same_case(r1, r2):
    for key in ("suite", "op", "mode"):
        if r1.head.get(key) != r2.head.get(key):
            raise MergeError("case %s: %s differs between generations" % (r1.id, key))
    if r1.body != r2.body:
        raise MergeError("case %s: args or attrs differ between generations" % r1.id)


def merge_record(r1, r2):
    """The merged record's lines (see the module doc); r1 or r2 may be None."""
    base = r1 or r2
    outs = {}
    if r1:
        outs.update((p, r1.outcome(p)) for p in ("numpy", "torch"))
    if r2:
        outs.update((GEN2_NAME[p], r2.outcome(p)) for p in ("numpy", "torch"))
    tags = set(base.head["tags"].split())
    rules = set(base.head["rules"].split())
    comments = list(base.comments)
    if r1 and r2:
        _check_same_case(r1, r2)
        tags |= set(r2.head["tags"].split())
        rules |= set(r2.head["rules"].split())
        comments += [c for c in r2.comments if c not in comments]
        if not same_outcome(outs["numpy"], outs["numpy2"]) or not same_outcome(outs["torch"], outs["torch2"]):
            tags.add("generation-changed")
            rules |= _cause_rules(r1, outs["numpy"], outs["numpy2"])
    lines = ["case " + base.id] + ["# " + c for c in comments]
    lines.append("suite " + base.head["suite"])
    lines.append(" ".join(["tags"] + sorted(tags)))
    lines.append(" ".join(["rules"] + sorted(rules, key=lambda r: int(r[1:]))))
    lines += ["op " + base.head["op"], "mode " + base.head["mode"], "source " + _source(r1, r2)]
    lines += base.body
    lines += _expect_lines(r1, r2, outs)
    for rec, names in ((r1, {}), (r2, GEN2_NAME)):
        for lib, text in (rec.messages.items() if rec else ()):
            lines.append("message %s %s" % (names.get(lib, lib), text))
    lines.append("end")
    return lines


def _expect_lines(r1, r2, outs):
    """One `expect *` set when every profile present agrees, else a set per profile."""
    present = [p for p in PROFILES if p in outs]
    if not (r1 and r2):   # one generation only: its own lines, profile names mapped
        rec, names = (r1, {}) if r1 else (r2, GEN2_NAME)
        return ["expect %s %s" % (names.get(p, p), ls[0].split(None, 2)[2]) if i == 0 else ls[i]
                for p, ls in rec.expects for i in range(len(ls))]
    if all(same_outcome(outs[present[0]], outs[p]) for p in present[1:]):
        return _tagged("*", outs[present[0]])
    out = []
    for p in present:
        out += _tagged(p, outs[p])
    return out


def _tagged(profile, outcome):
    """Outcome lines with `expect PROFILE ` before each expect line."""
    return ["expect %s %s" % (profile, l) if l.split(" ", 1)[0] in ("ok", "grad", "error") else l
            for l in outcome]


def merge_suite(path1, path2, out_path):
    """Merges one suite's two files into out_path (ids sorted as make_cases
    sorts them); returns (cases, generation-changed cases)."""
    have1, have2 = os.path.exists(path1), os.path.exists(path2)
    if not have1 and not have2:
        return 0, 0
    h1, recs1 = read_records(path1) if have1 else ([], OrderedDict())
    h2, recs2 = read_records(path2) if have2 else ([], OrderedDict())
    header = [l for l in (h1 or h2) if not l.startswith("# suite ")]
    ids = sorted(set(recs1) | set(recs2))
    changed = 0
    with open(out_path + ".tmp", "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(header) + "\n")
        f.write("# suite %s: %d cases\n" % (os.path.basename(out_path)[:-6], len(ids)))
        for cid in ids:
            lines = merge_record(recs1.get(cid), recs2.get(cid))
            changed += any(l.startswith("tags ") and "generation-changed" in l.split() for l in lines)
            f.write("\n" + "\n".join(lines) + "\n")
    os.replace(out_path + ".tmp", out_path)
    return len(ids), changed


def main(argv):
    if len(argv) < 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    gen1, gen2, out, suites = argv[0], argv[1], argv[2], argv[3:]
    os.makedirs(out, exist_ok=True)
    for s in suites:
        n, changed = merge_suite(os.path.join(gen1, s + ".cases"), os.path.join(gen2, s + ".cases"),
                                 os.path.join(out, s + ".cases"))
        if n:
            print("%-11s %6d cases, %5d generation-changed" % (s, n, changed))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except MergeError as e:
        print("merge_generations: error: %s" % e, file=sys.stderr)
        sys.exit(1)
