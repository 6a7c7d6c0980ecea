// Pose files: the `asterune.pose/1` JSON format of docs/formats.md. A pose file sets the
// animated transform T of some joints of a rig, by child part name or parent-qualified name.
#pragma once

#include <filesystem>
#include <string_view>

#include "asterune/core/result.hpp"
#include "asterune/rig/pose.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::io {

inline constexpr std::string_view kPoseFormat = "asterune.pose/1";

/// Parses `asterune.pose/1` text against `rig`. Each key of "joints" is resolved with
/// Rig::find_joint (child part name, or "Parent/Child" when the name is ambiguous); its value
/// is a placement (either form) that becomes the joint's T with coverage 1. Unlisted joints
/// keep identity with coverage 0 (rule P1). Fails (naming the file, the JSON path and the
/// reason) on an unknown or ambiguous joint name, a joint listed twice (e.g. by plain and
/// qualified name), an invalid placement, a wrong format tag or bad JSON.
Result<Pose> parse_pose_json(std::string_view text, const Rig& rig, std::string_view file_label);

/// Reads a pose file (see parse_pose_json).
Result<Pose> read_pose_file(const std::filesystem::path& path, const Rig& rig);

}  // namespace asterune::io
