#!/usr/bin/env python3
"""Benchmark results for `make bench` (scripts/run-bench.sh): merge, table, doc, compare.

  merge --out results.json [--y-before Y] [--y-after Y] [--load L] [--seconds S] a.json b.json ...
      Merges the paired results of the benchmark programs (bench/paired_main.cpp, one JSON per
      program) into one, with the external yardstick's runs when given ("median,min,max").
  table results.json
      Prints each case's ns and its paired ratios to the reference kernel (median [min-max]), and
      the goals.
  doc results.json --out docs/benchmarks.md
      Writes the benchmarks page from the results, so the page cannot go stale.
  compare results1.json results2.json ...
      How far the runs' median ratios agree: for every ratio, (largest - smallest) / smallest.
"""
import argparse
import json
import os
import sys

# The speed goals (../shared/perf/README.md, raised 2026-12-02). metric: "time" is the case's time
# per iteration, anything else a counter. A goal in "Y" compares the paired ratio (times scale) with
# the goal; BM_Batch10k's is wall ms per frame x 2 threads / 10,000 characters, in Y per character.
GOALS = [
    ("BM_World60", "ns_per_joint", 1.0, 0.17, "world evaluation, 60-joint humanoid, per joint (0.8x ozz)"),
    ("BM_WorldR15", "ns_per_joint", 1.0, 0.17, "world evaluation, R15, per joint"),
    ("BM_SampleClip60", "ns_per_joint", 1.0, 0.25,
     "clip sampling, 60 joints, 31 keys 8 deg apart, forward 60 fps, per joint (0.75x ozz)"),
    ("BM_TwoBone", "time", 1.0, 2.5, "analytic two-bone solve (0.5x ozz)"),
    ("BM_LookAt1", "time", 1.0, 3.0, "look-at, one joint, limits on"),
    ("BM_FeetR15", "ns_per_leg", 1.0, 6.0, "feet control per leg: two legs, pelvis, normals, plane ground"),
    ("BM_FullFrameR15", "time", 1.0, 50.0,
     "full R15 frame: retarget + feet/pelvis + look-at + arm IK + tail spring"),
    ("BM_AnimatorR15", "time", 1.0, 30.0, "animator: four R15 tracks sampled and composed"),
    ("BM_AnimatorR15Compose", "ns_per_joint_track", 1.0, 0.1, "animator composition alone, per joint per track"),
    ("BM_Blend60x2", "ns_per_joint_layer", 1.0, 0.055,
     "blending job, 60 joints x 2 layers, Transform spans, per joint-layer (ozz's BlendingJob)"),
    ("BM_BlendSoa60x2", "ns_per_joint_layer", 1.0, 0.055,
     "blending job, 60 joints x 2 layers, four joints wide (ozz's layout), per joint-layer (ozz's BlendingJob)"),
    ("BM_BlendSoa60x4", "ns_per_joint_layer", 1.0, 0.055,
     "blending job, 60 joints x 4 layers, four joints wide, per joint-layer (ozz's BlendingJob)"),
    ("BM_GraphLocomotionR15", "time", 1.0, 30.0,
     "graph track: Blend1D in an 8-direction Blend2D, masked Over, Add (17 nodes), R15"),
    ("BM_Batch10k", "ms_per_frame", 2.0 / 10000.0, 25.0,
     "10,000 characters through the batch API on 2 threads: wall time x 2 / 10,000, per character"),
]

TIME_PREFIX = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def load(path):
    with open(path) as f:
        return json.load(f)


def to_ns_factor(counter):
    """A counter '<ns|us|ms|s>_per_<unit>' is a time per unit: its factor to ns, else None."""
    unit, sep, _ = counter.partition("_per_")
    return TIME_PREFIX.get(unit) if sep else None


def quantile(values, q):
    """As paired_main.cpp: linear between the two nearest of the sorted values."""
    at = q * (len(values) - 1)
    lo = int(at)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (at - lo) * (values[hi] - values[lo])


def spread_of(values):
    v = sorted(values)
    return {"median": quantile(v, 0.5), "q1": quantile(v, 0.25), "q3": quantile(v, 0.75),
            "min": v[0], "max": v[-1], "values": list(values)}


def pooled(spreads):
    """One spread from several passes' spreads of the same thing: their values pooled."""
    return spread_of([x for s in spreads for x in s["values"]])


def pooled_series(series):
    out = {"value": pooled([s["value"] for s in series])}
    if all("ratio" in s for s in series):
        out["ratio"] = pooled([s["ratio"] for s in series])
    return out


