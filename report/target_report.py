"""target_report.py - one target's conformance report (index.md, index.html) from its normalised results.json.

Sections, findings first: the findings table (one root cause a row: size,
smallest case, what the target did, what NumPy and torch do, rules), the
declared limits, the target's own notes (FINDINGS.md, the expectations file's
header), Explore (a place for exploration results), then the target and its
versions, the summary (counts by what happened: a known crash is a crash),
a heat map of pass rate (rows: suites, then tags; columns: ops), each
finding with its cases, probed cases, unexpected passes, unmatched
expectations and skips. index.md stays under MD_MAX_LINES lines: it lists at
most MD_CASES cases per finding (fewer if needed); index.html has them all.
"""

import casefile
import findings_view as fv
import notes
from markup import Code, Heat, heading, para, table, text, to_html, to_markdown

MD_MAX_LINES = 600
MD_CASES = 10             # cases per finding in index.md when it fits
# (cases per finding, lines of other lists) tried in turn until index.md fits MD_MAX_LINES
MD_LADDER = ((MD_CASES, 10), (5, 10), (3, 5), (1, 5), (0, 3), (0, 0))
OUTCOMES = (("pass", "passed", "pass"), ("fail", "failed", "fail"), ("crash", "crashed", "crash"),
            ("violation", "violations", "memory violation"), ("timeout", "timed_out", "timeout"),
            ("skip", "skipped", "skip"))


def _rate(cell):
    """Pass rate of one heat-map cell (counts by what happened), skips and probed cases
    excluded; None when nothing ran. `known` counts are a subset, not an outcome."""
    ran = sum(n for o, n in cell.items() if o not in ("skip", "known", "probed"))
    if ran == 0:
        return None, ("skip" if cell else "")
    ok = cell.get("pass", 0)
    pct = 100.0 * ok / ran
    label = "100" if ok == ran else ("%d" % int(pct) if pct >= 1 or ok == 0 else "<1")
    return ok / ran, label + "%"


def heat_map(counts):
    """Rows for every suite and tag (prefixed), columns for every op that appears."""
    ops = sorted({op for dim in counts.values() for row in dim.values() for op in row})
    rows = []
    for dim, prefix in (("suite", "suite "), ("tag", "tag ")):
        for key in sorted(counts.get(dim, {})):
            row = counts[dim][key]
            cells = [prefix + key]
            for op in ops:
                rate, label = _rate(row.get(op, {}))
                cells.append(Heat(rate, label))
            allc = {}
            for cell in row.values():
                for o, n in cell.items():
                    allc[o] = allc.get(o, 0) + n
            rate, label = _rate(allc)
            cells.append(Heat(rate, label))
            rows.append(cells)
    return ops, rows


def closing_line(tot):
    """bcast-run's closing line for these totals (docs/runner.md): known failures are
    not in failed/crashed/timed out, but the parenthesis says what they were."""
    s = "%d passed, %d failed, %d skipped" % (tot.get("passed", 0), tot.get("failed", 0), tot.get("skipped", 0))
    for key, word in (("crashed", "crashed"), ("timed_out", "timed out")):
        if tot.get(key, 0):
            s += ", %d %s" % (tot[key], word)
    if tot.get("expected_failures", 0):
        known = tot.get("known", {})
        what = ["%d %s" % (known[k], w) for k, w in (("failed", "failed"), ("crashed", "crashed"),
                                                      ("violations", "memory violations"), ("timed_out", "timed out"))
                if known.get(k, 0)]
        s += ", %d expected failures%s" % (tot["expected_failures"], " (%s)" % ", ".join(what) if what else "")
    return s


def honest_counts(tot):
    """'6,541 passed, 5,879 failed, 2 crashed, 8,148 skipped': by what happened, known
    failures included (a known crash is a crash); pass, fail and skip always shown."""
    actual = tot.get("actual", {})
    parts = []
    for out, key, word in OUTCOMES:
        n = actual.get(key, 0)
        if n or out in ("pass", "fail", "skip"):
            parts.append("%s %s" % (fv.num(n), {"pass": "passed", "fail": "failed", "crash": "crashed",
                                                "violation": "memory violations", "timeout": "timed out",
                                                "skip": "skipped"}[out]))
    return ", ".join(parts)


