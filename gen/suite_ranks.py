"""suite_ranks.py - ranks 4-8 sampled; 32, 33, 64 and 65 dimensions (B15: NumPy stops at 32)."""

from builder import make_case, operand, rng_for, shape_arg
from caseio import fmt_shape, seed_of
import numpy as np

SUITE = "ranks"


def sampled(rank, count):
    """Deterministic random pairs of rank <= `rank` (one of them exactly `rank`),
    extents mostly 1 and 2 so outputs stay small; a few mismatches."""
    rng = np.random.RandomState(seed_of("ranks/%d" % rank))
    out = []
    for _ in range(count):
        a = tuple(int(v) for v in rng.choice([1, 1, 2, 2, 3], rank))
        rb = int(rng.randint(0, rank + 1))
        b = []
        for k in range(rb):
            ext_a = a[rank - rb + k]
            r = rng.rand()
            b.append(1 if r < 0.35 else ext_a if r < 0.9 else int(rng.choice([0, 2, 3])))
        b = tuple(b)
        if rng.rand() < 0.5:
            a, b = b, a
        out.append((a, b))
    return out


def big_rank_pairs():
    """32/33/64/65 dims: all-1 shapes with a few 2s, against each other and low ranks."""
    out = []
    for r in (31, 32, 33, 64, 65):
        ones = (1,) * r
        two_first = (2,) + (1,) * (r - 1)
        two_last = (1,) * (r - 1) + (2,)
        out += [(ones, ones), (two_first, two_last), (ones, (3,)), ((3,), two_last),
                (two_last, (2, 1)), (two_first, (3,) + (1,) * (r - 1)), (ones, ())]
    out += [((1,) * 32, (1,) * 33), ((2,) + (1,) * 31, (1,) * 33), ((1,) * 64, (1,) * 65)]
    return out


def sid(shape):
    """Ids of long shapes: runs of 1s compressed as 1^n (ids stay readable)."""
    if len(shape) <= 8:
        return fmt_shape(shape)
    parts, i = [], 0
    while i < len(shape):
        j = i
        while j < len(shape) and shape[j] == shape[i]:
            j += 1
        parts.append("%d^%d" % (shape[i], j - i) if j - i > 1 else str(shape[i]))
        i = j
    return "[" + ",".join(parts) + "]r%d" % len(shape)


def cases():
    seen = set()
    for rank in range(4, 9):
        for a, b in sampled(rank, 60):
            cid = "ranks/add/f32/%sx%s" % (fmt_shape(a), fmt_shape(b))
            if cid in seen:
                continue
            seen.add(cid)
            rng = rng_for(cid)
            yield make_case(cid, SUITE, "add", [operand("x", "f32", a, rng), operand("y", "f32", b, rng)],
                            rules=("B1", "B2", "B3"))
    for a, b in big_rank_pairs():
        for op, dt in (("add", "f32"), ("mul", "i32")):
            cid = "ranks/%s/%s/%sx%s" % (op, dt, sid(a), sid(b))
            rng = rng_for(cid)
            yield make_case(cid, SUITE, op, [operand("x", dt, a, rng), operand("y", dt, b, rng)],
                            rules=("B1", "B2", "B3", "B15"))
        cid = "ranks/broadcast_shapes/%sx%s" % (sid(a), sid(b))
        yield make_case(cid, SUITE, "broadcast_shapes", [shape_arg("s0", a), shape_arg("s1", b)],
                        rules=("B4", "B15"))
