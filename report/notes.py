"""notes.py - a target's own notes for its report: its FINDINGS.md, the header comments of its expectations file, and the Explore section's place.

The paths come from results.json (runs.normalise records them); the files
are read when the report is rendered, so the report shows what the checkout
holds. A file that cannot be read is named in the report, not skipped.
"""

import json
import os

from markup import Code, code_block, details, heading, markdown, para, table


def expectations_header(path):
    """The comment lines at the top of an expectations file (up to its first blank
    or entry line), without their '# '; [] when there are none or the file is missing."""
    lines = []
    try:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                line = line.rstrip("\n")
                if not line.startswith("#"):
                    break
                lines.append(line[2:] if line.startswith("# ") else line[1:])
    except OSError:
        return []
    return lines


def section(doc):
    """The 'Target notes' blocks: FINDINGS.md (headings demoted under this section) and
    the expectations file's header; [] when the target has neither."""
    b = []
    notes = doc.get("notes") or ""
    if notes:
        try:
            with open(notes, encoding="utf-8") as fh:
                text = fh.read()
            b.append(para("From `%s`, written by the target's maintainers (not generated):" % notes))
            b.append(markdown(text, demote=2))
        except OSError as err:
            b.append(para("`%s` could not be read: %s." % (notes, err.strerror or err)))
    header = expectations_header(doc["expectations"]) if doc.get("expectations") else []
    if header:
        b.append(details("Header of the expectations file %s (%d lines)" % (doc["expectations"], len(header)),
                         [code_block("\n".join(header))]))
    if not b:
        return []
    return [heading(2, "Target notes", "target-notes")] + b


def trim_explore(ex):
    """explore.json as committed: bcast-run's JSON without its per-case records (`cases`,
    and each finding's case list), which the Explore section does not show and which made
    the file up to 6 MB. The totals, the findings with their smallest and shrunk cases, and
    the run's seed stay; the shrunk cases are also in explore.cases."""
    t = {k: v for k, v in ex.items() if k != "cases"}
    t["findings"] = [{k: v for k, v in f.items() if k != "cases"} for f in ex.get("findings", [])]
    return t


def load_explore(report_dir, trim=False):
    """reports/<name>/explore.json (bcast-run explore --format json, written by
    `make explore-reports`) as a dict, or None when there is none. trim: when the file
    still holds per-case records, rewrite it in trim_explore's form (idempotent)."""
    path = os.path.join(report_dir, "explore.json")
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as fh:
        ex = json.load(fh)
    if trim and ("cases" in ex or any("cases" in f for f in ex.get("findings", []))):
        ex = trim_explore(ex)
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(ex, fh, indent=1, sort_keys=True, ensure_ascii=True)
            fh.write("\n")
        os.replace(tmp, path)
    return ex


EXPLORE_SHRUNK_SHOWN = 12   # findings whose shrunk case the section prints in full


def _explore_totals(ex):
    """'N cases: P passed, F failed, ...' from explore.json's totals (actual outcomes)."""
    t = ex.get("totals", {})
    parts = ["%d passed" % t.get("passed", 0), "%d failed" % t.get("failed", 0)]
    for key, word in (("crashed", "crashed"), ("timed_out", "timed out"), ("violations", "memory violations"),
                      ("skipped", "skipped")):
        if t.get(key):
            parts.append("%d %s" % (t[key], word))
    return "%d cases: %s" % (t.get("cases", 0), ", ".join(parts))


def _explore_row(f, gate):
    """A row of the explore findings table; gate maps a signature to the gate finding's id."""
    seen = gate.get(f.get("signature", ""))
    also = ("yes (%s)" % seen) if seen else "no: only exploration found it"
    return [f["id"], str(f["count"]), f["name"], Code(f.get("smallest", "")), also]


def explore_section(doc, explore, shrunk_cap=None):
    """The 'Explore' section: what `bcast-run explore` found on random cases judged against
    ref (reports/<name>/explore.json), each finding with its shrunk case, and whether the
    committed cases find the same behaviour (the same signature among those the gate's findings
    were merged from).
    shrunk_cap: at most this many shrunk cases printed in full (None: EXPLORE_SHRUNK_SHOWN);
    the rest are named by the pointer to explore.cases."""
    where = "reports/%s/explore.json" % doc["name"]
    head = [heading(2, "Explore", "explore")]
    if explore is None:
        return head + [para("No exploration results for this target (`%s`; `make explore-reports` writes it)." % where)]
    run = explore.get("explore", {})
    intro = ("`bcast-run explore` ran random cases against ref's expectations under the %s profile (seed %s, shard %s, "
             "from `%s`, written by `make explore-reports`): %s. An explored case is judged against ref, not NumPy or "
             "torch; it becomes a regular case only once `gen/confirm.py` has confirmed it with both (docs/explore.md)."
             % (explore.get("profile", "?"), run.get("seed", "?"), run.get("shard", "1/1"), where,
                _explore_totals(explore)))
    fs = [f for f in explore.get("findings", []) if f.get("kind", "failure") == "failure"]
    if not fs:
        return head + [para(intro), para("Exploration found no failure.")]
    # a gate finding merged from several level-1 groups answers to each of their signatures
    gate = {s: f["id"] for f in doc.get("findings", []) for s in (f.get("signatures") or [f.get("signature")]) if s}
    b = head + [para(intro),
                table(["finding", "cases", "what the target did", "smallest explored case", "also in the committed cases?"],
                      [_explore_row(f, gate) for f in fs], "explore")]
    cap = EXPLORE_SHRUNK_SHOWN if shrunk_cap is None else min(shrunk_cap, EXPLORE_SHRUNK_SHOWN)
    shown = [f for f in fs if f.get("shrunk")][:cap]
    for f in shown:
        b.append(details("%s shrunk: the smallest case that fails the same way" % f["id"], [code_block(f["shrunk"].rstrip("\n"))]))
    if len(shown) < len([f for f in fs if f.get("shrunk")]):
        b.append(para("The other findings' shrunk cases are in `reports/%s/explore.cases`." % doc["name"]))
    return b
