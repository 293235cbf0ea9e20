"""suite_explored.py - explored cases promoted to regular ones: the inputs gen/confirm.py appended to gen/explored/inputs.cases.

`bcast-run explore --emit FILE` writes cases whose expectations come from ref;
`make confirm FILE=...` (gen/confirm.py) checks ref against NumPy and torch on
them and appends each confirmed record to gen/explored/inputs.cases. This
suite keeps only their operands, op, mode, attributes and rules: the
expectations are derived again by the oracles, as for every other suite. An
id names the op, the dtypes and shapes and a hash of the record, so the same
inputs always get the same id wherever they were found.
"""

import os
import zlib

import caseread
import grad_builder
from builder import make_case
from caseio import fmt_shape

SUITE = "explored"
DIGEST_OVER = 64   # a result (or gradient) of more elements is written as its digest: explored large cases
INPUTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "explored", "inputs.cases")


def case_id(rec):
    body = "\n".join(rec.text[1:])
    dts = ",".join(a.dtype for a in rec.args)
    shapes = "x".join(fmt_shape(a.shape) for a in rec.args)
    if len(shapes) > 120:
        shapes = shapes[:117] + "..."
    return "explored/%s/%s/%s/%08x" % (rec.op, dts, shapes, zlib.crc32(body.encode("utf-8")))


def cases(path=INPUTS):
    if not os.path.exists(path):
        return
    for rec in caseread.read_file(path):
        tags = ["explored"] + [t for t in rec.tags if t == "shrunk"]
        comments = ["promoted from %s (bcast-run explore; confirmed by gen/confirm.py)" % rec.id]
        if rec.mode == "grad":   # the op's inputs, then the incoming gradient; the oracles' own tolerances
            yield grad_builder.make_grad_case(case_id(rec), SUITE, rec.op, rec.args[:-1], rec.args[-1],
                                              attrs=rec.attrs, tags=tags, rules=rec.rules, expect_agree=False,
                                              digest_over=DIGEST_OVER, comments=comments)
            continue
        compare = rec.expects[0][2] if rec.expects else "exact"
        digest = compare == "exact" and rec.op != "pow"
        yield make_case(case_id(rec), SUITE, rec.op, rec.args, mode=rec.mode, attrs=rec.attrs,
                        tags=tags, rules=rec.rules, compare=compare, comments=comments,
                        digest_over=DIGEST_OVER if digest else None)
