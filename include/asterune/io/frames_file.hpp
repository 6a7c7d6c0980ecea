// The `asterune.frames/1` JSON document: solved frames of a rig as printed by
// `asterune-solve --format json` (docs/formats.md) and read by other tools.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "asterune/controls/control.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::io {

inline constexpr std::string_view kFramesFormat = "asterune.frames/1";

/// One control's outcome in a printed frame (copied from the stack's ControlReport).
struct ControlRecord {
  std::string name;
  bool reached = false;
  float residual = 0.0f;  // what is left: IK studs to the target; look-at radians of gaze error
  std::optional<FeetReport> feet;  // feet controls: per-foot lift, hit, tilt, clamped; pelvis drop
};

/// One solved frame: per joint in layout order, the final T, its coverage and the world
/// placement of the child part (part1).
struct FrameRecord {
  int frame = 0;
  float time = 0.0f;
  std::vector<Transform> local;
  std::vector<float> coverage;
  std::vector<Transform> world;
  std::vector<ControlRecord> controls;
};

/// Serializes frames as one `asterune.frames/1` object:
/// {"format", "rig", "frames": [{"frame", "time", "joints": [{"name", "part0", "part1",
/// "parent", "transform": {"position", "rotation"}, "coverage", "world": {...}}], "controls":
/// [{"name", "reached", "residual", "feet"?: [{"lift", "hit", "tilt_deg", "clamped", "sole_error"}],
/// "pelvis_drop"?}]}]}. Part names (not ids) are printed; rotations are
/// [w, x, y, z]. Each record must hold rig.joint_count() entries per array.
std::string write_frames_json(const Rig& rig, std::span<const FrameRecord> frames);

}  // namespace asterune::io
