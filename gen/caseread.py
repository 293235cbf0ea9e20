"""caseread.py - reads case files (docs/case-format.md) back into gen/'s model, data included.

gen/ writes cases (caseio.py) and, for promoting explored cases (confirm.py,
suite_explored.py), reads them back: every arg becomes an Operand whose
storage is a numpy array of its dtype (pattern args are expanded), every
expectation a (profile, Outcome, compare) triple whose values are the
format's tokens as caseio.fmt_values spells them, so they compare with an
oracle's Outcome directly. The reader is strict about what it needs and
raises GenError("FILE:LINE: why") on anything else.
"""

import numpy as np

from caseio import NP_DTYPE, FLOAT_DTYPES, GenError, Operand, Outcome, fmt_values


class Record:
    """One case record: id, suite, tags, rules, op, mode, source, attrs, args
    (Operands), expects [(profile, Outcome, compare)], messages, and `text`,
    the record's lines exactly as read (from `case` to `end`)."""

    def __init__(self, case_id, path, line):
        self.id = case_id
        self.path, self.line = path, line
        self.suite, self.op, self.mode = "", "", "value"
        self.tags, self.rules, self.source = [], [], []
        self.attrs, self.args, self.expects, self.messages = [], [], [], []
        self.text = []

    def expect_for(self, profile):
        """(Outcome, compare) that applies under profile (the first, in grad mode)."""
        lines = self.expects_for(profile)
        return lines[0] if lines else (None, None)

    def expects_for(self, profile):
        """[(Outcome, compare)] that apply under profile: its own lines, else the
        `*` lines, which cover numpy and torch, and numpy2 and torch2 only when
        source names a generation-2 oracle (docs/case-format.md). In grad mode
        an ok Outcome has `grad_name`, the input it is the gradient of."""
        own = [(oc, cmp) for p, oc, cmp in self.expects if p == profile]
        if own:
            return own
        if profile.endswith("2") and not any(w in self.source for w in ("numpy2", "torch2", "rule", "ref2")):
            return []
        return [(oc, cmp) for p, oc, cmp in self.expects if p == "*"]


def parse_float(tok):
    if tok in ("nan", "inf", "-inf"):
        return float(tok)
    if tok.startswith(("0x", "-0x")):
        return float.fromhex(tok)
    return float(tok)


def nan_bits(tok, dtype):
    """The bit pattern of a `[-]nan(0xP)` token (docs/case-format.md), or None for any other token."""
    neg = tok.startswith("-")
    body = tok[1:] if neg else tok
    if not (body.startswith("nan(0x") and body.endswith(")")):
        return None
    mbits, top = (23, 31) if dtype == "f32" else (52, 63)
    m = int(body[6:-1], 16)
    if not 0 < m < 1 << mbits:
        raise ValueError("NaN payload %s out of range for %s" % (tok, dtype))
    return (neg << top) | (((1 << (top - mbits)) - 1) << mbits) | m


def _parse_floats(tokens, dtype):
    """Float tokens -> array of dtype; NaN payload tokens set bit by bit."""
    arr = np.array([float("nan") if nan_bits(t, dtype) is not None else parse_float(t) for t in tokens],
                   dtype=np.float64).astype(NP_DTYPE[dtype])
    bits = arr.view("u4" if dtype == "f32" else "u8")
    for i, t in enumerate(tokens):
        b = nan_bits(t, dtype)
        if b is not None:
            bits[i] = b
    return arr


def parse_values(tokens, dtype, where):
    """Format tokens -> numpy array of dtype."""
    try:
        if dtype in FLOAT_DTYPES:
            return _parse_floats(tokens, dtype)
        return np.array([int(t) for t in tokens], dtype=np.int64).astype(NP_DTYPE[dtype])
    except (ValueError, OverflowError) as exc:
        raise GenError("%s: bad %s value: %s" % (where, dtype, exc))


def ramp(pattern, dtype, n):
    """The `pattern ramp A B M K D` storage of docs/case-format.md."""
    a, b, m, k, d = pattern
    v = (np.arange(n, dtype=object) * a + b) % m - k
    if dtype in FLOAT_DTYPES:
        return np.array([float(x) / d for x in v], dtype=np.float64).astype(NP_DTYPE[dtype])
    if dtype == "bool":
        return np.array([x != 0 for x in v], dtype=np.bool_)
    bits = np.dtype(NP_DTYPE[dtype]).itemsize * 8
    return np.array([int(x) % (1 << bits) for x in v], dtype=np.uint64).astype(NP_DTYPE[dtype])


