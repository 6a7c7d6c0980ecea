#!/usr/bin/env bash
# Runs asterune-solve over every rig and clip in a data folder (default ../shared/data) and the
# example scenes, and writes one file per run (stdout, stderr and the exit code) plus the files
# the exports write, into OUT. Two snapshots of the same data from two builds compare with
# `diff -r`: a refactor that promises no behaviour change must leave them byte-identical.
# Usage: scripts/cli_snapshot.sh SOLVE_BINARY OUT [DATA_DIR]
set -uo pipefail
solve=$(realpath "$1"); out=$2; data=$(realpath "${3:-../shared/data}")
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"; out=$(realpath "$out")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
run() {  # run NAME ARGS...: stdout, stderr and rc of one command into OUT/NAME
  local name=$1; shift
  (cd "$work" && "$solve" "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"; echo $? >"$out/$name.rc")
  for f in "$work"/*; do [ -e "$f" ] && mv "$f" "$out/$name.file.$(basename "$f")"; done
}
rigs=(builtin:r15 builtin:r6)
for r in "$data"/roblox/*.rbxmx "$data"/roblox/*.json; do
  case $r in *.joints.json) continue ;; esac
  rigs+=("$r")
done
clips=()
for c in "$data"/bvh/*.bvh "$data"/gltf/*.gl* "$data"/gltf/*.vrma; do [ -e "$c" ] && clips+=("$c"); done
for r in "${rigs[@]}"; do
  rn=$(basename "$r")
  run "rig.$rn" --rig "$r" --format json
  run "rig.$rn.table" --rig "$r"
  for c in "${clips[@]}"; do
    cn=$(basename "$c")
    run "clip.$rn.$cn.json" --rig "$r" --clip "$c" --all-frames --format json
  done
done
for c in "${clips[@]}"; do
  cn=$(basename "$c")
  run "clip.r15.$cn.csv" --rig builtin:r15 --clip "$c" --all-frames --format csv
  run "export.r15.$cn.rbxmx" --rig builtin:r15 --clip "$c" --out out.rbxmx
  run "export.r15.$cn.glb" --rig builtin:r15 --clip "$c" --out out.glb
  run "export.r15.$cn.curves" --rig builtin:r15 --clip "$c" --out out.rbxmx --rbxmx-kind curves
  run "svg.r15.$cn" --rig builtin:r15 --clip "$c" --svg out.svg --frame 10
done
for s in "$repo"/examples/*.scene.json; do
  sn=$(basename "$s")
  (cd "$repo" && run "scene.$sn.json" "$s" --all-frames --format json)
  (cd "$repo" && run "scene.$sn.svg" "$s" --svg "$work/out.svg")
done
run "demo" 
run "help" --help
echo "snapshot: $(ls "$out" | wc -l) files in $out"
