#!/usr/bin/env python3
"""Benchmark results for `make bench` (scripts/run-bench.sh): merge, table, doc.

  merge --out results.json [--y-before Y] [--y-after Y] a.json b.json ...
      Merges Google Benchmark JSON files (one per program) into one: the first file's context
      plus `yardstick_ns_per_joint` (Y, the mean of the runs given), and every benchmark entry.
  table results.json
      Prints ns and ns / Y per benchmark (medians when repetitions were run) and the goals.
  doc results.json --out docs/benchmarks.md
      Writes the benchmarks page from the results, so the page cannot go stale.
"""
import argparse
import json
import sys

# The speed goals (issue of speed; ../shared/perf/README.md). metric: "time" is the benchmark's
# wall-clock time per iteration, anything else a counter. unit "Y": goal in yardstick units, "ms": absolute.
GOALS = [
    ("BM_World60", "ns_per_joint", 0.17, "Y", "world evaluation, 60-joint humanoid, per joint (0.8x ozz)"),
    ("BM_WorldR15", "ns_per_joint", 0.17, "Y", "world evaluation, R15, per joint"),
    ("BM_SampleClip60", "ns_per_joint", 0.33, "Y", "clip sampling, 60 joints, 31 keys 8 deg apart, forward 60 fps, per joint (1.0x ozz)"),
    ("BM_TwoBone", "time", 2.9, "Y", "analytic two-bone solve (0.6x ozz)"),
    ("BM_LookAt1", "time", 3.6, "Y", "look-at, one joint, limits on"),
    ("BM_FeetR15", "ns_per_leg", 8.0, "Y", "feet control per leg: two legs, pelvis, normals, plane ground"),
    ("BM_FullFrameR15", "time", 64.0, "Y", "full R15 frame: retarget + feet/pelvis + look-at + arm IK + tail spring"),
    ("BM_AnimatorR15", "time", 30.0, "Y", "animator: four native R15 tracks (3 Movement, 1 masked Action) sampled and composed"),
    ("BM_AnimatorR15Compose", "ns_per_joint_track", 0.1, "Y", "animator composition alone, per joint per track"),
    ("BM_Batch10k", "ms_per_frame", 10.0, "ms", "10,000 characters through the batch API on 2 threads"),
]

TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def load(path):
    with open(path) as f:
        return json.load(f)


def cmd_merge(args):
    merged = None
    for path in args.inputs:
        data = load(path)
        if merged is None:
            merged = {"context": data.get("context", {}), "benchmarks": []}
        merged["benchmarks"].extend(data.get("benchmarks", []))
    if merged is None:
        sys.exit("bench_report merge: no input files")
    # Each yardstick run: "median,min,max" of 31 wall-clock blocks. On a quiet machine the
    # median is Y. When the spread shows contention (max > 1.5 min: other processes took the
    # core), the median is inflated by waiting while the benchmarks' CPU time is not, so the
    # uncontended min is used instead. Y is the mean over the runs (before and after).
    runs = []
    for v in (args.y_before, args.y_after):
        if v:
            med, lo, hi = (float(x) for x in v.split(","))
            runs.append({"median": med, "min": lo, "max": hi, "contended": hi > 1.5 * lo})
    ctx = merged["context"]
    if runs:
        picks = [r["min"] if r["contended"] else r["median"] for r in runs]
        ctx["yardstick_ns_per_joint"] = sum(picks) / len(picks)
        ctx["yardstick_runs"] = runs
    if args.load:
        ctx["load_average"] = args.load
    with open(args.out, "w") as f:
        json.dump(merged, f, indent=2)
        f.write("\n")


def entries(results):
    """One row per benchmark: the median aggregate when repetitions ran, else the plain run."""
    rows = {}
    order = []
    for b in results["benchmarks"]:
        name = b.get("run_name", b["name"]).replace("/real_time", "")
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        if b.get("error_occurred"):
            continue
        if name not in rows:
            order.append(name)
        if b.get("run_type") == "aggregate" or name not in rows:
            rows[name] = b
    return [(n, rows[n]) for n in order]


