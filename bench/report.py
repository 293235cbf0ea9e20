"""report.py - runs every benchmark and writes reports/bench.md, reports/bench-scaling.svg (kernels)
and reports/bench-runner-scaling.svg (runner).

    /usr/bin/python3 bench/report.py --build BUILD [--runs N] [--max-k K] [--out reports]
                                     [--cases DIR] [--gen 0|1] [--no-diagnose]

Run by `make bench` after `make`. Parts:
  2. reference kernel speed: BUILD/kernel-bench against bench/numpy_bench.py on
     the same data, and a memcpy of each output size, all in this run;
  3. memory: peak RSS of each broadcast, one fresh kernel-bench process each;
  5. scaling (kernel half): an output-size sweep, plotted log-log;
  4. generation: one timed `make cases` (--gen 0 skips it);
  1, 5 (runner half): bcast-run against bench/py_checker.py and over case
     subsets; each part prints "skipped: needs ..." while its pieces are missing;
  6-8. isolation: what a crash, a pipe target's restart and the input guard pages cost
     (bench/isolation_bench.py);
  9. sum-to-shape: BUILD/sum-bench (ref's bc_sum_to_shape, grad mode's reduction)
     against bench/numpy_sum_bench.py (NumPy's sum with keepdims), time and peak RSS;
  10. explore: cases/s of bcast-run explore against ref and through the NumPy
     bridge (profiled with perf when it misses its goal).
When a kernel misses its goal (ref more than 2x NumPy), the cause is measured:
callgrind's instruction counts, the packed-SIMD instructions in the hot loop,
and the same kernel rebuilt at -O3.
"""

import argparse
import glob
import math
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import isolation_bench  # noqa: E402  (bench/, beside this file)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PYTHON = "/usr/bin/python3"

GOAL_RATIO = 2.0              # ref within 2x of NumPy
GOAL_RSS_SLACK = 16 << 20     # peak RSS <= inputs + output + 16 MiB
DIAGNOSE_RATIO = 1.5          # measure the cause above this ratio: noise can move a kernel across 2x

# What each broadcast exercises, for the table.
LABELS = {
    "add_f32_4096x1+1x4096": "(4096,1)+(1,4096) f32",
    "add_f32_64x1x256+1x128x256": "(64,1,256)+(1,128,256) f32",
    "where_b4096x1_f1x4096_f0": "where(bool (4096,1), f32 (1,4096), f32 ())",
    "add_f32_T4096x4096+4096": "(4096,4096)ᵀ f32 (transposed view) + (4096,) f32",
    "iadd_f32_4096x4096+=4096": "in place: self (4096,4096) f32 += (4096,) f32",
    "mul_i64_4096x1*1x4096": "(4096,1)*(1,4096) i64",
}


def log(msg):
    print("bench: " + msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    """Runs cmd, returns stdout; a failure stops the benchmark with its stderr."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if p.returncode != 0:
        sys.exit("bench: %s failed (exit %d):\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    return p.stdout


def rows(text, kind):
    return [ln.split("\t")[1:] for ln in text.splitlines() if ln.startswith(kind + "\t")]


# ---- the machine ----

def machine():
    model, procs = "unknown", 0
    with open("/proc/cpuinfo") as f:
        for ln in f:
            if ln.startswith("model name") and model == "unknown":
                model = ln.split(":", 1)[1].strip()
            if ln.startswith("processor"):
                procs += 1
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
            mem = "%.1f GiB" % (kib / 2**20)
    except (OSError, ValueError, IndexError):
        pass
    date = run(["date", "-u", "+%F"]).strip()
    npv = run([PYTHON, "-c", "import numpy; print(numpy.__version__)"]).strip()
    return {"model": model, "cores": procs, "mem": mem, "date": date, "numpy": npv,
            "kernel": platform.release()}


# ---- 2. kernel speed ----

def kernel_speed(kb, runs, min_k, max_k):
    log("ref kernels, memcpy, sweep (%s)" % kb)
    ref = run([kb, "--runs", str(runs), "--min-k", str(min_k), "--max-k", str(max_k)])
    log("NumPy (%s)" % PYTHON)
    npy = run([PYTHON, os.path.join(HERE, "numpy_bench.py"), "--runs", str(runs),
               "--min-k", str(min_k), "--max-k", str(max_k)])
    kernels = {r[0]: {"ns": float(r[1]), "out": int(r[2]), "in": int(r[3])} for r in rows(ref, "kernel")}
    memcpy = {int(r[0]): float(r[1]) for r in rows(ref, "memcpy")}
    for r in rows(npy, "numpy"):
        kernels[r[0]]["np_out"] = float(r[1])
        kernels[r[0]]["np_alloc"] = float(r[2])
    for name, k in kernels.items():
        # where has no out= in NumPy: compare with the faster of its two forms.
        k["np_cmp"] = min(k["np_out"], k["np_alloc"]) if name.startswith("where") else k["np_out"]
        k["ratio"] = k["ns"] / k["np_cmp"]
        k["memcpy"] = memcpy[k["out"]]
    scale = [(int(r[0]), int(r[1]), float(r[2])) for r in rows(ref, "scale")]
    npscale = {int(r[0]): float(r[2]) for r in rows(npy, "npscale")}
    return kernels, scale, npscale


def kernel_table(kernels, runs):
    out = ["| broadcast | output | ref ms | ref GB/s | NumPy out= ms | NumPy allocating ms "
           "| ratio ref/NumPy | memcpy GB/s (same size) | ref/memcpy time | goal ≤ 2x |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for name, k in kernels.items():
        gbs = k["out"] / k["ns"]
        out.append("| %s | %.0f MiB | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s |" % (
            LABELS.get(name, name), k["out"] / 2**20, k["ns"] / 1e6, gbs, k["np_out"] / 1e6,
            k["np_alloc"] / 1e6, k["ratio"], k["out"] / k["memcpy"], k["ns"] / k["memcpy"],
            "met" if k["ratio"] <= GOAL_RATIO else "**missed**"))
    return out


# ---- diagnosis of a missed goal ----

def callgrind(kb, name):
    """Ir per output element inside bc_eval, and the top functions' shares."""
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        cg = os.path.join(tmp, "cg.out")
        run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + cg,
             "--toggle-collect=bc_eval", kb, "--only", name, "--runs", "1"])
        ann = run(["callgrind_annotate", "--inclusive=no", "--threshold=95", cg])
    total, funcs = None, []
    for ln in ann.splitlines():
        m = re.match(r"\s*([\d,]+) \(\s*([\d.]+)%\)\s+(\S+?):(\S+)", ln)
        if "PROGRAM TOTALS" in ln:
            total = int(ln.split()[0].replace(",", ""))
        elif m and total is not None:
            funcs.append((m.group(4).split()[0], int(m.group(1).replace(",", "")), float(m.group(2))))
    return total, funcs[:3]