def pooled_case(passes):
    """One case measured in several passes (processes): every pair of every pass, pooled."""
    first = passes[0]
    errors = [p["error"] for p in passes if "error" in p]
    if errors:
        return {k: v for k, v in first.items() if k in ("name", "clock", "program")} | {"error": errors[0]}
    out = dict(first)
    out["ns_per_iteration"] = pooled_series([p["ns_per_iteration"] for p in passes])
    names = [n for n in first.get("counters", {}) if all(n in p.get("counters", {}) for p in passes)]
    out["counters"] = {n: pooled_series([p["counters"][n] for p in passes]) for n in names}
    out["passes"] = len(passes)
    return out


def cmd_merge(args):
    """Each input is one pass of one program, named <stage>.json or <stage>.<pass>.json; the passes
    of a stage are pooled: a case's ratio is the median over every pair of every pass."""
    merged = {"context": {}, "programs": [], "benchmarks": []}
    stages = {}  # stage -> [pass data], in the order first seen
    for path in args.inputs:
        data = load(path)
        stage = os.path.basename(path).split(".")[0]
        if not merged["context"]:
            merged["context"] = dict(data.get("context", {}))
            merged["context"].pop("program", None)
        stages.setdefault(stage, []).append(data)
    if not stages:
        sys.exit("bench_report merge: no input files")
    for stage, runs in stages.items():
        ref = runs[0]["reference"]
        merged["programs"].append({"stage": stage, "passes": len(runs), "reference": dict(
            ref, cpu_ns_per_joint=pooled([r["reference"]["cpu_ns_per_joint"] for r in runs]),
            real_ns_per_joint=pooled([r["reference"]["real_ns_per_joint"] for r in runs]))})
        names = [b["name"] for b in runs[0].get("benchmarks", [])]
        for name in names:
            passes = [b for r in runs for b in r.get("benchmarks", []) if b["name"] == name]
            merged["benchmarks"].append(dict(pooled_case(passes), program=stage))
    ctx = merged["context"]
    ctx["passes"] = max(len(r) for r in stages.values())
    ctx["pairs"] = sum(r.get("context", {}).get("pairs", 0) for r in next(iter(stages.values())))
    # The external yardstick (../shared/perf/yardstick.sh), a separate program run before and after,
    # kept beside the paired ratios for comparison. Each run: "median,min,max" of 31 wall-clock
    # blocks; when they spread by more than 1.5x other processes took the core, and the min stands.
    runs = []
    for v in (args.y_before, args.y_after):
        if v:
            med, lo, hi = (float(x) for x in v.split(","))
            runs.append({"median": med, "min": lo, "max": hi, "contended": hi > 1.5 * lo})
    if runs:
        picks = [r["min"] if r["contended"] else r["median"] for r in runs]
        ctx["yardstick_ns_per_joint"] = sum(picks) / len(picks)
        ctx["yardstick_runs"] = runs
    if args.load:
        ctx["load_average"] = args.load
    if args.seconds:
        ctx["seconds"] = int(args.seconds)
    with open(args.out, "w") as f:
        json.dump(merged, f, indent=1)
        f.write("\n")


def fmt(v, digits=3):
    if v is None:
        return "-"
    if abs(v) >= 100:
        return f"{v:.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.{digits}g}"


def spread_text(s, scale=1.0, unit=" Y"):
    """'median [min-max]' of a spread from paired_main's JSON."""
    return f"{fmt(s['median'] * scale)}{unit} [{fmt(s['min'] * scale)}-{fmt(s['max'] * scale)}]"


def cases(results):
    return [b for b in results["benchmarks"] if "error" not in b]


def metric_series(b, metric):
    """The paired series of a case's time ("time") or of one of its counters, or None."""
    if metric == "time":
        return b["ns_per_iteration"]
    return b.get("counters", {}).get(metric)


def metric_ns(series, metric):
    factor = 1.0 if metric == "time" else to_ns_factor(metric)
    return series["value"]["median"] * factor if factor else None


def counter_texts(b, y_ext, sep):
    out = []
    for name, s in b.get("counters", {}).items():
        text = f"{name}{sep}{fmt(s['value']['median'])}"
        if "ratio" in s:
            text += f" = {spread_text(s['ratio'])}"
        out.append(text)
    return out


def goal_rows(results):
    """(name, what, metric, ns, ratio spread, scale, goal, status, ns / external Y) per goal."""
    y_ext = results["context"].get("yardstick_ns_per_joint")
    byname = {b["name"].replace("/real_time", ""): b for b in results["benchmarks"]}
    rows = []
    for name, metric, scale, goal, what in GOALS:
        b = byname.get(name)
        series = metric_series(b, metric) if b and "error" not in b else None
        if series is None or "ratio" not in series:
            status = "not run" if b is None else ("error" if "error" in b else "no such counter")
            rows.append((name, what, metric, None, None, scale, goal, status, None))
            continue
        ratio = series["ratio"]
        status = "met" if ratio["median"] * scale <= goal else "not met"
        ns = metric_ns(series, metric)
        rows.append((name, what, metric, ns, ratio, scale, goal, status, ns * scale / y_ext if y_ext else None))
    return rows