COUNTER_SKIP = {"name", "run_name", "run_type", "repetitions", "repetition_index", "threads", "iterations",
                "real_time", "cpu_time", "time_unit", "family_index", "per_family_instance_index",
                "aggregate_name", "aggregate_unit", "items_per_second", "bytes_per_second", "label",
                "error_occurred", "error_message"}


def counters(b):
    return {k: v for k, v in b.items() if k not in COUNTER_SKIP and isinstance(v, (int, float))}


def time_ns(b):
    # CPU time: on the shared machine it leaves out the time other processes hold the core.
    # BM_Batch10k (two threads) reports wall-clock through UseRealTime and its ms_per_frame.
    name = b.get("run_name", b["name"])
    key = "real_time" if name.endswith("/real_time") and "Batch" in name else "cpu_time"
    return b[key] * TO_NS[b.get("time_unit", "ns")]


def fmt(v, digits=3):
    if v is None:
        return "-"
    if abs(v) >= 100:
        return f"{v:.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.{digits}g}"


def counter_texts(b, y, sep):
    """Each counter as 'name<sep>value', with its ratio to Y for the ns_per_* ones."""
    out = []
    for k, v in counters(b).items():
        text = f"{k}{sep}{fmt(v)}"
        if k.startswith("ns_per") and y:
            text += f" ({fmt(v / y)} Y)"
        out.append(text)
    return out


def goal_rows(results):
    y = results["context"].get("yardstick_ns_per_joint")
    byname = dict(entries(results))
    out = []
    for name, metric, goal, unit, what in GOALS:
        b = byname.get(name)
        if b is None:
            out.append((name, what, metric, None, None, goal, unit, "not run"))
            continue
        value = time_ns(b) if metric == "time" else counters(b).get(metric)
        if value is None:
            out.append((name, what, metric, None, None, goal, unit, "no counter"))
            continue
        if unit == "Y":
            ratio = value / y if y else None
            status = "-" if ratio is None else ("met" if ratio <= goal else "not met")
            out.append((name, what, metric, value, ratio, goal, unit, status))
        else:
            out.append((name, what, metric, value, None, goal, unit, "met" if value <= goal else "not met"))
    return out


def cmd_table(args):
    results = load(args.results)
    y = results["context"].get("yardstick_ns_per_joint")
    print(f"yardstick Y = {fmt(y)} ns per joint" if y else "yardstick not run (../shared/perf/yardstick.sh not found): no ns / Y")
    print(f"{'benchmark':44} {'ns':>10} {'ns/Y':>8}  counters (value, /Y for ns_* counters)")
    for name, b in entries(results):
        t = time_ns(b)
        print(f"{name:44} {fmt(t):>10} {fmt(t / y) if y else '-':>8}  {' '.join(counter_texts(b, y, '='))}")
    print()
    print(f"{'goal':18} {'metric':14} {'value':>10} {'in Y':>8} {'goal':>8}  status")
    for name, what, metric, value, ratio, goal, unit, status in goal_rows(results):
        shown = fmt(value) + (" ns" if unit == "Y" else " ms") if value is not None else "-"
        print(f"{name:18} {metric:14} {shown:>10} {fmt(ratio):>8} {fmt(goal) + ' ' + unit:>8}  {status}")


