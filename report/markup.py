"""markup.py - one small document model rendered both as Markdown and as one self-contained HTML page.

A document is a list of blocks built with the helpers below. Table cells are
plain text, Code(text) (monospace), Link(text, href) or Heat(rate, text) (a
heat-map cell: colour in HTML, a coloured square in Markdown). A markdown()
block is a hand-written Markdown file (a target's FINDINGS.md): copied with
its headings demoted, and converted for HTML by a small converter (headings,
paragraphs, lists, tables, code). The HTML has no scripts and no external
assets, so it renders offline and cannot raise script errors.
"""

import html
import re


class Code:
    """A table cell or list item shown in monospace."""

    def __init__(self, text):
        self.text = text


class Link:
    """A link (relative, to another generated file)."""

    def __init__(self, text, href):
        self.text = text
        self.href = href


class Bold:
    """Inline bold text (in a text() paragraph)."""

    def __init__(self, text):
        self.text = text


class Heat:
    """A heat-map cell: rate in [0, 1] or None (nothing ran), and its label."""

    def __init__(self, rate, text):
        self.rate = rate
        self.text = text


def heading(level, text, anchor=None):
    """A heading; anchor is its HTML id (use slug(text) to match GitHub's Markdown anchors)."""
    return ("h", level, text, anchor)


def slug(text):
    """GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to '-'."""
    t = "".join(ch for ch in text.lower() if ch.isalnum() or ch in " -_")
    return t.replace(" ", "-")


def para(text):
    return ("p", text)


def text(parts):
    """A paragraph of inline parts (str, Code, Bold, Link), each escaped for its format:
    for text that is not Markdown already (case ids, messages, reasons)."""
    return ("text", parts)


def code_block(text):
    return ("pre", text)


def bullets(items):
    return ("ul", items)


def table(headers, rows, cls=None):
    return ("table", headers, rows, cls)


def details(summary, blocks):
    return ("details", summary, blocks)


def markdown(text, demote=2):
    """A hand-written Markdown document, its headings `demote` levels lower (at most h6)."""
    return ("md", text, demote)


# --- Markdown ---------------------------------------------------------------

def _md_inline(x, cell=True):
    """A cell or inline part as Markdown: text escaped, code in backticks; cell: in a
    table, where '|' must be escaped (outside tables an escaped '|' would show its '\\')."""
    if isinstance(x, Code):
        t = x.text.replace("\n", " ")
        if cell:
            t = t.replace("|", "\\|")
        fence = "``" if "`" in t else "`"
        return "%s%s%s" % (fence, t if fence == "`" else " " + t + " ", fence) if t else ""
    if isinstance(x, Link):
        return "[%s](%s)" % (x.text.replace("]", "\\]"), x.href)
    if isinstance(x, Heat):
        return "%s %s" % (_square(x.rate), x.text) if x.rate is not None else x.text
    if isinstance(x, Bold):
        return "**%s**" % _md_inline(x.text, cell)
    t = str(x).replace("\\", "\\\\").replace("\n", " ")
    if cell:
        t = t.replace("|", "\\|")
    for ch in "`*_<>[]":
        t = t.replace(ch, "\\" + ch)
    return t


def _square(rate):
    """A coloured square for Markdown heat maps (GitHub renders these emoji)."""
    if rate >= 1.0:
        return "\U0001F7E9"       # green
    if rate >= 0.9:
        return "\U0001F7E8"       # yellow
    if rate >= 0.5:
        return "\U0001F7E7"       # orange
    return "\U0001F7E5"           # red


def to_markdown(blocks):
    out = []
    _md_blocks(blocks, out)
    return "\n".join(out).rstrip("\n") + "\n"


