"""confirm.py - promotes explored cases: NumPy and torch re-derive their expectations, and ref must agree.

    /usr/bin/python3 gen/confirm.py [--check] [--jobs N] [--inputs FILE] CASEFILE...

CASEFILE is written by `bcast-run explore --emit` (expectations from ref,
source ref). For every case, gen/builder.py's make_case runs each oracle that
can express it (NumPy, torch, or the rule for ops neither library has) and
merges their outcomes as for any generated case. Then, per profile:

  - where the profile's own oracle ran (NumPy or the rule for numpy, torch
    for torch) and ref's expectation differs from it, ref has a bug: the case
    and both answers are printed, the exit status is 1, and nothing is
    promoted (fix ref, with a unit test, and run again);
  - where no oracle speaks for the profile (torch has no in-place maximum,
    the rule is NumPy's), ref's answer is compared with the expectation the
    regular case would carry for it; a difference makes the case
    unpromotable (listed, not an error: no library says ref is wrong);
  - a case no oracle can express (a result dtype outside the eight, an
    exception gen/ does not classify) is listed and skipped.

Without --check, every confirmed case's record is appended, once, to
--inputs (default gen/explored/inputs.cases); `make cases` (gen/suite_explored.py)
builds the `explored` suite, cases/explored.cases, from that file through
the oracles. `make confirm FILE=...` does both steps; `make explore-check`
runs --check on cases bcast-run explore generates for ref (CI).

Exit status: 0 all agree, 1 a ref bug was found, 2 bad input.
"""

import argparse
from concurrent.futures import ProcessPoolExecutor
import multiprocessing
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from caseio import GenError, FORMAT_HEADER  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATIONS = {1: ("numpy", "torch"), 2: ("numpy2", "torch2")}   # the profiles this process's oracles speak for
DIGEST_OVER = 4100   # bcast-run writes an exact result of more elements as its digest (BR_WRITE_DIGEST_OVER)
DEFAULT_INPUTS = os.path.join(HERE, "explored", "inputs.cases")
RULE_OPS = {"axis_add", "uni_add"}


def oracle_for(profile, outs, op):
    """(library, Outcome) of the oracle that speaks for profile, or (None, None).
    This process runs one generation's NumPy and torch: numpy2 is its NumPy
    under --generation 2."""
    profile = profile.rstrip("2")
    if profile == "numpy":
        lib = "rule" if op in RULE_OPS else "numpy"
    else:
        lib = "torch"
    return (lib, outs[lib]) if lib in outs else (None, None)


def built_for(case, profile):
    for p, oc, cmp in case.expects:
        if p in ("*", profile.rstrip("2")):
            return oc, cmp
    return None, None


def written_like(oc, ref):
    """oc (an oracle's outcome, its raw array kept) as ref is written: a digest
    when ref is one, else values tokens."""
    import digest
    from caseio import Outcome, fmt_values
    if oc.kind == "ok" and getattr(oc, "array", None) is None and oc.values is not None and oc.dtype != "-" \
            and ref.kind == "ok" and ref.digest is not None:   # the rule's values, against ref's digest
        import caseread
        arr = caseread.parse_values(oc.values, oc.dtype, "oracle").reshape(oc.shape)
        return Outcome("ok", oc.dtype, oc.shape, digest=digest.fnv1a64(arr))
    if oc.kind != "ok" or getattr(oc, "array", None) is None:
        return oc
    if ref.kind == "ok" and ref.digest is not None:
        return Outcome("ok", oc.dtype, oc.shape, digest=digest.fnv1a64(oc.array))
    return Outcome("ok", oc.dtype, oc.shape, fmt_values(oc.array.reshape(-1), oc.dtype))


def grads_agree(refs, oracle):
    """ref's gradient expectations [(Outcome, compare)] against a grad oracle's outcome."""
    import caseread
    import digest
    import grad_builder
    first = refs[0][0]
    if first.kind == "error" or oracle.kind == "error":
        return first.kind == oracle.kind and first.cls == oracle.cls
    if [(oc.grad_name, oc.dtype, oc.shape) for oc, _ in refs] != [(g.name, g.dtype, g.shape) for g in oracle.grads]:
        return False
    for (oc, cmp), g in zip(refs, oracle.grads):
        if oc.digest is not None:
            if cmp != "exact" or tuple(digest.fnv1a64(g.array)) != tuple(oc.digest):
                return False
        elif not grad_builder._same(caseread.parse_values(oc.values, oc.dtype, oc.grad_name), g.array, g.dtype, cmp):
            return False
    return True