def packed_ops(kb, func):
    """(packed, scalar) SSE/AVX arithmetic instructions in func's machine code."""
    if shutil.which("objdump") is None:
        return None
    dis = run(["objdump", "-d", "--no-show-raw-insn", kb])
    body, inside = [], False
    for ln in dis.splitlines():
        if re.match(r"^[0-9a-f]+ <%s>:" % re.escape(func), ln):
            inside = True
        elif inside and ln.strip() == "":
            break
        elif inside:
            body.append(ln)
    ops = [ln.split("\t")[-1].split()[0] for ln in body if "\t" in ln]
    packed = sum(1 for o in ops if re.match(r"v?(add|sub|mul|div|max|min)p[sd]$|v?padd[bwdq]$|v?pmul", o))
    scalar = sum(1 for o in ops if re.match(r"v?(add|sub|mul|div|max|min)s[sd]$", o))
    return packed, scalar


def o3_time(build, name, runs):
    """The broadcast timed with ref rebuilt at -O3 (gcc's full vectoriser), as an experiment."""
    b3 = os.path.join(build, "bench-O3")
    p = subprocess.run(["make", "-s", "BUILD=" + b3, "OPT=-O3 -g", b3 + "/kernel-bench"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        log("the -O3 rebuild failed:\n" + p.stdout)
        return None
    out = run([os.path.join(b3, "kernel-bench"), "--only", name, "--runs", str(runs)])
    return float(rows(out, "kernel")[0][1])


def diagnose(kb, build, kernels, runs):
    lines = []
    for name, k in kernels.items():
        if k["ratio"] <= DIAGNOSE_RATIO:
            continue
        log("diagnosing %s (ratio %.2f)" % (name, k["ratio"]))
        elems = k["out"] // 8 if name.startswith("mul_i64") else k["out"] // 4
        lines.append("### %s: ref/NumPy = %.2f (%s)" % (
            LABELS.get(name, name), k["ratio"],
            "goal missed" if k["ratio"] > GOAL_RATIO else "met, but close to the 2x goal"))
        lines.append("")
        cg = callgrind(kb, name)
        hot = None
        if cg is not None and cg[0]:
            total, funcs = cg
            evals = 2  # kernel-bench --runs 1: a warm-up and one timed call
            lines.append("- callgrind (instructions inside bc_eval, 2 calls): %.1f instructions per "
                         "output element; by function: %s." % (
                             total / (evals * elems),
                             "; ".join("%s %.1f/element (%.0f%%)" % (f, ir / (evals * elems), pct)
                                       for f, ir, pct in funcs)))
            hot = next((f for f, _, _ in funcs if not f.startswith("__")), None)
            if any(f.startswith("__memcpy") or f.startswith("__memmove") for f, _, _ in funcs):
                lines.append("  libc memcpy appears among the hot functions: the where loop copies "
                             "each element with a memcpy call of run-time size.")
        else:
            lines.append("- callgrind: not available (install valgrind).")
        if hot is not None:
            po = packed_ops(kb, hot)
            if po is not None and po[0] + po[1] == 0:
                lines.append("- objdump of `%s`: no arithmetic instructions: it only moves "
                             "elements." % hot)
            elif po is not None:
                lines.append("- objdump of `%s`: %d packed (SIMD) and %d scalar float/int arithmetic "
                             "instructions%s." % (hot, po[0], po[1],
                                                  " — the loop is not vectorised at the project's -O2"
                                                  if po[0] == 0 and po[1] > 0 else ""))
        t3 = o3_time(build, name, runs)
        if t3 is not None:
            lines.append("- the same kernel with ref rebuilt at -O3 -g (experiment only; the table "
                         "uses the project's flags): %.2f ms, ratio %.2f." % (t3 / 1e6, t3 / k["np_cmp"]))
        lines.append("")
    return lines


# ---- 3. memory ----

def memory(kb):
    log("peak RSS, one process per broadcast")
    names = run([kb, "--list"]).split()
    base = int(rows(run([kb, "--rss", "none"]), "rss")[0][1])
    res = []
    for n in names:
        r = rows(run([kb, "--rss", n]), "rss")[0]
        res.append((n, int(r[1]) * 1024, int(r[2]), int(r[3])))
    return base * 1024, res


def memory_table(base, res):
    out = ["| broadcast | inputs | output | inputs + output | peak RSS | RSS − (in + out) | goal ≤ +16 MiB |",
           "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    mib = lambda b: "%.2f MiB" % (b / 2**20)
    for n, rss, i, o in res:
        out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            LABELS.get(n, n), mib(i), mib(o), mib(i + o), mib(rss), mib(rss - i - o),
            "met" if rss <= i + o + GOAL_RSS_SLACK else "**missed**"))
    return out


# ---- 9. sum-to-shape (grad mode's reduction) ----

SUM_LABELS = {
    "sum_f32_4096x4096->4096x1": "(4096,4096) → (4096,1) f32: along the last dim",
    "sum_f32_4096x4096->1x4096": "(4096,4096) → (1,4096) f32: along the first dim",
    "sum_f32_4096x4096->()": "(4096,4096) → () f32: everything",
    "sum_f32_64x128x256->64x1x256": "(64,128,256) → (64,1,256) f32: the middle dim",
    "sum_f32_64x128x256->1x128x1": "(64,128,256) → (1,128,1) f32: outer and inner dims",
    "sum_f64_4096x4096->4096x1": "(4096,4096) → (4096,1) f64: along the last dim",
}


def sum_to_shape(build, runs):
    """ref's bc_sum_to_shape (build/sum-bench) against NumPy's sum(axis, keepdims=True, out=),
    and the peak RSS of one reduction per fresh process. Returns the section's lines."""
    sb = os.path.join(build, "sum-bench")
    if not os.access(sb, os.X_OK):
        return ["skipped: needs %s (make)" % sb]
    log("sum-to-shape: ref (%s) and NumPy" % sb)
    ref = {r[0]: r for r in rows(run([sb, "--runs", str(runs)]), "sum")}
    npy = {r[0]: r for r in rows(run([PYTHON, os.path.join(HERE, "numpy_sum_bench.py"), "--runs", str(runs)]),
                                 "npsum")}
    base = int(rows(run([sb, "--rss", "none"]), "sumrss")[0][1]) * 1024
    L = ["| reduction | input | ref ms | NumPy `sum(keepdims=True, out=)` ms | ratio ref/NumPy | goal ≤ 2x "
         "| peak RSS − (in + out) | goal: nothing materialised (≤ +16 MiB) |",
         "| --- | ---: | ---: | ---: | ---: | --- | ---: | --- |"]
    met = mem_met = 0
    for name, r in ref.items():
        ns, inb, outb = float(r[1]), int(r[2]), int(r[3])
        np_ns = float(npy[name][1])
        rss = int(rows(run([sb, "--rss", name]), "sumrss")[0][1]) * 1024
        ratio = ns / np_ns
        met += ratio <= GOAL_RATIO
        mem_ok = rss - base <= inb + outb + GOAL_RSS_SLACK
        mem_met += mem_ok
        L.append("| %s | %.0f MiB | %.2f | %.2f | %.2f | %s | %.2f MiB | %s |" % (
            SUM_LABELS.get(name, name), inb / 2**20, ns / 1e6, np_ns / 1e6, ratio,
            "met" if ratio <= GOAL_RATIO else "**missed**", (rss - base - inb - outb) / 2**20,
            "met" if mem_ok else "**missed**"))
    return ["ref's `bc_sum_to_shape` (ref/grad.c; the reduction of every broadcasting gradient, B23) "
            "sums an incoming gradient to an operand's shape by walking it once with an odometer and "
            "adding into the operand's gradient through stride 0; NumPy does the same reductions with "
            "`np.sum(g, axis=..., keepdims=True, out=out)`. Times are medians of %d runs; ref's include "
            "zeroing its (small) output, which `bc_sum_to_shape` adds into. Peak RSS: one fresh "
            "`sum-bench --rss NAME` process per reduction, less a process that allocates nothing "
            "(%.2f MiB)." % (runs, base / 2**20), "", *L, "",
            "Goals: time within 2x of NumPy met on %d of %d; nothing materialised at the broadcast "
            "shape on %d of %d." % (met, len(ref), mem_met, len(ref))]


# ---- 5. scaling, and the SVG ----

def loglog_slope(pts):
    xs = [math.log10(p[0]) for p in pts]
    ys = [math.log10(p[1]) for p in pts]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def linear_fit(pts):
    """(b, a in µs) of the least-squares line time_ns = a + b * elements."""
    mx, my = statistics.fmean(p[0] for p in pts), statistics.fmean(p[1] for p in pts)
    b = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
    return b, (my - b * mx) / 1e3


def svg_plot(path, series, title, xlabel="output elements", ylabel="time per call (ns)"):
    """A log-log line plot in plain SVG: series is [(label, colour, [(x, y)])]."""
    w, h, l, r, t, b = 640, 420, 70, 20, 40, 50
    allp = [p for _, _, pts in series for p in pts]
    x0, x1 = math.floor(math.log10(min(p[0] for p in allp))), math.ceil(math.log10(max(p[0] for p in allp)))
    y0, y1 = math.floor(math.log10(min(p[1] for p in allp))), math.ceil(math.log10(max(p[1] for p in allp)))
    sx = lambda x: l + (math.log10(x) - x0) / (x1 - x0) * (w - l - r)
    sy = lambda y: h - b - (math.log10(y) - y0) / (y1 - y0) * (h - t - b)
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
         'font-size="12">' % (w, h),
         '<!-- Generated by `make bench` (bench/report.py). Do not edit by hand. -->',
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="20" font-size="14">%s</text>' % (l, title)]
    for e in range(x0, x1 + 1):
        o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (sx(10**e), t, sx(10**e), h - b))
        o.append('<text x="%.1f" y="%d" text-anchor="middle">1e%d</text>' % (sx(10**e), h - b + 16, e))
    for e in range(y0, y1 + 1):
        o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (l, sy(10**e), w - r, sy(10**e)))
        o.append('<text x="%d" y="%.1f" text-anchor="end">1e%d</text>' % (l - 6, sy(10**e) + 4, e))
    o.append('<text x="%d" y="%d" text-anchor="middle">%s</text>' % ((l + w - r) // 2, h - 12, xlabel))
    o.append('<text x="16" y="%d" transform="rotate(-90 16 %d)" text-anchor="middle">%s</text>'
             % ((t + h - b) // 2, (t + h - b) // 2, ylabel))
    for i, (label, colour, pts) in enumerate(series):
        o.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (
            colour, " ".join("%.1f,%.1f" % (sx(x), sy(y)) for x, y in pts)))
        for x, y in pts:
            o.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (sx(x), sy(y), colour))
        o.append('<text x="%d" y="%d" fill="%s">%s</text>' % (l + 10, t + 16 + 16 * i, colour, label))
    o.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(o) + "\n")


def memory_levels(ref, npy):
    """The sweep crosses from outputs that stay in the caches to outputs that
    stream to DRAM, which changes the cost per element for any kernel: the slope
    is measured within each side, and NumPy's step at the same size is shown."""
    small = [p for p in ref if 2**16 <= p[0] <= 2**23]
    large = [p for p in ref if p[0] >= 2**25]
    if len(small) < 2 or len(large) < 2:
        return ""
    def per_elem(pts, lo, hi):
        v = [t / n for n, t in pts if lo <= n <= hi]
        return statistics.median(v) if v else float("nan")
    r0, r1 = per_elem(ref, 2**16, 2**23), per_elem(ref, 2**25, 2**40)
    n0, n1 = per_elem(npy, 2**16, 2**23), per_elem(npy, 2**25, 2**40)
    if n1 / n0 >= 1.5:
        why = "NumPy steps at the same size, so the step is the memory system's"
    else:
        why = ("NumPy does not step: its loop costs about %.2f ns per element at every size, about what "
               "DRAM traffic costs ref, while ref's loop is faster than that while the output stays in "
               "the caches" % ((n0 + n1) / 2))
    return ("- by memory level: outputs of 2^16 to 2^23 elements (≤ 32 MiB) slope **%.3f**, outputs of "
            "2^25 elements and more (≥ 128 MiB) slope **%.3f**: linear within each. Between the two, "
            "ref's median cost per element steps from %.3f to %.3f ns, as the output stops fitting the "
            "caches (%s); NumPy's goes from %.3f to %.3f ns. %s." % (
                loglog_slope(small), loglog_slope(large), r0, r1, cache_sizes(), n0, n1, why))


def cache_sizes():
    """The CPU's cache sizes as lscpu prints them, or 'unknown'."""
    try:
        out = subprocess.run(["lscpu"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    except OSError:
        return "unknown"
    got = [ln.split(":", 1) for ln in out.splitlines() if re.match(r"\s*L[23] cache:", ln)]
    return ", ".join("%s %s" % (k.strip(), v.strip()) for k, v in got) or "unknown"


def scaling_section(scale, npscale, svg_name):
    ref = [(n, ns) for _, n, ns in scale]
    npy = [(n, npscale[k]) for k, n, _ in scale if k in npscale]
    big = [p for p in ref if p[0] >= 2**16]
    out = ["Broadcast add (n,1)+(1,m) f32 with n·m = 2^k, n = 2^⌊k/2⌋; output preallocated; "
           "median per call (small sizes repeat the call for ≥ 2 ms per run).", "",
           "![scaling](%s)" % svg_name, "",
           "- log-log slope of ref's time over the whole sweep: **%.3f**; over ≥ 2^16 elements "
           "(fixed per-call cost negligible): **%.3f** (1.000 = linear)." % (
               loglog_slope(ref), loglog_slope(big) if len(big) >= 2 else float("nan")),
           "- NumPy (out=) log-log slope, same sweep: %.3f." % loglog_slope(npy) if len(npy) >= 2 else "",
           memory_levels(ref, npy),
           "- least-squares line time = a + b·elements over the sweep: ref b = **%.3f ns/element** "
           "(a = %.1f µs)%s." % (*linear_fit(ref), "; NumPy b = %.3f ns/element" % linear_fit(npy)[0]
                                  if len(npy) >= 2 else ""),
           "",
           "| k | elements | ref µs | ref ns/element | NumPy out= µs | NumPy ns/element |",
           "| ---: | ---: | ---: | ---: | ---: | ---: |"]
    for k, n, ns in scale:
        nps = npscale.get(k)
        out.append("| %d | %d | %.1f | %.3f | %s | %s |" % (
            k, n, ns / 1e3, ns / n, "%.1f" % (nps / 1e3) if nps else "-", "%.3f" % (nps / n) if nps else "-"))
    return out, ref, npy


# ---- the runner half: 1, 4, 5b ----
# Each part runs when its pieces exist (BUILD/bcast-run, BUILD/targets/ref.so,
# case files, the `make cases` target) and otherwise says "skipped: needs ...".

def wall(cmd, runs, ok=(0, 1)):
    """Median wall time (s) of cmd over runs, after one warm-up; exit status in ok
    (bcast-run exits 1 when a case fails, which is still a complete run)."""
    times = []
    for i in range(runs + 1):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        t = time.perf_counter() - t0
        if p.returncode not in ok:
            sys.exit("bench: %s failed (exit %d):\n%s" % (" ".join(cmd), p.returncode, p.stderr))
        if i > 0:
            times.append(t)
    return statistics.median(times)


def runner_parts(build):
    runner, target = os.path.join(build, "bcast-run"), os.path.join(build, "targets", "ref.so")
    return runner, target, os.access(runner, os.X_OK) and os.path.exists(target)


def count_cases(runner, target, cases, extra=()):
    out = run([runner, "--target", target, "--list", *extra, cases])
    return sum(1 for ln in out.splitlines() if ln.strip())


def runner_throughput(build, cases, runs):
    """Part 1: cases/s of bcast-run against ref (isolation is always on: forked
    workers) at --jobs 1 and 2, against bench/py_checker.py on the same files."""
    runner, target, have = runner_parts(build)
    if not have:
        return ["skipped: needs runner (%s and %s; run `make BUILD=%s`)" % (runner, target, build)]
    if not glob.glob(os.path.join(cases, "*.cases")):
        return ["skipped: needs runner cases (no %s/*.cases; run `make cases`)" % cases]
    log("runner throughput on %s" % cases)
    n = count_cases(runner, target, cases)
    t = {j: wall([runner, "--target", target, "--jobs", str(j), "--no-color", cases], runs) for j in (1, 2)}
    tp = wall([PYTHON, os.path.join(HERE, "py_checker.py"), cases], runs)
    # Where the time goes: reading and validating the case text alone, both sides.
    tl = wall([runner, "--target", target, "--list", cases], runs)
    tpp = wall([PYTHON, os.path.join(HERE, "py_checker.py"), "--parse-only", cases], runs)
    best = min(t.values())
    out = ["`%s --target %s --jobs J %s` (whole command, median wall of %d runs) against "
           "`%s bench/py_checker.py %s` (NumPy, numpy.testing; skips what it cannot express, "
           "counted as checked here) on the same %d cases." % (runner, target, cases, runs, PYTHON, cases, n), "",
           "| checker | wall s | cases/s |", "| --- | ---: | ---: |"]
    for j in (1, 2):
        out.append("| bcast-run --jobs %d | %.3f | %.0f |" % (j, t[j], n / t[j]))
    out.append("| py_checker.py | %.3f | %.0f |" % (tp, n / tp))
    out.append("| bcast-run --list (read and validate the case files only) | %.3f | %.0f |" % (tl, n / tl))
    out.append("| py_checker.py --parse-only (read, build operands and expected values) | %.3f | %.0f |"
               % (tpp, n / tpp))
    out += ["", "- goal 20k+ cases in ≤ 1 s wall: %d cases in %.3f s: %s" % (
                n, best, "met" if n >= 20000 and best <= 1.0 else
                ("**missed**" if n >= 20000 else "not measurable (only %d cases)" % n)),
            "- goal ≥ 50x the Python checker's cases/s: %.1fx: %s" % (
                tp / best, "met" if tp / best >= 50 else "**missed**")]
    if tp / best < 50:
        out += ["", "  Measured cause: 50x needs the whole run in %.1f ms (the Python checker's %.3f s / 50). "
                "bcast-run spends %.1f ms of its %.1f ms (%.0f%%) reading and validating the %.1f MB of case "
                "text (`--list`, no case run): %s. Running, isolating and judging the cases costs the other "
                "%.1f ms (%.1f µs per case). The Python checker spends %.3f s (%.0f%%) parsing and "
                "%.3f s in NumPy calls and numpy.testing (%.0f µs per case)." % (
                    tp / 50 * 1e3, tp, tl * 1e3, best * 1e3, 100 * tl / best, case_bytes(cases) / 1e6,
                    "alone %s the 50x budget" % ("above" if tl > tp / 50 else "%.0f%% of" % (100 * tl / (tp / 50))),
                    max(best - tl, 0) * 1e3, max(best - tl, 0) / n * 1e6, tpp, 100 * tpp / tp,
                    tp - tpp, (tp - tpp) / n * 1e6)]
    return out


EXPLORE_GOAL = 50000          # cases/s of explore against ref, --jobs 2, on 2 cores
EXPLORE_CASES = 300000        # per run against ref (about 6 s at the goal)
EXPLORE_PIPE_CASES = 5000     # per run through the NumPy bridge


def explore_rate(cmd, runs):
    """Median wall time of an explore command and the rate it reported itself
    (cases/s while exploring: generation, ref, target, judging; no startup or shrinking)."""
    walls, own = [], []
    for i in range(runs + 1):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        t = time.perf_counter() - t0
        if p.returncode not in (0, 1):
            sys.exit("bench: %s failed (exit %d):\n%s" % (" ".join(cmd), p.returncode, p.stderr))
        m = re.search(r"cases in [0-9.]+ s \(([0-9]+) cases/s\)", p.stderr)
        if i > 0:
            walls.append(t)
            own.append(float(m.group(1)) if m else float("nan"))
    return statistics.median(walls), statistics.median(own)


def explore_profile(runner, target, cases):
    """perf's view of one explore run: the share of samples of the runner process
    (generation, ref's expectations, judging) and of its workers (the target),
    and each side's top functions. None without perf."""
    if shutil.which("perf") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        p = subprocess.run(["perf", "record", "-q", "-F", "999", "-o", data, "--", runner, "explore",
                            "--target", target, "--cases", str(cases), "--jobs", "2"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode not in (0, 1):
            return None
        rep = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "-g", "none",
                              "--sort", "pid,sym"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    rows_ = []
    for ln in rep.splitlines():
        m = re.match(r"\s*([0-9.]+)%\s+(\d+):\S+\s+\[[.k]\]\s+(\S+)", ln)
        if m:
            rows_.append((float(m.group(1)), int(m.group(2)), m.group(3)))
    if not rows_:
        return None
    parent = min(pid for _, pid, _ in rows_)   # the runner starts before its fork server and workers
    share = {"runner": 0.0, "workers": 0.0}
    top = {"runner": {}, "workers": {}}
    for pct, pid, sym in rows_:
        side = "runner" if pid == parent else "workers"
        share[side] += pct
        top[side][sym] = top[side].get(sym, 0.0) + pct
    out = []
    for side in ("runner", "workers"):
        best = sorted(top[side].items(), key=lambda kv: -kv[1])[:6]
        out.append("- %s: %.0f%% of the samples; top functions: %s" % (
            "the runner process (generating, ref's expectations, judging)" if side == "runner"
            else "the workers (the target, ref.so here; guards, copies)", share[side],
            ", ".join("%s %.1f%%" % kv for kv in best)))
    return out


def explore_throughput(build, runs):
    """Part 6: cases/s of `bcast-run explore` against ref (--jobs 1 and 2) and
    through the pipe (the NumPy bridge), everything counted: generation, ref's
    expectation, the target through the isolation, judging."""
    runner, target, have = runner_parts(build)
    if not have:
        return ["skipped: needs runner (%s and %s; run `make BUILD=%s`)" % (runner, target, build)]
    runs = min(runs, 5)
    log("explore throughput")
    res = {}
    for j in (1, 2):
        cmd = [runner, "explore", "--target", target, "--cases", str(EXPLORE_CASES), "--jobs", str(j)]
        res[j] = explore_rate(cmd, runs)
    out = ["`%s explore --target %s --cases %d --jobs J` (seed 1), median of %d runs: the wall time of the "
           "whole command and the rate explore reports itself (cases/s while exploring; startup and "
           "shrinking excluded). Every case is generated, its expectation computed by ref in the runner, "
           "run on the target in a worker (guard pages, input checksums, the fork server) and judged."
           % (runner, target, EXPLORE_CASES, runs), "",
           "| target | jobs | cases | wall s | cases/s (wall) | cases/s (explore's own) |",
           "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for j in (1, 2):
        out.append("| ref | %d | %d | %.2f | %.0f | %.0f |" % (j, EXPLORE_CASES, res[j][0], EXPLORE_CASES / res[j][0], res[j][1]))
    bridge = os.path.join(ROOT, "targets", "pipe", "bridges", "numpy_bridge.py")
    pipe = os.path.join(build, "targets", "pipe.so")
    if os.path.exists(pipe):
        cmd = [runner, "explore", "--target", pipe, "--target-arg", "%s %s" % (PYTHON, bridge),
               "--cases", str(EXPLORE_PIPE_CASES), "--jobs", "2"]
        w, r = explore_rate(cmd, min(runs, 3))
        out.append("| NumPy bridge (pipe.so) | 2 | %d | %.2f | %.0f | %.0f |" % (EXPLORE_PIPE_CASES, w, EXPLORE_PIPE_CASES / w, r))
    else:
        out.append("| NumPy bridge | - | - | - | skipped: %s not built | - |" % pipe)
    rate = res[2][1]
    out += ["", "- goal ≥ %d cases/s against ref with --jobs 2: %.0f: %s" % (
        EXPLORE_GOAL, rate, "met" if rate >= EXPLORE_GOAL else "**missed**")]
    if rate < EXPLORE_GOAL:
        prof = explore_profile(runner, target, EXPLORE_CASES // 3)
        out += ["", "  Where the time goes (perf record -F 999, one run of %d cases):" % (EXPLORE_CASES // 3), ""]
        out += ["  " + ln for ln in (prof or ["- perf not available: no profile"])]
    out += ["", "Through the pipe every case is a round trip to a Python process (docs/pipe-protocol.md); "
            "NumPy 1.24 aborts on views of more than 65 dimensions, and each abort restarts the worker "
            "and its bridge (importing NumPy again), so generated ranks above 65 dominate that rate."]
    return out


def case_bytes(cases):
    return sum(os.path.getsize(f) for f in glob.glob(os.path.join(cases, "*.cases"))
               if not f.endswith("large.cases"))


def generation_time(enabled):
    """Part 4: wall and CPU time of `make cases` with its four oracles (one run:
    it takes a minute or more), and the load it ran under (the machine may be shared)."""
    if not enabled:
        return ["skipped: BENCH_GEN=0 (generation is timed by `make bench`, which reruns `make cases`)"]
    # `cases` is also a directory, so without a rule make finds nothing to do.
    p = subprocess.run(["make", "-n", "cases"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0 or "Nothing to be done" in p.stdout or "is up to date" in p.stdout:
        return ["skipped: needs runner-side generation: no `make cases` rule yet (gen/gen.mk)"]
    log("timing make cases (four oracles)")
    load = os.getloadavg()[0]
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(["make", "-s", "cases"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    t = time.perf_counter() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        return ["`make cases` failed (exit %d): %s" % (p.returncode, p.stderr.strip()[-400:])]
    cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
    return ["`make cases` with the four oracles (NumPy 1.24 and torch 1.13, NumPy 2.4.6 and torch 2.15: both "
            "interpreters in parallel, the merge, then ref's cross-check in the four profiles): %.1f s wall, "
            "%.1f s CPU, load average %.1f at the start (one run; it regenerates cases/ deterministically). "
            "Goal <= 90 s on 2 cores: %s." % (t, cpu, load, "met" if t <= 90 else "**missed**")]


def case_records(cases):
    """Every case record of the default suites, verbatim ("case ..." to "end"),
    in file order (large.cases is opt-in for bcast-run too)."""
    recs = []
    for path in sorted(glob.glob(os.path.join(cases, "*.cases"))):
        if os.path.basename(path) == "large.cases":
            continue
        cur = None
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("case "):
                    cur = [line]
                elif cur is not None:
                    cur.append(line)
                    if line == "end\n":
                        recs.append("".join(cur))
                        cur = None
    return recs


def fit_cases_bytes(obs):
    """Least squares of t = f + a*n + b*m over obs [(cases n, MB m, seconds t)]:
    (f, a, b, largest |residual| / t), or None when the system is singular."""
    rows = [(1.0, float(n), float(m)) for n, m, _ in obs]
    ts = [t for _, _, t in obs]
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(3)] for i in range(3)]
    atb = [sum(r[i] * t for r, t in zip(rows, ts)) for i in range(3)]
    # Gauss-Jordan on the 3x3 normal equations
    m = [ata[i] + [atb[i]] for i in range(3)]
    for c in range(3):
        piv = max(range(c, 3), key=lambda r: abs(m[r][c]))
        if abs(m[piv][c]) < 1e-12:
            return None
        m[c], m[piv] = m[piv], m[c]
        for r in range(3):
            if r != c:
                k = m[r][c] / m[c][c]
                m[r] = [x - k * y for x, y in zip(m[r], m[c])]
    f, a, b = (m[i][3] / m[i][i] for i in range(3))
    worst = max(abs(f + a * n + b * mb - t) / t for n, mb, t in obs)
    return f, a, b, worst


RUNNER_SVG = "bench-runner-scaling.svg"


def runner_scaling(build, cases, runs, out_dir):
    """Part 5, runner half: bcast-run's wall time on 1k, 2k, 5k, 10k, 20k and all
    default cases. Each subset is its own case file (every N-th record), so
    reading and parsing scale with it too: only process start-up is fixed."""
    runner, target, have = runner_parts(build)
    if not have or not glob.glob(os.path.join(cases, "*.cases")):
        return ["skipped: needs runner (bcast-run, targets/ref.so and %s/*.cases)" % cases]
    log("runner scaling")
    recs = case_records(cases)
    out = ["Each subset is a case file of every N-th record of the default suites (written for this "
           "run), so the runner reads, parses, runs and judges only those cases.", "",
           "| subset | cases | MB of case text | wall s (--jobs 1) | µs/case |", "| --- | ---: | ---: | ---: | ---: |"]
    pts, mb = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for want in (1000, 2000, 5000, 10000, 20000, None):
            if want is not None and len(recs) <= want:
                continue  # no proper subset of about that size
            step = 1 if want is None else len(recs) / want
            pick = recs if want is None else [recs[int(i * step)] for i in range(want)]
            d = os.path.join(tmp, "all" if want is None else str(want))
            os.makedirs(d)
            path = os.path.join(d, "subset.cases")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write("bcast-cases 1\n" + "\n".join(pick))
            n = count_cases(runner, target, d)
            t = wall([runner, "--target", target, "--jobs", "1", "--no-color", d], runs)
            pts.append((n, t))
            mb.append((os.path.getsize(path) / 1e6, t))
            out.append("| %s | %d | %.1f | %.3f | %.1f |" % ("all" if want is None else "every %.2fth" % step,
                                                            n, mb[-1][0], t, t / n * 1e6))
    if len(pts) >= 2:
        svg_plot(os.path.join(out_dir, RUNNER_SVG),
                 [("bcast-run --jobs 1", "#1f77b4", [(n, t * 1e3) for n, t in pts])],
                 "bcast-run against ref: wall time vs cases (default suites, every N-th record)",
                 xlabel="cases", ylabel="wall time of the whole run (ms)")
        out += ["", "![runner scaling](%s)" % RUNNER_SVG, "",
                "log-log slope of wall time against cases alone: %.3f." % loglog_slope(pts),
                "", "Records range from a few hundred bytes to half a megabyte (the seeds suite's large "
                "examples), so an every-N-th subset carries more or less than its share of the text, "
                "and the runner's work depends on both: reading and parsing go with the bytes, "
                "running and judging with the cases: the fit below says how much of each."]
        fit = fit_cases_bytes([(n, m, t) for (n, t), (m, _) in zip(pts, mb)])
        if fit is not None:
            f, per_case, per_mb, worst = fit
            out += ["", "Least squares of wall time = fixed + a·cases + b·MB over the subsets: fixed %.2f ms, "
                    "a = **%.2f µs per case**, b = **%.2f ms per MB**; the largest residual is %.1f%% of "
                    "that subset's time%s." % (f * 1e3, per_case * 1e6, per_mb * 1e3, worst * 100,
                                               " (growth is linear)" if worst <= 0.10 else
                                               " (**not** a linear fit: look for the cause)")]
    return out


# ---- the report ----

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--min-k", type=int, default=10)
    ap.add_argument("--max-k", type=int, default=28)
    ap.add_argument("--out", default="reports")
    ap.add_argument("--no-diagnose", action="store_true", help="skip the callgrind/-O3 diagnosis")
    ap.add_argument("--cases", default="cases", help="case directory for the runner parts")
    ap.add_argument("--gen", type=int, default=1, help="1: time `make cases` (part 4); 0: skip it")
    a = ap.parse_args()
    if a.runs < 5:
        sys.exit("bench: --runs must be >= 5 (medians over at least 5 runs)")
    kb = os.path.join(a.build, "kernel-bench")
    if not os.access(kb, os.X_OK):
        sys.exit("bench: %s is missing; run `make BUILD=%s` first" % (kb, a.build))
    os.makedirs(a.out, exist_ok=True)

    m = machine()
    load_start = os.getloadavg()   # how busy the machine was when the benchmark began
    kernels, scale, npscale = kernel_speed(kb, a.runs, a.min_k, a.max_k)
    base, rss = memory(kb)
    diag = [] if a.no_diagnose else diagnose(kb, a.build, kernels, a.runs)
    svg_name = "bench-scaling.svg"
    scal, ref_pts, np_pts = scaling_section(scale, npscale, svg_name)
    svg_plot(os.path.join(a.out, svg_name),
             [("ref (bc_eval)", "#1f77b4", ref_pts), ("NumPy np.add(out=)", "#d62728", np_pts)],
             "Broadcast add (n,1)+(1,m) f32: time vs output size")
    sums = sum_to_shape(a.build, a.runs)
    gen = generation_time(a.gen)  # first: it (re)writes the cases the runner parts read
    iso = [("6. What a crash costs", isolation_bench.crash_cost(a.build, a.runs)),
           ("7. What a pipe target's restart costs", isolation_bench.pipe_restart(a.build, PYTHON, a.runs)),
           ("8. Input guard pages and the default suite against ref", isolation_bench.guard_cost(a.build, a.runs))]
    hooks = [("1. Runner throughput", runner_throughput(a.build, a.cases, a.runs)),
             ("4. Generation time", gen),
             ("5b. Scaling, runner half", runner_scaling(a.build, a.cases, a.runs, a.out)),
             ("10. Explore throughput", explore_throughput(a.build, a.runs))]
    for title, msg in hooks:
        if msg and msg[0].startswith("skipped"):
            log("%s: %s" % (title, msg[0]))

    load_end = os.getloadavg()     # and when it ended: a load that rose meanwhile slowed every part after it
    met = sum(1 for k in kernels.values() if k["ratio"] <= GOAL_RATIO)
    L = ["# bcast benchmarks", "",
         "Generated by `make bench` (bench/report.py). Do not edit by hand.", "",
         "## Machine", "",
         "- date: %s; load average when the benchmark started: %.2f (1 min), %.2f (5 min); "
         "when it ended: %.2f (1 min), %.2f (5 min)" % (
             m["date"], load_start[0], load_start[1], load_end[0], load_end[1]),
         "- CPU: %s, %d logical cores%s" % (m["model"], m["cores"], ", %s RAM" % m["mem"] if m["mem"] else ""),
         "- Linux %s; NumPy %s (%s); ref built by make with the project's flags (-O2 -g; ref/ops.c at -O3, "
         "see ref/ref.mk)" % (
             m["kernel"], m["numpy"], PYTHON),
         "- every time is the median of %d runs after one warm-up run; all figures below "
         "were measured in this one run" % a.runs, "",
         "## %s" % hooks[0][0], "", *hooks[0][1], "",
         "## 2. Reference kernel speed", "",
         "ref is `bc_eval` (the public API) writing into a buffer the caller allocated once, so "
         "the **ratio uses NumPy's `out=` form** (preallocated output, the same work). NumPy's "
         "allocating form is shown for information. `where` has no `out=` in NumPy: its `out=` column "
         "is `copyto(out, y); copyto(out, x, where=cond)`, and the ratio uses the faster of NumPy's two "
         "forms. GB/s is output bytes / time. memcpy is a plain C memcpy between two touched buffers "
         "of the output's size, in the same run.", "",
         *kernel_table(kernels, a.runs), "",
         "The transposed case: NumPy's allocating form returns its result in the input's memory order "
         "(order='K': an F-ordered array for a transposed input), so it streams both arrays in order. "
         "ref's contract (and NumPy's `out=` into a C-ordered array, the same work) is a C-ordered result, "
         "which walks the transposed input with a stride of 16 KiB: the ref/memcpy column shows the cost "
         "of that access pattern, paid by NumPy's `out=` form too.", "",
         "Goal (ref within 2x of NumPy): met on %d of %d." % (met, len(kernels)), ""]
    if diag:
        L += ["### Where ref is slowest against NumPy: the measured cause", "",
              "For every broadcast above %.1fx: callgrind instruction counts (ref only, "
              "`kernel-bench --only NAME --runs 1`), the hot function's machine code, and ref rebuilt "
              "at -O3 as an experiment." % DIAGNOSE_RATIO, "", *diag]
        L += ["ref's code is not changed by the benchmark (owned by ref/); suggested fixes are in "
              "the helper's report.", ""]
    L += ["## 3. Memory", "",
          "Peak RSS (getrusage(RUSAGE_CHILDREN).ru_maxrss) of one fresh process per broadcast, "
          "forked by `kernel-bench --rss NAME`: it allocates and fills the operands' storage and "
          "the output, runs the broadcast once and exits. For in-place the output is self, counted "
          "once (as an input). A child that allocates nothing peaks at %.2f MiB." % (base / 2**20), "",
          *memory_table(base, rss), "",
          "Goal (peak ≤ inputs + output + 16 MiB, i.e. nothing is materialised at the broadcast "
          "shape): met on %d of %d." % (sum(1 for n, r, i, o in rss if r <= i + o + GOAL_RSS_SLACK), len(rss)), "",
          "## %s" % hooks[1][0], "", *hooks[1][1], "",
          "## 5. Scaling (kernel half)", "", *scal, ""]
    L += ["## %s" % hooks[2][0], "", *hooks[2][1], ""]
    for title, body in iso:
        L += ["## %s" % title, "", *body, ""]
    L += ["## 9. Sum-to-shape (the gradient's reduction)", "", *sums, ""]
    L += ["## %s" % hooks[3][0], "", *hooks[3][1], ""]
    path = os.path.join(a.out, "bench.md")
    with open(path, "w") as f:
        f.write("\n".join(L))
    log("wrote %s, %s and %s" % (path, os.path.join(a.out, svg_name), os.path.join(a.out, RUNNER_SVG)))


if __name__ == "__main__":
    main()
