"""isolation_bench.py - what isolation costs: a crash (the fork server), the input guard pages, the default suite against ref.

Sections of reports/bench.md (bench/report.py calls them). Each returns
Markdown lines; times are medians of whole bcast-run commands (wall), on the
machine and load bench/report.py prints.
"""

import os
import statistics
import subprocess
import time

GOAL_CRASH_MS = 1.0          # issue 13.12: a crash costs at most 1 ms ...
GOAL_CRASH_RATIO = 5.0       # ... and an all-crash run at most 5x a clean one
GOAL_SUITE_S = 0.5           # issue 15.1: the whole default suite against ref on 2 cores


def _wall(cmd, runs, env=None):
    """Median wall seconds of cmd (exit 0 or 1: failures are still complete runs)."""
    times = []
    for i in range(runs + 1):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           env=dict(os.environ, **(env or {})))
        t = time.perf_counter() - t0
        if p.returncode not in (0, 1):
            raise RuntimeError("%s failed (exit %d): %s" % (" ".join(cmd), p.returncode, p.stderr[-300:]))
        if i > 0:
            times.append(t)
    return statistics.median(times)


def _count(runner, args):
    out = subprocess.run([runner, "--list", *args], stdout=subprocess.PIPE, text=True, check=False).stdout
    return sum(1 for line in out.splitlines() if line.strip())


def crash_cost(build, runs):
    """A run in which every case crashes (targets/broken/crash.c: mul stores through
    NULL) against ref on the same cases, with the fork server and without it."""
    runner = os.path.join(build, "bcast-run")
    crash = os.path.join(build, "targets", "test", "crash.so")
    ref = os.path.join(build, "targets", "ref.so")
    if not (os.access(runner, os.X_OK) and os.path.exists(crash)):
        return ["skipped: needs %s and %s (`make test-targets`)" % (runner, crash)]
    sel = ["--op", "mul", "--suite", "ops", "--suite", "exhaustive", "--suite", "zero-size", "--suite", "layouts",
           "cases"]
    n = _count(runner, sel)
    clean = _wall([runner, "--target", ref, *sel], runs)
    rows, verdict = [], []
    for label, env in (("fork server (default)", {}), ("no fork server (BCAST_RUN_FORK_SERVER=0)", {"BCAST_RUN_FORK_SERVER": "0"})):
        t = _wall([runner, "--target", crash, *sel], runs, env)
        per = (t - clean) / n * 1e3
        rows.append("| %s | %.3f | %.2f | %.1fx |" % (label, t, per, t / clean))
        if not env:
            verdict = ["- goal a crash costs at most %.0f ms: %.2f ms: %s" % (GOAL_CRASH_MS, per, "met" if per <= GOAL_CRASH_MS else "**missed**"),
                       "- goal an all-crash run at most %.0fx a clean one: %.1fx: %s" % (
                           GOAL_CRASH_RATIO, t / clean, "met" if t / clean <= GOAL_CRASH_RATIO else "**missed**")]
    rows += _fork_floor(build, n, runs)
    return ["%d cases (`--op mul` of the ops, exhaustive, zero-size and layouts suites), `--jobs 1`: ref passes "
            "them in %.3f s; targets/broken/crash.c crashes on every one (SIGSEGV), so every case costs a worker. "
            "Cost per crash = (all-crash run - clean run) / cases. The floor is what the kernel alone takes: "
            "bench/fork_floor.c forks as many small processes one after another, each dying of SIGSEGV after a "
            "handler that returns, and reaps them (its wall / cases)." % (n, clean), "",
            "| workers | wall s | ms per crash | vs clean |", "| --- | ---: | ---: | ---: |", *rows, "", *verdict]


def _fork_floor(build, n, runs):
    """The table row of bench/fork_floor.c run for n crashes, or none without it."""
    floor = os.path.join(build, "fork-floor")
    if not os.access(floor, os.X_OK):
        return []
    t = _wall([floor, str(n)], runs)
    return ["| floor: fork + SIGSEGV + waitpid of a small process (bench/fork_floor.c) | %.3f | %.2f | - |" % (t, t / n * 1e3)]


def pipe_restart(build, python, runs):
    """What replacing a pipe target's worker costs: the bridge's interpreter start
    and imports, measured as a one-case run minus ref's one-case run."""
    runner = os.path.join(build, "bcast-run")
    pipe = os.path.join(build, "targets", "pipe.so")
    ref = os.path.join(build, "targets", "ref.so")
    if not os.path.exists(pipe):
        return ["skipped: needs %s" % pipe]
    one = ["--id", "exhaustive/add/f32/()x()", "cases/exhaustive.cases"]
    base = _wall([runner, "--target", ref, *one], runs)
    out = ["A crashed case of a pipe target restarts its bridge: the fork server cannot help, since the bridge "
           "is a separate process started by each worker's init(). One-case runs (median wall):", "",
           "| target | one case s | bridge start s |", "| --- | ---: | ---: |",
           "| ref (no bridge) | %.3f | - |" % base]
    for name, arg in (("numpy bridge", "%s targets/pipe/bridges/numpy_bridge.py" % python),
                      ("torch bridge", "%s targets/pipe/bridges/torch_bridge.py" % python)):
        try:
            t = _wall([runner, "--target", pipe, "--target-arg", arg, *one], runs)
            out.append("| %s | %.3f | %.3f |" % (name, t, t - base))
        except RuntimeError as err:
            out.append("| %s | - | not measured: %s |" % (name, str(err)[:80]))
    out += ["", "Crashes in the bundled Python bridges are rare (the committed reports hold 4 for torch and 2 for "
            "numexpr, all SIGFPE), so nothing more was done for them; a bridge that crashes often pays this "
            "start per crash."]
    return out


def guard_cost(build, runs):
    """The whole default suite against ref with inputs copied against guard pages
    at both ends (the default: a second, start call per case), at one end, and
    passed in place (--guard off); and the 0.5 s goal (on the default)."""
    runner = os.path.join(build, "bcast-run")
    ref = os.path.join(build, "targets", "ref.so")
    if not os.access(runner, os.X_OK):
        return ["skipped: needs %s" % runner]
    n = _count(runner, ["cases"])
    t = {g: _wall([runner, "--target", ref, "--jobs", "2", "--guard", g, "cases"], runs) for g in ("both", "end", "start", "off")}
    return ["The whole default suite (%d cases) against ref, `--jobs 2`, median wall:" % n, "",
            "| inputs | wall s | vs in place |", "| --- | ---: | ---: |",
            "| guarded copies, guard page after the storage, then before it (default, `--guard both`) | %.3f | %+.0f%% |" % (t["both"], 100 * (t["both"] / t["off"] - 1)),
            "| guarded copies, guard page after the storage (`--guard end`) | %.3f | %+.0f%% |" % (t["end"], 100 * (t["end"] / t["off"] - 1)),
            "| guarded copies, guard page before the storage (`--guard start`) | %.3f | %+.0f%% |" % (t["start"], 100 * (t["start"] / t["off"] - 1)),
            "| passed in place, read-only pages (`--guard off`) | %.3f | - |" % t["off"], "",
            "- goal the whole default suite against ref under %.1f s on 2 cores: %.3f s: %s" % (
                GOAL_SUITE_S, t["both"], "met" if t["both"] <= GOAL_SUITE_S else "**missed**")]
