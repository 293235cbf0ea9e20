"""findings_view.py - the findings part of a target's report: the findings table, the declared limits, and each finding's cases.

A finding is one root cause (bcast-run groups every non-passing case into
one; docs/runner.md). The table gives each finding's size, its smallest case,
what the target did there and what NumPy and torch do (from the case file).
Markdown shows at most `cap` cases per finding and says how many more there
are; HTML shows the first HTML_ROWS in full and the ids of up to HTML_IDS more,
collapsed, so that the page stays small and fast to open. summary.json (committed)
lists every case with its one-line reason; results.json (written by `make
report`, not committed) has each in full.
"""

import shlex

from markup import Bold, Code, Link, details, heading, para, table, text

# table rows within the first 40 lines of index.md (after the title, the generated-by line, the heading)
FIRST_SCREEN_ROWS = 32
CELL_MAX = 200            # longer table cells are cut (the finding's section has them whole)
REPRO_MAX = 3000          # longer one-liners are cut; `bcast-run show ID` prints them whole
HTML_ROWS = 25            # cases per finding with their full row in index.html
HTML_IDS = 400            # further cases per finding named by id in index.html
EVERY_CASE = "summary.json lists every case with its one-line reason; results.json, written by `make report`, has each in full"
OUTCOME_WORDS = {"fail": "failed", "crash": "crashed", "violation": "memory violations",
                 "timeout": "timed out", "pass": "passed", "skip": "skipped"}


def num(n):
    """A count with thousands separators: 4,658."""
    return "{:,}".format(n)


def cut(text, limit=CELL_MAX):
    return text if len(text) <= limit else text[:limit - 3] + "..."


def outcome_count(n, outcome):
    """'3 failed', '1 memory violation', '2 memory violations'."""
    word = OUTCOME_WORDS.get(outcome, outcome)
    return "%s %s" % (num(n), word[:-1] if n == 1 and word.endswith("violations") else word)


def rule_list(rules):
    """Rule ids in numeric order (B2 before B10), space-separated."""
    return " ".join(sorted(rules, key=lambda r: (int(r[1:]) if r[1:].isdigit() else 1 << 30, r)))


def failures(doc):
    return [f for f in doc.get("findings", []) if f["kind"] == "failure"]


def limits(doc):
    return [f for f in doc.get("findings", []) if f["kind"] == "limit"]


def known_text(f):
    """'all known', 'new' or '3 known, 9 new' for a failure finding."""
    if f["known"] == f["count"]:
        return "all known"
    if f["known"] == 0:
        return "new"
    return "%s known, %s new" % (num(f["known"]), num(f["count"] - f["known"]))


def reference(f, profile):
    """What NumPy and torch do on the finding's smallest case: both ('NumPy: ...; torch:
    ...') when the case is divergent, else the one expectation with the checked
    profile's library's message."""
    if f.get("divergent"):
        return "NumPy: %s; torch: %s" % (f.get("numpy", ""), f.get("torch", ""))
    return f.get("torch", "") if profile in ("torch", "torch2") else f.get("numpy", "")


def section_title(f):
    return "%s: %s" % (f["id"], f["name"])


def stderr_last(c):
    tail = (c.get("stderr_tail") or "").strip()
    return tail.split("\n")[-1] if tail else ""


def target_did(c):
    """What the target did on case c: its result or error (for wrong values, which
    elements differ and the first of them), or how it crashed, hung or corrupted
    memory (with the last line it printed)."""
    if c is None:
        return ""
    out = c.get("actual_outcome") or c["outcome"]
    if out in ("crash", "timeout", "violation"):
        s = c["reason"] or out
        last = stderr_last(c)
        return s + ("; stderr: " + last if last else "")
    s = c["actual"] or (("error %s: %s" % (c["error_class"], c["error_message"])) if c["error_class"] else "")
    if c.get("failure") == "wrong-values" and c["reason"]:
        s += " (%s)" % c["reason"].replace("wrong values: ", "", 1)
    return s


