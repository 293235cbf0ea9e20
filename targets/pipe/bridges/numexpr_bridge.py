"""numexpr_bridge.py - numexpr's string expressions behind the pipe protocol (targets/registry.tsv: numexpr).

Each op is the numexpr expression a user would write ('x + y', 'where(c, x, y)')
evaluated with ne.evaluate over NumPy strided views; numexpr broadcasts its
operands itself. In-place and out= use evaluate's documented out= argument
(out=self / out=out). Declared from the numexpr 2.8 user guide
(doc/user_guide.rst): the operators it lists, "Bitwise operators (and, or,
not, xor): &, |, ~, ^", "Comparison operators", "Binary arithmetic operators:
+, -, *, /, **, %", and where(); not declared: floor_divide (no //),
maximum/minimum (no such function), matmul and the shape ops, and
logical_and/or/xor (numexpr's only and/or/xor are & | ^, declared as the
bitwise ops; on booleans they are the logical ones). All eight dtypes: the
guide's casting rules say int8, uint8 and int16 arrays are accepted and
"internally upcasted to an int (or int32 in NumPy notation)", which is
numexpr's answer for them, not a limit.
The one branch on the release: numexpr 2.13.0 added "floor division: //" and
the functions maximum and minimum (RELEASE_NOTES.rst, "Changes from 2.12.1 to
2.13.0"), so from 2.13 on floor_divide ('x // y'), maximum and minimum are
declared too (targets/registry.tsv: numexpr-2.14, the current PyPI release;
numexpr is Debian's 2.8.4).
"""

import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bcast_bridge as bb  # noqa: E402

try:
    import numexpr as ne
except ImportError as exc:
    bb.fail("numexpr is not importable: %s" % exc)

from numpy_bridge import classify, numpy_profile, reply_wrote_then_error, result, view  # noqa: E402

EXPR = {
    "add": "x + y", "sub": "x - y", "mul": "x * y", "div": "x / y", "pow": "x ** y", "remainder": "x % y",
    "eq": "x == y", "ne": "x != y", "lt": "x < y", "le": "x <= y", "gt": "x > y", "ge": "x >= y",
    "bitwise_and": "x & y", "bitwise_or": "x | y", "bitwise_xor": "x ^ y",
    "where": "where(c, x, y)",
    # issue #25 (docs/semantics.md B38), value mode only: numexpr's own functions
    "atan2": "arctan2(x, y)", "fmod": "fmod(x, y)",
}
# numexpr >= 2.13.0 (RELEASE_NOTES.rst: "New binary arithmetic operator for floor division: //", "New
# functions: ... maximum, minimum ...")
EXPR_SINCE_2_13 = {"floor_divide": "x // y", "maximum": "maximum(x, y)", "minimum": "minimum(x, y)"}


def release():
    """numexpr's (major, minor) from its version string ('2.8.4' -> (2, 8))."""
    return tuple(int(p) for p in ne.__version__.split(".")[:2])


# issue #25 (B38): functions numexpr 2.14.2 evaluates and 2.8.4 does not know (measured: 2.8.4
# raises "'VariableNode' object is not callable" for each)
EXPR_SINCE_2_13.update({"copysign": "copysign(x, y)", "hypot": "hypot(x, y)", "nextafter": "nextafter(x, y)"})

if release() >= (2, 13):
    EXPR.update(EXPR_SINCE_2_13)


def run(case):
    args, mode = case.args, case.mode
    wi = 0 if mode == "inplace" else len(args) - 1 if mode == "out" else -1
    try:
        views = [view(a, readonly=(i == wi and a.overlaps())) for i, a in enumerate(args)]
        names = ("c", "x", "y") if case.op == "where" else ("x", "y")
        env = dict(zip(names, [v for _, v in views]))
        if mode == "value":
            return result(ne.evaluate(EXPR[case.op], local_dict=env))
        storage, w = views[wi]
        before = storage.tobytes()
        try:
            ne.evaluate(EXPR[case.op], local_dict=env, out=w)
        except Exception:
            if storage.tobytes() != before:
                return reply_wrote_then_error(args[wi].dtype, w, sys.exc_info()[1])
            raise
        return result(w)
    except Exception as exc:  # noqa: BLE001 - every library error is an answer
        return bb.reply_error(*classify(exc))


def main():
    warnings.simplefilter("ignore")
    ne.set_num_threads(1)
    hello = bb.Hello("numexpr", ne.__version__, numpy_profile(), ops=list(EXPR),
                     dtypes=bb.NAMES, max_rank=0,
                     flags=("strided", "inplace", "out"))
    bb.serve(hello, run)


if __name__ == "__main__":
    main()