def reference_texts(results):
    out = []
    for p in results["programs"]:
        y = p["reference"]["cpu_ns_per_joint"]
        out.append(f"{p['stage']} {fmt(y['median'])} ({fmt(y['min'])}-{fmt(y['max'])})")
    return out


def cmd_table(args):
    results = load(args.results)
    ctx = results["context"]
    y_ext = ctx.get("yardstick_ns_per_joint")
    print("reference kernel Y, ns per joint (CPU time; median (min-max) of the program's blocks): "
          + ", ".join(reference_texts(results)))
    print(f"external yardstick Y = {fmt(y_ext)} ns per joint (a separate program, before and after)" if y_ext
          else "external yardstick not run (../shared/perf/yardstick.sh not found)")
    print(f"{'benchmark':40} {'ns':>9}  {'paired ratio: median [min-max]':32} {'ns/Yext':>8}  counters")
    for b in results["benchmarks"]:
        if "error" in b:
            print(f"{b['name']:40} error: {b['error']}")
            continue
        s = b["ns_per_iteration"]
        t = s["value"]["median"]
        print(f"{b['name']:40} {fmt(t):>9}  {spread_text(s['ratio']):32} {fmt(t / y_ext) if y_ext else '-':>8}  "
              f"{' '.join(counter_texts(b, y_ext, '='))}")
    print()
    print(f"{'goal':18} {'metric':14} {'ns':>10} {'paired ratio':>26} {'goal':>8}  status")
    for name, what, metric, ns, ratio, scale, goal, status, ext in goal_rows(results):
        shown = spread_text(ratio, scale) if ratio else "-"
        print(f"{name:18} {metric:14} {fmt(ns):>10} {shown:>26} {fmt(goal) + ' Y':>8}  {status}")
    if ctx.get("seconds"):
        print(f"\n{ctx['seconds']} s in all")


DOC_HEAD = """# Benchmarks

<!-- Generated by scripts/bench_report.py from build/bench/results.json (`make bench`).
     Do not edit by hand: run `make bench` and commit the result. -->

Speed is measured with Google Benchmark programs in `bench/` (one per stage), never in unit
tests. `make bench` builds the `bench` preset (Release, no `-march`), runs every program (the
single-threaded ones pinned to one core), merges their results into `build/bench/results.json`
and rewrites this page from it.

Absolute nanoseconds change from machine to machine and, on a shared machine, from minute to
minute, so every case is measured **paired** with a reference kernel compiled into the same
program (`bench/reference_kernel.cpp`: a plain scalar forward-kinematics walk over a 60-joint
tree, the computation of `../shared/perf/yardstick.cpp`). The two run in alternating blocks,
round by round over the cases, each case block is divided by the kernel's ns per joint in the
blocks just before and after it, every program runs in three passes (processes, address-space
randomization off), and a case is given as the **median of these paired ratios over the passes,
in Y**, with their spread (min-max over the pairs). A ratio is in the case's own unit: time per iteration, or a counter's
time per joint, per leg, per solve... divided by Y. The method and its limits:
[performance.md](performance.md), "How speed is measured". ozz-animation's figures in Y are in
`../shared/perf/README.md`.

Why a goal is not met, with the profile behind it: [performance.md](performance.md) (by hand).
"""