def difference(c):
    """One line saying how case c went wrong (for wrong values: how many elements differ,
    how, and the first one), with a crash's last line of stderr."""
    last = stderr_last(c)
    return (c["reason"] or c["outcome"]) + ("; stderr: " + last if last else "")


def case_status(c):
    if c.get("probed"):
        return "probed"
    if c.get("depends_on"):
        return "depends"
    return "known" if c["outcome"] == "xfail" else ("passes" if c["outcome"] == "xpass" else "new")


def headline(doc):
    """The findings heading: how many root causes, of how many failures, and the limits."""
    fs, ls = failures(doc), limits(doc)
    nfail = sum(f["count"] for f in fs)
    nknown = sum(f["known"] for f in fs)
    if not fs:
        text = "Findings: none (no case failed)"
    else:
        text = "Findings: %d root cause%s of %s failure%s (%s)" % (
            len(fs), "" if len(fs) == 1 else "s", num(nfail), "" if nfail == 1 else "s",
            "all known" if nknown == nfail else "%s new" % num(nfail) if nknown == 0
            else "%s known, %s new" % (num(nknown), num(nfail - nknown)))
    if ls:
        text += ", %d declared limit%s" % (len(ls), "" if len(ls) == 1 else "s")
    return text


def _row(doc, f, md):
    """A findings-table row; in HTML the id links to the finding's section (in Markdown
    the section's heading starts with the id: GitHub's anchors would be the whole name)."""
    c = doc["_by_id"].get(f["smallest"])
    return [f["id"] if md else Link(f["id"], "#" + f["id"].lower()), "%s (%s)" % (num(f["count"]), known_text(f)),
            cut(f["name"]), Code(f["smallest"]), Code(cut(target_did(c))), Code(cut(reference(f, doc["profile"]))),
            rule_list(f["rules"])]


def findings_table(doc, md):
    """The findings, largest first. In Markdown, when there are more than fit the first
    screen, the smallest ones share the table's last row (each has its section below)."""
    fs = failures(doc)
    rows = [_row(doc, f, md) for f in fs]
    if md and len(fs) > FIRST_SCREEN_ROWS:
        rest = fs[FIRST_SCREEN_ROWS - 1:]
        rows = rows[:FIRST_SCREEN_ROWS - 1]
        rows.append(["%s to %s" % (rest[0]["id"], rest[-1]["id"]), num(sum(f["count"] for f in rest)),
                     "%d smaller findings, each in its section below: %s" % (
                         len(rest), "; ".join("%s %s" % (f["id"], cut(f["name"], 70)) for f in rest)),
                     "", "", "", ""])
    return table(["finding", "cases", "what goes wrong", "smallest case", "the target did there",
                  "NumPy and torch", "rules"], rows, "findings")


def limits_blocks(doc):
    """The declared limits: what the target does not claim, how many cases that
    excludes, and what those cases did when probed (--probe-limits)."""
    ls = limits(doc)
    b = [heading(2, "Declared limits (%d)" % len(ls), "declared-limits")]
    if not ls:
        return b + [para("None: the target claims every op, dtype, rank and mode of the case set.")]
    probed_any = doc["totals"].get("probed", 0)
    b.append(para("What the target does not claim (its declared ops, dtypes, max_rank and flags; see Target "
                  "below). Cases outside the claim are not run%s; they are not failures." %
                  (" except with `--probe-limits`, as in this run" if probed_any else
                   " (`bcast-run --probe-limits` runs them anyway)")))
    rows = []
    for f in ls:
        ex = f.get("excluded", [])
        what = ", ".join("%s (%s)" % (r.replace("unsupported: ", ""), num(n)) for r, n in ex[:8])
        if len(ex) > 8:
            what += ", and %d more" % (len(ex) - 8)
        pr = f.get("probed", {})
        probed = ", ".join(outcome_count(pr[o], o) for o in sorted(pr)) or "not probed"
        rows.append([f["id"], f["signature"], num(f["count"]), what or cut(f["name"]), Code(f["smallest"]), probed])
    b.append(table(["limit", "declared", "cases", "not claimed", "smallest case", "probed"], rows))
    return b


