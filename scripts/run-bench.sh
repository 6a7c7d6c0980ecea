#!/usr/bin/env bash
# Runs every benchmark program of the bench preset (build/bench/bench/asterune-bench-*), merges
# their Google Benchmark JSON into build/bench/results.json, measures the speed yardstick Y when
# ../shared/perf/yardstick.sh exists beside the repository (before and after the benchmarks; Y
# and load are recorded; see scripts/bench_report.py for how Y is chosen), prints a table of ns and ns / Y, and regenerates docs/benchmarks.md from it.
# Used by `make bench`; extra arguments go to every benchmark program (e.g. --benchmark_filter=World).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/bench"
out="$build/json"
rm -rf "$out"
mkdir -p "$out"

yardstick="$root/../shared/perf/yardstick.sh"
measure_y() {
  # "yardstick_ns_per_joint MEDIAN (min MIN, max MAX)" -> "MEDIAN,MIN,MAX"
  if [ -f "$yardstick" ]; then
    bash "$yardstick" | sed -n 's/^yardstick_ns_per_joint \([0-9.]*\) (min \([0-9.]*\), max \([0-9.]*\)).*/\1,\2,\3/p'
  fi
}
y_before=$(measure_y)

# Single-threaded programs run pinned to the yardstick's core, as the yardstick does.
pin=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then pin=(taskset -c "${YARDSTICK_CPU:-1}"); fi
shopt -s nullglob
programs=("$build"/bench/asterune-bench-*)
[ ${#programs[@]} -gt 0 ] || { echo "no benchmark programs in $build/bench (run cmake --build --preset bench)" >&2; exit 1; }
for program in "${programs[@]}"; do
  stage=${program##*/asterune-bench-}
  runner=("${pin[@]}")
  [ "$stage" = runtime ] && runner=()  # the batch benchmark drives two threads of its own
  echo "== $stage"
  "${runner[@]}" "$program" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/$stage.json" --benchmark_out_format=json "$@"
done

y_after=$(measure_y)
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)
python3 "$root/scripts/bench_report.py" merge --out "$build/results.json" --y-before "${y_before:-}" \
  --y-after "${y_after:-}" --load "${load:-}" "$out"/*.json
python3 "$root/scripts/bench_report.py" table "$build/results.json"
python3 "$root/scripts/bench_report.py" doc "$build/results.json" --out "$root/docs/benchmarks.md"
echo "wrote $build/results.json and docs/benchmarks.md"