def show_grads(refs_or_oc):
    if isinstance(refs_or_oc, list):
        oc = refs_or_oc[0][0]
        if oc.kind == "error":
            return show(oc)
        return "grads " + ", ".join("%s %s %s" % (o.grad_name, o.dtype, o.shape) for o, _ in refs_or_oc)
    if refs_or_oc.kind == "error":
        return show(refs_or_oc)
    return "grads " + ", ".join("%s %s %s" % (g.name, g.dtype, g.shape) for g in refs_or_oc.grads)


def judge_grad(rec, profiles):
    """A grad-mode record: ref's gradients against NumPy's and torch's backward (gen/grad_oracles.py)."""
    import grad_oracles
    import oracles
    args, grad = rec.args[:-1], rec.args[-1]
    libs = ("torch",) if rec.op == "expand" else ("numpy", "torch")
    everything = list(rec.args)
    if oracles.numpy_would_crash(everything):   # NumPy 1.24 aborts on views of more than 65 dims (builder.py)
        libs = tuple(l for l in libs if l != "numpy")
    if oracles.torch_uses_numpy_views("value", everything) or oracles.torch_would_crash(rec.op, "value", args):
        libs = tuple(l for l in libs if l != "torch")
    outs = {}
    try:
        for lib in libs:
            run = grad_oracles.run_numpy_grad if lib == "numpy" else grad_oracles.run_torch_grad
            outs[lib] = run(rec.op, args, grad, rec.attrs)
    except GenError as exc:
        return "unexpressible", str(exc)
    except Exception as exc:  # an oracle failed in a way gen/ does not handle: a gen/ bug
        return "oracle-error", "%s: %s" % (type(exc).__name__, exc)
    bugs = []
    for profile in profiles:
        refs = rec.expects_for(profile)
        if not refs:
            return "unexpressible", "the record has no expectation for the %s profile" % profile
        lib = profile.rstrip("2")
        if lib in outs and not grads_agree(refs, outs[lib]):
            bugs.append((profile, lib, show_grads(refs), show_grads(outs[lib])))
    return ("bug", bugs) if bugs else ("confirmed", None)


def judge(rec, profiles=GENERATIONS[1]):
    """One record: ('confirmed', None), ('bug', [(profile, lib, ref, oracle)]),
    ('unpromotable', [(profile, ref, built)]) or ('unexpressible', why)."""
    import builder
    builder.set_shard(0, 1)
    if rec.mode == "grad":
        return judge_grad(rec, profiles)
    compare = rec.expects[0][2] if rec.expects else "exact"
    digested = any(oc.kind == "ok" and oc.digest is not None for _, oc, _ in rec.expects)
    try:
        case = builder.make_case(rec.id, "explored", rec.op, rec.args, mode=rec.mode, attrs=rec.attrs,
                                 rules=rec.rules, compare=compare, digest_over=DIGEST_OVER if digested else None)
    except GenError as exc:
        return "unexpressible", str(exc)
    except Exception as exc:  # an oracle failed in a way gen/ does not handle: a gen/ bug
        return "oracle-error", "%s: %s" % (type(exc).__name__, exc)
    if case is None:
        return "unexpressible", "an oracle's result dtype is none of the eight"
    bugs, loose = [], []
    for profile in profiles:
        ref, cmp = rec.expect_for(profile)
        if ref is None:
            return "unexpressible", "the record has no expectation for the %s profile" % profile
        lib, oracle = oracle_for(profile, case.oracle_outcomes, rec.op)
        if oracle is not None:
            oracle = written_like(oracle, ref)
            if not builder.agree(ref, oracle, cmp):
                bugs.append((profile, lib, ref, oracle))
            continue
        built, bcmp = built_for(case, profile)
        built = written_like(built, ref) if built is not None else None
        if built is not None and not builder.agree(ref, built, bcmp):
            loose.append((profile, ref, built))
    if bugs:
        return "bug", bugs
    if loose:
        return "unpromotable", loose
    return "confirmed", None


def judge_part(task):
    """Worker: the records of the files whose index is k mod n."""
    import caseread
    paths, k, n, generation = task
    out, i = [], 0
    for path in paths:
        for rec in caseread.read_file(path):
            if i % n == k:
                verdict, detail = judge(rec, GENERATIONS[generation])
                out.append((i, rec.id, "%s:%d" % (rec.path, rec.line), rec.text, verdict, detail))
            i += 1
    return out


def show(oc):
    if oc.kind == "error":
        return "error %s%s" % (oc.cls, (": " + oc.message) if oc.message else "")
    vals = " ".join((oc.values or [])[:12]) + (" ..." if oc.values and len(oc.values) > 12 else "")
    return "ok %s %s [%s]" % (oc.dtype, oc.shape, vals)


SHOWN = 10   # unpromotable / unexpressible cases listed one by one; the rest are counted