def _case_rows(cs):
    return [[Code(c["id"]), case_status(c), Code(" ".join(c["shapes"])), Code(" ".join(c["strides"])),
             Code(cut(c["expected"], 120)), Code(cut(c["actual"] or c["error_class"], 120)), cut(difference(c))]
            for c in cs]


CASE_HEADERS = ["case", "status", "shapes", "strides", "expected", "actual", "what differs"]


def smallest_blocks(c):
    """The smallest case in full: a fields table and the NumPy/torch one-liners."""
    rows = [["case", Code(c["id"])],
            ["op, mode", "%s, %s" % (c["op"], c["mode"])],
            ["shapes", Code(" ".join(c["shapes"]))],
            ["strides", Code(" ".join(c["strides"]))],
            ["dtypes", Code(" ".join(c["dtypes"]))],
            ["rules", " ".join(c["rules"])],
            ["features", " ".join(c.get("features") or [])],
            ["reason", Code(c["reason"])],
            ["expected", Code(c["expected"])],
            ["actual", Code(target_did(c))]]
    if c["first_mismatch"]:
        rows.append(["first mismatch", Code(c["first_mismatch"])])
    if c.get("stderr_tail"):
        rows.append(["stderr (last lines)", Code(c["stderr_tail"])])
    rows.append(["case file", Code("%s:%s" % (c["file"], c["line"]))])
    repro = []
    for lib, key in (("NumPy", "numpy_repro"), ("torch", "torch_repro")):
        if c.get(key):
            line = c[key]
            if len(line) > REPRO_MAX:
                line = line[:REPRO_MAX] + " ... (cut; see bcast-run show)"
            repro.append("# %s\n%s" % (lib, line))
    repro.append("# the whole case\nbcast-run show %s %s" % (shlex.quote(c["id"]), shlex.quote(c["file"])))
    return [table(["field", "value"], rows), ("pre", "\n".join(repro))]


def finding_blocks(doc, f, cap):
    """One finding's section. cap: how many of its cases Markdown lists (None: all, HTML)."""
    by_id = doc["_by_id"]
    c = by_id.get(f["smallest"])
    b = [heading(3, section_title(f), f["id"].lower())]
    parts = [Bold("%s cases" % num(f["count"])), " (%s); outcomes: %s; ops: %s; dtypes: %s; rules: %s. Smallest: " % (
        known_text(f), " ".join(f["outcomes"]), " ".join(f["ops"]) or "-", " ".join(f["dtypes"]) or "-",
        rule_list(f["rules"]) or "-"), Code(f["smallest"])]
    if c is not None:
        parts += [" (", Code("%s:%s" % (c["file"], c["line"])), "): the target did ", Code(cut(target_did(c), 300))]
    parts += ["; " if f.get("divergent") else "; NumPy and torch: ", Code(cut(reference(f, doc["profile"]), 300)), "."]
    if f.get("case_comments"):
        parts += [" The case file says: ", cut(" ".join(f["case_comments"]), 300), "."]
    if f.get("known_reason"):
        parts += [" Known reason: ", cut(f["known_reason"], 300), "."]
    if f.get("shrunk"):
        parts += [" Shrunk: ", Code(f["shrunk"]), "."]
    b.append(text(parts))
    ids = [f["smallest"]] + [i for i in f["cases"] if i != f["smallest"]]
    cs = [by_id[i] for i in ids if i in by_id]
    if cap is None:
        if c is not None:
            b.append(details("the smallest case in full, with NumPy and torch one-liners", smallest_blocks(c)))
        b.append(details("all %s cases" % num(len(cs)), [table(CASE_HEADERS, _case_rows(cs[:HTML_ROWS]))]
                         + id_list(cs[HTML_ROWS:])))
        return b
    shown = cs[:cap]
    if shown:
        b.append(table(CASE_HEADERS, _case_rows(shown)))
    rest = len(cs) - len(shown)
    if rest:
        b.append(para("... and %s more (%s in all): index.html names them; %s." % (num(rest), num(len(cs)), EVERY_CASE)))
    return b