def _md_blocks(blocks, out):
    for b in blocks:
        kind = b[0]
        if kind == "h":
            out.append("%s %s" % ("#" * b[1], b[2]))
            out.append("")
        elif kind == "p":
            out.append(b[1])      # paragraphs are written as Markdown already
            out.append("")
        elif kind == "text":
            out.append("".join(_md_inline(x, cell=False) for x in b[1]))
            out.append("")
        elif kind == "pre":
            fence = "````" if "```" in b[1] else "```"
            out.append(fence)
            out.append(b[1].rstrip("\n"))
            out.append(fence)
            out.append("")
        elif kind == "ul":
            for it in b[1]:
                out.append("- " + _md_inline(it))
            out.append("")
        elif kind == "table":
            headers, rows = b[1], b[2]
            out.append("| " + " | ".join(_md_inline(h) for h in headers) + " |")
            out.append("|" + "|".join(" --- " for _ in headers) + "|")
            for r in rows:
                out.append("| " + " | ".join(_md_inline(c) for c in r) + " |")
            out.append("")
        elif kind == "details":
            out.append("<details><summary>%s</summary>" % html.escape(b[1]))
            out.append("")
            _md_blocks(b[2], out)
            out.append("</details>")
            out.append("")
        elif kind == "md":
            fence = False
            for line in b[1].rstrip("\n").split("\n"):
                if line.startswith("```"):
                    fence = not fence
                m = None if fence else re.match(r"^(#{1,6}) ", line)
                out.append("#" * min(6, len(m.group(1)) + b[2]) + line[len(m.group(1)):] if m else line)
            out.append("")


