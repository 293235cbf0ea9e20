"""suite_seeds.py - every example of /work/shared/seeds (gen/seed_examples.py).

The seed's claim is recorded as a comment; the expectation always comes from
the oracles (or the rule, for Paddle's axis)."""

import numpy as np

from builder import make_case, operand, rng_for
from caseio import fmt_shape, NP_DTYPE

SUITE = "seeds"


def load():
    import seed_examples
    return seed_examples.EXAMPLES


def build(ex):
    """(op, mode, args, attrs, rules) for one example."""
    cid = "seeds/" + ex["name"]
    rng = rng_for(cid)
    dt = ex.get("dtype") or "f32"
    shapes = [tuple(s) for s in ex["shapes"]]
    kind = ex["kind"]
    attrs = ()
    if kind == "values":
        vals = ex["values"]
        args = [operand(n, dt, s, rng, np.asarray(v, dtype=NP_DTYPE[dt]).reshape(-1))
                for n, s, v in zip(("x", "y"), shapes, vals)]
        return ex.get("op") or "add", "value", args, attrs, ("B1", "B2")
    if kind == "inplace":
        args = [operand("self", dt, shapes[0], rng), operand("y", dt, shapes[1], rng)]
        return ex.get("op") or "add", "inplace", args, attrs, ("B8", "B22")
    if kind == "axis":
        args = [operand("x", dt, shapes[0], rng), operand("y", dt, shapes[1], rng)]
        return "axis_add", "value", args, (("axis", str(ex["axis"])),), ("B10", "B11")
    if kind in ("matmul", "dot"):
        args = [operand("x", dt, shapes[0], rng), operand("y", dt, shapes[1], rng)]
        return "matmul", "value", args, attrs, ("B12", "B13", "B14")
    if kind == "broadcast":
        args = [operand(n, dt, s, rng) for n, s in zip(("x", "y"), shapes)]
        return ex.get("op") or "add", "value", args, attrs, ("B1", "B2", "B3")
    raise ValueError("seed example %s: unknown kind %r" % (ex.get("name"), kind))


def cases(examples=None):
    for ex in (load() if examples is None else examples):
        op, mode, args, attrs, rules = build(ex)
        comments = ["seed %s: %s" % (ex["seed"], " ".join(str(ex.get("quote", "")).split())[:200]),
                    "the seed claims: %s" % " ".join(str(ex.get("claim", "")).split())[:200]]
        if ex.get("note"):
            comments.append("note: " + " ".join(str(ex["note"]).split())[:300])
        yield make_case("seeds/" + ex["name"], SUITE, op, args, mode=mode, attrs=attrs, rules=rules,
                        comments=comments, tags=("seed",))
