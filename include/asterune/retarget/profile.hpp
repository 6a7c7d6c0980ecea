// RetargetProfile: the plain-data definition of how a source skeleton drives a target rig
// (SPEC RT2-RT7): which source joint drives which target joint, how the source's facing/up
// turns into the target's, rest matching, translation and its scale. A profile names joints
// only; building a RetargetBinding (binding.hpp) resolves the names against a concrete
// source skeleton and rig. profile_key() is a stable hash of the whole definition, used by
// the binding cache (SPEC RT7).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace asterune {

/// One mapped joint: the target joint (child part name, or parent-qualified
/// "Parent/Child" as Rig::find_joint() accepts) takes its rig-space motion from the source
/// joint with this exact name.
struct JointMapping {
  std::string target;
  std::string source;
};

struct RetargetProfile {
  std::string name;
  std::vector<JointMapping> joints;

  /// Facing alignment F: the rotation taking source skeleton space into target rig space
  /// (the source's facing and up onto the target's). CMU BVH faces +Z and a Roblox rig faces
  /// -Z, both +Y up: F = 180 degrees about +Y. See auto_facing() in humanoid.hpp for a choice
  /// computed from the two skeletons. Normalized when the binding is built.
  glm::quat facing{1.0f, 0.0f, 0.0f, 0.0f};

  /// SPEC RT3: also align each source bone direction with the target's at rest.
  bool rest_matching = true;

  /// SPEC RT6: carry the travel of the source root onto the target joint it drives.
  bool translation = true;

  /// Travel multiplier, applied after the source's units_to_studs. A nonfinite or
  /// nonpositive value falls back to 1 (SPEC RT6). Ignored when auto_scale is set.
  float scale = 1.0f;

  /// SPEC RT6 beyond: scale = target leg length / source leg length (hip to sole), measured
  /// along the leg chains below.
  bool auto_scale = false;

  /// Leg chains for auto_scale: upper leg, lower leg and foot joint names, on each side.
  std::vector<std::string> source_leg;
  std::vector<std::string> target_leg;
};

/// Stable 64-bit hash (FNV-1a) of every field of the profile, mapping order excluded
/// (mappings are sorted first): equal definitions give equal keys in every run and build;
/// any edit (a mapping, the facing, a flag, the scale, a leg joint) changes it.
std::uint64_t profile_key(const RetargetProfile& profile);

}  // namespace asterune
