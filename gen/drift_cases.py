"""drift_cases.py - make_cases.py with unknown oracle errors recorded instead of fatal: for measuring a newer NumPy/torch.

    BCAST_FNV1A64=build/gen/fnv1a64 $(PYTHON2) gen/drift_cases.py --out DIR [make_cases.py's options]

make_cases.py stops at an exception text no rule of oracles.py recognises (a
person must classify it). Run under another NumPy or torch, many messages are
new, so this driver maps each unrecognised one to class `other` with the
message `UNCLASSIFIED <text>` and carries on, so that gen/oracle_drift.py can
count what changes. Its output is a measurement, never cases/: the patch is
applied at import so that make_cases.py's spawned workers (which import this
module as __mp_main__) run with it too.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import caseio  # noqa: E402
import oracles  # noqa: E402

_classify = oracles.classify


def classify_or_mark(lib, exc, negative_target=False):
    """oracles.classify, except that an unrecognised exception is ('other', 'UNCLASSIFIED text')."""
    try:
        return _classify(lib, exc, negative_target)
    except caseio.GenError:
        return "other", "UNCLASSIFIED %s: %s" % (type(exc).__name__, oracles.first_line(exc))


oracles.classify = classify_or_mark

if __name__ == "__main__":
    import make_cases
    try:
        sys.exit(make_cases.main())
    except caseio.GenError as e:
        print("drift_cases: error: %s" % e, file=sys.stderr)
        sys.exit(1)
