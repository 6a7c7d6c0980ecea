// Humanoid roles (rule RT8): a shared vocabulary of body roles, automatic role detection from
// common naming schemes (Roblox R15 and R6, CMU BVH in its MotionBuilder and 3dsMax namings,
// Mixamo, CesiumMan's glTF names, and the role names themselves as VRM uses them), author
// overrides on top, a plan listing what maps across two skeletons, and an automatic profile
// (`map: "auto"`). Any two skeletons interoperate through their roles, with no per-pair table.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "asterune/core/result.hpp"
#include "asterune/retarget/profile.hpp"
#include "asterune/rig/source_skeleton.hpp"

namespace asterune {

class Rig;

enum class Role : int {
  kHips, kSpine, kChest, kUpperChest, kNeck, kHead,
  kLeftShoulder, kLeftUpperArm, kLeftLowerArm, kLeftHand,
  kRightShoulder, kRightUpperArm, kRightLowerArm, kRightHand,
  kLeftUpperLeg, kLeftLowerLeg, kLeftFoot, kLeftToes,
  kRightUpperLeg, kRightLowerLeg, kRightFoot, kRightToes,
};
inline constexpr int kRoleCount = 22;

/// Snake-case name of a role: "hips", "upper_chest", "left_upper_arm", ...
const char* role_name(Role role);
/// Parses a role name; accepts snake_case and camelCase ("leftUpperArm"), any letter case.
std::optional<Role> parse_role(std::string_view name);

/// Where a role's joint came from (rule RT11): a naming scheme, the skeleton's structure, or
/// the author (a role override or an explicit joint map).
enum class RoleOrigin : unsigned char { kNone, kName, kStructure, kAuthor };

/// Which joint fills each role (empty: none). Names are source joint names, or for a rig the
/// lookup name of the joint (child part name, parent-qualified when the plain name is shared).
struct RoleMap {
  std::array<std::string, kRoleCount> joint;
  std::array<RoleOrigin, kRoleCount> origin{};  // kNone where joint is empty
  std::string scheme;  // the naming scheme that was detected ("roblox_r15", "cmu_bvh", ...), "" for none

  const std::string& operator[](Role r) const { return joint[static_cast<size_t>(r)]; }
  std::string& operator[](Role r) { return joint[static_cast<size_t>(r)]; }
  bool has(Role r) const { return !(*this)[r].empty(); }
  int count() const;
};

/// Detects roles from joint names by trying every known naming scheme and keeping the one
/// that matches the most names (ties: the earlier scheme in the list above). Matching ignores
/// letter case and a namespace prefix ending in ':' ("mixamorig:Hips"). Scheme-aware: CMU
/// "LeftShoulder" is a clavicle in the MotionBuilder naming but the upper arm in 3dsMax's.
RoleMap detect_roles(std::span<const std::string> joint_names);

/// Roles from the hierarchy and the rest geometry alone (rule RT11), names unused: the legs are
/// the longest pair of similar chains (3 or more joints that are not zero-length helpers), the
/// arms the longest other pair hanging from the spine side, the hips the joint where the legs'
/// and the spine's branches meet, the chest the joint carrying both arms, neck and head the
/// chain above it. Along each limb the upper and lower bones are the two consecutive long bones
/// followed by a short one (hand, foot). Left and right by chirality: up = hips -> head,
/// forward = the way the toes point, left = up x forward. Zero-length helper joints (CMU
/// `LHipJoint`) never take a role, except a clavicle-like first arm joint (shoulder). Without
/// two such limb pairs it returns no role; when forward or up is degenerate, no left/right role.
RoleMap structure_roles(const SourceSkeleton& source);

/// One line naming every found role with its joint and where it came from, and the missing
/// roles: "hips=Hips (name cmu_bvh), ..., left_upper_arm=j07 (structure); missing: toes".
std::string describe_roles(const RoleMap& roles);

/// Roles of a source skeleton (rule RT11): the naming schemes first, the structure for the roles
/// they leave empty, then `overrides` (role name -> joint name) on top; each role records its
/// origin. Fails on an unknown role name or a joint that is not in the skeleton.
Result<RoleMap> source_roles(const SourceSkeleton& source, const std::map<std::string, std::string>& overrides = {});

/// Roles of a rig: detection over its joints' child part names, then the rig file's author
/// overrides (Rig::roles(), role -> part name) on top. Fails on an unknown role name or a part
/// name that does not name exactly one joint.
Result<RoleMap> rig_roles(const Rig& rig);

struct RolePair {
  Role role;           // the target's role
  std::string target;  // target joint lookup name
  std::string source;  // source joint name
  RoleOrigin source_origin = RoleOrigin::kNone;  // how the source joint's role was found (rule RT11)
};

/// What maps across: pairs by role, and the joints left out on each side.
struct RetargetPlan {
  std::vector<RolePair> mapped;
  std::vector<std::string> unmapped_source;
  std::vector<std::string> unmapped_target;
};

/// Pairs equal roles. The torso roles (spine, chest, upper_chest) pair from the top down, so a
/// rig with one torso joint above the hips (R15 UpperTorso) follows the source's topmost torso
/// joint (the one carrying the arms and the neck), whatever the two spines' lengths.
RetargetPlan plan_retarget(const SourceSkeleton& source, const RoleMap& source_roles, const Rig& rig,
                           const RoleMap& target_roles);

/// Automatic facing alignment F (source skeleton space -> rig space) from the rests: on each
/// side, up = hips -> head (neck, chest, spine; +Y when none), left = right -> left upper leg
/// (or upper arm, shoulder), forward = left x up. Both frames are snapped to the nearest
/// coordinate axes (skeleton files are authored axis-aligned; a slightly asymmetric rest must
/// not tilt the whole motion). CMU BVH (+Z facing, left at +X) onto R15 (-Z, left at -X)
/// gives 180 degrees about +Y. Fails when either side has no left/right pair.
Result<glm::quat> auto_facing(const SourceSkeleton& source, const RoleMap& source_roles, const Rig& rig,
                              const RoleMap& target_roles);

struct AutoProfileOptions {
  bool rest_matching = true;
  bool translation = true;
  float scale = 1.0f;
  bool auto_scale = false;
  bool rest_on_ground = false;  // RetargetProfile::rest_on_ground
  std::map<std::string, std::string> source_overrides;  // role -> source joint name
};

/// `map: "auto"`: a profile from the two role maps (plan_retarget), auto_facing(), and, for
/// auto_scale, the leg chains of the first side (left, then right) complete on both skeletons.
Result<RetargetProfile> build_auto_profile(const SourceSkeleton& source, const Rig& rig,
                                          const AutoProfileOptions& options = {});

}  // namespace asterune