def report(results):
    """Prints every ref bug and oracle error loudly, the first SHOWN of the other
    verdicts briefly. Returns the counts."""
    counts = {}
    for _, cid, where, text, verdict, detail in results:
        counts[verdict] = counts.get(verdict, 0) + 1
        if verdict in ("unpromotable", "unexpressible") and counts[verdict] > SHOWN:
            continue
        if verdict == "bug":
            print("REF BUG: %s (%s): ref disagrees with the oracles" % (cid, where))
            for profile, lib, ref, oracle in detail:
                print("  %s profile: ref   %s" % (profile, ref if isinstance(ref, str) else show(ref)))
                print("  %s profile: %-5s %s" % (profile, lib, oracle if isinstance(oracle, str) else show(oracle)))
            print("  the case:")
            for line in text:
                print("    " + (line if len(line) < 400 else line[:400] + " ..."))
        elif verdict == "unpromotable":
            for profile, ref, built in detail:
                print("unpromotable: %s: no oracle for the %s profile, and ref's answer (%s) is not the "
                      "regular case's (%s)" % (cid, profile, show(ref), show(built)))
        elif verdict == "unexpressible":
            print("unexpressible: %s: %s" % (cid, detail))
        elif verdict == "oracle-error":
            print("ORACLE ERROR: %s (%s): %s" % (cid, where, detail))
    for verdict in ("unpromotable", "unexpressible"):
        if counts.get(verdict, 0) > SHOWN:
            print("... and %d more %s cases" % (counts[verdict] - SHOWN, verdict))
    return counts


def promote(results, inputs):
    """Appends the confirmed records not yet in inputs. Returns how many were new."""
    known = set()
    if os.path.exists(inputs):
        import caseread
        known = {"\n".join(r.text[1:]) for r in caseread.read_file(inputs)}
    new = []
    for _, _, _, text, verdict, _ in results:
        body = "\n".join(text[1:])
        if verdict == "confirmed" and body not in known:
            known.add(body)
            new.append("\n".join(text) + "\n")
    if not new:
        return 0
    os.makedirs(os.path.dirname(inputs), exist_ok=True)
    fresh = not os.path.exists(inputs)
    with open(inputs, "a", encoding="utf-8", newline="\n") as f:
        if fresh:
            f.write(FORMAT_HEADER + "\n# Inputs of the `explored` suite: explored cases confirmed by gen/confirm.py\n"
                    "# (make confirm). Their expectations are re-derived by NumPy and torch (make cases).\n")
        for rec in new:
            f.write("\n" + rec)
    return len(new)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--check", action="store_true", help="compare only; promote nothing")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--inputs", default=DEFAULT_INPUTS)
    ap.add_argument("--generation", type=int, choices=(1, 2), default=1,
                    help="the oracles this interpreter has: 1 NumPy 1.24/torch 1.13 (profiles numpy, torch), "
                         "2 NumPy 2/torch 2 (numpy2, torch2); only generation 1 promotes")
    opt = ap.parse_args(argv)
    if opt.generation == 2:
        opt.check = True   # the inputs are promoted once, by the generation-1 run
    t0 = time.time()
    tasks = [(opt.files, k, max(opt.jobs, 1), opt.generation) for k in range(max(opt.jobs, 1))]
    try:
        if opt.jobs > 1:
            # spawn, not fork: torch must not be initialised in a forked child
            with ProcessPoolExecutor(opt.jobs, mp_context=multiprocessing.get_context("spawn")) as ex:
                parts = list(ex.map(judge_part, tasks))
        else:
            parts = [judge_part(t) for t in tasks]
    except (GenError, OSError) as exc:
        print("confirm: error: %s" % exc, file=sys.stderr)
        return 2
    results = sorted((r for p in parts for r in p), key=lambda r: r[0])
    counts = report(results)
    added = 0 if opt.check or counts.get("bug") or counts.get("oracle-error") else promote(results, opt.inputs)
    print("confirm (%s): %d cases in %.1f s: %d confirmed, %d ref bugs, %d unpromotable, %d unexpressible%s"
          % ("/".join(GENERATIONS[opt.generation]), len(results), time.time() - t0, counts.get("confirmed", 0), counts.get("bug", 0),
             counts.get("unpromotable", 0), counts.get("unexpressible", 0),
             "" if opt.check else "; %d new in %s" % (added, opt.inputs)))
    if counts.get("bug"):
        print("confirm: FAILED: ref disagrees with NumPy or torch on %d cases (above): a bug in ref"
              % counts["bug"])
        return 1
    if counts.get("oracle-error"):
        print("confirm: FAILED: an oracle raised what gen/ does not handle on %d cases (above): a gen/ bug"
              % counts["oracle-error"])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
