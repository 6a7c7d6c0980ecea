#!/usr/bin/env bash
# Runs every benchmark program of the bench preset (build/bench/bench/asterune-bench-*). Each
# program measures its cases paired with the in-process reference kernel (bench/paired_main.cpp:
# alternating blocks, each case as the median of its ratios to the adjacent reference blocks, in
# units Y of the kernel's ns per joint) and writes build/bench/json/<stage>.json. The results are
# merged into build/bench/results.json, printed as a table of ns and ratios, and docs/benchmarks.md
# is regenerated from them. When ../shared/perf/yardstick.sh exists beside the repository, the
# external yardstick is also run before and after, and its Y is shown beside the paired ratios for
# comparison; without it everything else works the same.
# Used by `make bench`; extra arguments go to every benchmark program (e.g. --benchmark_filter=World,
# --paired_pairs=15; see bench/paired_main.hpp).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/bench"
out="$build/json"
rm -rf "$out"
mkdir -p "$out"
start=$(date +%s)

yardstick="$root/../shared/perf/yardstick.sh"
measure_y() {
  # "yardstick_ns_per_joint MEDIAN (min MIN, max MAX)" -> "MEDIAN,MIN,MAX"
  if [ -f "$yardstick" ]; then
    bash "$yardstick" | sed -n 's/^yardstick_ns_per_joint \([0-9.]*\) (min \([0-9.]*\), max \([0-9.]*\)).*/\1,\2,\3/p'
  fi
}
y_before=$(measure_y)

# Programs run pinned to one core (the yardstick's), the reference kernel with their cases. The
# cases that drive threads of their own (the batch on two threads) run in a second, unpinned pass.
threaded='^BM_Batch10k'
pin=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then pin=(taskset -c "${YARDSTICK_CPU:-1}"); fi
# Address-space randomization off (setarch -R) where the kernel allows it: the stack and the mmap
# areas then sit at the same addresses in every process, so two runs of a program lay out its data
# alike. With it on, a short case read 0.094 or 0.099 Y by process (4 KB aliasing between the stack
# and heap arrays moves with the random offsets; performance.md, "How speed is measured").
fixed=()
if command -v setarch >/dev/null && setarch "$(uname -m)" -R true 2>/dev/null; then fixed=(setarch "$(uname -m)" -R); fi
user_filter=no
for a in "$@"; do case "$a" in --benchmark_filter=*) user_filter=yes ;; esac; done
shopt -s nullglob
programs=("$build"/bench/asterune-bench-*)
[ ${#programs[@]} -gt 0 ] || { echo "no benchmark programs in $build/bench (run cmake --build --preset bench)" >&2; exit 1; }
run() {  # run NAME COMMAND...: one pass, its JSON in $out/NAME.json
  local name=$1 began
  shift
  echo "== $name"
  began=$(date +%s)
  "${fixed[@]}" "$@" --paired_out="$out/$name.json"
  echo "($(( $(date +%s) - began )) s)"
}
# Passes: every program runs BENCH_PASSES times (default 3), each pass with a third of the pairs,
# one pass after the other. A case's ratios are then gathered from three processes minutes apart
# (performance.md: a slow spell or one process's memory layout no longer moves a whole case).
passes=${BENCH_PASSES:-3}
pairs=()
user_pairs=no
for a in "$@"; do case "$a" in --paired_pairs=*) user_pairs=yes ;; esac; done
[ "$user_pairs" = yes ] || pairs=(--paired_pairs="${BENCH_PAIRS_PER_PASS:-5}")
for pass in $(seq 1 "$passes"); do
  for program in "${programs[@]}"; do
    stage=${program##*/asterune-bench-}
    if [ "$stage" != runtime ]; then
      run "$stage.$pass" "${pin[@]}" "$program" "${pairs[@]}" "$@"
    elif [ "$user_filter" = yes ]; then
      run "$stage.$pass" "$program" "${pairs[@]}" "$@"  # the user's filter decides; unpinned, as the batch needs two cores
    else
      run "$stage.$pass" "${pin[@]}" "$program" --benchmark_filter="-$threaded" "${pairs[@]}" "$@"
      run "$stage-threads.$pass" "$program" --benchmark_filter="$threaded" "${pairs[@]}" "$@"
    fi
  done
done

y_after=$(measure_y)
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)
python3 "$root/scripts/bench_report.py" merge --out "$build/results.json" --y-before "${y_before:-}" \
  --y-after "${y_after:-}" --load "${load:-}" --seconds "$(( $(date +%s) - start ))" "$out"/*.json
python3 "$root/scripts/bench_report.py" table "$build/results.json"
python3 "$root/scripts/bench_report.py" doc "$build/results.json" --out "$root/docs/benchmarks.md"
echo "wrote $build/results.json and docs/benchmarks.md ($(( $(date +%s) - start )) s)"
