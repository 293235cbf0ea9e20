"""edge_cases.py - the edge-case catalogue (reports/edge-cases.md, .html) generated from cases/.

For each category: its rules (id, title and the **Rule.** paragraph of
docs/semantics.md), 3 to 8 representative cases with NumPy's and torch's
outcome side by side (result dtype and shape, or the error class and the
exact message each library printed), and every case of the category tagged
`divergent`, grouped by what each library did. Divergent cases in no
category are listed at the end, so every divergence appears.
Representatives are chosen deterministically (see pick_representatives).
"""

import re

from casefile import expectation
from markup import Code, Link, code_block, details, heading, para, slug, table, to_html, to_markdown

MAX_REPS = 8


def _mixes_0d(c):
    """A 0-d operand next to an operand of higher rank: where NumPy 1.x's
    value-based casting makes promotion differ from the same-rank case."""
    shapes = [a["shape"] for a in c["args"] if a["dtype"] != "-"]
    return "()" in shapes and any(s != "()" for s in shapes)


# (title, rule ids, predicate over a case)
CATEGORIES = [
    ("Scalar and 0-d operands", ["B1"], lambda c: "scalar" in c["tags"]),
    ("Rank mismatch", ["B1"], lambda c: "rank-mismatch" in c["tags"]),
    ("1-stretching", ["B2", "B3"], lambda c: "stretch" in c["tags"]),
    ("Zero-size dimensions", ["B2", "B16"], lambda c: "zero-size" in c["tags"]),
    ("In-place failures and overlap", ["B8", "B9", "B22"],
     lambda c: c["mode"] in ("inplace", "out")
     and ("B9" in c["rules"] or any(e["kind"] == "error" for e in c["expects"]))),
    ("expand with -1", ["B6"],
     lambda c: c["op"] == "expand" and "-1" in re.split(r"[(),]", c["attrs"].get("shape", ""))),
    ("matmul batch rules", ["B12", "B13", "B14"], lambda c: c["op"] == "matmul"),
    ("Paddle axis (legacy axis broadcasting)", ["B10", "B11"], lambda c: c["op"] == "axis_add"),
    ("ONNX unidirectional broadcasting", ["B7"], lambda c: c["op"] == "uni_add"),
    ("Rank limits", ["B15"], lambda c: "B15" in c["rules"]),
    ("Promotion with 0-d operands", ["B18", "B19"],
     lambda c: c["suite"] == "promotion" and _mixes_0d(c)),
    ("Non-contiguous inputs", ["B17"], lambda c: "noncontiguous" in c["tags"]),
]
# Grad-mode cases form their own category (B23-B31); the others hold forward ops.
# mode "grad inplace" / "grad out" (B46) is grad mode too
CATEGORIES = [(t, r, (lambda p: lambda c: c["mode"].split(" ")[0] != "grad" and p(c))(p)) for t, r, p in CATEGORIES] + [
    ("The gradient of broadcasting", ["B23", "B24", "B26", "B27", "B31"], lambda c: c["mode"].split(" ")[0] == "grad"),
]