def cmd_doc(args):
    results = load(args.results)
    ctx = results["context"]
    y_ext = ctx.get("yardstick_ns_per_joint")
    lines = [DOC_HEAD, "## This run\n"]
    lines.append(f"- date: {ctx.get('date', '?')}; host: {ctx.get('host_name', '?')}, "
                 f"{ctx.get('num_cpus', '?')} CPUs at {fmt(ctx.get('mhz_per_cpu'))} MHz; "
                 f"{ctx.get('pairs', '?')} pairs per case in {ctx.get('passes', 1)} passes (processes), "
                 f"blocks of {ctx.get('block_seconds', '?')} s"
                 + (f"; {ctx['seconds']} s in all" if ctx.get("seconds") else ""))
    lines.append("- reference kernel Y, ns per joint (CPU time, median (min-max) of each program's blocks): "
                 + ", ".join(reference_texts(results)))
    if y_ext:
        runs = "; ".join(f"median {fmt(r['median'])}, min {fmt(r['min'])}, max {fmt(r['max'])}"
                         + (" (contended: min used)" if r["contended"] else "")
                         for r in ctx.get("yardstick_runs", []))
        lines.append(f"- for comparison, the external yardstick (`../shared/perf/yardstick.sh`, a separate "
                     f"program before and after): Y = **{fmt(y_ext)} ns** per joint ({runs}); "
                     f"the column ns / Y ext divides the median ns by it")
    else:
        lines.append("- the external yardstick was not run (no `../shared/perf`): paired ratios only")
    if ctx.get("load_average"):
        lines.append(f"- load average at the end of the run: {ctx['load_average']} (on {ctx.get('num_cpus', '?')} CPUs)")
        try:
            busy = float(ctx["load_average"].split()[0]) > float(ctx.get("num_cpus", 1))
        except ValueError:
            busy = False
        if busy:
            lines.append("- the machine was busy: pairing cancels the share of the core and the clock, not the "
                         "cache and memory traffic of other processes, so memory-bound cases (sampling, world, "
                         "batch) read high (performance.md, \"How speed is measured\")")
    lines.append("")
    lines.append("## Goals\n")
    lines.append("| benchmark | what | measured | paired ratio, median [min-max] | goal | status | ns / Y ext |")
    lines.append("| --- | --- | --- | --- | --- | --- | --- |")
    for name, what, metric, ns, ratio, scale, goal, status, ext in goal_rows(results):
        if ns is None:
            measured = "-"
        elif metric == "time":
            measured = f"{fmt(ns)} ns"
        else:
            measured = f"{fmt(ns)} ns ({metric})"
        if scale != 1.0 and ns is not None:
            measured = f"{fmt(ns / 1e6)} ms ({metric})"
        shown = spread_text(ratio, scale) if ratio else "-"
        lines.append(f"| `{name}` | {what} | {measured} | {shown} | <= {fmt(goal)} Y | {status} | {fmt(ext)} |")
    lines.append("")
    lines.append("## Every benchmark\n")
    lines.append("Time per iteration (CPU time; wall clock where marked), its paired ratio, and the counters: "
                 "value, and for a time per unit its paired ratio.\n")
    lines.append("| benchmark | ns per iteration | paired ratio, median [min-max] | ns / Y ext | counters |")
    lines.append("| --- | --- | --- | --- | --- |")
    for b in results["benchmarks"]:
        if "error" in b:
            lines.append(f"| `{b['name']}` | error: {b['error']} | | | |")
            continue
        s = b["ns_per_iteration"]
        t = s["value"]["median"]
        clock = " (wall clock)" if b.get("clock") == "real" else ""
        lines.append(f"| `{b['name']}` | {fmt(t)}{clock} | {spread_text(s['ratio'])} | "
                     f"{fmt(t / y_ext) if y_ext else '-'} | {', '.join(counter_texts(b, y_ext, ' '))} |")
    lines.append("")
    with open(args.out, "w") as f:
        f.write("\n".join(lines))


def ratios(results):
    """Every paired ratio of a run: (case, metric) -> median."""
    out = {}
    for b in cases(results):
        out[(b["name"], "time")] = b["ns_per_iteration"]["ratio"]["median"]
        for name, s in b.get("counters", {}).items():
            if "ratio" in s:
                out[(b["name"], name)] = s["ratio"]["median"]
    return out


def cmd_compare(args):
    runs = [ratios(load(p)) for p in args.results]
    keys = [k for k in runs[0] if all(k in r for r in runs[1:])]
    worst = 0.0
    over = 0
    print(f"{'benchmark':40} {'metric':18} {'medians of the runs':40} spread")
    for k in keys:
        vals = [r[k] for r in runs]
        d = max(vals) / min(vals) - 1.0
        worst = max(worst, d)
        over += d > args.limit
        print(f"{k[0]:40} {k[1]:18} {' '.join(fmt(v) for v in vals):40} {100 * d:5.1f}%"
              + ("  > limit" if d > args.limit else ""))
    print(f"\n{len(keys)} ratios; largest spread {100 * worst:.1f}%; {over} above {100 * args.limit:.0f}%")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("merge")
    m.add_argument("--out", required=True)
    m.add_argument("--y-before", default="")
    m.add_argument("--y-after", default="")
    m.add_argument("--load", default="")
    m.add_argument("--seconds", default="")
    m.add_argument("inputs", nargs="+")
    t = sub.add_parser("table")
    t.add_argument("results")
    d = sub.add_parser("doc")
    d.add_argument("results")
    d.add_argument("--out", required=True)
    c = sub.add_parser("compare")
    c.add_argument("--limit", type=float, default=0.05)
    c.add_argument("results", nargs="+")
    args = p.parse_args()
    {"merge": cmd_merge, "table": cmd_table, "doc": cmd_doc, "compare": cmd_compare}[args.cmd](args)


if __name__ == "__main__":
    main()