def shape_of(text, where):
    inner = text.strip()
    if not (inner.startswith("(") and inner.endswith(")")):
        raise GenError("%s: bad shape %r" % (where, text))
    return tuple(int(t) for t in inner[1:-1].split(",") if t != "")


class _Reader:
    def __init__(self, path):
        self.path, self.records, self.cur, self.pending, self.no = path, [], None, None, 0

    def where(self):
        return "%s:%d" % (self.path, self.no)

    def data(self, key, rest):
        kind, target = self.pending
        self.pending = None
        toks = rest.split(" ") if rest else []
        if kind == "arg":
            name, dtype, shape, strides, offset, storage = target
            if key == "values":
                st = parse_values(toks, dtype, self.where())
            elif key == "pattern":
                st = ramp(tuple(int(t) for t in toks[1:6]), dtype, storage)
            else:
                raise GenError("%s: %s after arg %s" % (self.where(), key, name))
            if len(st) != storage:
                raise GenError("%s: arg %s: %d values for storage %d" % (self.where(), name, len(st), storage))
            self.cur.args.append(Operand(name, dtype, shape, strides, offset, storage=st, storage_len=storage))
        else:
            profile, dtype, shape, compare, grad_name = target
            if key == "digest":
                oc = Outcome("ok", dtype, shape, digest=(toks[1], int(toks[2])))
            elif dtype == "-":
                oc = Outcome("ok", "-", shape, [])
            else:
                oc = Outcome("ok", dtype, shape, fmt_values(parse_values(toks, dtype, self.where()), dtype))
            oc.grad_name = grad_name
            self.cur.expects.append((profile, oc, compare))

    def keyword(self, key, rest):
        c = self.cur
        if key in ("tags", "rules", "source"):
            setattr(c, key, rest.split())
        elif key in ("suite", "op", "mode"):
            setattr(c, key, rest)
        elif key == "attr":
            k, _, v = rest.partition(" ")
            c.attrs.append((k, v))
        elif key == "message":
            lib, _, text = rest.partition(" ")
            c.messages.append((lib, text))
        elif key == "arg":
            f = rest.split(" ")
            if len(f) != 6:
                raise GenError("%s: arg needs 6 fields" % self.where())
            shape = shape_of(f[2], self.where())
            if f[1] == "-":
                c.args.append(Operand(f[0], "-", shape, strides=(0,) * len(shape), offset=0, storage=None,
                                      storage_len=1))
            else:
                self.pending = ("arg", (f[0], f[1], shape, shape_of(f[3], self.where()), int(f[4]), int(f[5])))
        elif key == "expect":
            f = rest.split(" ")
            if len(f) == 3 and f[1] == "error":
                c.expects.append((f[0], Outcome("error", cls=f[2]), "exact"))
            elif len(f) >= 5 and f[1] == "ok":
                self.pending = ("expect", (f[0], f[2], shape_of(f[3], self.where()), " ".join(f[4:]), None))
            elif len(f) >= 6 and f[1] == "grad":
                self.pending = ("expect", (f[0], f[3], shape_of(f[4], self.where()), " ".join(f[5:]), f[2]))
            else:
                raise GenError("%s: malformed expect line" % self.where())
        else:
            raise GenError("%s: unknown key %r" % (self.where(), key))

    def line(self, line):
        self.no += 1
        if self.no == 1:
            if line != "bcast-cases 1":
                raise GenError("%s: not a bcast-cases 1 file" % self.where())
            return
        if not line or line.startswith("#"):
            return
        key, _, rest = line.partition(" ")
        if self.pending is not None:
            self.data(key, rest)
        elif key == "case":
            if self.cur is not None:
                raise GenError("%s: case %s opened before %s ended" % (self.where(), rest, self.cur.id))
            self.cur = Record(rest, self.path, self.no)
        elif self.cur is None:
            raise GenError("%s: %r outside a case record" % (self.where(), key))
        elif key == "end":
            self.records.append(self.cur)
        else:
            self.keyword(key, rest)
        if self.cur is not None:
            self.cur.text.append(line)
            if key == "end" and self.pending is None:
                self.cur = None


def read_file(path):
    """Every record of one case file, in file order."""
    r = _Reader(path)
    with open(path, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            r.line(line)
    if r.cur is not None or r.pending is not None:
        raise GenError("%s: truncated (a record or data line is missing)" % path)
    return r.records

