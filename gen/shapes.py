"""shapes.py - shape enumeration for the suites."""

import itertools

EXTENTS = (0, 1, 2, 3)


def all_shapes(max_rank=3, extents=EXTENTS):
    """Every shape of rank 0..max_rank over extents, by rank then lexicographically.
    With the defaults: 1 + 4 + 16 + 64 = 85 shapes."""
    out = []
    for r in range(max_rank + 1):
        out.extend(itertools.product(extents, repeat=r))
    return [tuple(s) for s in out]


def shape_pairs(shapes):
    """Every ordered pair (7,225 for the 85 default shapes)."""
    return [(a, b) for a in shapes for b in shapes]


def broadcast(*shapes):
    """B1-B3 in plain Python, for choosing cases (never for expectations)."""
    r = max((len(s) for s in shapes), default=0)
    out = []
    for k in range(r, 0, -1):
        ext = {s[-k] for s in shapes if k <= len(s)}
        ext.discard(1)
        if len(ext) > 1:
            return None
        out.append(ext.pop() if ext else 1)
    return tuple(out)
