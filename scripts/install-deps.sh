#!/usr/bin/env bash
# Installs the Debian packages asterune-rig needs, if any are missing.
# As root it runs apt-get; otherwise it prints the exact command and stops.
set -euo pipefail
# ccache: the Makefile compiles through it (cache in build/.ccache).
# python3: scripts/bench_report.py (merges benchmark JSON, prints the table, writes docs/benchmarks.md).
# The rest are asterune-viewer's (examples/viewer, optional in CMake): GLFW 3, OpenGL through Mesa
# (libgl-dev headers, libgl1-mesa-dri's software rasteriser), Dear ImGui with its GLFW and OpenGL 3
# backends, pkg-config to find ImGui and stb, and Xvfb + xauth for its headless test (xvfb-run).
packages=(g++ make cmake ccache libglm-dev catch2 nlohmann-json3-dev libpugixml-dev libcli11-dev
          libbenchmark-dev libtinygltf-dev libstb-dev clang-14 libclang-rt-14-dev python3
          pkg-config libglfw3-dev libgl-dev libgl1-mesa-dri libimgui-dev xvfb xauth)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "missing packages; run as root:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