def id_list(cs):
    """The ids of cases beyond the full rows, as one paragraph: at most HTML_IDS, then how many more."""
    if not cs:
        return []
    b = [text(["The next %s: " % num(min(len(cs), HTML_IDS))]
              + [x for c in cs[:HTML_IDS] for x in (Code(c["id"]), " ")])]
    if len(cs) > HTML_IDS:
        b.append(para("... and %s more: %s." % (num(len(cs) - HTML_IDS), EVERY_CASE)))
    return b


def detail_blocks(doc, cap):
    """Every failure finding's section, largest first; cap as in finding_blocks."""
    fs = failures(doc)
    b = [heading(2, "Findings in detail", "findings-in-detail")]
    if cap is not None:
        b.append(para("Each finding with its first %d cases (smallest first); %s. Reproduce a case with "
                      "`bcast-run show ID FILE` (add `--target` to run it)." % (cap, EVERY_CASE)
                      if cap else "Each finding with its smallest case; %s (this file is kept under 600 lines)."
                      % EVERY_CASE))
    if not fs:
        b.append(para("None."))
    for f in fs:
        b.extend(finding_blocks(doc, f, cap))
    # bcast-run puts every failure in a finding; should one come without (a result from
    # an older runner, or a bug), it is listed rather than lost
    lost = [c for c in doc["cases"] if not c.get("finding") and not c.get("probed") and c["outcome"] != "xpass"
            and not c.get("depends_on")]
    if lost:
        b.append(heading(3, "Failures in no finding (%s)" % num(len(lost)), "no-finding"))
        shown = lost[:HTML_ROWS] if cap is None else lost[:max(cap, 1)]
        b.append(table(CASE_HEADERS, _case_rows(shown)))
        if len(shown) < len(lost):
            b.append(para("... and %s more: %s." % (num(len(lost) - len(shown)), EVERY_CASE)))
    return b


def depends_blocks(doc, cap):
    """Cases that failed only after an earlier case broke the library (bcast-run's re-run,
    docs/runner.md "Re-run"): one group per trigger, with the trigger's finding."""
    cs = [c for c in doc["cases"] if c.get("depends_on")]
    if not cs:
        return []
    by = {}
    for c in cs:
        by.setdefault(c["depends_on"], []).append(c)
    b = [heading(2, "Depends on earlier cases (%s)" % num(len(cs)), "depends-on-earlier-cases"),
         para("These failed only after the case named: each passes in a fresh worker and fails again when "
              "replayed right after it. They are not findings of their own and do not fail the gate: the "
              "trigger's finding is the bug.")]
    for trigger, group in by.items():
        t = doc.get("_by_id", {}).get(trigger, {})
        b.append(heading(3, "After %s (%s cases; its finding: %s)" % (trigger, num(len(group)), t.get("finding") or "none")))
        shown = group[:HTML_ROWS] if cap is None else group[:max(cap, 1)]
        b.append(table(CASE_HEADERS, _case_rows(shown)))
        if len(shown) < len(group):
            b.append(para("... and %s more: %s." % (num(len(group) - len(shown)), EVERY_CASE)))
    return b


def probed_blocks(doc, cap):
    """Cases run only because of --probe-limits that did not pass, by limit."""
    cs = [c for c in doc["cases"] if c.get("probed")]
    if not cs:
        return []
    b = [heading(2, "Probed outside the declared limits (%s not passing)" % num(len(cs)), "probed"),
         para("Run with `--probe-limits`: the target does not claim these, so they are not failures.")]
    shown = cs[:HTML_IDS] if cap is None else cs[:cap]
    b.append(table(CASE_HEADERS, _case_rows(shown)))
    if len(shown) < len(cs):
        b.append(para("... and %s more: results.json, written by `make report`, has them all (summary.json "
                      "counts them under their limit)." % num(len(cs) - len(shown))))
    return b
