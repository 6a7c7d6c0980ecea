// RetargetProfile: the plain-data definition of how a source skeleton drives a target rig
// (rule RT2-RT7): which source joint drives which target joint, how the source's facing/up
// turns into the target's, rest matching, translation and its scale. A profile names joints
// only; building a RetargetBinding (binding.hpp) resolves the names against a concrete
// source skeleton and rig. profile_key() is a stable hash of the whole definition, used by
// the binding cache (rule RT7).
#pragma once

#include <cstdint>
#include <optional>
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
  /// Rule RT21: a source joint below `source` (a limb's end: the ankle, the wrist) that the
  /// target part points at, for a target limb made of one part (R6's leg and arm) driven by
  /// a source limb of several bones. Empty: the part follows `source` alone.
  std::string aim = {};
};

struct RetargetProfile {
  std::string name;
  std::vector<JointMapping> joints;

  /// Facing alignment F: the rotation taking source skeleton space into target rig space
  /// (the source's facing and up onto the target's). CMU BVH faces +Z and a Roblox rig faces
  /// -Z, both +Y up: F = 180 degrees about +Y. See auto_facing() in humanoid.hpp for a choice
  /// computed from the two skeletons. Normalized when the binding is built.
  glm::quat facing{1.0f, 0.0f, 0.0f, 0.0f};

  /// rule RT3: also align each source bone direction with the target's at rest.
  bool rest_matching = true;

  /// rule RT6: carry the travel of the source root onto the target joint it drives.
  bool translation = true;

  /// Travel multiplier, applied after the source's units_to_studs. A nonfinite or
  /// nonpositive value falls back to 1 (rule RT6). Ignored when auto_scale is set.
  float scale = 1.0f;

  /// Travel reference of the source root. false: its rest_local position. true: the rest pose
  /// is taken to stand on the source's ground plane (height 0 along the source up F^-1 * +Y),
  /// so the reference is the rest position lifted until the lowest rest point (joints and end
  /// sites) is at height 0. Use it for sources whose root OFFSET is 0 while the motion carries
  /// absolute positions (CMU BVH): otherwise the whole standing height counts as travel.
  bool rest_on_ground = false;

  /// Rule RT16: the height of the source's floor along the source up (F^-1 * +Y), in source
  /// units, as found from the clip's foot contacts (contacts.hpp) or given by the author. When
  /// set, the travel reference is the rest position lifted so that the rest's lowest point sits
  /// on this floor (instead of on height 0 or at the rest position itself), so a source foot on
  /// its floor puts the target's sole on the target's ground. nullopt: the rest decides (above).
  std::optional<float> floor;

  /// rule RT6 beyond: scale = target leg length / source leg length (hip to sole), measured
  /// along the leg chains below.
  bool auto_scale = false;

  /// Leg chains for auto_scale, on each side: 1 to 3 joint names, upper leg first, then lower
  /// leg and foot when the skeleton has them (R6's leg is a single part).
  std::vector<std::string> source_leg;
  std::vector<std::string> target_leg;
};

/// Stable 64-bit hash (FNV-1a) of every field of the profile, mapping order excluded
/// (mappings are sorted first): equal definitions give equal keys in every run and build;
/// any edit (a mapping, the facing, a flag, the scale, a leg joint) changes it.
std::uint64_t profile_key(const RetargetProfile& profile);

}  // namespace asterune