def read_rules(semantics_path):
    """{rule id: (title, rule text)} from docs/semantics.md's '## Bn Title' sections
    and their '**Rule.**' paragraphs."""
    rules, cur = {}, None
    with open(semantics_path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^## (B\d+) (.*)$", lines[i])
        if m:
            cur = m.group(1)
            rules[cur] = (m.group(2).strip(), "")
        elif cur and lines[i].startswith("**Rule.**") and not rules[cur][1]:
            para_lines = []
            while i < len(lines) and lines[i].strip():
                para_lines.append(lines[i].strip())
                i += 1
            text = " ".join(para_lines)[len("**Rule.**"):].strip()
            rules[cur] = (rules[cur][0], text)
            continue
        i += 1
    return rules


def short_shape(shape):
    """A shape, with long ones (rank-limit cases) abbreviated to their start and rank."""
    if len(shape) <= 32:
        return shape
    n = shape.count(",") + (0 if shape.endswith(",)") else 1)
    return "%s...) [rank %d]" % (shape[:16], n)


def outcome(c, lib, with_message=True):
    """What library lib ('numpy' or 'torch') does with the case: 'ok DTYPE SHAPE'
    or 'error CLASS: message'; '(from the rule)' when neither library has the op."""
    e = expectation(c, lib)
    if e is None:
        return "(no expectation)"
    if e["kind"] == "ok":
        s = "ok %s %s" % (e["dtype"], short_shape(e["shape"]))
    else:
        s = "error %s" % e["class"]
        msg = c["messages"].get(lib)
        if with_message and msg:
            s += ": " + msg
    if lib not in c["source"]:
        s += " (rule; %s has no such op)" % lib if "rule" in c["source"] else " (%s: not expressible)" % lib
    return s


def _same(a, b):
    """Whether two expect records state the same outcome."""
    return a is b or (a is not None and b is not None and
                      {k: v for k, v in a.items() if k != "profile"} == {k: v for k, v in b.items() if k != "profile"})


def divergence_kind(c):
    """How NumPy and torch differ on a divergent case, coarse enough to group:
    which errors, which result dtypes, or that the shapes or values differ
    (in generation 1, or in generation 2 when only NumPy 2 and torch 2 differ)."""
    n, t = expectation(c, "numpy"), expectation(c, "torch")
    n2, t2 = expectation(c, "numpy2"), expectation(c, "torch2")
    if _same(n, t) and n2 is not None and t2 is not None and not _same(n2, t2):
        return divergence_kind_of(n2, t2).replace("NumPy", "NumPy 2").replace("torch", "torch 2")
    return divergence_kind_of(n, t)


def divergence_kind_of(n, t):
    """divergence_kind for NumPy's expectation n and torch's t."""
    if n is None or t is None:
        return "one library has no expectation"
    if n["kind"] == "error" and t["kind"] == "error":
        return "NumPy error %s, torch error %s" % (n["class"], t["class"])
    if n["kind"] == "error":
        return "NumPy error %s, torch succeeds" % n["class"]
    if t["kind"] == "error":
        return "NumPy succeeds, torch error %s" % t["class"]
    parts = []
    if n["dtype"] != t["dtype"]:
        parts.append("result dtype NumPy %s, torch %s" % (n["dtype"], t["dtype"]))
    if n["shape"] != t["shape"]:
        parts.append("result shapes differ")
    return "; ".join(parts) or "same dtype and shape, different values"


def _rep_key(c):
    """What a representative stands for: each library's outcome kind (ok, or the
    error class) and, when both succeed, whether their results agree."""
    def kind(e):
        return "missing" if e is None else ("ok" if e["kind"] == "ok" else "error " + e["class"])
    n, t = expectation(c, "numpy"), expectation(c, "torch")
    rel = divergence_kind(c) if "divergent" in c["tags"] and n and t and n["kind"] == t["kind"] == "ok" else ""
    return (kind(n), kind(t), re.sub(r" NumPy \S+, torch \S+", "", rel))


def pick_representatives(cases):
    """Up to MAX_REPS (8) cases (fewer only when the category has fewer): group
    the cases by _rep_key, give the groups places round robin, the most common
    behaviour first, and fill a group's places with cases spread evenly over
    its cases in id order, so errors, successes, divergences and a spread of
    dtypes and shapes are all represented. Deterministic."""
    groups = {}
    for c in cases:
        groups.setdefault(_rep_key(c), []).append(c)
    keys = sorted(groups, key=lambda k: (-len(groups[k]), k))
    places = dict.fromkeys(keys, 0)
    left = min(MAX_REPS, len(cases))
    while left:
        for k in keys:
            if left and places[k] < len(groups[k]):
                places[k] += 1
                left -= 1
    picked = []
    for k in keys:
        g = sorted(groups[k], key=lambda c: c["id"])
        picked.extend(g[(i * len(g)) // places[k]] for i in range(places[k]))
    return picked


def _operands(c):
    s = " ".join("%s%s" % (a["name"] + "=" if a["dtype"] != "-" else "", short_shape(a["shape"]))
                 for a in c["args"])
    if any(a["strides"] and a["dtype"] != "-" and "noncontiguous" in c["tags"] for a in c["args"]):
        s += "; strides " + " ".join(a["strides"] for a in c["args"] if a["dtype"] != "-")
    for k, v in sorted(c["attrs"].items()):
        s += "; %s=%s" % (k, v)
    return s


def _divergence_blocks(div):
    """A count per kind of divergence, then each kind's cases, one line each:
    the id and what NumPy and torch do (messages left out: see the case)."""
    groups = {}
    for c in div:
        groups.setdefault(divergence_kind(c), []).append(c)
    order = sorted(groups, key=lambda k: (-len(groups[k]), k))
    blocks = [table(["how they differ", "cases"], [[k, len(groups[k])] for k in order])]
    for k in order:
        cs = groups[k]
        width = max(len(c["id"]) for c in cs)
        lines = ["%-*s  numpy: %s | torch: %s" % (width, c["id"], outcome(c, "numpy", False),
                                                 outcome(c, "torch", False)) for c in cs]
        blocks.append(details("%s: %d cases" % (k, len(cs)), [code_block("\n".join(lines))]))
    return blocks


def generation_kind(c, lib):
    """How library lib's two generations ('numpy'/'numpy2', 'torch'/'torch2')
    differ on the case, coarse enough to group; '' when they agree."""
    a, b = expectation(c, lib), expectation(c, lib + "2")
    if a is None or b is None:
        return ""
    if _same(a, b):   # grad mode: the first gradients agree; the others may not
        rest = [[e for e in c["expects"] if e["profile"] == p] for p in (lib, lib + "2")]
        if len(rest[0]) == len(rest[1]) and all(_same(x, y) for x, y in zip(*rest)):
            return ""
        return "values (or their tolerance) differ"
    def what(e):
        return "error %s" % e["class"] if e["kind"] == "error" else "ok"
    if a["kind"] != b["kind"] or a["kind"] == "error":
        return "%s → %s" % (what(a), what(b))
    if a["dtype"] != b["dtype"]:
        return "result dtype %s → %s" % (a["dtype"], b["dtype"])
    return "result shape differs" if a["shape"] != b["shape"] else "values (or their tolerance) differ"


def _generation_blocks(cases):
    """The generation-changed cases: a count per library and kind of change,
    then each group's cases, one line each with both generations' outcomes."""
    groups = {}
    for c in cases:
        for lib, name in (("numpy", "NumPy 1.24 → 2.4.6"), ("torch", "torch 1.13 → 2.15")):
            k = generation_kind(c, lib)
            if k:
                groups.setdefault((name, k), []).append(c)
    order = sorted(groups, key=lambda k: (k[0], -len(groups[k]), k[1]))
    blocks = [table(["library", "what changed", "cases"], [[k[0], k[1], len(groups[k])] for k in order])]
    for k in order:
        cs, lib = groups[k], "numpy" if k[0].startswith("NumPy") else "torch"
        width = max(len(c["id"]) for c in cs)
        lines = ["%-*s  %s: %s | %s2: %s" % (width, c["id"], lib, outcome(c, lib, False), lib,
                                             outcome(c, lib + "2", False)) for c in cs]
        blocks.append(details("%s, %s: %d cases" % (k[0], k[1], len(cs)), [code_block("\n".join(lines))]))
    return blocks


def build(cases, case_set, rules, command):
    title = "bcast edge-case catalogue"
    b = [heading(1, title),
         para("Generated by `%s` from cases/ (case set `%s`, %d cases) and docs/semantics.md. "
              "Do not edit by hand." % (command, case_set, len(cases))),
         para("For each category: the rules it exercises, representative cases with NumPy's and "
              "torch's outcome side by side (`ok DTYPE SHAPE`, or `error CLASS:` and the exact message "
              "the library printed), and every case of the category where NumPy and torch diverge "
              "(tag `divergent`). `bcast-run show ID` prints any case with one-liners that reproduce it.")]
    b.append(table(["category", "rules", "cases", "divergent"],
                   [[Link(t, "#" + slug(t)), " ".join(r), sum(1 for c in cases if p(c)),
                     sum(1 for c in cases if p(c) and "divergent" in c["tags"])]
                    for t, r, p in CATEGORIES]))
    in_some = set()
    for title_c, rule_ids, pred in CATEGORIES:
        cs = [c for c in cases if pred(c)]
        b.append(heading(2, title_c, slug(title_c)))
        for r in rule_ids:
            name, text = rules.get(r, ("(missing from docs/semantics.md)", ""))
            b.append(para("**%s %s.** %s" % (r, name, text)))
        if not cs:
            b.append(para("No cases in this category."))
            continue
        reps = pick_representatives(cs)
        b.append(heading(3, "Representative cases (%d of %d)" % (len(reps), len(cs))))
        b.append(table(["case", "op, mode", "operands", "NumPy", "torch"],
                       [[Code(c["id"]), "%s, %s" % (c["op"], c["mode"]), Code(_operands(c)),
                         outcome(c, "numpy"), outcome(c, "torch")] for c in reps]))
        div = [c for c in cs if "divergent" in c["tags"]]
        in_some.update(c["id"] for c in div)
        b.append(heading(3, "NumPy/torch divergences (%d)" % len(div)))
        if div:
            b.extend(_divergence_blocks(div))
        else:
            b.append(para("None: NumPy and torch agree on every case of this category."))
    changed = [c for c in cases if "generation-changed" in c["tags"]]
    title_g = "Generation differences (%d)" % len(changed)
    b.append(heading(2, title_g, slug(title_g)))
    b.append(para("Cases where a library's two generations disagree (tag `generation-changed`: "
                  "`numpy` vs `numpy2`, or `torch` vs `torch2`; docs/semantics.md, *Generation "
                  "differences*), counted per library and kind of change; a case may count for both."))
    if changed:
        b.extend(_generation_blocks(changed))
    rest = [c for c in cases if "divergent" in c["tags"] and c["id"] not in in_some]
    b.append(heading(2, "Other divergences (%d)" % len(rest), slug("Other divergences (%d)" % len(rest))))
    b.append(para("Divergent cases that fall in none of the categories above."))
    if rest:
        b.extend(_divergence_blocks(rest))
    return title, b


def render(cases, case_set, rules, command):
    title, blocks = build(cases, case_set, rules, command)
    return to_markdown(blocks), to_html(title, blocks)