# --- HTML -------------------------------------------------------------------

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em auto;max-width:96em;padding:0 1em;color:#1b1f23;line-height:1.4}
h1{font-size:1.6em;border-bottom:1px solid #d0d7de;padding-bottom:.2em}
h2{font-size:1.3em;margin-top:1.6em;border-bottom:1px solid #eaecef}
h3{font-size:1.1em}
table{border-collapse:collapse;margin:.5em 0 1em;font-size:.9em}
th,td{border:1px solid #d0d7de;padding:.2em .5em;text-align:left;vertical-align:top}
th{background:#f6f8fa}
code,pre{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.9em}
pre{background:#f6f8fa;padding:.6em;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
table.heat{font-size:.75em}
table.heat td{text-align:center;padding:.2em .25em}
table.heat th.row{text-align:left;white-space:nowrap}
table.heat th{writing-mode:vertical-rl;transform:rotate(180deg);text-align:left;padding:.3em .15em}
table.heat th.row{writing-mode:horizontal-tb;transform:none}
td code{overflow-wrap:anywhere}
table.findings{width:100%}
table.findings td{max-width:30em}
table.findings td:nth-child(3){min-width:18em}
details{margin:.3em 0}
summary{cursor:pointer}
.summary td.num{text-align:right;font-weight:bold}
"""


def _heat_style(rate):
    """Red (0) through yellow to green (1), as an inline background colour."""
    if rate is None:
        return "background:#f0f0f0;color:#888"
    hue = int(round(120 * rate)) if rate < 1.0 else 130
    light = 82 if rate < 1.0 else 75
    return "background:hsl(%d,70%%,%d%%)" % (hue, light)


def _html_inline(x):
    if isinstance(x, Code):
        return "<code>%s</code>" % html.escape(x.text)
    if isinstance(x, Link):
        return '<a href="%s">%s</a>' % (html.escape(x.href), html.escape(x.text))
    if isinstance(x, Heat):
        return html.escape(x.text)
    if isinstance(x, Bold):
        return "<b>%s</b>" % html.escape(x.text)
    return html.escape(str(x))


def _html_para(text):
    """A Markdown-ish paragraph as HTML: `code` spans and **bold**, nothing else."""
    parts = text.split("`")
    out = []
    for i, p in enumerate(parts):
        if i % 2:
            out.append("<code>%s</code>" % html.escape(p))
        else:
            segs = html.escape(p).split("**")
            out.append("".join(("<b>%s</b>" % s) if j % 2 else s for j, s in enumerate(segs)))
    return "".join(out)


def to_html(title, blocks):
    out = ['<!DOCTYPE html>', '<html lang="en">', '<head>', '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           '<title>%s</title>' % html.escape(title), '<style>%s</style>' % CSS.strip(),
           '</head>', '<body>']
    _html_blocks(blocks, out)
    out.append('</body>')
    out.append('</html>')
    return "\n".join(out) + "\n"


def _html_blocks(blocks, out):
    for b in blocks:
        kind = b[0]
        if kind == "h":
            anchor = ' id="%s"' % html.escape(b[3]) if b[3] else ""
            out.append("<h%d%s>%s</h%d>" % (b[1], anchor, html.escape(b[2]), b[1]))
        elif kind == "p":
            out.append("<p>%s</p>" % _html_para(b[1]))
        elif kind == "text":
            out.append("<p>%s</p>" % "".join(_html_inline(x) for x in b[1]))
        elif kind == "pre":
            out.append("<pre>%s</pre>" % html.escape(b[1].rstrip("\n")))
        elif kind == "ul":
            out.append("<ul>" + "".join("<li>%s</li>" % _html_inline(i) for i in b[1]) + "</ul>")
        elif kind == "table":
            headers, rows, cls = b[1], b[2], b[3]
            out.append('<table%s>' % (' class="%s"' % cls if cls else ""))
            out.append("<tr>" + "".join("<th>%s</th>" % _html_inline(h) for h in headers) + "</tr>")
            for r in rows:
                cells = []
                for j, c in enumerate(r):
                    if isinstance(c, Heat):
                        cells.append('<td style="%s">%s</td>' % (_heat_style(c.rate), html.escape(c.text)))
                    elif j == 0 and cls == "heat":
                        cells.append('<th class="row">%s</th>' % _html_inline(c))
                    elif cls == "summary" and j == 1:
                        cells.append('<td class="num">%s</td>' % _html_inline(c))
                    else:
                        cells.append("<td>%s</td>" % _html_inline(c))
                out.append("<tr>" + "".join(cells) + "</tr>")
            out.append("</table>")
        elif kind == "details":
            out.append("<details><summary>%s</summary>" % html.escape(b[1]))
            _html_blocks(b[2], out)
            out.append("</details>")
        elif kind == "md":
            _md_to_html(b[1], b[2], out)


def _html_inline_md(text):
    """Inline Markdown of a hand-written file as HTML: `code`, **bold**, and links
    shown as 'text (target)' (no href: the report links to nothing outside itself)."""
    parts = text.split("`")
    out = []
    for i, p in enumerate(parts):
        if i % 2:
            out.append("<code>%s</code>" % html.escape(p))
            continue
        p = re.sub(r"\[([^\]]*)\]\(([^)]*)\)", r"\1 (\2)", p)
        segs = html.escape(p).split("**")
        out.append("".join(("<b>%s</b>" % x) if j % 2 else x for j, x in enumerate(segs)))
    return "".join(out)


def _md_cells(line):
    """The cells of a Markdown table row ('| a | b |'), with escaped pipes kept."""
    cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
    return [c.strip().replace("\\|", "|") for c in cells]


def _md_to_html(text, demote, out):
    """A small Markdown-to-HTML converter for hand-written notes: ATX headings,
    fenced code, tables, '-'/'*' lists and paragraphs; anything else is a paragraph."""
    lines = text.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append("<pre>%s</pre>" % html.escape("\n".join(lines[i + 1:j])))
            i = j + 1
        elif re.match(r"^#{1,6} ", line):
            level = min(6, len(line.split(" ", 1)[0]) + demote)
            out.append("<h%d>%s</h%d>" % (level, _html_inline_md(line.split(" ", 1)[1].strip()), level))
            i += 1
        elif line.lstrip().startswith("|"):
            j = i
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            rows = [_md_cells(r) for r in lines[i:j] if not re.match(r"^\s*\|[\s:|-]*\|\s*$", r)]
            out.append("<table>")
            for k, r in enumerate(rows):
                tag = "th" if k == 0 else "td"
                out.append("<tr>" + "".join("<%s>%s</%s>" % (tag, _html_inline_md(c), tag) for c in r) + "</tr>")
            out.append("</table>")
            i = j
        elif re.match(r"^\s*[-*] ", line):
            items = []
            while i < len(lines) and lines[i].strip() and not lines[i].lstrip().startswith("|"):
                if re.match(r"^\s*[-*] ", lines[i]):
                    items.append(lines[i].lstrip()[2:])
                else:
                    items[-1] += " " + lines[i].strip()
                i += 1
            out.append("<ul>" + "".join("<li>%s</li>" % _html_inline_md(t) for t in items) + "</ul>")
        else:
            j = i
            while j < len(lines) and lines[j].strip() and not re.match(r"^(#{1,6} |```|\s*\||\s*[-*] )", lines[j]):
                j += 1
            out.append("<p>%s</p>" % _html_inline_md(" ".join(l.strip() for l in lines[i:j])))
            i = j
