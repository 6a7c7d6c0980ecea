// The `asterune.frames/1` JSON document: solved frames of a rig as printed by
// `asterune-solve --format json` (docs/formats.md) and read by other tools.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "asterune/formats/frame_record.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::io {

inline constexpr std::string_view kFramesFormat = "asterune.frames/1";

/// Serializes frames as one `asterune.frames/1` object:
/// {"format", "rig", "frames": [{"frame", "time", "joints": [{"name", "part0", "part1",
/// "parent", "transform": {"position", "rotation"}, "coverage", "world": {...}}], "controls":
/// [{"name", "status", "reached", "clamped", "distance", "angle", "weight", "passes", "stretch",
/// and for springs "substeps", "resets", and for feet "feet": [{"lift", "hit", "tilt_deg",
/// "clamped", "sole_error", "ray_origin", "ray_end", "hit_normal"}], "pelvis_drop"}]}]}. A
/// frame with animator tracks also has "tracks": [{"name", "weight", "time", "playing"}] and
/// "events": [{"track", "kind", "name", "value", "time"}] (and "events_dropped" when some did
/// not fit); a frame without tracks has neither. A record with foot contacts also has
/// "contacts": {"LeftFoot": true, ...}. Part names (not ids) are printed; rotations
/// are [w, x, y, z]. Each record must hold rig.joint_count() entries per array.
std::string write_frames_json(const Rig& rig, std::span<const FrameRecord> frames);

/// The same document written piece by piece, so a long run never holds all its frames:
/// frames_json_head(rig), then frames_json_frame(rig, record, index) for each frame with
/// index 0, 1, ..., then frames_json_tail(frame_count). The concatenation is byte for byte
/// the text of write_frames_json. Each piece allocates only its own string.
std::string frames_json_head(const Rig& rig);
std::string frames_json_frame(const Rig& rig, const FrameRecord& record, size_t index);
std::string frames_json_tail(size_t frame_count);

}  // namespace asterune::io