DOC_HEAD = """# Benchmarks

<!-- Generated by scripts/bench_report.py from build/bench/results.json (`make bench`).
     Do not edit by hand: run `make bench` and commit the result. -->

Speed is measured with Google Benchmark programs in `bench/` (one per stage), never in unit
tests. `make bench` builds the `bench` preset (Release, no `-march`), runs every program three
times (the figures are medians of CPU time), pins the single-threaded ones to one core, merges
the JSON into `build/bench/results.json` and rewrites this page from it.

Absolute nanoseconds change from machine to machine, so every figure is also given in
**yardstick units Y**: the ns per joint of a plain scalar forward-kinematics loop
(`../shared/perf/yardstick.sh`) measured in the same run, before and after the benchmarks
(Y is the mean; a run whose blocks spread by more than 1.5x was contended, and its min, the
uncontended figure, stands for it, since CPU time leaves contention out too). A ratio to Y
transfers between machines; ozz-animation's figures in Y are in
`../shared/perf/README.md` (LocalToModelJob 0.21 Y per joint, SamplingJob 0.33 Y per joint,
IKTwoBoneJob 4.9 Y, IKAimJob 2.4 Y).

Why a goal is not met, with the profile behind it: [performance.md](performance.md) (by hand).
"""


def cmd_doc(args):
    results = load(args.results)
    ctx = results["context"]
    y = ctx.get("yardstick_ns_per_joint")
    lines = [DOC_HEAD]
    lines.append("## This run\n")
    lines.append(f"- date: {ctx.get('date', '?')}; host: {ctx.get('host_name', '?')}, "
                 f"{ctx.get('num_cpus', '?')} CPUs at {ctx.get('mhz_per_cpu', '?')} MHz")
    if y:
        runs = "; ".join(f"median {fmt(r['median'])}, min {fmt(r['min'])}, max {fmt(r['max'])}"
                         + (" (contended: min used)" if r["contended"] else "")
                         for r in ctx.get("yardstick_runs", []))
        lines.append(f"- yardstick Y = **{fmt(y)} ns** per joint (runs: {runs})")
        if ctx.get("load_average"):
            lines.append(f"- load average at the end of the run: {ctx['load_average']} "
                         f"(on {ctx.get('num_cpus', '?')} CPUs)")
            try:
                busy = float(ctx["load_average"].split()[0]) > float(ctx.get("num_cpus", 1))
            except ValueError:
                busy = False
            if busy:
                lines.append("- the machine was busy: CPU-time figures hold, but the wall-clock ones "
                             "(`BM_Batch10k`, two threads) include waiting for a core")
    else:
        lines.append("- yardstick not available in this run: figures in ns only")
    lines.append("")
    lines.append("## Goals\n")
    lines.append("| benchmark | what | measured | in Y | goal | status |")
    lines.append("| --- | --- | --- | --- | --- | --- |")
    for name, what, metric, value, ratio, goal, unit, status in goal_rows(results):
        if value is None:
            measured = "-"
        elif unit == "Y":
            measured = f"{fmt(value)} ns" + ("" if metric == "time" else f" ({metric})")
        else:
            measured = f"{fmt(value)} ms ({metric})"
        lines.append(f"| `{name}` | {what} | {measured} | {fmt(ratio)} | "
                     f"{'<= ' + fmt(goal) + ' ' + unit} | {status} |")
    lines.append("")
    lines.append("## Every benchmark\n")
    lines.append("| benchmark | ns per iteration | in Y | counters |")
    lines.append("| --- | --- | --- | --- |")
    for name, b in entries(results):
        t = time_ns(b)
        lines.append(f"| `{name}` | {fmt(t)} | {fmt(t / y) if y else '-'} | {', '.join(counter_texts(b, y, ' '))} |")
    lines.append("")
    with open(args.out, "w") as f:
        f.write("\n".join(lines))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("merge")
    m.add_argument("--out", required=True)
    m.add_argument("--y-before", default="")
    m.add_argument("--y-after", default="")
    m.add_argument("--load", default="")
    m.add_argument("inputs", nargs="+")
    t = sub.add_parser("table")
    t.add_argument("results")
    d = sub.add_parser("doc")
    d.add_argument("results")
    d.add_argument("--out", required=True)
    args = p.parse_args()
    {"merge": cmd_merge, "table": cmd_table, "doc": cmd_doc}[args.cmd](args)


if __name__ == "__main__":
    main()
