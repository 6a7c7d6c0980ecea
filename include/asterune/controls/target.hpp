// Control targets: where a control wants its endpoint (or its gaze) to go, evaluated each frame
// in world space. Three kinds (formats.md "Targets"): a static world point, a path of timed
// points (linear in time, clamped at both ends), or a point fixed in one of the rig's parts
// (part name + offset in that part's frame, read from the CURRENT world pose, so it follows
// whatever earlier controls did). Poles use the same type.
#pragma once

#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {

class Rig;

enum class TargetKind { kPosition, kPath, kPart };

/// One timed point of a path target.
struct PathKey {
  float t = 0.0f;
  glm::vec3 position{0.0f};
};

/// A target description. Build with the helpers below; bind with resolve_target() at setup.
struct Target {
  TargetKind kind = TargetKind::kPosition;
  glm::vec3 position{0.0f};   // kPosition: the world point; kPart: the offset in the part's frame
  std::vector<PathKey> path;  // kPath: keys with nondecreasing t
  std::string part;           // kPart: a part name (child part name, parent-qualified, or the root part)
  // Filled by resolve_target(): the joint that places `part`, or -1 for the root part.
  int part_joint = -1;
  bool resolved = false;
};

Target target_at(const glm::vec3& world_point);
Target target_path(std::vector<PathKey> keys);
Target target_on_part(std::string part_name, const glm::vec3& offset);

/// Setup-time check and binding against `rig`: finite values; a nonempty path with
/// nondecreasing times; a part name that the rig resolves (SPEC R6: ambiguous names are
/// refused) or that names the root part. `what` names the item in the message
/// (e.g. "control 'LeftArmReach' target"). On failure `target` is left unchanged.
Status resolve_target(Target& target, const Rig& rig, const std::string& what);

/// The world point of a resolved target at scene time `time`, reading part placements from
/// `world` (child-part placements in layout order) and the root placement. Allocation-free,
/// never throws. A path with a nonfinite time gives its first key. An unresolved target or
/// a nonfinite result is returned as is: callers test it with is_finite().
glm::vec3 evaluate_target(const Target& target, const Transform& root, std::span<const Transform> world, float time);

}  // namespace asterune
