#!/usr/bin/env bash
# Runs every libFuzzer harness of the fuzz preset for a short time on a copy of its seed corpus
# (tests/fuzz/corpus/<target>), then replays its regression inputs (tests/fuzz/regression/<target>).
# Usage: scripts/fuzz-smoke.sh [seconds per harness, default 15] [build dir, default build/fuzz]
# A crash, a leak, a timeout (10 s per input) or more than 1 GiB for one input fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-15}"
build="${2:-build/fuzz}"
targets=(rig_json pose_json scene_json bvh rbxmx joints_json gltf keyframe_sequence frame)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for t in "${targets[@]}"; do
  exe="$build/tests/fuzz_$t"
  [ -x "$exe" ] || { echo "missing $exe: run cmake --preset fuzz && cmake --build --preset fuzz" >&2; exit 1; }
  mkdir -p "$work/$t"
  cp tests/fuzz/corpus/"$t"/* "$work/$t/"
  echo "== fuzz_$t: ${seconds}s on $(ls "$work/$t" | wc -l) seeds"
  "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 -print_final_stats=1 "$work/$t" 2>"$work/$t.log" ||
    { tail -n 60 "$work/$t.log" >&2; exit 1; }
  grep -E "^stat::number_of_executed_units|^Done" "$work/$t.log" || true
  regression=(tests/fuzz/regression/"$t"/*)
  if [ -e "${regression[0]}" ]; then
    echo "== fuzz_$t: replaying ${#regression[@]} regression inputs"
    "$exe" -timeout=10 -rss_limit_mb=1024 "${regression[@]}" 2>"$work/$t.replay.log" ||
      { tail -n 60 "$work/$t.replay.log" >&2; exit 1; }
  fi
done
echo "fuzz smoke: all ${#targets[@]} harnesses ok"
