"""patch.py - writes one seeded-bug variant's changed ref/ file (tests/seeded/variants.txt).

    python3 tests/seeded/patch.py NAME OUTDIR

Copies the variant's file to OUTDIR with its one line changed and prints the
file's path (e.g. ref/ops.c). Exits 1 naming the problem when the variant is
unknown or its `from` line does not match exactly one line.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def variants(path=os.path.join(HERE, "variants.txt")):
    """Every record of the variants file as a dict (name, file, models, from, to)."""
    out, cur = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            key, _, val = line.partition(" ")
            if key == "name":
                cur = {"name": val}
                out.append(cur)
            elif cur is not None and key in ("file", "models", "from", "to"):
                cur[key] = val
            else:
                raise SystemExit("variants.txt: unexpected line: %s" % line)
    for v in out:
        missing = {"file", "models", "from", "to"} - set(v)
        if missing:
            raise SystemExit("variants.txt: %s lacks %s" % (v["name"], ", ".join(sorted(missing))))
    return out


def squash(s):
    return " ".join(s.split())


def apply(v, root):
    """The variant's file text with its one line replaced."""
    with open(os.path.join(root, v["file"]), encoding="utf-8") as f:
        lines = f.read().split("\n")
    hits = [i for i, l in enumerate(lines) if squash(l) == squash(v["from"])]
    if len(hits) != 1:
        raise SystemExit("seeded variant %s: its `from` line matches %d lines of %s (must be 1)"
                         % (v["name"], len(hits), v["file"]))
    i = hits[0]
    indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
    lines[i] = indent + v["to"]
    return "\n".join(lines)


def main(argv):
    if len(argv) != 2:
        raise SystemExit("usage: patch.py NAME OUTDIR")
    name, outdir = argv
    found = [v for v in variants() if v["name"] == name]
    if not found:
        raise SystemExit("seeded variant %s: not in tests/seeded/variants.txt" % name)
    text = apply(found[0], os.getcwd())
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, os.path.basename(found[0]["file"])), "w", encoding="utf-8") as f:
        f.write(text)
    print(found[0]["file"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
