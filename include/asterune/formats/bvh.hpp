// BVH (Biovision Hierarchy) motion capture import (rule P4): the HIERARCHY becomes a
// SourceSkeleton (RT1) and the MOTION a Clip with one track per joint, keyed by joint name.
//
// Conventions (see docs/clips.md):
//   - rest_local[j] = (OFFSET, identity rotation); end_sites[j] = End Site OFFSET or zero.
//   - Rotation keys compose the joint's Euler channels in file order as intrinsic rotations:
//     "Zrotation Yrotation Xrotation" gives R = Rz(z) * Ry(y) * Rx(x). Angles are degrees.
//   - Position channels give translation keys (the FULL local position, replacing OFFSET; a
//     component without a channel keeps OFFSET's value). Joints without position channels
//     have no translation keys, so sampling keeps their OFFSET.
//   - Key k is at time k * frame_time; clip duration = (frames - 1) * frame_time.
//   - Lengths stay in file units (skeleton.units_to_studs = 1); kCmuUnitsToStuds converts CMU.
// Line endings CRLF, LF and mixed, tabs and any whitespace are accepted.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/rig/source_skeleton.hpp"

namespace asterune::io {

/// CMU mocap length unit in metres (CMU FAQ: (1/0.45) inch = 0.056444 m).
inline constexpr float kCmuUnitMetres = 0.056444f;
/// Roblox stud in metres used by this project (1 stud = 0.28 m).
inline constexpr float kStudMetres = 0.28f;
/// Multiply CMU BVH lengths by this to get studs (= 0.056444 / 0.28 ~ 0.2016).
inline constexpr float kCmuUnitsToStuds = kCmuUnitMetres / kStudMetres;

enum class BvhChannel { kXposition, kYposition, kZposition, kXrotation, kYrotation, kZrotation };

/// Channel name as written in BVH files ("Zrotation", ...).
const char* to_string(BvhChannel channel);

struct BvhFile {
  SourceSkeleton skeleton;                        // joints in file order (parents first)
  Clip clip;                                      // one track per joint, named like the joint
  std::vector<std::vector<BvhChannel>> channels;  // per joint, in file order
  int frame_count = 0;
  float frame_time = 0.0f;                        // seconds per frame
};

/// Parses BVH text. `source_name` (usually the path) prefixes every error message, which also
/// names the 1-based line and the reason. Fails on: missing/unknown keywords, bad channel
/// counts, unknown channel names, missing braces, non-numeric or nonfinite numbers, a frame
/// count < 1, nonpositive frame time, truncated or surplus motion values. Nothing half-built.
Result<BvhFile> parse_bvh(std::string_view text, const std::string& source_name);

/// Reads and parses a BVH file. The clip and skeleton are named after the file's stem.
Result<BvhFile> load_bvh(const std::string& path);

}  // namespace asterune::io