def outcome_line(doc):
    """The line under the findings table: counts by what happened, how many failures the
    expectations file lists and how many are new, and the probed cases."""
    tot = doc["totals"]
    line = ["By what happened: ", Code(honest_counts(tot))]
    failed = sum(tot.get("actual", {}).get(k, 0) for k in ("failed", "crashed", "violations", "timed_out"))
    if failed:
        line += ["; %s of the failures are known" % fv.num(known_total(tot))]
        line += [" (listed in ", Code(doc["expectations"]), ")"] if doc["expectations"] else [" (no expectations file)"]
        line += [", %s new" % fv.num(failed - known_total(tot))]
    if tot.get("probed", 0):
        line += ["; %s cases probed outside the declared limits (not counted)" % fv.num(tot["probed"])]
    return line + ["."]


def known_total(tot):
    return sum(tot.get("known", {}).values())


def summary_blocks(doc):
    tot = doc["totals"]
    actual, known = tot.get("actual", {}), tot.get("known", {})
    rows = []
    for out, key, label in OUTCOMES:
        rows.append([label, fv.num(actual.get(key, 0)), "" if out in ("pass", "skip") else fv.num(known.get(key, 0))])
    rows.append(["unexpected pass (listed, but passed)", fv.num(tot.get("unexpected_passes", 0)), ""])
    rows.append(["probed (outside the declared limits)", fv.num(tot.get("probed", 0)), ""])
    rows.append(["total", fv.num(tot.get("cases", 0)), fv.num(known_total(tot))])
    b = [heading(2, "Summary", "summary"),
         para("Counts by what happened: a known failure is counted as what it was (a known crash is a crash); "
              "the last column says how many of them the expectations file lists."),
         table(["outcome", "cases", "of which known"], rows, "summary"),
         text(["bcast-run's closing line (known failures apart): ", Code(closing_line(tot))])]
    if tot.get("unmatched_expectations", 0):
        b.append(para("%s expectations entries match no case (listed below)." % fv.num(tot["unmatched_expectations"])))
    if not doc.get("complete", True):
        b.append(para("**The run was incomplete** (interrupted): the counts cover the cases that finished."))
    return b


def target_blocks(doc):
    t = doc["target"]
    return [heading(2, "Target"), table(["field", "value"], [
        ["name", Code(t.get("name", ""))],
        ["version", Code(t.get("version", ""))],
        ["declared profile", Code(t.get("profile", ""))],
        ["profile checked", Code(doc["profile"])],
        ["ops", Code(" ".join(t.get("ops", [])))],
        ["dtypes", Code(" ".join(t.get("dtypes", [])))],
        ["flags", Code(" ".join(t.get("flags", [])) or "(none)")],
        ["max_rank", Code(str(t.get("max_rank", "")) + (" (no limit)" if t.get("max_rank") == 0 else ""))],
        ["target-arg", Code(doc["target_arg"] or "(none)")],
        ["bcast version", Code(doc["bcast_version"])],
        ["case set", Code(doc["case_set"])],
        ["expectations file", Code(doc["expectations"] or "(none)")],
        ["notes", Code(doc.get("notes") or "(none)")],
    ])]


def _capped(rows, cap, what):
    """rows, or its first `cap` and a line saying how many more (cap None: all)."""
    if cap is None or len(rows) <= cap:
        return rows, []
    return rows[:cap], [para("... and %s more %s: see index.html or results.json." % (fv.num(len(rows) - cap), what))]


