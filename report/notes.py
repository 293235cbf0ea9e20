"""notes.py - a target's own notes for its report: its FINDINGS.md, the header comments of its expectations file, and the Explore section's place.

The paths come from results.json (runs.normalise records them); the files
are read when the report is rendered, so the report shows what the checkout
holds. A file that cannot be read is named in the report, not skipped.
"""

import json
import os

from markup import Code, code_block, details, heading, markdown, para


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


def load_explore(report_dir):
    """reports/<name>/explore.json as a dict, or None when there is none. Its format is
    defined by the change that writes it; today the report only says whether it exists."""
    path = os.path.join(report_dir, "explore.json")
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def explore_section(doc, explore):
    """The 'Explore' section: the place where exploration results (bcast-run explore,
    reports/<name>/explore.json) will be shown. Not implemented yet: it names the file
    and says whether it exists."""
    where = Code("reports/%s/explore.json" % doc["name"])
    if explore is None:
        text = "No exploration results for this target (`%s`)." % where.text
    else:
        text = "`%s` exists; showing exploration results is not implemented yet." % where.text
    return [heading(2, "Explore", "explore"), para(text)]
