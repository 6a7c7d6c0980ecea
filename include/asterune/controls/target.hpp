// Control targets: where a control wants its endpoint (or its gaze) to go, evaluated each frame
// in world space. Three kinds (docs/formats.md "Targets"): a static world point, a path of timed
// points (linear in time, clamped at both ends), or a point fixed in one of the rig's parts
// (part name + offset in that part's frame, read from the CURRENT world pose, so it follows
// whatever earlier controls did). Poles use the same type. A Target is plain description data;
// the ControlStack checks and binds it to the rig when the control is built.
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace asterune {

enum class TargetKind { kPosition, kPath, kPart };

/// One timed point of a path target.
struct PathKey {
  float t = 0.0f;
  glm::vec3 position{0.0f};
};

/// A target description. Build with the helpers below.
struct Target {
  TargetKind kind = TargetKind::kPosition;
  glm::vec3 position{0.0f};   ///< kPosition: the world point; kPart: the offset in the part's frame
  std::vector<PathKey> path;  ///< kPath: keys with nondecreasing t (checked when the control is built)
  std::string part;           ///< kPart: a child part name, a parent-qualified name, or the root part
};

/// A static world point.
Target target_at(const glm::vec3& world_point);
/// A path of timed world points (linear between keys, held at both ends).
Target target_path(std::vector<PathKey> keys);
/// A point fixed in a part: `offset` in that part's frame.
Target target_on_part(std::string part_name, const glm::vec3& offset);

}  // namespace asterune