def tail_blocks(doc, cap):
    """Unexpected passes, unmatched expectations and skips; cap: rows of each in Markdown."""
    tot = doc["totals"]
    b = []
    xp = [c for c in doc["cases"] if c["outcome"] == "xpass"]
    b.append(heading(2, "Unexpected passes (%s)" % fv.num(len(xp))))
    b.append(para("Listed in the expectations file but passing: remove them from it." if xp else "None."))
    if xp:
        rows, more = _capped([[Code(c["id"]), c["known_reason"]] for c in xp], cap, "unexpected passes")
        b += [table(["case", "known reason"], rows)] + more
    um = doc.get("unmatched_expectations", [])
    b.append(heading(2, "Unmatched expectations (%s)" % fv.num(len(um))))
    b.append(para("Entries of the expectations file that match no case of the run: remove or fix them."
                  if um else "None."))
    if um:
        rows, more = _capped([[Code(u)] for u in um], cap, "entries")
        b += [table(["entry (file:line: text)"], rows)] + more
    b.append(heading(2, "Skips (%s)" % fv.num(tot.get("skipped", 0))))
    sk = doc.get("skip_reasons", {})
    if sk:
        rows = [[Code(r), fv.num(sk[r])] for r in sorted(sk, key=lambda r: (-sk[r], r))]
        rows, more = _capped(rows, None if cap is None else max(cap, 20), "skip reasons")
        b += [table(["reason", "cases"], rows)] + more
    else:
        b.append(para("None."))
    return b


def judged_against(doc):
    """'Judged against NumPy 1.24.2 (profile `numpy`), the generation it declares.' or why not,
    and which part of the suite ran when the registry gives the target a shard."""
    checked, declared = doc.get("profile", ""), doc.get("target", {}).get("profile", "")
    oracle = casefile.ORACLES.get(checked, "(unknown oracle)")
    how = ("the generation it declares" if checked == declared
           else "overriding its declared `%s`" % declared if declared else "it declares no profile")
    shard = doc.get("shard")
    part = (" Only the cases of `bcast-run --shard 1/%d` (every %dth case by id; the registry's shard column: "
            "the whole suite takes too long for this target, see its notes) were run." % (shard, shard)) if shard else ""
    return "Judged against %s (profile `%s`), %s.%s" % (oracle, checked, how, part)


def build(doc, command, cap, others, explore=None):
    """The report as markup blocks; `command` is the make command that regenerates it.
    cap: cases per finding and others: rows of the other lists, for Markdown (None, None:
    everything, for HTML)."""
    doc = dict(doc, _by_id={c["id"]: c for c in doc["cases"]})
    title = "bcast conformance report: %s" % doc["name"]
    b = [heading(1, title),
         para("Generated by `%s` from bcast-run's results. Do not edit by hand. %s" % (command, judged_against(doc))),
         heading(2, fv.headline(doc), "findings")]
    if fv.failures(doc):
        b.append(fv.findings_table(doc, cap is not None))
    b.append(text(outcome_line(doc)))
    b += fv.limits_blocks(doc)
    b += notes.section(doc)
    b += notes.explore_section(doc, explore, others)
    b += target_blocks(doc)
    b += summary_blocks(doc)
    ops, rows = heat_map(doc["counts"])
    b.append(heading(2, "Pass rate by suite, tag and op"))
    b.append(para("Percent of the cases that ran (skips excluded) that passed, rounded down; a known failure "
                  "counts as not passing. `skip`: every case was outside the target's capabilities; empty: "
                  "no such case. The last column is the row's total."))
    b.append(table([""] + ops + ["all"], rows, "heat"))
    b += fv.detail_blocks(doc, cap)
    b += fv.depends_blocks(doc, cap)
    b += fv.probed_blocks(doc, others)
    b += tail_blocks(doc, others)
    return title, b


def render(doc, command, explore=None):
    """(markdown, html) of the report. The Markdown takes the first rung of MD_LADDER
    that keeps it within MD_MAX_LINES lines (the last rung when none does)."""
    for cap, others in MD_LADDER:
        _, blocks = build(doc, command, cap, others, explore)
        md = to_markdown(blocks)
        if md.count("\n") <= MD_MAX_LINES:
            break
    title, blocks = build(doc, command, None, None, explore)
    return md, to_html(title, blocks)
